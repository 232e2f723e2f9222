package librarytest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/library"
)

// catContent is the content of a contribution of kind with a body (text
// or object) and links, new or revising previous.
func catContent(kind, title string, body any, previous string, links ...[2]string) map[string]any {
	ls := []any{}
	for _, l := range links {
		ls = append(ls, map[string]any{"relation": l[0], "target": l[1]})
	}
	return map[string]any{"kind": kind, "title": title, "body": body, "links": ls, "previous": previous}
}

// catalogueBook admits contributions and binds their entries in admission
// order, as the node does, so the changes feed lists them.
type catalogueBook struct {
	f     *fixture
	at    time.Time
	index int64
}

func (b *catalogueBook) add(l librarian, content map[string]any) library.Contribution {
	b.f.t.Helper()
	b.at = b.at.Add(time.Second)
	c := b.f.add(b.f.contribution(l, content, b.at))
	b.bind(c)
	return c
}

func (b *catalogueBook) bind(c library.Contribution) {
	b.f.t.Helper()
	if err := b.f.s.BindIndex(b.f.ctx, b.index, c.Entry); err != nil {
		b.f.t.Fatal(err)
	}
	b.index++
}

// catIDs lists the contributions' IDs, in order.
func catIDs(cs []library.Contribution) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// testLibraryCatalogue checks the catalogue and the changes feed.
func testLibraryCatalogue(f *fixture) {
	book := &catalogueBook{f: f, at: f.now}
	empty, err := f.s.Changes(f.ctx, library.ChangesQuery{Limit: 50})
	if err != nil || len(empty.Items) != 0 || empty.More || empty.End != 0 {
		f.t.Errorf("the feed of an empty library: %v, more %v, end %d, %v", catIDs(empty.Items), empty.More, empty.End, err)
	}
	testCatalogue(f, book)
	testChanges(f, book)
}

