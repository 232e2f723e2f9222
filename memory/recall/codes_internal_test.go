package recall

import (
	"slices"
	"testing"
)

func TestErrorCodes(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"ERR_PNPM_OUTDATED_LOCKFILE on the install step, right after I added @floating-ui/react", []string{"err_pnpm_outdated_lockfile"}},
		{"npm install died on ERESOLVE, then EACCES on the cache", []string{"eresolve", "eacces"}},
		{"tsc says TS2307 for every .css import; cargo gives E0433; ruff flags F401", []string{"ts2307", "e0433", "f401"}},
		{"the pod sat in CrashLoopBackOff, then OOMKilled", []string{"crashloopbackoff", "oomkilled"}},
		{"looping on AddressSanitizer:DEADLYSIGNAL before main", []string{"deadlysignal"}},
		{"minikube start exits with RSRC_DOCKER_STORAGE, Docker is out of disk space", []string{"rsrc_docker_storage"}},
		{"the worker got SIGKILL", []string{"sigkill"}},
		// Words, settings and standards are no codes.
		{"ERROR: EVERY build, EXPORT failed", nil},
		{"JAVA_HOME points at 17 and NODE_OPTIONS has --max-old-space-size; MODEL_URI is unset", nil},
		{"the SHA256 of the tarball changed; RFC8785 says so; built for AMD64 and ARM64", nil},
		{"error code enoent in lower case is prose", nil},
		// Part of a path or a longer name is no code.
		{"see docs/E1234.md and foo.TS2307", nil},
	} {
		if got := errorCodes(c.text); !slices.Equal(got, c.want) {
			t.Errorf("errorCodes(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// A note that names its failure's code only in its narration, and
// quotes nothing, is found by the output printing that code, and only
// by that: another code, or none, is another failure. A code inside the
// output the note quotes counts with the rest of its line, so the same
// code printed with another message does not find that note.
func TestCodeSignal(t *testing.T) {
	ix := NewIndex()
	docs := []Doc{
		{ID: "pnpm", Title: "CI: pnpm frozen lockfile", Content: "ERR_PNPM_OUTDATED_LOCKFILE on the install step, right after I added @floating-ui/react to packages/ui\nI ran npm install in packages/ui by mistake."},
		{ID: "watchers", Title: "vite: too many file watchers", Content: "vite dev died with `Error: ENOSPC: System limit for number of file watchers reached`\nRaised fs.inotify.max_user_watches."},
		{ID: "other", Title: "npm peer deps", Content: "npm install failed with ERESOLVE on react 18\nUsed --legacy-peer-deps."},
	}
	for _, d := range docs {
		d.About = d.Content
		d.ErrorText = NoteErrorText(d.Content)
		if err := ix.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	pnpm := ` ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/apps/docs/package.json`
	hits := ix.Search(Query{ErrorText: pnpm}, DefaultWeights(), 3)
	if len(hits) == 0 || hits[0].ID != "pnpm" || !slices.ContainsFunc(hits[0].Reasons, func(r Reason) bool { return r.Value == "the error code: err_pnpm_outdated_lockfile" }) {
		t.Fatalf("the note naming the code is not found by it: %+v", hits)
	}
	if hits := ix.Search(Query{ErrorText: ` ERR_PNPM_JSON_PARSE  Unexpected token } in JSON at position 388 while parsing package.json`}, DefaultWeights(), 3); len(hits) > 0 && hits[0].ID == "pnpm" {
		t.Errorf("another code of the same tool finds the note: %+v", hits[0])
	}
	for _, h := range ix.Search(Query{ErrorText: "Error: ENOSPC: no space left on device, write"}, DefaultWeights(), 3) {
		for _, r := range h.Reasons {
			if r.Value == "the error code: enospc" {
				t.Errorf("a code the note quotes in a line of output counts apart from the line: %+v", h)
			}
		}
	}
}

// TestObjectPrefix: a query names an object it prints as the start of a
// longer name (pgx in pgxpool), not as the start of an English word made
// from it (mock in mocker), and a release (v5) is no object.
func TestObjectPrefix(t *testing.T) {
	ix := NewIndex()
	for _, w := range []string{"pgx", "pgxpool", "mock", "mocker", "sqlite", "sqlite3", "mysqlite3", "go"} {
		ix.lex.id(w)
	}
	ids := func(ws ...string) []int32 {
		var out []int32
		for _, w := range ws {
			out = append(out, ix.lex.ids[w])
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		obj   string
		query []string
		want  bool
	}{
		{"pgx", []string{"pgxpool", "go"}, true},
		{"mock", []string{"mocker"}, false},
		{"pgx", []string{"go"}, false},
		{"go", []string{"pgx"}, false},
		{"sqlite", []string{"sqlite3"}, true},
		{"sqlite", []string{"mysqlite3"}, false},
	} {
		if got := ix.allPrefixed(ids(c.obj), ids(c.query...)); got != c.want {
			t.Errorf("allPrefixed(%s, %v) = %v, want %v", c.obj, c.query, got, c.want)
		}
	}
	if !releaseTerm("v5") || releaseTerm("vite") || releaseTerm("v") {
		t.Errorf("releaseTerm: v5 is a release, vite and v are not")
	}
}

// TestKindWithoutFiller: the words a kind's titles share that name no
// kind ("not", "fails") do not make a record titled otherwise another
// kind of failure.
func TestKindWithoutFiller(t *testing.T) {
	if got := withoutFiller([]string{"not", "npx", "fails"}); !slices.Equal(got, []string{"npx"}) {
		t.Errorf("withoutFiller = %q, want [npx]", got)
	}
	if got := withoutFiller([]string{"not"}); len(got) != 0 {
		t.Errorf("withoutFiller([not]) = %q, want none", got)
	}
}
