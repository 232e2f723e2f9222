package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// fakeLog is a log built entry by entry in a test, served with the node's
// log routes, so 'agora log verify' can be shown logs a node would never
// write: a bad signature, a time going backwards, an unknown type.
type fakeLog struct {
	t        *testing.T
	key      *hybrid.PrivateKey
	logID    string
	cpSigner *tlog.CheckpointSigner
	ck       tlog.CheckpointKeys

	mu     sync.Mutex
	leaves []map[string]any
	signed []map[string]any
	tree   *tlog.MemoryTree
	heads  map[uint64]tlog.TreeHead
	head   *tlog.TreeHead
	clock  time.Time // the next leaf's timestamp, unless an append says
	// served answers other GETs by path, as a node's ledger routes would
	// (a bundle's state, a claim, a sealed entry); any other path is 404.
	served map[string]any
}

func newFakeLog(t *testing.T) *fakeLog {
	key, err := hybrid.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeLog{t: t, key: key, logID: protocol.LogID(key.Public().String()), tree: tlog.NewMemoryTree(nil),
		heads: map[uint64]tlog.TreeHead{}, clock: time.Date(2026, 10, 2, 12, 0, 0, 0, time.UTC)}
	origin, err := tlog.CheckpointOrigin(f.logID)
	if err != nil {
		t.Fatal(err)
	}
	if f.cpSigner, err = tlog.NewCheckpointSigner(origin, tlog.CheckpointKeyFromLogKey(key)); err != nil {
		t.Fatal(err)
	}
	if f.ck, err = tlog.SignCheckpointKeys(key, origin, []string{f.cpSigner.VerifierKey()}); err != nil {
		t.Fatal(err)
	}
	return f
}

// append logs entry (as signed) with the leaf members given, stamped at
// the log's clock, which then moves on a second.
func (f *fakeLog) append(entry map[string]any, leafFields map[string]any) uint64 {
	f.t.Helper()
	f.clock = f.clock.Add(time.Second)
	return f.appendAt(f.clock, entry, leafFields)
}

func (f *fakeLog) appendAt(at time.Time, entry map[string]any, leafFields map[string]any) uint64 {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	detached, err := protocol.Detach(entry)
	if err != nil {
		f.t.Fatal(err)
	}
	leaf := map[string]any{"timestamp": tlog.FormatTimestamp(at), "entry": detached}
	for k, v := range leafFields {
		leaf[k] = v
	}
	// As JSON would give them back: numbers as float64.
	b, err := tlog.LeafBytes(leaf)
	if err != nil {
		f.t.Fatal(err)
	}
	v, _ := canonical.Parse(b)
	sb, _ := canonical.Marshal(entry)
	sv, _ := canonical.Parse(sb)
	f.leaves = append(f.leaves, v.(map[string]any))
	f.signed = append(f.signed, sv.(map[string]any))
	f.tree.Append(tlog.LeafHash(b))
	return uint64(len(f.leaves) - 1)
}

// sign signs a tree head of every entry appended, at time at.
func (f *fakeLog) sign(at time.Time) {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	h, err := tlog.SignTreeHead(f.key, f.tree.Size(), f.tree.Root(), at)
	if err != nil {
		f.t.Fatal(err)
	}
	f.heads[h.Size], f.head = h, &h
}

