package node

import (
	"bytes"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
)

// contractDocument is the library contract as published.
func contractDocument(testing.TB) map[string]any { return library.Contract() }

// substituteIDs is library.Substitute, failing the test on a placeholder with no ID.
func substituteIDs(t testing.TB, v any, ids map[string]string) any {
	t.Helper()
	out, err := library.Substitute(v, ids)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// envelope signs content (the contract's content object) as a, authored at
// at, and returns the envelope as sent and its revision ID.
func envelope(t testing.TB, a author, content any, at time.Time) ([]byte, string) {
	t.Helper()
	text, err := canonical.Marshal(content)
	if err != nil {
		t.Fatal(err)
	}
	c, err := library.ParseContent(text)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := library.NewRecord(c, a.id, at)
	if err != nil {
		t.Fatal(err)
	}
	env, err := library.Sign(rec, a.key)
	if err != nil {
		t.Fatal(err)
	}
	wire, err := env.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	id, _ := rec.RevisionID()
	return wire, id
}

// runExamples publishes the steps of one of the contract's example
// sequences through POST /api/entries, each by its actor, and returns the
// revision ID each step got, by step name.
func runExamples(t *testing.T, base string, steps []any, actors map[string]author, ids map[string]string, prefix string) {
	t.Helper()
	at := time.Now().Add(-time.Hour)
	for _, s := range steps {
		step := s.(map[string]any)
		name := step["name"].(string)
		a := actors[step["actor"].(string)]
		at = at.Add(time.Second)
		wire, id := envelope(t, a, substituteIDs(t, step["content"], ids), at)
		status, v := call(t, "POST", base+"/api/entries", wire)
		if status != http.StatusCreated {
			t.Fatalf("%s (%s): %d %v", name, step["actor"], status, v)
		}
		got := v.(map[string]any)
		if got["id"] != id {
			t.Fatalf("%s: admitted as %v, but its revision ID is %s", name, got["id"], id)
		}
		// The contract's answer to an uncertain failure: the exact
		// envelope again is where it stands, not a refusal.
		if status, again := call(t, "POST", base+"/api/entries", wire); status != http.StatusOK || again.(map[string]any)["id"] != id {
			t.Fatalf("%s: sent again: %d %v", name, status, again)
		}
		ids[prefix+name] = id
	}
}

// TestLibraryExamplesEndToEnd runs both of the contract's example sequences
// against a node on loopback, with an owner and a peer operator, and checks
// that every contribution is on the log, signed by its author.
func TestLibraryExamplesEndToEnd(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	actors := map[string]author{"owner": newAuthor(t, n, base), "peer": newAuthor(t, n, base)}
	doc := contractDocument(t)
	ids := map[string]string{}
	runExamples(t, base, doc["write_contract"].(map[string]any)["examples"].(map[string]any)["steps"].([]any), actors, ids, "")
	objects := map[string]string{}
	runExamples(t, base, doc["object_examples"].(map[string]any)["steps"].([]any), actors, objects, "")

	// The merge is its lineage's head; the original is its root.
	status, v := call(t, "GET", base+"/api/entries/"+ids["merge"], nil)
	if status != http.StatusOK {
		t.Fatalf("GET merge: %d %v", status, v)
	}
	merge := v.(map[string]any)
	base0 := merge["record"].(map[string]any)["previous"].(string)
	if merge["root"] != base0 {
		t.Errorf("merge's root is %v, want its base %s", merge["root"], base0)
	}
	status, v = call(t, "GET", base+"/api/entries/"+base0+"/head", nil)
	if status != http.StatusOK || v.(map[string]any)["id"] != ids["merge"] {
		t.Errorf("head of the merged map: %d %v, want the merge %s", status, v, ids["merge"])
	}

	// Each contribution is a leaf of the log: its entry as signed holds the
	// record, and the signature verifies against the author's key.
	for _, id := range []string{ids["merge"], objects["merge"]} {
		_, v := call(t, "GET", base+"/api/entries/"+id, nil)
		got := v.(map[string]any)
		admission := got["admission"].(map[string]any)
		index, ok := admission["log_index"].(float64)
		if !ok {
			t.Fatalf("%s has no log index: %v", id, admission)
		}
		signed := mustSigned(t, base, uint64(index))
		if signed["type"] != library.ContributionType || signed["revision"] != id {
			t.Fatalf("entry %v holds %v, not contribution %s", index, signed, id)
		}
		recText, _ := canonical.Marshal(signed["record"])
		rec, err := library.ParseEnvelope(mustJSON(t, map[string]any{"record": signed["record"], "signature": signed["sig"]}))
		if err != nil {
			t.Fatalf("entry %v: %v", index, err)
		}
		if again, _ := rec.Record.RevisionID(); again != id {
			t.Errorf("entry %v's record has revision ID %s, not %s (%s)", index, again, id, recText)
		}
		who := actors["owner"]
		if rec.Record.Author != strings.TrimPrefix(who.id, "op:") {
			who = actors["peer"]
		}
		if err := library.VerifySignature(rec, who.key.Public().String()); err != nil {
			t.Errorf("entry %v: %v", index, err)
		}
	}
}

// TestLibraryWriteErrors breaks the write path one way at a time and
// checks each answer's status and code: nothing is admitted, nothing 500s.
func TestLibraryWriteErrors(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	owner := newAuthor(t, n, base)
	now := time.Now()
	thread := map[string]any{"kind": "thread", "title": "A question", "body": "What holds?", "links": []any{}, "previous": ""}
	wire, threadID := envelope(t, owner, thread, now)
	if status, v := call(t, "POST", base+"/api/entries", wire); status != http.StatusCreated {
		t.Fatalf("thread: %d %v", status, v)
	}

	// An operator with no identity holds no scope.
	bare, _ := hybrid.GenerateKey()
	if status, v := call(t, "POST", base+"/api/v1/operators", mustJSON(t, map[string]any{"entry": keyEntry(t, bare), "name": "Bare"})); status != http.StatusCreated {
		t.Fatalf("register: %d %v", status, v)
	}
	bareAuthor := author{protocol.OperatorID(bare.Public().String()), bare}
	stranger, _ := hybrid.GenerateKey()
	strangerAuthor := author{protocol.OperatorID(stranger.Public().String()), stranger}

	revise := func(previous string) map[string]any {
		return map[string]any{"kind": "thread", "title": "A question, sharper", "body": "What holds, exactly?", "links": []any{}, "previous": previous}
	}
	wrongKey, _ := envelope(t, owner, thread, now.Add(time.Second))
	wrongKey = bytes.Replace(wrongKey, []byte(`"signature":"`), []byte(`"signature":"x`), 1)
	firstRevision, firstID := envelope(t, owner, revise(threadID), now.Add(2*time.Second))
	if status, v := call(t, "POST", base+"/api/entries", firstRevision); status != http.StatusCreated {
		t.Fatalf("revision: %d %v", status, v)
	}
	stale, _ := envelope(t, owner, map[string]any{"kind": "thread", "title": "Another", "body": "Other words", "links": []any{}, "previous": threadID}, now.Add(3*time.Second))
	byPeer, _ := envelope(t, newAuthor(t, n, base), revise(firstID), now.Add(4*time.Second))
	missing, _ := envelope(t, owner, map[string]any{"kind": "reply", "title": "Re", "body": "Yes", "links": []any{map[string]any{"relation": "replies_to", "target": strings.Repeat("ab", 32)}}, "previous": ""}, now)
	badContent, _ := envelope(t, owner, map[string]any{"kind": "claim", "title": "C", "body": map[string]any{"statement": "x", "scope": "y"}, "links": []any{}, "previous": ""}, now)
	future, _ := envelope(t, owner, map[string]any{"kind": "thread", "title": "Later", "body": "From the future", "links": []any{}, "previous": ""}, now.Add(time.Hour))
	backdated, _ := envelope(t, owner, map[string]any{"kind": "thread", "title": "Earlier", "body": "Dated a year back", "links": []any{}, "previous": ""}, now.AddDate(-1, 0, 0))
	unknown, _ := envelope(t, strangerAuthor, thread, now)

	for _, c := range []struct {
		name   string
		body   []byte
		status int
		code   string
	}{
		{"not JSON", []byte(`{"record":`), 400, "malformed"},
		{"duplicate member", []byte(`{"record":{},"record":{},"signature":""}`), 400, "malformed"},
		{"too large", bytes.Repeat([]byte(" "), library.MaxEnvelopeBytes+1), 413, "too_large"},
		{"bad signature", wrongKey, 403, "bad_signature"},
		{"unknown operator", unknown, 403, "unknown_operator"},
		{"no identity", func() []byte { b, _ := envelope(t, bareAuthor, thread, now); return b }(), 403, "scope_denied"},
		{"stale head", stale, 409, library.CodeStaleHead},
		{"not the author", byPeer, 422, library.CodeNotOriginalAuthor},
		{"missing target", missing, 422, library.CodeMissingTarget},
		{"schema", badContent, 422, "invalid_content"},
		{"in the future", future, 422, library.CodeAuthoredInFuture},
		{"backdated a year", backdated, 422, library.CodeAuthoredTooLongAgo},
	} {
		status, v := call(t, "POST", base+"/api/entries", c.body)
		got, _ := v.(map[string]any)
		if status != c.status || got["code"] != c.code {
			t.Errorf("%s: %d %v, want %d %s", c.name, status, v, c.status, c.code)
		}
	}
	// The schema's refusal names the JSON Pointer of what is missing.
	_, v := call(t, "POST", base+"/api/entries", badContent)
	issues, _ := v.(map[string]any)["issues"].([]any)
	if len(issues) == 0 || issues[0].(map[string]any)["path"] != "/body/assumptions" || issues[0].(map[string]any)["code"] != "required" {
		t.Errorf("schema issues: %v, want /body missing assumptions", issues)
	}
	for _, path := range []string{"/api/entries/nothex", "/api/entries/" + strings.Repeat("0", 64)} {
		if status, _ := call(t, "GET", base+path, nil); status != 400 && status != 404 {
			t.Errorf("GET %s: %d", path, status)
		}
	}
}

// TestLibraryScopes checks an admin's grants and denials override the
// default (every scope once an operator holds an identity), per scope.
func TestLibraryScopes(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	token, err := os.ReadFile(AdminTokenPath(n.cfg.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	admin := []string{"Authorization", "Bearer " + string(token)}
	owner := newAuthor(t, n, base)
	now := time.Now()
	thread := map[string]any{"kind": "thread", "title": "Scopes", "body": "Who may vote?", "links": []any{}, "previous": ""}
	wire, threadID := envelope(t, owner, thread, now)
	if status, v := call(t, "POST", base+"/api/entries", wire); status != http.StatusCreated {
		t.Fatalf("thread: %d %v", status, v)
	}
	voter := newAuthor(t, n, base)
	vote := func(body string, at time.Time) []byte {
		b, _ := envelope(t, voter, map[string]any{"kind": "vote", "title": "Vote", "body": body,
			"links": []any{map[string]any{"relation": "votes_on", "target": threadID}}, "previous": ""}, at)
		return b
	}

	// Denied, the vote is refused; the operator's other scopes stand.
	status, v := call(t, "POST", base+"/api/v1/admin/library/scopes", mustJSON(t, map[string]any{"operator": voter.id, "deny": []any{"library.vote"}}), admin...)
	scopes, _ := v.(map[string]any)["scopes"].(map[string]any)
	if status != http.StatusOK || scopes["library.vote"] != false || scopes["library.publish"] != true {
		t.Fatalf("deny: %d %v", status, v)
	}
	if status, v := call(t, "POST", base+"/api/entries", vote("1", now)); status != http.StatusForbidden || v.(map[string]any)["code"] != "scope_denied" {
		t.Errorf("a denied vote: %d %v", status, v)
	}
	// Reset, the default applies again.
	if status, v := call(t, "POST", base+"/api/v1/admin/library/scopes", mustJSON(t, map[string]any{"operator": voter.id, "reset": []any{"library.vote"}}), admin...); status != http.StatusOK {
		t.Fatalf("reset: %d %v", status, v)
	}
	if status, v := call(t, "POST", base+"/api/entries", vote("1", now.Add(time.Second))); status != http.StatusCreated {
		t.Errorf("a vote after reset: %d %v", status, v)
	}

	// Granted, an operator with no identity publishes.
	bare, _ := hybrid.GenerateKey()
	if status, v := call(t, "POST", base+"/api/v1/operators", mustJSON(t, map[string]any{"entry": keyEntry(t, bare), "name": "Bare"})); status != http.StatusCreated {
		t.Fatalf("register: %d %v", status, v)
	}
	bareAuthor := author{protocol.OperatorID(bare.Public().String()), bare}
	post, _ := envelope(t, bareAuthor, map[string]any{"kind": "thread", "title": "Granted", "body": "I may write", "links": []any{}, "previous": ""}, now)
	if status, _ := call(t, "POST", base+"/api/entries", post); status != http.StatusForbidden {
		t.Errorf("before the grant: %d, want 403", status)
	}
	if status, v := call(t, "POST", base+"/api/v1/admin/library/scopes", mustJSON(t, map[string]any{"operator": bareAuthor.id, "grant": []any{"library.publish"}}), admin...); status != http.StatusOK {
		t.Fatalf("grant: %d %v", status, v)
	}
	if status, v := call(t, "POST", base+"/api/entries", post); status != http.StatusCreated {
		t.Errorf("after the grant: %d %v", status, v)
	}
	status, v = call(t, "GET", base+"/api/v1/admin/library/scopes/"+bareAuthor.id, nil, admin...)
	if got := v.(map[string]any); status != http.StatusOK || got["set_by_admin"].(map[string]any)["library.publish"] != true || got["scopes"].(map[string]any)["library.vote"] != false {
		t.Errorf("GET scopes: %d %v", status, v)
	}

	for _, c := range []struct {
		body   any
		header []string
		status int
	}{
		{map[string]any{"operator": voter.id, "grant": []any{"library.fly"}}, admin, 400},
		{map[string]any{"operator": voter.id, "grant": []any{"library.vote"}, "deny": []any{"library.vote"}}, admin, 400},
		{map[string]any{"operator": "op:nothex", "grant": []any{}}, admin, 400},
		{map[string]any{"operator": voter.id, "grant": "library.vote"}, admin, 400},
		{map[string]any{"operator": voter.id, "extra": true}, admin, 400},
		{map[string]any{"operator": "op:" + strings.Repeat("0", 64), "grant": []any{}}, admin, 404},
		{map[string]any{"operator": voter.id, "grant": []any{"library.vote"}}, nil, 401},
	} {
		if status, v := call(t, "POST", base+"/api/v1/admin/library/scopes", mustJSON(t, c.body), c.header...); status != c.status {
			t.Errorf("%v: %d %v, want %d", c.body, status, v, c.status)
		}
	}
}