func testCatalogue(f *fixture, book *catalogueBook) {
	a, b, c := newLibrarian(f), newLibrarian(f), newLibrarian(f)
	catalogue := func(q library.CatalogueQuery) library.CataloguePage {
		f.t.Helper()
		if q.Limit == 0 {
			q.Limit = 50
		}
		p, err := f.s.Catalogue(f.ctx, q)
		if err != nil {
			f.t.Fatalf("Catalogue(%+v): %v", q, err)
		}
		return p
	}
	expect := func(what string, q library.CatalogueQuery, total int, want ...library.Contribution) {
		f.t.Helper()
		p := catalogue(q)
		if got := catIDs(p.Items); !slices.Equal(got, catIDs(want)) || p.Total != total {
			f.t.Errorf("%s: %d items %v, total %d; want %v, total %d", what, len(got), got, p.Total, catIDs(want), total)
		}
	}

	// Relevance: for "locale sorting", strong scores 3+3 (title) + 2+1
	// (body) = 9; older and newer score 3+1 and 1+1+1+1 = 4, newer
	// first; partial holds only one word and is left out; the revised
	// lineage matched only before its revision.
	strong := book.add(a, thread("Locale sorting", "Sorting, sorting by locale.", ""))
	older := book.add(b, thread("Sorting", "Depends on the locale", ""))
	revised := book.add(a, thread("Locale sorting sorting", "locale locale locale sorting", ""))
	partial := book.add(c, thread("Locale", "Only one of the words", ""))
	newer := book.add(c, thread("Other words", "LOCALE then sorting, locale and Sorting", ""))
	revision := book.add(a, thread("Unrelated now", "Nothing to find", revised.ID))
	words := library.SearchWords("  Locale\tsorting ")
	expect("relevance", library.CatalogueQuery{Words: words, Sort: library.CatalogueRelevance}, 3, strong, newer, older)
	expect("relevance, a word twice", library.CatalogueQuery{Words: append(words, "locale"), Sort: library.CatalogueRelevance}, 3, strong, newer, older)
	expect("relevance, newest", library.CatalogueQuery{Words: words, Sort: library.CatalogueNew}, 3, newer, older, strong)
	// "locale" alone: strong 3+1, partial 3, newer 1+1, older 1.
	expect("one word", library.CatalogueQuery{Words: []string{"locale"}, Sort: library.CatalogueRelevance}, 4, strong, partial, newer, older)
	// A word finds the words it starts, as in the claims search: "sort"
	// finds "sorting", weighed as every word it finds (strong 3+2, older
	// 3, newer 2).
	expect("a word finds the words it starts", library.CatalogueQuery{Words: []string{"sort"}, Sort: library.CatalogueRelevance}, 3, strong, older, newer)
	expect("the words a word starts, not the words it is in", library.CatalogueQuery{Words: []string{"orting"}}, 0)
	expect("a word no one wrote", library.CatalogueQuery{Words: []string{"locale", "zebra"}}, 0)
	expect("a superseded revision's words", library.CatalogueQuery{Words: []string{"unrelated"}}, 1, revision)
	if p := catalogue(library.CatalogueQuery{Words: words, Sort: library.CatalogueRelevance, Offset: 1, Limit: 1}); p.Total != 3 || !slices.Equal(catIDs(p.Items), []string{newer.ID}) {
		f.t.Errorf("relevance, second page of one: %v, total %d", catIDs(p.Items), p.Total)
	}
	if p := catalogue(library.CatalogueQuery{Words: words, Offset: 3}); p.Total != 3 || len(p.Items) != 0 {
		f.t.Errorf("offset at the end: %v, total %d", catIDs(p.Items), p.Total)
	}

	// Research objects and their facets.
	node := func(l librarian, typ, statement string) library.Contribution {
		return book.add(l, catContent("research-node", statement, map[string]any{"type": typ, "statement": statement,
			"scope": "Here", "assumptions": []any{}, "sources": []any{}, "programs": []any{}}, ""))
	}
	question := node(a, "question", "Which order is right?")
	claim := node(b, "claim", "Byte order is right")
	counter := book.add(c, catContent("research-evidence", "Locale counterexample", map[string]any{"node": claim.ID, "method": "counterexample",
		"content": "Turkish dotted i", "sources": []any{}, "programs": []any{}}, "", [2]string{"evidence_for", claim.ID}))
	example := book.add(a, catContent("research-evidence", "Example", map[string]any{"node": claim.ID, "method": "example",
		"content": "ASCII", "sources": []any{}, "programs": []any{}}, "", [2]string{"evidence_for", claim.ID}))
	disputed := book.add(c, catContent("research-assessment", "Disputed", map[string]any{"node": claim.ID, "verdict": "disputed",
		"rationale": "Locales differ", "scope": "This claim", "assumptions": []any{}, "evidence": []any{counter.ID}}, "", [2]string{"assesses", claim.ID}))
	expect("kind", library.CatalogueQuery{Kind: "research-node"}, 2, claim, question)
	expect("node_type", library.CatalogueQuery{Kind: "research-node", NodeType: "question"}, 1, question)
	expect("method", library.CatalogueQuery{Method: "counterexample"}, 1, counter)
	expect("method, another", library.CatalogueQuery{Kind: "research-evidence", Method: "example"}, 1, example)
	expect("verdict", library.CatalogueQuery{Verdict: "disputed"}, 1, disputed)
	expect("verdict no one gave", library.CatalogueQuery{Verdict: "refuted"}, 0)
	expect("author", library.CatalogueQuery{Author: c.author}, 4, disputed, counter, newer, partial)
	// counter's and partial's titles tie at 3, counter the newer; "locale"
	// finds disputed's "Locales" too, once in its body.
	expect("author and words", library.CatalogueQuery{Author: c.author, Words: []string{"locale"}, Sort: library.CatalogueRelevance}, 4, counter, partial, newer, disputed)
	expect("kind thread, newest", library.CatalogueQuery{Kind: "thread", Offset: 1, Limit: 2}, 5, newer, partial)

	// Votes: top sums each vote lineage's current value on the root.
	vote := func(l librarian, target, value, previous string) library.Contribution {
		return book.add(l, catContent("vote", "Vote", value, previous, [2]string{"votes_on", target}))
	}
	vote(a, older.ID, "1", "")
	vote(b, older.ID, "1", "")
	vote(c, partial.ID, "1", "")
	cv := vote(c, strong.ID, "1", "")
	vote(a, newer.ID, "-1", "")
	vote(c, strong.ID, "-1", cv.ID) // strong: +1 then revised to -1
	// older 2, partial 1, then the 0s newest first (revised's lineage, whose
	// head is revision), then strong and newer at -1, newest first.
	expect("top", library.CatalogueQuery{Kind: "thread", Sort: library.CatalogueTop}, 5, older, partial, revision, newer, strong)
	// A revision keeps its lineage's votes.
	olderRev := book.add(b, thread("Sorting, revised", "Depends on the locale and the collation", older.ID))
	expect("top after a revision", library.CatalogueQuery{Kind: "thread", Sort: library.CatalogueTop, Limit: 2}, 5, olderRev, partial)
	expect("top with words", library.CatalogueQuery{Words: []string{"locale"}, Sort: library.CatalogueTop}, 6, olderRev, partial, disputed, counter, newer, strong)
	// Votes are listed only when asked for, and never searched.
	if p := catalogue(library.CatalogueQuery{}); slices.ContainsFunc(p.Items, func(c library.Contribution) bool { return c.Record.Kind == "vote" }) {
		f.t.Error("the catalogue lists votes unasked")
	}
	if p := catalogue(library.CatalogueQuery{Kind: "vote"}); p.Total != 5 {
		f.t.Errorf("kind vote: %d vote lineages, want 5", p.Total)
	}
	expect("a vote's words", library.CatalogueQuery{Kind: "vote", Words: []string{"vote"}}, 0)
	if p := catalogue(library.CatalogueQuery{}); p.Total != 10 || p.Items[0].ID != olderRev.ID || !p.Items[0].Head {
		f.t.Errorf("everything: total %d, first %v; want 10 heads, the newest first", p.Total, catIDs(p.Items))
	}
}

