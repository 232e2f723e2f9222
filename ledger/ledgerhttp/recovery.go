package ledgerhttp

// Key recovery, as the spec's "Your key is your identity" gives it: an
// operator that lost its key, or fears someone else holds it, takes its ID
// back with a new key through the identity it counts as. POST
// /api/v1/operators/{id}/recovery takes a key_recovery entry signed by the
// new key, through a domain whose TXT record now names the new key or a
// GitHub repository whose .sciencejournal file does; the node's reviewers
// recover an invited operator (POST /api/v1/admin/recoveries), the log
// signing its entry; a vouched operator's recovery waits for the person who
// vouched to approve it (recovery_vouched.go). GET
// /api/v1/operators/{id}/recovery?key= answers the recovery to a key:
// logged, or waiting for its voucher or its countersignature.
//
// A recovery is logged like a rotation: the old key is retired for good
// and the new one signs everything after it, so every entry stays
// verifiable by the key its operator held when it was logged. What the old
// key signed from "since" on is disowned; the answer counts it by type.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/vocabulary"
)

const (
	recoveriesPerIP  = 20               // recoveries through a domain or repository from one address in 24 hours
	recoveryFailWait = 30 * time.Second // after one fails, before the next from that address
)

// recoveries serves the recovery routes. failed holds, by client address,
// when its last recovery through DNS or GitHub failed; entries older than
// recoveryFailWait are pruned as it is read. mu guards failed.
type recoveries struct {
	ids    *identities
	mu     sync.Mutex
	failed map[string]time.Time
}

func (ids *identities) routeRecovery() {
	rec := &recoveries{ids: ids, failed: map[string]time.Time{}}
	s := ids.s
	s.mux.Handle("POST /api/v1/operators/{id}/recovery", s.serve(rec.recover))
	s.mux.Handle("GET /api/v1/operators/{id}/recovery", s.serve(rec.get))
	s.mux.Handle("POST /api/v1/admin/recoveries", s.serve(s.admin(rec.reviewerRecovery)))
}

// recover answers POST /api/v1/operators/{id}/recovery with a key_recovery
// entry signed by the new key: 201 once it is logged, 200 with where it
// stands for the very entry again.
func (rec *recoveries) recover(r *http.Request) (any, int, error) {
	s := rec.ids.s
	entry, op, err := s.entryCall(r)
	if err != nil {
		return nil, 0, err
	}
	if answer, ok := rotationStanding(op, entry); ok {
		// The very recovery again: finish what it disowns, in case the
		// node stopped before it had (withdrawing is idempotent). It reads
		// the log back to since, so it counts against the address.
		if since, ok := entry["since"].(float64); ok && entry["type"] == protocol.KeyRecoveryType {
			if err := s.takeLimit(r, "recovery:ip:"+httpapi.ClientAddress(r), recoveriesPerIP, vocabulary.Day); err != nil {
				return nil, 0, err
			}
			answer["since"], answer["disowned"] = uint64(since), s.finishDisowning(r.Context(), op.ID, uint64(since), uint64(answer["index"].(int64)))
		}
		return answer, http.StatusOK, nil
	}
	rc, err := operators.CheckRecoveryEntry(entry, op.ID)
	if err != nil {
		return nil, 0, ruleError(err)
	}
	if rc.Kind == vocabulary.IdentityVouched && isCard(rc.Voucher) {
		return nil, 0, cardUnavailable()
	}
	if err := operators.CheckRecoveryIdentity(heldIdentities(op), rc); err != nil {
		return nil, 0, ruleError(err)
	}
	switch rc.Kind {
	case vocabulary.IdentityInvited:
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "reviewers_recover",
			Message: "The node's reviewers recover an invited operator: give them your operator ID and your new public key, never the secret key"}
	case vocabulary.IdentityVouched:
		return rec.vouched(r, op, rc, entry)
	}
	if err := rec.checkSince(r.Context(), rc.Since); err != nil {
		return nil, 0, err
	}
	addr := httpapi.ClientAddress(r)
	if err := rec.waitAfterFailure(addr); err != nil {
		return nil, 0, err
	}
	if err := s.takeLimit(r, "recovery:ip:"+addr, recoveriesPerIP, vocabulary.Day); err != nil {
		return nil, 0, err
	}
	if err := rec.proven(r.Context(), op, rc); err != nil {
		rec.noteFailure(addr)
		return nil, 0, err
	}
	return rec.record(r.Context(), op, rc, entry)
}

