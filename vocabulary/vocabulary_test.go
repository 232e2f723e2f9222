package vocabulary

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
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
