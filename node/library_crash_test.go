package node

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store"
)

// contributionFaultStore is a faultStore whose AddContribution, while
// failAdd is set, stores the contribution with its entry and leaf and then
// fails: as if the process died after POST /api/entries admitted it and
// before the append.
type contributionFaultStore struct {
	*faultStore
	failAdd atomic.Bool
}

func (f *contributionFaultStore) AddContribution(ctx context.Context, c library.NewContribution, check func(context.Context, library.Graph) error) (library.Contribution, error) {
	stored, err := f.faultStore.AddContribution(ctx, c, check)
	if err != nil || !f.failAdd.Load() {
		return stored, err
	}
	return library.Contribution{}, fmt.Errorf("add contribution %s: %w", c.ID, errInjected)
}

// TestRecoverContribution makes the state a crash leaves when a library
// contribution was admitted (stored, with its entry and leaf) and never
// appended, restarts the node, and checks that recovery appended it: the
// contribution is logged, bound and provable, never dropped, and a
// revision of it is admitted against it as the head.
func TestRecoverContribution(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := dataDir(t)
	var faults *contributionFaultStore
	n := openNodeWith(t, dir, io.Discard, func(st nodeStore) nodeStore {
		faults = &contributionFaultStore{faultStore: &faultStore{nodeStore: st}}
		return faults
	})
	srv := httptest.NewServer(n.Handler())
	owner := newAuthor(t, n, srv.URL)
	now := time.Now()
	wire, id := envelope(t, owner, map[string]any{"kind": "thread", "title": "Kept", "body": "Admitted, then the node died", "links": []any{}, "previous": ""}, now)
	faults.failAdd.Store(true)
	if status, v := call(t, "POST", srv.URL+"/api/entries", wire); status != http.StatusInternalServerError {
		t.Fatalf("the injected fault answered %d %v, want 500", status, v)
	}
	faults.failAdd.Store(false)
	c, err := n.store.Contribution(ctx, id)
	if err != nil || c.Index != store.Unlogged {
		t.Fatalf("before the restart the contribution is %+v, %v; want it stored and unlogged", c, err)
	}
	size := n.log.Size()
	srv.Close()
	if err := n.Close(ctx); err != nil {
		t.Fatal(err)
	}

	var logged lockedBuffer
	n = openNode(t, dir, &logged)
	srv = httptest.NewServer(n.Handler())
	t.Cleanup(func() {
		srv.Close()
		n.Close(context.Background())
	})
	if !strings.Contains(logged.String(), "appended an admitted entry") {
		t.Errorf("the recovery log does not say it appended the contribution:\n%s", logged.String())
	}
	checkNoUnbound(t, n, "after recovery")
	if got := n.log.Size(); got != size+1 {
		t.Errorf("the log holds %d entries after recovery, want %d", got, size+1)
	}
	status, v := call(t, "GET", srv.URL+"/api/entries/"+id, nil)
	if status != http.StatusOK {
		t.Fatalf("GET the recovered contribution: %d %v", status, v)
	}
	index, ok := v.(map[string]any)["admission"].(map[string]any)["log_index"].(float64)
	if !ok || uint64(index) != size {
		t.Fatalf("the recovered contribution's admission is %v, want log_index %d", v.(map[string]any)["admission"], size)
	}
	if signed := mustSigned(t, srv.URL, uint64(index)); signed["type"] != library.ContributionType || signed["revision"] != id {
		t.Errorf("entry %v holds %v, not contribution %s", index, signed, id)
	}
	auditLog(t, newClient(srv.URL, nil, ""), n.keys.log.Public().String())

	// The same envelope again is where it stands; a revision builds on it.
	if status, v := call(t, "POST", srv.URL+"/api/entries", wire); status != http.StatusOK || v.(map[string]any)["id"] != id {
		t.Errorf("the recovered envelope sent again: %d %v, want 200 with it", status, v)
	}
	revision, revID := envelope(t, owner, map[string]any{"kind": "thread", "title": "Kept, revised", "body": "Built on it", "links": []any{}, "previous": id}, now.Add(time.Second))
	if status, v := call(t, "POST", srv.URL+"/api/entries", revision); status != http.StatusCreated {
		t.Fatalf("a revision of the recovered contribution: %d %v", status, v)
	}
	if status, v := call(t, "GET", srv.URL+"/api/entries/"+id+"/head", nil); status != http.StatusOK || v.(map[string]any)["id"] != revID {
		t.Errorf("the head after the revision: %d %v, want %s", status, v, revID)
	}
}
