package recall_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/agora-node/agora/memory/recall"
)

// name returns a made-up package name for i: letters only, so it reads
// like a name and never like a number.
func name(i int) string {
	b := []byte("lib")
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}

// wheel prints pip's failure to build a wheel in one of two ways.
func wheel(variant int, pkg string) string {
	if variant == 0 {
		return "Building wheel for " + pkg + " (setup.py) ... error\n  ERROR: Command errored out with exit status 1:\n  ERROR: Failed building wheel for " + pkg + "\nFailed to build " + pkg
	}
	return "  error: subprocess-exited-with-error\n  × Building wheel for " + pkg + " (pyproject.toml) did not run successfully.\n  │ exit code: 1\n  ERROR: Failed building wheel for " + pkg
}

// TestSilencedRecordsDoNotCrowdOutTheAnswer stores one failure printed one
// way and many more records of the same failure about other packages
// printed the way the query prints it. Their wording matches the query
// better than the answer's does, so a cheap estimate ranks them first;
// the key check silences every one of them, and the answer must still be
// scored and found.
func TestSilencedRecordsDoNotCrowdOutTheAnswer(t *testing.T) {
	ix := recall.NewIndex()
	add := func(d recall.Doc) {
		t.Helper()
		if err := ix.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	add(recall.Doc{
		ID: "psycopg2", Title: "pip: failed building wheel for psycopg2",
		Content:   "psycopg2 builds from source and needs libpq-dev; install it or use psycopg2-binary.",
		ErrorText: wheel(0, "psycopg2"), ToolNames: []string{"pip"},
	})
	// Records about other things, so pip's wording is rare, as it is in
	// a memory of many tools.
	for i := range 12000 {
		add(recall.Doc{
			ID: fmt.Sprintf("note-%d", i), Title: "index out of range in " + name(i),
			Content:   "Check the length of the slice before indexing it.",
			ErrorText: "panic: runtime error: index out of range in " + name(i),
		})
	}
	const others = 400 // more than the records a search scores fully
	for i := range others {
		add(recall.Doc{
			ID: fmt.Sprintf("other-%d", i), Title: "pip: failed building wheel for " + name(i),
			Content:   name(i) + " needs its system headers.",
			ErrorText: wheel(1, name(i)), ToolNames: []string{"pip"},
		})
	}
	w := recall.DefaultWeights()
	hits := ix.Search(recall.Query{ErrorText: wheel(1, "psycopg2"), ToolName: "pip", Now: now}, w, 3)
	if len(hits) == 0 || hits[0].ID != "psycopg2" {
		t.Fatalf("hits = %v, want psycopg2 first", ids(hits))
	}
	// A package stored nowhere still gets silence.
	if hits := ix.Search(recall.Query{ErrorText: wheel(1, "pyaudio"), ToolName: "pip", Now: now}, w, 3); len(hits) > 0 {
		t.Errorf("pyaudio is not stored, got %v", ids(hits))
	}
}

func TestParticipleIsNotASymbol(t *testing.T) {
	got := recall.CodeSymbols("SKIPPED [1] test_app.py:12: async def function and no async plugin installed (see warnings)")
	if len(got) > 0 {
		t.Errorf("CodeSymbols = %q, want none: \"plugin installed\" names no plugin", got)
	}
	for text, want := range map[string]string{
		"implicit declaration of function usleep":   "usleep",
		"No module named shared":                    "shared",
		"Failed to load plugin 'embedded' declared": "embedded",
	} {
		if got := recall.CodeSymbols(text); !slices.Contains(got, want) {
			t.Errorf("CodeSymbols(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestToolNameIsNotTheObject: a title names its tool to say which tool
// failed; a remote that ends in .git does not make git what the record
// is about, so output printed without that remote still finds it.
func TestToolNameIsNotTheObject(t *testing.T) {
	ix := recall.NewIndex()
	docs := []recall.Doc{
		{ID: "push", Title: "git push rejected: non-fast-forward", Content: "git pull --rebase, then push.",
			ErrorText: " ! [rejected]        main -> main (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/shop.git'\nhint: Updates were rejected because the tip of your current branch is behind"},
		{ID: "pathspec", Title: "git: pathspec did not match any file(s) known to git", Content: "Fetch the branch first.",
			ErrorText: "error: pathspec 'feature/x' did not match any file(s) known to git"},
		{ID: "unrelated", Title: "fatal: refusing to merge unrelated histories", Content: "Use --allow-unrelated-histories once.",
			ErrorText: "fatal: refusing to merge unrelated histories"},
	}
	for _, d := range docs {
		d.ToolNames = []string{"git"}
		if err := ix.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	q := recall.Query{ErrorText: "error: failed to push some refs to '/home/dev/src/shop'\nhint: Updates were rejected because a pushed branch tip is behind its remote counterpart.", ToolName: "git", Now: now}
	if hits := ix.Search(q, recall.DefaultWeights(), 3); len(hits) == 0 || hits[0].ID != "push" {
		t.Errorf("hits = %v, want push first", ids(hits))
	}
}

// TestQuerySharingOnlyTheObjectIsSilent: a prompt that shares nothing with
// a record but what the record is about is about another failure of the
// same thing.
func TestQuerySharingOnlyTheObjectIsSilent(t *testing.T) {
	ix := shapeIndex(t)
	w := recall.DefaultWeights()
	for _, text := range []string{"esModuleInterop flag express", "can only be default-imported using the esModuleInterop flag express"} {
		q := recall.Query{Text: text, Now: now}
		if hits := ix.Search(q, w, 3); len(hits) > 0 {
			t.Errorf("%q: hits = %v, want none", text, ids(hits))
			for _, h := range hits {
				t.Logf("%s %.3f: %+v", h.ID, h.Score, h.Reasons)
			}
		}
	}
	q := recall.Query{Text: "cannot find module express or its corresponding type declarations", Now: now}
	if hits := ix.Search(q, w, 3); len(hits) == 0 || hits[0].ID != "ts-0" {
		t.Errorf("TS2307 prompt: hits = %v, want ts-0 first", ids(hits))
	}
}

// TestOutputIsNotReadAsANamedKind: failing output that shares some words
// with the titles of another kind of failure is not a prompt naming that
// kind; its own record must not be silenced for it.
func TestOutputIsNotReadAsANamedKind(t *testing.T) {
	ix := recall.NewIndex()
	daemon := "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?"
	docs := []recall.Doc{
		{ID: "daemon-linux", Title: "Cannot connect to the Docker daemon on Linux", ErrorText: daemon,
			Environment: map[string]string{"os": "linux"}},
		{ID: "daemon-mac", Title: "Cannot connect to the Docker daemon on macOS", ErrorText: daemon,
			Environment: map[string]string{"os": "darwin"}},
		{ID: "sock", Title: "permission denied on /var/run/docker.sock", Content: "Add the user to the docker group.",
			ErrorText: "docker: permission denied while trying to connect to the Docker daemon socket: connect: permission denied."},
	}
	// Many titles say "cannot", so the word says little about a kind.
	for i := range 40 {
		docs = append(docs, recall.Doc{
			ID: fmt.Sprintf("node-%d", i), Title: "node: Error: Cannot find module '" + name(i) + "'",
			ErrorText: "Error: Cannot find module '" + name(i) + "'\nRequire stack:\n- /srv/app/index.js",
		})
	}
	for _, d := range docs {
		d.ToolNames = []string{"docker"}
		if err := ix.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	q := recall.Query{
		ErrorText: `Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Post "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/build": dial unix /var/run/docker.sock: connect: permission denied`,
		ToolName:  "docker", Environment: map[string]string{"os": "linux"}, Now: now,
	}
	if hits := ix.Search(q, recall.DefaultWeights(), 3); !slices.Contains(ids(hits), "sock") {
		t.Errorf("hits = %v, want sock among them", ids(hits))
	}
}

// TestNoteNamingTheOtherValueCoversIt: a query that prints a record's
// message about another quoted name is another failure, unless the
// note's own words name that value too ('flakes' gives the same error
// otherwise); a name only inside a file name (.pre-commit-config.yaml)
// does not count.
func TestNoteNamingTheOtherValueCoversIt(t *testing.T) {
	ix := recall.NewIndex()
	feature := func(f string) string {
		return "error: experimental Nix feature '" + f + "' is disabled; add '--extra-experimental-features " + f + "' to enable it"
	}
	stubs := func(m string) string { return `error: Library stubs not installed for "` + m + `"  [import-untyped]` }
	for _, d := range []recall.Doc{
		{ID: "nix", Title: "nix develop refuses to run", ErrorText: feature("nix-command"),
			Content: feature("nix-command") + "\nEnable both in the user config once; 'flakes' gives the same error otherwise."},
		{ID: "mypy", Title: "pre-commit mypy hook red", ErrorText: stubs("requests"),
			Content: stubs("requests") + "\n.pre-commit-config.yaml\nAdd types-requests to additional_dependencies."},
	} {
		if err := ix.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	w := recall.DefaultWeights()
	for _, c := range []struct{ out, want string }{
		{feature("flakes"), "nix"},
		{feature("ca-derivations"), ""},
		{stubs("requests"), "mypy"},
		{stubs("yaml"), ""},
	} {
		hits := ix.Search(recall.Query{ErrorText: c.out, Now: now}, w, 3)
		got := ""
		if len(hits) > 0 {
			got = hits[0].ID
		}
		if got != c.want {
			t.Errorf("%q: first hit %q, want %q (hits %v)", c.out, got, c.want, ids(hits))
		}
	}
}

// TestBareIdentifierIsTheObject: JavaScript prints the name it failed on
// without quotes (ReferenceError: document is not defined). The same
// message about another name is another failure, as with a quoted one.
func TestBareIdentifierIsTheObject(t *testing.T) {
	ix := recall.NewIndex()
	ref := func(name string) string {
		return "ReferenceError: " + name + " is not defined\n    at render (node_modules/@testing-library/react/dist/pure.js:257:5)"
	}
	if err := ix.Add(recall.Doc{ID: "jsdom", Title: "component tests: document is not defined", ErrorText: ref("document"),
		Content: "Every Testing Library test fails with " + ref("document") + "\nvitest's default environment is node; set environment: 'jsdom'."}); err != nil {
		t.Fatal(err)
	}
	w := recall.DefaultWeights()
	if hits := ix.Search(recall.Query{ErrorText: ref("document"), Now: now}, w, 3); len(hits) == 0 || hits[0].ID != "jsdom" {
		t.Errorf("the same failure: hits %v, want jsdom", ids(hits))
	}
	if hits := ix.Search(recall.Query{ErrorText: ref("window"), Now: now}, w, 3); len(hits) > 0 {
		t.Errorf("window is not defined is another failure: hits %v", ids(hits))
	}
}

// TestMaskedKeyIsTheObject: what normalization masks or Tokenize drops
// can still be what a message is about. A version the title names and
// the output quotes, and a port the title names however few its digits:
// the same message about another version or port is another failure.
func TestMaskedKeyIsTheObject(t *testing.T) {
	for _, c := range []struct {
		title, fix    string
		msg           func(string) string
		stored, other string
	}{
		{"setup-python can't find 3.7 on ubuntu-latest", "actions/python-versions has no 3.7 builds for 24.04; pin ubuntu-22.04.",
			func(v string) string {
				return "Run actions/setup-python@v5\nVersion " + v + " was not found in the local cache\n##[error]The version '" + v + "' with architecture 'x64' was not found for Ubuntu 24.04."
			}, "3.7", "3.14"},
		{"nginx won't start: port 80 in use", "apache2 came with php and took port 80; purge it.",
			func(addr string) string {
				return "nginx: [emerg] bind() to " + addr + " failed (98: Address already in use)\nnginx: [emerg] still could not bind()"
			}, "0.0.0.0:80", "127.0.0.1:5173"},
	} {
		ix := recall.NewIndex()
		if err := ix.Add(recall.Doc{ID: "rec", Title: c.title, ErrorText: c.msg(c.stored), Content: "It failed: " + c.msg(c.stored) + "\n" + c.fix}); err != nil {
			t.Fatal(err)
		}
		w := recall.DefaultWeights()
		if hits := ix.Search(recall.Query{ErrorText: c.msg(c.stored), Now: now}, w, 3); len(hits) == 0 {
			t.Errorf("%s: the same failure found nothing", c.title)
		}
		if hits := ix.Search(recall.Query{ErrorText: c.msg(c.other), Now: now}, w, 3); len(hits) > 0 {
			t.Errorf("%s: the message about %s is another failure, hits %v", c.title, c.other, ids(hits))
		}
	}
}

// TestFrameAfterTheNameIsTheMessage: a tool prints the kind of thing
// before its quoted name and the failure after it. The same failure
// printed about another name of another kind (a Job, not the record's
// Deployment) shares only the words after the quote, and is another
// failure all the same; the record's own name still finds it.
func TestFrameAfterTheNameIsTheMessage(t *testing.T) {
	ix := recall.NewIndex()
	invalid := func(kind, name, field string) string {
		return "The " + kind + " \"" + name + "\" is invalid: spec." + field + ": Invalid value: v1.LabelSelector{}: field is immutable"
	}
	if err := ix.Add(recall.Doc{ID: "selector", Title: "apply rejected after the label cleanup", ErrorText: invalid("Deployment", "payments", "selector"),
		Content: "The cleanup renamed the payments selector; a selector cannot change once created.\nkubectl delete deployment payments && kubectl apply -f k8s/payments.yaml"}); err != nil {
		t.Fatal(err)
	}
	w := recall.DefaultWeights()
	if hits := ix.Search(recall.Query{ErrorText: invalid("Deployment", "payments", "selector"), Now: now}, w, 3); len(hits) == 0 || hits[0].ID != "selector" {
		t.Errorf("the same failure: hits %v, want selector", ids(hits))
	}
	hits := ix.Search(recall.Query{ErrorText: invalid("Job", "db-migrate", "template"), Now: now}, w, 3)
	if len(hits) > 0 {
		t.Errorf("a Job's immutable template is another failure: hits %v", ids(hits))
	}
}
