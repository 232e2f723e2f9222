package client_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/note"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/node/nodetest"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// testNode starts a real node on loopback with its data in a temporary
// folder, and returns a client of it and the node's admin token.
func testNode(t *testing.T) (*client.Client, string) {
	srv, dir := nodetest.Start(t, node.Config{})
	return client.New(srv.URL+"/", srv.Client()), nodetest.AdminToken(t, dir)
}

func keyEntry(t *testing.T, key *hybrid.PrivateKey) map[string]any {
	t.Helper()
	entry := map[string]any{"type": "key", "key": key.Public().String(), "model_families": []any{"claude"}, "model": "claude-test-1"}
	if err := protocol.Sign(entry, key); err != nil {
		t.Fatal(err)
	}
	return entry
}

// TestClient drives every route the client knows against a real node, and
// checks what it parsed with the protocol core's verifiers.
func TestClient(t *testing.T) {
	ctx := context.Background()
	c, token := testNode(t)

	info, err := c.Log(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Log != protocol.LogID(info.PublicKey) {
		t.Fatalf("log %s, key makes %s", info.Log, protocol.LogID(info.PublicKey))
	}
	origin, _ := tlog.CheckpointOrigin(info.Log)
	verifiers, err := tlog.VerifyCheckpointKeys(info.CheckpointKeys, info.PublicKey, origin)
	if err != nil {
		t.Fatal(err)
	}

	// Register two operators, the second renamed, rotated and invited.
	keys := []*hybrid.PrivateKey{}
	var ids []string
	for i := range 2 {
		key, _ := hybrid.GenerateKey()
		reg, err := c.Register(ctx, keyEntry(t, key), "Client Test")
		if err != nil {
			t.Fatal(err)
		}
		if !reg.Created || reg.Status != "pending" || reg.Operator != protocol.OperatorID(key.Public().String()) {
			t.Fatalf("registration %d: %+v", i, reg)
		}
		again, err := c.Register(ctx, keyEntry(t, key), "Client Test")
		if err != nil || again.Created || again.Name != reg.Name {
			t.Fatalf("registering again: %+v, %v", again, err)
		}
		keys = append(keys, key)
		ids = append(ids, reg.Operator)
	}
	op, err := c.Operator(ctx, ids[1])
	if err != nil {
		t.Fatal(err)
	}
	if op.Name != "Client Test #2" || op.KeyDigest != protocol.KeyDigest(keys[1].Public().String()) || op.Model != "claude-test-1" ||
		len(op.KeyFamilies) != 1 || op.Identity != nil || op.Raw["credit"] == nil {
		t.Fatalf("record: %+v", op)
	}

	rename := map[string]any{"type": "operator_name", "operator": ids[1], "name": "Renamed",
		"time": tlog.FormatTimestamp(time.Now()), "model_family": "claude", "model": "claude-test-1"}
	if err := protocol.Sign(rename, keys[1]); err != nil {
		t.Fatal(err)
	}
	if rn, err := c.Rename(ctx, ids[1], rename); err != nil || rn.Name != "Renamed" || !rn.Changed {
		t.Fatalf("rename: %+v, %v", rn, err)
	}

	inv, err := c.Invite(ctx, token, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if inv.Kind != "invited" || inv.Operator != ids[0] || inv.Index != 1 {
		t.Fatalf("invitation: %+v", inv)
	}
	newKey, _ := hybrid.GenerateKey()
	rot, err := protocol.SignKeyRotation(ids[1], newKey, keys[1])
	if err != nil {
		t.Fatal(err)
	}
	rotated, err := c.RotateKey(ctx, ids[1], rot)
	if err != nil {
		t.Fatal(err)
	}
	if rotated.KeyDigest != protocol.KeyDigest(newKey.Public().String()) || rotated.Index != 3 {
		t.Fatalf("rotation: %+v", rotated)
	}

	// Four entries: key 0, identity 0, key 1, rotation 1.
	info, err = c.Log(ctx)
	if err != nil {
		t.Fatal(err)
	}
	head := info.TreeHead
	if head == nil || head.Size != 4 {
		t.Fatalf("tree head after four appends: %+v", head)
	}
	if err := tlog.VerifyTreeHead(*head, info.PublicKey); err != nil {
		t.Fatal(err)
	}
	entries, err := c.Entries(ctx, 0, 100)
	if err != nil || len(entries) != 4 {
		t.Fatalf("entries: %d, %v", len(entries), err)
	}
	latest, err := c.LatestEntries(ctx, 2)
	if err != nil || len(latest) != 2 || latest[0].Index != 2 || latest[1].LeafHash != entries[3].LeafHash {
		t.Fatalf("latest entries: %+v, %v", latest, err)
	}
	var hashes []tlog.Hash
	for i, e := range entries {
		b, _ := tlog.LeafBytes(e.Leaf)
		if tlog.LeafHash(b) != e.LeafHash || e.Index != uint64(i) {
			t.Fatalf("entry %d does not hash to its leaf_hash", i)
		}
		hashes = append(hashes, e.LeafHash)

		r, err := c.Receipt(ctx, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if err := tlog.VerifyReceipt(r, info.PublicKey); err != nil {
			t.Fatalf("receipt %d: %v", i, err)
		}
		signed, err := c.Signed(ctx, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if !protocol.MatchesLeafEntry(signed, e.Leaf["entry"].(map[string]any)) {
			t.Fatalf("entry %d as signed does not match its leaf", i)
		}
		p, err := c.InclusionProof(ctx, uint64(i), head.Size)
		if err != nil {
			t.Fatal(err)
		}
		if err := tlog.VerifyInclusion(uint64(i), head.Size, e.LeafHash, p, head.Root); err != nil {
			t.Fatalf("inclusion proof %d: %v", i, err)
		}
	}
	if tlog.Root(hashes) != head.Root {
		t.Fatal("the leaves do not hash to the signed root")
	}
	first, err := c.Receipt(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The receipt of entry 0 is against the newest head; a head of size 2
	// comes from the checkpoint the invitation was answered under.
	cp2, err := c.Checkpoint(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := note.Open(cp2, note.VerifierList(verifiers...)); err != nil {
		t.Fatalf("checkpoint of 2: %v", err)
	}
	small, _ := tlog.ParseCheckpoint(cp2)
	proof, err := c.ConsistencyProof(ctx, 2, head.Size)
	if err != nil {
		t.Fatal(err)
	}
	if err := tlog.VerifyConsistency(2, head.Size, small.Root, head.Root, proof); err != nil {
		t.Fatalf("consistency 2 → %d: %v", head.Size, err)
	}
	if first.TreeHead.Size != head.Size {
		t.Fatalf("receipt against a head of %d, want %d", first.TreeHead.Size, head.Size)
	}
	latestCP, err := c.Checkpoint(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if cp, err := tlog.ParseCheckpoint(latestCP); err != nil || cp.Size != head.Size || cp.Root != head.Root {
		t.Fatalf("latest checkpoint %+v, %v", cp, err)
	}
}

// TestErrors checks that refusals come back as *client.Error with the
// node's code and status.
func TestErrors(t *testing.T) {
	ctx := context.Background()
	c, _ := testNode(t)
	var ce *client.Error

	_, err := c.Operator(ctx, "op:"+strings.Repeat("0", 64))
	if !errors.As(err, &ce) || ce.Status != http.StatusNotFound || ce.Code != "not_found" || ce.Message == "" {
		t.Fatalf("unknown operator: %#v", err)
	}
	if !client.IsCode(err, "not_found") {
		t.Fatal("IsCode does not find not_found")
	}
	_, err = c.Receipt(ctx, 0)
	if !client.IsCode(err, "not_found") {
		t.Fatalf("receipt of an empty log: %v", err)
	}
	_, err = c.Invite(ctx, "wrong", "op:"+strings.Repeat("0", 64))
	if !errors.As(err, &ce) || ce.Status != http.StatusUnauthorized || ce.Code != "unauthorized" {
		t.Fatalf("invite with a wrong token: %v", err)
	}
	key, _ := hybrid.GenerateKey()
	entry := keyEntry(t, key)
	entry["model"] = "claude-test-2" // after signing: the signature no longer verifies
	_, err = c.Register(ctx, entry, "Bad Sig")
	if !errors.As(err, &ce) || ce.Status != http.StatusUnprocessableEntity || ce.Code != "bad_signature" {
		t.Fatalf("a bad signature: %v", err)
	}
	_, err = c.ConsistencyProof(ctx, 2, 1)
	if !errors.As(err, &ce) || ce.Status != http.StatusBadRequest {
		t.Fatalf("consistency proof backwards: %v", err)
	}
	if !strings.Contains(err.Error(), "400") {
		t.Fatalf("the error does not say the status: %v", err)
	}

	// A node that is not there is not a *client.Error.
	gone := client.New("http://127.0.0.1:1", nil)
	if _, err := gone.Log(ctx); err == nil || errors.As(err, &ce) {
		t.Fatalf("no node: %v", err)
	}
}
