package sqlite_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store/sqlite"
)

// The catalogue benchmark's corpus: contributions whose words follow
// Zipf's law over a vocabulary of real words (the most frequent ranks)
// and made-up ones (the long tail), as text in a library does.

// commonWords are the most frequent ranks, in order: function words, then
// the field's words.
var commonWords = strings.Fields(`the of and to a in is that for it as with on by this be are from
at or an not which can we but has have was were their if its more one than only when all also
there these such no may other into two each so what how our any some use used using between both
data model result results method methods claim evidence proof test tests build builds reproducible
reproducibility code input inputs output outputs time version versions system systems value values
error errors measure measured measurement experiment experiments analysis sample samples number
numbers function functions set sets order first second new case cases example examples source sources
paper papers study studies question questions answer answers review reviews theorem lemma axiom
definition definitions proof proofs graph graphs node nodes edge edges map maps space spaces
discussion discussions document documents assessment assessments proposal proposals library libraries
agent agents memory network networks training trained learning learned dataset datasets benchmark
benchmarks latency throughput performance compiler compilers runtime language languages type types
protein proteins cell cells gene genes sequence sequences climate temperature ocean carbon energy
solar battery batteries material materials quantum particle particles field fields equation equations
prime primes integer integers matrix matrices vector vectors random probability distribution
distributions estimate estimates variance mean median bound bounds upper lower limit limits locale
sorting collation unicode timestamp timestamps clock clocks compiler flag flags container containers
kernel kernels driver drivers storage disk disks cache caches query queries index indexes search`)

// vocabulary is commonWords, then made-up words to rank n.
func vocabulary(n int) []string {
	words := slices.Clone(commonWords)
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	onsets := strings.Fields("b c d f g h k l m n p r s t v z br cr dr fl gr pl pr st tr sk")
	vowels := strings.Fields("a e i o u ai ea io ou")
	codas := strings.Fields("_ n r s t l m x nd st rk")
	r := rand.New(rand.NewSource(7))
	for len(words) < n {
		var sb strings.Builder
		for range 2 + r.Intn(2) {
			sb.WriteString(onsets[r.Intn(len(onsets))])
			sb.WriteString(vowels[r.Intn(len(vowels))])
			if c := codas[r.Intn(len(codas))]; c != "_" {
				sb.WriteString(c)
			}
		}
		if w := sb.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}

// corpusText draws n words of vocab by Zipf's law.
func corpusText(z *rand.Zipf, vocab []string, n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = vocab[z.Uint64()]
	}
	return strings.Join(words, " ")
}

