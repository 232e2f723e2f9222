package node

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
)

const vocabularyDay = 24 * time.Hour

// recoveryOf signs a recovery of o to newKey through kind's subject.
func recoveryOf(t *testing.T, o testOperator, kind, subject string, since uint64, newKey *hybrid.PrivateKey) map[string]any {
	t.Helper()
	entry, err := protocol.SignKeyRecovery(o.id, kind, subject, since, newKey)
	if err != nil {
		t.Fatal(err)
	}
	return entry
}

func newKey(t *testing.T) *hybrid.PrivateKey {
	t.Helper()
	k, err := hybrid.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// logSize reads the log's published size.
func logSize(t *testing.T, base string) uint64 {
	t.Helper()
	_, v := call(t, "GET", base+"/api/v1/log", nil)
	head := v.(map[string]any)["tree_head"].(map[string]any)
	return uint64(head["size"].(float64))
}

// TestKeyRecovery loses an operator's key and takes its ID back through its
// domain, on a real node asking a real DNS server on loopback: the
// refusals the spec gives first (no identity, an identity it does not
// count as, a sponsored one, a record that names the old key, the wait
// after a failure, since out of its window, a signature by another key),
// then the recovery, which disowns the preregistration the lost key signed
// after since. The old key signs nothing after it, the new one does, and
// every entry on the log verifies under the key its operator held when it
// was logged. A GitHub recovery checks the repository still belongs to the
// account, and the node's reviewers recover an invited operator.
func TestKeyRecovery(t *testing.T) {
	t.Parallel()
	clock := &testClock{}
	d, g := startDNS(t), startGitHub(t)
	n, srv := testNodeWith(t, Config{DNSResolver: d.addr, GitHubAPI: g.URL, clock: clock.now,
		OpenAfter: -1, Qualification: "off", CanaryRate: -1, FreeBundles: FreeAll})
	base := srv.URL
	a := registerOperator(t, base, "Lab Agent")
	d.set("_sciencejournal.lab.example.org", operators.ProofLine(a.keyDigest()))
	if status, body := a.proveDomain(t, base, "lab.example.org"); status != http.StatusCreated {
		t.Fatalf("prove a domain: %d %v", status, body)
	}
	plans := 0
	prereg := func(o testOperator, key *hybrid.PrivateKey) (int, map[string]any) {
		plans++
		e := map[string]any{"type": "preregistration", "operator": o.id, "plan": "sha256:" + strings.Repeat(string(rune('a'+plans)), 64),
			"report_by": clock.now().AddDate(0, 2, 0).Format(time.DateOnly)}
		if err := protocol.Sign(e, key); err != nil {
			t.Fatal(err)
		}
		status, v := call(t, "POST", base+"/api/v1/preregistrations", mustJSON(t, e))
		m, _ := v.(map[string]any)
		return status, m
	}
	since := logSize(t, base)
	if status, body := prereg(a, a.key); status != http.StatusCreated {
		t.Fatalf("a preregistration by the key to be lost: %d %v", status, body)
	}
	bundleBody, _ := signedBody(t, a.key, sumBundle(t, a.keyDigest(), "claude", "Work of a lost key", true), nil)
	status, sub := call(t, "POST", base+"/api/v1/bundles", bundleBody)
	if status != http.StatusAccepted {
		t.Fatalf("a bundle by the key to be lost: %d %v", status, sub)
	}
	sealed := sub.(map[string]any)["sealed"]

	// The key is lost. A new one, and the refusals.
	lost := a.key
	fresh := newKey(t)
	freshDigest := protocol.KeyDigest(fresh.Public().String())
	nobody := registerOperator(t, base, "No Identity")
	status, body := nobody.post(t, base, "recovery", recoveryOf(t, nobody, "domain", "lab.example.org", 0, newKey(t)))
	wantAnswer(t, "recovering without an identity", status, body, 403, "no_identity")
	status, body = a.post(t, base, "recovery", recoveryOf(t, a, "github", "octo-lab/agents", since, fresh))
	wantAnswer(t, "recovering through an identity it does not count as", status, body, 403, "wrong_identity")
	status, body = a.post(t, base, "recovery", recoveryOf(t, a, "domain", "other.example.org", since, fresh))
	wantAnswer(t, "recovering through another domain", status, body, 403, "wrong_identity")
	signedByLost := recoveryOf(t, a, "domain", "lab.example.org", since, fresh)
	if err := protocol.Sign(signedByLost, lost); err != nil {
		t.Fatal(err)
	}
	status, body = a.post(t, base, "recovery", signedByLost)
	wantAnswer(t, "a recovery the new key did not sign", status, body, 422, "bad_signature")
	status, body = a.post(t, base, "recovery", recoveryOf(t, a, "domain", "lab.example.org", 1<<40, fresh))
	wantAnswer(t, "since past the log's size", status, body, 422, "invalid_since")
	status, body = a.post(t, base, "recovery", recoveryOf(t, a, "domain", "lab.example.org", since, fresh))
	wantAnswer(t, "the record still names the lost key", status, body, 422, "proof_not_found")
	d.set("_sciencejournal.lab.example.org", operators.ProofLine(freshDigest))
	status, body = a.post(t, base, "recovery", recoveryOf(t, a, "domain", "lab.example.org", since, fresh))
	wantAnswer(t, "trying again at once after a failure", status, body, 429, "rate_limited")
	clock.advance(31 * time.Second)

	status, got := call(t, "GET", base+"/api/v1/operators/"+a.id+"/recovery?key="+freshDigest, nil)
	if status != http.StatusOK || got.(map[string]any)["recovery"] != nil {
		t.Fatalf("a recovery before any: %d %v", status, got)
	}
	recovery := recoveryOf(t, a, "domain", "lab.example.org", since, fresh)
	status, rec := a.post(t, base, "recovery", recovery)
	wantAnswer(t, "the recovery", status, rec, 201, "")
	disowned := rec["disowned"].(map[string]any)
	if rec["key_digest"] != freshDigest || rec["kind"] != "domain" || !sameNumber(disowned["preregistration"], 1) || !sameNumber(disowned["bundle"], 1) {
		t.Fatalf("the recovery answered %v", rec)
	}
	// The lost key's bundle is withdrawn, the log signing the withdrawal.
	status, got = call(t, "GET", base+"/api/v1/sealed/"+itoa(uint64(sealed.(float64))), nil)
	if status != http.StatusOK || got.(map[string]any)["state"] != "withdrawn" {
		t.Fatalf("the disowned bundle: %d %v", status, got)
	}
	recoveryIndex := rec["index"]
	status, body = a.post(t, base, "recovery", recovery)
	if status != http.StatusOK || body["index"] != recoveryIndex || !sameNumber(body["disowned"].(map[string]any)["bundle"], 1) {
		t.Errorf("the same recovery again: %d %v", status, body)
	}
	status, got = call(t, "GET", base+"/api/v1/operators/"+a.id+"/recovery?key="+freshDigest, nil)
	shown, _ := got.(map[string]any)["recovery"].(map[string]any)
	if status != http.StatusOK || shown == nil || shown["index"] != recoveryIndex || shown["state"] != "logged" || shown["entry"].(map[string]any)["sig"] != recovery["sig"] {
		t.Fatalf("GET the recovery: %d %v", status, got)
	}

	// The old key signs nothing again; the new one signs for the operator.
	if status, body := prereg(a, lost); status != http.StatusUnprocessableEntity || body["code"] != "bad_signature" {
		t.Errorf("the lost key after the recovery: %d %v", status, body)
	}
	a.key = fresh
	if status, body := prereg(a, fresh); status != http.StatusCreated {
		t.Fatalf("the new key after the recovery: %d %v", status, body)
	}

	// GitHub: the repository must still belong to the account.
	b := registerOperator(t, base, "Repo Agent")
	g.set("octo-lab/agents", operators.ProofLine(b.keyDigest())+"\n", ghAccount{id: 583231, created: time.Now().AddDate(-2, 0, 0)})
	if status, body := b.proveGitHub(t, base, "octo-lab/agents"); status != http.StatusCreated {
		t.Fatalf("prove a repository: %d %v", status, body)
	}
	bFresh := newKey(t)
	g.set("octo-lab/agents", operators.ProofLine(protocol.KeyDigest(bFresh.Public().String()))+"\n", ghAccount{id: 777, created: time.Now().AddDate(-2, 0, 0)})
	status, body = b.post(t, base, "recovery", recoveryOf(t, b, "github", "octo-lab/agents", logSize(t, base), bFresh))
	wantAnswer(t, "a repository that changed owner", status, body, 403, "wrong_identity")
	clock.advance(31 * time.Second)
	g.set("octo-lab/agents", operators.ProofLine(protocol.KeyDigest(bFresh.Public().String()))+"\n", ghAccount{id: 583231, created: time.Now().AddDate(-2, 0, 0)})
	status, body = b.post(t, base, "recovery", recoveryOf(t, b, "github", "octo-lab/agents", logSize(t, base), bFresh))
	wantAnswer(t, "a GitHub recovery", status, body, 201, "")
	b.key = bFresh
	clock.advance(31 * vocabularyDay)
	status, body = b.post(t, base, "recovery", recoveryOf(t, b, "github", "octo-lab/agents", 0, newKey(t)))
	wantAnswer(t, "since more than 30 days back", status, body, 422, "invalid_since")

	// An invited operator: its reviewers recover it, the log signing.
	c := invitedVerifier(t, n, base, "Invited Agent", "claude")
	cFresh := newKey(t)
	status, body = c.post(t, base, "recovery", c.sign(t, map[string]any{"type": "key_recovery", "kind": "invited", "operator": c.id,
		"key": cFresh.Public().String(), "since": float64(logSize(t, base))}))
	wantAnswer(t, "an invited operator's own recovery", status, body, 403, "reviewers_recover")
	recover := func(o testOperator, key string) (int, map[string]any) {
		status, v := call(t, "POST", base+"/api/v1/admin/recoveries", mustJSON(t, map[string]any{"operator": o.id, "key": key, "since": logSize(t, base)}),
			"Authorization", adminToken(t, n))
		m, _ := v.(map[string]any)
		return status, m
	}
	status, body = recover(a, newKey(t).Public().String())
	wantAnswer(t, "reviewers recovering an operator with a domain", status, body, 403, "wrong_identity")
	status, body = recover(c.testOperator, fresh.Public().String())
	wantAnswer(t, "a key another operator holds", status, body, 409, "key_used")
	status, body = recover(c.testOperator, cFresh.Public().String())
	wantAnswer(t, "the reviewers' recovery", status, body, 201, "")
	c.key = cFresh

	// Every entry verifies under the key its operator held when it was
	// logged: the lost keys before the recoveries, the new ones after.
	checkSignaturesFollowKeys(t, n, base, map[string][]string{
		a.id: {lost.Public().String(), fresh.Public().String()},
	})
}

// checkSignaturesFollowKeys audits the log and checks that every entry an
// operator signed verifies under the key the log gave it last before the
// entry: its key entry, then each rotation and recovery, whose keys are
// read from the entries. want names, for some operators, the keys they
// must have held in order.
func checkSignaturesFollowKeys(t *testing.T, n *Node, base string, want map[string][]string) {
	t.Helper()
	leaves, entries, _ := loggedEntries(t, n, base, nil)
	held := map[string][]string{}
	logKey := n.keys.log.Public().String()
	for i, leaf := range leaves {
		op, _ := leaf["operator"].(string)
		e := entries[i]
		typ, _ := e["type"].(string)
		keys := held[op]
		switch {
		case typ == "key":
			held[op] = []string{e["key"].(string)}
			continue
		case typ == protocol.KeyRecoveryType:
			signer := e["key"].(string)
			if e["kind"] == "invited" {
				signer = logKey
			}
			if !protocol.Verify(e, signer) {
				t.Errorf("entry %d, a recovery, is not signed by the key it must be", i)
			}
			if e["kind"] == "vouched" {
				rc, err := operators.CheckRecoveryEntry(e, op)
				if sig, _ := e["voucher_sig"].(string); err != nil || !operators.VerifyRecoveryApproval(rc, sig, logKey) {
					t.Errorf("entry %d, a vouched recovery, does not carry the log's attestation of its approval: %v", i, err)
				}
			}
			held[op] = append(keys, e["key"].(string))
			continue
		case op == "" || (typ == "identity" && e["kind"] == "invited"):
			if !protocol.Verify(e, logKey) {
				t.Errorf("entry %d (%s) is not signed by the log's key", i, typ)
			}
			continue
		case len(keys) == 0:
			t.Errorf("entry %d (%s) by %s, which has no key on the log", i, typ, op)
			continue
		}
		if typ == "identity" && e["pairing"] != nil {
			// A paired vouch: the log attests it, the consent's signature completes it.
			id, err := operators.CheckIdentityEntry(e, op)
			if err == nil {
				err = operators.VerifyIdentityEntry(e, id, operators.IdentityKeys{Operator: keys[len(keys)-1], Log: logKey})
			}
			if err != nil {
				t.Errorf("entry %d, a paired vouch, does not verify under the log's key and the consent's: %v", i, err)
			}
			continue
		}
		if typ == protocol.KeyRotationType {
			if !protocol.VerifyKeyRotation(e, keys[len(keys)-1]) {
				t.Errorf("entry %d, a rotation, is not signed by the key before it", i)
			}
			held[op] = append(keys, e["key"].(string))
			continue
		}
		if !protocol.Verify(e, keys[len(keys)-1]) {
			t.Errorf("entry %d (%s) by %s does not verify under the key it held then", i, typ, op)
		}
	}
	for op, keys := range want {
		if strings.Join(held[op], ",") != strings.Join(keys, ",") {
			t.Errorf("%s held %d keys on the log, want %d", op, len(held[op]), len(keys))
		}
	}
	if len(leaves) == 0 {
		t.Fatal("an empty log")
	}
}

// TestLibraryBundleOfRecoveredAuthor: a library bundle's chain of keys
// holds rotations only, each signed by the key before, and a recovery is
// not one, so a bundle holding a recovered author's records is refused
// with the reason, not exported unverifiable.
func TestLibraryBundleOfRecoveredAuthor(t *testing.T) {
	t.Parallel()
	n, base, ids, actors := examplesNode(t)
	if status, v := call(t, "GET", base+"/api/bundles/"+ids["merge"], nil); status != http.StatusOK {
		t.Fatalf("the bundle before the recovery: %d %v", status, v)
	}
	owner := actors["owner"]
	status, v := call(t, "POST", base+"/api/v1/admin/recoveries", mustJSON(t, map[string]any{
		"operator": owner.id, "key": newKey(t).Public().String(), "since": logSize(t, base)}), "Authorization", adminToken(t, n))
	if status != http.StatusCreated {
		t.Fatalf("the reviewers' recovery: %d %v", status, v)
	}
	status, v = call(t, "GET", base+"/api/bundles/"+ids["merge"], nil)
	if body, _ := v.(map[string]any); status != http.StatusConflict || body["code"] != "author_recovered" {
		t.Fatalf("the bundle after the recovery: %d %v", status, v)
	}
}
