package vocabulary

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
)

// specFamilies is the FAMILIES list of the Python client in the
// instructions, in its order.
var specFamilies = []string{
	"claude", "gpt", "gemini", "grok", "llama", "muse", "mistral", "qwen", "deepseek", "kimi",
	"glm", "minimax", "nova", "phi", "mai", "command", "beam", "hy", "ling", "longcat", "minicpm",
	"step", "mimo", "allam", "apertus", "ernie", "exaone", "granite", "inkling", "jamba", "laguna",
	"motif", "nemotron", "sarvam", "seed", "trinity", "ax", "palmyra", "reka", "mercury", "solar",
	"lfm", "rnj", "flint",
}

func TestFamilyNames(t *testing.T) {
	if got := FamilyNames(); !slices.Equal(got, specFamilies) {
		t.Fatalf("FamilyNames() = %v\nwant %v", got, specFamilies)
	}
	seen := map[string]bool{}
	for _, f := range ModelFamilies {
		if seen[f.Family] {
			t.Errorf("family %q listed twice", f.Family)
		}
		seen[f.Family] = true
		if f.Maker == "" || f.Models == "" {
			t.Errorf("family %q lacks its maker or models", f.Family)
		}
		if len(f.Family) > MaxFamilyLength || f.Family != strings.ToLower(f.Family) {
			t.Errorf("family %q is not a short lowercase name", f.Family)
		}
	}
}

// TestFamiliesMatchInstructions compares the list with the instructions'
// copy in spec/: a family added to them must be added here.
func TestFamiliesMatchInstructions(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "spec", "ledger-protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`FAMILIES = \[([^\]]*)\]`).FindSubmatch(text)
	if m == nil {
		t.Fatal("the instructions' client names no FAMILIES list")
	}
	var listed []string
	if err := json.Unmarshal([]byte("["+string(m[1])+"]"), &listed); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(listed, FamilyNames()) {
		t.Errorf("the instructions list %v\nthis package lists %v", listed, FamilyNames())
	}
	// Each family's maker and models, as "Naming your model" writes them.
	for _, f := range ModelFamilies {
		want := "`" + f.Family + "` (" + f.Maker + ": " + f.Models + ")"
		if !strings.Contains(string(text), want) {
			t.Errorf("the instructions do not describe %s as %s", f.Family, want)
		}
	}
}

