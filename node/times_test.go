package node

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/tlog"
)

// TestTimesNeverGoBack writes to a node from 32 clients at once, library
// contributions (whose leaves are made when they are admitted) beside
// ledger registrations and invitations, as agora bench append
// --concurrency 32 does, then reads the log as the reference monitor does:
// no leaf is stamped before the leaf ahead of it, and no tree head before
// a smaller one.
func TestTimesNeverGoBack(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	authors := []author{newAuthor(t, n, base), newAuthor(t, n, base), newAuthor(t, n, base), newAuthor(t, n, base)}
	at := time.Now().Add(-time.Hour)
	var wires [][]byte
	for i := range 192 {
		wire, _ := envelope(t, authors[i%len(authors)], map[string]any{"kind": "thread", "title": fmt.Sprintf("Times %d", i),
			"body": "Does the clock hold?", "links": []any{}, "previous": ""}, at.Add(time.Duration(i)*time.Millisecond))
		wires = append(wires, wire)
	}
	work := make(chan func() error)
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for do := range work {
				if err := do(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for i, wire := range wires {
		work <- func() error {
			status, v, err := fetch("POST", base+"/api/entries", wire)
			if err == nil && status != http.StatusCreated {
				err = fmt.Errorf("publish: %d %v", status, v)
			}
			return err
		}
		if i%12 == 0 {
			work <- func() error { newAuthor(t, n, base); return nil }
		}
	}
	close(work)
	wg.Wait()
	if t.Failed() {
		return
	}

	ctx := context.Background()
	leaves, err := n.log.Leaves(ctx, 0, n.log.Size())
	if err != nil {
		t.Fatal(err)
	}
	var last time.Time
	for i, leaf := range leaves {
		v, err := canonical.Parse(leaf)
		if err != nil {
			t.Fatal(err)
		}
		stamp, _ := v.(map[string]any)["timestamp"].(string)
		at, err := tlog.ParseTimestamp(stamp)
		if err != nil {
			t.Fatalf("leaf %d: %v", i, err)
		}
		if at.Before(last) {
			t.Errorf("leaf %d is stamped %s, before leaf %d (%s)", i, stamp, i-1, tlog.FormatTimestamp(last))
		}
		last = at
	}
	last = time.Time{}
	for size := range n.log.Size() + 1 {
		h, err := n.log.TreeHeadAt(size)
		if err != nil {
			continue
		}
		at, err := h.Time()
		if err != nil {
			t.Fatal(err)
		}
		if at.Before(last) {
			t.Errorf("the tree head of %d entries is stamped %s, before a smaller one (%s)", size, h.Timestamp, tlog.FormatTimestamp(last))
		}
		last = at
	}
}
