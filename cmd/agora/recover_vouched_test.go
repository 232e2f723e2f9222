package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/internal/standins"
	"github.com/agora-node/agora/ledger/vouchpage"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/protocol"
)

// TestRecoverVouchedCommands is a vouched recovery from the CLI against a
// real node whose pages sign people in through the GitHub stand-in: the
// agent's person vouches from its pairing link, the agent loses its key
// file, 'agora recover vouched' asks for the approval and prints approve_at
// and the digest, 'recover finish' waits until the person approves there,
// then countersigns and moves the new key into place, which then signs a
// rotation; 'agora log verify' checks the recovery's voucher_sig is the
// log's and every signature after it is the new key's.
func TestRecoverVouchedCommands(t *testing.T) {
	g := standins.StartGitHub(t)
	authorize, token, user := g.Endpoints()
	base, _ := startNodeWith(t, node.Config{
		GitHubSignIn: vouchpage.GitHub{AuthorizeURL: authorize, TokenURL: token, UserURL: user, ClientID: standins.ClientID, ClientSecret: standins.ClientSecret},
	})
	keys := filepath.Join(t.TempDir(), "keys")
	out, _ := agora(t, 0, "register", "--name", "Vouched", "--model-family", "claude", "--model", "claude-test-1", "--keys", keys, "--url", base)
	a := operatorLine.FindStringSubmatch(out)[1]
	link, _ := agora(t, 0, "identity", "pairing-link", "--key", a, "--keys", keys, "--url", base)
	page, code, _ := strings.Cut(strings.TrimSpace(link), "#")
	g.SignInAs(standins.Account{ID: 31337, Login: "the-person", Created: time.Now().AddDate(-1, 0, 0)})
	if done := submitPageForm(t, page, "/vouch", url.Values{"pairing": {code}}); !strings.Contains(done, "github:31337") {
		t.Fatalf("vouching from the link:\n%s", done)
	}

	// The key is lost.
	path, _ := hybrid.KeyFilePath(keys, a)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	out, _ = agora(t, 0, "recover", "vouched", "github:31337", "--operator", a, "--keys", keys, "--url", base)
	m := regexp.MustCompile(`key_digest: (sha256:[0-9a-f]{64})\nstate: waiting\napprove_at: (\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("recover vouched printed %s", out)
	}
	digest, approveAt := m[1], m[2]
	if next, err := hybrid.ReadKeyFile(path + ".next"); err != nil || protocol.KeyDigest(next.Public().String()) != digest {
		t.Fatalf("the new key waiting in .next: %v", err)
	}
	if _, stderr := agora(t, 1, "recover", "finish", "--operator", a, "--keys", keys, "--url", base); !strings.Contains(stderr, "hasn't approved") {
		t.Errorf("finishing before the approval: %s", stderr)
	}
	if done := submitPageForm(t, approveAt, "/approve", url.Values{"key": {digest}}); !strings.Contains(done, "Approved") {
		t.Fatalf("approving:\n%s", done)
	}
	out, _ = agora(t, 0, "recover", "finish", "--operator", a, "--keys", keys, "--url", base)
	if fresh, err := hybrid.ReadKeyFile(path); err != nil || protocol.KeyDigest(fresh.Public().String()) != digest || !strings.Contains(out, "index: ") {
		t.Fatalf("after recover finish (%v): %s", err, out)
	}
	agora(t, 0, "operator", "rotate", "--key", a, "--keys", keys, "--url", base)
	out, _ = agora(t, 0, "log", "verify", "--url", base, "--pin", filepath.Join(t.TempDir(), "pin"))
	if !regexp.MustCompile(`key_recovery 1\b`).MatchString(out) || !regexp.MustCompile(`key_rotation 1\b`).MatchString(out) {
		t.Errorf("the audit did not verify the recovery and the rotation after it:\n%s", out)
	}
}

// submitPageForm opens page in a new browser and posts its form (the CSRF
// token it carries, and form) to the page's path and suffix: the page the
// post ends on, redirects followed.
func submitPageForm(t *testing.T, page, suffix string, form url.Values) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindSubmatch(b)
	if csrf == nil {
		t.Fatalf("no form on %s:\n%s", page, b)
	}
	u, _ := url.Parse(page)
	form.Set("csrf", string(csrf[1]))
	resp, err = c.PostForm(u.Scheme+"://"+u.Host+u.Path+suffix, form)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	return string(b)
}
