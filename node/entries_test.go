package node

import (
	"context"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
)

// TestEntriesWaitAndNames checks that ?wait= holds a request for entries
// past the end of the log until they are logged, that ?latest= gives the
// newest, and that names=yes names each entry's signer.
func TestEntriesWaitAndNames(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	token, err := os.ReadFile(AdminTokenPath(n.cfg.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	key, _ := hybrid.GenerateKey()
	status, v := call(t, "POST", srv.URL+"/api/v1/operators", mustJSON(t, map[string]any{"entry": keyEntry(t, key), "name": "Wren"}))
	if status != http.StatusCreated {
		t.Fatalf("register: %d %v", status, v)
	}
	id := v.(map[string]any)["operator"].(string)

	// Nothing is logged yet: a request for entry 0 with wait=20 is held
	// until the invitation logs entries, not answered empty at once.
	type answer struct {
		status  int
		body    any
		elapsed time.Duration
	}
	held := make(chan answer, 1)
	start := time.Now()
	go func() {
		status, v := call(t, "GET", srv.URL+"/api/v1/log/entries?start=0&wait=20&names=yes", nil)
		held <- answer{status, v, time.Since(start)}
	}()
	time.Sleep(300 * time.Millisecond)
	select {
	case a := <-held:
		t.Fatalf("answered before anything was logged: %d %v", a.status, a.body)
	default:
	}
	if status, v := call(t, "POST", srv.URL+"/api/v1/admin/invitations", mustJSON(t, map[string]any{"operator": id}), "Authorization", "Bearer "+string(token)); status != http.StatusCreated {
		t.Fatalf("invite: %d %v", status, v)
	}
	a := <-held
	if a.status != http.StatusOK || a.elapsed > 15*time.Second {
		t.Fatalf("held request: %d after %v: %v", a.status, a.elapsed, a.body)
	}
	body := a.body.(map[string]any)
	if entries := body["entries"].([]any); len(entries) == 0 {
		t.Fatalf("held request answered no entries: %v", body)
	}
	if names := body["names"].(map[string]any); names[id] != "Wren" {
		t.Errorf("names=yes gave %v, want %s named Wren", names, id)
	}

	// latest=1 is the newest entry; an empty answer comes back at once
	// when wait is not asked for.
	_, v = call(t, "GET", srv.URL+"/api/v1/log/entries?latest=1", nil)
	latest := v.(map[string]any)["entries"].([]any)
	if len(latest) != 1 || latest[0].(map[string]any)["index"] != float64(1) {
		t.Errorf("latest=1 gave %v, want entry 1", latest)
	}
	start = time.Now()
	_, v = call(t, "GET", srv.URL+"/api/v1/log/entries?start=2", nil)
	if got := v.(map[string]any)["entries"].([]any); len(got) != 0 || time.Since(start) > 2*time.Second {
		t.Errorf("start past the end without wait: %v after %v", got, time.Since(start))
	}
}

// TestEntriesWaitBounded checks that one address holds at most four long
// polls open: a fifth is answered at once with what there is, so idle
// waiters cannot take every connection the node serves; once one gives
// its place back, the next request waits again.
func TestEntriesWaitBounded(t *testing.T) {
	t.Parallel()
	_, srv := testNode(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	var held sync.WaitGroup
	waiting := make([]context.CancelFunc, 4)
	for i := range waiting {
		rctx, stop := context.WithCancel(ctx)
		waiting[i] = stop
		req, _ := http.NewRequestWithContext(rctx, "GET", srv.URL+"/api/v1/log/entries?start=0&wait=25", nil)
		held.Go(func() {
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		})
	}
	t.Cleanup(func() { cancel(); held.Wait() })
	time.Sleep(500 * time.Millisecond) // the four are waiting

	start := time.Now()
	status, v := call(t, "GET", srv.URL+"/api/v1/log/entries?start=0&wait=25", nil)
	if got, _ := v.(map[string]any)["entries"].([]any); status != http.StatusOK || len(got) != 0 || time.Since(start) > 10*time.Second {
		t.Fatalf("a fifth long poll from one address: %d %v after %v; want an empty answer at once", status, v, time.Since(start))
	}

	waiting[0]()
	time.Sleep(300 * time.Millisecond) // its place is given back
	start = time.Now()
	call(t, "GET", srv.URL+"/api/v1/log/entries?start=0&wait=2", nil)
	if elapsed := time.Since(start); elapsed < time.Second {
		t.Errorf("with a place free, wait=2 was answered after %v; want it held", elapsed)
	}
}
