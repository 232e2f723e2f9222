package node

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// fakeDNS is a real DNS server on loopback (miekg/dns over UDP) serving TXT
// records; names it does not hold answer NXDOMAIN.
type fakeDNS struct {
	addr string
	mu   sync.Mutex
	txt  map[string][]string // lowercase FQDN → records; guarded by mu
}

func startDNS(t *testing.T) *fakeDNS {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeDNS{addr: pc.LocalAddr().String(), txt: map[string][]string{}}
	started := make(chan struct{})
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(f.serve), NotifyStartedFunc: func() { close(started) }}
	go srv.ActivateAndServe()
	<-started
	t.Cleanup(func() { srv.Shutdown() })
	return f
}

func (f *fakeDNS) set(name string, records ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.txt[dns.Fqdn(strings.ToLower(name))] = records
}

func (f *fakeDNS) serve(w dns.ResponseWriter, q *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(q)
	m.Authoritative = true
	name := q.Question[0].Name
	f.mu.Lock()
	records, ok := f.txt[strings.ToLower(name)]
	f.mu.Unlock()
	if !ok {
		m.Rcode = dns.RcodeNameError
	}
	for _, r := range records {
		// Long values come as several strings, as DNS splits them.
		var parts []string
		for len(r) > 40 {
			parts, r = append(parts, r[:40]), r[40:]
		}
		m.Answer = append(m.Answer, &dns.TXT{
			Hdr: dns.RR_Header{Name: name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 30},
			Txt: append(parts, r),
		})
	}
	w.WriteMsg(m)
}

// fakeGitHub answers like GitHub's contents and users APIs.
type fakeGitHub struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string]string    // "owner/name" → its .sciencejournal file; guarded by mu
	accounts map[string]ghAccount // login → account; guarded by mu
}

type ghAccount struct {
	id      int64
	created time.Time
}

