package main

import (
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/internal/smtpmail"
	"github.com/agora-node/agora/internal/standins"
	"github.com/agora-node/agora/ledger/vouchpage"
	"github.com/agora-node/agora/node"
)

// TestPairingCommands drives a person's side of identity from the CLI:
// "agora identity pairing-link" prints the link a person vouches from (the
// GitHub stand-in signs them in), which gives the agent its identity at
// once; a vouch made without the code waits until "agora identity
// accept-vouch <login>"; and "agora identity join-account" makes the node
// mail the person a link.
func TestPairingCommands(t *testing.T) {
	g, mail := standins.StartGitHub(t), standins.StartSMTP(t)
	authorize, token, user := g.Endpoints()
	dnsServer, dnsAddr := startTXTServer(t)
	base, _ := startNodeWith(t, node.Config{DNSResolver: dnsAddr,
		GitHubSignIn: vouchpage.GitHub{AuthorizeURL: authorize, TokenURL: token, UserURL: user, ClientID: standins.ClientID, ClientSecret: standins.ClientSecret},
		SMTP:         smtpmail.Sender{Addr: mail.Addr(), From: "agora@node.test"},
	})
	keys := filepath.Join(t.TempDir(), "keys")
	register := func(name string) string {
		out, _ := agora(t, 0, "register", "--name", name, "--model-family", "claude", "--model", "claude-test-1", "--keys", keys, "--url", base)
		return operatorLine.FindStringSubmatch(out)[1]
	}
	vouch := func(page, pairing string, domain ...string) string {
		t.Helper()
		form, to := url.Values{"pairing": {pairing}}, "/vouch"
		if len(domain) > 0 {
			form["domain"], to = domain, "/domain"
		}
		return submitPageForm(t, page, to, form)
	}

	a := register("Paired")
	link, _ := agora(t, 0, "identity", "pairing-link", "--key", a, "--keys", keys, "--url", base)
	link = strings.TrimSpace(link)
	page, code, ok := strings.Cut(link, "#")
	if !ok || page != base+"/agents/"+a || !regexp.MustCompile(`^pair:[a-z2-7]{32}$`).MatchString(code) {
		t.Fatalf("pairing-link printed %q", link)
	}
	g.SignInAs(standins.Account{ID: 31337, Login: "the-person", Created: time.Now().AddDate(-1, 0, 0)})
	if done := vouch(link, code); !strings.Contains(done, "now counts as <strong>github:31337</strong>") {
		t.Fatalf("vouching from the link:\n%s", done)
	}
	if out, _ := agora(t, 0, "operator", "show", "--key", a, "--keys", keys, "--url", base); !strings.Contains(out, "github:31337") {
		t.Errorf("the record after the vouch: %s", out)
	}

	b := register("Countersigning")
	agora(t, 1, "identity", "accept-vouch", "the-person", "--key", b, "--keys", keys, "--url", base)
	if waits := vouch(base+"/agents/"+b, ""); !strings.Contains(waits, "waits for your agent") {
		t.Fatalf("vouching without the code:\n%s", waits)
	}
	out, _ := agora(t, 0, "identity", "accept-vouch", "The-Person", "--key", b, "--keys", keys, "--url", base)
	if !strings.Contains(out, `"organization": "github:31337"`) || !strings.Contains(out, `"kind": "vouched"`) {
		t.Fatalf("accept-vouch answered %s", out)
	}

	agora(t, 2, "identity", "join-account", "person@example.org", "--key", b, "--keys", keys, "--url", base)
	agora(t, 0, "identity", "join-account", "person@example.org", "--model-family", "claude", "--model", "claude-test-1", "--key", b, "--keys", keys, "--url", base)
	if m := mail.Next(t); m.To != "person@example.org" || !strings.Contains(m.Data, base+"/accounts/confirm/") {
		t.Errorf("the account mail: %+v", m)
	}

	// A domain the person names from the link, its record there already.
	c := register("Domained")
	link, _ = agora(t, 0, "identity", "pairing-link", "--key", c, "--keys", keys, "--url", base)
	_, code, _ = strings.Cut(strings.TrimSpace(link), "#")
	out, _ = agora(t, 0, "operator", "show", "--key", c, "--keys", keys, "--url", base)
	digest := regexp.MustCompile(`sha256:[0-9a-f]{64}`).FindString(out)
	dnsServer.mu.Lock()
	dnsServer.records["_sciencejournal.example.org."] = "sciencejournal-operator=" + digest
	dnsServer.mu.Unlock()
	if done := vouch(strings.TrimSpace(link), code, "example.org"); !strings.Contains(done, "now counts as <strong>example.org</strong>") {
		t.Fatalf("a domain from the link:\n%s", done)
	}

	// The vouches and the domain verify on the log: voucher_sig,
	// consent_sig, sig.
	out, _ = agora(t, 0, "log", "verify", "--url", base, "--pin", filepath.Join(t.TempDir(), "pin"))
	if !strings.Contains(out, "signatures verified (identity 3, key 3)") {
		t.Errorf("log verify: %s", out)
	}
}
