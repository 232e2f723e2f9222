package memory

import (
	"errors"
	"strings"
	"testing"
)

func TestProfileReads(t *testing.T) {
	base := string(defaultProfileText)
	with := func(reads string) string {
		return strings.Replace(base, `"reads": "own+shared"`, `"reads": `+reads, 1)
	}
	def := DefaultProfile()
	if def.Reads.All || len(def.Reads.Adapters) != 0 || def.Reads.String() != "own+shared" {
		t.Errorf("the default profile reads %s", def.Reads)
	}
	absent := strings.Replace(base, `,
  "reads": "own+shared"`, "", 1)
	if absent == base {
		t.Fatal("the default profile has no reads to remove")
	}
	p, err := ParseProfile([]byte(absent))
	if err != nil {
		t.Fatal(err)
	}
	if p.Reads.String() != "own+shared" || p.Pin().Digest != def.Pin().Digest {
		t.Errorf("absent reads: %s, digest %s; want own+shared with the default's digest %s", p.Reads, p.Pin().Digest, def.Pin().Digest)
	}
	all, err := ParseProfile([]byte(with(`"all"`)))
	if err != nil || !all.Reads.All || all.Pin().Digest == def.Pin().Digest {
		t.Errorf("reads all: %+v, %v", all, err)
	}
	list, err := ParseProfile([]byte(with(`["codex", "ci-bot"]`)))
	if err != nil || list.Reads.String() != "own+shared+ci-bot,codex" {
		t.Fatalf("reads a list: %+v, %v", list, err)
	}
	for _, c := range []struct {
		scope          ReadScope
		adapter, owner string
		shared, want   bool
	}{
		{def.Reads, "alpha", "alpha", false, true},
		{def.Reads, "alpha", "beta", false, false},
		{def.Reads, "alpha", "beta", true, true},
		{all.Reads, "alpha", "beta", false, true},
		{list.Reads, "alpha", "codex", false, true},
		{list.Reads, "alpha", "beta", false, false},
	} {
		if got := c.scope.Allows(c.adapter, c.owner, c.shared); got != c.want {
			t.Errorf("%s: %s reading %s's record (shared %v): %v", c.scope, c.adapter, c.owner, c.shared, got)
		}
	}
	for _, bad := range []string{`"some"`, `["Codex"]`, `["a", "a"]`, `17`, `[]`} {
		_, err := ParseProfile([]byte(with(bad)))
		if bad == `[]` {
			// An empty list names no one beyond own and shared.
			if err != nil {
				t.Errorf("reads []: %v", err)
			}
			continue
		}
		if !errors.Is(err, &Error{Code: CodeSchemaInvalid}) {
			t.Errorf("reads %s: %v, want schema_invalid", bad, err)
		}
	}
}
