// Package gen generates a deterministic, realistic corpus for evaluating
// recall: memory records about tool failures and their fixes, queries that
// describe the same failures differently, and the distractors a real
// memory holds.
//
// Every root cause (a failure kind and the specific thing that failed) is
// stored once, from one surface variant, and queried with its other
// variants and a free-text prompt, so the evaluation measures how well the
// engine generalizes across paths, versions, positions and wording, never
// string equality. Distractors: environment twins (the same output on
// another OS with another fix), superseded fixes next to their successors,
// contradicted records with a wrong fix, and fillers of the same tools with
// other failures, whose made-up keys take the shape of their family's
// keys (a port, a key id, pkg.Func), so only the value tells them apart. Some root causes are never stored; their queries must get
// no answer at all.
//
// The events the corpus stands for:
// memory/memory-agent-ingress-v1.schema.json.
package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/memory/recall"
)

// Config sets the size and seed of a generated corpus.
type Config struct {
	// Seed makes the corpus reproducible; the same Config gives the same
	// corpus.
	Seed uint64
	// Records is the total number of records, fillers included. If it is
	// smaller than the number of core records, only core records are made.
	Records int
	// Now anchors record ages; zero means 2025-06-01.
	Now time.Time
}

// Corpus is a generated set of records and evaluation cases.
type Corpus struct {
	Docs  []recall.Doc
	Cases []recall.Case
	// RootCauses counts the distinct stored root causes (environment
	// twins count separately: their fix differs).
	RootCauses int
	// HeldOut counts root causes that are never stored.
	HeldOut int
	// Distractors counts twin, superseded and contradicted records.
	Distractors int
}

// rootCause is one family key in one environment.
type rootCause struct {
	fam     *family
	key, k2 string
	os      string
	fix     string
	id      string
	twin    bool
}

var (
	projects = []string{"billing", "atlas", "webshop", "ledger-api", "pipeline", "mobile-bff", "auth-service",
		"data-lake", "infra", "docs-site", "search", "notifier", "scheduler", "gateway", "crm", "analytics",
		"inventory", "chat", "media", "payments", "reports", "admin-ui", "etl", "ml-serving"}
	users  = []string{"alice", "bob", "runner", "ci", "dev", "mkim", "jdoe", "build", "ubuntu", "agent"}
	files  = []string{"handler", "server", "main", "config", "user_service", "db", "api", "router", "utils", "index", "app", "worker", "cache", "models", "views", "client", "auth", "store", "queue", "session", "loader", "parser", "report", "export"}
	phases = []string{"plan", "implement", "test", "build", "deploy", "review"}
	trusts = []recall.Trust{recall.TrustRaw, recall.TrustLocalAuto, recall.TrustLocalAuto, recall.TrustReviewed, recall.TrustVerified}
)

// Generate builds a corpus from cfg. It is deterministic.
func Generate(cfg Config) Corpus {
	now := cfg.Now
	if now.IsZero() {
		now = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	}
	g := newGenerator(cfg.Seed, now)

	var c Corpus
	for fi := range families {
		f := &families[fi]
		// Whole families are held out now and then: an error kind the
		// memory has never seen. Families with distractors always stay.
		famHeld := f.twinOS == "" && f.oldFix == "" && fi%9 == 4
		for ki, key := range f.keys {
			k, k2, _ := strings.Cut(key, "|")
			rc := rootCause{fam: f, key: k, k2: k2, os: f.os, fix: f.fix, id: fmt.Sprintf("rc-%02d-%d", fi, ki)}
			held := famHeld || (len(f.keys) >= 3 && ki == len(f.keys)-1)
			if held {
				c.HeldOut++
				g.neverStored(&c, rc)
				continue
			}
			sv := g.rng.IntN(len(f.variants))
			g.store(&c, rc, sv)
			if f.twinOS != "" {
				// The twin prints the very same output: only the
				// environment tells the two apart.
				twin := rc
				twin.os, twin.fix, twin.id, twin.twin = f.twinOS, f.twinFix, rc.id+"-twin", true
				g.store(&c, twin, sv)
			}
		}
	}
	for n := 0; len(c.Docs) < cfg.Records; n++ {
		c.Docs = append(c.Docs, g.filler(n))
	}
	// Shuffle so that record order (and so doc numbers) carries no hint.
	g.rng.Shuffle(len(c.Docs), func(i, j int) { c.Docs[i], c.Docs[j] = c.Docs[j], c.Docs[i] })
	return c
}

