package node

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
)

// personalWire signs a personal record as a and returns the envelope as
// sent and the record's ID.
func personalWire(t *testing.T, a author, r *library.Record) ([]byte, string) {
	t.Helper()
	env, err := library.Sign(r, a.key)
	if err != nil {
		t.Fatal(err)
	}
	wire, err := env.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	id, _ := r.RevisionID()
	return wire, id
}

func personalRead(t *testing.T, a author, nonce string, at time.Time) ([]byte, string) {
	t.Helper()
	if nonce == "" {
		var err error
		if nonce, err = library.NewNonce(); err != nil {
			t.Fatal(err)
		}
	}
	r, err := library.NewPersonalRead(a.id, nonce, at)
	if err != nil {
		t.Fatal(err)
	}
	return personalWire(t, a, r)
}

func personalWrite(t *testing.T, a author, previous string, at time.Time, following, saved []string) ([]byte, string) {
	t.Helper()
	// Made with NewRecord, which leaves the lists unchecked, so the node's
	// own checks are what the test sees.
	r, err := library.NewRecord(library.Content{Kind: library.KindPersonalState, Title: "lists", Links: []library.Link{}, Previous: previous,
		Body: map[string]any{"following": anyList(following), "saved": anyList(saved)}}, a.id, at)
	if err != nil {
		t.Fatal(err)
	}
	return personalWire(t, a, r)
}

func anyList(ids []string) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// stateID is the ID of the state an answer holds, "" for null.
func stateID(t *testing.T, v any) string {
	t.Helper()
	obj, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("answer %v is not an object", v)
	}
	st, present := obj["state"]
	if !present {
		t.Fatalf("answer %v has no state", v)
	}
	if st == nil {
		return ""
	}
	return st.(map[string]any)["id"].(string)
}

