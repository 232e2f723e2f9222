package ledgerhttp

import (
	"net/http"
	"sync"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
)

// Long polls (GET /api/v1/log/entries and GET /api/v1/claims?following
// with wait=) hold a connection while they wait, and the server serves a
// bounded number of connections. So only so many wait at once, and only
// so many from one address; past either bound a request is answered at
// once with what there is, as if it had asked for no wait, and its client
// polls again. Idle waiters can then never take every connection.
const (
	maxWaiting           = 256
	maxWaitingPerAddress = 4
)

// waiters counts the requests waiting, in all and by client address.
type waiters struct {
	mu      sync.Mutex
	total   int
	byAddr  map[string]int
	max     int
	perAddr int
}

func newWaiters() *waiters {
	return &waiters{byAddr: map[string]int{}, max: maxWaiting, perAddr: maxWaitingPerAddress}
}

// hold returns how long r may wait, at most want, and the function that
// gives its place back: zero when no place is free.
func (w *waiters) hold(r *http.Request, want time.Duration) (time.Duration, func()) {
	if want <= 0 {
		return 0, func() {}
	}
	addr := httpapi.ClientAddress(r)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.total >= w.max || w.byAddr[addr] >= w.perAddr {
		return 0, func() {}
	}
	w.total++
	w.byAddr[addr]++
	var once sync.Once
	return want, func() {
		once.Do(func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.total--
			if w.byAddr[addr]--; w.byAddr[addr] == 0 {
				delete(w.byAddr, addr)
			}
		})
	}
}
