package ledgerhttp

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"runtime"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/agora-node/agora/internal/httpapi"
)

// Admission: who may start a bundle check, before the node reads its body.
// A check is the node's most expensive answer and POST /api/v1/bundles/check
// needs no signature, so each address gets a token bucket, and all checks,
// signed submissions' too, run in a small pool with a short queue; past
// them the answer is the spec's 429 or 503 busy with Retry-After
// (spec/ledger-protocol.md, "Common problems": "Only 503 with busy asks for
// nothing but patience").

// Admission defaults, for the Config fields left zero.
const (
	// DefaultChecksPerMinute is each address's allowance of unsigned
	// checks: an agent checks a bundle a few times before submitting it.
	DefaultChecksPerMinute = 20
	// DefaultSubmissionsPerMinute is each address's allowance of
	// submissions, more generous since a submission is signed and the
	// spec's per-operator limits follow.
	DefaultSubmissionsPerMinute = 60
	// DefaultCheckQueueWait is the longest a check waits for a worker.
	DefaultCheckQueueWait = 2 * time.Second
	// MaxChecksInFlightPerAddress bounds the unsigned checks one address
	// has running or queued at once, so that a few addresses can't take
	// the whole pool and queue from the rest.
	MaxChecksInFlightPerAddress = 2
	// maxTrackedAddresses bounds the buckets kept; idle ones (full again)
	// are dropped first.
	maxTrackedAddresses = 10000
)

// checkPool runs at most workers checks at once, with at most queue more
// waiting, each for at most wait.
type checkPool struct {
	workers chan struct{} // a slot per running check
	queue   chan struct{} // a slot per waiting check
	wait    time.Duration

	mu       sync.Mutex     // guards inFlight
	inFlight map[string]int // address key -> its checks running or queued; never 0
}

func newCheckPool(workers, queue int, wait time.Duration) *checkPool {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if queue <= 0 {
		queue = 8 * workers
	}
	if wait <= 0 {
		wait = DefaultCheckQueueWait
	}
	return &checkPool{workers: make(chan struct{}, workers), queue: make(chan struct{}, queue), wait: wait, inFlight: map[string]int{}}
}

// errBusy is the pool's answer when it is full.
func errBusy(why string) error {
	return &httpapi.Error{Status: http.StatusServiceUnavailable, Code: "busy", RetryAfter: 2,
		Message: "The node is busy checking other bundles (" + why + "); send the same request again after Retry-After seconds"}
}

// enter counts a check of address in flight, refusing one past
// MaxChecksInFlightPerAddress; leave counts it out.
func (p *checkPool) enter(address string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inFlight[address] >= MaxChecksInFlightPerAddress {
		return false
	}
	p.inFlight[address]++
	return true
}

func (p *checkPool) leave(address string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inFlight[address]--; p.inFlight[address] <= 0 {
		delete(p.inFlight, address)
	}
}

// acquire takes a worker, waiting in the queue if there is room there; the
// release it returns gives the worker back.
func (p *checkPool) acquire(ctx context.Context) (release func(), err error) {
	release = func() { <-p.workers }
	select {
	case p.workers <- struct{}{}:
		return release, nil
	default:
	}
	select {
	case p.queue <- struct{}{}:
	default:
		return nil, errBusy("its queue is full")
	}
	defer func() { <-p.queue }()
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	select {
	case p.workers <- struct{}{}:
		return release, nil
	case <-timer.C:
		return nil, errBusy("no worker came free in " + p.wait.String())
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for a check worker: %w", ctx.Err())
	}
}

// addressLimiter is a token bucket per client address (an IPv6 address by
// its /64, which one host is usually given whole).
type addressLimiter struct {
	perMinute int
	mu        sync.Mutex // guards buckets
	buckets   map[string]*rate.Limiter
}

func newAddressLimiter(perMinute int) *addressLimiter {
	return &addressLimiter{perMinute: perMinute, buckets: map[string]*rate.Limiter{}}
}

// allow takes a token from r's address, or says how long until one is due.
func (l *addressLimiter) allow(r *http.Request, now time.Time) (ok bool, retryAfter time.Duration) {
	key := addressKey(httpapi.ClientAddress(r))
	l.mu.Lock()
	defer l.mu.Unlock()
	b, found := l.buckets[key]
	if !found {
		if len(l.buckets) >= maxTrackedAddresses {
			l.evict(now)
		}
		b = rate.NewLimiter(rate.Limit(float64(l.perMinute)/60), l.perMinute)
		l.buckets[key] = b
	}
	res := b.ReserveN(now, 1)
	if delay := res.DelayFrom(now); delay > 0 {
		res.CancelAt(now)
		return false, delay
	}
	return true, 0
}

// evict drops the buckets that are full again, which are no different from
// new ones; if every address is still spending, it drops them all rather
// than grow without bound.
func (l *addressLimiter) evict(now time.Time) {
	for k, b := range l.buckets {
		if b.TokensAt(now) >= float64(b.Burst()) {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= maxTrackedAddresses {
		clear(l.buckets)
	}
}

func addressKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap()
	if ip.Is6() {
		prefix, _ := ip.Prefix(64)
		return prefix.String()
	}
	return ip.String()
}

// admit lets a check or submission start: limiter's allowance for its
// address first, then room for another of its checks in flight, then a
// worker of the pool. The caller runs release when
// the check is done.
func (s *Server) admit(r *http.Request, limiter *addressLimiter) (release func(), err error) {
	if ok, wait := limiter.allow(r, time.Now()); !ok {
		secs := int(wait/time.Second) + 1
		return nil, &httpapi.Error{Status: http.StatusTooManyRequests, Code: "rate_limited", RetryAfter: secs,
			Message: fmt.Sprintf("This address may start %d bundle checks a minute; send it again after Retry-After seconds", limiter.perMinute)}
	}
	if limiter != s.checkLimit {
		// A submission is signed, and the spec lets each operator have
		// one in flight (409 in_progress); many operators may share a host.
		return s.checks.acquire(r.Context())
	}
	address := addressKey(httpapi.ClientAddress(r))
	if !s.checks.enter(address) {
		return nil, &httpapi.Error{Status: http.StatusTooManyRequests, Code: "rate_limited", RetryAfter: 1,
			Message: fmt.Sprintf("This address has %d bundle checks running or queued, at most %d; send this one once one is answered", MaxChecksInFlightPerAddress, MaxChecksInFlightPerAddress)}
	}
	worker, err := s.checks.acquire(r.Context())
	if err != nil {
		s.checks.leave(address)
		return nil, err
	}
	return func() {
		worker()
		s.checks.leave(address)
	}, nil
}
