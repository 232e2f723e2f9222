package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/vocabulary"
)

// Bundles: check, seal, open, void.
//
// A submission is sealed in this order, each step durable before the next:
// its files go into the blob store; the log's sealed entry (a commitment to
// the author's bundle entry, with a fresh salt) is put beside the log; the
// bundle is recorded naming it; the sealed entry is appended; the answer
// goes out. A crash before the append leaves an unbound sealed entry, which
// recovery drops with its bundle, so no bundle is half-stored; files whose
// bundle was dropped are left for the upload sweep. Opening appends the
// author's bundle entry with its claims, fields and the salt; the policy
// loop (Config.OpenAfter) calls OpenBundle, as the verification round will.

// The settings of Config.FreeBundles.
const (
	// FreeSeed makes a new ledger's first bundles free for operators the
	// node invited, as the spec's seeding rule says; other bundles need
	// credit.
	FreeSeed = "seed"
	// FreeAll makes every bundle free, until the verification economy
	// exists on this node.
	FreeAll = "all"
	// FreeNone makes no bundle free.
	FreeNone = "none"
)

func (s *Server) routeBundles() {
	s.mux.Handle("POST /api/v1/bundles/check", s.serve(s.checkBundleRequest))
	s.mux.Handle("POST /api/v1/bundles", s.serve(s.submitBundle))
	s.mux.Handle("GET /api/v1/bundles/{hash}", s.serve(s.getBundle))
	s.mux.Handle("GET /api/v1/sealed/{index}", s.serve(s.getSealed))
	s.mux.Handle("POST /api/v1/sealed/{index}/void", s.serve(s.voidSealed))
}

func (s *Server) checkBundleRequest(r *http.Request) (any, int, error) {
	release, err := s.admit(r, s.checkLimit)
	if err != nil {
		return nil, 0, err
	}
	defer release()
	req, err := s.readBundleRequest(r)
	if err != nil {
		return nil, 0, err
	}
	// Only a check its uploader signed may name uploads nobody else can
	// read yet (resolveUploads).
	uploader := ""
	if len(req.uploaded) > 0 {
		uploader, _ = s.verifySubmitter(r.Context(), req)
	}
	if err := s.resolveUploads(r.Context(), req, uploader); err != nil {
		return nil, 0, err
	}
	c, err := s.checkBundle(r.Context(), req)
	if err != nil {
		return nil, 0, err
	}
	return c.answer(), http.StatusOK, nil
}

