package recall_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/recall"
)

var now = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

func TestNormalizeErrorSameFailureElsewhere(t *testing.T) {
	a := "\x1b[31mError: Cannot find module 'lodash'\x1b[0m\nRequire stack:\n- /home/alice/src/shop/src/server.js:12:7\n  at 2024-03-01T10:11:12Z pid 4412 took 35ms"
	b := "Error: Cannot find module 'lodash'\nRequire stack:\n- C:\\Users\\bob\\work\\shop\\src\\server.js:98:1\n  at 2025-01-09T08:00:00Z pid 17 took 1.2s"
	if na, nb := recall.NormalizeError(a), recall.NormalizeError(b); na != nb {
		t.Errorf("normalized outputs differ:\n%q\n%q", na, nb)
	}
	if sa, sb := recall.ErrorSignature(a), recall.ErrorSignature(b); sa != sb || sa == "" {
		t.Errorf("signatures differ or empty: %q %q", sa, sb)
	}
	other := "Error: Cannot find module 'express'\nRequire stack:\n- /home/alice/src/shop/src/server.js:12:7"
	if recall.ErrorSignature(a) == recall.ErrorSignature(other) {
		t.Error("a missing lodash and a missing express share a signature; the module name must survive")
	}
}

func TestNormalizeErrorPlaceholders(t *testing.T) {
	cases := []struct{ in, want string }{
		{"panic at 0xc000123abc in goroutine 42", "panic at <hex> in goroutine <n>"},
		{"request 123e4567-e89b-12d3-a456-426614174000 failed", "request <uuid> failed"},
		{"open /tmp/go-build12345/b001/x.a: denied", "open <tmp>: denied"},
		{"read /home/u/proj/node_modules/sharp/lib/index.js failed", "read sharp failed"},
		{"requires go >= 1.22.3", "requires go >= <ver>"},
		{"  many    spaces\n\n\tand tabs ", "many spaces\nand tabs"},
		{"main.go:12:5: undefined: errors.Join", "main.go: undefined: errors.Join"},
	}
	for _, c := range cases {
		if got := recall.NormalizeError(c.in); got != c.want {
			t.Errorf("NormalizeError(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestErrorSignaturePicksErrorLines(t *testing.T) {
	a := "Compiling foo v1.0.0\nwarming cache 10%\nerror[E0433]: failed to resolve: use of undeclared crate or module `tokio`"
	b := "Compiling foo v2.3.1\nwarming cache 90%\nerror[E0433]: failed to resolve: use of undeclared crate or module `tokio`"
	if recall.ErrorSignature(a) != recall.ErrorSignature(b) {
		t.Error("progress lines changed the signature")
	}
	if recall.ErrorSignature("") != "" {
		t.Error("empty output has a signature")
	}
}

func TestCodeSymbols(t *testing.T) {
	got := recall.CodeSymbols("undefined: errors.Join\nModuleNotFoundError: No module named 'yaml'\n" +
		"no required module provides package golang.org/x/sync/errgroup\nat main.go:3")
	for _, want := range []string{"errors.join", "yaml", "golang.org/x/sync/errgroup"} {
		if !slices.Contains(got, want) {
			t.Errorf("CodeSymbols = %q, missing %q", got, want)
		}
	}
	if slices.Contains(got, "main.go") {
		t.Errorf("CodeSymbols = %q, holds a file name", got)
	}
}

func TestTokenizeDropsPlaceholdersAndNumbers(t *testing.T) {
	got := recall.Tokenize("the <path> failed at <n> with code 137 in pkg.Func at 12")
	want := []string{"failed", "code", "137", "pkg", "func"}
	if !slices.Equal(got, want) {
		t.Errorf("Tokenize = %q, want %q", got, want)
	}
}

func doc(id, title, errText string) recall.Doc {
	return recall.Doc{
		ID: id, Title: title, Content: "Learned: " + title, ErrorText: errText,
		ToolNames: []string{"npm"}, Trust: recall.TrustReviewed, UpdatedAt: now.Add(-24 * time.Hour),
	}
}

func smallIndex(t *testing.T, docs ...recall.Doc) *recall.Index {
	t.Helper()
	ix := recall.NewIndex()
	for _, d := range docs {
		if err := ix.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	return ix
}

func corpus() []recall.Doc {
	return []recall.Doc{
		doc("eresolve", "npm ERESOLVE peer react conflict", "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! peer react@\"^17\" from react-dom@18.2.0"),
		doc("lodash", "Cannot find module 'lodash'", "Error: Cannot find module 'lodash'\nRequire stack:\n- /srv/app/index.js"),
		doc("eaddr", "port 3000 already in use", "Error: listen EADDRINUSE: address already in use :::3000"),
		doc("gyp", "node-gyp needs make", "gyp ERR! stack Error: not found: make"),
	}
}

func TestSearchFindsFailureFromOtherMachine(t *testing.T) {
	ix := smallIndex(t, corpus()...)
	hits := ix.Search(recall.Query{
		ErrorText: "Error: Cannot find module 'lodash'\nRequire stack:\n- C:\\Users\\x\\proj\\src\\main.js:4:2",
		ToolName:  "npm", Now: now,
	}, recall.DefaultWeights(), 3)
	if len(hits) == 0 || hits[0].ID != "lodash" {
		t.Fatalf("hits = %+v, want lodash first", hits)
	}
	if hits[0].Reasons[0].Signal != recall.SignalErrorSignature {
		t.Errorf("first reason = %+v, want error_signature", hits[0].Reasons[0])
	}
}

func TestSearchStaysSilentForUnknownError(t *testing.T) {
	ix := smallIndex(t, corpus()...)
	for _, q := range []recall.Query{
		{ErrorText: "fatal: refusing to merge unrelated histories", ToolName: "git", Now: now},
		{Text: "how do I configure kubernetes ingress tls", Now: now},
		{},
	} {
		if hits := ix.Search(q, recall.DefaultWeights(), 5); len(hits) != 0 {
			t.Errorf("query %+v got %d hits, want none; first %+v", q, len(hits), hits[0])
		}
	}
}

func TestReasonsSumToScore(t *testing.T) {
	docs := corpus()
	docs[1].Project, docs[1].Phase = "shop", "build"
	docs[1].Environment = map[string]string{"os": "linux"}
	docs[1].Dimensions = map[string][]string{"stack": {"node"}}
	docs[1].EvidenceCount = 2
	docs[1].Marks.TaskFailed = 1
	ix := smallIndex(t, docs...)
	hits := ix.Search(recall.Query{
		Text: "cannot find module lodash", ErrorText: "Error: Cannot find module 'lodash'",
		ToolName: "npm", Project: "shop", Phase: "build", Now: now,
		Environment: map[string]string{"os": "linux"}, Dimensions: map[string][]string{"stack": {"node"}},
	}, recall.DefaultWeights(), 5)
	if len(hits) == 0 {
		t.Fatal("no hits")
	}
	seen := map[recall.Signal]bool{}
	for _, h := range hits {
		var sum float64
		for _, r := range h.Reasons {
			sum += r.Contribution
			seen[r.Signal] = true
		}
		if math.Abs(sum-h.Score) > 1e-9 {
			t.Errorf("%s: reasons sum to %v, score is %v", h.ID, sum, h.Score)
		}
	}
	for _, s := range []recall.Signal{recall.SignalSameProject, recall.SignalEnvironment, recall.SignalPhase,
		recall.SignalDimension, recall.SignalRecency, recall.SignalTrust, recall.SignalEvidence, recall.SignalNegative, recall.SignalToolName} {
		if !seen[s] {
			t.Errorf("no %s reason", s)
		}
	}
}

func TestSupersededSinksBelowSuccessor(t *testing.T) {
	errText := "Oops! Something went wrong! :(\nESLint couldn't find an eslint.config.(js|mjs|cjs) file."
	old := doc("old", "ESLint config not found: use ESLINT_USE_FLAT_CONFIG=false", errText)
	old.Superseded, old.EvidenceCount = true, 9
	cur := doc("new", "ESLint 9 needs eslint.config.js", errText)
	ix := smallIndex(t, old, cur)
	hits := ix.Search(recall.Query{ErrorText: errText, Now: now}, recall.DefaultWeights(), 5)
	if len(hits) == 0 || hits[0].ID != "new" {
		t.Fatalf("hits = %+v, want new first", hits)
	}
	for _, h := range hits {
		if h.ID == "old" && !slices.Contains(h.Marks, "superseded") {
			t.Errorf("old hit lacks the superseded mark: %+v", h)
		}
	}
}

func TestEnvironmentDecidesBetweenTwins(t *testing.T) {
	errText := "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?"
	linux := doc("linux", "start dockerd with systemctl", errText)
	linux.Environment = map[string]string{"os": "linux", "shell": "bash"}
	mac := doc("mac", "open Docker Desktop", errText)
	mac.Environment = map[string]string{"os": "darwin", "shell": "zsh"}
	ix := smallIndex(t, linux, mac)
	for os, want := range map[string]string{"linux": "linux", "darwin": "mac"} {
		hits := ix.Search(recall.Query{ErrorText: errText, Environment: map[string]string{"os": os}, Now: now}, recall.DefaultWeights(), 2)
		if len(hits) == 0 || hits[0].ID != want {
			t.Errorf("os=%s: hits = %+v, want %s first", os, hits, want)
		}
	}
}

func TestAddReplaceRemove(t *testing.T) {
	ix := smallIndex(t, corpus()...)
	if err := ix.Add(corpus()[0]); !errors.Is(err, recall.ErrDuplicate) {
		t.Errorf("second Add = %v, want ErrDuplicate", err)
	}
	if err := ix.Add(recall.Doc{}); !errors.Is(err, recall.ErrEmptyID) {
		t.Errorf("Add without ID = %v, want ErrEmptyID", err)
	}
	if err := ix.Remove("nope"); !errors.Is(err, recall.ErrNotFound) {
		t.Errorf("Remove unknown = %v, want ErrNotFound", err)
	}
	q := recall.Query{ErrorText: "gyp ERR! stack Error: not found: make", Now: now}
	if err := ix.Remove("gyp"); err != nil {
		t.Fatal(err)
	}
	if hits := ix.Search(q, recall.DefaultWeights(), 5); slices.ContainsFunc(hits, func(h recall.Hit) bool { return h.ID == "gyp" }) {
		t.Error("removed record still found")
	}
	d := doc("eaddr", "node-gyp needs make (moved)", "gyp ERR! stack Error: not found: make")
	if err := ix.Replace(d); err != nil {
		t.Fatal(err)
	}
	if hits := ix.Search(q, recall.DefaultWeights(), 5); len(hits) == 0 || hits[0].ID != "eaddr" {
		t.Errorf("replaced record not found by its new text: %+v", hits)
	}
	if ix.Len() != 3 {
		t.Errorf("Len = %d, want 3", ix.Len())
	}
}

func TestValidateWeights(t *testing.T) {
	w := recall.DefaultWeights()
	w.Lexical = -1
	var fe *recall.FieldError
	if err := w.Validate(); !errors.As(err, &fe) || fe.Field != "Lexical" {
		t.Errorf("Validate = %v, want a FieldError for Lexical", err)
	}
	if hits := smallIndex(t, corpus()...).Search(recall.Query{Text: "lodash"}, w, 5); hits != nil {
		t.Errorf("invalid weights returned hits: %+v", hits)
	}
}

// TestConcurrentUse runs searches while records are added, replaced and
// removed; run with -race it checks the locking.
func TestConcurrentUse(t *testing.T) {
	ix := smallIndex(t, corpus()...)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				id := fmt.Sprintf("w%d-%d", g, i)
				d := doc(id, "flaky thing "+id, "Error: listen EADDRINUSE: address already in use :::3000")
				if err := ix.Replace(d); err != nil {
					t.Error(err)
					return
				}
				if i%2 == 0 {
					if err := ix.Remove(id); err != nil {
						t.Error(err)
						return
					}
				}
				ix.Search(recall.Query{ErrorText: "listen EADDRINUSE :::3000", Now: now}, recall.DefaultWeights(), 3)
			}
		}()
	}
	wg.Wait()
	if got, want := ix.Len(), len(corpus())+4*100; got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
}

func TestNormalizeErrorKeepsWhatNamesTheFailure(t *testing.T) {
	cases := []struct{ in, want string }{
		// A port names the service in the way; however it is printed,
		// it reads the same.
		{"Error: listen EADDRINUSE: address already in use :::5432", "Error: listen EADDRINUSE: address already in use port 5432"},
		{"dial tcp 127.0.0.1:5432: connect: refused", "dial tcp port 5432: connect: refused"},
		{"connection to localhost:8080 was refused", "connection to localhost port 8080 was refused"},
		{"HTTPSConnectionPool(host='pypi.org', port=443)", "HTTPSConnectionPool(host='pypi.org', port 443)"},
		// A docker tag's variant is another image; a pre-release is
		// part of the version.
		{"manifest for python:3.13-slim-buster not found", "manifest for python:<ver>-slim-buster not found"},
		{"requires foo 1.2.3-rc.1", "requires foo <ver>"},
		// Positions after names without an extension go.
		{"make: *** [Makefile:183: all] Error 1", "make: *** [Makefile: all] Error 1"},
		{"node:events:497\n  throw er;", "node:events\nthrow er;"},
		{"Foo.java:[12,5] error: cannot find symbol", "Foo.java: error: cannot find symbol"},
		{"npm log 2024-05-31T01_28_46_000Z-debug-0.log", "npm log <time>-debug-0.log"},
	}
	for _, c := range cases {
		if got := recall.NormalizeError(c.in); got != c.want {
			t.Errorf("NormalizeError(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if recall.ErrorSignature("listen EADDRINUSE: address already in use :::3000") ==
		recall.ErrorSignature("listen EADDRINUSE: address already in use :::8080") {
		t.Error("ports 3000 and 8080 share a signature; the port must survive")
	}
}

// A record about one object must not answer the same failure about
// another object, even when the object is a common word and many records
// of that kind exist.
func TestKeyMissSilencesAnotherObject(t *testing.T) {
	var docs []recall.Doc
	for i, name := range []string{"config", "request", "buffer", "state", "value", "handle", "client", "cache"} {
		docs = append(docs, recall.Doc{
			ID:        fmt.Sprintf("moved-%d", i),
			Title:     "E0382 borrow of moved value `" + name + "`",
			Content:   "Learned: clone `" + name + "` before the move.",
			ErrorText: "error[E0382]: borrow of moved value: `" + name + "`\n --> src/main.rs:10:5",
			ToolNames: []string{"cargo"}, Trust: recall.TrustReviewed, UpdatedAt: now,
		})
	}
	ix := smallIndex(t, docs...)
	w := recall.DefaultWeights()
	q := recall.Query{ErrorText: "error[E0382]: use of moved value: `config`\n --> src/lib.rs:99:1", ToolName: "cargo", Now: now}
	hits := ix.Search(q, w, 3)
	if len(hits) == 0 || hits[0].ID != "moved-0" {
		t.Fatalf("hits = %+v, want moved-0 (config) first", hits)
	}
	q.ErrorText = "error[E0382]: borrow of moved value: `sender`\n --> src/main.rs:10:5"
	if hits := ix.Search(q, w, 3); len(hits) > 0 {
		t.Errorf("a moved `sender` got %d hits (first %s, %.3f), want none", len(hits), hits[0].ID, hits[0].Score)
	}
}

func TestLeadAnswersToolResultOnlyWhenNothingElseFits(t *testing.T) {
	ix := recall.NewIndex()
	docs := []recall.Doc{
		{ID: "push", Title: "git push rejected: non-fast-forward", Content: "git pull --rebase, then push.",
			ErrorText: "To https://github.com/acme/shop.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'https://github.com/acme/shop.git'\nhint: Updates were rejected because the remote contains work that you do not have locally."},
		{ID: "lock", Title: "git: index.lock exists", Content: "Remove the stale lock after checking no git runs.",
			ErrorText: "fatal: Unable to create '/srv/shop/.git/index.lock': File exists."},
	}
	for _, d := range docs {
		if err := ix.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	// A floor nothing reaches, so only the lead rule can answer.
	w := recall.DefaultWeights()
	w.MinScore, w.Lead, w.LeadFloor = 2, 2, 0.05
	q := recall.Query{ErrorText: " ! [rejected]        feat -> feat (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/web.git'\nhint: Updates were rejected because the tip of your current branch is behind", Now: now}
	if hits := ix.Search(q, w, 3); len(hits) != 1 || hits[0].ID != "push" {
		t.Errorf("lead: hits = %v, want [push]", ids(hits))
	}
	// The lead is a note about the tool that failed, not another's.
	q.Command = "git push origin feat"
	if hits := ix.Search(q, w, 3); len(hits) != 1 || hits[0].ID != "push" {
		t.Errorf("lead after git push: hits = %v, want [push]", ids(hits))
	}
	q.Command = "sudo hg push"
	if hits := ix.Search(q, w, 3); len(hits) > 0 {
		t.Errorf("lead after hg push: hits = %v, want none", ids(hits))
	}
	q.Command = ""
	// The same words as a prompt have no output to lead with.
	if hits := ix.Search(recall.Query{Text: q.ErrorText, Now: now}, w, 3); len(hits) > 0 {
		t.Errorf("prompt: hits = %v, want none", ids(hits))
	}
	// Two records alike for the query: no lead.
	if err := ix.Add(recall.Doc{ID: "push2", Title: "git push rejected: non-fast-forward", Content: "git pull --rebase, then push.",
		ErrorText: "To https://github.com/acme/api.git\n ! [rejected]        dev -> dev (fetch first)\nerror: failed to push some refs to 'https://github.com/acme/api.git'\nhint: Updates were rejected because the remote contains work that you do not have locally."}); err != nil {
		t.Fatal(err)
	}
	if hits := ix.Search(q, w, 3); len(hits) > 0 {
		t.Errorf("two alike: hits = %v, want none", ids(hits))
	}
	w.Lead = 0
	if err := ix.Remove("push2"); err != nil {
		t.Fatal(err)
	}
	if hits := ix.Search(q, w, 3); len(hits) > 0 {
		t.Errorf("Lead 0: hits = %v, want none", ids(hits))
	}
}

// TestSuccessorsLetsASupersededRecordThrough: a superseded record that
// its penalty takes below the floor is still returned when the caller
// shows successors in its place, and only then.
func TestSuccessorsLetsASupersededRecordThrough(t *testing.T) {
	errText := "Oops! Something went wrong! :(\nESLint couldn't find an eslint.config.(js|mjs|cjs) file."
	old := doc("old", "ESLint config not found: use ESLINT_USE_FLAT_CONFIG=false", errText)
	old.Superseded = true
	ix := smallIndex(t, old)
	w := recall.DefaultWeights()
	for _, successors := range []bool{false, true} {
		hits := ix.Search(recall.Query{ErrorText: errText, Now: now, Successors: successors}, w, 5)
		if got := len(hits) == 1 && hits[0].ID == "old"; got != successors {
			t.Errorf("Successors %v: hits %+v", successors, hits)
		}
		if len(hits) == 1 && hits[0].Score >= w.MinScore {
			t.Errorf("the superseded record scores %.2f, above the floor %.2f: the test needs its penalty to take it below", hits[0].Score, w.MinScore)
		}
	}
}

// A twin whose note ties its fix to the query's system, and quotes the
// failure less fully than the note written on another system, comes
// first there: the system decides between notes on one output. On the
// other system the fuller note keeps its place.
func TestBoundTwinTakesTheQuerysSystem(t *testing.T) {
	linux := recall.Doc{ID: "linux", Title: "e2e job: Cypress binary missing",
		Content:     "e2e job fails before any spec: `The cypress npm package is installed, but the Cypress binary is missing.`\nThe workflow caches node_modules but not ~/.cache/Cypress.",
		ErrorText:   "The cypress npm package is installed, but the Cypress binary is missing.",
		Environment: map[string]string{"os": "linux"}, Trust: recall.TrustReviewed, EvidenceCount: 3, UpdatedAt: now.Add(-48 * time.Hour)}
	windows := recall.Doc{ID: "windows", Title: "Cypress binary missing on the Windows runner",
		Content:     "Same failure on the Windows leg, the Cypress binary is missing there too.\nThe Windows runners wipe %LOCALAPPDATA% after every job.",
		ErrorText:   "Error: the binary is missing",
		Environment: map[string]string{"os": "windows"}, PlatformBound: true, UpdatedAt: now.Add(-24 * time.Hour)}
	ix := smallIndex(t, append(corpus(), linux, windows)...)
	out := "The cypress npm package is installed, but the Cypress binary is missing.\n\nWe expected the binary to be installed here: C:\\Users\\ci\\AppData\\Local\\Cypress\\Cache\\13.6.4\\Cypress\\Cypress.exe\n\nReasons it may be missing:\n- You're caching node_modules but are not caching this path\n"
	for os, want := range map[string]string{"windows": "windows", "linux": "linux"} {
		hits := ix.Search(recall.Query{ErrorText: out, Environment: map[string]string{"os": os}, Now: now}, recall.DefaultWeights(), 2)
		if len(hits) == 0 || hits[0].ID != want {
			t.Errorf("os=%s: hits = %+v, want %s first", os, hits, want)
		}
	}
}

// A port the title names and the output prints is which service is in
// the way: the same bind failure on another port is another one.
func TestPortNamesTheService(t *testing.T) {
	d := doc("pg-port", "compose db can't bind 5432 on my mac", "Ports are not available: exposing port TCP 0.0.0.0:5432 -> 0.0.0.0:0: listen tcp 0.0.0.0:5432: bind: address already in use")
	d.Content = "Homebrew postgresql@14 was running as a service and held 5432.\nbrew services stop postgresql@14"
	ix := smallIndex(t, append(corpus(), d)...)
	out := func(port string) string {
		return "Error response from daemon: Ports are not available: exposing port TCP 0.0.0.0:" + port + " -> 127.0.0.1:0: listen tcp 0.0.0.0:" + port + ": bind: address already in use"
	}
	if hits := ix.Search(recall.Query{ErrorText: out("5432"), Now: now}, recall.DefaultWeights(), 2); len(hits) == 0 || hits[0].ID != "pg-port" {
		t.Errorf("port 5432: hits = %+v, want pg-port first", hits)
	}
	for _, h := range ix.Search(recall.Query{ErrorText: out("8000"), Now: now}, recall.DefaultWeights(), 2) {
		if h.ID == "pg-port" {
			t.Errorf("port 8000 finds the note about 5432: %+v", h)
		}
	}
}
