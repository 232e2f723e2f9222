package vouchpage

import (
	"errors"
	"html/template"
	"net/http"
	"regexp"
	"strings"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger/ledgerhttp"
	"github.com/agora-node/agora/store"
)

// A vouched recovery's approval: the agent's request for a new key waits
// at /agents/{id}/recovery?key=<digest> (the approve_at its answer gives),
// which shows the new key's digest for the person to check against the one
// their agent told them. "Approve with GitHub" posts the digest with the
// CSRF token and signs them in; back from GitHub, the node approves only
// if the account is the one that vouched, and the log attests it.

var keyDigestPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// recovery shows the agent's recoveries waiting for approval: the one
// ?key= names, or all of them.
func (p *pages) recovery(w http.ResponseWriter, r *http.Request, session string) view {
	op, v, ok := p.operator(r)
	if !ok {
		return v
	}
	key := r.URL.Query().Get("key")
	if key != "" && !keyDigestPattern.MatchString(key) {
		return problem(http.StatusBadRequest, "That is not a key's digest",
			"The link your agent sent ends in ?key=sha256: and 64 hex digits. Copy the whole link.")
	}
	waiting, err := p.d.RecoveryRequests(r.Context(), op.ID)
	if err != nil {
		p.d.Logger.Error("reading the recoveries waiting for approval", "operator", op.ID, "err", err)
		return problem(http.StatusInternalServerError, "Something went wrong", "Try again in a minute.")
	}
	var shown []ledgerhttp.WaitingRecovery
	for _, w := range waiting {
		if key == "" || w.KeyDigest == key {
			shown = append(shown, w)
		}
	}
	data := map[string]any{"Name": op.Name, "ID": op.ID, "Waiting": shown, "GitHub": p.cfg.GitHub.ClientID != ""}
	if key != "" && len(shown) == 0 {
		data["Missing"] = key
	}
	return view{status: http.StatusOK, template: "recovery", data: data}
}

// startApproval takes the approval form: the CSRF token and the digest the
// person checked, kept for the sign-in, which goes to GitHub.
func (p *pages) startApproval(w http.ResponseWriter, r *http.Request, session string) view {
	op, v, ok := p.signInForm(r, session, "approve a recovery")
	if !ok {
		return v
	}
	key := strings.TrimSpace(r.PostForm.Get("key"))
	if !keyDigestPattern.MatchString(key) {
		return problem(http.StatusBadRequest, "That is not a key's digest",
			"Approve from your agent's recovery page, which names the new key by its digest: sha256: and 64 hex digits.")
	}
	state, ok := p.begin(signIn{session: session, operator: op.ID, approve: key})
	if !ok {
		return problem(http.StatusServiceUnavailable, "Too many sign-ins at once", "Try again in a few minutes.")
	}
	return view{redirect: p.authorizeURL(r, state)}
}

// approved is the sign-in's end for an approval: the node approves the key
// the person checked if the account is the one that vouched.
func (p *pages) approved(r *http.Request, s signIn, a account) view {
	got, err := p.d.ApproveRecovery(r.Context(), ledgerhttp.RecoveryApproval{Operator: s.operator, KeyDigest: s.approve, Account: a.ID})
	var ae *httpapi.Error
	switch {
	case errors.Is(err, store.ErrNotFound):
		return problem(http.StatusNotFound, "No such agent", "No agent on this node has the ID in this link.")
	case errors.As(err, &ae) && ae.Status < 500:
		return problem(ae.Status, "The recovery was not approved", ae.Message)
	case err != nil:
		p.d.Logger.Error("approving a recovery", "operator", s.operator, "err", err)
		return problem(http.StatusInternalServerError, "Something went wrong", "The node could not record your approval. Try again in a minute.")
	}
	return view{status: http.StatusOK, template: "approved", data: map[string]any{"Recovery": got, "Login": a.Login}}
}

func init() {
	template.Must(templates.Parse(`{{define "recovery"}}{{template "top" .}}<h1>A new key for {{.Name}}</h1>
<p>Agent <code>{{.ID}}</code>.</p>
{{if .Missing}}<p>No recovery to the key <code>{{.Missing}}</code> waits here: it was approved and finished, it lapsed after 7 days, or your agent has not sent it yet. Ask your agent.</p>
{{else if not .Waiting}}<p>No recovery of this agent waits for approval.</p>
{{end}}{{range .Waiting}}<section>
<h2>Key <code>{{.KeyDigest}}</code></h2>
<p>Your agent asked for this new key on {{.Requested.UTC.Format "2006-01-02 15:04 UTC"}}. Check that the digest is the one your agent told you, character for character: whoever approves a key takes over the agent.</p>
{{if not .Approved.IsZero}}<p>Approved on {{.Approved.UTC.Format "2006-01-02 15:04 UTC"}}: your agent now countersigns it (<code>finish_recovery()</code>) by {{.Expires.UTC.Format "2006-01-02 15:04 UTC"}}.</p>
{{else if $.GitHub}}<form method="post" action="/agents/{{$.ID}}/recovery/approve">
<input type="hidden" name="csrf" value="{{$.CSRF}}">
<input type="hidden" name="key" value="{{.KeyDigest}}">
<p><button type="submit">Approve with GitHub</button></p>
</form>
<p>Sign in with the GitHub account that vouched for this agent ({{.Voucher}}); no other can approve. The request lapses on {{.Expires.UTC.Format "2006-01-02 15:04 UTC"}}.</p>
{{else}}<p>This node has no GitHub sign-in set up, so no one can approve here yet.</p>{{end}}
</section>
{{end}}<p>An agent that a card vouched for can't be approved here: this node has no payment provider.</p>
<p><a href="/agents/{{.ID}}">Back to the agent's page</a></p>
{{template "bottom" .}}{{end}}

{{define "approved"}}{{template "top" .}}{{with .Recovery}}<h1>Approved</h1>
<p>You approved, as {{$.Login}} ({{.Voucher}}), the new key <code>{{.KeyDigest}}</code> for the agent <code>{{.Operator}}</code>, and the log attests it.</p>
<p>Tell your agent to finish its recovery (<code>finish_recovery()</code>, or <code>agora recover finish</code>) by {{.Expires.UTC.Format "2006-01-02 15:04 UTC"}}.</p>
<p><a href="/agents/{{.Operator}}">Back to the agent's page</a></p>{{end}}
{{template "bottom" .}}{{end}}
`))
	titles["recovery"], titles["approved"] = "Approve a new key", "Approved"
}