// submitBundle answers POST /api/v1/bundles: it seals the bundle.
func (s *Server) submitBundle(r *http.Request) (any, int, error) {
	admitted, err := s.admit(r, s.submitLimit)
	if err != nil {
		return nil, 0, err
	}
	// The worker is for the check; sealing waits on the log, not the CPU.
	releaseWorker := sync.OnceFunc(admitted)
	defer releaseWorker()
	req, err := s.readBundleRequest(r)
	if err != nil {
		return nil, 0, err
	}
	ctx := r.Context()
	submitter, err := s.verifySubmitter(ctx, req)
	if err != nil {
		return nil, 0, err
	}
	if err := s.resolveUploads(ctx, req, submitter); err != nil {
		return nil, 0, err
	}
	c, err := s.checkBundle(ctx, req)
	releaseWorker()
	if err != nil {
		return nil, 0, err
	}
	if c.operator == nil {
		if len(c.issues) > 0 {
			return nil, 0, invalidBundle(c)
		}
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "unknown_key",
			Message: "No operator here holds the key manifest.json names: register it first with POST /api/v1/operators"}
	}
	if c.signatureOK {
		if b, err := s.store.Bundle(ctx, c.digests.Bundle); err == nil {
			return bundleStanding(b), http.StatusOK, nil
		} else if !errors.Is(err, store.ErrNotFound) {
			return nil, 0, err
		}
	}
	op := *c.operator
	if _, ok := op.Identity(); !ok {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "no_identity",
			Message: "Publishing takes an identity: prove one with POST /api/v1/operators/" + op.ID + "/identity"}
	}
	if len(c.issues) > 0 {
		return nil, 0, invalidBundle(c)
	}
	if c.conflict != nil {
		return nil, 0, c.conflict
	}
	if !c.canPublish {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "verify_first", Message: fmt.Sprint(c.publishing["message"])}
	}
	release, ok, err := s.StartSubmission(ctx, op.ID)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "in_progress",
			Message: "Another submission of yours is being stored; send this one again once that one is answered"}
	}
	defer release()
	// Checked again now that no other submission of this operator runs.
	if b, err := s.store.Bundle(ctx, c.digests.Bundle); err == nil {
		return bundleStanding(b), http.StatusOK, nil
	}
	used, err := s.store.OperatorBundles(ctx, op.ID, s.now().Add(-vocabulary.Day))
	if err != nil {
		return nil, 0, err
	}
	limits, err := s.limitsOf(ctx, op.ID)
	if err != nil {
		return nil, 0, err
	}
	if used >= limits.BundlesPerDay {
		return nil, 0, &httpapi.Error{Status: http.StatusTooManyRequests, Code: "rate_limited", RetryAfter: 3600,
			Message: fmt.Sprintf("You submitted %d bundles in the last 24 hours, the limit your reputation sets", used)}
	}
	if c.free == "seed" && s.cfg.FreeBundles == FreeSeed {
		// The seeding rule counts the ledger's bundles: operators sealing
		// at once must not take more than its free ones between them.
		s.seedMu.Lock()
		defer s.seedMu.Unlock()
		unlock, err := s.acrossProcesses(ctx, "seed")
		if err != nil {
			return nil, 0, err
		}
		defer unlock()
		all, err := s.store.OperatorBundles(ctx, "", time.Time{})
		if err != nil {
			return nil, 0, err
		}
		if all >= vocabulary.SeedBundles {
			return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "verify_first",
				Message: "The ledger's free seed bundles were taken while this one was checked; it needs credit now"}
		}
	}
	b, err := s.seal(ctx, c)
	if err != nil {
		return nil, 0, err
	}
	if err := s.startRound(ctx, b, c); err != nil {
		s.logger.Error("starting a sealed bundle's round", "bundle", b.Hash, "err", err)
	}
	return map[string]any{"bundle": b.Hash, "sealed": b.SealedIndex, "state": ledger.BundleSealed, "entry": nil}, http.StatusAccepted, nil
}

// StartSubmission marks operator as storing a submission, in this
// process and across those sharing the node's log; ok is false if one is
// being stored already.
func (s *Server) StartSubmission(ctx context.Context, operator string) (release func(), ok bool, err error) {
	s.submitMu.Lock()
	defer s.submitMu.Unlock()
	if s.submitting[operator] {
		return nil, false, nil
	}
	across, ok, err := s.journal.TryLock(ctx, "ledger.submitting/"+operator)
	if err != nil || !ok {
		return nil, false, err
	}
	s.submitting[operator] = true
	return func() {
		across()
		s.submitMu.Lock()
		delete(s.submitting, operator)
		s.submitMu.Unlock()
	}, true, nil
}

// bundleStanding is where a bundle stands, as a repeated submission hears.
func bundleStanding(b ledger.Bundle) map[string]any {
	var entry any
	if b.State == ledger.BundleOpen {
		entry = b.RevealedIndex
	}
	return map[string]any{"bundle": b.Hash, "sealed": logIndex(b.SealedIndex), "state": b.State, "entry": entry}
}

// logIndex is an index as an answer gives it: null while unlogged.
func logIndex(i int64) any {
	if i == store.Unlogged {
		return nil
	}
	return i
}