func startGitHub(t *testing.T) *fakeGitHub {
	t.Helper()
	g := &fakeGitHub{files: map[string]string{}, accounts: map[string]ghAccount{}}
	mux := http.NewServeMux()
	notFound := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}`)
	}
	mux.HandleFunc("GET /repos/{owner}/{repo}/contents/{path...}", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") == "" || r.Header.Get("X-GitHub-Api-Version") == "" {
			http.Error(w, `{"message":"Request forbidden by administrative rules"}`, http.StatusForbidden)
			return
		}
		repo := r.PathValue("owner") + "/" + r.PathValue("repo")
		if r.PathValue("owner") == "busy-lab" {
			w.Header().Set("Retry-After", "120")
			http.Error(w, `{"message":"API rate limit exceeded"}`, http.StatusTooManyRequests)
			return
		}
		g.mu.Lock()
		content, ok := g.files[repo]
		g.mu.Unlock()
		if !ok || r.PathValue("path") != ".sciencejournal" {
			notFound(w)
			return
		}
		// GitHub's base64 breaks lines every 60 characters.
		enc := base64.StdEncoding.EncodeToString([]byte(content))
		var lines []string
		for len(enc) > 60 {
			lines, enc = append(lines, enc[:60]), enc[60:]
		}
		body, _ := json.Marshal(map[string]any{
			"type": "file", "encoding": "base64", "size": len(content), "name": ".sciencejournal", "path": ".sciencejournal",
			"sha": "3d21ec53a331a6f037a91c368710b99387d012c1", "content": strings.Join(append(lines, enc), "\n") + "\n",
		})
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	mux.HandleFunc("GET /users/{login}", func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		a, ok := g.accounts[r.PathValue("login")]
		g.mu.Unlock()
		if !ok {
			notFound(w)
			return
		}
		body, _ := json.Marshal(map[string]any{
			"login": r.PathValue("login"), "id": a.id, "type": "Organization", "created_at": a.created.UTC().Format(time.RFC3339),
		})
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	g.Server = httptest.NewServer(mux)
	t.Cleanup(g.Close)
	return g
}

// set gives repository its .sciencejournal file and its owner the account.
func (g *fakeGitHub) set(repository, file string, owner ghAccount) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.files[repository] = file
	g.accounts[strings.Split(repository, "/")[0]] = owner
}

// identityNode starts a node that asks the fake DNS and GitHub.
func identityNode(t *testing.T) (*Node, *httptest.Server, *fakeDNS, *fakeGitHub) {
	t.Helper()
	d, g := startDNS(t), startGitHub(t)
	n, srv := testNodeWith(t, Config{DNSResolver: d.addr, GitHubAPI: g.URL})
	return n, srv, d, g
}

type testOperator struct {
	id  string
	key *hybrid.PrivateKey
}

func (o testOperator) keyDigest() string { return protocol.KeyDigest(o.key.Public().String()) }

func registerOperator(t testing.TB, url, name string) testOperator {
	t.Helper()
	key, err := hybrid.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	status, v := call(t, "POST", url+"/api/v1/operators", mustJSON(t, map[string]any{"entry": keyEntry(t, key), "name": name}))
	if status != http.StatusCreated {
		t.Fatalf("register %s: %d %v", name, status, v)
	}
	return testOperator{id: v.(map[string]any)["operator"].(string), key: key}
}

func (o testOperator) sign(t *testing.T, entry map[string]any) map[string]any {
	t.Helper()
	if err := protocol.Sign(entry, o.key); err != nil {
		t.Fatal(err)
	}
	return entry
}

// post sends a signed entry to one of the operator's routes, bare as the
// spec's client sends identity steps and invites.
func (o testOperator) post(t *testing.T, url, route string, entry map[string]any) (int, map[string]any) {
	t.Helper()
	status, v := call(t, "POST", url+"/api/v1/operators/"+o.id+"/"+route, mustJSON(t, entry))
	body, _ := v.(map[string]any)
	return status, body
}

func (o testOperator) proveDomain(t *testing.T, url, domain string) (int, map[string]any) {
	return o.post(t, url, "identity", o.sign(t, map[string]any{"type": "identity", "kind": "domain", "operator": o.id, "domain": domain}))
}

func (o testOperator) proveGitHub(t *testing.T, url, repo string) (int, map[string]any) {
	return o.post(t, url, "identity", o.sign(t, map[string]any{"type": "identity", "kind": "github", "operator": o.id, "repository": repo}))
}

func wantAnswer(t *testing.T, what string, status int, body map[string]any, wantStatus int, wantCode string) {
	t.Helper()
	if status != wantStatus || (wantCode != "" && body["code"] != wantCode) {
		t.Fatalf("%s: %d %v; want %d %s", what, status, body, wantStatus, wantCode)
	}
}

// TestIdentities proves a domain, a GitHub repository and an invite code
// for three operators through a real DNS server and a GitHub look-alike on
// loopback, checks the refusals the spec gives, and then checks each
// identity entry on the log: its receipt against the log's key, its leaf's
// organization, its signatures, and the operators' records.
func TestIdentities(t *testing.T) {
	t.Parallel()
	_, srv, d, g := identityNode(t)
	url := srv.URL
	a := registerOperator(t, url, "Domain Agent")
	b := registerOperator(t, url, "GitHub Agent")
	c := registerOperator(t, url, "Invited Agent")
	late := registerOperator(t, url, "Late Agent")

	// A domain. A record naming another key proves nothing.
	d.set("_sciencejournal.lab.example.org", "v=spf1 -all", operators.ProofLine(a.keyDigest()))
	d.set("_sciencejournal.elsewhere.example.net", operators.ProofLine(b.keyDigest()))
	status, body := a.proveDomain(t, url, "elsewhere.example.net")
	wantAnswer(t, "a TXT record naming another key", status, body, 422, "proof_not_found")
	status, body = a.proveDomain(t, url, "nothing.example.com")
	wantAnswer(t, "no TXT record at all", status, body, 422, "proof_not_found")
	status, domainID := a.proveDomain(t, url, "lab.example.org")
	wantAnswer(t, "prove a domain", status, domainID, 201, "")
	if domainID["organization"] != "example.org" || domainID["kind"] != "domain" || domainID["operator"] != a.id {
		t.Fatalf("domain identity: %v", domainID)
	}
	status, body = a.proveDomain(t, url, "lab.example.org")
	wantAnswer(t, "prove the same domain again", status, body, 200, "")
	if body["index"] != domainID["index"] {
		t.Errorf("proving again answered %v, not the identity that stands, %v", body, domainID)
	}
	status, body = a.proveDomain(t, url, "elsewhere.example.net")
	wantAnswer(t, "a second domain", status, body, 409, "identity_taken")

	// A GitHub repository. The account must be 90 days old.
	g.set("octo-lab/agents", "# agents of octo-lab\nsciencejournal-operator=sha256:"+strings.Repeat("0", 64)+"\n  "+operators.ProofLine(b.keyDigest())+"  \n",
		ghAccount{id: 583231, created: time.Now().AddDate(-3, 0, 0)})
	g.set("fresh-lab/agents", operators.ProofLine(late.keyDigest())+"\n", ghAccount{id: 99999999, created: time.Now().AddDate(0, 0, -10)})
	status, body = late.proveGitHub(t, url, "fresh-lab/agents")
	wantAnswer(t, "a GitHub account younger than 90 days", status, body, 403, "account_too_new")
	status, body = late.proveGitHub(t, url, "octo-lab/missing")
	wantAnswer(t, "a repository without the file", status, body, 422, "proof_not_found")
	status, body = late.proveGitHub(t, url, "busy-lab/agents")
	wantAnswer(t, "GitHub rate-limiting the node", status, body, 503, "github_unavailable")
	if !sameNumber(body["retry_after_seconds"], 120) {
		t.Errorf("GitHub's Retry-After did not come through: %v", body)
	}
	status, githubID := b.proveGitHub(t, url, "octo-lab/agents")
	wantAnswer(t, "prove a GitHub repository", status, githubID, 201, "")
	if githubID["organization"] != "github:583231" || githubID["kind"] != "github" {
		t.Fatalf("GitHub identity: %v", githubID)
	}

	// Invite codes: only an operator that counts as a domain, a GitHub
	// account or a vouch makes them.
	invite := func(o testOperator, code string) map[string]any {
		return o.sign(t, map[string]any{"type": "invite", "sponsor": o.id, "code": code})
	}
	code, err := operators.NewInviteCode()
	if err != nil {
		t.Fatal(err)
	}
	status, body = c.post(t, url, "invites", invite(c, code))
	wantAnswer(t, "sponsoring without an identity", status, body, 403, "no_identity")
	made := invite(a, code)
	status, v := call(t, "POST", url+"/api/v1/operators/"+a.id+"/invites", mustJSON(t, map[string]any{"entry": made}))
	body = v.(map[string]any)
	wantAnswer(t, "make an invite code", status, body, 201, "")
	if body["code"] != code || body["state"] != "open" || body["organization"] != "example.org" || !sameNumber(body["invites_left"], 2) {
		t.Fatalf("invite answer: %v", body)
	}
	status, body = a.post(t, url, "invites", made)
	wantAnswer(t, "the same invite again", status, body, 200, "")
	if _, shown := body["code"]; shown {
		t.Errorf("the code was answered twice: %v", body)
	}
	digest := operators.InviteDigest(code)
	status, v = call(t, "GET", url+"/api/v1/invites/"+digest, nil)
	shown := v.(map[string]any)
	if status != 200 || shown["sponsor"] != a.id || shown["sponsor_sig"] != made["sig"] || shown["state"] != "open" || shown["code"] != nil {
		t.Fatalf("GET invite: %d %v", status, shown)
	}

	// The invitee countersigns the invite, as the spec's accept_invite does.
	accept := func(o testOperator) (int, map[string]any) {
		return o.post(t, url, "identity", o.sign(t, map[string]any{
			"type": "identity", "kind": "sponsored", "operator": o.id,
			"sponsor": shown["sponsor"], "code": code, "sponsor_sig": shown["sponsor_sig"],
		}))
	}
	status, sponsoredID := accept(c)
	wantAnswer(t, "accept an invite", status, sponsoredID, 201, "")
	if sponsoredID["organization"] != "example.org" || sponsoredID["kind"] != "sponsored" {
		t.Fatalf("sponsored identity: %v", sponsoredID)
	}
	status, body = accept(late)
	wantAnswer(t, "a used invite", status, body, 409, "invite_used")
	_, v = call(t, "GET", url+"/api/v1/invites/"+digest, nil)
	if got := v.(map[string]any); got["state"] != "used" || got["used_by"] != c.id {
		t.Errorf("a used invite reads %v", got)
	}
	other, _ := operators.NewInviteCode()
	status, body = c.post(t, url, "invites", invite(c, other))
	wantAnswer(t, "sponsoring with only a sponsored identity", status, body, 403, "cannot_sponsor")
	status, v = call(t, "GET", url+"/api/v1/invites/"+operators.InviteDigest(other), nil)
	wantAnswer(t, "an unknown invite", status, v.(map[string]any), 404, "not_found")
	status, v = call(t, "GET", url+"/api/v1/invites/"+code, nil)
	wantAnswer(t, "an invite by its code rather than its digest", status, v.(map[string]any), 400, "bad_request")

	// Three codes per organization in 30 days.
	for i := range 3 {
		next, _ := operators.NewInviteCode()
		status, body = a.post(t, url, "invites", invite(a, next))
		if i < 2 {
			wantAnswer(t, "another invite code", status, body, 201, "")
		} else {
			wantAnswer(t, "a fourth invite code", status, body, 429, "rate_limited")
			if n, ok := body["retry_after_seconds"]; !ok || sameNumber(n, 0) {
				t.Errorf("no retry_after_seconds: %v", body)
			}
		}
	}

	// The log: every identity entry's receipt verifies against the log's
	// key, its leaf names the organization, and it is signed by the key its
	// operator held, which the log holds before it.
	_, v = call(t, "GET", url+"/api/v1/log", nil)
	pub := v.(map[string]any)["public_key"].(string)
	keys := map[string]string{}
	byOperator := map[string]testOperator{a.id: a, b.id: b, c.id: c, late.id: late}
	want := map[string]map[string]any{a.id: domainID, b.id: githubID, c.id: sponsoredID}
	for i := uint64(0); ; i++ {
		status, v := call(t, "GET", url+"/api/v1/log/entries/"+itoa(i), nil)
		if status == http.StatusNotFound {
			if i != 6 { // three key entries, three identities
				t.Fatalf("the log holds %d entries, want 6", i)
			}
			break
		}
		receipt, err := tlog.ParseReceipt(mustJSON(t, v))
		if err != nil {
			t.Fatalf("receipt %d: %v", i, err)
		}
		if err := tlog.VerifyReceipt(receipt, pub); err != nil {
			t.Fatalf("receipt %d does not verify: %v", i, err)
		}
		leaf := receipt.Leaf
		_, sv := call(t, "GET", url+"/api/v1/log/entries/"+itoa(i)+"/signed", nil)
		signed := sv.(map[string]any)["entry"].(map[string]any)
		if !protocol.MatchesLeafEntry(signed, leaf["entry"].(map[string]any)) {
			t.Fatalf("entry %d as signed does not match its leaf", i)
		}
		op := leaf["operator"].(string)
		switch signed["type"] {
		case "key":
			keys[op] = signed["key"].(string)
		case "identity":
			key, ok := keys[op]
			if !ok {
				t.Fatalf("identity %d logged before its operator's key", i)
			}
			if !protocol.Verify(signed, key) {
				t.Errorf("identity %d is not signed by %s's key", i, op)
			}
			w := want[op]
			if w == nil || !sameNumber(w["index"], int64(i)) || leaf["organization"] != w["organization"] || signed["kind"] != w["kind"] {
				t.Errorf("identity %d: leaf %v, answered %v", i, leaf, w)
			}
			if signed["kind"] == "sponsored" {
				payload, _ := operators.InvitePayload(signed["sponsor"].(string), signed["code"].(string))
				if !hybrid.Verify(signed["sponsor_sig"].(string), payload, keys[signed["sponsor"].(string)]) {
					t.Errorf("identity %d: sponsor_sig does not verify against the sponsor's logged key", i)
				}
			}
			delete(want, op)
		default:
			t.Errorf("entry %d: unexpected type %v", i, signed["type"])
		}
		if _, ok := byOperator[op]; !ok {
			t.Errorf("entry %d names unknown operator %s", i, op)
		}
	}
	if len(want) != 0 {
		t.Errorf("identities not on the log: %v", want)
	}

	// The operators' records show the identities.
	for _, tc := range []struct {
		o            testOperator
		kind, org    string
		index        any
		status       string
		identityKind []any
		invitesLeft  any
	}{
		{a, "domain", "example.org", domainID["index"], "active", []any{"domain"}, float64(0)},
		{b, "github", "github:583231", githubID["index"], "active", []any{"github"}, float64(3)},
		{c, "sponsored", "example.org", sponsoredID["index"], "active", []any{"sponsored"}, nil},
	} {
		_, v := call(t, "GET", url+"/api/v1/operators/"+tc.o.id, nil)
		rec := v.(map[string]any)
		id, _ := rec["identity"].(map[string]any)
		if id["kind"] != tc.kind || id["organization"] != tc.org || !sameNumber(id["index"], tc.index) || rec["status"] != tc.status {
			t.Errorf("record of %s: %v", tc.o.id, rec)
		}
		if got, _ := json.Marshal(rec["identities"]); !bytes.Equal(got, mustMarshal(tc.identityKind)) {
			t.Errorf("record of %s lists identities %s", tc.o.id, got)
		}
		if rec["invites_left"] != tc.invitesLeft {
			t.Errorf("record of %s: invites_left %v, want %v", tc.o.id, rec["invites_left"], tc.invitesLeft)
		}
	}
	_, v = call(t, "GET", url+"/api/v1/operators/"+late.id, nil)
	if rec := v.(map[string]any); rec["identity"] != nil {
		t.Errorf("refused proofs gave %s an identity: %v", late.id, rec)
	}
}

// TestIdentityProofLimit checks that proof attempts past the spec's limit
// (30 by one operator in 24 hours) answer 429 with when to try again,
// worked or not, and that an unreachable DNS server answers 503.
func TestIdentityProofLimit(t *testing.T) {
	t.Parallel()
	_, srv, _, _ := identityNode(t)
	o := registerOperator(t, srv.URL, "Eager Agent")
	for i := range 30 {
		status, body := o.proveDomain(t, srv.URL, "nowhere.example.org")
		wantAnswer(t, "attempt "+strconv.Itoa(i+1), status, body, 422, "proof_not_found")
	}
	entry := o.sign(t, map[string]any{"type": "identity", "kind": "domain", "operator": o.id, "domain": "nowhere.example.org"})
	resp, err := http.Post(srv.URL+"/api/v1/operators/"+o.id+"/identity", "application/json", bytes.NewReader(mustJSON(t, entry)))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	v, err := canonical.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	body := v.(map[string]any)
	wantAnswer(t, "attempt 31", resp.StatusCode, body, 429, "rate_limited")
	retry, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || retry <= 0 || retry > 24*60*60 || !sameNumber(body["retry_after_seconds"], int64(retry)) {
		t.Errorf("Retry-After %q, body %v", resp.Header.Get("Retry-After"), body)
	}

	// A node whose DNS server does not answer says so, and to try later.
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := pc.LocalAddr().String()
	pc.Close()
	n, err := New(context.Background(), Config{DataDir: dataDir(t), DNSResolver: dead})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(context.Background())
	deadSrv := httptest.NewServer(n.Handler())
	defer deadSrv.Close()
	p := registerOperator(t, deadSrv.URL, "Patient Agent")
	status, body := p.proveDomain(t, deadSrv.URL, "lab.example.org")
	wantAnswer(t, "an unreachable DNS server", status, body, 503, "dns_unavailable")
}

// sameNumber compares a number from a parsed answer with want.
func sameNumber(got any, want any) bool {
	g, err := json.Marshal(got)
	if err != nil {
		return false
	}
	w, _ := json.Marshal(want)
	return bytes.Equal(g, w)
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestIdentityBadInput checks that the identity and invite routes answer
// bad input with the spec's error body and a 4xx status, never a 500, and
// before asking DNS or GitHub.
func TestIdentityBadInput(t *testing.T) {
	t.Parallel()
	n, srv, _, _ := identityNode(t)
	o := registerOperator(t, srv.URL, "Careful Agent")
	stranger, _ := hybrid.GenerateKey()
	strangerID := protocol.OperatorID(stranger.Public().String())
	code, _ := operators.NewInviteCode()
	domain := func(fields map[string]any) []byte {
		entry := map[string]any{"type": "identity", "kind": "domain", "operator": o.id, "domain": "lab.example.org"}
		for k, v := range fields {
			entry[k] = v
		}
		return mustJSON(t, o.sign(t, entry))
	}
	tampered := o.sign(t, map[string]any{"type": "identity", "kind": "domain", "operator": o.id, "domain": "lab.example.org"})
	tampered["domain"] = "other.example.org"
	invite := func(sponsor, code string) []byte {
		return mustJSON(t, o.sign(t, map[string]any{"type": "invite", "sponsor": sponsor, "code": code}))
	}
	badInvite := o.sign(t, map[string]any{"type": "invite", "sponsor": o.id, "code": code})
	badInvite["code"], _ = operators.NewInviteCode()
	identity := "/api/v1/operators/" + o.id + "/identity"
	invites := "/api/v1/operators/" + o.id + "/invites"
	recovery := "/api/v1/operators/" + o.id + "/recovery"
	newKey, _ := hybrid.GenerateKey()
	recover := func(fields map[string]any) []byte {
		entry := map[string]any{"type": "key_recovery", "kind": "domain", "operator": o.id, "key": newKey.Public().String(), "domain": "lab.example.org", "since": 0}
		for k, v := range fields {
			entry[k] = v
			if v == nil {
				delete(entry, k) // a member left out
			}
		}
		if err := protocol.Sign(entry, newKey); err != nil {
			t.Fatal(err)
		}
		return mustJSON(t, map[string]any{"entry": entry})
	}
	byOldKey := o.sign(t, map[string]any{"type": "key_recovery", "kind": "domain", "operator": o.id, "key": newKey.Public().String(), "domain": "lab.example.org", "since": 0})
	admin := adminToken(t, n)
	consents := "/api/v1/operators/" + o.id + "/vouch-consents"
	account := "/api/v1/operators/" + o.id + "/account"
	pairing, _ := operators.NewPairingCode()
	consent := func(fields map[string]any) []byte {
		entry := map[string]any{"type": "vouch_consent", "operator": o.id, "pairing": operators.PairingDigest(pairing)}
		for k, v := range fields {
			entry[k] = v
		}
		return mustJSON(t, o.sign(t, entry))
	}
	tamperedConsent := o.sign(t, map[string]any{"type": "vouch_consent", "operator": o.id, "pairing": operators.PairingDigest(pairing)})
	tamperedConsent["pairing"] = operators.InviteDigest("another")
	attested, _ := operators.AttestVouch(o.id, "github:5", n.keys.log)
	vouch := func(fields map[string]any) []byte {
		entry := map[string]any{}
		for k, v := range attested {
			entry[k] = v
		}
		for k, v := range fields {
			entry[k] = v
		}
		return mustJSON(t, o.sign(t, entry))
	}
	paired, _ := operators.AttestPairedVouch(o.id, operators.VouchConsent{Pairing: operators.PairingDigest(pairing), Sig: "x"}, "github:5", n.keys.log)
	request := func(fields map[string]any) []byte {
		entry := map[string]any{"type": "account_request", "operator": o.id, "email": "person@example.org", "model_family": "claude", "model": "claude-test-1"}
		for k, v := range fields {
			if v == nil {
				delete(entry, k)
			} else {
				entry[k] = v
			}
		}
		return mustJSON(t, map[string]any{"entry": o.sign(t, entry)})
	}
	for _, tc := range []struct {
		name, method, path string
		body               []byte
		status             int
		code               string
	}{
		{"malformed JSON", "POST", identity, []byte(`{"type":`), 400, "invalid_json"},
		{"duplicate names", "POST", identity, []byte(`{"type":"identity","type":"identity"}`), 400, "invalid_json"},
		{"not an object", "POST", identity, []byte(`[1]`), 400, "bad_request"},
		{"entry of the wrong type", "POST", identity, []byte(`{"entry":"identity"}`), 400, "bad_request"},
		{"oversized body", "POST", identity, bytes.Repeat([]byte(" "), 2<<20), 413, "too_large"},
		{"bad operator ID", "POST", "/api/v1/operators/op:1/identity", domain(nil), 400, "bad_request"},
		{"unknown operator", "POST", "/api/v1/operators/" + strangerID + "/identity", domain(map[string]any{"operator": strangerID}), 404, "not_found"},
		{"unknown kind", "POST", identity, domain(map[string]any{"kind": "nonesuch"}), 400, "invalid_entry"},
		{"extra member", "POST", identity, domain(map[string]any{"model": "claude-test-1"}), 400, "invalid_entry"},
		{"another operator's entry", "POST", identity, domain(map[string]any{"operator": strangerID}), 403, "wrong_operator"},
		{"bad signature", "POST", identity, mustJSON(t, tampered), 422, "bad_signature"},
		{"domain in capitals", "POST", identity, domain(map[string]any{"domain": "Lab.Example.org"}), 422, "invalid_domain"},
		{"public suffix", "POST", identity, domain(map[string]any{"domain": "co.uk"}), 422, "invalid_domain"},
		{"not a repository", "POST", identity, mustJSON(t, o.sign(t, map[string]any{"type": "identity", "kind": "github", "operator": o.id, "repository": "no repository"})), 422, "invalid_repository"},
		{"an invitation", "POST", identity, mustJSON(t, o.sign(t, map[string]any{"type": "identity", "kind": "invited", "operator": o.id})), 422, "unsupported_identity"},
		{"an invite code of the wrong form", "POST", identity, mustJSON(t, o.sign(t, map[string]any{"type": "identity", "kind": "sponsored", "operator": o.id, "sponsor": strangerID, "code": "invite:ABC", "sponsor_sig": "x"})), 422, "invalid_invite"},
		{"an unknown invite code", "POST", identity, mustJSON(t, o.sign(t, map[string]any{"type": "identity", "kind": "sponsored", "operator": o.id, "sponsor": strangerID, "code": code, "sponsor_sig": "x"})), 404, "not_found"},
		{"invite of the wrong form", "POST", invites, invite(o.id, "invite:short"), 422, "invalid_invite"},
		{"invite for another sponsor", "POST", invites, invite(strangerID, code), 403, "wrong_operator"},
		{"invite with a bad signature", "POST", invites, mustJSON(t, badInvite), 422, "bad_signature"},
		{"invite of an unknown operator", "POST", "/api/v1/operators/" + strangerID + "/invites", invite(strangerID, code), 404, "not_found"},
		{"invite by its code", "GET", "/api/v1/invites/" + code, nil, 400, "bad_request"},
		{"unknown invite", "GET", "/api/v1/invites/" + operators.InviteDigest(code), nil, 404, "not_found"},

		{"recovery: malformed JSON", "POST", recovery, []byte(`{"entry":`), 400, "invalid_json"},
		{"recovery: not an object", "POST", recovery, []byte(`"key_recovery"`), 400, "bad_request"},
		{"recovery: oversized body", "POST", recovery, bytes.Repeat([]byte(" "), 2<<20), 413, "too_large"},
		{"recovery: bad operator ID", "POST", "/api/v1/operators/op:1/recovery", recover(nil), 400, "bad_request"},
		{"recovery: unknown operator", "POST", "/api/v1/operators/" + strangerID + "/recovery", recover(map[string]any{"operator": strangerID}), 404, "not_found"},
		{"recovery: unknown kind", "POST", recovery, recover(map[string]any{"kind": "sponsored"}), 400, "invalid_entry"},
		{"recovery: extra member", "POST", recovery, recover(map[string]any{"model": "claude-test-1"}), 400, "invalid_entry"},
		{"recovery: no since", "POST", recovery, recover(map[string]any{"since": nil}), 400, "invalid_entry"},
		{"recovery: negative since", "POST", recovery, recover(map[string]any{"since": -1}), 400, "invalid_entry"},
		{"recovery: fractional since", "POST", recovery, recover(map[string]any{"since": 1.5}), 400, "invalid_entry"},
		{"recovery: since as a string", "POST", recovery, recover(map[string]any{"since": "0"}), 400, "invalid_entry"},
		{"recovery: not a key", "POST", recovery, recover(map[string]any{"key": "ed25519-ml-dsa-44:00"}), 400, "invalid_entry"},
		{"recovery: another operator's", "POST", recovery, recover(map[string]any{"operator": strangerID}), 403, "wrong_operator"},
		{"recovery: signed by the old key", "POST", recovery, mustJSON(t, map[string]any{"entry": byOldKey}), 422, "bad_signature"},
		{"recovery: domain in capitals", "POST", recovery, recover(map[string]any{"domain": "Lab.Example.org"}), 422, "invalid_domain"},
		{"recovery: not a repository", "POST", recovery, recover(map[string]any{"kind": "github", "domain": nil, "repository": "no repository"}), 422, "invalid_repository"},
		{"recovery: no identity", "POST", recovery, recover(nil), 403, "no_identity"},
		{"recovery: vouched, a voucher of the wrong form", "POST", recovery, recover(map[string]any{"kind": "vouched", "domain": nil, "voucher": "github:octocat"}), 400, "invalid_entry"},
		{"recovery: vouched, no voucher", "POST", recovery, recover(map[string]any{"kind": "vouched", "domain": nil}), 400, "invalid_entry"},
		{"recovery: vouched, voucher_sig not a signature", "POST", recovery, recover(map[string]any{"kind": "vouched", "domain": nil, "voucher": "github:5", "voucher_sig": 5}), 400, "invalid_entry"},
		{"recovery: vouched by a card", "POST", recovery, recover(map[string]any{"kind": "vouched", "domain": nil, "voucher": "card:" + strings.Repeat("ab", 32)}), 422, "unsupported_identity"},
		{"recovery: vouched, no identity", "POST", recovery, recover(map[string]any{"kind": "vouched", "domain": nil, "voucher": "github:5"}), 403, "no_identity"},
		{"recovery: vouched, countersigned with no identity", "POST", recovery, recover(map[string]any{"kind": "vouched", "domain": nil, "voucher": "github:5", "voucher_sig": attested["voucher_sig"]}), 403, "no_identity"},
		{"recovery: no key", "GET", recovery, nil, 400, "bad_request"},
		{"recovery: a key that is not a digest", "GET", recovery + "?key=sha256:XYZ", nil, 400, "bad_request"},
		{"recovery: of an unknown operator", "GET", "/api/v1/operators/" + strangerID + "/recovery?key=" + o.keyDigest(), nil, 404, "not_found"},
		{"recovery: of a bad operator ID", "GET", "/api/v1/operators/op:1/recovery?key=" + o.keyDigest(), nil, 400, "bad_request"},
		{"reviewers' recovery: no token", "POST", "/api/v1/admin/recoveries", mustJSON(t, map[string]any{"operator": o.id, "key": newKey.Public().String(), "since": 0}), 401, "unauthorized"},
		{"reviewers' recovery: malformed JSON", "POST", "/api/v1/admin/recoveries", []byte(`{`), 400, "invalid_json"},
		{"reviewers' recovery: no operator", "POST", "/api/v1/admin/recoveries", mustJSON(t, map[string]any{"key": newKey.Public().String(), "since": 0}), 400, "bad_request"},
		{"reviewers' recovery: a secret key", "POST", "/api/v1/admin/recoveries", mustJSON(t, map[string]any{"operator": o.id, "key": "00ff", "since": 0}), 400, "bad_request"},
		{"reviewers' recovery: negative since", "POST", "/api/v1/admin/recoveries", mustJSON(t, map[string]any{"operator": o.id, "key": newKey.Public().String(), "since": -3}), 400, "bad_request"},
		{"reviewers' recovery: unknown operator", "POST", "/api/v1/admin/recoveries", mustJSON(t, map[string]any{"operator": strangerID, "key": newKey.Public().String(), "since": 0}), 404, "not_found"},
		{"reviewers' recovery: no identity", "POST", "/api/v1/admin/recoveries", mustJSON(t, map[string]any{"operator": o.id, "key": newKey.Public().String(), "since": 0}), 403, "no_identity"},
		{"consent, malformed JSON", "POST", consents, []byte(`{"type":`), 400, "invalid_json"},
		{"consent naming the code itself", "POST", consents, consent(map[string]any{"pairing": pairing}), 400, "invalid_entry"},
		{"consent with a model", "POST", consents, consent(map[string]any{"model": "claude-test-1"}), 400, "invalid_entry"},
		{"consent for another operator", "POST", consents, consent(map[string]any{"operator": strangerID}), 403, "wrong_operator"},
		{"consent with a bad signature", "POST", consents, mustJSON(t, tamperedConsent), 422, "bad_signature"},
		{"consent of an unknown operator", "POST", "/api/v1/operators/" + strangerID + "/vouch-consents", consent(map[string]any{"operator": strangerID}), 404, "not_found"},
		{"vouches, bad operator ID", "GET", "/api/v1/operators/op:1/vouches", nil, 400, "bad_request"},
		{"vouches of an unknown operator", "GET", "/api/v1/operators/" + strangerID + "/vouches", nil, 404, "not_found"},
		{"vouch with a bad voucher", "POST", identity, vouch(map[string]any{"voucher": "github:octocat"}), 400, "invalid_entry"},
		{"vouch the log did not attest", "POST", identity, vouch(map[string]any{"voucher": "github:6"}), 422, "bad_signature"},
		{"vouch with no one's vouch waiting", "POST", identity, vouch(nil), 404, "not_found"},
		{"vouch by card", "POST", identity, vouch(map[string]any{"voucher": "card:" + strings.Repeat("ab", 32)}), 422, "unsupported_identity"},
		{"paired vouch sent by the agent", "POST", identity, mustJSON(t, paired), 422, "unsupported_identity"},
		{"paired vouch with a sig too", "POST", identity, mustJSON(t, o.sign(t, paired)), 400, "invalid_entry"},
		{"account, malformed JSON", "POST", account, []byte(`{"entry":`), 400, "invalid_json"},
		{"account, not an address", "POST", account, request(map[string]any{"email": "Person <person@example.org>"}), 422, "invalid_email"},
		{"account, an address too long", "POST", account, request(map[string]any{"email": strings.Repeat("a", 250) + "@x.org"}), 422, "invalid_email"},
		{"account, no model", "POST", account, request(map[string]any{"model": nil}), 422, "model_missing"},
		{"account, another family", "POST", account, request(map[string]any{"model_family": "gpt"}), 403, "key_family_mismatch"},
		{"account, another operator", "POST", account, request(map[string]any{"operator": strangerID}), 403, "wrong_operator"},
		{"account on a node without mail", "POST", account, request(nil), 503, "mail_unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The admin route is sent the admin token, but where the row
			// checks that it is refused without one.
			var header []string
			if strings.HasPrefix(tc.path, "/api/v1/admin/") && tc.code != "unauthorized" {
				header = []string{"Authorization", admin}
			}
			status, v := call(t, tc.method, srv.URL+tc.path, tc.body, header...)
			body, _ := v.(map[string]any)
			if status != tc.status || body["code"] != tc.code {
				t.Fatalf("%s %s: %d %v; want %d %q", tc.method, tc.path, status, v, tc.status, tc.code)
			}
			if msg, _ := body["error"].(string); msg == "" {
				t.Errorf("no error message: %v", v)
			}
		})
	}
}

// TestIdentityProofReplay sends one failed proof again and again, as
// anyone who saw it could: the copies never spend the operator's 30 tries
// a day, so its own next proof is still tried.
func TestIdentityProofReplay(t *testing.T) {
	t.Parallel()
	_, srv, dns, _ := identityNode(t)
	o := registerOperator(t, srv.URL, "Watched Agent")
	entry := o.sign(t, map[string]any{"type": "identity", "kind": "domain", "operator": o.id, "domain": "nowhere.example.org"})
	for i := range 35 {
		status, body := o.post(t, srv.URL, "identity", entry)
		wantAnswer(t, "copy "+strconv.Itoa(i+1), status, body, 422, "proof_not_found")
	}
	dns.set("_sciencejournal.lab.example.org", "sciencejournal-operator="+o.keyDigest())
	status, body := o.proveDomain(t, srv.URL, "lab.example.org")
	wantAnswer(t, "the operator's own proof after the copies", status, body, 201, "")
}
