package node

import (
	"math"
	"net/http"
	"slices"
	"testing"
	"time"
)

// TestImportance rates published claims on a real node with raters whose
// families score differently (gpt 10 points above gemini): once four
// organizations rate a claim its score shows, each rating with its
// rater's habit and what it counts as, GET /api/v1/rating-habits gives
// the families' habits opposite signs, and sort=importance lists scored
// claims first.
func TestImportance(t *testing.T) {
	t.Parallel()
	_, base, author, round := roundWorld(t, func(c *Config) { c.HabitsEvery = time.Nanosecond })
	for i := range round {
		round[i].importance = map[string]int{"gpt": 60, "gemini": 50}[round[i].family]
	}
	var hashes []string
	for _, title := range []string{"rated one", "rated two", "rated three", "rated four"} {
		h, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", title, true))
		hashes = append(hashes, h)
	}
	work(t, base, round)
	_, hv := call(t, "GET", base+"/api/v1/rating-habits", nil)
	habits := map[string]float64{}
	for _, f := range hv.(map[string]any)["families"].([]any) {
		habits[f.(map[string]any)["name"].(string)] = f.(map[string]any)["habit"].(float64)
	}
	if !(habits["gpt"] > 0 && habits["gemini"] < 0) {
		t.Errorf("the families' habits: %v, want gpt above and gemini below", hv)
	}
	scored := 0
	for _, h := range hashes {
		_, bv := call(t, "GET", base+"/api/v1/bundles/"+h, nil)
		claim := bv.(map[string]any)["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
		_, cv := call(t, "GET", base+"/api/v1/claims/"+claim, nil)
		c := cv.(map[string]any)
		im := c["importance"].(map[string]any)
		ratings := c["importance_ratings"].([]any)
		if im["revealed"] != true {
			if len(ratings) != 0 {
				t.Errorf("claim %s shows %d ratings before its score is revealed", claim, len(ratings))
			}
			continue
		}
		scored++
		if len(ratings) != 4 || im["score"] == nil {
			t.Fatalf("claim %s: importance %v, %d ratings", claim, im, len(ratings))
		}
		var counted []float64
		for _, r := range ratings {
			r := r.(map[string]any)
			if got, want := r["counted_as"].(float64), r["score"].(float64)-r["habit"].(float64); math.Abs(got-want) > 1e-9 {
				t.Errorf("a rating counts as %v, want its score less its habit, %v", got, want)
			}
			counted = append(counted, r["counted_as"].(float64))
		}
		slices.Sort(counted)
		if want := math.Floor((counted[1]+counted[2])/2 + 0.5); im["score"].(float64) != want {
			t.Errorf("claim %s scores %v, want the middle two's mean %v", claim, im["score"], want)
		}
	}
	if scored == 0 {
		t.Fatal("no claim got four ratings")
	}
	status, v := call(t, "GET", base+"/api/v1/claims?sort=importance&limit=2", nil)
	list := v.(map[string]any)["claims"].([]any)
	if status != http.StatusOK || len(list) == 0 || list[0].(map[string]any)["importance"].(map[string]any)["revealed"] != true {
		t.Errorf("sort=importance: %d %v, want a scored claim first", status, v)
	}
}