// buildCorpus admits n contributions through AddContribution, from 32
// goroutines so commits are shared as a busy node's are: text kinds and
// research nodes, a tenth of the lineages revised once. Every
// contribution carries one author's real signature over another record:
// the store never checks signatures, and a hundred thousand of them would
// be most of the build.
func buildCorpus(tb testing.TB, s library.Store, n int) (titles []string) {
	ctx := context.Background()
	author, signature := benchAuthor(tb)
	vocab := vocabulary(30000)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	newContribution := func(r *rand.Rand, z *rand.Zipf, i int, previous string) library.NewContribution {
		title := corpusText(z, vocab, 3+r.Intn(8))
		c := library.Content{Title: title, Previous: previous, Links: []library.Link{}}
		switch i % 10 {
		case 0, 1, 2:
			c.Kind, c.Body = "research-node", map[string]any{"type": []string{"question", "claim", "observation"}[i%3],
				"statement": corpusText(z, vocab, 20+r.Intn(60)), "scope": corpusText(z, vocab, 5+r.Intn(10)),
				"assumptions": []any{}, "sources": []any{}, "programs": []any{}}
		case 3, 4:
			c.Kind, c.Body = "article", corpusText(z, vocab, 80+r.Intn(300))
		default:
			c.Kind, c.Body = "thread", corpusText(z, vocab, 20+r.Intn(120))
		}
		at := start.Add(time.Duration(i) * time.Second)
		rec, err := library.NewRecord(c, author, at)
		if err != nil {
			tb.Fatal(err)
		}
		return storedAs(tb, rec, signature, at)
	}
	noCheck := func(context.Context, library.Graph) error { return nil }
	titles = make([]string, 0, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	work := make(chan int)
	began := time.Now()
	for w := range 32 {
		wg.Go(func() {
			r := rand.New(rand.NewSource(int64(w)))
			z := rand.NewZipf(r, 1.07, 2, uint64(len(vocab)-1))
			for i := range work {
				c := newContribution(r, z, i, "")
				got, err := s.AddContribution(ctx, c, noCheck)
				if err != nil {
					tb.Error(err)
					return
				}
				if i%10 == 9 {
					// A revision of the lineage just made.
					rev := newContribution(r, z, i+n, got.ID)
					if _, err := s.AddContribution(ctx, rev, noCheck); err != nil {
						tb.Error(err)
						return
					}
					c = rev
				}
				mu.Lock()
				titles = append(titles, c.Record.Title)
				mu.Unlock()
			}
		})
	}
	for i := 0; i < n; {
		work <- i
		if i%10 == 9 {
			i += 2
		} else {
			i++
		}
	}
	close(work)
	wg.Wait()
	tb.Logf("corpus: %d contributions admitted in %v", n, time.Since(began).Round(time.Second))
	return titles
}

// benchAuthor makes an author and one real signature of theirs, over
// another record, which the store's benchmarks give every contribution:
// the store never checks signatures, and signing each one would be most
// of a benchmark's setup.
func benchAuthor(tb testing.TB) (author, signature string) {
	key, err := hybrid.GenerateKey()
	if err != nil {
		tb.Fatal(err)
	}
	author = strings.TrimPrefix(protocol.OperatorID(key.Public().String()), "op:")
	proto, err := library.NewRecord(library.Content{Kind: "thread", Title: "x", Body: "x", Links: []library.Link{}}, author, time.Now())
	if err != nil {
		tb.Fatal(err)
	}
	env, err := library.Sign(proto, key)
	if err != nil {
		tb.Fatal(err)
	}
	return author, env.Signature
}

// storedAs is rec as AddContribution takes it: its envelope with
// signature, its facets and its entry, admitted at.
func storedAs(tb testing.TB, rec *library.Record, signature string, at time.Time) library.NewContribution {
	wire, err := (&library.Envelope{Record: rec, Signature: signature}).Marshal()
	if err != nil {
		tb.Fatal(err)
	}
	id, _ := rec.RevisionID()
	canon, _ := rec.Canonical()
	signed := []byte(fmt.Sprintf(`{"record":%s,"revision":%q,"sig":%q,"type":"contribution"}`, canon, id, signature))
	return library.NewContribution{ID: id, Record: rec, Envelope: wire, Facets: library.FacetsOf(rec), Admitted: at,
		Entry: canonical.Digest(signed), Signed: signed, Leaf: []byte(`{"entry":"` + id + `"}`)}
}

// BenchmarkCatalogueSearch runs catalogue searches against 100,000
// contributions and reports the latency percentiles of one search (the
// page of 50 heads, read and parsed, and the total). "words" asks for 1
// to 3 words of a random head's title, as someone looking for it would,
// leaving out the 40 most frequent ranks ("the", "of", ...); "common"
// asks for one of those alone, the worst case: its postings are most of
// the corpus.
func BenchmarkCatalogueSearch(b *testing.B) {
	// Building the corpus takes minutes; AGORA_BENCH_CORPUS names a file
	// to keep it in and read it from on later runs.
	path, keep := os.LookupEnv("AGORA_BENCH_CORPUS")
	if !keep {
		path = filepath.Join(b.TempDir(), "agora.db")
	}
	_, statErr := os.Stat(path)
	s, err := sqlite.Open(b.Context(), sqlite.Config{Path: path})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var titles []string
	if keep && statErr == nil {
		for offset := 0; ; offset += 1000 {
			p, err := s.Catalogue(b.Context(), library.CatalogueQuery{Offset: offset, Limit: 1000})
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range p.Items {
				titles = append(titles, c.Record.Title)
			}
			if len(p.Items) == 0 {
				break
			}
		}
		b.Logf("corpus: %d heads kept in %s", len(titles), path)
	} else {
		titles = buildCorpus(b, s, 100000)
	}
	stop := map[string]bool{}
	for _, w := range commonWords[:40] {
		stop[w] = true
	}
	r := rand.New(rand.NewSource(1))
	var searches, common [][]string
	for len(searches) < 1000 {
		words := slices.DeleteFunc(library.SearchWords(titles[r.Intn(len(titles))]), func(w string) bool { return stop[w] })
		if len(words) == 0 {
			continue
		}
		r.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
		searches = append(searches, words[:min(len(words), 1+r.Intn(3))])
	}
	for _, w := range commonWords[:40] {
		common = append(common, []string{w})
	}
	for _, c := range []struct {
		name    string
		queries [][]string
	}{{"words", searches}, {"common", common}} {
		b.Run(c.name, func(b *testing.B) {
			var took []time.Duration
			i := 0
			for b.Loop() {
				q := library.CatalogueQuery{Words: c.queries[i%len(c.queries)], Sort: library.CatalogueRelevance, Limit: 50}
				i++
				began := time.Now()
				if _, err := s.Catalogue(b.Context(), q); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(began))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}
