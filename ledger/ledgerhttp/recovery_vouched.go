package ledgerhttp

// A vouched recovery ("Your key is your identity", "A vouch"): the operator
// sends its key_recovery with "kind": "vouched", its voucher, and no
// voucher_sig, signed by the new key. The node keeps it, unlogged, for 7
// days, and answers approve_at, the operator's page where only that key can
// be approved. The person who vouched signs in there with the same GitHub
// account and approves the digest shown (ApproveRecovery, which the pages
// call); the log attests the approval in voucher_sig, over the entry
// without sig or voucher_sig. GET /api/v1/operators/{id}/recovery?key=
// then shows the entry with voucher_sig; the new key signs everything but
// sig and sends it again, within 7 days of the approval, and the node logs
// it as the other recoveries are logged.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/vocabulary"
)

// vouched takes a vouched recovery: a request for the voucher's approval
// without voucher_sig, or, with it, the approved recovery countersigned.
// Either counts against the address, as the other recoveries do.
func (rec *recoveries) vouched(r *http.Request, op store.Operator, rc *operators.Recovery, entry map[string]any) (any, int, error) {
	s := rec.ids.s
	if err := rec.checkSince(r.Context(), rc.Since); err != nil {
		return nil, 0, err
	}
	if err := s.takeLimit(r, "recovery:ip:"+httpapi.ClientAddress(r), recoveriesPerIP, vocabulary.Day); err != nil {
		return nil, 0, err
	}
	sig, countersigned := entry["voucher_sig"].(string)
	if !countersigned {
		return rec.requestApproval(r, op, rc, entry)
	}
	req, err := s.store.RecoveryRequest(r.Context(), op.ID, rc.KeyDigest)
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, &httpapi.Error{Status: http.StatusNotFound, Code: "not_found",
			Message: "No recovery of yours to this key waits here: send it without voucher_sig first (request_recovery()), then have your person approve it", Err: err}
	}
	if err != nil {
		return nil, 0, err
	}
	switch req.State(s.now()) {
	case "expired":
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "expired",
			Message: "Your recovery lapsed: it waits 7 days for your person's approval, then 7 for your countersignature. Send request_recovery() again"}
	case "waiting":
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "not_approved",
			Message: "Your person hasn't approved this recovery yet: send them approve_at and the new key's digest to check"}
	}
	if sig != req.VoucherSig || rc.Since != req.Since || rc.Voucher != req.Voucher || !operators.VerifyRecoveryApproval(rc, sig, s.logKey.Public().String()) {
		return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: operators.ErrBadSignature.Code(),
			Message: "voucher_sig is not the log's attestation of your person's approval of this recovery: countersign the entry GET /api/v1/operators/{id}/recovery?key= returns, unchanged"}
	}
	answer, status, err := rec.record(r.Context(), op, rc, entry)
	if err != nil {
		return nil, 0, err
	}
	if err := s.store.DropRecoveryRequest(r.Context(), op.ID, rc.KeyDigest); err != nil {
		s.logger.Warn("dropping a vouched recovery once logged", "operator", op.ID, "err", err)
	}
	return answer, status, nil
}

// requestApproval keeps a vouched recovery without voucher_sig, waiting for
// the voucher's approval: 202 with where it waits, 200 when it was
// approved already (asking again changes nothing then).
func (rec *recoveries) requestApproval(r *http.Request, op store.Operator, rc *operators.Recovery, entry map[string]any) (any, int, error) {
	s := rec.ids.s
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	now := s.now()
	req, err := s.store.PutRecoveryRequest(r.Context(), store.RecoveryRequest{
		Operator: op.ID, KeyDigest: rc.KeyDigest, Key: rc.Key, Voucher: rc.Voucher, Since: rc.Since, Entry: signed,
		Requested: now, Expires: now.Add(vocabulary.RecoveryApprovalWait),
	}, vocabulary.OpenRecoveryRequests)
	status := http.StatusAccepted
	switch {
	case errors.Is(err, store.ErrDuplicate):
		status = http.StatusOK
	case err != nil:
		return nil, 0, err
	}
	return s.waitingRecovery(req), status, nil
}

// waitingRecovery is a vouched recovery not logged yet, as the API shows
// it: where it stands, the page to approve it at, and the entry, with the
// log's voucher_sig once approved, for the new key to sign.
func (s *Server) waitingRecovery(req store.RecoveryRequest) map[string]any {
	var approved any
	if !req.Approved.IsZero() {
		approved = req.Approved.UTC().Format(time.RFC3339Nano)
	}
	return map[string]any{
		"operator": req.Operator, "kind": vocabulary.IdentityVouched, "key_digest": req.KeyDigest, "voucher": req.Voucher,
		"since": req.Since, "state": req.State(s.now()), "index": nil, "current": false,
		"requested_at": req.Requested.UTC().Format(time.RFC3339Nano), "expires_at": req.Expires.UTC().Format(time.RFC3339Nano),
		"approved_at": approved, "approve_at": ApprovePage(req.Operator, req.KeyDigest),
		"entry": approvalEntry(req),
	}
}

