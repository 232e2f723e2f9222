package node

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/internal/standins"
	"github.com/agora-node/agora/ledger/vouchpage"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
)

// vouchedOperator registers an operator and has a person, signed in with
// the GitHub stand-in as account, vouch for it from its pairing link: the
// node logs the vouched identity at once.
func vouchedOperator(t *testing.T, base string, g *standins.GitHub, name string, account standins.Account) testOperator {
	t.Helper()
	o := registerOperator(t, base, name)
	code, _ := operators.NewPairingCode()
	status, body := o.post(t, base, "vouch-consents", o.sign(t, map[string]any{"type": "vouch_consent", "operator": o.id, "pairing": operators.PairingDigest(code)}))
	wantAnswer(t, "a consent", status, body, 201, "")
	p := newPerson(t)
	_, page := p.get(base + "/agents/" + o.id + "#" + code)
	g.SignInAs(account)
	if resp, page := p.post(base+"/agents/"+o.id+"/vouch", url.Values{"csrf": {formToken(t, page)}, "pairing": {code}}); resp.StatusCode != 200 || !strings.Contains(page, "Done") {
		t.Fatalf("the vouch: %d\n%s", resp.StatusCode, page)
	}
	return o
}

// approve has a person open approveAt, check the digest it shows, and
// approve it signing in with the GitHub stand-in as account: the page the
// sign-in ends on.
func approve(t *testing.T, g *standins.GitHub, approveAt, digest string, account standins.Account) (int, string) {
	t.Helper()
	p := newPerson(t)
	resp, page := p.get(approveAt)
	if resp.StatusCode != 200 || !strings.Contains(page, digest) || !strings.Contains(page, "Approve with GitHub") {
		t.Fatalf("the approval page: %d\n%s", resp.StatusCode, page)
	}
	g.SignInAs(account)
	u, _ := url.Parse(approveAt)
	resp, page = p.post(u.Scheme+"://"+u.Host+u.Path+"/approve", url.Values{"csrf": {formToken(t, page)}, "key": {digest}})
	return resp.StatusCode, page
}