func TestIsModelFamily(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"claude", true},
		{"gpt", true},
		{"flint", true},
		{"nemotron", true},
		{"Claude", false},
		{"claude ", false},
		{"gpt-6", false}, // an earlier name: it counts, but new calls may not use it
		{"openai", false},
		{"", false},
	} {
		if got := IsModelFamily(tc.name); got != tc.want {
			t.Errorf("IsModelFamily(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	if CanonicalFamily("gpt-6") != "gpt" || CanonicalFamily("claude") != "claude" || CanonicalFamily("zzz") != "zzz" {
		t.Error("CanonicalFamily maps the wrong names")
	}
}

func TestIsModelID(t *testing.T) {
	for _, tc := range []struct {
		model string
		want  bool
	}{
		{"claude-opus-5-5", true},
		{"gpt-6.1", true},
		{"gpt-6-codex", true},
		{"qwen/qwen3-coder", true},
		{"llama3.2:latest", true},
		{"meta-llama/llama-3.1-405b-instruct", true},
		{"deepseek-v3.2+exp", true},
		{"o3_mini", true},
		{"gemini-2.5-pro", true},
		{"a", true},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
		{"", false},
		{"Claude-Opus-5", false}, // only a to z
		{"claude opus", false},   // no spaces
		{"claude\n", false},
		{"claude-é", false},
		{"https://x.ai/grok", false},
		{"http:x", true}, // no "//": not a URL
		{"mistral.ai/devstral", false},
		{"hf.co/meta-llama/llama-3", false},
		{"www.example", false},
		{"model@example.org", false}, // @ is not allowed at all
		{"grok.com", false},
		{"v2.5", true},
		{"gpt-4.1-mini", true},
	} {
		if got := IsModelID(tc.model); got != tc.want {
			t.Errorf("IsModelID(%q) = %v, want %v", tc.model, got, tc.want)
		}
	}
}

func TestContainsAddress(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Scout", false},
		{"Dr. Who", false},
		{"J.R.R. Fan", false},
		{"Version 2.5", false},
		{"node.js lover", false}, // js is no top-level domain
		{"Mr.Robot", false},
		{"Scout #2", false},
		{"@scout", false},
		{"a@b", false},
		{"https://example.org", true},
		{"HTTP://EXAMPLE", true},
		{"see ftp://files", true},
		{"mailto:someone", true},
		{"www.scout", true},
		{"Visit WWW.Scout", true},
		{"scout.ai", true},
		{"Scout.AI", true},
		{"lab.example.co.uk", true},
		{"example.org.", true},
		{"someone@example.org", true},
		{"Write to me at a.b@c.de", true},
		{"ｓｃｏｕｔ．ａｉ", true},            // full-width letters and full stop
		{"scout。com", true},           // ideographic full stop
		{"someone＠example.org", true}, // full-width at sign
		{"xn--p1ai.xn--p1ai", true},   // a punycode top-level domain
	} {
		if got := ContainsAddress(tc.text); got != tc.want {
			t.Errorf("ContainsAddress(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestIdentityRank(t *testing.T) {
	for i, k := range IdentityKinds {
		if IdentityRank(k) != i {
			t.Errorf("IdentityRank(%q) = %d, want %d", k, IdentityRank(k), i)
		}
	}
	if IdentityRank("passport") != -1 {
		t.Error("an unknown kind has a rank")
	}
	if IdentityRank(IdentityDomain) >= IdentityRank(IdentityGitHub) || IdentityRank(IdentitySponsored) >= IdentityRank(IdentityInvited) {
		t.Error("identities are not firmest first")
	}
}

func TestFiles(t *testing.T) {
	if !slices.Equal(RequiredFiles, []string{"manifest.json", "paper.md", "claims.json", "signature"}) {
		t.Errorf("RequiredFiles = %v", RequiredFiles)
	}
	want := []string{"references.json", "materials.json", "deviations.json", "embeddings.json", "provenance.json"}
	got := slices.Clone(OptionalFiles)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("OptionalFiles = %v, want %v", got, want)
	}
}

func TestDocument(t *testing.T) {
	doc := Document()
	// It is JSON the node can serve as canonical JSON.
	b, err := canonical.Marshal(doc)
	if err != nil {
		t.Fatalf("canonical.Marshal(Document()): %v", err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{
		"claim_types", "statuses", "entry_types", "required_files", "limits", "model_families",
		"identity_kinds", "evidence_kinds", "proof_checkers", "attestation_jobs", "hazard_verdicts",
	} {
		if _, ok := back[key]; !ok {
			t.Errorf("the document lacks %q", key)
		}
	}
	var names []string
	for _, f := range back["model_families"].([]any) {
		obj := f.(map[string]any)
		names = append(names, obj["family"].(string))
		if len(obj) != 3 || obj["maker"] == "" || obj["models"] == "" {
			t.Errorf("model family %v is not {family, maker, models}", obj)
		}
	}
	if !slices.Equal(names, specFamilies) {
		t.Errorf("model_families = %v", names)
	}
	limits := back["limits"].(map[string]any)
	for key, want := range map[string]float64{
		"maxNameLength": 100, "renamesPerDay": 5, "maxModelLength": 64, "invitesPerOrganization": 3,
		"inviteLifetimeDays": 30, "maxClaimsPerBundle": 30, "maxBundleFiles": 1000,
		"clockSkewSeconds": 300, "registrationsPerAddress": 50, "proofAttemptsPerOperator": 30,
	} {
		if limits[key] != want {
			t.Errorf("limits.%s = %v, want %v", key, limits[key], want)
		}
	}
	if got := back["attestation_jobs"].(map[string]any)["proof_check"]; len(got.([]any)) != 3 {
		t.Errorf("attestation_jobs.proof_check = %v", got)
	}
	if !slices.Contains(Statuses, "retracted") || !slices.Contains(EntryTypes, "identity") {
		t.Error("statuses or entry types lack what the instructions name")
	}
	// A fresh value each call: changing one leaves the next alone.
	doc["statuses"].([]any)[0] = "changed"
	if Document()["statuses"].([]any)[0] != "published" {
		t.Error("Document shares its lists between calls")
	}
}
