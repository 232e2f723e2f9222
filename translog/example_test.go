package translog_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"os"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog"
)

// A node opens its log, appends a leaf, and answers with a receipt that any
// client checks with the log's public key alone.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "translog-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	logKey, err := hybrid.GenerateKey()
	if err != nil {
		panic(err)
	}
	_, checkpointKey, err := ed25519.GenerateKey(nil)
	if err != nil {
		panic(err)
	}
	origin, err := tlog.CheckpointOrigin(protocol.LogID(logKey.Public().String()))
	if err != nil {
		panic(err)
	}
	log, err := translog.Open(ctx, translog.Config{
		Dir:           dir,
		Origin:        origin,
		LogKey:        logKey,
		CheckpointKey: checkpointKey,
	})
	if err != nil {
		panic(err)
	}
	defer log.Close(ctx)

	leaf := map[string]any{
		"timestamp": "2026-10-02T12:00:00.000Z",
		"operator":  "op:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"entry":     map[string]any{"type": "example"},
	}
	leafBytes, err := tlog.LeafBytes(leaf)
	if err != nil {
		panic(err)
	}
	// Append returns once a published tree head covers the entry.
	index, err := log.Append(ctx, leafBytes)
	if err != nil {
		panic(err)
	}
	head, err := log.TreeHead()
	if err != nil {
		panic(err)
	}
	// The log is a tlog.SubtreeReader over its published tree.
	receipt, err := tlog.NewReceipt(ctx, log, head, index, leaf)
	if err != nil {
		panic(err)
	}
	fmt.Println("index", index, "of", head.Size)
	fmt.Println("receipt verifies:", tlog.VerifyReceipt(receipt, log.PublicKey()) == nil)

	checkpoint, err := log.Checkpoint(head.Size)
	if err != nil {
		panic(err)
	}
	c, err := tlog.VerifyCheckpoint(checkpoint, log.VerifierKey())
	fmt.Println("checkpoint verifies:", err == nil, c.Root == head.Root)
	// Output:
	// index 0 of 1
	// receipt verifies: true
	// checkpoint verifies: true true
}