// heldIdentities are the logged identities op holds, firmest first.
func heldIdentities(op store.Operator) []operators.HeldIdentity {
	var held []operators.HeldIdentity
	for _, id := range op.Identities {
		if id.Index != store.Unlogged {
			held = append(held, operators.HeldIdentity{Kind: id.Kind, Subject: id.Subject})
		}
	}
	return held
}

// proven checks that the identity rc goes through names the new key now:
// the domain's TXT record, or the repository's .sciencejournal file, whose
// owner must still be the account the operator counts as.
func (rec *recoveries) proven(ctx context.Context, op store.Operator, rc *operators.Recovery) error {
	switch rc.Kind {
	case vocabulary.IdentityDomain:
		name := operators.DomainRecord(rc.Domain)
		records, err := rec.ids.lookupTXT(ctx, name)
		if err != nil {
			return proofError(err)
		}
		if !operators.TXTProves(records, rc.KeyDigest) {
			return proofNotFound("No TXT record at %s reads %s: point it at the new key's digest first", name, operators.ProofLine(rc.KeyDigest))
		}
	case vocabulary.IdentityGitHub:
		proof, err := rec.ids.readGitHub(ctx, rc.Repository)
		if err != nil {
			return proofError(err)
		}
		if !operators.GitHubFileProves(proof.File, rc.KeyDigest) {
			return proofNotFound("The %s file at the root of %s has no line %s: add the new key's line first",
				vocabulary.GitHubProofFile, rc.Repository, operators.ProofLine(rc.KeyDigest))
		}
		own, _ := op.Identity()
		if org := operators.GitHubOrganization(proof.OwnerID); org != own.Organization {
			return &httpapi.Error{Status: http.StatusForbidden, Code: operators.ErrRecoveryIdentity.Code(),
				Message: fmt.Sprintf("%s belongs to %s now, not %s, the account you count as", rc.Repository, org, own.Organization)}
		}
	default:
		return fmt.Errorf("ledgerhttp: no proof for a %s recovery", rc.Kind)
	}
	return nil
}

// waitAfterFailure refuses a recovery from addr within recoveryFailWait of
// its last failed one: the spec's "wait 30 seconds before the next".
func (rec *recoveries) waitAfterFailure(addr string) error {
	now := rec.ids.s.now()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for a, at := range rec.failed {
		if now.Sub(at) >= recoveryFailWait {
			delete(rec.failed, a)
		}
	}
	at, ok := rec.failed[addr]
	if !ok {
		return nil
	}
	wait := recoveryFailWait - now.Sub(at)
	return &httpapi.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
		Message:    "Your last recovery failed: wait 30 seconds before the next, fixing what it named",
		RetryAfter: max(1, int((wait+time.Second-1)/time.Second))}
}

func (rec *recoveries) noteFailure(addr string) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.failed[addr] = rec.ids.s.now()
}

// logEnd is where the log ends as far as the node knows: its published
// size, or past the highest index it bound, whichever is larger.
func (s *Server) logEnd(ctx context.Context) (uint64, error) {
	latest, err := s.store.LatestIndex(ctx)
	if err != nil {
		return 0, err
	}
	return max(s.log.Size(), uint64(latest+1)), nil
}

// checkSince checks a recovery's since: at most the log's size, and no
// earlier than the first entry logged within vocabulary.MaxRecoveryLookback.
func (rec *recoveries) checkSince(ctx context.Context, since uint64) error {
	s := rec.ids.s
	end, err := s.logEnd(ctx)
	if err != nil {
		return err
	}
	if since > end {
		return &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_since",
			Message: fmt.Sprintf("since is %d, past the log's size, %d: give the log's size to disown nothing", since, end)}
	}
	first, err := s.firstSince(ctx, s.now().Add(-vocabulary.MaxRecoveryLookback), end)
	if err != nil {
		return err
	}
	if since < first {
		return &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_since",
			Message: fmt.Sprintf("since is %d, but a recovery disowns at most 30 days back: from entry %d on", since, first)}
	}
	return nil
}

