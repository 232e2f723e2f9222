package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
)

var recoverHint = regexp.MustCompile(`put (sciencejournal-operator=sha256:[0-9a-f]{64}) in the TXT record _sciencejournal\.example\.org`)

// TestRecoverCommands is a recovery end to end from the CLI, against a real
// node asking a DNS server on loopback: an operator with a domain sponsors
// a guest, loses its key file, recovers through its domain (the first run
// makes the new key and says which record to set), and then signs with the
// new key: a second invite, which another operator accepts, and a
// rotation. 'agora log verify' then checks the whole log, the recovery by
// the reference monitor's rules and every signature after it under the
// new key.
func TestRecoverCommands(t *testing.T) {
	dnsServer, dnsAddr := startTXTServer(t)
	url, _ := startNodeWith(t, node.Config{DNSResolver: dnsAddr})
	keys := filepath.Join(t.TempDir(), "keys")
	setTXT := func(value string) {
		dnsServer.mu.Lock()
		dnsServer.records["_sciencejournal.example.org."] = value
		dnsServer.mu.Unlock()
	}
	register := func(name, family string) string {
		out, _ := agora(t, 0, "register", "--name", name, "--model-family", family, "--model", family+"-test-1", "--keys", keys, "--url", url)
		return operatorLine.FindStringSubmatch(out)[1]
	}
	invite := func(sponsor, guest string) {
		out, _ := agora(t, 0, "identity", "invite", "--key", sponsor, "--keys", keys, "--url", url)
		code := regexp.MustCompile(`"code": "(invite:[a-z2-7]+)"`).FindStringSubmatch(out)
		if code == nil {
			t.Fatalf("invite answered without a code: %s", out)
		}
		agora(t, 0, "identity", "accept-invite", code[1], "--key", guest, "--keys", keys, "--url", url)
	}
	sponsor := register("Sponsor", "claude")
	path, err := hybrid.KeyFilePath(keys, sponsor)
	if err != nil {
		t.Fatal(err)
	}
	lost, err := hybrid.ReadKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	setTXT(operators.ProofLine(protocol.KeyDigest(lost.Public().String())))
	agora(t, 0, "identity", "domain", "example.org", "--key", sponsor, "--keys", keys, "--url", url)
	invite(sponsor, register("Guest", "gpt"))

	// The key is lost.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	agora(t, 2, "recover", "domain", "example.org", "--keys", keys, "--url", url)
	_, stderr := agora(t, 1, "recover", "domain", "example.org", "--operator", sponsor, "--keys", keys, "--url", url)
	m := recoverHint.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no hint naming the record to set: %s", stderr)
	}
	_, stderr = agora(t, 1, "recover", "status", "--operator", sponsor, "--keys", keys, "--url", url)
	if !strings.Contains(stderr, "logged no recovery") {
		t.Errorf("status before the recovery: %s", stderr)
	}
	setTXT(m[1])
	out, _ := agora(t, 0, "recover", "domain", "example.org", "--operator", sponsor, "--keys", keys, "--url", url)
	fresh, err := hybrid.ReadKeyFile(path)
	if err != nil {
		t.Fatalf("the new key is not in the key file's place: %v", err)
	}
	freshDigest := protocol.KeyDigest(fresh.Public().String())
	if "sciencejournal-operator="+freshDigest != m[1] || !strings.Contains(out, "key_digest: "+freshDigest) || !strings.Contains(out, "index: ") {
		t.Fatalf("the recovery printed %s", out)
	}
	if _, err := os.Stat(path + ".next"); err == nil {
		t.Errorf("the new key is still kept in .next as well")
	}
	out, _ = agora(t, 0, "recover", "status", "--operator", sponsor, "--keys", keys, "--url", url)
	if !strings.Contains(out, `"state": "logged"`) || !strings.Contains(out, `"kind": "domain"`) {
		t.Errorf("status after the recovery: %s", out)
	}

	// The new key signs for the operator.
	invite(sponsor, register("Second Guest", "gemini"))
	agora(t, 0, "operator", "rotate", "--key", sponsor, "--keys", keys, "--url", url)

	out, _ = agora(t, 0, "log", "verify", "--url", url, "--pin", filepath.Join(t.TempDir(), "pin"))
	if !regexp.MustCompile(`key_recovery 1\b`).MatchString(out) || !regexp.MustCompile(`key_rotation 1\b`).MatchString(out) {
		t.Errorf("the audit did not verify the recovery and the rotation after it:\n%s", out)
	}
}

