package vouchpage

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger/ledgerhttp"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/vocabulary"
)

// startVouch takes the form: it checks the CSRF token and the pairing
// code, keeps both for the sign-in under a new OAuth state, and sends the
// person to GitHub.
func (p *pages) startVouch(w http.ResponseWriter, r *http.Request, session string) view {
	op, v, ok := p.signInForm(r, session, "vouch")
	if !ok {
		return v
	}
	code := strings.TrimSpace(r.PostForm.Get("pairing"))
	code = strings.TrimPrefix(code, "#")
	if code != "" && operators.CheckPairingCode(code) != nil {
		return problem(http.StatusBadRequest, "That is not a pairing code",
			"A pairing code is what follows # in the link your agent sent you: pair: and 32 letters and digits. Paste it whole, or leave the field empty to vouch without it (your agent then accepts your vouch itself).")
	}
	state, ok := p.begin(signIn{session: session, operator: op.ID, pairing: code})
	if !ok {
		return problem(http.StatusServiceUnavailable, "Too many sign-ins at once", "Try again in a few minutes.")
	}
	return view{redirect: p.authorizeURL(r, state)}
}

// authorizeURL is GitHub's sign-in page for the sign-in under state.
func (p *pages) authorizeURL(r *http.Request, state string) string {
	q := url.Values{
		"client_id": {p.cfg.GitHub.ClientID}, "redirect_uri": {p.base(r) + "/vouch/github/callback"},
		"state": {state}, "allow_signup": {"false"},
	}
	target := p.cfg.GitHub.AuthorizeURL
	if strings.Contains(target, "?") {
		return target + "&" + q.Encode()
	}
	return target + "?" + q.Encode()
}

// signInForm checks what a form that starts a sign-in to what (vouch,
// approve a recovery) needs: a GitHub OAuth app, the form's CSRF token,
// the agent, and a sign-in left to the address.
func (p *pages) signInForm(r *http.Request, session, what string) (store.Operator, view, bool) {
	if p.cfg.GitHub.ClientID == "" {
		return store.Operator{}, problem(http.StatusServiceUnavailable, "GitHub sign-in is not set up here",
			"This node runs without a GitHub OAuth app (agora serve --github-client-id), so no one can "+what+" with GitHub on it yet."), false
	}
	if v, ok := p.checkForm(r, session); !ok {
		return store.Operator{}, v, false
	}
	op, v, ok := p.operator(r)
	if !ok {
		return store.Operator{}, v, false
	}
	// Each sign-in makes the node ask GitHub twice, so they count against
	// the address as proofs do.
	if v, ok := p.take(r); !ok {
		return store.Operator{}, v, false
	}
	return op, view{}, true
}

// take counts a sign-in or a domain against the address, as the API
// counts proofs: at most 60 an hour.
func (p *pages) take(r *http.Request) (view, bool) {
	ok, retry, err := p.d.Take(r.Context(), "vouch:ip:"+httpapi.ClientAddress(r), vocabulary.ProofsPerIP, time.Hour, p.d.Now())
	if err != nil {
		p.d.Logger.Error("counting a sign-in", "err", err)
		return problem(http.StatusInternalServerError, "Something went wrong", "Try again in a minute."), false
	}
	if !ok {
		return problem(http.StatusTooManyRequests, "Too many sign-ins from here",
			fmt.Sprintf("This address started %d sign-ins in the last hour. Try again in %d minutes.", vocabulary.ProofsPerIP, int(retry.Minutes())+1)), false
	}
	return view{}, true
}

// domain takes a domain the person names from the pairing link: with the
// code, the node watches for the record that proves the agent's key and
// logs the domain as its identity once it appears.
func (p *pages) domain(w http.ResponseWriter, r *http.Request, session string) view {
	if v, ok := p.checkForm(r, session); !ok {
		return v
	}
	op, v, ok := p.operator(r)
	if !ok {
		return v
	}
	domain := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(r.PostForm.Get("domain"))), ".")
	code := strings.TrimPrefix(strings.TrimSpace(r.PostForm.Get("pairing")), "#")
	if code == "" {
		return problem(http.StatusBadRequest, "The pairing code is needed",
			"A domain counts from this page only with the code after # in the link your agent sent you. Without it, give your agent the domain and it proves it itself.")
	}
	if v, ok := p.take(r); !ok {
		return v
	}
	res, err := p.d.WatchDomain(r.Context(), op.ID, domain, code)
	if err != nil {
		return p.vouchProblem(err)
	}
	return view{status: http.StatusOK, template: "domain", data: map[string]any{"Result": res}}
}

// cardVouch answers a card's vouch: this node has no payment provider.
func (p *pages) cardVouch(w http.ResponseWriter, r *http.Request, session string) view {
	if v, ok := p.checkForm(r, session); !ok {
		return v
	}
	return problem(http.StatusNotImplemented, "No card vouches here",
		"Vouching with a card needs a payment provider, and this node has none. Vouch with your GitHub account instead.")
}