// seal stores a checked bundle's files and records it sealed on the log.
func (s *Server) seal(ctx context.Context, c *checkedBundle) (ledger.Bundle, error) {
	ctx = context.WithoutCancel(ctx)
	for p, data := range c.req.files {
		d, err := s.blobs.Put(data)
		if err != nil {
			return ledger.Bundle{}, fmt.Errorf("storing %s: %w", p, err)
		}
		if d != c.digests.Files[p] {
			return ledger.Bundle{}, fmt.Errorf("storing %s: the store says %s, the check %s", p, d, c.digests.Files[p])
		}
	}
	entry := map[string]any{"type": "bundle", "bundle": c.digests.Bundle, "sig": c.signature}
	entryJSON, err := canonical.Marshal(entry)
	if err != nil {
		return ledger.Bundle{}, err
	}
	salt, err := protocol.NewSalt()
	if err != nil {
		return ledger.Bundle{}, err
	}
	commitment, err := protocol.SealSigned(entry, salt)
	if err != nil {
		return ledger.Bundle{}, err
	}
	sealed := map[string]any{"type": protocol.SealedType, "commitment": commitment}
	if err := protocol.Sign(sealed, s.logKey); err != nil {
		return ledger.Bundle{}, err
	}
	sealedJSON, err := canonical.Marshal(sealed)
	if err != nil {
		return ledger.Bundle{}, err
	}
	sealedDigest := canonical.Digest(sealedJSON)
	if err := s.store.PutSigned(ctx, sealedDigest, sealedJSON, nil); err != nil {
		return ledger.Bundle{}, err
	}
	nb := ledger.NewBundle{
		Hash: c.digests.Bundle, Operator: c.operator.ID, KeyDigest: c.manifest.OperatorKeyDigest,
		Entry: entryJSON, EntryDigest: canonical.Digest(entryJSON), Sealed: sealedDigest, Salt: salt,
		Fields: c.manifest.Fields, Replaces: c.manifest.Replaces, WrittenBy: c.manifest.WrittenBy, At: s.now(),
	}
	if nb.WrittenBy == "" {
		nb.WrittenBy = "agent"
	}
	for _, p := range c.paths() {
		nb.Files = append(nb.Files, ledger.File{Path: p, Digest: c.digests.Files[p], Size: c.req.sizes[p], Uploaded: c.req.uploaded[p] != ""})
	}
	cites := citedFor(c)
	for i, cl := range c.claims {
		raw, err := canonical.Marshal(claimJSON(c, i))
		if err != nil {
			return ledger.Bundle{}, err
		}
		nb.Claims = append(nb.Claims, ledger.Claim{
			ID: c.claimIDs[i], LocalID: cl.LocalID, Type: cl.Type, Statement: cl.Statement, Assertion: c.assertions[i],
			DependsOn: globalDependencies(c, i), Cites: cites[cl.LocalID], JSON: raw,
		})
	}
	b, err := s.store.CreateBundle(ctx, nb)
	if errors.Is(err, store.ErrDuplicate) {
		s.store.DropUnbound(ctx, sealedDigest)
		return b, nil
	}
	if err != nil {
		s.store.DropUnbound(ctx, sealedDigest)
		return ledger.Bundle{}, err
	}
	index, err := s.journal.Append(ctx, sealedDigest, sealedJSON, sealed, nil)
	if err != nil {
		if appendedNothing(err) {
			s.store.DropUnbound(ctx, sealedDigest)
		}
		return ledger.Bundle{}, err
	}
	b.SealedIndex = int64(index)
	return b, nil
}

// claimJSON is claim i as claims.json holds it.
func claimJSON(c *checkedBundle, i int) any {
	v, err := canonical.Parse(c.req.files["claims.json"])
	if err != nil {
		return nil
	}
	list, _ := v.([]any)
	if i < len(list) {
		return list[i]
	}
	return nil
}

// globalDependencies are the global IDs of the claims claim i depends on,
// local dependencies resolved through the IDs the bundle gave them.
func globalDependencies(c *checkedBundle, i int) []string {
	local := map[string]string{}
	for j, cl := range c.claims {
		local[cl.LocalID] = c.claimIDs[j]
	}
	var out []string
	for _, d := range c.claims[i].DependsOn {
		if id, ok := local[d]; ok {
			out = append(out, id)
		} else {
			out = append(out, d)
		}
	}
	return out
}

// citedFor maps each claim's local ID to the reference IDs its bundle
// cites for it: a reference listing the claim in its "claims", or listing
// no "claims" at all, which supports the work as a whole. A reference with
// "claims": [] is cited only to compare with, for no claim.
func citedFor(c *checkedBundle) map[string][]string {
	out := map[string][]string{}
	v, err := canonical.Parse(c.req.files["references.json"])
	if err != nil {
		return out
	}
	list, _ := v.([]any)
	for _, item := range list {
		ref, _ := item.(map[string]any)
		id, ok := ref["id"].(string)
		if !ok {
			continue
		}
		supports, listed := ref["claims"].([]any)
		for _, cl := range c.claims {
			if !listed || slices.Contains(supports, any(cl.LocalID)) {
				out[cl.LocalID] = append(out[cl.LocalID], id)
			}
		}
	}
	return out
}