func testChanges(f *fixture, book *catalogueBook) {
	a, b := newLibrarian(f), newLibrarian(f)
	changes := func(q library.ChangesQuery) library.ChangesPage {
		f.t.Helper()
		p, err := f.s.Changes(f.ctx, q)
		if err != nil {
			f.t.Fatalf("Changes(%+v): %v", q, err)
		}
		return p
	}
	// follow reads a feed from position q to the end of its snapshot, a
	// page of limit at a time, as a cursor would.
	follow := func(q library.ChangesQuery) ([]library.Contribution, library.ChangesQuery) {
		f.t.Helper()
		var all []library.Contribution
		for range 100 {
			p := changes(q)
			all = append(all, p.Items...)
			q.End = p.End
			if len(p.Items) > 0 {
				q.After = p.Items[len(p.Items)-1].Seq
			}
			if !p.More {
				q.After = p.End
				q.End = 0
				return all, q
			}
		}
		f.t.Fatal("the feed never ended")
		return nil, q
	}

	// The library's feed from here on.
	start := changes(library.ChangesQuery{Limit: 1}).End
	root := book.add(a, thread("Root", "Follow me", ""))
	reply := book.add(b, catContent("reply", "Re", "A reply", "", [2]string{"replies_to", root.ID}))
	other := book.add(b, thread("Elsewhere", "Not followed", ""))
	vote := book.add(a, catContent("vote", "Vote", "1", "", [2]string{"votes_on", root.ID}))
	deeper := book.add(a, catContent("reply", "Re: re", "A reply to the reply", "", [2]string{"replies_to", reply.ID}))
	rootRev := book.add(a, thread("Root, revised", "Follow me still", root.ID))
	sub := book.add(b, catContent("thread", "Subthread", "Contained", "", [2]string{"contained_in", root.ID}))
	cite := book.add(b, catContent("thread", "Citing", "Only cites it", "", [2]string{"cites", root.ID}))
	everything := []library.Contribution{root, reply, other, deeper, rootRev, sub, cite}
	watched := []library.Contribution{root, reply, deeper, rootRev, sub}

	all, next := follow(library.ChangesQuery{After: start, Limit: 2})
	if !slices.Equal(catIDs(all), catIDs(everything)) {
		f.t.Errorf("the library's feed: %v, want every revision but the vote, in order: %v", catIDs(all), catIDs(everything))
	}
	got, rootNext := follow(library.ChangesQuery{Root: root.ID, Limit: 3})
	if !slices.Equal(catIDs(got), catIDs(watched)) {
		f.t.Errorf("root's feed: %v, want %v", catIDs(got), catIDs(watched))
	}
	if p := changes(next); len(p.Items) != 0 || p.More || p.End != next.After {
		f.t.Errorf("a new snapshot with nothing new: %v, more %v, end %d", catIDs(p.Items), p.More, p.End)
	}
	// No feed carries votes, not even a vote's own when the vote is the
	// watched root.
	voteRev := book.add(a, catContent("vote", "Vote", "-1", vote.ID, [2]string{"votes_on", root.ID}))
	if got, _ := follow(library.ChangesQuery{Root: vote.ID, Limit: 50}); len(got) != 0 {
		f.t.Errorf("a vote's feed: %v, want nothing: feeds carry no votes (%s, %s)", catIDs(got), vote.ID, voteRev.ID)
	}

	// A snapshot is fixed: what is admitted while it is read waits for
	// the next one.
	first := changes(library.ChangesQuery{Root: root.ID, After: rootNext.After, Limit: 1})
	if len(first.Items) != 0 {
		f.t.Fatalf("nothing new, yet: %v", catIDs(first.Items))
	}
	r1 := book.add(b, catContent("reply", "Later", "One", "", [2]string{"replies_to", deeper.ID}))
	r2 := book.add(a, catContent("reply", "Later still", "Two", "", [2]string{"replies_to", sub.ID}))
	p := changes(library.ChangesQuery{Root: root.ID, After: rootNext.After, Limit: 1})
	if !slices.Equal(catIDs(p.Items), []string{r1.ID}) || !p.More {
		f.t.Fatalf("new snapshot, first page: %v more %v", catIDs(p.Items), p.More)
	}
	r3 := book.add(b, catContent("reply", "During", "Three", "", [2]string{"replies_to", root.ID}))
	p = changes(library.ChangesQuery{Root: root.ID, After: r1.Seq, End: p.End, Limit: 5})
	if !slices.Equal(catIDs(p.Items), []string{r2.ID}) || p.More {
		f.t.Errorf("continuing the snapshot: %v more %v; want only %s", catIDs(p.Items), p.More, r2.ID)
	}
	p = changes(library.ChangesQuery{Root: root.ID, After: p.End, Limit: 5})
	if !slices.Equal(catIDs(p.Items), []string{r3.ID}) {
		f.t.Errorf("the next snapshot: %v, want %s", catIDs(p.Items), r3.ID)
	}

	// An entry not yet bound holds the feed back, so nothing is skipped.
	pending := f.add(f.contribution(a, thread("Pending", "Not logged yet", ""), book.at.Add(time.Second)))
	book.at = book.at.Add(time.Second)
	after := book.add(a, thread("After it", "Logged", ""))
	if p := changes(library.ChangesQuery{After: r3.Seq, Limit: 5}); len(p.Items) != 0 || p.End != r3.Seq {
		f.t.Errorf("behind an unbound entry: %v, end %d; want nothing, end %d", catIDs(p.Items), p.End, r3.Seq)
	}
	book.bind(pending)
	if p := changes(library.ChangesQuery{After: r3.Seq, Limit: 5}); !slices.Equal(catIDs(p.Items), []string{pending.ID, after.ID}) {
		f.t.Errorf("once bound: %v", catIDs(p.Items))
	}

	// Positions the store cannot honour.
	for _, q := range []library.ChangesQuery{
		{After: after.Seq + 1, Limit: 5},
		{After: 1, End: after.Seq + 5, Limit: 5},
		{After: 5, End: 3, Limit: 5},
		{After: -1, Limit: 5},
	} {
		if _, err := f.s.Changes(f.ctx, q); !errors.Is(err, library.ErrResync) {
			f.t.Errorf("Changes(%+v): %v, want ErrResync", q, err)
		}
	}

	// A research map watches the node lineages it ever holds.
	nodeAt := func(statement string) library.Contribution {
		return book.add(a, catContent("research-node", statement, map[string]any{"type": "claim", "statement": statement,
			"scope": "Here", "assumptions": []any{}, "sources": []any{}, "programs": []any{}}, ""))
	}
	question := book.add(a, catContent("research-node", "Question", map[string]any{"type": "question", "statement": "Which?",
		"scope": "Here", "assumptions": []any{}, "sources": []any{}, "programs": []any{}}, ""))
	n1, n2 := nodeAt("First claim"), nodeAt("Second claim")
	mapBody := func(nodes ...string) map[string]any {
		ns, edges := []any{question.ID}, []any{}
		for _, n := range nodes {
			ns = append(ns, n)
			edges = append(edges, map[string]any{"from": question.ID, "to": n, "relation": "related_to"})
		}
		return map[string]any{"summary": "S", "question": question.ID, "nodes": ns, "edges": edges, "assessments": []any{}, "message": "M"}
	}
	m := book.add(a, catContent("research-map", "Map", mapBody(n1.ID), ""))
	ev := book.add(b, catContent("research-evidence", "Evidence", map[string]any{"node": n1.ID, "method": "example",
		"content": "Shown", "sources": []any{}, "programs": []any{}}, "", [2]string{"evidence_for", n1.ID}))
	m2 := book.add(a, catContent("research-map", "Map", mapBody(n2.ID), m.ID))
	n1rev := book.add(a, catContent("research-node", "First claim, revised", map[string]any{"type": "claim", "statement": "First claim, revised",
		"scope": "Here", "assumptions": []any{}, "sources": []any{}, "programs": []any{}}, n1.ID))
	book.add(b, thread("Unrelated", "Not in the map", ""))
	got, _ = follow(library.ChangesQuery{Root: m.ID, Limit: 50})
	want := []library.Contribution{question, n1, n2, m, ev, m2, n1rev}
	if !slices.Equal(catIDs(got), catIDs(want)) {
		f.t.Errorf("map feed: %v, want %v", catIDs(got), catIDs(want))
	}

	testChangesBound(f, book)
}