// ApprovePage is the path of the operator's page where only the new key
// keyDigest can be approved: the agent sends its person the node's address
// plus this, as the spec's approve_at.
func ApprovePage(operator, keyDigest string) string {
	return "/agents/" + url.PathEscape(operator) + "/recovery?key=" + url.QueryEscape(keyDigest)
}

// approvalEntry is the request without its sig, with the log's voucher_sig
// once approved: what the new key countersigns.
func approvalEntry(req store.RecoveryRequest) map[string]any {
	v, err := canonical.Parse(req.Entry)
	entry, _ := v.(map[string]any)
	if err != nil || entry == nil {
		return nil
	}
	delete(entry, "sig")
	delete(entry, "voucher_sig")
	if req.VoucherSig != "" {
		entry["voucher_sig"] = req.VoucherSig
	}
	return entry
}

// WaitingRecovery is a vouched recovery waiting for its voucher, as the
// operator's page shows it.
type WaitingRecovery struct {
	Operator  string
	KeyDigest string
	Voucher   string
	Since     uint64
	Requested time.Time
	Expires   time.Time
	Approved  time.Time // zero until approved
}

// RecoveryRequests returns operator's vouched recoveries still open,
// newest first.
func (s *Server) RecoveryRequests(ctx context.Context, operator string) ([]WaitingRecovery, error) {
	reqs, err := s.store.RecoveryRequests(ctx, operator, s.now())
	if err != nil {
		return nil, err
	}
	out := make([]WaitingRecovery, 0, len(reqs))
	for _, r := range reqs {
		out = append(out, WaitingRecovery{Operator: r.Operator, KeyDigest: r.KeyDigest, Voucher: r.Voucher, Since: r.Since,
			Requested: r.Requested, Expires: r.Expires, Approved: r.Approved})
	}
	return out, nil
}

// RecoveryApproval is a person's approval of a vouched recovery, made on
// the operator's page once they signed in: the key they approve and the
// GitHub account they signed in with.
type RecoveryApproval struct {
	Operator  string
	KeyDigest string
	Account   int64 // the GitHub account's numeric ID
}

// ApproveRecovery records a person's approval of operator's vouched
// recovery to a.KeyDigest: the account they signed in with must be the
// voucher the operator counts as, and the one the recovery names; the log
// attests the approval in voucher_sig, and the new key then has 7 days to
// countersign. Approving twice is the same as once.
func (s *Server) ApproveRecovery(ctx context.Context, a RecoveryApproval) (WaitingRecovery, error) {
	op, err := s.store.Operator(ctx, a.Operator)
	if err != nil {
		return WaitingRecovery{}, err
	}
	req, err := s.store.RecoveryRequest(ctx, op.ID, a.KeyDigest)
	if errors.Is(err, store.ErrNotFound) {
		return WaitingRecovery{}, &httpapi.Error{Status: http.StatusNotFound, Code: "not_found",
			Message: "No recovery to this key waits for this agent: ask your agent to send its request (request_recovery()) again", Err: err}
	}
	if err != nil {
		return WaitingRecovery{}, err
	}
	voucher := operators.GitHubOrganization(a.Account)
	rc := &operators.Recovery{Kind: vocabulary.IdentityVouched, Operator: op.ID, Key: req.Key, KeyDigest: req.KeyDigest, Since: req.Since, Voucher: req.Voucher}
	if err := operators.CheckRecoveryIdentity(heldIdentities(op), rc); err != nil {
		return WaitingRecovery{}, ruleError(err)
	}
	if voucher != req.Voucher {
		return WaitingRecovery{}, &httpapi.Error{Status: http.StatusForbidden, Code: operators.ErrRecoveryIdentity.Code(),
			Message: fmt.Sprintf("The GitHub account you signed in with, %s, did not vouch for this agent: only %s, the account that vouched, can approve its new key", voucher, req.Voucher)}
	}
	sig, err := operators.AttestRecoveryApproval(rc, s.logKey)
	if err != nil {
		return WaitingRecovery{}, err
	}
	now := s.now()
	got, err := s.store.ApproveRecovery(ctx, op.ID, req.KeyDigest, sig, now, now.Add(vocabulary.RecoveryApprovalWait))
	switch {
	case errors.Is(err, store.ErrConflict):
		return WaitingRecovery{}, &httpapi.Error{Status: http.StatusGone, Code: "expired",
			Message: "This recovery lapsed: it waits 7 days for your approval. Ask your agent to send its request again", Err: err}
	case err != nil && !errors.Is(err, store.ErrDuplicate):
		return WaitingRecovery{}, err
	}
	return WaitingRecovery{Operator: got.Operator, KeyDigest: got.KeyDigest, Voucher: got.Voucher, Since: got.Since,
		Requested: got.Requested, Expires: got.Expires, Approved: got.Approved}, nil
}

// isCard reports whether a voucher is a card's, which this node, with no
// payment provider, never has vouch or approve.
func isCard(voucher string) bool { return strings.HasPrefix(voucher, "card:") }