// OpenBundle logs a sealed bundle's entry, revealing it: the author's
// bundle entry, its claim IDs in claims.json order, its fields in the
// manifest's order, and the index and salt that open its commitment. It is
// what the policy loop calls now, and what the verification round will.
func (s *Server) OpenBundle(ctx context.Context, b ledger.Bundle) (uint64, error) {
	if b.State != ledger.BundleSealed || b.SealedIndex == store.Unlogged {
		return 0, fmt.Errorf("bundle %s is %s, not sealed on the log: %w", b.Hash, b.State, store.ErrConflict)
	}
	v, err := canonical.Parse(b.Entry)
	if err != nil {
		return 0, fmt.Errorf("bundle %s entry as kept: %w", b.Hash, err)
	}
	entry := v.(map[string]any)
	if err := s.store.PutSigned(ctx, b.EntryDigest, b.Entry, nil); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return 0, err
	}
	if err := s.store.OpenBundle(ctx, b.Hash, b.EntryDigest); err != nil {
		return 0, err
	}
	ids := make([]any, len(b.Claims))
	for i, c := range b.Claims {
		ids[i] = c.ID
	}
	fields := make([]any, len(b.Fields))
	for i, f := range b.Fields {
		fields[i] = f
	}
	leaf := map[string]any{
		"operator": b.Operator, "claims": ids, "fields": fields,
		"sealed": map[string]any{"index": b.SealedIndex, "salt": b.Salt},
	}
	if b.Replaces != "" {
		leaf["replaces"] = b.Replaces
	}
	index, err := s.journal.Append(ctx, b.EntryDigest, b.Entry, entry, leaf)
	if err != nil && appendedNothing(err) {
		s.store.DropUnbound(ctx, b.EntryDigest)
	}
	return index, err
}

// openDue opens every sealed bundle older than Config.OpenAfter, until
// ctx ends: the node's policy until the verification round exists.
func (s *Server) openDue(ctx context.Context) {
	every := min(max(s.cfg.OpenAfter/4, 100*time.Millisecond), 5*time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		due, err := s.store.SealedBundles(ctx, s.now().Add(-s.cfg.OpenAfter), "", 100)
		if err != nil {
			if ctx.Err() == nil {
				s.logger.Error("listing bundles due to open", "err", err)
			}
			continue
		}
		for _, b := range due {
			if _, err := s.OpenBundle(ctx, b); err != nil && ctx.Err() == nil {
				s.logger.Error("opening a bundle", "bundle", b.Hash, "err", err)
			}
		}
	}
}

