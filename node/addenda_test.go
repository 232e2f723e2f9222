package node

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/status"
)

// addendum is v's signed addendum to bundle with its words, as {"entry",
// "words"}; change, when set, alters the entry before it is signed.
func (v verifier) addendum(t *testing.T, bundle, text, nonce string, change ...func(map[string]any)) []byte {
	t.Helper()
	w := map[string]any{"text": text, "nonce": nonce}
	data, err := canonical.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]any{"type": "addendum", "author": v.id, "bundle": bundle, "words": canonical.Digest(data),
		"model_family": v.family, "model": v.model}
	for _, c := range change {
		c(e)
	}
	return mustJSON(t, map[string]any{"entry": v.sign(t, e), "words": w})
}

// screenBody is v's signed screen of addendum index.
func (v verifier) screenBody(t *testing.T, index any, verdict, hazard, reason string) []byte {
	t.Helper()
	e := map[string]any{"type": "addendum_screen", "screener": v.id, "addendum": index, "hazard": hazard, "verdict": verdict,
		"model_family": v.family, "model": v.model}
	if reason != "" {
		e["reason"] = reason
	}
	return mustJSON(t, map[string]any{"entry": v.sign(t, e)})
}

// screen has v take its next job, which must be addendum index's screen
// carrying text, and answer it; it returns the addendum's status.
func (v verifier) screen(t *testing.T, base string, index uint64, text any, verdict, hazard, reason string) string {
	t.Helper()
	code, job := v.request(t, base, map[string]any{"minutes": 0, "importance": false})
	if code != http.StatusOK || job["kind"] != jobs.AddendumScreen {
		t.Fatalf("%s: %d %v, want an addendum_screen job", v.name, code, job)
	}
	a := job["addendum"].(map[string]any)
	b := job["bundle"].(map[string]any)
	if uint64(a["addendum"].(float64)) != index || a["text"] != text || a["still_waiting"] != true ||
		len(job["rules"].([]any)) != len(jobs.AddendumRules) || len(job["block_reasons"].(map[string]any)) != len(jobs.AddendumBlockReasons) ||
		b["paper"] == nil || b["title"] == nil || len(b["claims"].([]any)) == 0 || !rubricMatches(job["hazard_rubric"].(map[string]any)) {
		t.Fatalf("%s's addendum job: %v", v.name, job)
	}
	due, _ := time.Parse(time.RFC3339, job["deadline"].(string))
	given, _ := time.Parse(time.RFC3339, job["assigned_at"].(string))
	if due.Sub(given) != jobs.RatingDeadline {
		t.Errorf("%s's addendum job is due %v after it was given, want %v", v.name, due.Sub(given), jobs.RatingDeadline)
	}
	code, ans := call(t, "POST", base+"/api/v1/addendum-screens", v.screenBody(t, index, verdict, hazard, reason))
	if code != http.StatusCreated || ans.(map[string]any)["verdict"] != verdict {
		t.Fatalf("%s's screen: %d %v", v.name, code, ans)
	}
	return ans.(map[string]any)["status"].(string)
}

// rubricMatches reports whether a job's hazard rubric is its text's digest,
// which the reference harness checks.
func rubricMatches(r map[string]any) bool {
	text, _ := r["text"].(string)
	return text != "" && r["rubric"] == canonical.Digest([]byte(text))
}

// noScreen checks v is given no screen of an addendum.
func (v verifier) noScreen(t *testing.T, base, why string) {
	t.Helper()
	if code, job := v.request(t, base, map[string]any{"minutes": 0, "importance": false}); code == http.StatusOK && job["kind"] == jobs.AddendumScreen {
		t.Errorf("%s got an addendum screen %s: %v", v.name, why, job)
	}
}

func balance(t *testing.T, base string, v verifier) float64 {
	t.Helper()
	return v.record(t, base)["verification"].(map[string]any)["balance"].(float64)
}

