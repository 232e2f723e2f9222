package ledgerhttp

// Identities, as the spec's "Identity" section gives them: an operator
// proves a domain (a TXT record), a GitHub account (a .sciencejournal file
// in a public repository), an invite code or its person's vouch at POST
// /api/v1/operators/{id}/identity (vouches.go and domainwatch.go have the
// person's side); an operator that counts as a domain, a GitHub account or
// a vouch makes invite codes at POST /api/v1/operators/{id}/invites;
// anyone reads where a code stands at GET /api/v1/invites/{digest}.
//
// Every identity is a logged entry whose leaf names the organization it
// counts as. Invite codes are the node's records, never logged: the
// sponsored identity that uses one carries the sponsor's signature.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/translog"
	"github.com/agora-node/agora/vocabulary"
)

// DefaultGitHubAPI is the GitHub REST API the node asks when
// Config.GitHubAPI is empty.
const DefaultGitHubAPI = "https://api.github.com"

// lookupTXTFn returns the TXT records at a DNS name, each record's strings
// joined, and none when the name or its records do not exist. It fails
// with an *unavailableError when DNS did not answer.
type lookupTXTFn func(ctx context.Context, name string) ([]string, error)

// readGitHubFn reads what proves a GitHub identity: the .sciencejournal
// file at the root of repository ("owner/name") and the account that owns
// it. It fails with errNoProof when either is not there, and with an
// *unavailableError when GitHub did not answer.
type readGitHubFn func(ctx context.Context, repository string) (gitHubProof, error)

// gitHubProof is what GitHub showed for a repository.
type gitHubProof struct {
	File    []byte    // the .sciencejournal file
	OwnerID int64     // the owner's numeric account ID
	Created time.Time // when the owner's account was made
}

// errNoProof: the record or the file a proof rests on is not there.
var errNoProof = errors.New("no proof there")

// unavailableError is DNS or GitHub failing to answer: the client tries
// again later (503).
type unavailableError struct {
	service    string        // "DNS" or "GitHub"
	retryAfter time.Duration // when to try again, 0 if the service did not say
	err        error
}

func (e *unavailableError) Error() string { return e.service + " did not answer: " + e.err.Error() }
func (e *unavailableError) Unwrap() error { return e.err }

// identities serves the identity routes with the two capabilities they need
// from outside the node, set once by routeIdentity.
type identities struct {
	s          *Server
	lookupTXT  lookupTXTFn
	readGitHub readGitHubFn
}

func (s *Server) routeIdentity() {
	ids := &identities{
		s:          s,
		lookupTXT:  newDNSResolver(s.cfg.DNSResolver, s.logger).lookupTXT,
		readGitHub: newGitHub(s.cfg.GitHubAPI, s.cfg.GitHubClient, s.logger).proof,
	}
	s.mux.Handle("POST /api/v1/operators/{id}/identity", s.serve(ids.prove))
	s.mux.Handle("POST /api/v1/operators/{id}/invites", s.serve(ids.makeInvite))
	s.mux.Handle("GET /api/v1/invites/{digest}", s.serve(ids.invite))
	ids.routeRecovery()
	s.mux.Handle("POST /api/v1/operators/{id}/vouch-consents", s.serve(ids.consent))
	s.mux.Handle("GET /api/v1/operators/{id}/vouches", s.serve(ids.vouches))
	s.mux.Handle("POST /api/v1/operators/{id}/account", s.serve(ids.requestAccount))
	s.ids = ids
}

// entryCall reads a call on operator {id} whose body is one signed entry:
// the entry itself, as the spec's client sends identity steps and invites,
// or {"entry": <entry>}, as other calls wrap it.
func (s *Server) entryCall(r *http.Request) (map[string]any, store.Operator, error) {
	id := r.PathValue("id")
	if !protocol.IsOperatorID(id) {
		return nil, store.Operator{}, httpapi.BadRequest("bad_request", "%q is not an operator ID (op: and 64 lowercase hex digits)", id)
	}
	body, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, store.Operator{}, err
	}
	entry, ok := body.(map[string]any)
	if !ok {
		return nil, store.Operator{}, httpapi.BadRequest("bad_request", "The body must be a signed entry, a JSON object")
	}
	if _, typed := entry["type"]; !typed {
		if entry, err = objectMember(body, "entry"); err != nil {
			return nil, store.Operator{}, err
		}
	}
	op, err := s.store.Operator(r.Context(), id)
	if err != nil {
		return nil, store.Operator{}, err
	}
	return entry, op, nil
}

