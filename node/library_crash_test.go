package node

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
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

// chain is one writer's work in a round of TestLibraryCrash: a thread and
// its revisions, signed before the round starts, each revising the one
// before, so every write also replaces a head in the catalogue.
type chain struct {
	envelopes [][]byte
	ids       []string
}

func newChain(t *testing.T, a author, writer, round, length int) chain {
	var c chain
	at := time.Now().Add(-time.Minute)
	previous := ""
	for i := range length {
		wire, id := envelope(t, a, map[string]any{"kind": "thread", "title": fmt.Sprintf("Round %d writer %d revision %d", round, writer, i),
			"body": fmt.Sprintf("Written while the node may die: clock drift, sensor %d, batch %d", writer, i), "links": []any{}, "previous": previous},
			at.Add(time.Duration(i)*time.Millisecond))
		c.envelopes, c.ids = append(c.envelopes, wire), append(c.ids, id)
		previous = id
	}
	return c
}

// TestLibraryCrash kills the node process (SIGKILL) while many clients
// post library contributions at once, so its store's writer is committing
// batches of them together (group commit) and its log is sequencing
// others, restarts it on the same data folder, and checks every
// contribution the node acknowledged (201 or 200 with a log index): it is
// stored at that index, the entry there is it, and its receipt verifies
// against the log's checkpoint (an inclusion proof); nothing is left
// unbound after recovery.
func TestLibraryCrash(t *testing.T) {
	crashTest(t)
	dir := dataDir(t)
	const rounds, writers, length = 2, 32, 64
	var (
		mu      sync.Mutex
		acked   = map[string]int64{} // contribution ID → acknowledged log index
		pub     string
		authors []author
	)
	for round := range rounds {
		ch := startChild(t, dir)
		if round == 0 {
			token, err := os.ReadFile(AdminTokenPath(dir))
			if err != nil {
				t.Fatal(err)
			}
			_, v, err := newClient(ch.url, nil, "").do("GET", "/api/v1/log", nil)
			if err != nil {
				t.Fatal(err)
			}
			pub = v.(map[string]any)["public_key"].(string)
			for range 4 {
				authors = append(authors, newAuthorWith(t, ch.url, string(token)))
			}
		}
		chains := make([]chain, writers)
		for w := range chains {
			chains[w] = newChain(t, authors[w%len(authors)], w, round, length)
		}
		var inFlight, acks atomic.Int64
		var wg sync.WaitGroup
		for w, ch0 := range chains {
			wg.Go(func() {
				c := newClient(ch.url, net.IPv4(127, 0, byte(round+1), byte(w+2)), "")
				for i, wire := range ch0.envelopes {
					inFlight.Add(1)
					status, v, err := c.do("POST", "/api/entries", wire)
					inFlight.Add(-1)
					if err != nil {
						return // the node was killed
					}
					if status != http.StatusCreated && status != http.StatusOK {
						t.Errorf("publish: %d %v", status, v)
						return
					}
					ans := v.(map[string]any)
					index, ok := ans["admission"].(map[string]any)["log_index"].(float64)
					if !ok || ans["id"] != ch0.ids[i] {
						t.Errorf("publish answered %v for %s", ans, ch0.ids[i])
						return
					}
					mu.Lock()
					acked[ch0.ids[i]] = int64(index)
					mu.Unlock()
					acks.Add(1)
				}
			})
		}
		// Kill the node once it has acknowledged eight writes a writer
		// and, at that moment, most writers wait on a write: in the
		// store's batched commit, the log's sequencing or a checkpoint.
		for acks.Load() < 8*writers || inFlight.Load() < writers/2 {
			time.Sleep(time.Millisecond)
		}
		busy := inFlight.Load()
		ch.kill(t)
		wg.Wait()
		t.Logf("round %d: killed with %d writes in flight, %d acknowledged", round, busy, acks.Load())
		if acks.Load() == int64(writers*length) {
			t.Fatalf("round %d: every write was acknowledged before the kill", round)
		}
	}

	n, c, _ := restartHere(t, dir)
	checkNoUnbound(t, n, "after recovery")
	leaves, head := auditLog(t, c, pub)
	t.Logf("%d contributions acknowledged; the log holds %d entries", len(acked), head.Size)
	for id, index := range acked {
		if index >= int64(len(leaves)) {
			t.Errorf("%s was acknowledged at %d; the log holds %d entries", id, index, len(leaves))
			continue
		}
		if entry := leaves[index]["entry"].(map[string]any); entry["type"] != library.ContributionType || entry["revision"] != id {
			t.Errorf("%s was acknowledged at %d, which holds %v", id, index, entry)
		}
		c, err := n.store.Contribution(context.Background(), id)
		if err != nil || c.Index != index {
			t.Errorf("%s was acknowledged at %d; the store holds %+v, %v", id, index, c.Index, err)
		}
	}
}
