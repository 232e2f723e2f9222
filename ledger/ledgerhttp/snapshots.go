package ledgerhttp

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/snapshot"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/store"
)

// Bulk snapshots ("Bulk snapshots"): once a day, just after midnight UTC,
// the node writes the snapshot of the day that ended at its latest signed
// tree head (ledger/snapshot), and keeps it under Config.SnapshotDir; the
// admin can take one for a date on demand. Each is taken once and then
// served as kept, until a bundle in it is withdrawn: then every snapshot
// that holds it answers 410 snapshot_reissuing until it is reissued
// without that bundle's claims, moments later.

// reissues are the snapshots a withdrawal made stale, and the admin's
// requests to take one: the loop in snapshotDaily does both, one at a
// time.
type reissues struct {
	mu    sync.Mutex
	stale map[string]bool // dates to reissue; guarded by mu
	due   chan struct{}   // a withdrawal was logged: reissue what is stale
	take  chan takeRequest
}

// takeRequest asks the loop to take a date's snapshot; done (buffered)
// gets the outcome, whether or not the asker still waits.
type takeRequest struct {
	date string
	done chan takeResult
}

type takeResult struct {
	card *snapshot.Card
	made bool
	err  error
}

// snapshotWait is how long the admin's request waits for a snapshot to be
// taken before it answers 202 and lets it finish.
const snapshotWait = 20 * time.Second

func (r *reissues) isStale(date string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stale[date]
}

func reissuing(date string) error {
	return &httpapi.Error{Status: http.StatusGone, Code: "snapshot_reissuing",
		Message: fmt.Sprintf("The snapshot of %s is being reissued without a bundle withdrawn since; ask again in a minute", date)}
}

func (s *Server) routeSnapshots() {
	s.mux.Handle("GET /api/v1/snapshots", s.serve(s.listSnapshots))
	s.mux.HandleFunc("GET /api/v1/snapshots/{date}", s.getSnapshot)
	s.mux.Handle("GET /api/v1/snapshots/{date}/card", s.serve(s.getSnapshotCard))
	s.mux.HandleFunc("GET /api/v1/snapshots/{date}/file", s.getSnapshotFile)
	s.mux.Handle("POST /api/v1/admin/snapshots/{date}", s.serve(s.admin(s.makeSnapshot)))
}

// snapshotDate reads the {date} of a snapshot route.
func snapshotDate(r *http.Request) (string, error) {
	date := r.PathValue("date")
	if !snapshot.IsDate(date) {
		return "", httpapi.BadRequest("bad_request", "%q is not a date: name a snapshot by its day, such as 2026-10-04 (GET /api/v1/snapshots lists them)", date)
	}
	return date, nil
}

func noSnapshot(date string) error {
	return httpapi.NotFound("No snapshot of %s: GET /api/v1/snapshots lists those this node made", date)
}

// notMade is the 404 of a snapshot never made, else err as it is.
func notMade(date string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return noSnapshot(date)
	}
	return err
}

// listSnapshots answers GET /api/v1/snapshots, newest first.
func (s *Server) listSnapshots(r *http.Request) (any, int, error) {
	for name := range r.URL.Query() {
		return nil, 0, httpapi.BadRequest("bad_request", "Unknown parameter %q: GET /api/v1/snapshots takes none", name)
	}
	list := []any{}
	if s.snapshots != nil {
		cards, err := s.snapshots.List()
		if err != nil {
			return nil, 0, err
		}
		for _, c := range cards {
			list = append(list, c.Entry())
		}
	}
	return map[string]any{"snapshots": list}, http.StatusOK, nil
}

// DefaultSnapshotLinkAbove is the size past which a snapshot is fetched
// through a short-lived link (the spec: "a large one redirects to a
// short-lived link"), and snapshotLinkLifetime how long such a link
// works: long enough to fetch a large file on a slow line, short enough
// that a link passed on soon stops working.
const (
	DefaultSnapshotLinkAbove = 16 << 20
	snapshotLinkLifetime     = time.Hour
)

// getSnapshot answers GET /api/v1/snapshots/{date}: the file as kept,
// gzipped, with ranges; a large one by a redirect to a short-lived link.
func (s *Server) getSnapshot(w http.ResponseWriter, r *http.Request) {
	f, info, err := s.openSnapshot(r)
	if err != nil {
		httpapi.WriteError(s.logger, w, r, err)
		return
	}
	defer f.Close()
	above := s.cfg.SnapshotLinkAbove
	if above <= 0 {
		above = DefaultSnapshotLinkAbove
	}
	if info.Size() > above {
		expires := s.now().Add(snapshotLinkLifetime).Unix()
		q := url.Values{}
		q.Set("expires", strconv.FormatInt(expires, 10))
		q.Set("sig", s.snapshotMAC(r.PathValue("date"), info, expires))
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, "/api/v1/snapshots/"+r.PathValue("date")+"/file?"+q.Encode(), http.StatusFound)
		return
	}
	s.sendSnapshot(w, r, f, info)
}