// prove answers POST /api/v1/operators/{id}/identity with a signed
// identity entry: 201 with the identity once it is logged, 200 with the
// one that stands when the operator already counts as it.
func (ids *identities) prove(r *http.Request) (any, int, error) {
	entry, op, err := ids.s.entryCall(r)
	if err != nil {
		return nil, 0, err
	}
	e, err := operators.CheckIdentityEntry(entry, op.ID)
	if err != nil {
		return nil, 0, identityRuleError(err)
	}
	switch e.Kind {
	case vocabulary.IdentityDomain, vocabulary.IdentityGitHub:
		return ids.proveOwn(r, entry, e, op)
	case vocabulary.IdentitySponsored:
		return ids.acceptInvite(r, entry, e, op)
	case vocabulary.IdentityVouched:
		return ids.acceptVouch(r, entry, e, op)
	}
	return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "unsupported_identity",
		Message: fmt.Sprintf("This node does not take %s identities here: prove a domain, a GitHub repository, an invite code or your person's vouch", e.Kind)}
}

// proveOwn proves a domain or a GitHub repository: the signature first,
// then what the operator holds (which counts nothing), then the rate
// limits, and only then DNS or GitHub.
func (ids *identities) proveOwn(r *http.Request, entry map[string]any, e *operators.IdentityEntry, op store.Operator) (any, int, error) {
	s := ids.s
	key := op.Key()
	if err := operators.VerifyIdentityEntry(entry, e, operators.IdentityKeys{Operator: key.Key}); err != nil {
		return nil, 0, identityRuleError(err)
	}
	if answer, status, err := standing(op, e); status != 0 || err != nil {
		return answer, status, err
	}
	var organization string
	if e.Kind == vocabulary.IdentityDomain {
		org, err := operators.RegistrableDomain(e.Domain)
		if err != nil {
			return nil, 0, identityRuleError(err)
		}
		organization = org
	}
	// Each try makes the node ask DNS or GitHub, so each counts against the
	// sender's address, worked or not. Against the operator's own limit an
	// entry counts once a day: a proof carries no time or nonce, so anyone
	// who saw it could send it again to spend the operator's tries, and
	// the operator itself sends the same entry again while its record
	// reaches DNS.
	if err := s.takeLimit(r, "proof:ip:"+httpapi.ClientAddress(r), vocabulary.ProofsPerIP, time.Hour); err != nil {
		return nil, 0, err
	}
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	first, _, err := s.store.Take(r.Context(), "proof:entry:"+canonical.Digest(signed), 1, vocabulary.Day, s.now())
	if err != nil {
		return nil, 0, err
	}
	if first {
		if err := s.takeLimit(r, "proof:op:"+op.ID, vocabulary.ProofsPerOperator, vocabulary.Day); err != nil {
			return nil, 0, err
		}
	}
	switch e.Kind {
	case vocabulary.IdentityDomain:
		name := operators.DomainRecord(e.Domain)
		records, err := ids.lookupTXT(r.Context(), name)
		if err != nil {
			return nil, 0, proofError(err)
		}
		if !operators.TXTProves(records, key.Digest) {
			return nil, 0, proofNotFound("No TXT record at %s reads %s; a new record can take a while to reach the node, so try again in a few minutes",
				name, operators.ProofLine(key.Digest))
		}
	case vocabulary.IdentityGitHub:
		proof, err := ids.readGitHub(r.Context(), e.Repository)
		if err != nil {
			return nil, 0, proofError(err)
		}
		if !operators.GitHubFileProves(proof.File, key.Digest) {
			return nil, 0, proofNotFound("The %s file at the root of %s has no line %s",
				vocabulary.GitHubProofFile, e.Repository, operators.ProofLine(key.Digest))
		}
		if err := operators.CheckGitHubAccountAge(proof.Created, s.now()); err != nil {
			return nil, 0, identityRuleError(err)
		}
		organization = operators.GitHubOrganization(proof.OwnerID)
	}
	return ids.record(r.Context(), entry, op, store.Identity{Kind: e.Kind, Organization: organization, Subject: e.Subject()})
}

