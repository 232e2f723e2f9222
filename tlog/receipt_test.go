package tlog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/internal/testvectors"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

func testKey(t testing.TB, fill byte) *hybrid.PrivateKey {
	t.Helper()
	k, err := hybrid.NewPrivateKey(bytes.Repeat([]byte{fill}, hybrid.SecretKeySize))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// testLog is a small log in memory: leaves, their tree, a signed head.
type testLog struct {
	key    *hybrid.PrivateKey
	leaves []map[string]any
	tree   *tlog.MemoryTree
	head   tlog.TreeHead
}

func newTestLog(t testing.TB, n int) *testLog {
	t.Helper()
	l := &testLog{key: testKey(t, 7), tree: tlog.NewMemoryTree(nil)}
	start := time.Date(2026, 10, 2, 12, 0, 0, 0, time.UTC)
	for i := range n {
		leaf := map[string]any{
			"timestamp": tlog.FormatTimestamp(start.Add(time.Duration(i) * time.Second)),
			"operator":  "op:" + strings.Repeat("ab", 32),
			"entry":     map[string]any{"type": "bundle", "bundle": fmt.Sprintf("sha256:%064x", i), "sig": fmt.Sprintf("sha256:%064x", i+1000)},
			"claims":    []any{},
			"fields":    []any{"mathematics"},
		}
		b, err := tlog.LeafBytes(leaf)
		if err != nil {
			t.Fatal(err)
		}
		l.leaves = append(l.leaves, leaf)
		l.tree.Append(tlog.LeafHash(b))
	}
	head, err := tlog.SignTreeHead(l.key, l.tree.Size(), l.tree.Root(), start.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	l.head = head
	return l
}

func (l *testLog) receipt(t testing.TB, index uint64) *tlog.Receipt {
	t.Helper()
	r, err := tlog.NewReceipt(context.Background(), l.tree, l.head, index, l.leaves[index])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTreeHead(t *testing.T) {
	l := newTestLog(t, 5)
	pub := l.key.Public().String()
	h := l.head
	if h.Log != protocol.LogID(pub) || h.Size != 5 || h.Timestamp != "2026-10-02T13:00:00.000Z" {
		t.Fatalf("head %+v", h)
	}
	if err := tlog.VerifyTreeHead(h, pub); err != nil {
		t.Fatal(err)
	}
	text, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := tlog.ParseTreeHead(text)
	if err != nil || parsed != h {
		t.Fatalf("round trip: %+v, %v", parsed, err)
	}
	other := testKey(t, 8).Public().String()
	for name, c := range map[string]struct {
		head tlog.TreeHead
		key  string
	}{
		"another key":     {h, other},
		"a changed size":  {with(h, func(h *tlog.TreeHead) { h.Size = 4 }), pub},
		"a changed root":  {with(h, func(h *tlog.TreeHead) { h.Root[0] ^= 1 }), pub},
		"a changed log":   {with(h, func(h *tlog.TreeHead) { h.Log = protocol.LogID(other) }), pub},
		"a changed time":  {with(h, func(h *tlog.TreeHead) { h.Timestamp = "2026-10-02T13:00:00Z" }), pub},
		"no signature":    {with(h, func(h *tlog.TreeHead) { h.Sig = "" }), pub},
		"a malformed key": {h, "ed25519:00"},
	} {
		if err := tlog.VerifyTreeHead(c.head, c.key); !errors.Is(err, tlog.ErrVerification) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Tree heads are read strictly.
	for name, text := range map[string]string{
		"an extra member":    `{"type":"tree_head","log":"x","size":1,"root":"` + h.Root.String() + `","timestamp":"2026-10-02T13:00:00.000Z","sig":"s","extra":1}`,
		"another type":       `{"type":"key","log":"x","size":1,"root":"` + h.Root.String() + `","timestamp":"2026-10-02T13:00:00.000Z","sig":"s"}`,
		"a fractional size":  `{"type":"tree_head","log":"x","size":1.5,"root":"` + h.Root.String() + `","timestamp":"2026-10-02T13:00:00.000Z","sig":"s"}`,
		"a size as a string": `{"type":"tree_head","log":"x","size":"1","root":"` + h.Root.String() + `","timestamp":"2026-10-02T13:00:00.000Z","sig":"s"}`,
		"an uppercase root":  `{"type":"tree_head","log":"x","size":1,"root":"` + strings.ToUpper(h.Root.String()) + `","timestamp":"2026-10-02T13:00:00.000Z","sig":"s"}`,
		"a local time":       `{"type":"tree_head","log":"x","size":1,"root":"` + h.Root.String() + `","timestamp":"2026-10-02T13:00:00.000+01:00","sig":"s"}`,
		"no such day":        `{"type":"tree_head","log":"x","size":1,"root":"` + h.Root.String() + `","timestamp":"2026-02-30T13:00:00.000Z","sig":"s"}`,
		"no signature":       `{"type":"tree_head","log":"x","size":1,"root":"` + h.Root.String() + `","timestamp":"2026-10-02T13:00:00.000Z"}`,
		"a duplicate member": `{"type":"tree_head","type":"tree_head","log":"x","size":1,"root":"` + h.Root.String() + `","timestamp":"2026-10-02T13:00:00.000Z","sig":"s"}`,
		"not an object":      `["tree_head"]`,
		"not JSON":           `{`,
	} {
		if _, err := tlog.ParseTreeHead([]byte(text)); !errors.Is(err, tlog.ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func with(h tlog.TreeHead, change func(*tlog.TreeHead)) tlog.TreeHead {
	change(&h)
	return h
}

// TestTreeHeadVector checks the tree head of the protocol's signature
// vectors: its payload is the canonical JSON we sign, and its signature
// verifies as a tree head.
func TestTreeHeadVector(t *testing.T) {
	var file struct {
		Cases []struct {
			Name      string          `json:"name"`
			PublicKey string          `json:"public_key"`
			Object    json.RawMessage `json:"object"`
			Payload   string          `json:"payload"`
			Sig       string          `json:"sig"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(testvectors.Read(t, testvectors.ConformanceDir(), "signature-vectors.json"), &file); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, c := range file.Cases {
		v, err := canonical.Parse(c.Object)
		if err != nil {
			t.Fatal(err)
		}
		obj := v.(map[string]any)
		if obj["type"] != "tree_head" {
			continue
		}
		found++
		obj["sig"] = c.Sig
		text, err := canonical.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		h, err := tlog.ParseTreeHead(text)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		payload, err := protocol.SigningPayload(with(h, func(h *tlog.TreeHead) { h.Sig = "" }).Object())
		if err != nil || string(payload) != c.Payload {
			t.Errorf("%s: payload %s, want %s", c.Name, payload, c.Payload)
		}
		if err := tlog.VerifyTreeHead(h, c.PublicKey); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
	if found != 1 {
		t.Fatalf("%d tree head vectors, want 1", found)
	}
}

func TestTreeGrowth(t *testing.T) {
	l := newTestLog(t, 9)
	pub := l.key.Public().String()
	ctx := context.Background()
	first, err := tlog.ReadRoot(ctx, l.tree, 6)
	if err != nil {
		t.Fatal(err)
	}
	early, err := tlog.SignTreeHead(l.key, 6, first, time.Date(2026, 10, 2, 12, 30, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	proof, err := tlog.ConsistencyProof(ctx, l.tree, 6, 9)
	if err != nil {
		t.Fatal(err)
	}
	if err := tlog.VerifyTreeGrowth(early, l.head, proof, pub); err != nil {
		t.Fatal(err)
	}
	if err := tlog.VerifyTreeGrowth(l.head, early, proof, pub); err == nil {
		t.Error("a shrinking tree verified")
	}
	if err := tlog.VerifyTreeGrowth(early, l.head, proof[1:], pub); err == nil {
		t.Error("a truncated proof verified")
	}
	if err := tlog.VerifyTreeGrowth(early, l.head, proof, testKey(t, 8).Public().String()); err == nil {
		t.Error("another key verified")
	}
	forged := with(l.head, func(h *tlog.TreeHead) { h.Log = "log:other" })
	if err := tlog.VerifyTreeGrowth(early, forged, proof, pub); err == nil {
		t.Error("heads of two logs verified")
	}
}

func TestReceipt(t *testing.T) {
	l := newTestLog(t, 13)
	pub := l.key.Public().String()
	for _, index := range []uint64{0, 5, 12} {
		r := l.receipt(t, index)
		if err := tlog.VerifyReceipt(r, pub); err != nil {
			t.Fatalf("receipt %d: %v", index, err)
		}
		text, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := tlog.ParseReceipt(text)
		if err != nil {
			t.Fatalf("receipt %d: %v", index, err)
		}
		if err := tlog.VerifyReceipt(parsed, pub); err != nil {
			t.Fatalf("receipt %d read back: %v", index, err)
		}
		again, _ := json.Marshal(parsed)
		if !bytes.Equal(again, text) {
			t.Errorf("receipt %d does not round-trip:\n%s\n%s", index, text, again)
		}
	}

	other := testKey(t, 8).Public().String()
	r := l.receipt(t, 5)
	for name, c := range map[string]struct {
		change func(r *tlog.Receipt)
		key    string
	}{
		"another key":         {func(*tlog.Receipt) {}, other},
		"another log":         {func(r *tlog.Receipt) { r.Log = protocol.LogID(other) }, pub},
		"another index":       {func(r *tlog.Receipt) { r.Index = 4 }, pub},
		"an index past":       {func(r *tlog.Receipt) { r.Index = 13 }, pub},
		"a changed leaf":      {func(r *tlog.Receipt) { r.Leaf = l.leaves[4] }, pub},
		"another leaf hash":   {func(r *tlog.Receipt) { r.LeafHash[0] ^= 1 }, pub},
		"a tampered proof":    {func(r *tlog.Receipt) { r.InclusionProof[1][0] ^= 1 }, pub},
		"a truncated proof":   {func(r *tlog.Receipt) { r.InclusionProof = r.InclusionProof[:2] }, pub},
		"an unsigned head":    {func(r *tlog.Receipt) { r.TreeHead.Sig = "" }, pub},
		"a head of 12":        {func(r *tlog.Receipt) { r.TreeHead.Size = 12 }, pub},
		"an unencodable leaf": {func(r *tlog.Receipt) { r.Leaf = map[string]any{"x": make(chan int)} }, pub},
	} {
		bad := *r
		bad.InclusionProof = append([]tlog.Hash(nil), r.InclusionProof...)
		c.change(&bad)
		if err := tlog.VerifyReceipt(&bad, c.key); err == nil {
			t.Errorf("%s: verified", name)
		}
	}

	// Copies are read, kept and written back, and verify nothing.
	withCopies := *r
	withCopies.Copies = []tlog.Copy{{Log: "log:" + strings.Repeat("cd", 32), Index: 3}}
	text, _ := json.Marshal(&withCopies)
	parsed, err := tlog.ParseReceipt(text)
	if err != nil || len(parsed.Copies) != 1 || parsed.Copies[0] != withCopies.Copies[0] {
		t.Fatalf("copies: %+v, %v", parsed, err)
	}
}

func TestParseReceiptRefuses(t *testing.T) {
	l := newTestLog(t, 6)
	text, err := json.Marshal(l.receipt(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	var good map[string]any
	if err := json.Unmarshal(text, &good); err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(m map[string]any){
		"an unknown member":         func(m map[string]any) { m["note"] = "x" },
		"no tree head":              func(m map[string]any) { delete(m, "tree_head") },
		"no proof":                  func(m map[string]any) { delete(m, "inclusion_proof") },
		"a fractional index":        func(m map[string]any) { m["index"] = 0.5 },
		"a negative index":          func(m map[string]any) { m["index"] = -1 },
		"an index past 2^53":        func(m map[string]any) { m["index"] = 1 << 54 },
		"an uppercase leaf hash":    func(m map[string]any) { m["leaf_hash"] = strings.ToUpper(m["leaf_hash"].(string)) },
		"a short leaf hash":         func(m map[string]any) { m["leaf_hash"] = "" },
		"a short proof hash":        func(m map[string]any) { m["inclusion_proof"] = []any{"00"} },
		"a proof that is a string":  func(m map[string]any) { m["inclusion_proof"] = "00" },
		"a leaf that is a string":   func(m map[string]any) { m["leaf"] = "leaf" },
		"a leaf without an entry":   func(m map[string]any) { delete(m["leaf"].(map[string]any), "entry") },
		"a leaf without a time":     func(m map[string]any) { delete(m["leaf"].(map[string]any), "timestamp") },
		"an entry without a type":   func(m map[string]any) { delete(m["leaf"].(map[string]any)["entry"].(map[string]any), "type") },
		"a tree head with extras":   func(m map[string]any) { m["tree_head"].(map[string]any)["extra"] = true },
		"a copy with extras":        func(m map[string]any) { m["copies"] = []any{map[string]any{"log": "l", "index": 1, "url": "u"}} },
		"a copy at a fraction":      func(m map[string]any) { m["copies"] = []any{map[string]any{"log": "l", "index": 1.5}} },
		"copies that are an object": func(m map[string]any) { m["copies"] = map[string]any{} },
	} {
		m := deepCopy(good)
		change(m)
		text, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tlog.ParseReceipt(text); !errors.Is(err, tlog.ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := tlog.ParseReceipt(append([]byte(`{"log":"a",`), text[1:]...)); !errors.Is(err, tlog.ErrMalformed) {
		t.Errorf("a duplicate member: %v", err)
	}
}

func deepCopy(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}