// newGenerator returns the generator of seed: its random stream and its
// two vocabularies.
func newGenerator(seed uint64, now time.Time) *generator {
	g := &generator{rng: rand.New(rand.NewPCG(seed, 0x5eed)), now: now}
	g.vocab = makeVocab(rand.New(rand.NewPCG(seed, 0x70ca)), 6000, nil)
	g.zipf = rand.NewZipf(rand.New(rand.NewPCG(seed, 0x21bf)), 1.1, 8, uint64(len(g.vocab)-1))
	// The names fillers are about come from words of their own: a
	// never-stored query's random identifiers (a namespace, a test, a
	// branch) must not be, by construction, the very names stored
	// records are about. Drawn from one small Zipf vocabulary, they were
	// often enough that a query's namespace was a filler's resource.
	g.keyVocab = makeVocab(rand.New(rand.NewPCG(seed, 0x6b65)), 6000, g.vocab)
	g.keyZipf = rand.NewZipf(rand.New(rand.NewPCG(seed, 0x6b66)), 1.1, 8, uint64(len(g.keyVocab)-1))
	return g
}

type generator struct {
	rng   *rand.Rand
	now   time.Time
	vocab []string   // noise: random identifiers, filler prose
	zipf  *rand.Zipf // over vocab
	// keyVocab holds the made-up names fillers are about; it shares no
	// word with vocab.
	keyVocab []string
	keyZipf  *rand.Zipf
}

// store adds the record for rc, its distractors and the queries that should
// find it.
func (g *generator) store(c *Corpus, rc rootCause, sv int) {
	f := rc.fam
	project := pick(g.rng, projects)
	raw := g.expand(f.variants[sv], rc, project, rc.os)
	title := g.expand(f.title, rc, project, rc.os)
	if rc.twin || f.twinOS != "" {
		title += " on " + osLabel(rc.os)
	}
	doc := g.doc(rc.id, title, raw, g.expand(rc.fix, rc, project, rc.os), rc, project)
	c.Docs = append(c.Docs, doc)
	c.RootCauses++

	if f.oldFix != "" {
		old := g.doc(rc.id+"-old", title+" (workaround)", g.expand(f.variants[sv], rc, pick(g.rng, projects), rc.os),
			g.expand(f.oldFix, rc, project, rc.os), rc, pick(g.rng, projects))
		old.Superseded = true
		old.Marks.Superseded = 1
		old.UpdatedAt = doc.UpdatedAt.Add(-time.Duration(200+g.rng.IntN(300)) * 24 * time.Hour)
		old.EvidenceCount += 3 // the old fix was popular before the upgrade
		c.Docs = append(c.Docs, old)
		c.Distractors++
	}
	if rc.twin {
		c.Distractors++
	}
	if g.rng.IntN(7) == 0 {
		bad := g.doc(rc.id+"-bad", title, g.expand(f.variants[sv], rc, pick(g.rng, projects), rc.os),
			"Worked around it by deleting the caches, reinstalling everything and retrying the command.", rc, pick(g.rng, projects))
		bad.Marks.Contradicted = 2
		bad.Marks.TaskFailed = 1
		c.Docs = append(c.Docs, bad)
		c.Distractors++
	}

	for v := range f.variants {
		if v == sv {
			continue
		}
		c.Cases = append(c.Cases, recall.Case{Query: g.errorQuery(f.variants[v], rc), Want: rc.id, RootCause: rc.id})
	}
	c.Cases = append(c.Cases, recall.Case{Query: g.promptQuery(rc), Want: rc.id, RootCause: rc.id})
}