// TestVouchedRecovery runs the spec's vouched recovery end to end on a real
// node, its person signing in through the GitHub stand-in: the agent loses
// its key and asks with the new one (202, approve_at, nothing logged);
// countersigning before the approval is refused; another GitHub account
// cannot approve; the account that vouched approves the digest it checked
// on the agent's page, and the log attests it in voucher_sig; the new key
// countersigns the entry GET .../recovery?key= shows, and the node logs the
// recovery, disowning what the lost key signed from since on. The old key
// then signs nothing, the new one does, and every entry verifies under the
// key its operator held when it was logged. A recovery lapses 7 days after
// it was asked for, and an approved one 7 days after the approval.
func TestVouchedRecovery(t *testing.T) {
	t.Parallel()
	clock := &testClock{}
	g := standins.StartGitHub(t)
	authorize, token, user := g.Endpoints()
	n, srv := testNodeWith(t, Config{clock: clock.now, OpenAfter: -1, Qualification: "off", CanaryRate: -1,
		GitHubSignIn: vouchpage.GitHub{AuthorizeURL: authorize, TokenURL: token, UserURL: user, ClientID: standins.ClientID, ClientSecret: standins.ClientSecret}})
	base := srv.URL
	person := standins.Account{ID: 9001, Login: "octo-person", Created: time.Now().AddDate(-2, 0, 0)}
	stranger := standins.Account{ID: 9002, Login: "someone-else", Created: time.Now().AddDate(-2, 0, 0)}
	a := vouchedOperator(t, base, g, "Vouched Agent", person)
	if _, page := newPerson(t).get(base + "/agents/" + a.id); !strings.Contains(page, `href="/agents/`+a.id+`/recovery"`) {
		t.Errorf("the agent page does not link to where a new key is approved:\n%s", page)
	}
	plans := 0
	preregister := func(signer testOperator) (int, map[string]any) {
		plans++
		e := signer.sign(t, map[string]any{"type": "preregistration", "operator": signer.id, "plan": "sha256:" + strings.Repeat(string(rune('a'+plans)), 64),
			"report_by": clock.now().AddDate(0, 2, 0).Format(time.DateOnly)})
		status, v := call(t, "POST", base+"/api/v1/preregistrations", mustJSON(t, e))
		m, _ := v.(map[string]any)
		return status, m
	}
	since := logSize(t, base)
	if status, body := preregister(a); status != http.StatusCreated {
		t.Fatalf("a preregistration by the key to be lost: %d %v", status, body)
	}

	// The key is lost: the new one asks for the voucher's approval.
	lost, fresh := a.key, newKey(t)
	freshDigest := protocol.KeyDigest(fresh.Public().String())
	status, body := a.post(t, base, "recovery", recoveryOf(t, a, "vouched", "github:9002", since, fresh))
	wantAnswer(t, "a recovery through another account", status, body, 403, "wrong_identity")
	size := logSize(t, base)
	request := recoveryOf(t, a, "vouched", "github:9001", since, fresh)
	status, body = a.post(t, base, "recovery", request)
	wantAnswer(t, "the request for approval", status, body, 202, "")
	approveAt, _ := body["approve_at"].(string)
	if body["state"] != "waiting" || body["key_digest"] != freshDigest || body["approved_at"] != nil ||
		approveAt != "/agents/"+a.id+"/recovery?key="+url.QueryEscape(freshDigest) || body["entry"].(map[string]any)["voucher_sig"] != nil {
		t.Fatalf("the request answered %v", body)
	}
	if logSize(t, base) != size {
		t.Errorf("the request was logged")
	}
	status, got := call(t, "GET", base+"/api/v1/operators/"+a.id+"/recovery?key="+freshDigest, nil)
	if shown, _ := got.(map[string]any)["recovery"].(map[string]any); status != 200 || shown["state"] != "waiting" || shown["approve_at"] != approveAt {
		t.Fatalf("GET the waiting recovery: %d %v", status, got)
	}
	early := map[string]any{}
	for k, v := range request {
		early[k] = v
	}
	early["voucher_sig"] = lost.Sign([]byte("not an approval"))
	status, body = a.post(t, base, "recovery", signedBy(t, early, fresh))
	wantAnswer(t, "countersigning before the approval", status, body, 409, "not_approved")

	// Another GitHub account cannot approve; the one that vouched can.
	approveAt = base + approveAt // the node's address plus approve_at
	status, page := approve(t, g, approveAt, freshDigest, stranger)
	if status != http.StatusForbidden || !strings.Contains(page, "did not vouch for this agent") {
		t.Fatalf("another account approving: %d\n%s", status, page)
	}
	status, page = approve(t, g, approveAt, freshDigest, person)
	if status != 200 || !strings.Contains(page, "Approved") || !strings.Contains(page, freshDigest) {
		t.Fatalf("the voucher approving: %d\n%s", status, page)
	}
	status, got = call(t, "GET", base+"/api/v1/operators/"+a.id+"/recovery?key="+freshDigest, nil)
	shown, _ := got.(map[string]any)["recovery"].(map[string]any)
	entry, _ := shown["entry"].(map[string]any)
	if status != 200 || shown["state"] != "approved" || shown["approved_at"] == nil || entry["voucher_sig"] == nil || entry["sig"] != nil {
		t.Fatalf("GET the approved recovery: %d %v", status, got)
	}
	rc, err := operators.CheckRecoveryEntry(signedBy(t, entry, fresh), a.id)
	if err != nil || !operators.VerifyRecoveryApproval(rc, entry["voucher_sig"].(string), n.keys.log.Public().String()) {
		t.Fatalf("the approval is not the log's attestation: %v", err)
	}

	// Countersigned wrongly, then rightly.
	forged := map[string]any{}
	for k, v := range entry {
		forged[k] = v
	}
	forged["voucher_sig"] = n.keys.log.Sign([]byte("another approval"))
	status, body = a.post(t, base, "recovery", signedBy(t, forged, fresh))
	wantAnswer(t, "a voucher_sig the log did not make for it", status, body, 422, "bad_signature")
	final := signedBy(t, entry, fresh)
	status, rec := a.post(t, base, "recovery", final)
	wantAnswer(t, "the countersigned recovery", status, rec, 201, "")
	if rec["kind"] != "vouched" || rec["key_digest"] != freshDigest || !sameNumber(rec["disowned"].(map[string]any)["preregistration"], 1) {
		t.Fatalf("the recovery answered %v", rec)
	}
	status, body = a.post(t, base, "recovery", final)
	if status != 200 || body["index"] != rec["index"] {
		t.Errorf("the same recovery again: %d %v", status, body)
	}
	status, got = call(t, "GET", base+"/api/v1/operators/"+a.id+"/recovery?key="+freshDigest, nil)
	if shown, _ := got.(map[string]any)["recovery"].(map[string]any); status != 200 || shown["state"] != "logged" || shown["index"] != rec["index"] {
		t.Fatalf("GET the logged recovery: %d %v", status, got)
	}
	if status, body := preregister(a); status != http.StatusUnprocessableEntity || body["code"] != "bad_signature" {
		t.Errorf("the lost key after the recovery: %d %v", status, body)
	}
	a.key = fresh
	if status, body := preregister(a); status != http.StatusCreated {
		t.Fatalf("the new key after the recovery: %d %v", status, body)
	}
	checkSignaturesFollowKeys(t, n, base, map[string][]string{a.id: {lost.Public().String(), fresh.Public().String()}})

	// Lapsing: 7 days to approve, then 7 to countersign.
	b := vouchedOperator(t, base, g, "Slow Agent", standins.Account{ID: 9003, Login: "slow-person", Created: time.Now().AddDate(-2, 0, 0)})
	voucher := standins.Account{ID: 9003, Login: "slow-person", Created: time.Now().AddDate(-2, 0, 0)}
	late, later := newKey(t), newKey(t)
	status, body = b.post(t, base, "recovery", recoveryOf(t, b, "vouched", "github:9003", logSize(t, base), late))
	wantAnswer(t, "a request", status, body, 202, "")
	lateAt := base + body["approve_at"].(string)
	status, body = b.post(t, base, "recovery", recoveryOf(t, b, "vouched", "github:9003", logSize(t, base), later))
	wantAnswer(t, "a second request", status, body, 202, "")
	approved := base + body["approve_at"].(string)
	if status, page := approve(t, g, approved, protocol.KeyDigest(later.Public().String()), voucher); status != 200 {
		t.Fatalf("approving the second: %d\n%s", status, page)
	}
	clock.advance(7*vocabularyDay + time.Minute)
	status, got = call(t, "GET", base+"/api/v1/operators/"+b.id+"/recovery?key="+protocol.KeyDigest(late.Public().String()), nil)
	if shown, _ := got.(map[string]any)["recovery"].(map[string]any); status != 200 || shown["state"] != "expired" {
		t.Fatalf("GET a lapsed request: %d %v", status, got)
	}
	p := newPerson(t)
	if _, page := p.get(lateAt); !strings.Contains(page, "lapsed after 7 days") || strings.Contains(page, "Approve with GitHub") {
		t.Errorf("the page of a lapsed request:\n%s", page)
	}
	_, got = call(t, "GET", base+"/api/v1/operators/"+b.id+"/recovery?key="+protocol.KeyDigest(later.Public().String()), nil)
	lapsed := got.(map[string]any)["recovery"].(map[string]any)
	status, body = b.post(t, base, "recovery", signedBy(t, lapsed["entry"].(map[string]any), later))
	wantAnswer(t, "countersigning 7 days after the approval", status, body, 409, "expired")
}

// signedBy returns a copy of entry signed by key over everything but sig.
func signedBy(t *testing.T, entry map[string]any, key interface {
	Sign([]byte) string
}) map[string]any {
	t.Helper()
	out := map[string]any{}
	for k, v := range entry {
		if k != "sig" {
			out[k] = v
		}
	}
	payload, err := protocol.SigningPayload(out)
	if err != nil {
		t.Fatal(err)
	}
	out["sig"] = key.Sign(payload)
	return out
}