// begin keeps a sign-in under a new state, dropping those that lapsed;
// false when too many are under way.
func (p *pages) begin(s signIn) (string, bool) {
	b := make([]byte, 24)
	rand.Read(b)
	state := base64.RawURLEncoding.EncodeToString(b)
	now := p.d.Now()
	s.expires = now.Add(signInLifetime)
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.signIns) >= maxSignIns {
		for k, v := range p.signIns {
			if !now.Before(v.expires) {
				delete(p.signIns, k)
			}
		}
		if len(p.signIns) >= maxSignIns {
			return "", false
		}
	}
	p.signIns[state] = s
	return state, true
}

// finish takes the sign-in under state, once: it must be this session's
// and not lapsed.
func (p *pages) finish(state, session string) (signIn, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.signIns[state]
	if !ok {
		return signIn{}, false
	}
	delete(p.signIns, state)
	return s, s.session == session && p.d.Now().Before(s.expires)
}

// callback is where GitHub sends the person back: it takes the sign-in,
// trades the code for a token, reads the account, and vouches with it.
func (p *pages) callback(w http.ResponseWriter, r *http.Request, session string) view {
	q := r.URL.Query()
	if q.Get("error") != "" {
		return problem(http.StatusBadRequest, "GitHub did not sign you in",
			"GitHub answered that the sign-in was not completed. Go back to your agent's page and try again.")
	}
	s, ok := p.finish(q.Get("state"), session)
	if !ok || q.Get("code") == "" {
		return problem(http.StatusBadRequest, "This sign-in has expired",
			"The sign-in did not start in this browser, was used already, or took longer than ten minutes. Go back to your agent's page and vouch again.")
	}
	account, err := p.gitHubAccount(r, q.Get("code"))
	if err != nil {
		p.d.Logger.Warn("a GitHub sign-in failed", "err", err)
		return problem(http.StatusBadGateway, "GitHub did not answer",
			"The node could not read your GitHub account. Try again in a few minutes.")
	}
	if s.approve != "" {
		return p.approved(r, s, account)
	}
	res, err := p.d.Vouch(r.Context(), ledgerhttp.VouchRequest{
		Operator: s.operator, Account: account.ID, Login: account.Login, Created: account.Created, Pairing: s.pairing,
	})
	if err != nil {
		return p.vouchProblem(err)
	}
	data := map[string]any{"Operator": res.Operator, "Voucher": res.Voucher, "Login": account.Login, "Note": res.Note}
	if res.Logged {
		data["Logged"] = true
		if res.Index >= 0 {
			data["Index"] = res.Index
		}
	}
	return view{status: http.StatusOK, template: "vouched", data: data}
}

// vouchProblem says why a vouch was refused, from the API's error.
func (p *pages) vouchProblem(err error) view {
	var ae *httpapi.Error
	switch {
	case errors.Is(err, operators.ErrAccountTooNew):
		return problem(http.StatusForbidden, "Your GitHub account is too new",
			"A GitHub account vouches once it is at least 90 days old, so fresh accounts can't stand in for organizations.")
	case errors.Is(err, store.ErrNotFound):
		return problem(http.StatusNotFound, "No such agent", "No agent on this node has the ID in this link.")
	case errors.As(err, &ae) && ae.Status < 500:
		return problem(ae.Status, "The vouch was not taken", ae.Message)
	}
	p.d.Logger.Error("recording a vouch", "err", err)
	return problem(http.StatusInternalServerError, "Something went wrong", "The node could not record your vouch. Try again in a minute.")
}

var tokenPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// account shows the request a mailed link names, with the form that
// confirms it; a link opened by a mail scanner changes nothing.
func (p *pages) account(w http.ResponseWriter, r *http.Request, session string) view {
	token := r.PathValue("token")
	if !tokenPattern.MatchString(token) {
		return badLink()
	}
	a, err := p.d.AccountRequest(r.Context(), token)
	if err != nil {
		return p.accountProblem(err)
	}
	return view{status: http.StatusOK, template: "account", data: map[string]any{"Account": a, "Token": token}}
}

// confirm lists the agent in the account, and shows the account's agents.
func (p *pages) confirm(w http.ResponseWriter, r *http.Request, session string) view {
	if v, ok := p.checkForm(r, session); !ok {
		return v
	}
	token := r.PathValue("token")
	if !tokenPattern.MatchString(token) {
		return badLink()
	}
	a, err := p.d.ConfirmAccount(r.Context(), token)
	if err != nil {
		return p.accountProblem(err)
	}
	return view{status: http.StatusOK, template: "account", data: map[string]any{"Account": a, "Token": token}}
}

func badLink() view {
	return problem(http.StatusNotFound, "This link is not one the node sent",
		"Open the link from the mail whole; if it was cut, copy all of it into the address bar.")
}

func (p *pages) accountProblem(err error) view {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return problem(http.StatusNotFound, "No such request",
			"This link's request is not on this node: the agent asked again since (open the newest mail), or the link was cut.")
	case errors.Is(err, store.ErrConflict):
		return problem(http.StatusGone, "This request has lapsed",
			"A request waits 7 days. Ask your agent to send a new one.")
	}
	p.d.Logger.Error("reading an account request", "err", err)
	return problem(http.StatusInternalServerError, "Something went wrong", "Try again in a minute.")
}
