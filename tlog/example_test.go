package tlog_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"time"

	"github.com/agora-node/agora/tlog"
)

func Example() {
	// A log appends leaves and stores the perfect subtrees they complete.
	tree := tlog.NewMemoryTree(nil)
	for i := range 5 {
		tree.Append(tlog.LeafHash(fmt.Appendf(nil, "leaf %d", i)))
	}
	root := tree.Root()

	// It proves leaf 3 is in the tree of 5 leaves...
	ctx := context.Background()
	proof, _ := tlog.InclusionProof(ctx, tree, 3, 5)
	fmt.Println(len(proof), tlog.VerifyInclusion(3, 5, tlog.LeafHash([]byte("leaf 3")), proof, root))

	// ...and that the tree of 5 extends the tree of 2.
	first, _ := tlog.ReadRoot(ctx, tree, 2)
	growth, _ := tlog.ConsistencyProof(ctx, tree, 2, 5)
	fmt.Println(len(growth), tlog.VerifyConsistency(2, 5, first, root, growth))
	// Output:
	// 3 <nil>
	// 2 <nil>
}

func ExampleCheckpointSigner() {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, ed25519.SeedSize))
	origin, _ := tlog.CheckpointOrigin("log:" + fmt.Sprintf("%064x", 0xab))
	signer, _ := tlog.NewCheckpointSigner(origin, key)

	checkpoint, _ := signer.SignCheckpoint(0, tlog.EmptyRoot)
	fmt.Print(string(checkpoint))

	c, err := tlog.VerifyCheckpoint(checkpoint, signer.VerifierKey())
	fmt.Println(c.Size, c.Root == tlog.EmptyRoot, err)

	// A witness cosigns it.
	witness, _ := tlog.NewCosigner("witness.example/w1", ed25519.NewKeyFromSeed(bytes.Repeat([]byte{2}, ed25519.SeedSize)))
	cosigned, _ := witness.Cosign(checkpoint, time.Unix(1790000000, 0))
	at, err := tlog.VerifyCosignature(cosigned, witness.VerifierKey())
	fmt.Println(at.Format(time.RFC3339), err)
	// Output:
	// sciencejournal.ai/log/00000000000000000000000000000000000000000000000000000000000000ab
	// 0
	// 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=
	//
	// — sciencejournal.ai/log/00000000000000000000000000000000000000000000000000000000000000ab daT3Yy2XfGmccSfZsZ/5DyL4hwgHb0a0ySO8G/WzLGy+ts591PDcBztR73s+P4ayDInLPdj+/MQiUdhejeJSB4bkqQo=
	// 0 true <nil>
	// 2026-09-21T14:13:20Z <nil>
}
