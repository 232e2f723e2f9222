package node

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/library"
)

// retryStore is a nodeStore that, on demand, leaves a contribution
// stored but unlogged in the three ways a retry can find one:
//
//   - failAdmit: AddContribution writes, then fails, as if the request
//     died between admitting it and appending it (nothing on the log);
//   - failBind: BindIndex fails once, writing nothing, after the log took
//     the leaf (on the log, unbound);
//   - hold: BindIndex waits for the channel held until it is closed,
//     telling reached first, as a request still logging it does.
type retryStore struct {
	nodeStore
	failAdmit atomic.Bool
	failBind  atomic.Bool
	hold      atomic.Pointer[chan struct{}]
	reached   chan struct{}
}

func (s *retryStore) AddContribution(ctx context.Context, c library.NewContribution, check func(context.Context, library.Graph) error) (library.Contribution, error) {
	got, err := s.nodeStore.AddContribution(ctx, c, check)
	if err == nil && s.failAdmit.CompareAndSwap(true, false) {
		return library.Contribution{}, fmt.Errorf("admitting %s: %w", c.ID, errInjected)
	}
	return got, err
}

func (s *retryStore) BindIndex(ctx context.Context, index int64, digest string) error {
	if s.failBind.CompareAndSwap(true, false) {
		return fmt.Errorf("bind %d: %w", index, errInjected)
	}
	if held := s.hold.Swap(nil); held != nil {
		s.reached <- struct{}{}
		<-*held
	}
	return s.nodeStore.BindIndex(ctx, index, digest)
}

// TestLibraryRetryUnlogged sends an envelope again while its contribution
// is stored but not logged: after its admission failed before the append,
// after the log took it but the binding failed, and while the first
// request is still logging it. A 2xx means durable and provable, so every
// answer that is one names the log index, and the log holds the
// contribution there, once.
func TestLibraryRetryUnlogged(t *testing.T) {
	t.Parallel()
	rs := &retryStore{reached: make(chan struct{}, 1)}
	n, srv := testNodeWith(t, Config{wrapStore: func(st nodeStore) nodeStore { rs.nodeStore = st; return rs }})
	base := srv.URL
	who := newAuthor(t, n, base)
	at := time.Now().Add(-time.Minute)
	post := func(i int) ([]byte, string) {
		return envelope(t, who, map[string]any{"kind": "thread", "title": fmt.Sprintf("Retry %d", i), "body": "Is it logged?", "links": []any{}, "previous": ""},
			at.Add(time.Duration(i)*time.Second))
	}
	// logged checks an answer to a publication of revision id: a 2xx with
	// its log index, where the log holds it and nowhere else.
	logged := func(what string, status int, v any, id string) {
		t.Helper()
		body, _ := v.(map[string]any)
		if status != http.StatusOK && status != http.StatusCreated {
			t.Errorf("%s: %d %v, want 200 or 201", what, status, body["error"])
			return
		}
		admission, _ := body["admission"].(map[string]any)
		index, ok := admission["log_index"].(float64)
		if !ok {
			t.Errorf("%s: %d with no log index: admission %v", what, status, admission)
			return
		}
		at := leavesOf(t, n, id)
		if len(at) != 1 || at[0] != uint64(index) {
			t.Errorf("%s: answered log index %v; the log holds revision %s at %v", what, index, id, at)
		}
	}
	// The author's key entry is logged with its first contribution.
	wire, id := post(0)
	status, v := call(t, "POST", base+"/api/entries", wire)
	logged("first", status, v, id)

	// The admission failed after storing it: nothing is on the log.
	rs.failAdmit.Store(true)
	wire, id = post(1)
	if status, v := call(t, "POST", base+"/api/entries", wire); status < 500 {
		t.Fatalf("an admission that failed: %d %v", status, v)
	}
	status, v = call(t, "POST", base+"/api/entries", wire)
	logged("sent again after the admission failed", status, v, id)

	// The log took it, the binding failed: sent again, it is bound where
	// the log holds it, not logged twice.
	rs.failBind.Store(true)
	wire, id = post(2)
	if status, v := call(t, "POST", base+"/api/entries", wire); status < 500 {
		t.Fatalf("a binding that failed: %d %v", status, v)
	}
	status, v = call(t, "POST", base+"/api/entries", wire)
	logged("sent again after the binding failed", status, v, id)

	// Sent again while the first request is still binding it: the second
	// waits for the first rather than answer before it is provable.
	release := make(chan struct{})
	rs.hold.Store(&release)
	wire, id = post(3)
	type answer struct {
		status int
		v      any
	}
	first, again := make(chan answer, 1), make(chan answer, 1)
	go func() {
		status, v, err := fetch("POST", base+"/api/entries", wire)
		if err != nil {
			t.Error(err)
		}
		first <- answer{status, v}
	}()
	<-rs.reached
	go func() {
		status, v, err := fetch("POST", base+"/api/entries", wire)
		if err != nil {
			t.Error(err)
		}
		again <- answer{status, v}
	}()
	select {
	case a := <-again:
		logged("sent again while the first is logging it, answered before it was bound", a.status, a.v, id)
		again <- a
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	a := <-first
	logged("the first, held in its binding", a.status, a.v, id)
	select {
	case a = <-again:
		logged("sent again while the first is logging it", a.status, a.v, id)
	case <-time.After(10 * time.Second):
		t.Fatal("the second request never answered")
	}
}

// leavesOf returns the indices of the log's leaves that hold a
// contribution of revision id.
func leavesOf(t *testing.T, n *Node, id string) []uint64 {
	t.Helper()
	leaves, err := n.log.Leaves(context.Background(), 0, n.log.Size())
	if err != nil {
		t.Fatal(err)
	}
	var at []uint64
	for i, leaf := range leaves {
		v, err := canonical.Parse(leaf)
		if err != nil {
			t.Fatalf("leaf %d: %v", i, err)
		}
		entry, _ := v.(map[string]any)["entry"].(map[string]any)
		if entry["type"] == library.ContributionType && entry["revision"] == id {
			at = append(at, uint64(i))
		}
	}
	return at
}
