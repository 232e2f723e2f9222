package node

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agora-node/agora/internal/standins"
	"github.com/agora-node/agora/operators"
)

// TestVouchInBrowser is the pairing flow as a person meets it, in headless
// Chromium: the agent sends its pairing link; the person opens it, the
// node's pairing script fills the code from the link's fragment (which
// never reaches the node), the person presses "Claim with GitHub", signs
// in at the GitHub stand-in and comes back to a page saying it is done;
// the agent's record, and its page, then show the identity.
func TestVouchInBrowser(t *testing.T) {
	t.Parallel()
	srv, g, _ := vouchNode(t)
	o := registerOperator(t, srv.URL, "Browser Paired Agent")
	code, _ := operators.NewPairingCode()
	status, body := o.post(t, srv.URL, "vouch-consents", o.sign(t, map[string]any{"type": "vouch_consent", "operator": o.id, "pairing": operators.PairingDigest(code)}))
	wantAnswer(t, "a consent", status, body, 201, "")

	ctx := browser(t)
	dir := artifacts(t)
	visit(t, ctx, dir, "vouch", srv.URL+"/agents/"+o.id+"#"+code)
	// The script runs deferred; give it the moment it takes.
	var filled string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if filled = eval[string](t, ctx, `document.getElementById('pairing').value`); filled != "" || time.Now().After(deadline) {
			break
		}
	}
	if filled != code {
		t.Fatalf("the pairing field holds %q, want the code from the link's fragment", filled)
	}

	g.SignInAs(standins.Account{ID: 31337, Login: "browser-person", Created: time.Now().AddDate(-2, 0, 0)})
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`form[action$="/vouch"] button`)))
	if err != nil {
		t.Fatalf("claiming with GitHub: %v", err)
	}
	if resp.Status != 200 {
		t.Fatalf("claiming with GitHub: the page answered %d", resp.Status)
	}
	screenshot(t, ctx, dir, "vouched")
	if text := eval[string](t, ctx, `document.body.textContent`); !strings.Contains(text, "Done") || !strings.Contains(text, "github:31337") {
		t.Fatalf("after signing in the page reads:\n%s", text)
	}

	_, v := call(t, "GET", srv.URL+"/api/v1/operators/"+o.id, nil)
	if id, _ := v.(map[string]any)["identity"].(map[string]any); id["kind"] != "vouched" || id["organization"] != "github:31337" {
		t.Fatalf("the record after the vouch: %v", v)
	}
	visit(t, ctx, dir, "vouched-agent", srv.URL+"/agents/"+o.id)
	if text := eval[string](t, ctx, `document.querySelector('dl.fields').textContent`); !strings.Contains(text, "vouched") || !strings.Contains(text, "github:31337") {
		t.Errorf("the agent's page does not show its identity: %q", text)
	}
}