// getSnapshotFile answers a snapshot's short-lived link: the file it was
// made for, while the link holds.
func (s *Server) getSnapshotFile(w http.ResponseWriter, r *http.Request) {
	f, info, err := s.openSnapshot(r)
	if err != nil {
		httpapi.WriteError(s.logger, w, r, err)
		return
	}
	defer f.Close()
	date, q := r.PathValue("date"), r.URL.Query()
	expires, perr := strconv.ParseInt(q.Get("expires"), 10, 64)
	switch {
	case perr != nil || !hmac.Equal([]byte(q.Get("sig")), []byte(s.snapshotMAC(date, info, expires))):
		// A link signs the file it names (its size and when it was
		// written), so one made before a reissue fails here too.
		err = &httpapi.Error{Status: http.StatusForbidden, Code: "bad_link",
			Message: "This is not a link the node gave for the snapshot as it stands (it may have been reissued since): GET /api/v1/snapshots/" + date + " for a fresh one"}
	case s.now().Unix() > expires:
		err = &httpapi.Error{Status: http.StatusForbidden, Code: "link_expired", Message: "The link expired: GET /api/v1/snapshots/" + date + " for a fresh one"}
	}
	if err != nil {
		httpapi.WriteError(s.logger, w, r, err)
		return
	}
	s.sendSnapshot(w, r, f, info)
}

// snapshotMAC signs a link to the snapshot of date as the file info
// describes it, until expires.
func (s *Server) snapshotMAC(date string, info os.FileInfo, expires int64) string {
	m := hmac.New(sha256.New, s.uploadKey)
	fmt.Fprintf(m, "snapshot\n%s\n%d\n%d\n%d", date, info.Size(), info.ModTime().UnixNano(), expires)
	return hex.EncodeToString(m.Sum(nil))
}