// acceptInvite takes a sponsored identity: the operator countersigns an
// invite code its sponsor made, and counts as the sponsor's organization.
func (ids *identities) acceptInvite(r *http.Request, entry map[string]any, e *operators.IdentityEntry, op store.Operator) (any, int, error) {
	s := ids.s
	inv, err := s.store.Invite(r.Context(), operators.InviteDigest(e.Code))
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, &httpapi.Error{Status: http.StatusNotFound, Code: "not_found", Message: "No invite code has that digest on this node", Err: err}
	}
	if err != nil {
		return nil, 0, err
	}
	if inv.Sponsor != e.Sponsor {
		return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: operators.ErrInvalidInvite.Code(),
			Message: fmt.Sprintf("The code was made by %s, not %s", inv.Sponsor, e.Sponsor)}
	}
	if inv.Void {
		return nil, 0, inviteVoid("The sponsor changed keys since making the code, which voided it")
	}
	sponsor, err := s.store.Operator(r.Context(), inv.Sponsor)
	if err != nil {
		return nil, 0, err
	}
	keys := operators.IdentityKeys{Operator: op.Key().Key, Sponsor: sponsor.Key().Key}
	if err := operators.VerifyIdentityEntry(entry, e, keys); err != nil {
		return nil, 0, identityRuleError(err)
	}
	if answer, status, err := standing(op, e); status != 0 || err != nil {
		return answer, status, err
	}
	switch inv.State(s.now()) {
	case "used":
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "invite_used", Message: "The invite code was used; a code works once"}
	case "expired":
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "invite_expired", Message: "The invite code lapsed: a code works for 30 days after it was made"}
	case "void":
		return nil, 0, inviteVoid("The invite code was voided")
	}
	// The identity stands while its sponsor stands as that organization.
	if !operators.CanSponsor(sponsor.IdentityKinds()) {
		return nil, 0, inviteVoid("The sponsor no longer counts as a domain, a GitHub account or a vouch of its own")
	}
	return ids.record(r.Context(), entry, op, store.Identity{
		Kind: e.Kind, Organization: inv.Organization, Subject: e.Sponsor, Invite: inv.Digest,
	})
}

// standing answers a proof of an identity kind the operator already holds:
// the same subject answers where it stands (200, counting nothing), another
// one is refused (409, one of each kind per operator). It answers status 0
// and no error when the operator holds no identity of the kind.
func standing(op store.Operator, e *operators.IdentityEntry) (any, int, error) {
	for _, held := range op.Identities {
		if held.Kind != e.Kind {
			continue
		}
		if held.Subject == e.Subject() {
			return identityAnswer(held), http.StatusOK, nil
		}
		return nil, 0, identityTaken(e.Kind, held.Subject, nil)
	}
	return nil, 0, nil
}

// record keeps, records and logs a proven identity, as every logged entry
// goes: PutSigned, the record naming it (AddIdentity, which uses a
// sponsored identity's invite code in the same commit), the operator's key
// entry if it is not logged yet, then the append. An entry that never
// reached the log is dropped with what it made.
func (ids *identities) record(ctx context.Context, entry map[string]any, op store.Operator, id store.Identity) (any, int, error) {
	s := ids.s
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	digest := canonical.Digest(signed)
	if err := s.store.PutSigned(ctx, digest, signed, nil); err != nil {
		if errors.Is(err, store.ErrDuplicate) {
			// This very entry is logged: a request that came first won.
			return ids.answerStanding(ctx, op.ID, id.Kind, err)
		}
		return nil, 0, err
	}
	id.Operator, id.Entry, id.Added = op.ID, digest, s.now()
	got, err := s.store.AddIdentity(ctx, id)
	if err != nil {
		// An identity that stands on this same entry is another request's,
		// still on its way to the log: leave it be.
		if !(errors.Is(err, store.ErrDuplicate) && got.Entry == digest) {
			s.dropUnbound(ctx, digest)
		}
		switch {
		case errors.Is(err, store.ErrDuplicate):
			return identityAnswer(got), http.StatusOK, nil
		case errors.Is(err, store.ErrIdentityTaken):
			return nil, 0, identityTaken(id.Kind, "", err)
		case errors.Is(err, store.ErrInviteUsed):
			return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "invite_used", Message: "The invite code was used; a code works once", Err: err}
		case errors.Is(err, store.ErrInviteVoid):
			return nil, 0, inviteVoid("The invite code lapsed or was voided")
		case errors.Is(err, store.ErrConsentUsed), errors.Is(err, store.ErrConsentVoid):
			return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "consent_void",
				Message: "The pairing code's consent was used, lapsed or voided meanwhile", Err: err}
		}
		return nil, 0, err
	}
	if err := s.journal.PublishKey(ctx, op); err != nil {
		s.dropUnbound(ctx, digest)
		return nil, 0, err
	}
	index, err := s.journal.Append(ctx, digest, signed, entry, map[string]any{"operator": op.ID, "organization": got.Organization})
	if err != nil {
		if appendedNothing(err) {
			s.dropUnbound(ctx, digest)
		}
		return nil, 0, err
	}
	got.Index = int64(index)
	return identityAnswer(got), http.StatusCreated, nil
}