// neverStored adds the queries of a root cause that has no record.
func (g *generator) neverStored(c *Corpus, rc rootCause) {
	for _, v := range rc.fam.variants {
		c.Cases = append(c.Cases, recall.Case{Query: g.errorQuery(v, rc), RootCause: rc.id})
	}
	c.Cases = append(c.Cases, recall.Case{Query: g.promptQuery(rc), RootCause: rc.id})
}

func (g *generator) errorQuery(variant string, rc rootCause) recall.Query {
	project := pick(g.rng, projects)
	os := g.osFor(rc.os)
	return recall.Query{
		ErrorText:   g.expand(variant, rc, project, os),
		ToolName:    rc.fam.tool,
		Project:     project,
		Environment: g.env(rc.fam, os),
		Phase:       pick(g.rng, phases),
		Now:         g.now,
	}
}

func (g *generator) promptQuery(rc rootCause) recall.Query {
	project := pick(g.rng, projects)
	os := g.osFor(rc.os)
	return recall.Query{
		Text:        g.expand(rc.fam.prompt, rc, project, os),
		Project:     project,
		Environment: g.env(rc.fam, os),
		Now:         g.now,
	}
}

func (g *generator) doc(id, title, raw, fix string, rc rootCause, project string) recall.Doc {
	os := g.osFor(rc.os)
	what := firstLine(raw)
	if keys := recall.KeyLines(raw); len(keys) > 0 {
		what = keys[0]
	}
	content := fmt.Sprintf("What: %s\nWhy: %s\nWhere: %s while running %s in %s\nLearned: %s",
		what, title, osLabel(os), rc.fam.tool, project, fix)
	return recall.Doc{
		ID:            id,
		Title:         title,
		Content:       content,
		ErrorText:     raw,
		ToolNames:     []string{rc.fam.tool},
		Project:       project,
		Environment:   g.env(rc.fam, os),
		Phase:         pick(g.rng, phases),
		Trust:         pick(g.rng, trusts),
		EvidenceCount: g.rng.IntN(4),
		UpdatedAt:     g.now.Add(-time.Duration(g.rng.IntN(400*24)) * time.Hour),
	}
}

// osFor returns fixed when the failure is OS-specific, else a typical mix.
func (g *generator) osFor(fixed string) string {
	if fixed != "" {
		return fixed
	}
	switch n := g.rng.IntN(10); {
	case n < 6:
		return "linux"
	case n < 9:
		return "darwin"
	default:
		return "windows"
	}
}

func (g *generator) env(f *family, os string) map[string]string {
	env := map[string]string{"os": os}
	switch os {
	case "linux":
		env["shell"], env["arch"] = "bash", pick(g.rng, []string{"amd64", "amd64", "arm64"})
	case "darwin":
		env["shell"], env["arch"] = "zsh", pick(g.rng, []string{"arm64", "arm64", "amd64"})
	default:
		env["shell"], env["arch"] = "pwsh", "amd64"
	}
	if f.lang != "" {
		env["language"] = f.lang
	}
	if f.pm != "" {
		env["package_manager"] = f.pm
	}
	tool, _, _ := strings.Cut(f.tool, " ")
	env[tool] = fmt.Sprintf("%d.%d.%d", 1+g.rng.IntN(20), g.rng.IntN(30), g.rng.IntN(10))
	return env
}

