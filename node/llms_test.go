package node

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agora-node/agora/node/llms"
)

// getText GETs url with the Host header host (when set) and returns the
// status, content type and body.
func getText(t *testing.T, url, host string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

var (
	markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	endpoint     = regexp.MustCompile(`(GET|POST) (https?://[^\s` + "`" + `]+)`)
	anyURL       = regexp.MustCompile(`https?://[^\s)` + "`" + `'"]+`)
)

// TestLLMsTxt reads /llms.txt and every page it lists: each link and each
// address is this node's own (the request's host, or the configured
// public URL), each links resolves, the endpoints they name are served,
// the limits are the vocabulary's, and an unknown page is the JSON 404.
func TestLLMsTxt(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL

	status, ctype, index := getText(t, base+"/llms.txt", "")
	if status != http.StatusOK || !strings.HasPrefix(ctype, "text/markdown") {
		t.Fatalf("GET /llms.txt: %d %s\n%s", status, ctype, index)
	}
	if !strings.Contains(index, n.LogID()) {
		t.Errorf("/llms.txt does not name the node's log %s", n.LogID())
	}
	links := markdownLink.FindAllStringSubmatch(index, -1)
	if len(links) != len(llms.Pages)+1 {
		t.Errorf("/llms.txt links %d pages, want %d and the whole", len(links), len(llms.Pages)+1)
	}
	whole := index
	for _, l := range links {
		u := l[1]
		if !strings.HasPrefix(u, base+"/") {
			t.Errorf("/llms.txt links %s, not this node's %s", u, base)
			continue
		}
		status, ctype, page := getText(t, u, "")
		if status != http.StatusOK || !strings.HasPrefix(ctype, "text/markdown") || !strings.HasPrefix(page, "# ") {
			t.Errorf("GET %s: %d %s\n%.200s", u, status, ctype, page)
		}
		whole += page
	}

	// Every page is filled in: no placeholder is left, every address is
	// this node's, and every endpoint without a path parameter is served.
	if strings.Contains(whole, "{{") || strings.Contains(whole, "<no value>") || regexp.MustCompile(`\de\+\d`).MatchString(whole) {
		t.Errorf("a page keeps a placeholder or prints a number in floating point")
	}
	for _, u := range anyURL.FindAllString(whole, -1) {
		u = strings.TrimRight(u, ".,:;")
		if !strings.HasPrefix(u, base) {
			t.Errorf("the instructions name %s, not this node", u)
			continue
		}
	}
	// Every endpoint named with its method and no path parameter is
	// served: with no body it may be refused, but not found it is not.
	checked := 0
	for _, m := range endpoint.FindAllStringSubmatch(whole, -1) {
		checked++
		method, u := m[1], strings.Split(strings.TrimRight(m[2], ".,:;"), "?")[0]
		if !strings.HasPrefix(u, base) || strings.Contains(u, "{") {
			continue
		}
		if status, _ := call(t, method, u, nil); status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
			t.Errorf("the instructions name %s %s, which answers %d", method, u, status)
		}
	}

	if checked < 20 {
		t.Errorf("the instructions name %d endpoints with their method, want 20 or more", checked)
	}

	// The limits are the ones the vocabulary serves.
	_, v := call(t, "GET", base+"/api/v1/vocabulary", nil)
	limits := v.(map[string]any)["limits"].(map[string]any)
	limit := func(name string) string { return strconv.FormatFloat(limits[name].(float64), 'f', -1, 64) }
	_, _, ledger := getText(t, base+"/llms/ledger.md", "")
	for _, want := range []string{
		fmt.Sprintf("at most %s claims, %s files and %s bytes a bundle", limit("maxClaimsPerBundle"), limit("maxBundleFiles"), limit("maxBundleBytes")),
		fmt.Sprintf("up to %s entries at a time", limit("logEntriesPerPage")),
	} {
		if !strings.Contains(ledger, want) {
			t.Errorf("ledger.md does not say %q", want)
		}
	}

	// The whole is the index and every page, in order.
	_, _, full := getText(t, base+"/llms-full.txt", "")
	if full != strings.Join(append([]string{index}, pages(t, base, "")...), "\n\n") {
		t.Errorf("/llms-full.txt is not /llms.txt and its pages")
	}

	// Reached by another name, the node names itself so.
	_, _, other := getText(t, base+"/llms/mcp.md", "agora.internal:8443")
	if !strings.Contains(other, "http://agora.internal:8443/mcp") || strings.Contains(other, base) {
		t.Errorf("mcp.md reached as agora.internal:8443 does not name that address:\n%s", other)
	}

	if status, v := call(t, "GET", base+"/llms/secrets.md", nil); status != http.StatusNotFound ||
		v.(map[string]any)["code"] != "not_found" || !strings.Contains(v.(map[string]any)["error"].(string), "ledger.md") {
		t.Errorf("an unknown page: %d %v", status, v)
	}
	if status, v := call(t, "POST", base+"/llms.txt", nil); status != http.StatusMethodNotAllowed || v.(map[string]any)["code"] != "method_not_allowed" {
		t.Errorf("POST /llms.txt: %d %v", status, v)
	}
}

func pages(t *testing.T, base, host string) []string {
	var out []string
	for _, p := range llms.Pages {
		_, _, body := getText(t, base+"/llms/"+p.Name, host)
		out = append(out, body)
	}
	return out
}

// TestLLMsTxtPublicURL: a node given its public URL names it, whatever
// address a request came to.
func TestLLMsTxtPublicURL(t *testing.T) {
	t.Parallel()
	_, srv := testNodeWith(t, Config{PublicURL: "https://agora.example.org/"})
	_, _, index := getText(t, srv.URL+"/llms.txt", "")
	for _, l := range markdownLink.FindAllStringSubmatch(index, -1) {
		if !strings.HasPrefix(l[1], "https://agora.example.org/llms") {
			t.Errorf("/llms.txt links %s, not under the public URL", l[1])
		}
	}
	if strings.Contains(index, srv.URL) {
		t.Errorf("/llms.txt names the address the request came to, not the public URL")
	}
	for _, bad := range []string{"agora.example.org", "ftp://agora.example.org", "https://", "https://agora.example.org/?x=1"} {
		if _, err := New(context.Background(), Config{DataDir: t.TempDir(), PublicURL: bad}); err == nil || !strings.Contains(err.Error(), "Config.PublicURL") {
			t.Errorf("PublicURL %q: %v, want it refused", bad, err)
		}
	}
}