// testChangesBound checks MaxChangesScan: history is the last
// MaxChangesScan revisions, and a new snapshot longer than that cannot be
// honoured.
func testChangesBound(f *fixture, book *catalogueBook) {
	if testing.Short() {
		f.t.Log("skipping the scan bound in -short mode")
		return
	}
	a := newLibrarian(f)
	start, err := f.s.Changes(f.ctx, library.ChangesQuery{Limit: 1})
	if err != nil {
		f.t.Fatal(err)
	}
	cursor := start.End
	// Admitted concurrently, so the store batches their commits; bound
	// in admission order afterwards.
	const n = library.MaxChangesScan + 1
	proto := f.contribution(a, thread("Bulk", "Bulk", ""), book.at)
	cs := make([]library.Contribution, n)
	var wg sync.WaitGroup
	work := make(chan int)
	for range 64 {
		wg.Go(func() {
			for i := range work {
				c := f.resigned(proto, thread(fmt.Sprintf("Bulk %d", i), "Bulk", ""), book.at.Add(time.Duration(i+1)*time.Millisecond))
				got, err := f.s.AddContribution(f.ctx, c, checked(c.Record))
				if err != nil {
					f.t.Error(err)
				}
				cs[i] = got
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	if f.t.Failed() {
		return
	}
	slices.SortFunc(cs, func(x, y library.Contribution) int { return int(x.Seq - y.Seq) })
	// Bound at once, too: only the state they leave matters here.
	binds := make(chan int)
	for range 64 {
		wg.Go(func() {
			for i := range binds {
				if err := f.s.BindIndex(f.ctx, book.index+int64(i), cs[i].Entry); err != nil {
					f.t.Error(err)
				}
			}
		})
	}
	for i := range cs {
		binds <- i
	}
	close(binds)
	wg.Wait()
	book.index += int64(len(cs))
	if _, err := f.s.Changes(f.ctx, library.ChangesQuery{After: cursor, Limit: 5}); !errors.Is(err, library.ErrResync) {
		f.t.Errorf("a new snapshot %d revisions long: %v, want ErrResync", n, err)
	}
	p, err := f.s.Changes(f.ctx, library.ChangesQuery{Limit: 5})
	if err != nil {
		f.t.Fatal(err)
	}
	if len(p.Items) == 0 || p.Items[0].ID != cs[1].ID || p.After != cs[0].Seq || !p.More {
		f.t.Errorf("history begins at %d with %v, want the last %d revisions, from %s", p.After, catIDs(p.Items), library.MaxChangesScan, cs[1].ID)
	}
}

// resigned is f.contribution of content by proto's author, carrying
// proto's signature instead of its own: the store never checks signatures,
// and ten thousand hybrid signatures would be most of the test's time.
func (f *fixture) resigned(proto library.NewContribution, content map[string]any, at time.Time) library.NewContribution {
	f.t.Helper()
	text, err := canonical.Marshal(content)
	if err != nil {
		f.t.Fatal(err)
	}
	c, err := library.ParseContent(text)
	if err != nil {
		f.t.Fatal(err)
	}
	rec, err := library.NewRecord(c, proto.Record.Author, at)
	if err != nil {
		f.t.Fatal(err)
	}
	env, err := library.ParseEnvelope(proto.Envelope)
	if err != nil {
		f.t.Fatal(err)
	}
	envelope, err := (&library.Envelope{Record: rec, Signature: env.Signature}).Marshal()
	if err != nil {
		f.t.Fatal(err)
	}
	id, _ := rec.RevisionID()
	signed := []byte(fmt.Sprintf(`{"record":%s,"revision":%q,"sig":%q,"type":"contribution"}`, mustCanonical(f, rec), id, env.Signature))
	return library.NewContribution{
		ID: id, Record: rec, Envelope: envelope, Facets: library.FacetsOf(rec), Admitted: at,
		Entry: canonical.Digest(signed), Signed: signed, Leaf: []byte(`{"entry":"` + id + `"}`),
	}
}
