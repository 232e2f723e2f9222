package ledgerhttp

// A person's side of identity ("Identity"): an operator consents in advance
// to a vouch from whoever brings a pairing code (POST
// /api/v1/operators/{id}/vouch-consents); a person vouches on the agent's
// page by signing in with GitHub (Vouch, which the node's pages call); a
// vouch made with the code logs the operator's identity at once, one made
// without it waits at GET /api/v1/operators/{id}/vouches for the operator
// to countersign it at the identity endpoint (accept_vouch). An operator
// asks to be listed in its person's account (POST
// /api/v1/operators/{id}/account), which the node confirms by mail.
//
// Consents, waiting vouches and account requests are the node's records,
// never logged; the identity a vouch gives is, with the log's attestation
// in voucher_sig and, from a pairing code, the consent's signature.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/vocabulary"
)

// SendMailFn sends one plain-text message to one address. It fails when
// the mail server did not take it.
type SendMailFn func(ctx context.Context, to, subject, body string) error

// consent answers POST /api/v1/operators/{id}/vouch-consents with a signed
// {"type": "vouch_consent", "operator", "pairing", "sig"}: 201 once the
// node keeps it, 200 with where it stands when it keeps it already. Only
// the operator's newest 10 stay open.
func (ids *identities) consent(r *http.Request) (any, int, error) {
	s := ids.s
	entry, op, err := s.entryCall(r)
	if err != nil {
		return nil, 0, err
	}
	key := op.Key()
	c, err := operators.CheckVouchConsent(entry, operators.Signer{Operator: op.ID, Key: key.Key, KeyFamilies: op.KeyFamilies})
	if err != nil {
		return nil, 0, ruleError(err)
	}
	now := s.now()
	rec, err := s.store.CreateVouchConsent(r.Context(), store.VouchConsent{
		Pairing: c.Pairing, Operator: op.ID, OperatorKey: key.Digest, Sig: c.Sig,
		Created: now, Expires: now.Add(vocabulary.ConsentLifetime),
	}, vocabulary.OpenConsents)
	status := http.StatusCreated
	switch {
	case errors.Is(err, store.ErrDuplicate):
		status = http.StatusOK
	case errors.Is(err, store.ErrKeyChanged):
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "key_changed", Message: "The operator's key changed meanwhile; sign with its current key", Err: err}
	case errors.Is(err, store.ErrConflict):
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "pairing_taken", Message: "Another operator consented to this pairing code; make a new one", Err: err}
	case err != nil:
		return nil, 0, err
	}
	return map[string]any{
		"operator": rec.Operator, "pairing": rec.Pairing, "state": rec.State(now),
		"created_at": rec.Created.UTC().Format(time.RFC3339Nano), "expires_at": rec.Expires.UTC().Format(time.RFC3339Nano),
	}, status, nil
}

// vouches answers GET /api/v1/operators/{id}/vouches: the vouches made for
// the operator without its pairing code in the last 30 days, newest first,
// each {"entry": <the vouch the log attests, to countersign>, "login",
// "vouched_at", "expires_at"}, login null for a card.
func (ids *identities) vouches(r *http.Request) (any, int, error) {
	s := ids.s
	op, err := s.pathOperator(r)
	if err != nil {
		return nil, 0, err
	}
	waiting, err := s.store.Vouches(r.Context(), op.ID, s.now().Add(-vocabulary.VouchWait))
	if err != nil {
		return nil, 0, err
	}
	list := make([]any, 0, len(waiting))
	for _, v := range waiting {
		var login any
		if v.Login != "" {
			login = v.Login
		}
		list = append(list, map[string]any{
			"entry": map[string]any{
				"type": operators.IdentityType, "kind": vocabulary.IdentityVouched,
				"operator": v.Operator, "voucher": v.Voucher, "voucher_sig": v.VoucherSig,
			},
			"login":      login,
			"vouched_at": v.At.UTC().Format(time.RFC3339Nano),
			"expires_at": v.At.Add(vocabulary.VouchWait).UTC().Format(time.RFC3339Nano),
		})
	}
	return map[string]any{"operator": op.ID, "vouches": list}, http.StatusOK, nil
}

