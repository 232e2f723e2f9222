package node

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	htmlpages "github.com/agora-node/agora/node/pages"
	"github.com/chromedp/chromedp"
)

// injected is what a hostile agent writes into a claim, a paper and a
// library entry: markup that, if it ran, would change the page's title
// and set a global.
const injected = `<script>document.title='pwned';window.agoraPwned=1</script>`

// pagesData is what pagesNode put on its node, for the pages to show.
type pagesData struct {
	base          string // the node's address
	claim, bundle string // the opened study's claim and bundle
	agent         string // their author
	retracted     string // a second study, retracted after its round
	mapID, thread string // the library's merged map and a hostile thread
}

// pagesNode is a node with data in it for the pages: six invited
// verifiers of three families, one study by the first whose claim, paper
// and title carry injected markup, opened after its round, a second
// study by the second, retracted after its round with injected markup in
// its notice, and the library's contract examples with a hostile thread
// beside them.
func pagesNode(t *testing.T) pagesData {
	t.Helper()
	var d pagesData
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1, FreeBundles: FreeAll})
	base := srv.URL
	d.base = base
	var vs []verifier
	for i, family := range []string{"gpt", "gemini", "llama", "gpt", "gemini", "llama"} {
		vs = append(vs, invitedVerifier(t, n, base, fmt.Sprintf("V%d", i), family))
	}
	files := sumBundle(t, vs[0].keyDigest(), "gpt", "the "+injected+" sample", true)
	files["paper.md"] = append(files["paper.md"], "\n## Discussion notes\n\n"+injected+"\n\n<img src=x onerror=\"window.agoraPwned=2\">\n\nSee [the site](https://example.org/a) and ![a chart](https://example.org/chart.png).\n"...)
	d.bundle, _ = vs[0].submit(t, base, files)
	d.retracted, _ = vs[1].submit(t, base, sumBundle(t, vs[1].keyDigest(), "gemini", "a paper to retract", true))
	workUntilOpen(t, base, vs, []string{d.bundle, d.retracted})
	_, v := call(t, "GET", base+"/api/v1/bundles/"+d.bundle, nil)
	d.claim = v.(map[string]any)["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
	d.agent = vs[0].id
	notice := vs[1].retraction(t, d.retracted, "error", "Summed the wrong column. "+injected, "00112233445566778899aabbccddeeff")
	if status, v := call(t, "POST", base+"/api/v1/retractions", notice); status != http.StatusCreated {
		t.Fatalf("the retraction: %d %v", status, v)
	}

	owner, peer := newAuthor(t, n, base), newAuthor(t, n, base)
	ids := map[string]string{}
	runExamples(t, base, contractDocument(t)["write_contract"].(map[string]any)["examples"].(map[string]any)["steps"].([]any),
		map[string]author{"owner": owner, "peer": peer}, ids, "")
	d.thread = libPublish(t, base, peer, map[string]any{"kind": "thread", "title": "A thread " + injected,
		"body": "Read this: " + injected + " <img src=x onerror=\"window.agoraPwned=3\">", "links": []any{}, "previous": ""}, time.Now())
	d.mapID = ids["merge"]
	return d
}

// artifacts is where the browser tests save their screenshots:
// $AGORA_ARTIFACTS when it is set, else a temporary folder.
func artifacts(t *testing.T) string {
	dir := os.Getenv("AGORA_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browser starts headless Chromium, Debian's chromium package, which
// .ci/run installs.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not installed: the pages' browser tests drive Debian's chromium package, which .ci/run installs (apt-get install -y chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1100, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	// A bound on the whole run, so a browser that hangs fails the test
	// rather than the suite's timeout.
	ctx, cancelRun := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelRun)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// visit opens url in the browser, saves a full-page screenshot as
// name.png in dir, and returns what the page says of itself.
func visit(t *testing.T, ctx context.Context, dir, name, url string) (title string, pwned bool) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return screenshot(t, ctx, dir, name)
}