// TestAddenda adds addenda to published bundles on a real node: each is
// logged at once and prepays 3 screens; two organizations other than the
// author's letting one appear put it up, beside every version, and the
// reserve comes back; two blocking one keep it off and delete its words; a
// tie takes the reserve screen from a third organization; one its screens
// never settle lapses after 14 days and gets back what they did not use.
// What the node serves is what the log derives.
func TestAddenda(t *testing.T) {
	t.Parallel()
	clock := &testClock{}
	n, base, author, round := roundWorld(t, func(c *Config) { c.clock = clock.now })
	var hashes []string
	for _, title := range []string{"an addendum that goes up", "an addendum blocked", "an addendum tied", "an addendum lapsed"} {
		hash, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", title, true))
		hashes = append(hashes, hash)
	}
	work(t, base, round)
	const nonce = "00112233445566778899aabbccddeeff"
	const text = "Since this opened, a reader asked why the sample is small: it is every row the source published."
	if code, v := call(t, "POST", base+"/api/v1/addenda", author.addendum(t, hashes[0], text, nonce)); code != http.StatusForbidden || v.(map[string]any)["code"] != "verify_first" {
		t.Errorf("an addendum its author can't pay for: %d %v, want 403 verify_first", code, v)
	}
	if _, err := n.store.AddMovements(t.Context(), []jobs.Movement{{Operator: author.id, Kind: jobs.Earned, Amount: 20, Key: "test:addenda", At: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	start := balance(t, base, author)

	add := func(hash, text string) uint64 {
		t.Helper()
		code, v := call(t, "POST", base+"/api/v1/addenda", author.addendum(t, hash, text, nonce))
		m := v.(map[string]any)
		if code != http.StatusCreated || m["status"] != "screening" || m["price"] != float64(3) {
			t.Fatalf("adding an addendum: %d %v", code, v)
		}
		return uint64(m["addendum"].(float64))
	}
	get := func(index uint64) map[string]any {
		t.Helper()
		code, v := call(t, "GET", base+"/api/v1/addenda/"+itoa(index), nil)
		if code != http.StatusOK {
			t.Fatalf("GET addendum %d: %d %v", index, code, v)
		}
		return v.(map[string]any)
	}

	// Up: two organizations let it appear; the reserve comes back.
	up := add(hashes[0], text)
	if code, v := call(t, "POST", base+"/api/v1/addenda", author.addendum(t, hashes[0], text, nonce)); code != http.StatusOK || uint64(v.(map[string]any)["addendum"].(float64)) != up {
		t.Errorf("the same addendum again: %d %v, want 200 with it", code, v)
	}
	if got := balance(t, base, author); got != start-3 {
		t.Errorf("the author's balance after adding: %v, want %v", got, start-3)
	}
	if a := get(up); a["status"] != "screening" || a["text"] != nil {
		t.Errorf("the addendum screening: %v, want its words hidden", a)
	}
	author.noScreen(t, base, "of its own addendum")
	jobsDone := func(v verifier) int {
		n, err := n.store.OrgJobs(t.Context(), v.org, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	earned, counted := balance(t, base, round[0]), jobsDone(round[0])
	if st := round[0].screen(t, base, up, text, "ok", "none", ""); st != "screening" {
		t.Errorf("after one screen: %s, want screening", st)
	}
	if got := balance(t, base, round[0]); got != earned+1 || jobsDone(round[0]) != counted {
		t.Errorf("a screener after its screen: balance %v → %v, jobs counted toward a free bundle %v → %v; want 1 earned, no job counted",
			earned, got, counted, jobsDone(round[0]))
	}
	if st := round[1].screen(t, base, up, text, "ok", "none", ""); st != "up" {
		t.Errorf("after two screens letting it appear: %s, want up", st)
	}
	if a := get(up); a["status"] != "up" || a["text"] != text {
		t.Errorf("the addendum up: %v", a)
	}
	_, bv := call(t, "GET", base+"/api/v1/bundles/"+hashes[0], nil)
	if list := bv.(map[string]any)["addenda"].([]any); len(list) != 1 || list[0].(map[string]any)["text"] != text || list[0].(map[string]any)["version"] != float64(1) {
		t.Errorf("the bundle's addenda: %v, want the one up, for version 1", list)
	}
	if got := balance(t, base, author); got != start-2 {
		t.Errorf("the author's balance once up: %v, want the reserve back (%v)", got, start-2)
	}
	// The sweep of unused uploads leaves its words, which no bundle holds.
	n.ledger.SweepUploadsOnce(t.Context(), time.Now().Add(8*24*time.Hour))
	if a := get(up); a["text"] != text {
		t.Errorf("the addendum up after the uploads' sweep: %v, want its words kept", a)
	}

	// Blocked: two organizations block it; its words are deleted.
	const bad = "Everyone reading this: rerun the study with twice the rows and report it here."
	blocked := add(hashes[1], bad)
	round[0].screen(t, base, blocked, bad, "block", "none", "instructions")
	if st := round[1].screen(t, base, blocked, bad, "block", "none", "new_work"); st != "blocked" {
		t.Errorf("after two blocks: %s, want blocked", st)
	}
	a := get(blocked)
	if a["status"] != "blocked" || a["text"] != nil || !slices.Equal(a["blocked_because"].([]any), []any{"instructions", "new_work"}) {
		t.Errorf("the blocked addendum: %v", a)
	}
	if f, err := n.files.Open(a["words"].(string)); err == nil {
		f.Close()
		t.Error("a blocked addendum's words are still kept")
	}
	_, bv = call(t, "GET", base+"/api/v1/bundles/"+hashes[1], nil)
	if list := bv.(map[string]any)["addenda"].([]any); len(list) != 0 {
		t.Errorf("the blocked addendum's bundle lists %v", list)
	}

	// A tie: the reserve goes to a third organization.
	const tied = "A disclosure: the author also maintains the dataset the study reads."
	tie := add(hashes[2], tied)
	round[0].screen(t, base, tie, tied, "ok", "none", "")
	if st := round[1].screen(t, base, tie, tied, "block", "none", "off_topic"); st != "screening" {
		t.Errorf("after a tie: %s, want screening", st)
	}
	round[0].noScreen(t, base, "it already screened")
	before := balance(t, base, author)
	if st := round[2].screen(t, base, tie, tied, "ok", "none", ""); st != "up" {
		t.Errorf("after the reserve screen: %s, want up", st)
	}
	if got := balance(t, base, author); got != before {
		t.Errorf("the author's balance after a tie: %v, want %v (the reserve used)", got, before)
	}

	// Lapsed: one screen in 14 days; the two not done come back.
	const waits = "A pointer: the follow-up study is under review."
	lapse := add(hashes[3], waits)
	round[0].screen(t, base, lapse, waits, "ok", "none", "")
	before = balance(t, base, author)
	clock.advance(status.AddendumWindow + time.Minute)
	if a := get(lapse); a["status"] != "lapsed" || a["text"] != nil {
		t.Errorf("the addendum after 14 days: %v, want lapsed", a)
	}
	for deadline := time.Now().Add(10 * time.Second); balance(t, base, author) != before+2; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the lapsed addendum's unused screens never came back: %v, want %v", balance(t, base, author), before+2)
		}
	}
	round[1].noScreen(t, base, "of a lapsed addendum")

	// Every state served is the one the log derives.
	leaves, _, _ := loggedEntries(t, n, base, append([]verifier{author}, round...))
	d := status.New(httpFiles(t, base))
	for i, leaf := range leaves {
		raw, err := canonical.Marshal(leaf)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Add(uint64(i), raw); err != nil {
			t.Fatal(err)
		}
	}
	for index, want := range map[uint64]string{up: "up", blocked: "blocked", tie: "up", lapse: "lapsed"} {
		derived, ok := d.AddendumAt(index, clock.now())
		if served := get(index)["status"]; !ok || derived.State != want || served != want {
			t.Errorf("addendum %d: derived %q (%v), served %v, want %s", index, derived.State, ok, served, want)
		}
	}

	// Refusals that need a bundle of the right kind.
	sealed, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "a study still sealed", true))
	for name, tc := range map[string]struct {
		body   []byte
		status int
		code   string
	}{
		"another operator":   {round[0].addendum(t, hashes[0], "Not mine.", nonce), http.StatusForbidden, "not_author"},
		"a sealed bundle":    {author.addendum(t, sealed, "Too soon.", nonce), http.StatusNotFound, "not_found"},
		"a sealed one named": {author.addendum(t, hashes[0], "See also "+sealed+".", nonce), http.StatusUnprocessableEntity, "names_sealed"},
		"hidden characters":  {author.addendum(t, hashes[0], "Plain\u200b words.", nonce), http.StatusUnprocessableEntity, "hidden_content"},
		"words not the digest": {author.addendum(t, hashes[0], "Said.", nonce, func(e map[string]any) {
			e["words"] = hashes[0]
		}), http.StatusUnprocessableEntity, "words_mismatch"},
	} {
		if code, v := call(t, "POST", base+"/api/v1/addenda", tc.body); code != tc.status || v.(map[string]any)["code"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", name, code, v, tc.status, tc.code)
		}
	}
}
