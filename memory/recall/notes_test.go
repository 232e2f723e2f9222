package recall_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/memory/recall"
)

func TestNormalizeErrorReadsMangledTails(t *testing.T) {
	clean := "error: could not compile `serde_yaml`\nerror[E0432]: unresolved import `serde::de`"
	mangled := []string{
		"\x1b[1m\x1b[31merror\x1b[0m: could not compile `serde_yaml`\r\n\x1b[31merror[E0432]\x1b[0m: unresolved import `serde::de`\r\n",
		"[1m[31merror[0m: could not compile `serde_yaml`\n[31merror[E0432][0m: unresolved import `serde::de`",
		"error: could not compile `serde_yaml`\n...\nerror[E0432]: unresolved import `serde::de`",
		"error: could not compile `serde_yaml`\n[... 40 lines omitted ...]\nerror[E0432]: unresolved import `serde::de`",
		"downloading 10%\rdownloading 100%\rerror: could not compile `serde_yaml`\nerror[E0432]: unresolved import `serde::de`",
	}
	want := recall.ErrorSignature(clean)
	for _, m := range mangled {
		if got := recall.ErrorSignature(m); got != want {
			t.Errorf("%q normalizes to\n%s\nnot\n%s", m, recall.NormalizeError(m), recall.NormalizeError(clean))
		}
	}
	win := recall.NormalizeError(`C:\Users\dev\proj\node_modules\esbuild\bin\esbuild.exe: Access is denied.`)
	mac := recall.NormalizeError(`/Users/dev/proj/node_modules/esbuild/bin/esbuild.exe: Access is denied.`)
	if win != mac {
		t.Errorf("windows and macOS paths read apart: %q vs %q", win, mac)
	}
}

