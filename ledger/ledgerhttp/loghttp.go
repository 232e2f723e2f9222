package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/tlog"
)

// tilesPrefix is where the log is served as C2SP tlog-tiles.
const tilesPrefix = "/tlog/"

func (s *Server) routeLog() {
	s.mux.Handle("GET /api/v1/log", s.serve(s.getLog))
	s.mux.Handle("GET /api/v1/log/entries", s.serve(s.getEntries))
	s.mux.Handle("GET /api/v1/log/entries/{index}", s.serve(s.getReceipt))
	s.mux.Handle("GET /api/v1/log/entries/{index}/signed", s.serve(s.getSigned))
	s.mux.Handle("GET /api/v1/log/proofs/inclusion", s.serve(s.getInclusionProof))
	s.mux.Handle("GET /api/v1/log/proofs/consistency", s.serve(s.getConsistencyProof))
	s.mux.Handle("GET /api/v1/log/checkpoint", s.serve(s.getCheckpoint))
	s.mux.Handle("GET "+tilesPrefix, http.StripPrefix(tilesPrefix[:len(tilesPrefix)-1], s.log.TileHandler()))
}

// head returns the newest signed tree head; what the log serves is what it
// has signed, so readers never see an entry no head covers.
func (s *Server) head() (tlog.TreeHead, uint64) {
	h, err := s.log.TreeHead()
	if err != nil {
		return tlog.TreeHead{}, 0
	}
	return h, h.Size
}

func (s *Server) getLog(r *http.Request) (any, int, error) {
	var head any
	if h, err := s.log.TreeHead(); err == nil {
		head = h.Object()
	}
	return map[string]any{
		"log":             s.logID,
		"public_key":      s.logKey.Public().String(),
		"tree_head":       head,
		"checkpoint_keys": s.ckeys,
	}, http.StatusOK, nil
}

// getEntries answers ?start=&end= (end exclusive), or ?latest=N, at most 100
// entries, holding the request up to ?wait= seconds (at most 25) while
// nothing at start or after it is logged yet.
func (s *Server) getEntries(r *http.Request) (any, int, error) {
	start, hasStart, err := httpapi.QueryUint(r, "start")
	if err != nil {
		return nil, 0, err
	}
	end, hasEnd, err := httpapi.QueryUint(r, "end")
	if err != nil {
		return nil, 0, err
	}
	latest, hasLatest, err := httpapi.QueryUint(r, "latest")
	if err != nil {
		return nil, 0, err
	}
	wait, _, err := httpapi.QueryUint(r, "wait")
	if err != nil {
		return nil, 0, err
	}
	if hasLatest && (hasStart || hasEnd) {
		return nil, 0, httpapi.BadRequest("bad_request", "Ask with latest, or with start and end, not both")
	}
	if !hasLatest && !hasStart {
		return nil, 0, httpapi.BadRequest("bad_request", "Ask with start (and end), or latest")
	}
	_, size := s.head()
	if hasStart && start >= size && wait > 0 {
		hold, release := s.waits.hold(r, min(time.Duration(wait)*time.Second, maxWait))
		ctx, cancel := context.WithTimeout(r.Context(), hold)
		_, err := s.log.WaitForSize(ctx, start+1)
		cancel()
		release()
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, 0, err
		}
		_, size = s.head()
	}
	if hasLatest {
		latest = min(latest, maxEntriesPage)
		start, end = size-min(latest, size), size
	} else {
		if !hasEnd {
			end = start + maxEntriesPage
		}
		if end < start {
			return nil, 0, httpapi.BadRequest("bad_request", "end (%d) is before start (%d)", end, start)
		}
		end = min(end, start+maxEntriesPage, size)
	}
	entries := []any{}
	if start < end {
		leaves, err := s.log.Leaves(r.Context(), start, end)
		if err != nil {
			return nil, 0, err
		}
		for i, leaf := range leaves {
			e, err := leafEntry(start+uint64(i), leaf)
			if err != nil {
				return nil, 0, err
			}
			entries = append(entries, e)
		}
	}
	answer := map[string]any{"entries": entries}
	if r.URL.Query().Get("names") == "yes" {
		names := map[string]any{}
		for _, e := range entries {
			leaf, _ := e.(map[string]any)["leaf"].(map[string]any)
			if id, ok := leaf["operator"].(string); ok && names[id] == nil {
				if op, err := s.store.Operator(r.Context(), id); err == nil {
					names[id] = op.Name
				}
			}
		}
		answer["names"] = names
	}
	return answer, http.StatusOK, nil
}

