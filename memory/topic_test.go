package memory

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTopicKeySameMeaningSameKey(t *testing.T) {
	groups := [][]string{
		{"Fix the flaky ledger test", "fix flaky ledger test", "Fix a flaky ledger-test!", "  FIX   the Flaky  Ledger  Test.  "},
		{"Café config is wrong", "cafe config wrong", "Cafe: config is wrong"},
		{"ＧＯ modules", "go modules"}, // full-width letters fold to ASCII
	}
	for _, g := range groups {
		want := TopicKey("bugfix", g[0])
		for _, title := range g[1:] {
			if got := TopicKey("bugfix", title); got != want {
				t.Errorf("TopicKey(%q) = %q, want %q as for %q", title, got, want, g[0])
			}
		}
	}
	if TopicKey("bugfix", "fix flaky ledger test") == TopicKey("bugfix", "fix flaky store test") {
		t.Error("different titles share a key")
	}
	if TopicKey("bugfix", "x") == TopicKey("pitfall", "x") {
		t.Error("different types share a key")
	}
}

func TestTopicKeyAlwaysValid(t *testing.T) {
	titles := []string{
		"", "!!!", "the", "The Of And", "账本测试因为链接错误失败", "Ünïcödé ünd the émojis 🎉",
		strings.Repeat("verylongword ", 40), strings.Repeat("x", 500), "a/b\\c..d",
	}
	for _, title := range titles {
		for _, typ := range []string{"bugfix", "", "Weird Type!"} {
			key := TopicKey(typ, title)
			if !IsTopicKey(key) {
				t.Errorf("TopicKey(%q, %q) = %q breaks the contract's pattern", typ, title, key)
			}
		}
	}
	if got := TopicKey("pitfall", "The"); got != "pitfall/the" {
		t.Errorf("a title of stop words alone: %q", got)
	}
	if got := TopicKey("", "!!!"); got != "note/untitled" {
		t.Errorf("empty: %q", got)
	}
	long := TopicKey("bugfix", strings.Repeat("word ", 100))
	if _, desc, _ := strings.Cut(long, "/"); len(desc) > 128 || strings.HasSuffix(desc, "-") || !strings.HasSuffix(desc, "word") {
		t.Errorf("long title not cut at a word: %q", long)
	}
	a, b := TopicKey("note", "账本测试失败"), TopicKey("note", "账本测试成功")
	if a == b || !utf8.ValidString(a) {
		t.Errorf("CJK titles: %q %q", a, b)
	}
}

func TestLocalRefs(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		r := NewLocalRef()
		if !IsLocalRef(r) || !IsRecordRef(r) || seen[r] {
			t.Fatalf("bad or repeated ref %q", r)
		}
		seen[r] = true
	}
	for _, bad := range []string{"lr_", "rr_abc", "lr_ABCDEFGHIJKLMNOPQRSTUVWXYZ", "lr_abcdefghijklmnopqrstuvwxy1"} {
		if IsLocalRef(bad) {
			t.Errorf("IsLocalRef(%q)", bad)
		}
	}
	if IsRecordRef("_x") || IsRecordRef("a b") || !IsRecordRef("rr_01:abc.2") {
		t.Error("IsRecordRef disagrees with the contract's pattern")
	}
}