// TestLibraryPersonal drives POST /api/personal over HTTP: reads and
// writes, their retries, the compare-and-set, nonce replay, the lists'
// limits, freshness, authority, and that nothing personal reaches the
// library's reads or the log.
func TestLibraryPersonal(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	owner, peer := newAuthor(t, n, base), newAuthor(t, n, base)
	now := time.Now()
	publish := func(content map[string]any) (string, float64) {
		t.Helper()
		wire, id := envelope(t, owner, content, now.Add(-time.Minute))
		status, v := call(t, "POST", base+"/api/entries", wire)
		if status != http.StatusCreated {
			t.Fatalf("publish %v: %d %v", content["kind"], status, v)
		}
		index, _ := v.(map[string]any)["admission"].(map[string]any)["log_index"].(float64)
		return id, index
	}
	space, _ := publish(map[string]any{"kind": "space", "title": "Space", "body": map[string]any{"summary": "Arithmetic"}, "links": []any{}, "previous": ""})
	claim, _ := publish(map[string]any{"kind": "claim", "title": "Claim", "body": map[string]any{"statement": "1+1=2", "scope": "Naturals", "assumptions": []any{}},
		"links": []any{}, "previous": ""})
	thread, _ := publish(map[string]any{"kind": "thread", "title": "Thread", "body": "Not listable", "links": []any{}, "previous": ""})
	revision, lastIndex := publish(map[string]any{"kind": "space", "title": "Space, revised", "body": map[string]any{"summary": "Arithmetic, revised"}, "links": []any{}, "previous": space})

	post := func(body []byte) (int, any) {
		t.Helper()
		return call(t, "POST", base+"/api/personal", body)
	}
	expect := func(what string, body []byte, status int, code string) any {
		t.Helper()
		got, v := post(body)
		gotCode, _ := v.(map[string]any)["code"].(string)
		if got != status || gotCode != code {
			t.Fatalf("%s: %d %v, want %d %q", what, got, v, status, code)
		}
		return v
	}

	// No state yet: a read answers null, and its exact retry the same.
	firstRead, _ := personalRead(t, owner, "", now)
	if id := stateID(t, expect("first read", firstRead, 200, "")); id != "" {
		t.Fatalf("first read: state %s, want null", id)
	}

	// The initial state has previous "".
	write1, s1 := personalWrite(t, owner, "", now, []string{space}, []string{claim})
	v := expect("initial state", write1, 201, "")
	if stateID(t, v) != s1 {
		t.Fatalf("initial state answered %v, want %s", v, s1)
	}
	rec := v.(map[string]any)["state"].(map[string]any)["record"].(map[string]any)
	if rec["kind"] != library.KindPersonalState || rec["body"] != `{"following":["`+space+`"],"saved":["`+claim+`"]}` {
		t.Errorf("the state's record: %v", rec)
	}
	if id := stateID(t, expect("first read again", firstRead, 200, "")); id != "" {
		t.Errorf("the first read's retry answered %s, want null as it did", id)
	}
	read2, _ := personalRead(t, owner, "", now)
	if id := stateID(t, expect("second read", read2, 200, "")); id != s1 {
		t.Errorf("second read: %s, want %s", id, s1)
	}

	// The nonce of a read serves that read only.
	var nonce string
	if env, err := library.ParsePersonal(read2); err == nil {
		nonce = env.Nonce
	}
	replayed, _ := personalRead(t, owner, nonce, now.Add(time.Second))
	expect("a nonce in another read", replayed, 409, "nonce_used")

	// The exact write again answers the current state; a write from a
	// state that is no longer current is a conflict.
	expect("initial state again", write1, 200, "")
	otherFirst, _ := personalWrite(t, owner, "", now.Add(time.Second), []string{}, []string{space})
	expect("a second initial state", otherFirst, 409, "stale_state")
	write2, s2 := personalWrite(t, owner, s1, now.Add(time.Second), []string{space, claim}, []string{})
	expect("second state", write2, 201, "")
	fromS1, _ := personalWrite(t, owner, s1, now.Add(2*time.Second), []string{}, []string{})
	expect("a state replacing a replaced one", fromS1, 409, "stale_state")
	if id := stateID(t, expect("write1 once more", write1, 200, "")); id != s2 {
		t.Errorf("the first write's retry answered %s, want the current %s", id, s2)
	}

	// Lists: at most 128 unique roots of spaces, discussions, claims and
	// documents that exist.
	many := make([]string, library.MaxPersonalRoots+1)
	for i := range many {
		many[i] = fmt.Sprintf("%064x", i)
	}
	tooMany, _ := personalWrite(t, owner, s2, now, many, []string{})
	v = expect("129 roots", tooMany, 422, "invalid_content")
	if issues := v.(map[string]any)["issues"].([]any); issues[0].(map[string]any)["code"] != "maxItems" {
		t.Errorf("129 roots: issues %v", issues)
	}
	for name, bad := range map[string]string{"a thread": thread, "a revision": revision, "nothing stored": strings.Repeat("0", 64)} {
		wire, _ := personalWrite(t, owner, s2, now, []string{space}, []string{bad})
		v := expect(name, wire, 422, library.CodeNotListable)
		if issues := v.(map[string]any)["issues"].([]any); issues[0].(map[string]any)["path"] != "/body/saved/0" {
			t.Errorf("%s: issues %v", name, issues)
		}
	}
	repeated, _ := personalWrite(t, owner, s2, now, []string{space, space}, []string{})
	expect("a repeated root", repeated, 422, "invalid_content")

	// Freshness: five minutes behind, sixty seconds ahead.
	stale, _ := personalRead(t, owner, "", now.Add(-library.PersonalWindow-time.Minute))
	expect("a stale read", stale, 422, library.CodeStaleRequest)
	staleWrite, _ := personalWrite(t, owner, s2, now.Add(-library.PersonalWindow-time.Minute), []string{}, []string{})
	expect("a stale write", staleWrite, 422, library.CodeStaleRequest)
	ahead, _ := personalRead(t, owner, "", now.Add(2*library.MaxClockSkew))
	expect("a read from the future", ahead, 422, library.CodeAuthoredInFuture)

	// A read answers the signer's own state only.
	peerRead, _ := personalRead(t, peer, "", now)
	if id := stateID(t, expect("peer's read", peerRead, 200, "")); id != "" {
		t.Errorf("peer's read answered %s, want peer's own: null", id)
	}

	// Authority: a registered key with an identity, signing with its key.
	bare, _ := hybrid.GenerateKey()
	if status, v := call(t, "POST", base+"/api/v1/operators", mustJSON(t, map[string]any{"entry": keyEntry(t, bare), "name": "Bare"})); status != http.StatusCreated {
		t.Fatalf("register: %d %v", status, v)
	}
	bareRead, _ := personalRead(t, author{protocol.OperatorID(bare.Public().String()), bare}, "", now)
	expect("no identity", bareRead, 403, "scope_denied")
	stranger, _ := hybrid.GenerateKey()
	strangerRead, _ := personalRead(t, author{protocol.OperatorID(stranger.Public().String()), stranger}, "", now)
	expect("unknown operator", strangerRead, 403, "unknown_operator")
	forged, _ := personalRead(t, owner, "", now)
	forged = bytes.Replace(forged, []byte(`"signature":"`), []byte(`"signature":"x`), 1)
	expect("bad signature", forged, 403, "bad_signature")
	contribution, _ := envelope(t, owner, map[string]any{"kind": "thread", "title": "T", "body": "b", "links": []any{}, "previous": ""}, now)
	expect("a contribution", contribution, 422, "invalid_content")

	// Privacy: a state is no revision, cannot be published as one, and
	// nothing personal went on the log between two contributions.
	if status, v := call(t, "GET", base+"/api/entries/"+s2, nil); status != http.StatusNotFound {
		t.Errorf("GET /api/entries/<state>: %d %v", status, v)
	}
	if status, v := call(t, "POST", base+"/api/entries", write2); status != 422 || v.(map[string]any)["code"] != "invalid_content" {
		t.Errorf("a state sent to /api/entries: %d %v", status, v)
	}
	_, nextIndex := publish(map[string]any{"kind": "thread", "title": "After", "body": "Next on the log", "links": []any{}, "previous": ""})
	if nextIndex != lastIndex+1 {
		t.Errorf("the contribution after the personal requests is at log index %v, want %v: something personal was logged", nextIndex, lastIndex+1)
	}
}