// getSigned answers an entry as its signer signed it, signatures and all,
// which the leaf holds only as digests.
func (s *Server) getSigned(r *http.Request) (any, int, error) {
	index, err := pathIndex(r)
	if err != nil {
		return nil, 0, err
	}
	if _, size := s.head(); index >= size {
		return nil, 0, httpapi.NotFound("No entry %d: the log holds %d", index, size)
	}
	kept, err := s.store.Signed(r.Context(), int64(index))
	if err != nil {
		return nil, 0, err
	}
	entry, err := canonical.Parse(kept.Entry)
	if err != nil {
		return nil, 0, fmt.Errorf("entry %d as kept: %w", index, err)
	}
	return map[string]any{"index": index, "entry": entry}, http.StatusOK, nil
}

// leafEntry is an entry as GET /api/v1/log/entries lists it.
func leafEntry(index uint64, leaf []byte) (map[string]any, error) {
	v, err := canonical.Parse(leaf)
	if err != nil {
		return nil, fmt.Errorf("leaf %d as stored is not JSON: %w", index, err)
	}
	return map[string]any{"index": index, "leaf": v, "leaf_hash": tlog.LeafHash(leaf).String()}, nil
}

func pathIndex(r *http.Request) (uint64, error) {
	s := r.PathValue("index")
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v > 1<<53-1 {
		return 0, httpapi.BadRequest("bad_request", "The index must be a non-negative integer, not %q", s)
	}
	return v, nil
}

// getReceipt answers one entry with its inclusion proof against the newest
// tree head.
func (s *Server) getReceipt(r *http.Request) (any, int, error) {
	index, err := pathIndex(r)
	if err != nil {
		return nil, 0, err
	}
	head, size := s.head()
	if index >= size {
		return nil, 0, httpapi.NotFound("No entry %d: the log holds %d", index, size)
	}
	leaves, err := s.log.Leaves(r.Context(), index, index+1)
	if err != nil {
		return nil, 0, err
	}
	e, err := leafEntry(index, leaves[0])
	if err != nil {
		return nil, 0, err
	}
	proof, err := s.log.InclusionProof(r.Context(), index, size)
	if err != nil {
		return nil, 0, err
	}
	e["log"] = s.logID
	e["tree_head"] = head.Object()
	e["inclusion_proof"] = tlog.HashStrings(proof)
	e["copies"] = []any{}
	return e, http.StatusOK, nil
}

func (s *Server) getInclusionProof(r *http.Request) (any, int, error) {
	index, ok1, err := httpapi.QueryUint(r, "index")
	if err != nil {
		return nil, 0, err
	}
	size, ok2, err := httpapi.QueryUint(r, "size")
	if err != nil {
		return nil, 0, err
	}
	if !ok1 || !ok2 {
		return nil, 0, httpapi.BadRequest("bad_request", "Give index and size")
	}
	if _, have := s.head(); index >= size || size > have {
		return nil, 0, httpapi.BadRequest("bad_request", "No proof of entry %d in a tree of %d: the index must be below the size, and the size at most %d", index, size, have)
	}
	proof, err := s.log.InclusionProof(r.Context(), index, size)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"index": index, "size": size, "proof": tlog.HashStrings(proof)}, http.StatusOK, nil
}

func (s *Server) getConsistencyProof(r *http.Request) (any, int, error) {
	first, ok1, err := httpapi.QueryUint(r, "first")
	if err != nil {
		return nil, 0, err
	}
	second, ok2, err := httpapi.QueryUint(r, "second")
	if err != nil {
		return nil, 0, err
	}
	if !ok1 || !ok2 {
		return nil, 0, httpapi.BadRequest("bad_request", "Give first and second")
	}
	if _, have := s.head(); first > second || second > have {
		return nil, 0, httpapi.BadRequest("bad_request", "No proof from %d to %d: first must be at most second, and second at most %d", first, second, have)
	}
	proof, err := s.log.ConsistencyProof(r.Context(), first, second)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"first": first, "second": second, "proof": tlog.HashStrings(proof)}, http.StatusOK, nil
}

func (s *Server) getCheckpoint(r *http.Request) (any, int, error) {
	size, _, err := httpapi.QueryUint(r, "size")
	if err != nil {
		return nil, 0, err
	}
	var text []byte
	if size == 0 {
		text, err = s.log.LatestCheckpoint()
	} else {
		text, err = s.log.Checkpoint(size)
	}
	if err != nil {
		return nil, 0, err
	}
	return httpapi.Text{ContentType: "text/plain; charset=utf-8", Body: text}, http.StatusOK, nil
}

// maxEntriesPage is the most entries one GET /api/v1/log/entries returns.
const maxEntriesPage = 100

// maxWait bounds how long GET /api/v1/log/entries holds a request.
const maxWait = 25 * time.Second
