package library_test

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/library"
)

// personalWire signs r as the owner and returns the envelope as sent.
func personalWire(t *testing.T, r *library.Record) []byte {
	t.Helper()
	env, err := library.Sign(r, actors()["owner"].key)
	if err != nil {
		t.Fatal(err)
	}
	b, err := env.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPersonalRoundTrip(t *testing.T) {
	owner := actors()["owner"]
	at := time.Date(2026, 10, 2, 12, 0, 0, 0, time.UTC)
	nonce, err := library.NewNonce()
	if err != nil || len(nonce) != 64 {
		t.Fatalf("NewNonce: %q, %v", nonce, err)
	}
	if again, _ := library.NewNonce(); again == nonce {
		t.Fatal("two nonces are the same")
	}
	read, err := library.NewPersonalRead(owner.author, nonce, at)
	if err != nil {
		t.Fatal(err)
	}
	req, err := library.ParsePersonal(personalWire(t, read))
	if err != nil {
		t.Fatal(err)
	}
	id, _ := read.RevisionID()
	if req.Nonce != nonce || req.Lists != nil || req.ID != id || req.Envelope.Record.Body != `{"nonce":"`+nonce+`"}` {
		t.Errorf("read parsed as %+v, body %s", req, req.Envelope.Record.Body)
	}
	if err := library.VerifySignature(req.Envelope, owner.public); err != nil {
		t.Error(err)
	}

	lists := library.PersonalLists{Following: []string{strings.Repeat("b", 64), strings.Repeat("a", 64)}, Saved: []string{}}
	state, err := library.NewPersonalState(owner.author, lists, strings.Repeat("c", 64), at)
	if err != nil {
		t.Fatal(err)
	}
	req, err = library.ParsePersonal(personalWire(t, state))
	if err != nil {
		t.Fatal(err)
	}
	// The author's order is kept; the body is canonical.
	if req.Lists == nil || fmt.Sprint(*req.Lists) != fmt.Sprint(lists) || req.Envelope.Record.Previous != strings.Repeat("c", 64) {
		t.Errorf("state parsed as %+v", req.Lists)
	}
	if want := `{"following":["` + strings.Repeat("b", 64) + `","` + strings.Repeat("a", 64) + `"],"saved":[]}`; state.Body != want {
		t.Errorf("state body %s, want %s", state.Body, want)
	}
	if got, err := library.PersonalListsOf(state); err != nil || len(got.Following) != 2 {
		t.Errorf("PersonalListsOf: %+v, %v", got, err)
	}

	// The content schema keeps personal records out of POST /api/entries.
	issues := library.ValidateContent(state)
	if len(issues) == 0 || issues[0].Path != "/kind" {
		t.Errorf("ValidateContent of a personal-state: %v, want a refusal at /kind", issues)
	}
}

func TestPersonalInvalid(t *testing.T) {
	owner := actors()["owner"]
	root := func(c string) string { return strings.Repeat(c, 64) }
	many := make([]string, library.MaxPersonalRoots+1)
	for i := range many {
		many[i] = fmt.Sprintf("%064x", i)
	}
	rec := func(kind, title, body, previous string, links ...library.Link) *library.Record {
		if links == nil {
			links = []library.Link{}
		}
		return &library.Record{Format: library.Format, Author: owner.author, AuthoredAt: "2026-10-02T12:00:00Z",
			Kind: kind, Title: title, Body: body, Links: links, Previous: previous}
	}
	quoted := func(ids []string) string { return `"` + strings.Join(ids, `","`) + `"` }
	for _, c := range []struct {
		name string
		r    *library.Record
		path string
		code string
	}{
		{"contribution kind", rec("thread", "T", "text", ""), "/kind", "enum"},
		{"not JSON", rec(library.KindPersonalRead, "r", "{", ""), "/body", library.IssueBodyJSON},
		{"not canonical", rec(library.KindPersonalRead, "r", `{ "nonce":"`+root("a")+`"}`, ""), "/body", library.IssueBodyCanonical},
		{"not an object", rec(library.KindPersonalRead, "r", `[]`, ""), "/body", "type"},
		{"short nonce", rec(library.KindPersonalRead, "r", `{"nonce":"abc"}`, ""), "/body/nonce", "pattern"},
		{"no nonce", rec(library.KindPersonalRead, "r", `{}`, ""), "/body/nonce", "required"},
		{"extra member", rec(library.KindPersonalRead, "r", `{"nonce":"`+root("a")+`","x":1}`, ""), "/body/x", "additionalProperties"},
		{"read with previous", rec(library.KindPersonalRead, "r", `{"nonce":"`+root("a")+`"}`, root("b")), "/previous", "const"},
		{"links", rec(library.KindPersonalRead, "r", `{"nonce":"`+root("a")+`"}`, "", library.Link{Relation: "about", Target: root("c")}), "/links", "maxItems"},
		{"long title", rec(library.KindPersonalRead, strings.Repeat("t", 201), `{"nonce":"`+root("a")+`"}`, ""), "/title", "maxLength"},
		{"no saved", rec(library.KindPersonalState, "s", `{"following":[]}`, ""), "/body/saved", "required"},
		{"list not array", rec(library.KindPersonalState, "s", `{"following":"x","saved":[]}`, ""), "/body/following", "type"},
		{"bad root", rec(library.KindPersonalState, "s", `{"following":["op:x"],"saved":[]}`, ""), "/body/following/0", "pattern"},
		{"repeated root", rec(library.KindPersonalState, "s", `{"following":[],"saved":[`+quoted([]string{root("a"), root("b"), root("a")})+`]}`, ""), "/body/saved/2", "uniqueItems"},
		{"129 roots", rec(library.KindPersonalState, "s", `{"following":[`+quoted(many)+`],"saved":[]}`, ""), "/body/following", "maxItems"},
		{"bad previous", rec(library.KindPersonalState, "s", `{"following":[],"saved":[]}`, "x"), "/previous", "pattern"},
	} {
		_, _, err := library.ValidatePersonal(c.r)
		var ce *library.ContentError
		if !errors.As(err, &ce) || !errors.Is(err, library.ErrInvalid) {
			t.Errorf("%s: %v, want a ContentError", c.name, err)
			continue
		}
		found := false
		for _, is := range ce.Issues {
			found = found || is.Path == c.path && is.Code == c.code
		}
		if !found {
			t.Errorf("%s: issues %v, want %s at %s", c.name, ce.Issues, c.code, c.path)
		}
	}
	// Exactly 128 is allowed.
	if _, _, err := library.ValidatePersonal(rec(library.KindPersonalState, "s", `{"following":[`+quoted(many[:128])+`],"saved":[]}`, "")); err != nil {
		t.Errorf("128 roots: %v", err)
	}
}

func TestPersonalTime(t *testing.T) {
	owner := actors()["owner"]
	now := time.Date(2026, 10, 2, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		at   time.Duration
		code string
	}{
		{0, ""},
		{-library.PersonalWindow, ""},
		{-library.PersonalWindow - time.Second, library.CodeStaleRequest},
		{library.MaxClockSkew, ""},
		{library.MaxClockSkew + time.Second, library.CodeAuthoredInFuture},
	} {
		r, err := library.NewPersonalRead(owner.author, strings.Repeat("a", 64), now.Add(c.at))
		if err != nil {
			t.Fatal(err)
		}
		err = library.CheckPersonalTime(r, now)
		var re *library.RuleError
		switch {
		case c.code == "" && err != nil:
			t.Errorf("authored %s from now: %v", c.at, err)
		case c.code != "" && (!errors.As(err, &re) || re.Code != c.code):
			t.Errorf("authored %s from now: %v, want %s", c.at, err, c.code)
		}
	}
}

func TestPersonalRoots(t *testing.T) {
	id := func(c string) string { return strings.Repeat(c, 64) }
	stored := map[string]*library.Stored{
		id("a"): {ID: id("a"), Root: id("a"), Record: &library.Record{Kind: "space"}},
		id("b"): {ID: id("b"), Root: id("b"), Record: &library.Record{Kind: "claim"}},
		id("c"): {ID: id("c"), Root: id("a"), Record: &library.Record{Kind: "space"}},
		id("d"): {ID: id("d"), Root: id("d"), Record: &library.Record{Kind: "thread"}},
	}
	revision := func(x string) (*library.Stored, error) {
		if s, ok := stored[x]; ok {
			return s, nil
		}
		return nil, library.ErrNotFound
	}
	ok := library.PersonalLists{Following: []string{id("a")}, Saved: []string{id("b"), id("a")}}
	if err := library.CheckPersonalRoots(ok, revision); err != nil {
		t.Errorf("listable roots: %v", err)
	}
	for _, c := range []struct {
		lists library.PersonalLists
		path  string
	}{
		{library.PersonalLists{Following: []string{id("a"), id("c")}}, "/body/following/1"},
		{library.PersonalLists{Saved: []string{id("d")}}, "/body/saved/0"},
		{library.PersonalLists{Saved: []string{id("a"), id("e")}}, "/body/saved/1"},
	} {
		err := library.CheckPersonalRoots(c.lists, revision)
		var re *library.RuleError
		if !errors.As(err, &re) || re.Code != library.CodeNotListable || re.Path != c.path || !errors.Is(err, library.ErrInvalid) {
			t.Errorf("%v: %v, want %s at %s", c.lists, err, library.CodeNotListable, c.path)
		}
	}
	broken := errors.New("disk on fire")
	err := library.CheckPersonalRoots(ok, func(string) (*library.Stored, error) { return nil, broken })
	if !errors.Is(err, broken) || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failing read: %v, want it wrapped", err)
	}
}