// firstSince returns the first index below end whose leaf is stamped at or
// after cutoff (end if none is), by binary search: leaf timestamps never go
// backwards. An index with no entry kept counts as recent.
func (s *Server) firstSince(ctx context.Context, cutoff time.Time, end uint64) (uint64, error) {
	lo, hi := uint64(0), end
	for lo < hi {
		mid := lo + (hi-lo)/2
		at, err := s.leafTime(ctx, mid)
		if err != nil {
			return 0, err
		}
		if at.Before(cutoff) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// leafTime is the timestamp of the leaf at index; the zero time's opposite
// (far future) when none is kept there yet.
func (s *Server) leafTime(ctx context.Context, index uint64) (time.Time, error) {
	e, err := s.store.Signed(ctx, int64(index))
	if errors.Is(err, store.ErrNotFound) || (err == nil && e.Leaf == nil) {
		return time.Unix(1<<40, 0), nil
	}
	if err != nil {
		return time.Time{}, err
	}
	leaf, err := canonical.Parse(e.Leaf)
	if err != nil {
		return time.Time{}, fmt.Errorf("ledgerhttp: the leaf at %d: %w", index, err)
	}
	ts, _ := leaf.(map[string]any)["timestamp"].(string)
	t, err := tlog.ParseTimestamp(ts)
	if err != nil {
		return time.Time{}, fmt.Errorf("ledgerhttp: the leaf at %d: %w", index, err)
	}
	return t, nil
}

// record keeps, applies and logs a recovery, as a rotation goes
// (changeKey), and counts what it disowned.
func (rec *recoveries) record(ctx context.Context, op store.Operator, rc *operators.Recovery, entry map[string]any) (any, int, error) {
	s := rec.ids.s
	index, err := s.changeKey(ctx, op, rc.Key, entry, "recovery")
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{
		"operator": op.ID, "kind": rc.Kind, "key_digest": rc.KeyDigest, "index": index,
		"since": rc.Since, "disowned": s.finishDisowning(ctx, op.ID, rc.Since, index),
	}, http.StatusCreated, nil
}

// finishDisowning withdraws the bundles the recovery of operator at index
// disowns, and counts by type what it disowned. The recovery is logged by
// then: a failure is only logged, and the count is of what was done;
// sending the same recovery again finishes it.
func (s *Server) finishDisowning(ctx context.Context, operator string, since, index uint64) map[string]int {
	disowned, bundles, err := s.disowned(ctx, operator, since, index)
	if err != nil {
		s.logger.Warn("counting what a recovery disowned", "operator", operator, "index", index, "err", err)
	}
	for _, b := range bundles {
		if err := s.withdraw(ctx, b, "disowned"); err != nil {
			s.logger.Warn("withdrawing a bundle a recovery disowned", "operator", operator, "bundle", b.Hash, "err", err)
			continue
		}
		disowned["bundle"]++
	}
	return disowned
}

// disowned counts, by entry type, what operator signed in the log from
// since up to its recovery at index: everything but its key-giving and
// identity entries, and but what was sealed before since, which counts from
// when it was sealed. Its bundles sealed in that span, which the log's
// sealed entries hold without naming it, are returned to be withdrawn,
// and counted once they are: one withdrawn as disowned before is counted,
// one withdrawn for another reason neither.
func (s *Server) disowned(ctx context.Context, operator string, since, index uint64) (map[string]int, []ledger.Bundle, error) {
	counts := map[string]int{}
	var bundles []ledger.Bundle
	for i := since; i < index; i++ {
		e, err := s.store.Signed(ctx, int64(i))
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return counts, bundles, err
		}
		v, err := canonical.Parse(e.Leaf)
		if err != nil {
			continue
		}
		leaf, _ := v.(map[string]any)
		le, _ := leaf["entry"].(map[string]any)
		typ, _ := le["type"].(string)
		if typ == protocol.SealedType {
			b, err := s.store.BundleBySealed(ctx, int64(i))
			switch {
			case errors.Is(err, store.ErrNotFound):
			case err != nil:
				return counts, bundles, err
			case b.Operator != operator:
			case b.State != ledger.BundleWithdrawn:
				bundles = append(bundles, b)
			case b.Withdrawal.Reason == "disowned":
				counts["bundle"]++ // withdrawn by this recovery before
			}
			continue
		}
		if leaf["operator"] != operator {
			continue
		}
		if reveal, err := protocol.ParseSealReveal(leaf["sealed"]); err == nil && uint64(reveal.Index) < since {
			continue
		}
		switch typ {
		case "key", "bundle", protocol.KeyRotationType, protocol.KeyRecoveryType, operators.IdentityType:
			// A revealed bundle is counted by its commitment.
			continue
		}
		counts[typ]++
	}
	return counts, bundles, nil
}

var keyDigestPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// get answers GET /api/v1/operators/{id}/recovery?key=: the recovery that
// gave the operator the key ?key= names (its digest, or the key itself),
// "state": "logged"; else a vouched one to that key not logged yet
// (waiting, approved or expired, waitingRecovery); null when neither.
func (rec *recoveries) get(r *http.Request) (any, int, error) {
	s := rec.ids.s
	op, err := s.pathOperator(r)
	if err != nil {
		return nil, 0, err
	}
	key := r.URL.Query().Get("key")
	if _, err := hybrid.ParsePublicKey(key); err == nil {
		key = protocol.KeyDigest(key)
	}
	if !keyDigestPattern.MatchString(key) {
		return nil, 0, httpapi.BadRequest("bad_request", "Give ?key=, the new key's digest: sha256: and 64 lowercase hex digits")
	}
	for _, k := range op.Keys {
		if k.Digest != key {
			continue
		}
		e, err := s.store.SignedByDigest(r.Context(), k.Entry)
		if err != nil {
			return nil, 0, err
		}
		v, err := canonical.Parse(e.Entry)
		if err != nil {
			return nil, 0, err
		}
		entry, _ := v.(map[string]any)
		if entry["type"] != protocol.KeyRecoveryType {
			break
		}
		var index any
		if k.Since != store.Unlogged {
			index = k.Since
		}
		return map[string]any{"recovery": map[string]any{
			"operator": op.ID, "kind": entry["kind"], "key_digest": k.Digest, "since": entry["since"],
			"state": "logged", "index": index, "current": k.Current(), "entry": entry,
		}}, http.StatusOK, nil
	}
	req, err := s.store.RecoveryRequest(r.Context(), op.ID, key)
	switch {
	case err == nil:
		return map[string]any{"recovery": s.waitingRecovery(req)}, http.StatusOK, nil
	case !errors.Is(err, store.ErrNotFound):
		return nil, 0, err
	}
	return map[string]any{"recovery": nil}, http.StatusOK, nil
}

// reviewerRecovery answers POST /api/v1/admin/recoveries {"operator",
// "key", "since"}: the node's reviewers recover an invited operator to the
// public key it gave them, the log signing the entry.
func (rec *recoveries) reviewerRecovery(r *http.Request) (any, int, error) {
	s := rec.ids.s
	body, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, 0, err
	}
	obj, _ := body.(map[string]any)
	id, _ := obj["operator"].(string)
	key, _ := obj["key"].(string)
	since, okSince := obj["since"].(float64)
	if !protocol.IsOperatorID(id) {
		return nil, 0, httpapi.BadRequest("bad_request", "Give \"operator\", an operator ID")
	}
	if _, err := hybrid.ParsePublicKey(key); err != nil {
		return nil, 0, httpapi.BadRequest("bad_request", "Give \"key\", the operator's new public key as written (never its secret key)")
	}
	if !okSince || since < 0 || since != float64(uint64(since)) {
		return nil, 0, httpapi.BadRequest("bad_request", "Give \"since\", a log index from which the old key's entries are disowned (the log's size for none)")
	}
	op, err := s.store.Operator(r.Context(), id)
	if err != nil {
		return nil, 0, err
	}
	entry, err := protocol.SignInvitedRecovery(op.ID, key, uint64(since), s.logKey)
	if err != nil {
		return nil, 0, err
	}
	// The entry as it will be logged, parsed back, so its since is the
	// number the log holds.
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	parsed, err := canonical.Parse(signed)
	if err != nil {
		return nil, 0, err
	}
	entry = parsed.(map[string]any)
	rc, err := operators.CheckRecoveryEntry(entry, op.ID)
	if err != nil {
		return nil, 0, ruleError(err)
	}
	if err := operators.CheckRecoveryIdentity(heldIdentities(op), rc); err != nil {
		return nil, 0, ruleError(err)
	}
	if rc.Kind != vocabulary.IdentityInvited {
		return nil, 0, fmt.Errorf("ledgerhttp: a reviewer's recovery is %s", rc.Kind)
	}
	if err := rec.checkSince(r.Context(), rc.Since); err != nil {
		return nil, 0, err
	}
	return rec.record(r.Context(), op, rc, entry)
}
