package ledgerhttp

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/snapshot"
	standings "github.com/agora-node/agora/ledger/standing"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/vocabulary"
)

// statuses is the node's copy of what its log says of claims: a
// status.Deriver fed every leaf in log order, caught up before each read,
// so the statuses the node serves are the ones anyone holding the log
// recomputes (agora status).
type statuses struct {
	mu   sync.Mutex
	d    *status.Deriver
	book *standings.Book // operators' standing, fed the same leaves (standing.go)
}

// derived runs read with the Deriver caught up to every entry bound in
// the store. The Deriver is not safe for concurrent use, so read holds it
// alone; it must not call back into the store's statuses.
func (s *Server) derived(ctx context.Context, read func(d *status.Deriver) error) error {
	s.status.mu.Lock()
	defer s.status.mu.Unlock()
	if s.status.d == nil {
		s.status.d = status.New(func(bundle, path string) ([]byte, error) {
			return s.storedFile(context.Background(), bundle, path)
		})
		s.status.book = standings.New()
	}
	withdrawn, err := s.catchUp(ctx, s.status.d)
	// The snapshots a withdrawal read here makes stale, whoever logged it
	// (snapshots.go), even when the catch-up stopped on an error after it.
	s.snapshotsWithdrawnIn(ctx, withdrawn)
	if err != nil {
		return err
	}
	return read(s.status.d)
}

// withdrawnLeaf is a withdrawal entry the Deriver read: its index, and
// the bundle it takes down.
type withdrawnLeaf struct {
	index  uint64
	bundle string
}

// catchUp adds every bound leaf d has not read, stopping at the first
// index not bound yet (an append still on its way): the next read goes
// on from there. It returns the withdrawals among the leaves it added.
func (s *Server) catchUp(ctx context.Context, d *status.Deriver) ([]withdrawnLeaf, error) {
	var withdrawn []withdrawnLeaf
	err := s.boundFrom(ctx, int64(d.Size()), func(signed store.Signed) error {
		i := uint64(signed.Index)
		if err := d.Add(i, signed.Leaf); err != nil {
			return fmt.Errorf("deriving statuses: %w", err)
		}
		if err := s.status.book.Add(i, signed.Leaf); err != nil {
			return fmt.Errorf("deriving standing: %w", err)
		}
		// The Deriver took the leaf, so it parses.
		if hash, _ := snapshot.WithdrawnBundle(signed.Leaf); hash != "" {
			withdrawn = append(withdrawn, withdrawnLeaf{index: i, bundle: hash})
		}
		return nil
	})
	return withdrawn, err
}

// catchUpBatch is how many bound entries boundFrom reads at a time.
const catchUpBatch = 256

// boundFrom calls add with each entry bound at index from and after, in
// the order of the log, stopping at the first index not bound yet (an
// append still on its way), where the next catch-up goes on. It reads
// catchUpBatch entries a query, where reading them one by one made a
// library's load cost a query per contribution in every catch-up.
func (s *Server) boundFrom(ctx context.Context, from int64, add func(store.Signed) error) error {
	for {
		batch, err := s.store.SignedFrom(ctx, from, catchUpBatch)
		if err != nil {
			return err
		}
		for _, e := range batch {
			if e.Index != from {
				return nil
			}
			if err := add(e); err != nil {
				return err
			}
			from++
		}
		if len(batch) < catchUpBatch {
			return nil
		}
	}
}

// storedFile reads the file at path of a bundle the store holds.
func (s *Server) storedFile(ctx context.Context, hash, path string) ([]byte, error) {
	b, err := s.store.Bundle(ctx, hash)
	if err != nil {
		return nil, err
	}
	data, err := s.bundleFile(b, path)
	if err == nil && data == nil {
		err = fmt.Errorf("bundle %s has no %s: %w", hash, path, store.ErrNotFound)
	}
	return data, err
}

// claimStatuses derives the statuses of each claim found, by ID.
func (s *Server) claimStatuses(ctx context.Context, found []ledger.FoundClaim) (map[string]status.Claim, error) {
	out := make(map[string]status.Claim, len(found))
	now := s.now()
	err := s.derived(ctx, func(d *status.Deriver) error {
		for _, c := range found {
			if got, ok := d.Claim(c.ID, now); ok {
				out[c.ID] = got
			}
		}
		return nil
	})
	return out, err
}

// heldStatuses are the statuses of each claim found, by ID, from the
// status index: what claimStatuses derives of them, without their
// requirements, for the answers that list claims.
func (s *Server) heldStatuses(ctx context.Context, found []ledger.FoundClaim) (map[string][]string, error) {
	out := make(map[string][]string, len(found))
	now := s.now()
	err := s.derived(ctx, func(d *status.Deriver) error {
		for _, c := range found {
			if held := d.Statuses(c.ID, now); held != nil {
				out[c.ID] = held
			}
		}
		return nil
	})
	return out, err
}

