package jobs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/agora-node/agora/vocabulary"
)

// The vectors under testdata/reference-*.json were made by running the
// reference library's schemas and importanceBand on seeded random entries
// (testdata/README.md says how). These tests hold our checkers to the
// same verdicts: the same entries accepted, the same members refused.
// Where the node is stricter than the reference by the instructions, each
// such member must be explained by one of the reasons below, so nothing
// else can hide behind them.

type refCase struct {
	Mutations []string       `json:"mutations"`
	Entry     map[string]any `json:"entry"`
	Accepted  bool           `json:"accepted"`
	Paths     []string       `json:"paths"`
}

// refSig is a well-formed signature, which the vectors write as "SIG" to
// stay small: our checkers read only that sig is a string, and the node
// verifies it against the signer's key apart from them.
var refSig = "ed25519-ml-dsa-44:" + strings.Repeat("5a", 2484)

func loadVectors(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// topMembers is the set of top-level members a list of issues names, as
// "/member", the way the vectors name the reference's issues.
func topMembers(list []Issue) []string {
	var out []string
	for _, i := range list {
		p := "/" + strings.SplitN(strings.TrimPrefix(i.Path, "/"), "/", 2)[0]
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// A stricter reason says why the node refuses a member the reference
// takes, by the instructions, or "" when it doesn't apply to e.
type stricter func(member string, e map[string]any) string

// referenceText is the reference's bounded text (ModelFamilySchema,
// ModelNameSchema): a string of at most max UTF-16 units, not all blank.
func referenceText(v any, max int) bool {
	s, ok := v.(string)
	return ok && utf16Len(s) <= max && strings.TrimSpace(s) != ""
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// Families off the node's list: the reference's schema takes any short
// name so a log stays readable, and says the node refuses one off its
// list when the call is made ("Naming your model").
func offList(member string, e map[string]any) string {
	if member == "/model_family" && referenceText(e["model_family"], 60) && !vocabulary.IsModelFamily(e["model_family"].(string)) {
		return "model_family off the node's list"
	}
	return ""
}

// Models outside the instructions' grammar: the reference takes any text
// of up to 100 characters; "Naming your model" asks 1 to 64 of a-z, 0-9
// and . - _ : / +, with no address (vocabulary.IsModelID).
func looseModel(member string, e map[string]any) string {
	if m, ok := e["model"].(string); ok && member == "/model" && referenceText(m, 100) && !vocabulary.IsModelID(m) {
		return "model outside the instructions' grammar"
	}
	return ""
}

// Every call the instructions' client signs names its model, so a
// challenge_review without one is refused, where the reference's schema
// leaves it optional.
func reviewNamesModel(member string, e map[string]any) string {
	if _, given := e["model"]; member == "/model" && !given {
		return "a challenge review names its model"
	}
	return ""
}

// A challenge may name no model, as the reference has it, but one naming
// its family or its model names both, as every signed call does, where
// the reference's schema takes either alone.
func modelWithFamily(member string, e map[string]any) string {
	_, model := e["model"]
	_, family := e["model_family"]
	if (member == "/model_family" && model && !family) || (member == "/model" && family && !model) {
		return "a challenge naming its family or its model names both"
	}
	return ""
}

// compareVectors runs check on every case and fails on any member one
// side refuses and the other doesn't, unless a stricter reason explains
// it. It returns how many cases agreed outright and the reasons counted.
func compareVectors(t *testing.T, cases []refCase, check func(map[string]any) []Issue, reasons ...stricter) (int, map[string]int) {
	t.Helper()
	agreed, why := 0, map[string]int{}
	for n, c := range cases {
		if c.Entry["sig"] == "SIG" {
			c.Entry["sig"] = refSig
		}
		ours := topMembers(check(c.Entry))
		if slices.Equal(ours, c.Paths) {
			agreed++
			continue
		}
		for _, p := range ours {
			if slices.Contains(c.Paths, p) {
				continue
			}
			reason := ""
			for _, r := range reasons {
				if reason = r(p, c.Entry); reason != "" {
					break
				}
			}
			if reason == "" {
				t.Errorf("case %d %v: we refuse %s, the reference doesn't (reference %v, ours %v)", n, c.Mutations, p, c.Paths, ours)
				continue
			}
			why[reason]++
		}
		for _, p := range c.Paths {
			if !slices.Contains(ours, p) {
				t.Errorf("case %d %v: the reference refuses %s, we don't (reference %v, ours %v)", n, c.Mutations, p, c.Paths, ours)
			}
		}
	}
	return agreed, why
}

func checkOnly[T any](f func(map[string]any) (T, []Issue)) func(map[string]any) []Issue {
	return func(e map[string]any) []Issue { _, is := f(e); return is }
}

func TestReferenceImportanceRatings(t *testing.T) {
	var v struct {
		BandsTable []Band `json:"bands_table"`
		Bands      []struct {
			Score   float64 `json:"score"`
			BandMin int     `json:"band_min"`
			Label   string  `json:"label"`
		} `json:"bands"`
		Ratings []refCase `json:"ratings"`
	}
	loadVectors(t, "reference-importance.json", &v)
	if len(v.Ratings) == 0 || len(v.Bands) == 0 {
		t.Fatal("no vectors")
	}
	agreed, why := compareVectors(t, v.Ratings, checkOnly(CheckImportanceRating), offList, looseModel)
	t.Logf("%d of %d ratings agree outright; stricter by the instructions: %v", agreed, len(v.Ratings), why)

	// The bands' ends and labels are the reference's; their meanings are
	// the instructions' later edition (RubricEdition), so they differ.
	if len(v.BandsTable) != len(Bands) {
		t.Fatalf("%d bands, the reference has %d", len(Bands), len(v.BandsTable))
	}
	for i, b := range v.BandsTable {
		if Bands[i].Min != b.Min || Bands[i].Max != b.Max || Bands[i].Label != b.Label {
			t.Errorf("band %d is %d-%d %q, the reference's %d-%d %q", i, Bands[i].Min, Bands[i].Max, Bands[i].Label, b.Min, b.Max, b.Label)
		}
	}
	for _, c := range v.Bands {
		if b := bandOf(c.Score); b.Min != c.BandMin || b.Label != c.Label {
			t.Errorf("score %v falls in the band from %d (%s), the reference says %d (%s)", c.Score, b.Min, b.Label, c.BandMin, c.Label)
		}
	}
}

// bandOf is the band a score falls in: the highest whose bottom it
// reaches, so a score between two bands' ends (89.5) takes the lower.
func bandOf(score float64) Band {
	for _, b := range Bands {
		if score >= float64(b.Min) {
			return b
		}
	}
	return Bands[len(Bands)-1]
}

func TestReferenceChallenges(t *testing.T) {
	var v struct {
		Challenges       []refCase `json:"challenges"`
		ChallengeReviews []refCase `json:"challenge_reviews"`
	}
	loadVectors(t, "reference-challenges.json", &v)
	if len(v.Challenges) == 0 || len(v.ChallengeReviews) == 0 {
		t.Fatal("no vectors")
	}
	agreed, why := compareVectors(t, v.Challenges, checkOnly(CheckChallenge), offList, looseModel, modelWithFamily)
	t.Logf("%d of %d challenges agree outright; stricter by the instructions: %v", agreed, len(v.Challenges), why)
	agreed, why = compareVectors(t, v.ChallengeReviews, checkOnly(CheckChallengeReview), offList, looseModel, reviewNamesModel)
	t.Logf("%d of %d challenge reviews agree outright; stricter by the instructions: %v", agreed, len(v.ChallengeReviews), why)
}