func TestNoteErrorTextFindsQuotedFailures(t *testing.T) {
	what := "Running `pytest -q` blew up at collection with `ModuleNotFoundError: No module named 'yaml'` even though PyYAML was in requirements."
	why := "The venv was created with python3.12 but the tests ran under the system python3.11, which printed:\n```\nImportError while importing test module '/src/tests/test_cfg.py'.\nE   ModuleNotFoundError: No module named 'yaml'\n```"
	got := recall.NoteErrorText(what, why)
	for _, w := range []string{"ModuleNotFoundError: No module named 'yaml'", "ImportError while importing test module"} {
		if !strings.Contains(got, w) {
			t.Errorf("NoteErrorText misses %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "pytest -q") {
		t.Errorf("a command span is not error output:\n%s", got)
	}
	if got := recall.NoteErrorText("We decided to keep the API versioned under /v2.", "Consistency with the mobile client."); got != "" {
		t.Errorf("a decision quotes no failure, got %q", got)
	}
}

// A writer shows a command and what it printed with an arrow, or quotes
// a tool's prefixed message after words that say it failed: both are the
// failure, error words or none, and the narration before them is not.
func TestNoteErrorTextReadsShownOutput(t *testing.T) {
	for _, c := range []struct{ what, want, not string }{
		{"`poetry install` → \"pyproject.toml changed significantly since poetry.lock was last generated. Run `poetry lock` to fix the lock file.\"",
			"pyproject.toml changed significantly since poetry.lock was last generated", "poetry install"},
		{"CI build broke right after the dependabot merge: go: inconsistent vendoring.",
			"go: inconsistent vendoring", "dependabot"},
	} {
		got := recall.NoteErrorText(c.what)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("NoteErrorText(%q) = %q, want it to hold %q and not %q", c.what, got, c.want, c.not)
		}
	}
	for _, plain := range []string{
		"Renamed the flag \"--dry\" → \"--dry-run\" in the release script.",
		"Settled the layout: api: versioned under /v2 from now on",
	} {
		if got := recall.NoteErrorText(plain); got != "" {
			t.Errorf("%q quotes no failure, got %q", plain, got)
		}
	}
}

func TestNotePlatform(t *testing.T) {
	for text, want := range map[string]string{
		"only on Windows runners":                      "windows",
		"on macOS the Homebrew openssl path":           "darwin",
		"inside WSL2 on Ubuntu":                        "linux",
		"works on Linux and Windows alike":             "",
		"on Windows; Linux containers, Windows runner": "windows",
		"no system named":                              "",
		"generated on the mac, fails in the alpine container: only the darwin-arm64 engine was there": "",
		"the linux-x64 binary from npm runs nowhere else":                                             "",
	} {
		if got := recall.NotePlatform(text); got != want {
			t.Errorf("NotePlatform(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestDependencyInPathIsWhatANoteIsAbout: a note whose quote names its
// dependency only in a path (node_modules/nanoid/index.js) is about that
// dependency; the same failure inside another dependency is another
// root cause.
func TestDependencyInPathIsWhatANoteIsAbout(t *testing.T) {
	ix := recall.NewIndex()
	what := "Jest encountered an unexpected token ... SyntaxError: Unexpected token 'export' in node_modules/nanoid/index.js"
	why := "nanoid 5 ships ESM only and jest transforms nothing under node_modules by default."
	if err := ix.Add(recall.Doc{ID: "n", Title: "jest chokes on an ESM-only dependency", Content: what + "\n" + why + "\nnpm install -D nanoid@3",
		About: what + "\n" + why, ErrorText: recall.NoteErrorText(what, why), CodeSymbols: recall.NoteSymbols(what, why)}); err != nil {
		t.Fatal(err)
	}
	tail := " FAIL  src/%s.test.ts\n  ● Test suite failed to run\n\n    Jest encountered an unexpected token\n\n    Details:\n\n    /srv/app/node_modules/%s/index.js:1\n    export { x } from './x.js'\n    ^^^^^^\n\n    SyntaxError: Unexpected token 'export'\n"
	for dep, want := range map[string]int{"nanoid": 1, "node-fetch": 0} {
		hits := ix.Search(recall.Query{ErrorText: strings.ReplaceAll(tail, "%s", dep), ToolName: "Bash", Command: "npx jest"}, recall.DefaultWeights(), 3)
		if len(hits) != want {
			t.Errorf("the failure inside %s: %d hits %v, want %d", dep, len(hits), hits, want)
		}
	}
}

// TestNoteErrorTextSplitsTwoErrorsInOneLine: a writer who quotes two
// errors in one line, joined by words of their own, quoted two lines of
// output.
func TestNoteErrorTextSplitsTwoErrorsInOneLine(t *testing.T) {
	got := strings.Split(recall.NoteErrorText("TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension \".ts\" for /srv/app/scripts/migrate.ts, then the retry without the loader failed with SyntaxError: Cannot use import statement outside a module"), "\n")
	for _, w := range []string{"TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension \".ts\" for /srv/app/scripts/migrate.ts", "SyntaxError: Cannot use import statement outside a module"} {
		if !slices.Contains(got, w) {
			t.Errorf("NoteErrorText lines %q lack %q", got, w)
		}
	}
	// One error whose output names another inside it stays one line.
	one := "ERROR: failed to solve: process \"/bin/sh -c make\" did not complete successfully: exit code: 2"
	if got := recall.NoteErrorText(one); got != one {
		t.Errorf("NoteErrorText(%q) = %q", one, got)
	}
}

// TestNoteErrorTextTakesWhatWasIntroduced holds the introduced message to
// the output the writer introduced: without the narration before it or
// after its closing quote, with a name quoted inside it, and without a
// command the learned line runs.
func TestNoteErrorTextTakesWhatWasIntroduced(t *testing.T) {
	for _, c := range []struct{ text, want, not string }{
		{`Bash kept dying and the message was "No profiles for 'com.acme.Wallet' were found" every single time.`, "No profiles for 'com.acme.Wallet' were found", "every single time"},
		{"CI went red on atlas; the error was: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed", "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed", "went red"},
		{"`cargo build` failed with `error[E0432]: unresolved import `thiserror``.", "unresolved import `thiserror", "cargo build`"},
		{`Bash kept dying and the message was "connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused" every single time.`, `connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused`, "every single"},
		{"Ran `export SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt`. Point python at the system bundle.", "", "export"},
	} {
		got := recall.NoteErrorText(c.text)
		if c.want != "" && !strings.Contains(got, c.want) || c.want == "" && got != "" || strings.Contains(got, c.not) {
			t.Errorf("NoteErrorText(%q) = %q, want it to hold %q and not %q", c.text, got, c.want, c.not)
		}
	}
}

// TestNoteErrorTextFindsOutputInPlainProse holds the ways a note's prose
// carries output without quoting it: after "fails again with", or
// behind the tool's own prefix. (A phrase run into the prose some other
// way, such as one the tool shouts in capitals, is found by its words'
// order instead: see runs_test.go.)
func TestNoteErrorTextFindsOutputInPlainProse(t *testing.T) {
	for text, want := range map[string]string{
		"The features job fails again with module 'numpy' has no attribute 'float'.":        "module 'numpy' has no attribute 'float'",
		"go build: go: go.mod requires go >= 1.22.0 (running go 1.21.5; GOTOOLCHAIN=local)": "go.mod requires go >= 1.22.0 (running go 1.21.5; GOTOOLCHAIN=local)",
	} {
		if got := recall.NoteErrorText(text); !strings.Contains(got, want) {
			t.Errorf("NoteErrorText(%q) = %q, want it to hold %q", text, got, want)
		}
	}
	for _, text := range []string{"Decision: we keep the API under /v2 and v3.1 stays frozen.", "Use the pg service container in every test job.", "That was the whole failure."} {
		if got := recall.NoteErrorText(text); got != "" {
			t.Errorf("NoteErrorText(%q) = %q, want none", text, got)
		}
	}
}

// TestDottedNameIsOneName: a note whose title and words name a host is
// about that host, however common the host's parts are in other titles:
// the same certificate failure for another host is not its failure.
func TestDottedNameIsOneName(t *testing.T) {
	ix := recall.NewIndex()
	add := func(id, title, what, why string) {
		t.Helper()
		if err := ix.Add(recall.Doc{ID: id, Title: title, Content: what + "\n" + why, About: what + "\n" + why,
			ErrorText: recall.NoteErrorText(what, why), CodeSymbols: recall.NoteSymbols(what, why)}); err != nil {
			t.Fatal(err)
		}
	}
	add("host", "requests SSL CERTIFICATE_VERIFY_FAILED to auth.acme.test",
		"the error was: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate",
		"auth.acme.test serves an incomplete chain and certifi lacks the intermediate.")
	for _, h := range []string{"gitlab.internal", "sentry.io", "hooks.slack.com", "vault.internal"} {
		add(h, "requests SSL CERTIFICATE_VERIFY_FAILED to "+h,
			"the error was: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate",
			"the proxy re-signed "+h+"'s certificate with a CA python does not trust.")
	}
	// Other titles share the host's parts (auth, acme, test).
	for i, w := range []string{"auth", "acme", "test", "auth", "acme", "test", "auth", "acme", "test", "auth", "acme", "test",
		"login", "cart", "queue", "cache", "mail", "search", "build", "deploy", "lint"} {
		add(fmt.Sprint("other", i), fmt.Sprintf("%s step %d fails", w, i), fmt.Sprintf("the error was: %s step %d could not start", w, i), "a stale cache")
	}
	tail := "requests.exceptions.SSLError: HTTPSConnectionPool(host='%s', port=443): Max retries exceeded with url: /v1/items (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)')))"
	for host, want := range map[string]int{"auth.acme.test": 1, "registry.internal": 0} {
		hits := ix.Search(recall.Query{ErrorText: fmt.Sprintf(tail, host), ToolName: "Bash", Command: "python sync.py"}, recall.DefaultWeights(), 3)
		if len(hits) != want {
			t.Errorf("the failure for %s: %d hits %v, want %d", host, len(hits), hits, want)
		}
	}
}

// TestImagePathNamesItsImage: the last part of an image path a title
// writes (ghcr.io/acme/billing-worker), which the note's words say too,
// is the note's object, however common its words are in other titles.
func TestImagePathNamesItsImage(t *testing.T) {
	ix := recall.NewIndex()
	add := func(id, title, what, why string) {
		t.Helper()
		if err := ix.Add(recall.Doc{ID: id, Title: title, Content: what + "\n" + why, About: what + "\n" + why,
			ErrorText: recall.NoteErrorText(what, why)}); err != nil {
			t.Fatal(err)
		}
	}
	quote := "the error was: failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized"
	for _, img := range []string{"billing-worker", "gateway", "notifier", "search-api", "mailer"} {
		add(img, "kind cluster ImagePullBackOff for ghcr.io/acme/"+img+" (401)", quote, "the "+img+" image is private and the namespace lacked the pull secret.")
	}
	for i, w := range []string{"billing", "worker", "billing", "worker", "billing", "worker", "billing", "worker", "billing", "worker",
		"login", "cart", "queue", "cache", "mail", "build", "deploy", "lint"} {
		add(fmt.Sprint("other", i), fmt.Sprintf("%s step %d fails", w, i), fmt.Sprintf("the error was: %s step %d could not start", w, i), "a stale cache")
	}
	tail := "Warning  Failed  54s  kubelet  Failed to pull image \"ghcr.io/acme/%s:latest\": failed to resolve reference \"ghcr.io/acme/%[1]s:latest\": failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized"
	for img, want := range map[string]int{"billing-worker": 1, "payments": 0} {
		hits := ix.Search(recall.Query{ErrorText: fmt.Sprintf(tail, img), ToolName: "Bash", Command: "kubectl describe pod " + img}, recall.DefaultWeights(), 3)
		if len(hits) != want || want == 1 && hits[0].ID != img {
			t.Errorf("the failure for %s: hits %v, want %d", img, hits, want)
		}
	}
}