// statusList is a claim's statuses as an answer gives them: what the log
// derives (held, by claim ID), or Published for a claim whose opening the
// Deriver has not read yet (its entry bound after the catch-up began).
func statusList(c ledger.FoundClaim, held map[string][]string) []any {
	got, ok := held[c.ID]
	if !ok {
		if c.Withdrawn {
			return []any{"unavailable"}
		}
		return []any{"published"}
	}
	return stringsAny(got)
}

// attestationViews are a claim's checks as GET /api/v1/claims/{id} lists
// them.
func attestationViews(c status.Claim) []any {
	out := make([]any, 0, len(c.Attestations))
	for _, a := range c.Attestations {
		var because any
		if !a.Counted {
			because = a.NotCountedBecause
		}
		var org any
		if a.Organization != "" {
			org = a.Organization
		}
		out = append(out, map[string]any{
			"index": a.Index, "job": a.Job, "bundle": a.Bundle, "verifier": a.Verifier, "organization": org,
			"model_family": a.ModelFamily, "verdict": a.Verdict, "counted": a.Counted, "not_counted_because": because,
		})
	}
	return out
}

// sparseStatus is how many claims may hold the statuses a search asks
// for before it stops listing them to the store: fewer, and the store
// finds just those (ClaimQuery.Only); more, and they are most of what it
// finds anyway, so it reads its pages and keeps the claims that hold one.
const sparseStatus = 2000

// searchWithStatus is SearchClaims keeping only claims that hold one of
// wanted (all when wanted is empty), by the status index.
func (s *Server) searchWithStatus(ctx context.Context, cq ledger.ClaimQuery, wanted []string) ([]ledger.FoundClaim, error) {
	if len(wanted) == 0 {
		return s.store.SearchClaims(ctx, cq)
	}
	now := s.now()
	var only []string
	dense := false
	if err := s.derived(ctx, func(d *status.Deriver) error {
		if d.CountWithStatus(now, wanted...) > sparseStatus {
			dense = true
			return nil
		}
		only = d.WithStatus(now, wanted...)
		return nil
	}); err != nil {
		return nil, err
	}
	if !dense {
		cq.Only = append([]string{}, only...)
		return s.store.SearchClaims(ctx, cq)
	}
	// Most claims hold a dense status, so the first page is asked at the
	// page's size, and only a shortfall reads further, in larger pages.
	want := cq.Limit
	page := cq
	var out []ledger.FoundClaim
	for first := true; len(out) < want; first = false {
		if !first {
			page.Limit = max(want*4, 200)
		}
		found, err := s.store.SearchClaims(ctx, page)
		if err != nil {
			return nil, err
		}
		if err := s.derived(ctx, func(d *status.Deriver) error {
			for _, c := range found {
				if slices.ContainsFunc(d.Statuses(c.ID, now), func(st string) bool { return slices.Contains(wanted, st) }) {
					out = append(out, c)
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
		if len(found) < page.Limit {
			break
		}
		last := found[len(found)-1].Opened
		if page.Follow {
			page.Since = last
		} else {
			page.Before = last
		}
	}
	// A page ends with the bundle its last claim is in, as the store's do.
	if len(out) > want {
		end := want
		for end < len(out) && out[end].Opened == out[want-1].Opened {
			end++
		}
		out = out[:end]
	}
	return out, nil
}

// getReplications answers GET /api/v1/replications: the measured claims
// still up that no replication has confirmed, those most claims build on
// first, at most limit (default 20, at most 50). Replication bounties are
// not priced by this node yet, so bounty is null.
func (s *Server) getReplications(r *http.Request) (any, int, error) {
	limit := vocabulary.DefaultClaimsPage
	if v, ok, err := httpapi.QueryUint(r, "limit"); err != nil {
		return nil, 0, err
	} else if ok {
		if v < 1 || v > vocabulary.MaxClaimsPage {
			return nil, 0, httpapi.BadRequest("bad_request", "limit is 1 to %d", vocabulary.MaxClaimsPage)
		}
		limit = int(v)
	}
	for name := range r.URL.Query() {
		if name != "limit" {
			return nil, 0, httpapi.BadRequest("bad_request", "Unknown parameter %q", name)
		}
	}
	var waiting []status.Waiting
	if err := s.derived(r.Context(), func(d *status.Deriver) error {
		waiting = d.WaitingReplication(s.now())
		return nil
	}); err != nil {
		return nil, 0, err
	}
	out := []any{}
	for _, w := range waiting[:min(limit, len(waiting))] {
		item := map[string]any{"claim_id": w.Claim, "bundle": w.Bundle, "depended_on_by": w.Dependents, "bounty": nil}
		if found, err := s.store.Claim(r.Context(), w.Claim); err == nil {
			item["statement"] = found[len(found)-1].Statement
		}
		out = append(out, item)
	}
	return map[string]any{"replications": out, "waiting": len(waiting)}, http.StatusOK, nil
}