// expand fills a template with the key of rc and fresh noise.
func (g *generator) expand(tmpl string, rc rootCause, project, os string) string {
	if !strings.Contains(tmpl, "{") {
		return tmpl
	}
	user := pick(g.rng, users)
	var dir string
	switch os {
	case "darwin":
		dir = "/Users/" + user + "/code/" + project
	case "windows":
		dir = `C:\Users\` + user + `\src\` + project
	default:
		dir = pick(g.rng, []string{"/home/" + user + "/src/", "/workspace/", "/builds/acme/", "/srv/app/"}) + project
	}
	r := g.rng
	hex := func(n int) string {
		const digits = "0123456789abcdef"
		b := make([]byte, n)
		for i := range b {
			b[i] = digits[r.IntN(16)]
		}
		return string(b)
	}
	return strings.NewReplacer(
		"{K2}", rc.k2, "{K}", rc.key,
		"{P}", dir, "{F}", pick(r, files),
		"{L}", fmt.Sprint(1+r.IntN(400)), "{C}", fmt.Sprint(1+r.IntN(80)),
		"{V}", fmt.Sprintf("%d.%d.%d", r.IntN(20), r.IntN(40), r.IntN(20)),
		"{V2}", fmt.Sprintf("%d.%d", 1+r.IntN(20), r.IntN(30)),
		"{H}", "0x"+hex(6+r.IntN(6)), "{D}", fmt.Sprintf("%d.%03ds", r.IntN(120), r.IntN(1000)),
		"{N}", fmt.Sprint(1000+r.IntN(90000)),
		"{T}", g.now.Add(-time.Duration(r.IntN(1e6))*time.Second).Format("2006-01-02T15_04_05_000Z"),
		"{TMP}", pick(r, []string{"/tmp/", "/var/folders/xy/" + hex(8) + "/T/"})+"build"+hex(6),
		"{U}", hex(8)+"-"+hex(4)+"-"+hex(4)+"-"+hex(4)+"-"+hex(12),
		"{R}", g.word(), "{MOD}", "github.com/acme/"+project,
		"{HASH}", "h1:"+hex(43)+"=",
	).Replace(tmpl)
}

func (g *generator) word() string { return g.vocab[g.zipf.Uint64()] }

// keyWord returns a made-up name for a filler's key (see keyVocab).
func (g *generator) keyWord() string { return g.keyVocab[g.keyZipf.Uint64()] }

// filler makes a record that matches none of the root causes: a failure of
// a known kind about a made-up thing, a made-up failure of a known tool, or
// a note without an error.
func (g *generator) filler(n int) recall.Doc {
	id := fmt.Sprintf("fill-%06d", n)
	f := &families[g.rng.IntN(len(families))]
	project := pick(g.rng, projects)
	switch g.rng.IntN(10) {
	case 0, 1, 2, 3:
		if f.keys[0] != "" {
			rc := rootCause{fam: f, os: f.os}
			rc.key, rc.k2 = g.fillerKey(f)
			raw := g.expand(f.variants[g.rng.IntN(len(f.variants))], rc, project, g.osFor(f.os))
			fix := fmt.Sprintf("Fixed by %s the %s %s before %s.", g.word(), g.word(), g.word(), g.word())
			return g.doc(id, g.expand(f.title, rc, project, ""), raw, fix, rc, project)
		}
		fallthrough
	case 4, 5, 6:
		rc := rootCause{fam: f}
		raw := fmt.Sprintf("%s: error: %s %s %s '%s'\n%s failed: %s %s",
			f.tool, g.word(), g.word(), g.word(), g.word()+"."+g.word(), f.tool, g.word(), g.word())
		title := fmt.Sprintf("%s fails with %s %s", f.tool, g.word(), g.word())
		fix := fmt.Sprintf("Set %s to %s in %s; %s %s.", g.word(), g.word(), g.word(), g.word(), g.word())
		return g.doc(id, title, raw, fix, rc, project)
	default:
		rc := rootCause{fam: f}
		title := fmt.Sprintf("Decision: use %s for %s", g.word(), g.word())
		var b strings.Builder
		for i := 0; i < 25; i++ {
			b.WriteString(g.word())
			b.WriteByte(' ')
		}
		d := g.doc(id, title, "", b.String(), rc, project)
		d.ToolNames = nil
		return d
	}
}

// fillerKey makes up a key for a filler record of family f in the shape
// of the family's own keys: a port for a port, a 16-digit key id for a key
// id, pkg.Func for a Go function, a header for a header. A filler about
// "kalo_viter" in a family of ports would be told apart by its shape
// alone; a filler about port 4173 must be told apart by its value, as a
// real memory must.
func (g *generator) fillerKey(f *family) (key, k2 string) {
	var firsts, seconds []string
	for _, k := range f.keys {
		a, b, _ := strings.Cut(k, "|")
		firsts, seconds = append(firsts, a), append(seconds, b)
	}
	for {
		key = g.shaped(pick(g.rng, firsts), firsts)
		if seconds[0] != "" {
			k2 = g.shaped(pick(g.rng, seconds), seconds)
		}
		if !slices.Contains(firsts, key) && key != "" {
			return key, k2
		}
	}
}

// shaped returns a made-up name in the shape of like: every letter run
// (split at camel-case humps) becomes a made-up word in the same case,
// every digit run random digits of the same length, punctuation stays.
// Parts that several keys of the family share (github, com, Test, use)
// and a short lower-case extension at the end (.h, .txt, .lock) stay as
// they are: they are the shape, not the name. A key that is all
// upper-case hex (a GPG key id) becomes other hex digits.
func (g *generator) shaped(like string, all []string) string {
	if len(like) >= 8 && strings.Trim(like, "0123456789ABCDEF") == "" {
		const digits = "0123456789ABCDEF"
		b := make([]byte, len(like))
		for i := range b {
			b[i] = digits[g.rng.IntN(16)]
		}
		return string(b)
	}
	shared := make(map[string]int)
	for _, k := range all {
		seen := make(map[string]bool)
		for _, p := range nameParts(k) {
			if !seen[p] {
				seen[p] = true
				shared[p]++
			}
		}
	}
	parts := nameParts(like)
	var b strings.Builder
	for i, p := range parts {
		r := p[0]
		switch {
		case r >= '0' && r <= '9':
			for j := range p {
				d := g.rng.IntN(10)
				if j == 0 && len(p) > 1 {
					d = 1 + g.rng.IntN(9)
				}
				b.WriteByte(byte('0' + d))
			}
		case isLetter(r):
			ext := i == len(parts)-1 && i > 0 && parts[i-1] == "." && len(p) <= 4 && strings.ToLower(p) == p
			if shared[p] >= 2 || ext {
				b.WriteString(p)
				continue
			}
			w := g.keyWord()
			switch {
			case len(p) > 1 && strings.ToUpper(p) == p:
				w = strings.ToUpper(w)
			case r >= 'A' && r <= 'Z':
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
		default:
			b.WriteString(p)
		}
	}
	return b.String()
}

// nameParts splits a name into letter runs (split at camel-case humps),
// digit runs and single other characters.
func nameParts(s string) []string {
	var out []string
	start := 0
	kind := func(c byte) int {
		switch {
		case c >= '0' && c <= '9':
			return 1
		case isLetter(c):
			return 2
		}
		return 3
	}
	for i := 1; i <= len(s); i++ {
		if i < len(s) {
			a, b := s[i-1], s[i]
			same := kind(a) == kind(b) && kind(a) != 3
			hump := kind(a) == 2 && a >= 'a' && a <= 'z' && b >= 'A' && b <= 'Z'
			if same && !hump {
				continue
			}
		}
		out = append(out, s[start:i])
		start = i
	}
	return out
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// makeVocab returns n distinct pronounceable made-up words, none of them
// in exclude.
func makeVocab(r *rand.Rand, n int, exclude []string) []string {
	syll := []string{"ka", "lo", "vi", "zu", "mer", "tan", "dex", "ro", "pli", "sen", "qua", "bor", "fi", "nel", "ust", "gra", "mon", "ter", "wy", "os", "chi", "pra", "lum", "ved", "ix", "sar", "bel", "tor", "nu", "gal"}
	seen := make(map[string]bool, n+len(exclude))
	for _, w := range exclude {
		seen[w] = true
	}
	out := make([]string, 0, n)
	for len(out) < n {
		k := 2 + r.IntN(3)
		var b strings.Builder
		for i := 0; i < k; i++ {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		w := b.String()
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

func osLabel(os string) string {
	switch os {
	case "darwin":
		return "macOS"
	case "windows":
		return "Windows"
	case "linux":
		return "Linux"
	}
	return "any OS"
}