// screenshot saves the page the browser shows as name.png in dir, and
// returns what the page says of itself.
func screenshot(t *testing.T, ctx context.Context, dir, name string) (title string, pwned bool) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("%s: screenshot: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	title = eval[string](t, ctx, `document.title`)
	pwned = eval[bool](t, ctx, `window.agoraPwned !== undefined`)
	return title, pwned
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// TestPagesInBrowser drives headless Chromium through the pages of a
// node with data in it: the claim page shows the hallmarks its round
// earned and what the others still need, the map is drawn as an SVG with
// its nodes, and the markup agents wrote into a claim, its paper and a
// library entry is shown as text and never runs. It saves a screenshot
// of each page it opens.
func TestPagesInBrowser(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	d := pagesNode(t)
	base, claim, bundle, author, mapID, thread := d.base, d.claim, d.bundle, d.agent, d.mapID, d.thread
	dir := artifacts(t)
	t.Logf("screenshots in %s", dir)

	safe := func(what, title string, pwned bool) {
		t.Helper()
		if pwned || title == "pwned" {
			t.Errorf("%s: injected markup ran (title %q, agoraPwned set %v)", what, title, pwned)
		}
	}
	title, pwned := visit(t, ctx, dir, "claim", base+"/claims/"+claim)
	safe("the claim page", title, pwned)
	if h1 := eval[string](t, ctx, `document.querySelector('h1').textContent`); !strings.Contains(h1, injected) {
		t.Errorf("the claim's statement is not shown as the text it is: %q", h1)
	}
	held := eval[[]string](t, ctx, `[...document.querySelectorAll('table.hallmarks tr.held td:first-child')].map(e => e.textContent)`)
	if strings.Join(held, ",") != "published,reproduced,reviewed" {
		t.Errorf("the claim page shows held hallmarks %v, want published, reproduced and reviewed after its round", held)
	}
	if needs := eval[string](t, ctx, `document.querySelector('table.hallmarks').textContent`); !strings.Contains(needs, "Needs a replication") || !strings.Contains(needs, "2 for, 0 against") {
		t.Errorf("the hallmarks do not say what each needs: %q", needs)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('a[href^="/log/"]').length`); n < 5 {
		t.Errorf("the claim page links %d log entries, want its attestations'", n)
	}
	// goldmark leaves raw HTML out: the tags go, the words between them
	// stay as text.
	if paper := eval[string](t, ctx, `document.querySelector('article.paper').innerHTML`); !strings.Contains(paper, "<h2>Discussion notes</h2>") || strings.Contains(paper, "<script") || strings.Contains(paper, "onerror") {
		t.Errorf("the paper is not rendered without its raw HTML: %q", paper)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('article.paper img, article.paper script').length`); n != 0 {
		t.Errorf("the rendered paper holds %d img or script elements", n)
	}
	rels := eval[[]string](t, ctx, `[...document.querySelectorAll('article.paper a')].map(a => a.rel)`)
	if len(rels) != 2 || rels[0] != "nofollow ugc noopener" || rels[1] != "nofollow ugc noopener" {
		t.Errorf("the paper's links have rel %q, want %q on both (the link and the image's)", rels, "nofollow ugc noopener")
	}

	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	visit(t, ctx, dir, "claim-phone", base+"/claims/"+claim)
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 400 {
		t.Errorf("on a phone 390 wide the claim page is %d wide", w)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1100, 900)); err != nil {
		t.Fatal(err)
	}

	title, pwned = visit(t, ctx, dir, "map", base+"/library/maps/"+mapID)
	safe("the map page", title, pwned)
	if n := eval[int](t, ctx, `document.querySelectorAll('figure.graph svg a.node circle').length`); n != 2 {
		t.Errorf("the map's SVG draws %d nodes, want its question and its claim", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('figure.graph svg g.edge line').length`); n != 1 {
		t.Errorf("the map's SVG draws %d edges, want its one", n)
	}
	if w := eval[float64](t, ctx, `document.querySelector('figure.graph svg').getBoundingClientRect().width`); w < 300 {
		t.Errorf("the map's SVG renders %v wide", w)
	}

	// The map's claim, on its own page: the assessment and the
	// evidence that link to it.
	node := eval[string](t, ctx, `[...document.querySelectorAll('figure.graph svg a.node')].map(a => a.getAttribute('href'))[1]`)
	visit(t, ctx, dir, "entry-claim", base+node)
	if links := eval[string](t, ctx, `document.querySelector('main').textContent`); !strings.Contains(links, "Sufficiency disputed assesses it") || !strings.Contains(links, "Hypothetical locale counterexample evidence for it") {
		t.Errorf("the map's claim does not list what links to it: %q", links)
	}
	// A thread with a reply: its discussion.
	visit(t, ctx, dir, "library", base+"/library?q=reproducibility+discussion")
	discussion := eval[string](t, ctx, `[...document.querySelectorAll('ol.items li > a')].find(a => a.textContent == 'Reproducibility discussion').getAttribute('href')`)
	visit(t, ctx, dir, "entry-discussion", base+discussion)
	if replies := eval[[]string](t, ctx, `[...document.querySelectorAll('ol.items li > a')].map(a => a.textContent)`); !slices.Contains(replies, "Environment matters") {
		t.Errorf("the thread's page does not show its reply: %v", replies)
	}

	title, pwned = visit(t, ctx, dir, "entry", base+"/library/entries/"+thread)
	safe("the library entry", title, pwned)
	if body := eval[string](t, ctx, `document.querySelector('main .text').textContent`); !strings.Contains(body, injected) {
		t.Errorf("the entry's body is not shown as the text it is: %q", body)
	}

	title, pwned = visit(t, ctx, dir, "retracted", base+"/bundles/"+d.retracted)
	safe("the retracted bundle", title, pwned)
	if text := eval[string](t, ctx, `document.querySelector('main').textContent`); !strings.Contains(text, "Summed the wrong column. "+injected) || !strings.Contains(text, "Not withdrawn; retracted") {
		t.Errorf("the retracted bundle's page does not show its notice as text: %q", text)
	}
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll('ol.items .status')].map(e => e.textContent)`); strings.Join(got, ",") != "published,retracted" {
		t.Errorf("the retracted bundle's claim shows %v, want published and retracted, its hallmarks overridden", got)
	}
	href := eval[string](t, ctx, `document.querySelector('ol.items a').getAttribute('href')`)
	visit(t, ctx, dir, "claim-retracted", base+href)
	got := eval[[]string](t, ctx, `[...document.querySelectorAll('table.hallmarks tr')].map(r => r.cells[0].textContent + ":" + r.cells[1].textContent)`)
	if want := "Status:Holds,published:yes,reproduced:overridden,reviewed:overridden,formally verified:n/a,replicated:no,contested:no,refuted:no,retracted:yes"; strings.Join(got, ",") != want {
		t.Errorf("the retracted claim's hallmarks read %v, want %s", got, want)
	}

	for _, p := range []struct{ name, path string }{
		{"bundle", "/bundles/" + bundle}, {"agent", "/agents/" + author}, {"log", "/log"}, {"receipt", "/log/1"},
		{"claims", "/claims?q=sample"}, {"library", "/library"}, {"changes", "/library/changes"},
		{"not-found", "/claims/claim:" + strings.Repeat("0", 64)},
	} {
		title, pwned := visit(t, ctx, dir, p.name, base+p.path)
		safe(p.path, title, pwned)
	}
	visit(t, ctx, dir, "receipt", base+"/log/1")
	if signed := eval[[]string](t, ctx, `[...document.querySelectorAll('pre.json')].map(p => p.textContent)`); len(signed) != 2 ||
		!strings.Contains(signed[0], `"sig": "ed25519-ml-dsa-44:`) || !strings.Contains(signed[1], `"sig": "sha256:`) {
		t.Errorf("the receipt page does not show the entry as signed and the leaf as logged: %v", signed)
	}
	visit(t, ctx, dir, "not-found", base+"/claims/claim:"+strings.Repeat("0", 64))
	if n := eval[int](t, ctx, `document.querySelectorAll('main .refusal').length`); n != 1 {
		t.Errorf("an unknown claim's page shows no refusal")
	}
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll('a[href^="/claims/"]')].map(a => a.textContent)`); len(got) != 0 {
		t.Errorf("the unknown claim's page links claims: %v", got)
	}
	visit(t, ctx, dir, "claims", base+"/claims?q=sample")
	if n := eval[int](t, ctx, `document.querySelectorAll('ol.items li').length`); n != 1 {
		t.Errorf("the search for the study's words lists %d claims, want 1", n)
	}
}

// TestPagesHeaders checks what every page answers with besides its HTML:
// the strict Content-Security-Policy and the headers around it, on pages
// and on refusals; and it reports each main page's size.
func TestPagesHeaders(t *testing.T) {
	t.Parallel()
	d := pagesNode(t)
	base, claim, bundle, author, mapID, thread := d.base, d.claim, d.bundle, d.agent, d.mapID, d.thread
	for _, p := range []struct {
		path   string
		status int
	}{
		{"/claims/" + claim, 200}, {"/bundles/" + bundle, 200}, {"/agents/" + author, 200}, {"/log", 200}, {"/log/1", 200},
		{"/claims", 200}, {"/library", 200}, {"/library/changes", 200}, {"/library/entries/" + thread, 200},
		{"/library/maps/" + mapID, 200}, {"/claims/nope", 400}, {htmlpages.StylesheetPath, 200},
	} {
		resp, err := http.Get(base + p.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != p.status {
			t.Errorf("GET %s: %d, want %d", p.path, resp.StatusCode, p.status)
		}
		h := resp.Header
		// The agent page alone loads a script: the node's own pairing
		// script, by its path, never inline.
		csp, page := htmlpages.CSP, string(body)
		if strings.HasPrefix(p.path, "/agents/") && resp.StatusCode == http.StatusOK {
			csp = htmlpages.ScriptCSP
			page = strings.Replace(page, `<script src="/vouch/pairing.js" defer></script>`, "", 1)
		}
		if h.Get("Content-Security-Policy") != csp || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("GET %s: CSP %q nosniff %q frame %q", p.path, h.Get("Content-Security-Policy"), h.Get("X-Content-Type-Options"), h.Get("X-Frame-Options"))
		}
		if p.path != htmlpages.StylesheetPath {
			if !strings.HasPrefix(h.Get("Content-Type"), "text/html") || strings.Contains(page, "<script") {
				t.Errorf("GET %s: %s with a script element", p.path, h.Get("Content-Type"))
			}
			if strings.Contains(page, "map[") || strings.Contains(page, "%!") {
				t.Errorf("GET %s: a Go value printed as is, where the page should say what it holds", p.path)
			}
			if strings.Contains(string(body), "style=") {
				t.Errorf("GET %s: an inline style, which the CSP refuses", p.path)
			}
		}
		t.Logf("%-40.40s %6d bytes", p.path, len(body))
	}
	// The files the pages link to are agents' too: sandboxed, so an HTML
	// file's script does not run on the pages' origin.
	_, v := call(t, "GET", base+"/api/v1/bundles/"+bundle, nil)
	digest := v.(map[string]any)["files"].(map[string]any)["paper.md"].(string)
	resp, err := http.Get(base + "/api/v1/files/" + digest)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); resp.StatusCode != 200 || !strings.HasPrefix(csp, "sandbox") {
		t.Errorf("GET a bundle's file: %d with Content-Security-Policy %q, want sandbox", resp.StatusCode, csp)
	}
}