// openSnapshot opens the snapshot a route's {date} names, with its file
// info, or the error to answer.
func (s *Server) openSnapshot(r *http.Request) (*os.File, os.FileInfo, error) {
	date, err := snapshotDate(r)
	if err == nil && s.snapshots == nil {
		err = noSnapshot(date)
	}
	if err == nil {
		err = s.caughtUp(r.Context())
	}
	if err == nil && s.reissues.isStale(date) {
		err = reissuing(date)
	}
	if err != nil {
		return nil, nil, err
	}
	f, err := s.snapshots.Open(date)
	if err != nil {
		return nil, nil, notMade(date, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("snapshot %s: %w", date, err)
	}
	return f, info, nil
}

// sendSnapshot streams a snapshot file, with ranges.
func (s *Server) sendSnapshot(w http.ResponseWriter, r *http.Request, f *os.File, info os.FileInfo) {
	date := r.PathValue("date")
	s.allowTransfer(w, r, info.Size())
	// The bytes are the file itself, gzipped JSON Lines, which its digest
	// names: no Content-Encoding, so no client unzips it on the way.
	w.Header().Set("Content-Type", "application/gzip")
	w.Header().Set("Content-Disposition", `attachment; filename="`+date+`.jsonl.gz"`)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", time.Time{}, f)
}

// getSnapshotCard answers GET /api/v1/snapshots/{date}/card.
func (s *Server) getSnapshotCard(r *http.Request) (any, int, error) {
	date, err := snapshotDate(r)
	if err != nil {
		return nil, 0, err
	}
	if s.snapshots == nil {
		return nil, 0, noSnapshot(date)
	}
	if err := s.caughtUp(r.Context()); err != nil {
		return nil, 0, err
	}
	if s.reissues.isStale(date) {
		return nil, 0, reissuing(date)
	}
	card, err := s.snapshots.Card(date)
	if err != nil {
		return nil, 0, notMade(date, err)
	}
	return httpapi.Text{ContentType: "application/json", Body: card}, http.StatusOK, nil
}

// makeSnapshot answers POST /api/v1/admin/snapshots/{date}: the snapshot
// of date, taken now at the latest signed tree head (201) unless one was
// taken before (200, the one kept); 202 {"date", "state": "taking"} when
// it takes longer than snapshotWait, the card's route saying when it is
// there.
func (s *Server) makeSnapshot(r *http.Request) (any, int, error) {
	date, err := snapshotDate(r)
	if err != nil {
		return nil, 0, err
	}
	if today := s.now().UTC().Format(time.DateOnly); date > today {
		return nil, 0, httpapi.BadRequest("bad_request", "%s has not begun (today is %s): take a snapshot of today or an earlier day", date, today)
	}
	if s.snapshots == nil {
		return nil, 0, &httpapi.Error{Status: http.StatusNotFound, Code: "not_found", Message: "This node keeps no snapshots"}
	}
	if data, err := s.snapshots.Card(date); err == nil {
		card, err := snapshot.ParseCard(data)
		if err != nil {
			return nil, 0, err
		}
		return card.Entry(), http.StatusOK, nil
	}
	// A large log takes minutes: the loop takes it, under the node's
	// lifetime rather than this request's, and the answer waits a while.
	req := takeRequest{date: date, done: make(chan takeResult, 1)}
	wait := time.NewTimer(snapshotWait)
	defer wait.Stop()
	taking := map[string]any{"date": date, "state": "taking", "card": "/api/v1/snapshots/" + date + "/card"}
	select {
	case s.reissues.take <- req:
	case <-wait.C:
		return nil, 0, &httpapi.Error{Status: http.StatusServiceUnavailable, Code: "busy", RetryAfter: 60,
			Message: "The node is taking or reissuing another snapshot; ask again after Retry-After seconds"}
	case <-r.Context().Done():
		return nil, 0, r.Context().Err()
	}
	select {
	case res := <-req.done:
		if res.err != nil {
			return nil, 0, res.err
		}
		if res.made {
			return res.card.Entry(), http.StatusCreated, nil
		}
		return res.card.Entry(), http.StatusOK, nil
	case <-wait.C:
		return taking, http.StatusAccepted, nil
	case <-r.Context().Done():
		return nil, 0, r.Context().Err()
	}
}

// takeSnapshot takes date's snapshot at the latest signed tree head.
func (s *Server) takeSnapshot(ctx context.Context, date string) (*snapshot.Card, bool, error) {
	head, err := s.log.TreeHead()
	if err != nil {
		return nil, false, fmt.Errorf("snapshot %s: %w", date, err)
	}
	return s.snapshots.Make(ctx, date, s.snapshotSource(ctx), head)
}

// snapshotSource reads the node's log and the files of the bundles it
// still serves.
func (s *Server) snapshotSource(ctx context.Context) snapshot.Source {
	return snapshot.Source{Leaves: s.log.Leaves, Files: func(hash, path string) ([]byte, error) {
		return s.servedBundleFile(ctx, hash, path)
	}}
}

// servedBundleFile reads a file of a bundle the node still serves: a
// withdrawn bundle's files are not found, as GET /api/v1/bundles/{hash}
// lists none, so the snapshot is the one its public routes give.
func (s *Server) servedBundleFile(ctx context.Context, hash, path string) ([]byte, error) {
	b, err := s.store.Bundle(ctx, hash)
	if err != nil {
		return nil, err
	}
	if b.State == ledger.BundleWithdrawn {
		return nil, fmt.Errorf("bundle %s was withdrawn: %w", hash, store.ErrNotFound)
	}
	return s.storedFile(ctx, hash, path)
}

// snapshotsWithdrawn marks stale every snapshot whose tree head holds
// b's opening, now that b's withdrawal is logged, and wakes the loop
// that reissues them.
func (s *Server) snapshotsWithdrawn(b ledger.Bundle) {
	if s.snapshots == nil || b.State == ledger.BundleSealed || b.RevealedIndex < 0 {
		return
	}
	cards, err := s.snapshots.List()
	if err != nil {
		s.logger.Error("listing the snapshots to reissue", "bundle", b.Hash, "err", err)
	}
	var stale []string
	for _, c := range cards {
		if c.Head.Size > uint64(b.RevealedIndex) {
			stale = append(stale, c.Date)
		}
	}
	s.markStale(stale)
}

// snapshotsWithdrawnIn marks stale every snapshot that holds the opening
// of a bundle one of withdrawn takes down and was taken, or last
// reissued, at a tree head without that withdrawal: the statuses'
// catch-up reads every withdrawal the store binds, so a process sharing
// the store reissues its own snapshots after another process logged one,
// and a process that stopped before it reissued them does once started.
// The process that logs a withdrawal marks its snapshots at once
// (snapshotsWithdrawn); reading the withdrawal here after the reissue
// covered it marks nothing.
func (s *Server) snapshotsWithdrawnIn(ctx context.Context, withdrawn []withdrawnLeaf) {
	if s.snapshots == nil || len(withdrawn) == 0 {
		return
	}
	cards, err := s.snapshots.List()
	if err != nil {
		s.logger.Error("listing the snapshots to reissue", "err", err)
		return
	}
	var stale []string
	for _, w := range withdrawn {
		b, err := s.store.Bundle(ctx, w.bundle)
		if err != nil {
			if !errors.Is(err, store.ErrNotFound) {
				s.logger.Error("reading a withdrawn bundle for the snapshots to reissue", "bundle", w.bundle, "err", err)
			}
			continue
		}
		for _, c := range cards {
			if b.RevealedIndex >= 0 && c.Head.Size > uint64(b.RevealedIndex) && w.index >= c.LogSize() {
				stale = append(stale, c.Date)
			}
		}
	}
	s.markStale(stale)
}

// markStale marks dates' snapshots stale and wakes the loop that
// reissues them.
func (s *Server) markStale(dates []string) {
	if len(dates) == 0 {
		return
	}
	s.reissues.mu.Lock()
	for _, date := range dates {
		s.reissues.stale[date] = true
	}
	s.reissues.mu.Unlock()
	select {
	case s.reissues.due <- struct{}{}:
	default:
	}
}

// caughtUp brings the statuses up to every bound entry, which marks the
// snapshots a withdrawal logged since made stale, before a snapshot is
// served.
func (s *Server) caughtUp(ctx context.Context) error {
	return s.derived(ctx, func(*status.Deriver) error { return nil })
}

// reissueStale reissues the snapshots of dates at the latest tree head,
// which holds the withdrawals that made them stale, reading the log for
// withdrawals once for them all; one that fails stays stale, for the
// next round.
func (s *Server) reissueStale(ctx context.Context, dates []string) {
	head, err := s.log.TreeHead()
	if err != nil {
		s.logger.Error("reissuing snapshots", "err", err)
		return
	}
	from := head.Size
	for _, date := range dates {
		if data, err := s.snapshots.Card(date); err == nil {
			if c, err := snapshot.ParseCard(data); err == nil {
				from = min(from, c.Head.Size)
			}
		}
	}
	src := s.snapshotSource(ctx)
	withdrawals, err := snapshot.Withdrawals(ctx, src, from, head.Size)
	if err != nil {
		if ctx.Err() == nil {
			s.logger.Error("reading the log for withdrawals to reissue snapshots", "err", err)
		}
		return
	}
	for _, date := range dates {
		card, reissued, err := s.snapshots.Reissue(ctx, date, src, head, withdrawals)
		if err != nil {
			if ctx.Err() == nil {
				s.logger.Error("reissuing a snapshot", "date", date, "err", err)
			}
			continue
		}
		if reissued {
			s.logger.Info("reissued a snapshot", "date", date, "claims", card.Claims, "log_size", head.Size)
		}
		s.reissues.mu.Lock()
		delete(s.reissues.stale, date)
		s.reissues.mu.Unlock()
	}
}

func (r *reissues) staleDates() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(maps.Keys(r.stale))
}