// sweepUploads deletes, once an hour, the uploads no bundle holds that
// arrived more than vocabulary.UploadKeep ago. The file store is shared by
// bundles, evidence, notices and words, so it deletes nothing that was not
// sent through an upload, and nothing a bundle or KeepFiles holds: the
// files of a submission that never sealed stay, which costs disk, not data.
func (s *Server) sweepUploads(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		s.SweepUploadsOnce(ctx, s.now())
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// SweepUploadsOnce removes the uploads no bundle holds that lapsed by now.
func (s *Server) SweepUploadsOnce(ctx context.Context, now time.Time) {
	removed, err := s.blobs.Sweep(now.Add(-vocabulary.UploadKeep), func(digest string) bool {
		// Only a file sent ahead through an upload goes, and only if
		// nothing holds it: evidence, notices and words share the store
		// and are kept, even one whose bytes someone also uploaded.
		if _, err := s.store.Upload(ctx, digest); err != nil {
			return true // no upload (or none to be sure of now)
		}
		held, err := s.store.HoldsFile(ctx, digest)
		return held || err != nil // keep what can't be checked now
	})
	switch {
	case err != nil && ctx.Err() == nil:
		s.logger.Error("sweeping unused uploads", "err", err)
	case removed > 0:
		s.logger.Info("swept unused uploads", "files", removed)
	}
}

// getSealed answers GET /api/v1/sealed/{index}: where a sealed entry
// stands.
func (s *Server) getSealed(r *http.Request) (any, int, error) {
	index, err := pathIndex(r)
	if err != nil {
		return nil, 0, err
	}
	b, err := s.store.BundleBySealed(r.Context(), int64(index))
	if errors.Is(err, store.ErrNotFound) {
		s, serr := s.store.Signed(r.Context(), int64(index))
		if serr != nil || !isType(s.Entry, protocol.SealedType) {
			return nil, 0, httpapi.NotFound("No sealed entry at index %d", index)
		}
		return map[string]any{"sealed": index, "state": ledger.BundleSealed}, http.StatusOK, nil
	}
	if err != nil {
		return nil, 0, err
	}
	out := map[string]any{"sealed": index, "state": b.State}
	switch b.State {
	case ledger.BundleSealed:
		round, err := s.roundView(r.Context(), b)
		if err != nil {
			return nil, 0, err
		}
		out["round"] = round
	case ledger.BundleOpen:
		out["revealed_in"] = b.RevealedIndex
		out["bundle"] = b.Hash
	case ledger.BundleWithdrawn:
		out["withdrawn_in"] = b.Withdrawal.Index
		out["reason"] = b.Withdrawal.Reason
	}
	return out, http.StatusOK, nil
}

// isType reports whether an entry's JSON has type typ.
func isType(entry []byte, typ string) bool {
	v, err := canonical.Parse(entry)
	if err != nil {
		return false
	}
	obj, _ := v.(map[string]any)
	return obj["type"] == typ
}

// voidSealed answers POST /api/v1/sealed/{index}/void: the author voids
// its sealed bundle, so it never opens. The log records the author's void
// entry and its own withdrawal of the bundle, reason "voided".
func (s *Server) voidSealed(r *http.Request) (any, int, error) {
	index, err := pathIndex(r)
	if err != nil {
		return nil, 0, err
	}
	body, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, 0, err
	}
	entry, err := objectMember(body, "entry")
	if err != nil {
		return nil, 0, err
	}
	if err := checkMembers(entry, "void", []string{"type", "author", "sealed", "sig"}); err != nil {
		return nil, 0, err
	}
	author, _ := entry["author"].(string)
	if sealedAt, ok := entry["sealed"].(float64); !ok || sealedAt != float64(index) {
		return nil, 0, httpapi.BadRequest("bad_request", "The void entry's sealed must be %d, the index in the path", index)
	}
	ctx := r.Context()
	b, err := s.store.BundleBySealed(ctx, int64(index))
	if err != nil {
		return nil, 0, err
	}
	if author != b.Operator {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "not_author", Message: "Only the bundle's author can void it"}
	}
	op, err := s.store.Operator(ctx, author)
	if err != nil {
		return nil, 0, err
	}
	if !protocol.Verify(entry, op.Key().Key) {
		return nil, 0, &httpapi.Error{Status: http.StatusUnauthorized, Code: "bad_signature", Message: "The void entry's signature does not verify with the author's current key"}
	}
	if b.State == ledger.BundleWithdrawn {
		return map[string]any{"sealed": index, "state": b.State, "withdrawn_in": b.Withdrawal.Index}, http.StatusOK, nil
	}
	if b.State != ledger.BundleSealed {
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "not_sealed", Message: "The bundle opened; correct or retract it instead"}
	}
	voidJSON, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	voidDigest := canonical.Digest(voidJSON)
	withdrawal, wJSON, wDigest, err := s.withdrawalEntry(b, "voided")
	if err != nil {
		return nil, 0, err
	}
	ctx = context.WithoutCancel(ctx)
	for d, data := range map[string][]byte{voidDigest: voidJSON, wDigest: wJSON} {
		if err := s.store.PutSigned(ctx, d, data, nil); err != nil {
			return nil, 0, err
		}
	}
	if _, err := s.store.WithdrawBundle(ctx, b.Hash, ledger.Withdrawal{Entry: wDigest, Reason: "voided", Void: voidDigest, At: s.now()}); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return nil, 0, err
	}
	if err := s.journal.PublishKey(r.Context(), op); err != nil {
		return nil, 0, err
	}
	voidIndex, err := s.journal.Append(ctx, voidDigest, voidJSON, entry, map[string]any{"operator": author})
	if err != nil {
		return nil, 0, err
	}
	wIndex, err := s.journal.Append(ctx, wDigest, wJSON, withdrawal, nil)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"sealed": index, "state": ledger.BundleWithdrawn, "void": voidIndex, "withdrawn_in": wIndex}, http.StatusOK, nil
}