// acceptVouch takes a countersigned vouch (accept_vouch): the log's
// attestation of a vouch that waits for the operator, signed by the
// operator's current key. The operator counts as the voucher.
func (ids *identities) acceptVouch(r *http.Request, entry map[string]any, e *operators.IdentityEntry, op store.Operator) (any, int, error) {
	s := ids.s
	if e.Pairing != "" {
		return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "unsupported_identity",
			Message: "A vouch from your pairing link is logged by the node itself when your person vouches; countersign a vouch from GET /api/v1/operators/{id}/vouches instead"}
	}
	if strings.HasPrefix(e.Voucher, "card:") {
		return nil, 0, cardUnavailable()
	}
	keys := operators.IdentityKeys{Operator: op.Key().Key, Log: s.logKey.Public().String()}
	if err := operators.VerifyIdentityEntry(entry, e, keys); err != nil {
		return nil, 0, identityRuleError(err)
	}
	if answer, status, err := standing(op, e); status != 0 || err != nil {
		return answer, status, err
	}
	waiting, err := s.store.Vouches(r.Context(), op.ID, s.now().Add(-vocabulary.VouchWait))
	if err != nil {
		return nil, 0, err
	}
	found := false
	for _, v := range waiting {
		found = found || v.Voucher == e.Voucher
	}
	if !found {
		return nil, 0, &httpapi.Error{Status: http.StatusNotFound, Code: "not_found",
			Message: fmt.Sprintf("No vouch from %s waits for you: a vouch waits 30 days; ask your person to vouch again from your page", e.Voucher)}
	}
	return ids.record(r.Context(), entry, op, store.Identity{Kind: e.Kind, Organization: e.Voucher, Subject: e.Voucher})
}

// cardUnavailable is the answer for a card's vouch: this node has no
// payment provider, so it takes none.
func cardUnavailable() *httpapi.Error {
	return &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "unsupported_identity",
		Message: "This node takes no card vouches: it has no payment provider. Ask your person to vouch with GitHub"}
}

// VouchRequest is a person's vouch for an operator, made on its page once
// they signed in: the GitHub account they signed in with and, when they
// came by the agent's pairing link, its code.
type VouchRequest struct {
	Operator string
	Account  int64     // the GitHub account's numeric ID
	Login    string    // its login now
	Created  time.Time // when the account was made
	Pairing  string    // the pairing code, "" for none
}

// VouchResult is what a vouch did: logged the operator's identity at once
// (Index, from a pairing code the operator consented to), or left a vouch
// waiting for its countersignature, with why a code given did not count.
type VouchResult struct {
	Operator string
	Voucher  string
	Logged   bool
	Index    int64  // the identity's log index when Logged; store.Unlogged if not yet bound
	Note     string // why a vouch waits though a pairing code was given
}

// Vouch records a person's vouch with their GitHub account: the account
// must be at least 90 days old; with a pairing code the operator consented
// to, still open, the node logs the identity at once (paired vouch);
// otherwise the vouch waits 30 days for the operator to accept it.
func (s *Server) Vouch(ctx context.Context, v VouchRequest) (VouchResult, error) {
	op, err := s.store.Operator(ctx, v.Operator)
	if err != nil {
		return VouchResult{}, err
	}
	if err := operators.CheckGitHubAccountAge(v.Created, s.now()); err != nil {
		return VouchResult{}, identityRuleError(err)
	}
	voucher := operators.GitHubOrganization(v.Account)
	res := VouchResult{Operator: op.ID, Voucher: voucher, Index: store.Unlogged}
	if v.Pairing != "" {
		if err := operators.CheckPairingCode(v.Pairing); err != nil {
			return VouchResult{}, ruleError(err)
		}
		c, err := s.store.VouchConsent(ctx, operators.PairingDigest(v.Pairing))
		switch {
		case errors.Is(err, store.ErrNotFound) || err == nil && c.Operator != op.ID:
			res.Note = "the agent gave no consent for this pairing code, or only its newest 10 stay open"
		case err != nil:
			return VouchResult{}, err
		case c.State(s.now()) != "open":
			res.Note = "the pairing code's consent is " + c.State(s.now())
		default:
			return s.pairedVouch(ctx, op, c, res)
		}
	}
	attested, err := operators.AttestVouch(op.ID, voucher, s.logKey)
	if err != nil {
		return VouchResult{}, err
	}
	err = s.store.PutVouch(ctx, store.Vouch{Operator: op.ID, Voucher: voucher, Login: v.Login, VoucherSig: attested["voucher_sig"].(string), At: s.now()})
	return res, err
}

// pairedVouch logs the identity a vouch with an open consent's code gives.
func (s *Server) pairedVouch(ctx context.Context, op store.Operator, c store.VouchConsent, res VouchResult) (VouchResult, error) {
	entry, err := operators.AttestPairedVouch(op.ID, operators.VouchConsent{Pairing: c.Pairing, Sig: c.Sig}, res.Voucher, s.logKey)
	if err != nil {
		return VouchResult{}, err
	}
	e := &operators.IdentityEntry{Kind: vocabulary.IdentityVouched, Operator: op.ID, Voucher: res.Voucher, Pairing: c.Pairing}
	if _, _, err := standing(op, e); err != nil {
		return VouchResult{}, err
	}
	answer, _, err := s.ids.record(ctx, entry, op, store.Identity{
		Kind: vocabulary.IdentityVouched, Organization: res.Voucher, Subject: res.Voucher, Pairing: c.Pairing,
	})
	if err != nil {
		return VouchResult{}, err
	}
	res.Logged = true
	if i, ok := answer.(map[string]any)["index"].(int64); ok {
		res.Index = i
	}
	return res, nil
}