// snapshotDaily takes, just after each midnight UTC on the node's clock,
// the snapshot of the day that ended, and reissues the snapshots
// withdrawals made stale, until ctx is done. At the start it reissues
// every snapshot, for withdrawals logged while a reissue was cut short.
func (s *Server) snapshotDaily(ctx context.Context) {
	// A snapshot a crash left stale is served as it is meanwhile: marking
	// them all would refuse every snapshot while the log is read.
	if cards, err := s.snapshots.List(); err == nil && len(cards) > 0 {
		var dates []string
		for _, c := range cards {
			dates = append(dates, c.Date)
		}
		s.reissueStale(ctx, dates)
	}
	retry := time.NewTicker(time.Minute)
	defer retry.Stop()
	for {
		now := s.now().UTC()
		next := now.Truncate(24 * time.Hour).Add(24*time.Hour + time.Minute)
		select {
		case <-ctx.Done():
			return
		case <-s.reissues.due:
			s.reissueStale(ctx, s.reissues.staleDates())
			continue
		case req := <-s.reissues.take:
			card, made, err := s.takeSnapshot(ctx, req.date)
			req.done <- takeResult{card, made, err}
			continue
		case <-retry.C:
			if dates := s.reissues.staleDates(); len(dates) > 0 {
				s.reissueStale(ctx, dates)
			}
			continue
		case <-time.After(next.Sub(now)):
		}
		day := s.now().UTC().Add(-24 * time.Hour).Format(time.DateOnly)
		start := time.Now()
		card, made, err := s.takeSnapshot(ctx, day)
		switch {
		case err != nil && ctx.Err() == nil:
			s.logger.Error("taking the daily snapshot", "date", day, "err", err)
		case made:
			s.logger.Info("took the daily snapshot", "date", day, "claims", card.Claims, "bytes", card.Bytes,
				"log_size", card.Head.Size, "took", time.Since(start))
		}
	}
}