// answerStanding answers with the identity of kind the operator holds now.
func (ids *identities) answerStanding(ctx context.Context, operator, kind string, cause error) (any, int, error) {
	op, err := ids.s.store.Operator(ctx, operator)
	if err != nil {
		return nil, 0, err
	}
	for _, held := range op.Identities {
		if held.Kind == kind {
			return identityAnswer(held), http.StatusOK, nil
		}
	}
	return nil, 0, cause
}

// dropUnbound undoes an entry that was put and never logged. A failure is
// only logged: the entry is then one of the store's Unbound ones, which
// the node reconciles with its log.
func (s *Server) dropUnbound(ctx context.Context, digest string) {
	if err := s.store.DropUnbound(context.WithoutCancel(ctx), digest); err != nil {
		s.logger.Warn("dropping an unlogged entry", "entry", digest, "err", err)
	}
}

// appendedNothing reports whether a failed logEntry left nothing in the
// log: the log refused the leaf before giving it an index.
func appendedNothing(err error) bool {
	return errors.Is(err, translog.ErrInvalidLeaf) || errors.Is(err, translog.ErrPushback) || errors.Is(err, translog.ErrClosed)
}

func identityAnswer(id store.Identity) map[string]any {
	var index any
	if id.Index != store.Unlogged {
		index = id.Index
	}
	return map[string]any{"operator": id.Operator, "kind": id.Kind, "organization": id.Organization, "index": index}
}

func identityTaken(kind, subject string, err error) *httpapi.Error {
	msg := fmt.Sprintf("The operator already holds a %s identity; one of each kind per operator", kind)
	if subject != "" {
		msg = fmt.Sprintf("The operator already holds a %s identity, %s; one of each kind per operator", kind, subject)
	}
	return &httpapi.Error{Status: http.StatusConflict, Code: "identity_taken", Message: msg, Err: err}
}

func inviteVoid(msg string) *httpapi.Error {
	return &httpapi.Error{Status: http.StatusConflict, Code: "invite_void", Message: msg}
}

func proofNotFound(format string, args ...any) *httpapi.Error {
	return &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: operators.ErrProofNotFound.Code(), Message: fmt.Sprintf(format, args...)}
}

// identityRuleError is ruleError with the status the spec gives a GitHub
// account too young to count: 403.
func identityRuleError(err error) error {
	if errors.Is(err, operators.ErrAccountTooNew) {
		return &httpapi.Error{Status: http.StatusForbidden, Code: operators.ErrAccountTooNew.Code(), Message: err.Error(), Err: err}
	}
	return ruleError(err)
}

// proofError maps a failed DNS or GitHub read: nothing there is 422
// proof_not_found, no answer is 503 with when to try again.
func proofError(err error) error {
	var ue *unavailableError
	switch {
	case errors.Is(err, errNoProof):
		return &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: operators.ErrProofNotFound.Code(), Message: err.Error(), Err: err}
	case errors.As(err, &ue):
		retry := ue.retryAfter
		if retry <= 0 {
			retry = 30 * time.Second
		}
		return &httpapi.Error{Status: http.StatusServiceUnavailable, Code: strings.ToLower(ue.service) + "_unavailable",
			Message:    ue.service + " did not answer the node; try again later",
			RetryAfter: max(1, int(retry.Round(time.Second)/time.Second)), Err: err}
	}
	return err
}

