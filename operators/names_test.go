package operators

import (
	"errors"
	"strings"
	"testing"
)

func TestCleanName(t *testing.T) {
	for _, tc := range []struct {
		name, want string
	}{
		{"Scout", "Scout"},
		{"  Scout \t", "Scout"},
		{"Tuesday Night Physics", "Tuesday Night Physics"},
		{"Élodie", "Élodie"},
		{"李雷", "李雷"},
		{"Agent 007", "Agent 007"},
		{"#1 Fan", "#1 Fan"},
		{"Scout #", "Scout #"},
		{"Scout #2a", "Scout #2a"},
		{"Scout #two", "Scout #two"},
		{"Dr. Who", "Dr. Who"},
		{"node.js fan", "node.js fan"},
		{"@scout", "@scout"},
		{"Sc\u200bout", "Sc\u200bout"}, // allowed, but ignored by NameKey
		{strings.Repeat("a", 100), strings.Repeat("a", 100)},
		{strings.Repeat("🦉", 50), strings.Repeat("🦉", 50)}, // 100 UTF-16 code units
	} {
		got, err := CleanName(tc.name)
		if err != nil || got != tc.want {
			t.Errorf("CleanName(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestCleanNameRefuses(t *testing.T) {
	for _, tc := range []struct {
		why, name string
	}{
		{"empty", ""},
		{"spaces", "   "},
		{"invisible", "\u200b\u200d\ufe0f"},
		{"no-break spaces", "\u00a0\u3000"},
		{"two lines", "Scout\nBot"},
		{"carriage return", "Scout\rBot"},
		{"line separator", "Scout\u2028Bot"},
		{"next line", "Scout\u0085Bot"},
		{"control", "Scout\x07"},
		{"tab inside", "Scout\tBot"},
		{"bidi override", "Scout\u202eBot"},
		{"bidi isolate", "\u2067Scout"},
		{"101 characters", strings.Repeat("a", 101)},
		{"51 emoji", strings.Repeat("🦉", 51)},
		{"URL", "https://example.org"},
		{"URL inside", "Scout (see http://x)"},
		{"www", "www.scout"},
		{"domain", "scout.ai"},
		{"domain in caps", "SCOUT.AI"},
		{"full-width domain", "ｓｃｏｕｔ．ａｉ"},
		{"email", "scout@example.org"},
		{"numbered", "Scout #2"},
		{"numbered without a space", "Scout#2"},
		{"numbered, spaced", "Scout # 12"},
		{"numbered, full width", "Scout ＃２"},
		{"numbered, another script's digits", "Scout #٣"},
		{"numbered, then invisible", "Scout #2\u200b"},
		{"numbered, then spaces", "Scout #2   "},
	} {
		got, err := CleanName(tc.name)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrInvalidName) {
			t.Errorf("%s: CleanName(%q) = %q, %v; want ErrInvalidName", tc.why, tc.name, got, err)
			continue
		}
		if e.Reason == "" || e.Err.Code() != "invalid_name" {
			t.Errorf("%s: error %#v says too little", tc.why, e)
		}
	}
}

// TestNameKeySame lists names that read the same, which must share a key.
// Every look-alike rule has a case here that fails without it.
func TestNameKeySame(t *testing.T) {
	for _, tc := range []struct {
		why, a, b string
	}{
		{"case", "Scout", "scout"},
		{"upper case", "Scout", "SCOUT"},
		{"German sharp s folds to ss", "Straße", "STRASSE"},
		{"Greek final sigma", "ΟΔΟΣ", "οδος"},
		{"Greek sigma", "Σ", "σ"},
		{"Cherokee capital and small", "Ꭰ", "ꭰ"},
		{"Cherokee for Latin", "Ꭰ", "d"},
		{"spacing", "Scout Bot", "ScoutBot"},
		{"spread out", "Scout", "S c o u t"},
		{"no-break and ideographic spaces", "Scout Bot", "Scout\u00a0\u3000Bot"},
		{"zero-width space", "Scout", "Sc\u200bout"},
		{"zero-width joiner and non-joiner", "Scout", "S\u200dc\u200cout"},
		{"word joiner and BOM", "Scout", "\u2060Sc\ufeffout"},
		{"soft hyphen", "Scout", "Sc\u00adout"},
		{"variation selector", "Scout", "Scout\ufe0f"},
		{"full-width letters", "Scout", "Ｓｃｏｕｔ"},
		{"mathematical bold", "Scout", "𝐒𝐜𝐨𝐮𝐭"},
		{"Cyrillic look-alikes", "Scout", "Ѕсоut"},
		{"Cyrillic a in paypal", "paypal", "pаypal"},
		{"Greek omicron", "Bot", "Bοt"},
		{"digit zero for O", "Bob", "B0b"},
		{"capital I for l", "Bill", "BiII"},
		{"digit one for l", "Bill", "Bi11"},
		{"rn for m", "modern", "modem"},
		{"Cyrillic and case together", "SCOUT", "ѕсоut"},
		{"combining accent, composed or not", "Élodie", "E\u0301lodie"},
	} {
		if ka, kb := NameKey(tc.a), NameKey(tc.b); ka != kb {
			t.Errorf("%s: NameKey(%q) = %q, NameKey(%q) = %q; want equal", tc.why, tc.a, ka, tc.b, kb)
		}
	}
}

func TestNameKeyDifferent(t *testing.T) {
	for _, tc := range []struct {
		a, b string
	}{
		{"Scout", "Scouts"},
		{"Scout", "Scott"},
		{"Scout-Bot", "Scout Bot"},
		{"Scout 1", "Scout 2"},
		{"Élodie", "Elodie"},
		{"Alpha", "Beta"},
		{"李雷", "韩梅梅"},
	} {
		if NameKey(tc.a) == NameKey(tc.b) {
			t.Errorf("NameKey(%q) == NameKey(%q) = %q; want different", tc.a, tc.b, NameKey(tc.a))
		}
	}
	if NameKey("Scout") == "" || NameKey("\u200b") != "" {
		t.Error("a name's key is empty, or an invisible name's is not")
	}
}

func TestShownName(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		want string
	}{
		{"Scout", 0, "Scout"},
		{"Scout", 1, "Scout"},
		{"scout", 2, "scout #2"},
		{"Scout", 13, "Scout #13"},
	} {
		if got := ShownName(tc.name, tc.n); got != tc.want {
			t.Errorf("ShownName(%q, %d) = %q, want %q", tc.name, tc.n, got, tc.want)
		}
	}
	// A shown name with a number is never a name anyone may choose, so
	// numbered names never collide with chosen ones.
	if _, err := CleanName(ShownName("Scout", 2)); err == nil {
		t.Error("a numbered name can be chosen")
	}
}
