package translog

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// TestMySQLClaims runs the claims of three shared Logs on one database, as
// three processes would hold them: one claim per key among open Logs, a
// Log's own claim claimed again, released claims free, a closed Log's
// claims taken over as from a Log gone, and a new Log in a gone Log's slot
// starting with none of its claims.
func TestMySQLClaims(t *testing.T) {
	ctx := context.Background()
	cfg := testDrivers[1].config(t)
	cfg.Shared = true
	a, b := openLog(t, cfg), openLog(t, cfg)

	claim := func(l *Log, key string, want ClaimState) {
		t.Helper()
		got, err := l.Claim(ctx, key)
		if err != nil || got != want {
			t.Fatalf("Claim(%s) = %v, %v; want %v", key, got, err, want)
		}
	}
	claim(a, "sha256:one", Claimed)
	claim(b, "sha256:one", ClaimBusy)
	claim(a, "sha256:one", Claimed) // its own
	if err := b.Release(ctx, "sha256:one"); err != nil {
		t.Fatal(err)
	}
	claim(b, "sha256:one", ClaimBusy) // b's release gave up nothing of a's
	if err := a.Release(ctx, "sha256:one"); err != nil {
		t.Fatal(err)
	}
	claim(b, "sha256:one", Claimed)

	// Of many Logs racing for fresh keys, exactly one wins each.
	keys := 40
	wins := make([]int, keys)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, l := range []*Log{a, b} {
		for k := range keys {
			wg.Go(func() {
				st, err := l.Claim(ctx, "race:"+strings.Repeat("x", k+1))
				if err != nil {
					t.Errorf("Claim: %v", err)
					return
				}
				if st == Claimed {
					mu.Lock()
					wins[k]++
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	for k, n := range wins {
		if n != 1 {
			t.Fatalf("key %d was claimed by %d Logs, want 1", k, n)
		}
	}

	// a goes away holding a claim: b takes it over, and says so.
	claim(a, "sha256:two", Claimed)
	claim(a, "sha256:three", Claimed)
	closeLog(t, a)
	claim(b, "sha256:two", ClaimedFromGone)
	claim(b, "sha256:two", Claimed)

	// A Log opened in a's slot starts without a's claims: sha256:three is
	// free, not busy, whichever slot the new Log took.
	c := openLog(t, cfg)
	if st, err := c.Claim(ctx, "sha256:three"); err != nil || st == ClaimBusy {
		t.Fatalf("a new Log claiming what a gone Log held: %v, %v", st, err)
	}
	claim(b, "sha256:three", ClaimBusy)

	if _, err := b.Claim(ctx, ""); !errors.Is(err, ErrClaimKey) {
		t.Fatalf("an empty key: %v, want ErrClaimKey", err)
	}
}

// TestClaimsInAFolder: a Log in a folder has nobody to claim against.
func TestClaimsInAFolder(t *testing.T) {
	l := openLog(t, testDrivers[0].config(t))
	for range 2 {
		if st, err := l.Claim(context.Background(), "sha256:one"); err != nil || st != Claimed {
			t.Fatalf("Claim in a folder = %v, %v; want Claimed", st, err)
		}
	}
}