// makeInvite answers POST /api/v1/operators/{id}/invites with a signed
// invite {"type": "invite", "sponsor", "code", "sig"}: the node keeps the
// code, by its digest, for the sponsor's organization. The code is in the
// answer once, when it is made (201); the same invite again answers where
// it stands (200) without it.
func (ids *identities) makeInvite(r *http.Request) (any, int, error) {
	s := ids.s
	entry, op, err := s.entryCall(r)
	if err != nil {
		return nil, 0, err
	}
	key := op.Key()
	inv, err := operators.CheckInviteEntry(entry, operators.Signer{Operator: op.ID, Key: key.Key, KeyFamilies: op.KeyFamilies})
	if err != nil {
		return nil, 0, ruleError(err)
	}
	own, ok := op.Identity()
	if !ok {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "no_identity",
			Message: "Making invite codes takes an identity: prove a domain or a GitHub repository first"}
	}
	if err := operators.CheckCanSponsor(op.IdentityKinds()); err != nil {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "cannot_sponsor", Message: err.Error(), Err: err}
	}
	now := s.now()
	rec, err := s.store.CreateInvite(r.Context(), store.Invite{
		Digest: inv.Digest, Sponsor: op.ID, SponsorKey: key.Digest, SponsorSig: inv.SponsorSig,
		Organization: own.Organization, Created: now, Expires: operators.InviteExpires(now),
	}, vocabulary.InvitesPerOrg, vocabulary.InviteWindow)
	var limit *store.LimitError
	status := http.StatusCreated
	switch {
	case errors.Is(err, store.ErrDuplicate):
		if rec.Sponsor != op.ID {
			return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "code_taken", Message: "Another operator made this code; make a new one", Err: err}
		}
		status = http.StatusOK
	case errors.As(err, &limit):
		return nil, 0, &httpapi.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message:    fmt.Sprintf("Your organization made %d invite codes in the last 30 days, all it may", vocabulary.InvitesPerOrg),
			RetryAfter: max(1, int(limit.RetryAfter.Round(time.Second)/time.Second)), Err: err}
	case errors.Is(err, store.ErrKeyChanged):
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "key_changed", Message: "The operator's key changed meanwhile; sign with its current key", Err: err}
	case err != nil:
		return nil, 0, err
	}
	made, err := s.store.InvitesMade(r.Context(), rec.Organization, now.Add(-vocabulary.InviteWindow))
	if err != nil {
		return nil, 0, err
	}
	answer := inviteAnswer(rec, now)
	answer["invites_left"] = max(0, vocabulary.InvitesPerOrg-made)
	if status == http.StatusCreated {
		answer["code"] = inv.Code
	}
	return answer, status, nil
}

var inviteDigestPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// invite answers GET /api/v1/invites/{digest}: who made the code, the
// signature an invitee countersigns, and where it stands. The code itself
// is never shown.
func (ids *identities) invite(r *http.Request) (any, int, error) {
	digest := r.PathValue("digest")
	if !inviteDigestPattern.MatchString(digest) {
		return nil, 0, httpapi.BadRequest("bad_request", "%q is not an invite digest: sha256: and the 64 hex digits of the SHA-256 of the code", digest)
	}
	inv, err := ids.s.store.Invite(r.Context(), digest)
	if err != nil {
		return nil, 0, err
	}
	return inviteAnswer(inv, ids.s.now()), http.StatusOK, nil
}

func inviteAnswer(inv store.Invite, now time.Time) map[string]any {
	a := map[string]any{
		"invite":       inv.Digest,
		"sponsor":      inv.Sponsor,
		"sponsor_sig":  inv.SponsorSig,
		"organization": inv.Organization,
		"state":        inv.State(now),
		"created_at":   inv.Created.UTC().Format(time.RFC3339Nano),
		"expires_at":   inv.Expires.UTC().Format(time.RFC3339Nano),
		"used_by":      nil,
		"used_at":      nil,
	}
	if inv.UsedBy != "" {
		a["used_by"] = inv.UsedBy
		a["used_at"] = inv.UsedAt.UTC().Format(time.RFC3339Nano)
	}
	return a
}
