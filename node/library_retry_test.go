package node

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gatedBindStore holds every BindIndex while closed is set, until open is
// closed: an append that has reached the log but not yet its binding.
type gatedBindStore struct {
	nodeStore
	closed *atomic.Bool
	open   chan struct{}
}

func (g gatedBindStore) BindIndex(ctx context.Context, index int64, digest string) error {
	if g.closed.Load() {
		<-g.open
	}
	return g.nodeStore.BindIndex(ctx, index, digest)
}

// TestLibraryRetryWhileLogging sends an envelope again while the request
// that admitted it is still logging it: the retry's 200 comes only once the
// revision is logged, with its log index, never with a null one.
func TestLibraryRetryWhileLogging(t *testing.T) {
	var closed atomic.Bool
	open := make(chan struct{})
	cfg := Config{DataDir: t.TempDir(), wrapStore: func(st nodeStore) nodeStore { return gatedBindStore{st, &closed, open} }}
	n, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(n.Handler())
	t.Cleanup(func() {
		srv.Close()
		n.Close(context.Background())
	})
	// Opened at the latest when the test ends, so a failing test never
	// leaves a request held.
	var once sync.Once
	release := func() { once.Do(func() { close(open) }) }
	t.Cleanup(release)
	a := newAuthor(t, n, srv.URL)
	wire, id := envelope(t, a, map[string]any{"kind": "thread", "title": "Retry", "body": "b", "links": []any{}, "previous": ""}, time.Now())

	closed.Store(true)
	type answer struct {
		status int
		v      any
	}
	first, retry := make(chan answer, 1), make(chan answer, 1)
	go func() {
		status, v := call(t, "POST", srv.URL+"/api/entries", wire)
		first <- answer{status, v}
	}()
	// Once the revision is stored, its first request is waiting on the log.
	for deadline := time.Now().Add(10 * time.Second); ; {
		if status, _ := call(t, "GET", srv.URL+"/api/entries/"+id, nil); status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the revision was never stored")
		}
		time.Sleep(10 * time.Millisecond)
	}
	go func() {
		status, v := call(t, "POST", srv.URL+"/api/entries", wire)
		retry <- answer{status, v}
	}()
	select {
	case got := <-retry:
		t.Fatalf("the retry answered %d %v while the revision was not logged", got.status, got.v)
	case <-time.After(300 * time.Millisecond):
	}
	release()
	f, r := <-first, <-retry
	if f.status != http.StatusCreated {
		t.Fatalf("first: %d %v", f.status, f.v)
	}
	if r.status != http.StatusOK {
		t.Fatalf("retry: %d %v", r.status, r.v)
	}
	fi := f.v.(map[string]any)["admission"].(map[string]any)["log_index"]
	ri := r.v.(map[string]any)["admission"].(map[string]any)["log_index"]
	if ri == nil || ri != fi {
		t.Errorf("the retry says log index %v, the first %v", ri, fi)
	}
}