// checkMembers checks a signed object's type and that it has exactly the
// members named.
func checkMembers(entry map[string]any, typ string, members []string) error {
	if entry["type"] != typ {
		return httpapi.BadRequest("bad_request", "The entry's type must be %q", typ)
	}
	for _, m := range members {
		if _, ok := entry[m]; !ok {
			return httpapi.BadRequest("bad_request", "The %s entry needs %q", typ, m)
		}
	}
	if len(entry) != len(members) {
		for k := range entry {
			if !slices.Contains(members, k) {
				return httpapi.BadRequest("bad_request", "The %s entry has no member %q; it holds %s", typ, k, strings.Join(members, ", "))
			}
		}
	}
	return nil
}

// getBundle answers GET /api/v1/bundles/{hash}: an open bundle's files and
// claims, or a withdrawn one's tombstone. A sealed bundle is not readable.
func (s *Server) getBundle(r *http.Request) (any, int, error) {
	hash := r.PathValue("hash")
	b, err := s.store.Bundle(r.Context(), hash)
	if err != nil {
		return nil, 0, err
	}
	out := map[string]any{
		"bundle": b.Hash, "state": b.State, "sealed": logIndex(b.SealedIndex), "versions": stringsAny(b.Versions),
		"replaces": nilIfEmpty(b.Replaces), "written_by": b.WrittenBy, "withdrawn_entry": nil,
	}
	switch b.State {
	case ledger.BundleSealed:
		return nil, 0, httpapi.NotFound("Bundle %s is sealed: it is readable once it opens (GET /api/v1/sealed/%d)", hash, b.SealedIndex)
	case ledger.BundleWithdrawn:
		out["tombstone"] = map[string]any{"reason": b.Withdrawal.Reason, "withdrawal": b.Withdrawal.Index}
		out["withdrawn_entry"] = logIndex(b.Withdrawal.Index)
		out["files"] = nil
		out["claims"] = nil
		return out, http.StatusOK, nil
	}
	files := map[string]any{}
	sizes := map[string]any{}
	for _, f := range b.Files {
		files[f.Path] = f.Digest
		sizes[f.Path] = f.Size
	}
	found := make([]ledger.FoundClaim, len(b.Claims))
	for i, c := range b.Claims {
		found[i] = ledger.FoundClaim{Claim: c, Bundle: b.Hash}
	}
	derived, err := s.heldStatuses(r.Context(), found)
	if err != nil {
		return nil, 0, err
	}
	cl := make([]any, len(b.Claims))
	for i, c := range b.Claims {
		v, _ := canonical.Parse(c.JSON)
		cl[i] = map[string]any{"claim_id": c.ID, "local_id": c.LocalID, "type": c.Type, "statement": c.Statement,
			"assertion_digest": c.Assertion, "claim": v, "statuses": statusList(found[i], derived)}
	}
	out["operator"] = b.Operator
	out["fields"] = stringsAny(b.Fields)
	out["files"] = files
	out["sizes"] = sizes
	out["claims"] = cl
	out["entry"] = b.RevealedIndex
	out["contributors"] = []any{}
	if out["retraction"], err = s.bundleRetraction(r.Context(), b.Hash); err != nil {
		return nil, 0, err
	}
	if out["versions"], err = s.versions(r.Context(), b); err != nil {
		return nil, 0, err
	}
	if out["addenda"], err = s.bundleAddenda(r.Context(), b); err != nil {
		return nil, 0, err
	}
	return out, http.StatusOK, nil
}

func stringsAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

var _ = bundle.SignatureFile
var _ = strconv.Itoa

// versions lists every version of b's study, oldest first, as the spec's
// {"version", "bundle", "published_at", "withdrawn"}: a version the log
// has not opened (still sealed) has published_at null.
func (s *Server) versions(ctx context.Context, b ledger.Bundle) ([]any, error) {
	out := []any{}
	err := s.derived(ctx, func(d *status.Deriver) error {
		for i, hash := range b.Versions {
			v := map[string]any{"version": i + 1, "bundle": hash, "published_at": nil, "withdrawn": false}
			if o, ok := d.Opened(hash); ok {
				v["published_at"], v["withdrawn"] = tlog.FormatTimestamp(o.At), o.Withdrawn
			}
			out = append(out, v)
		}
		return nil
	})
	return out, err
}