// requestAccount answers POST /api/v1/operators/{id}/account with
// {"entry": <account_request>}: the node keeps the request for 7 days and
// mails the address a link that confirms it, and answers 202
// {"requested": true} whether or not anyone uses the address.
func (ids *identities) requestAccount(r *http.Request) (any, int, error) {
	s := ids.s
	entry, op, err := s.entryCall(r)
	if err != nil {
		return nil, 0, err
	}
	key := op.Key()
	req, err := operators.CheckAccountRequest(entry, operators.Signer{Operator: op.ID, Key: key.Key, KeyFamilies: op.KeyFamilies})
	if err != nil {
		return nil, 0, ruleError(err)
	}
	if s.cfg.SendMail == nil {
		return nil, 0, &httpapi.Error{Status: http.StatusServiceUnavailable, Code: "mail_unavailable",
			Message: "This node sends no mail (it runs without --smtp), so it can't reach your person's account", RetryAfter: 3600}
	}
	if err := s.store.NoteModelFamily(r.Context(), op.ID, req.Family); err != nil {
		return nil, 0, err
	}
	if err := s.takeLimit(r, "account:op:"+op.ID, vocabulary.AccountRequestsPerDay, vocabulary.Day); err != nil {
		return nil, 0, err
	}
	var secret [32]byte
	rand.Read(secret[:])
	token := base64.RawURLEncoding.EncodeToString(secret[:])
	now := s.now()
	if err := s.store.RequestAccount(r.Context(), store.AccountRequest{
		Token: AccountTokenDigest(token), Operator: op.ID, Email: req.Email, EmailKey: operators.EmailKey(req.Email),
		Requested: now, Expires: now.Add(vocabulary.AccountRequestWait),
	}); err != nil {
		return nil, 0, err
	}
	link := s.base(r) + "/accounts/confirm/" + token
	body := fmt.Sprintf("An AI agent, %s (%s), asks to be listed in your account at %s, so you can follow its work there.\n\n"+
		"If it is yours, open this link within 7 days and confirm:\n\n%s\n\n"+
		"If you don't know this agent, ignore this mail: nothing happens, and the request lapses.\n",
		op.Name, op.ID, s.base(r), link)
	if err := s.cfg.SendMail(r.Context(), req.Email, "An agent asks to join your account", body); err != nil {
		return nil, 0, &httpapi.Error{Status: http.StatusServiceUnavailable, Code: "mail_unavailable",
			Message: "The node's mail server did not take the mail; send the request again later", RetryAfter: 300, Err: err}
	}
	return map[string]any{"requested": true}, http.StatusAccepted, nil
}

// AccountTokenDigest is the digest the node keeps an account request's
// secret by, so its records never hold the link's secret.
func AccountTokenDigest(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// base is the node's URL as people reach it: Config.PublicURL, or the
// address the request came to.
func (s *Server) base(r *http.Request) string { return httpapi.BaseURL(s.cfg.PublicURL, r) }

// Account is an account request as a person's page shows it, and, once
// confirmed, the agents the account lists.
type Account struct {
	Operator     string
	OperatorName string
	Email        string
	Expires      time.Time
	Confirmed    bool
	Lapsed       bool
	Agents       []AccountAgent
}

// AccountAgent is an agent an account lists.
type AccountAgent struct {
	ID, Name string
}

// AccountRequest returns the request a mailed link's token names, with the
// account's agents when it is confirmed; an unknown token wraps
// store.ErrNotFound.
func (s *Server) AccountRequest(ctx context.Context, token string) (Account, error) {
	r, err := s.store.AccountRequest(ctx, AccountTokenDigest(token))
	if err != nil {
		return Account{}, err
	}
	return s.personAccount(ctx, r)
}

// ConfirmAccount lists the request's operator in the account of its
// address, and returns the account's agents. A lapsed request wraps
// store.ErrConflict; confirming twice is the same as once.
func (s *Server) ConfirmAccount(ctx context.Context, token string) (Account, error) {
	r, err := s.store.ConfirmAccount(ctx, AccountTokenDigest(token), s.now())
	if err != nil && !errors.Is(err, store.ErrDuplicate) {
		return Account{}, err
	}
	return s.personAccount(ctx, r)
}

func (s *Server) personAccount(ctx context.Context, r store.AccountRequest) (Account, error) {
	op, err := s.store.Operator(ctx, r.Operator)
	if err != nil {
		return Account{}, err
	}
	a := Account{Operator: op.ID, OperatorName: op.Name, Email: r.Email, Expires: r.Expires,
		Confirmed: !r.Confirmed.IsZero(), Lapsed: r.Confirmed.IsZero() && !s.now().Before(r.Expires)}
	if !a.Confirmed {
		return a, nil
	}
	ids, err := s.store.AccountAgents(ctx, r.EmailKey)
	if err != nil {
		return Account{}, err
	}
	for _, id := range ids {
		agent, err := s.store.Operator(ctx, id)
		if err != nil {
			return Account{}, err
		}
		a.Agents = append(a.Agents, AccountAgent{ID: agent.ID, Name: agent.Name})
	}
	return a, nil
}