// TestLogVerifyRecoveries: 'agora log verify' refuses a key_recovery the
// reference monitor refuses: one the new key did not sign, one through an
// identity weaker than the one its operator counts as or resting on
// something else, one disowning entries after itself, and an entry after a
// recovery signed by the key it retired. A vouched recovery counts only
// when its voucher_sig is the log's attestation of the approval and its
// voucher is the identity its operator counts as.
func TestLogVerifyRecoveries(t *testing.T) {
	const domain, voucher = "lab.example.org", "github:42"
	type world struct {
		f         *fakeLog
		id        string
		old, next *hybrid.PrivateKey
	}
	// A world's operator counts as its domain, or as a vouch.
	newIn := func(vouched bool) world {
		f := newFakeLog(t)
		id, key := f.operator() // a key entry and an invited identity
		if vouched {
			vouch, err := operators.AttestVouch(id, voucher, f.key)
			if err != nil {
				t.Fatal(err)
			}
			f.append(signWith(t, key, vouch), map[string]any{"operator": id, "organization": voucher})
		} else {
			f.append(signWith(t, key, map[string]any{"type": "identity", "kind": "domain", "operator": id, "domain": domain}),
				map[string]any{"operator": id, "organization": "example.org"})
		}
		next, _ := hybrid.GenerateKey()
		return world{f, id, key, next}
	}
	newWorld := func() world { return newIn(false) }
	// vouchedRecovery is approved by attester's voucher_sig (none if nil).
	vouchedRecovery := func(w world, through string, attester *hybrid.PrivateKey) map[string]any {
		e := map[string]any{"type": "key_recovery", "kind": "vouched", "operator": w.id, "key": w.next.Public().String(), "voucher": through, "since": uint64(3)}
		if attester != nil {
			payload, err := operators.RecoveryApprovalPayload(w.id, w.next.Public().String(), through, 3)
			if err != nil {
				t.Fatal(err)
			}
			e["voucher_sig"] = attester.Sign(payload)
		}
		return signWith(t, w.next, e)
	}
	recovery := func(w world, kind, subject string, since uint64, by *hybrid.PrivateKey) map[string]any {
		e := map[string]any{"type": "key_recovery", "kind": kind, "operator": w.id, "key": w.next.Public().String(), "since": since}
		if kind == "domain" {
			e["domain"] = subject
		} else {
			e["repository"] = subject
		}
		return signWith(t, by, e)
	}
	run := func(w world, want int) (string, string) {
		w.f.sign(w.f.clock.Add(time.Second))
		return verifyLog(t, want, w.f.serve(), filepath.Join(t.TempDir(), "pin.json"))
	}

	for _, vouched := range []bool{false, true} {
		w := newIn(vouched)
		good := recovery(w, "domain", domain, 3, w.next)
		if vouched {
			good = vouchedRecovery(w, voucher, w.f.key)
		}
		w.f.append(good, map[string]any{"operator": w.id})
		w.f.append(w.f.contribution(w.id, w.next, "After"), map[string]any{"operator": w.id})
		if out, _ := run(w, 0); !strings.Contains(out, "key_recovery 1") || !strings.Contains(out, "contribution 1") {
			t.Errorf("a good recovery (vouched %v):\n%s", vouched, out)
		}
	}

	other, _ := hybrid.GenerateKey()
	for name, tc := range map[string]struct {
		entry   func(w world) map[string]any
		want    string
		vouched bool
	}{
		"vouched, approval attested by another key": {func(w world) map[string]any { return vouchedRecovery(w, voucher, other) }, "is not signed by the key that must have signed it", true},
		"vouched, no approval":                      {func(w world) map[string]any { return vouchedRecovery(w, voucher, nil) }, "is not signed by the key that must have signed it", true},
		"vouched, through another account":          {func(w world) map[string]any { return vouchedRecovery(w, "github:43", w.f.key) }, "but its vouched identity, from entry 2, is github:42", true},
		"vouched, for an operator with a domain":    {func(w world) map[string]any { return vouchedRecovery(w, voucher, w.f.key) }, "it counts as its domain identity", false},
		"signed by the old key":                     {func(w world) map[string]any { return recovery(w, "domain", domain, 3, w.old) }, "is not signed by the key that must have signed it", false},
		"through another domain":                    {func(w world) map[string]any { return recovery(w, "domain", "other.example.org", 3, w.next) }, "but its domain identity, from entry 2, is lab.example.org", false},
		"through GitHub":                            {func(w world) map[string]any { return recovery(w, "github", "octo/agents", 3, w.next) }, "it counts as its domain identity", false},
		"since after itself":                        {func(w world) map[string]any { return recovery(w, "domain", domain, 9, w.next) }, "past the log's size when it was logged", false},
		"to another's key": {func(w world) map[string]any {
			_, other := w.f.operator()
			w.next = other
			return recovery(w, "domain", domain, 3, other)
		}, "to a key op:", false},
	} {
		w := newIn(tc.vouched)
		w.f.append(tc.entry(w), map[string]any{"operator": w.id})
		if _, errOut := run(w, 1); !strings.Contains(errOut, tc.want) {
			t.Errorf("%s:\n%s", name, errOut)
		}
	}

	// From a pin: the identities logged before the pinned head are kept
	// in it, so a recovery after it is checked against them.
	w := newWorld()
	url := w.f.serve()
	pin := filepath.Join(t.TempDir(), "pin.json")
	w.f.sign(w.f.clock.Add(time.Second))
	verifyLog(t, 0, url, pin)
	good, _ := os.ReadFile(pin)
	w.f.append(recovery(w, "domain", "other.example.org", 3, w.next), map[string]any{"operator": w.id})
	w.f.sign(w.f.clock.Add(time.Second))
	if _, errOut := verifyLog(t, 1, url, pin); !strings.Contains(errOut, "is lab.example.org") {
		t.Errorf("a recovery through another domain, after the pinned head:\n%s", errOut)
	}
	os.WriteFile(pin, good, 0o600)

	w = newWorld()
	w.f.append(recovery(w, "domain", domain, 3, w.next), map[string]any{"operator": w.id})
	w.f.append(w.f.contribution(w.id, w.old, "By the lost key"), map[string]any{"operator": w.id})
	if _, errOut := run(w, 1); !strings.Contains(errOut, "entry 4 (contribution) is not signed by the key its author held") {
		t.Errorf("the lost key signing after the recovery:\n%s", errOut)
	}
}

func signWith(t *testing.T, key *hybrid.PrivateKey, e map[string]any) map[string]any {
	t.Helper()
	if err := protocol.Sign(e, key); err != nil {
		t.Fatal(err)
	}
	return e
}