func (f *fakeLog) serve() string {
	mux := http.NewServeMux()
	answer := func(w http.ResponseWriter, v any) {
		b, err := canonical.Marshal(v)
		if err != nil {
			f.t.Error(err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}
	index := func(w http.ResponseWriter, r *http.Request) (uint64, bool) {
		i, err := strconv.ParseUint(r.PathValue("index"), 10, 64)
		if err != nil || f.head == nil || i >= f.head.Size {
			http.Error(w, `{"error":"no such entry","code":"not_found"}`, http.StatusNotFound)
			return 0, false
		}
		return i, true
	}
	mux.HandleFunc("GET /api/v1/log", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		var head any
		if f.head != nil {
			head = f.head.Object()
		}
		answer(w, map[string]any{"log": f.logID, "public_key": f.key.Public().String(), "tree_head": head, "checkpoint_keys": f.ck.Object()})
	})
	mux.HandleFunc("GET /api/v1/log/entries/{index}", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		i, ok := index(w, r)
		if !ok {
			return
		}
		rc, err := tlog.NewReceipt(r.Context(), f.tree, *f.head, i, f.leaves[i])
		if err != nil {
			f.t.Error(err)
			return
		}
		b, _ := rc.MarshalJSON()
		w.Write(b)
	})
	mux.HandleFunc("GET /api/v1/log/entries/{index}/signed", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if i, ok := index(w, r); ok {
			answer(w, map[string]any{"index": i, "entry": f.signed[i]})
		}
	})
	mux.HandleFunc("GET /api/v1/log/proofs/consistency", func(w http.ResponseWriter, r *http.Request) {
		first, _ := strconv.ParseUint(r.URL.Query().Get("first"), 10, 64)
		second, _ := strconv.ParseUint(r.URL.Query().Get("second"), 10, 64)
		p, err := tlog.ConsistencyProof(r.Context(), f.tree, first, second)
		if err != nil {
			f.t.Error(err)
		}
		answer(w, map[string]any{"first": first, "second": second, "proof": toAny(tlog.HashStrings(p))})
	})
	mux.HandleFunc("GET /api/v1/log/checkpoint", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		size, _ := strconv.ParseUint(r.URL.Query().Get("size"), 10, 64)
		h := f.heads[size]
		cp, err := f.cpSigner.SignCheckpoint(h.Size, h.Root)
		if err != nil {
			f.t.Error(err)
		}
		w.Write(cp)
	})
	mux.HandleFunc("GET /api/v1/", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		v, ok := f.served[r.URL.Path]
		f.mu.Unlock()
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"not served","code":"not_found"}`))
			return
		}
		answer(w, v)
	})
	srv := httptest.NewServer(mux)
	f.t.Cleanup(srv.Close)
	return srv.URL
}

func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// operator makes a key and logs its key entry and an invited identity.
func (f *fakeLog) operator() (string, *hybrid.PrivateKey) {
	f.t.Helper()
	key, _ := hybrid.GenerateKey()
	id := protocol.OperatorID(key.Public().String())
	entry := map[string]any{"type": "key", "key": key.Public().String(), "model_families": []any{"claude"}, "model": "claude-test-1"}
	if err := protocol.Sign(entry, key); err != nil {
		f.t.Fatal(err)
	}
	f.append(entry, map[string]any{"operator": id})
	inv, err := operators.SignInvitation(id, f.key)
	if err != nil {
		f.t.Fatal(err)
	}
	f.append(inv, map[string]any{"operator": id, "organization": id})
	return id, key
}

// contribution is the log entry of a thread by author, signed with key.
func (f *fakeLog) contribution(author string, key *hybrid.PrivateKey, title string) map[string]any {
	f.t.Helper()
	content, err := library.ParseContent([]byte(`{"kind":"thread","title":` + strconv.Quote(title) + `,"body":"b","links":[],"previous":""}`))
	if err != nil {
		f.t.Fatal(err)
	}
	rec, err := library.NewRecord(content, author, f.clock)
	if err != nil {
		f.t.Fatal(err)
	}
	env, err := library.Sign(rec, key)
	if err != nil {
		f.t.Fatal(err)
	}
	canon, _ := rec.Canonical()
	record, _ := canonical.Parse(canon)
	id, _ := rec.RevisionID()
	return map[string]any{"type": "contribution", "operator": author, "revision": id, "record": record, "sig": env.Signature}
}

func verifyLog(t *testing.T, want int, url, pin string) (stdout, stderr string) {
	t.Helper()
	return agora(t, want, "log", "verify", "--url", url, "--pin", pin)
}

// TestLogVerifyContributions: every library contribution's signature is
// verified, not only those of key, rotation and identity entries (defect
// 11): a contribution signed by a key other than its author's is
// reported, as is one whose record is not its revision.
func TestLogVerifyContributions(t *testing.T) {
	f := newFakeLog(t)
	id, key := f.operator()
	f.append(f.contribution(id, key, "Good"), map[string]any{"operator": id})
	f.sign(f.clock.Add(time.Second))
	url := f.serve()
	out, _ := verifyLog(t, 0, url, filepath.Join(t.TempDir(), "pin.json"))
	if !strings.Contains(out, "3 signatures verified (contribution 1, identity 1, key 1)") || strings.Contains(out, "not checked") {
		t.Errorf("a good log:\n%s", out)
	}

	other, _ := hybrid.GenerateKey()
	f.append(f.contribution(id, other, "Forged"), map[string]any{"operator": id})
	f.sign(f.clock.Add(time.Second))
	_, errOut := verifyLog(t, 1, url, filepath.Join(t.TempDir(), "pin.json"))
	if !strings.Contains(errOut, "entry 3 (contribution) is not signed by the key its author held") {
		t.Errorf("a contribution with another key's signature:\n%s", errOut)
	}

	g := newFakeLog(t)
	id, key = g.operator()
	c := g.contribution(id, key, "Renamed")
	c["revision"] = strings.Repeat("0", 64)
	g.append(c, map[string]any{"operator": id})
	g.sign(g.clock.Add(time.Second))
	_, errOut = verifyLog(t, 1, g.serve(), filepath.Join(t.TempDir(), "pin.json"))
	if !strings.Contains(errOut, "entry 2 (contribution) names the revision") {
		t.Errorf("a contribution whose revision is not its record's:\n%s", errOut)
	}
}

// TestLogVerifyFromPin: a later run checks the signatures of operators
// whose keys were logged before the pinned head, reading each key from
// the entry the pin places; a pin an older agora wrote, which places
// none, makes the run say it did not check them.
func TestLogVerifyFromPin(t *testing.T) {
	f := newFakeLog(t)
	id, key := f.operator()
	f.sign(f.clock.Add(time.Second))
	url := f.serve()
	pin := filepath.Join(t.TempDir(), "pin.json")
	verifyLog(t, 0, url, pin)
	good, _ := os.ReadFile(pin)

	f.append(f.contribution(id, key, "Later"), map[string]any{"operator": id})
	f.sign(f.clock.Add(time.Second))
	out, _ := verifyLog(t, 0, url, pin)
	if !strings.Contains(out, "1 new entries") || !strings.Contains(out, "1 signatures verified (contribution 1)") {
		t.Errorf("a contribution by a signer the pin places:\n%s", out)
	}

	var p map[string]any
	json.Unmarshal(good, &p)
	delete(p, "signers")
	older, _ := json.Marshal(p)
	os.WriteFile(pin, older, 0o600)
	out, _ = verifyLog(t, 0, url, pin)
	if !strings.Contains(out, "0 signatures verified") || !strings.Contains(out, "not checked: 1 signatures by signers whose keys were logged before the pinned head") {
		t.Errorf("from a pin that places no signer:\n%s", out)
	}

	os.WriteFile(pin, good, 0o600)
	other, _ := hybrid.GenerateKey()
	f.append(f.contribution(id, other, "Forged later"), map[string]any{"operator": id})
	f.sign(f.clock.Add(time.Second))
	_, errOut := verifyLog(t, 1, url, pin)
	if !strings.Contains(errOut, "entry 3 (contribution) is not signed") {
		t.Errorf("a forged contribution after the pinned head:\n%s", errOut)
	}
}

// TestLogVerifyTimes: a leaf stamped before the leaf before it, and a tree
// head signed before a smaller one, are the log's misbehaviour.
func TestLogVerifyTimes(t *testing.T) {
	f := newFakeLog(t)
	id, key := f.operator()
	f.appendAt(f.clock.Add(-time.Millisecond), f.contribution(id, key, "Early"), map[string]any{"operator": id})
	f.sign(f.clock.Add(time.Second))
	_, errOut := verifyLog(t, 1, f.serve(), filepath.Join(t.TempDir(), "pin.json"))
	if !strings.Contains(errOut, "entry 2 is stamped") || !strings.Contains(errOut, "leaf timestamps went backwards") {
		t.Errorf("a leaf earlier than its predecessor:\n%s", errOut)
	}

	g := newFakeLog(t)
	g.operator()
	signedAt := g.clock.Add(time.Hour)
	g.sign(signedAt)
	url := g.serve()
	pin := filepath.Join(t.TempDir(), "pin.json")
	verifyLog(t, 0, url, pin)
	g.operator()
	g.sign(signedAt.Add(-time.Minute))
	_, errOut = verifyLog(t, 1, url, pin)
	if !strings.Contains(errOut, "tree head timestamps went backwards") {
		t.Errorf("a tree head signed before the smaller one pinned:\n%s", errOut)
	}
}

// TestTimeline checks the checking function itself.
func TestTimeline(t *testing.T) {
	var tl timeline
	at := func(s int) string { return tlog.FormatTimestamp(time.Unix(int64(s), 0)) }
	for i, s := range []int{10, 10, 11} {
		if err := tl.leaf(uint64(i), at(s)); err != nil {
			t.Fatalf("leaf %d: %v", i, err)
		}
	}
	if err := tl.leaf(3, at(9)); err == nil {
		t.Error("a leaf earlier than the one before it passed")
	}
	if err := tl.leaf(4, 12.0); err == nil {
		t.Error("a leaf timestamp that is not a string passed")
	}
	key, _ := hybrid.GenerateKey()
	head := func(size uint64, s int) tlog.TreeHead {
		h, err := tlog.SignTreeHead(key, size, tlog.EmptyRoot, time.Unix(int64(s), 0))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	var heads timeline
	for _, h := range []tlog.TreeHead{head(5, 100), head(2, 50), head(5, 101), head(9, 101)} {
		if err := heads.head(h); err != nil {
			t.Fatalf("head of %d at %s: %v", h.Size, h.Timestamp, err)
		}
	}
	if err := heads.head(head(3, 102)); err == nil {
		t.Error("a head of 3 signed after the head of 5 passed")
	}
	if err := heads.head(head(12, 99)); err == nil {
		t.Error("a head of 12 signed before the head of 9 passed")
	}
}

// TestLogVerifyEntryTypes: sealed commitments and withdrawals by the
// log's key, a bundle revealed from its commitment and signed by its
// author, a void, an imported contribution, and a type this agora does
// not know, which it says it did not check.
func TestLogVerifyEntryTypes(t *testing.T) {
	f := newFakeLog(t)
	id, key := f.operator()
	bundleEntry := map[string]any{"type": "bundle", "bundle": "sha256:" + strings.Repeat("ab", 32)}
	if err := protocol.Sign(bundleEntry, key); err != nil {
		t.Fatal(err)
	}
	salt, _ := protocol.NewSalt()
	commitment, err := protocol.SealSigned(bundleEntry, salt)
	if err != nil {
		t.Fatal(err)
	}
	sealed, _ := protocol.SignSealed(commitment, f.key)
	at := f.append(sealed, nil)
	reveal := map[string]any{"operator": id, "claims": []any{}, "fields": []any{}, "sealed": map[string]any{"index": float64(at), "salt": salt}}
	f.append(bundleEntry, reveal)
	void := map[string]any{"type": "void", "author": id, "sealed": float64(at)}
	protocol.Sign(void, key)
	f.append(void, map[string]any{"operator": id})
	withdrawal := map[string]any{"type": "withdrawal", "bundle": bundleEntry["bundle"], "reason": "voided", "sealed": float64(at)}
	protocol.Sign(withdrawal, f.key)
	wAt := f.append(withdrawal, nil)
	f.served = map[string]any{
		"/api/v1/bundles/" + bundleEntry["bundle"].(string): map[string]any{"bundle": bundleEntry["bundle"], "state": "withdrawn",
			"withdrawn_entry": wAt, "tombstone": map[string]any{"reason": "voided", "withdrawal": wAt}, "files": nil, "claims": nil},
		"/api/v1/sealed/" + strconv.FormatUint(at, 10): map[string]any{"sealed": at, "state": "withdrawn", "withdrawn_in": wAt},
	}

	stranger, _ := hybrid.GenerateKey()
	sid := protocol.OperatorID(stranger.Public().String())
	imported := f.contribution(sid, stranger, "From elsewhere")
	imported["imported"] = map[string]any{"bundle": "sha256:" + strings.Repeat("cd", 32), "from": "example.org/log",
		"signed_by": stranger.Public().String(), "author": map[string]any{"key": stranger.Public().String(), "rotations": []any{}}}
	f.append(imported, map[string]any{"operator": sid})
	// (canary entries, once this example, are checked now: the log signs them)
	unknown := map[string]any{"type": "addendum", "digest": "sha256:" + strings.Repeat("ef", 32)}
	protocol.Sign(unknown, f.key)
	f.append(unknown, nil)
	f.sign(f.clock.Add(time.Second))
	url := f.serve()

	out, _ := verifyLog(t, 0, url, filepath.Join(t.TempDir(), "pin.json"))
	for _, want := range []string{
		"7 signatures verified (bundle 1, contribution 1, identity 1, key 1, sealed 1, void 1, withdrawal 1)",
		"1 revealed entries open their commitments",
		"not checked: 1 entries of a type this agora does not know (their signatures and contents) (addendum 1)",
		"not checked: 1 opened bundles' claims and fields in their leaves",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}

	// A revealed entry whose salt does not open its commitment.
	g := newFakeLog(t)
	id, key = g.operator()
	protocol.Sign(bundleEntry, key)
	sealed, _ = protocol.SignSealed(commitment, g.key)
	at = g.append(sealed, nil)
	other, _ := protocol.NewSalt()
	g.append(bundleEntry, map[string]any{"operator": id, "claims": []any{}, "fields": []any{}, "sealed": map[string]any{"index": float64(at), "salt": other}})
	g.sign(g.clock.Add(time.Second))
	_, errOut := verifyLog(t, 1, g.serve(), filepath.Join(t.TempDir(), "pin.json"))
	if !strings.Contains(errOut, "entry 3 does not open its commitment") {
		t.Errorf("a reveal that does not open its commitment:\n%s", errOut)
	}
}
