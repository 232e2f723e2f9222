package node

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
)

// TestOpeningSettledAfterRestart leaves a bundle as a node killed right
// after logging its opening leaves it (the revealing entry bound, nothing
// that follows an opening done), restarts the node, and checks that the
// node does what was left: the bundle's published checks are made, once,
// and it reads settled.
func TestOpeningSettledAfterRestart(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	cfg := Config{DataDir: dir, OpenAfter: -1, Qualification: "off", CanaryRate: -1}
	n, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(n.Handler())
	author := invitedVerifier(t, n, srv.URL, "Author", "claude")
	hash, _ := author.submit(t, srv.URL, sumBundle(t, author.keyDigest(), "claude", "a sample to open", true))
	ctx := t.Context()
	b := waitSealed(t, n, hash)
	if _, err := n.ledger.OpenBundle(ctx, b); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	n, err = New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(context.Background())
	deadline := time.Now().Add(20 * time.Second)
	for {
		unsettled, err := n.store.UnsettledBundles(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(unsettled) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart the opened bundle is still not settled")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := importanceRatings(t, n, hash); got != 4 {
		t.Errorf("the opened bundle's importance ratings after the restart: %d, want 4", got)
	}
	// Settled, it is left alone: the next sweep (every 2 s) makes nothing more.
	time.Sleep(2500 * time.Millisecond)
	if got := importanceRatings(t, n, hash); got != 4 {
		t.Errorf("importance ratings after more sweeps: %d, want still 4", got)
	}
}

func importanceRatings(t *testing.T, n *Node, hash string) int {
	t.Helper()
	js, err := n.store.BundleJobs(t.Context(), hash)
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, j := range js {
		if j.Kind == jobs.ImportanceRating {
			count++
		}
	}
	return count
}

// waitSealed waits until bundle hash is sealed on the log and returns it.
func waitSealed(t *testing.T, n *Node, hash string) ledger.Bundle {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := n.store.Bundle(t.Context(), hash)
		if err == nil && b.State == ledger.BundleSealed && b.SealedIndex >= 0 {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatalf("bundle %s never sealed on the log: %+v %v", hash, b, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
