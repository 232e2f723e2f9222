package hazard_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/vocabulary"
)

// pinned is the digest of the rubric as it stands. Authors declare it in
// their manifests, and the node refuses any other, so a change to rubric.md
// turns away every bundle screened under the old text: update this only
// with the text, on purpose, and say so where the change is announced.
const pinned = "sha256:cfd02aa9b523baca86de66a26a458a48174ae8c429337b7d6fd5d58839bca357"

func TestDigest(t *testing.T) {
	sum := sha256.Sum256(hazard.Text())
	if want := "sha256:" + hex.EncodeToString(sum[:]); hazard.Digest() != want {
		t.Fatalf("Digest() = %s, but the text hashes to %s", hazard.Digest(), want)
	}
	if !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(hazard.Digest()) {
		t.Errorf("Digest() = %q is not a digest", hazard.Digest())
	}
	if hazard.Digest() != pinned {
		t.Errorf("the rubric's digest is %s, not the pinned %s: if the text was changed on purpose, pin the new digest; "+
			"every bundle screened under the old text will be refused until it is screened again", hazard.Digest(), pinned)
	}
}

func TestTextIsOwned(t *testing.T) {
	text := hazard.Text()
	clear(text)
	if bytes.Equal(hazard.Text(), text) {
		t.Error("Text shares its bytes between calls")
	}
}

// TestTextIsStable: the digest is of bytes, so the text holds nothing an
// editor or a checkout might silently rewrite.
func TestTextIsStable(t *testing.T) {
	text := hazard.Text()
	switch {
	case !utf8.Valid(text):
		t.Error("the rubric is not UTF-8")
	case bytes.ContainsAny(text, "\r\t"):
		t.Error("the rubric holds a carriage return or a tab; a checkout that rewrites line endings would change its digest")
	case bytes.HasPrefix(text, []byte("\xef\xbb\xbf")):
		t.Error("the rubric starts with a byte order mark")
	case !bytes.HasSuffix(text, []byte("\n")) || bytes.HasSuffix(text, []byte("\n\n")):
		t.Error("the rubric does not end with exactly one line break")
	}
	for i, line := range strings.Split(string(text), "\n") {
		if strings.TrimRight(line, " ") != line {
			t.Errorf("line %d ends with a space", i+1)
		}
	}
}

// TestCategories: the rubric covers every answer the screen can give, each
// under its own heading, and the flag concerns published work can carry.
func TestCategories(t *testing.T) {
	text := string(hazard.Text())
	for _, verdict := range vocabulary.HazardVerdicts {
		if !strings.Contains(text, "`"+verdict+"`") {
			t.Errorf("the rubric never names the answer %q", verdict)
		}
		if verdict != "none" && !regexp.MustCompile("(?m)^#{3,4} `"+verdict+"`").MatchString(text) {
			t.Errorf("the answer %q has no heading of its own", verdict)
		}
	}
	for _, words := range []string{
		"child sexual abuse material", "weapons of mass harm", "private data", "copies of other people's work",
		"`unlawful`", "`hazard`", "`rights`", "GET /api/v1/hazard-rubric", `"hazard_screen"`,
		"accepts only the digest of the text it serves now",
	} {
		if !strings.Contains(text, words) {
			t.Errorf("the rubric never says %q", words)
		}
	}
}
