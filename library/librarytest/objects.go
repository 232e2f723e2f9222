package librarytest

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store"
)

// link is one {relation, target} of a content object.
func link(relation, target string) any {
	return map[string]any{"relation": relation, "target": target}
}

// object is the content of a structured kind.
func object(kind, title string, body map[string]any, previous string, links ...any) map[string]any {
	if links == nil {
		links = []any{}
	}
	return map[string]any{"kind": kind, "title": title, "body": body, "links": links, "previous": previous}
}

// ids are the IDs of contributions, in their order.
func ids(cs []library.Contribution) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// objectLibrary is the small library testLibraryObjects reads: spaces
// with a claim revised once, a document, a discussion with nested replies
// and a branch, a relationship, evidence, assessments, proposals, an
// inclusion and votes, by a and b.
type objectLibrary struct {
	a, b       librarian
	space      library.Contribution
	sub        library.Contribution
	claim      library.Contribution
	doc        library.Contribution
	early      library.Contribution
	proposal1  library.Contribution
	claim2     library.Contribution
	proposal2  library.Contribution
	counter    library.Contribution
	example    library.Contribution
	disputed   library.Contribution
	supported  library.Contribution
	rel        library.Contribution
	shared     library.Contribution
	discussion library.Contribution
	reply      library.Contribution
	nested     library.Contribution
	branch     library.Contribution
	inBranch   library.Contribution
	voteClaim  library.Contribution
	down       library.Contribution
	downNow    library.Contribution
}

// testLibraryObjects checks the reads of one object against an
// objectLibrary.
func testLibraryObjects(f *fixture) {
	o := newObjectLibrary(f)
	testObjectLineages(f, o)
	testObjectDiscussions(f, o)
	testObjectSections(f, o)
	testObjectVotes(f, o)
}

// newObjectLibrary admits an objectLibrary.
func newObjectLibrary(f *fixture) *objectLibrary {
	a, b := newLibrarian(f), newLibrarian(f)
	o := &objectLibrary{a: a, b: b}
	at := f.now
	next := func() time.Time { at = at.Add(time.Second); return at }
	add := func(l librarian, content map[string]any) library.Contribution {
		f.t.Helper()
		return f.add(f.contribution(l, content, next()))
	}
	claimBody := func(scope string) map[string]any {
		return map[string]any{"statement": "One plus one is two", "scope": scope, "assumptions": []any{}}
	}

	o.space = add(a, object("space", "Space", map[string]any{"summary": "Arithmetic"}, ""))
	o.sub = add(a, object("space", "Subspace", map[string]any{"summary": "Definitions"}, "", link("contained_in", o.space.ID)))
	o.claim = add(a, object("claim", "Claim", claimBody("Naturals"), "", link("contained_in", o.sub.ID)))
	o.doc = add(a, object("document", "Document", map[string]any{"text": "A synthesis"}, "", link("contained_in", o.space.ID)))
	o.early = add(b, object("evidence", "Early evidence", map[string]any{"claim": o.claim.ID, "method": "example", "content": "1+1=2", "sources": []any{}}, "", link("evidence_for", o.claim.ID)))
	o.proposal1 = add(b, object("proposal", "Name the axioms", map[string]any{"base": o.claim.ID, "title": "Claim", "body": claimBody("Peano"),
		"links": []any{link("contained_in", o.sub.ID)}, "rationale": "Explicit"}, "", link("proposes_for", o.claim.ID)))
	o.claim2 = add(a, object("claim", "Claim", claimBody("Natural numbers"), o.claim.ID, link("contained_in", o.sub.ID)))
	o.proposal2 = add(b, object("proposal", "Name the axioms again", map[string]any{"base": o.claim2.ID, "title": "Claim", "body": claimBody("Peano"),
		"links": []any{link("contained_in", o.sub.ID)}, "rationale": "Explicit"}, "", link("proposes_for", o.claim2.ID)))
	o.counter = add(b, object("evidence", "Counterexample", map[string]any{"claim": o.claim2.ID, "method": "counterexample", "content": "In Z/2, 1+1=0", "sources": []any{}}, "", link("evidence_for", o.claim2.ID)))
	o.example = add(b, object("evidence", "Example", map[string]any{"claim": o.claim2.ID, "method": "example", "content": "Count two apples", "sources": []any{}}, "", link("evidence_for", o.claim2.ID)))
	o.disputed = add(b, object("assessment", "Disputed", map[string]any{"claim": o.claim2.ID, "verdict": "disputed", "rationale": "Domain", "evidence": []any{o.counter.ID}}, "", link("assesses", o.claim2.ID)))
	o.supported = add(a, object("assessment", "Supported", map[string]any{"claim": o.claim2.ID, "verdict": "supported", "rationale": "Naturals", "evidence": []any{o.example.ID}}, "", link("assesses", o.claim2.ID)))
	o.rel = add(a, object("relationship", "Supports", map[string]any{"from": o.claim2.ID, "to": o.doc.ID, "relation": "supports", "rationale": "It does"}, "",
		link("relates_from", o.claim2.ID), link("relates_to", o.doc.ID)))
	o.shared = add(b, object("space", "Shared", map[string]any{"summary": "Borrows the claim"}, "", link("includes", o.claim.ID)))

	o.discussion = add(b, object("discussion", "Domain?", map[string]any{"text": "Does it depend on the domain?"}, "", link("contained_in", o.sub.ID), link("about", o.claim.ID)))
	o.reply = f.add(f.contribution(a, map[string]any{"kind": "reply", "title": "Yes", "body": "Say which addition", "links": []any{link("replies_to", o.discussion.ID)}, "previous": ""}, next()))
	o.nested = f.add(f.contribution(b, map[string]any{"kind": "reply", "title": "Agreed", "body": "Naturals", "links": []any{link("replies_to", o.reply.ID)}, "previous": ""}, next()))
	o.branch = add(b, object("discussion", "Branch", map[string]any{"text": "Other domains"}, "", link("branches_from", o.reply.ID)))
	o.inBranch = f.add(f.contribution(a, map[string]any{"kind": "reply", "title": "Z/2", "body": "Characteristic two", "links": []any{link("answers", o.branch.ID)}, "previous": ""}, next()))
	// A citation the author takes back by revising: not a backlink.
	cite := add(a, thread("Cites", "See the claim", "", link("cites", o.claim.ID)))
	add(a, thread("Cites", "No longer cites", cite.ID))
	vote := func(l librarian, target, value, previous string) library.Contribution {
		return add(l, map[string]any{"kind": "vote", "title": "Vote", "body": value, "links": []any{link("votes_on", target)}, "previous": previous})
	}
	o.voteClaim = vote(b, o.claim.ID, "1", "")
	vote(a, o.reply.ID, "1", "")
	vote(b, o.reply.ID, "1", "")
	o.down = vote(a, o.discussion.ID, "1", "")
	o.downNow = vote(a, o.discussion.ID, "-1", o.down.ID) // a changes their mind

	return o
}

// testObjectLineages checks Contributions, Revisions and Incoming.
func testObjectLineages(f *fixture, o *objectLibrary) {
	// Contributions: in the order asked, repeats kept; a missing one is
	// not found.
	got, err := f.s.Contributions(f.ctx, []string{o.claim2.ID, o.claim.ID, o.claim2.ID})
	if err != nil || !slices.Equal(ids(got), []string{o.claim2.ID, o.claim.ID, o.claim2.ID}) || !got[0].Head || got[1].Head {
		f.t.Errorf("Contributions: %v, %v", ids(got), err)
	}
	if _, err := f.s.Contributions(f.ctx, []string{o.claim.ID, missingID}); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("Contributions with a missing ID: %v, want ErrNotFound", err)
	}

	// Revisions: oldest first, paged, with the total.
	p, err := f.s.Revisions(f.ctx, o.claim.ID, 0, 50)
	if err != nil || p.Total != 2 || !slices.Equal(ids(p.Items), []string{o.claim.ID, o.claim2.ID}) {
		f.t.Errorf("Revisions: %v total %d, %v", ids(p.Items), p.Total, err)
	}
	if p, _ := f.s.Revisions(f.ctx, o.claim.ID, 1, 1); p.Total != 2 || !slices.Equal(ids(p.Items), []string{o.claim2.ID}) {
		f.t.Errorf("Revisions from 1: %v total %d", ids(p.Items), p.Total)
	}
	if p, _ := f.s.Revisions(f.ctx, o.claim.ID, 2, 50); p.Total != 2 || len(p.Items) != 0 {
		f.t.Errorf("Revisions past the end: %v total %d", ids(p.Items), p.Total)
	}
	if p, err := f.s.Revisions(f.ctx, missingID, 0, 50); err != nil || p.Total != 0 || len(p.Items) != 0 {
		f.t.Errorf("Revisions of nothing: %+v, %v", p, err)
	}

	// Incoming: the current heads linking to any revision of the claim,
	// newest first, exact targets kept; no votes, no own revisions, no
	// superseded citation.
	in, err := f.s.Incoming(f.ctx, o.claim.ID, 0, 50)
	if err != nil {
		f.t.Fatal(err)
	}
	type backlink struct{ source, relation, target string }
	var gotLinks []backlink
	for _, l := range in.Items {
		gotLinks = append(gotLinks, backlink{l.Source, l.Relation, l.Target})
	}
	wantLinks := []backlink{
		{o.discussion.ID, "about", o.claim.ID},
		{o.shared.ID, "includes", o.claim.ID},
		{o.rel.ID, "relates_from", o.claim2.ID},
		{o.supported.ID, "assesses", o.claim2.ID},
		{o.disputed.ID, "assesses", o.claim2.ID},
		{o.example.ID, "evidence_for", o.claim2.ID},
		{o.counter.ID, "evidence_for", o.claim2.ID},
		{o.proposal2.ID, "proposes_for", o.claim2.ID},
		{o.proposal1.ID, "proposes_for", o.claim.ID},
		{o.early.ID, "evidence_for", o.claim.ID},
	}
	if !slices.Equal(gotLinks, wantLinks) || in.Total != len(wantLinks) {
		f.t.Errorf("Incoming:\n got %v (total %d)\nwant %v", gotLinks, in.Total, wantLinks)
	}
	if len(in.Items) > 0 && (in.Items[0].SourceTitle != "Domain?" || in.Items[0].SourceKind != "discussion") {
		f.t.Errorf("Incoming's first: %+v", in.Items[0])
	}
	if in, _ := f.s.Incoming(f.ctx, o.claim.ID, 9, 5); in.Total != len(wantLinks) || len(in.Items) != 1 || in.Items[0].Source != o.early.ID {
		f.t.Errorf("Incoming from 9: %+v", in)
	}
}

// testObjectDiscussions checks Discussion and Activity.
func testObjectDiscussions(f *fixture, o *objectLibrary) {
	// Discussion: everything under the discussion, through replies and
	// the branch, as current heads; under the claim, the discussion
	// about it too; under the subspace, the discussion in it, but not
	// its claim.
	for _, c := range []struct {
		name string
		root string
		sort library.DiscussionSort
		want []string
	}{
		{"discussion new", o.discussion.ID, library.SortNew, []string{o.inBranch.ID, o.branch.ID, o.nested.ID, o.reply.ID}},
		{"discussion old", o.discussion.ID, library.SortOld, []string{o.reply.ID, o.nested.ID, o.branch.ID, o.inBranch.ID}},
		// reply has two votes, branch and the rest none: ties newest first.
		{"discussion top", o.discussion.ID, library.SortTop, []string{o.reply.ID, o.inBranch.ID, o.branch.ID, o.nested.ID}},
		{"claim", o.claim.ID, library.SortOld, []string{o.discussion.ID, o.reply.ID, o.nested.ID, o.branch.ID, o.inBranch.ID}},
		{"subspace", o.sub.ID, library.SortOld, []string{o.discussion.ID, o.reply.ID, o.nested.ID, o.branch.ID, o.inBranch.ID}},
		{"space", o.space.ID, library.SortOld, nil},
		{"reply", o.reply.ID, library.SortOld, []string{o.nested.ID, o.branch.ID, o.inBranch.ID}},
	} {
		p, err := f.s.Discussion(f.ctx, c.root, c.sort, 0, 50)
		if err != nil || !slices.Equal(ids(p.Items), c.want) || p.Total != len(c.want) {
			f.t.Errorf("Discussion %s: %v total %d, %v; want %v", c.name, ids(p.Items), p.Total, err, c.want)
		}
	}
	if p, _ := f.s.Discussion(f.ctx, o.discussion.ID, library.SortOld, 1, 2); p.Total != 4 || !slices.Equal(ids(p.Items), []string{o.nested.ID, o.branch.ID}) {
		f.t.Errorf("Discussion page from 1: %v total %d", ids(p.Items), p.Total)
	}
	if _, err := f.s.Discussion(f.ctx, o.discussion.ID, "best", 0, 50); !errors.Is(err, store.ErrInvalid) {
		f.t.Errorf("Discussion sorted best: %v, want ErrInvalid", err)
	}

	// Activity: exact revision; challenges only; a lineage's proposals.
	for _, c := range []struct {
		name string
		q    library.ActivityQuery
		want []string
	}{
		{"claim2 all", library.ActivityQuery{Subject: o.claim2.ID}, []string{o.supported.ID, o.disputed.ID, o.example.ID, o.counter.ID, o.proposal2.ID}},
		{"claim2 evidence and assessments", library.ActivityQuery{Subject: o.claim2.ID, Kinds: []string{"evidence", "assessment"}}, []string{o.supported.ID, o.disputed.ID, o.example.ID, o.counter.ID}},
		{"claim2 challenges", library.ActivityQuery{Subject: o.claim2.ID, Challenges: true}, []string{o.disputed.ID, o.counter.ID}},
		{"claim exact", library.ActivityQuery{Subject: o.claim.ID, Kinds: []string{"evidence", "assessment"}}, []string{o.early.ID}},
		{"claim challenges", library.ActivityQuery{Subject: o.claim.ID, Challenges: true}, nil},
		{"claim lineage proposals", library.ActivityQuery{Subject: o.claim.ID, Lineage: true, Kinds: []string{"proposal"}}, []string{o.proposal2.ID, o.proposal1.ID}},
		{"no kinds", library.ActivityQuery{Subject: o.claim2.ID, Kinds: []string{}}, nil},
	} {
		c.q.Limit = 50
		p, err := f.s.Activity(f.ctx, c.q)
		if err != nil || !slices.Equal(ids(p.Items), c.want) || p.Total != len(c.want) {
			f.t.Errorf("Activity %s: %v total %d, %v; want %v", c.name, ids(p.Items), p.Total, err, c.want)
		}
	}
	if p, _ := f.s.Activity(f.ctx, library.ActivityQuery{Subject: o.claim2.ID, Offset: 4, Limit: 50}); p.Total != 5 || !slices.Equal(ids(p.Items), []string{o.proposal2.ID}) {
		f.t.Errorf("Activity from 4: %v total %d", ids(p.Items), p.Total)
	}
}

// testObjectSections checks Section.
func testObjectSections(f *fixture, o *objectLibrary) {
	// Sections.
	for _, c := range []struct {
		name    string
		root    string
		item    string
		section library.ObjectSection
		want    []string
	}{
		{"space children", o.space.ID, o.space.ID, library.SectionChildren, []string{o.doc.ID, o.sub.ID}},
		{"subspace children", o.sub.ID, o.sub.ID, library.SectionChildren, []string{o.discussion.ID, o.claim2.ID}},
		{"claim related", o.claim.ID, o.claim2.ID, library.SectionRelated, []string{o.rel.ID}},
		{"document related", o.doc.ID, o.doc.ID, library.SectionRelated, []string{o.rel.ID}},
		{"claim history", o.claim.ID, o.claim2.ID, library.SectionHistory, []string{o.claim.ID, o.claim2.ID}},
		// The space's child is the document, so the relationship touching
		// it is in the space's graph; the shared space's included claim
		// brings it into that graph too; the subspace's child is the claim.
		{"space graph", o.space.ID, o.space.ID, library.SectionGraph, []string{o.rel.ID}},
		{"shared graph", o.shared.ID, o.shared.ID, library.SectionGraph, []string{o.rel.ID}},
		{"subspace graph", o.sub.ID, o.sub.ID, library.SectionGraph, []string{o.rel.ID}},
		{"reply graph", o.reply.ID, o.reply.ID, library.SectionGraph, nil},
		{"claim discussions", o.claim.ID, o.claim2.ID, library.SectionDiscussions, []string{o.discussion.ID}},
		{"subspace discussions", o.sub.ID, o.sub.ID, library.SectionDiscussions, []string{o.discussion.ID}},
		{"reply discussions", o.reply.ID, o.reply.ID, library.SectionDiscussions, []string{o.branch.ID}},
		{"subspace knowledge", o.sub.ID, o.sub.ID, library.SectionKnowledge, []string{o.claim2.ID}},
		// The shared space includes the claim's first revision, exactly.
		{"shared knowledge", o.shared.ID, o.shared.ID, library.SectionKnowledge, []string{o.claim.ID}},
		{"space knowledge", o.space.ID, o.space.ID, library.SectionKnowledge, []string{o.doc.ID}},
		{"subspace all", o.sub.ID, o.sub.ID, library.SectionAll, []string{o.discussion.ID, o.claim2.ID}},
		{"claim all", o.claim.ID, o.claim2.ID, library.SectionAll, []string{o.discussion.ID, o.rel.ID}},
		{"shared all", o.shared.ID, o.shared.ID, library.SectionAll, []string{o.claim.ID}},
	} {
		p, err := f.s.Section(f.ctx, library.SectionQuery{Root: c.root, Item: c.item, Section: c.section, Limit: 50})
		if err != nil || !slices.Equal(ids(p.Items), c.want) || p.Total != len(c.want) {
			f.t.Errorf("Section %s: %v total %d, %v; want %v", c.name, ids(p.Items), p.Total, err, c.want)
		}
	}
	if p, _ := f.s.Section(f.ctx, library.SectionQuery{Root: o.space.ID, Item: o.space.ID, Section: library.SectionChildren, Offset: 1, Limit: 1}); p.Total != 2 || !slices.Equal(ids(p.Items), []string{o.sub.ID}) {
		f.t.Errorf("Section children from 1: %v total %d", ids(p.Items), p.Total)
	}
	if _, err := f.s.Section(f.ctx, library.SectionQuery{Root: o.space.ID, Item: o.space.ID, Section: "everything", Limit: 50}); !errors.Is(err, store.ErrInvalid) {
		f.t.Errorf("an unknown section: %v, want ErrInvalid", err)
	}
}

// testObjectVotes checks VoteTotals and VotesBy.
func testObjectVotes(f *fixture, o *objectLibrary) {
	// Votes: totals of current values, up and down; each author's own.
	totals, err := f.s.VoteTotals(f.ctx, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	want := []library.VoteTotal{
		{Target: o.claim.ID, Score: 1, Up: 1},
		{Target: o.reply.ID, Score: 2, Up: 2},
		{Target: o.discussion.ID, Score: -1, Down: 1},
	}
	slices.SortFunc(want, func(x, y library.VoteTotal) int { return strings.Compare(x.Target, y.Target) })
	if !slices.Equal(totals, want) {
		f.t.Errorf("VoteTotals:\n got %+v\nwant %+v", totals, want)
	}
	if totals, _ := f.s.VoteTotals(f.ctx, []string{o.discussion.ID, o.space.ID}); !slices.Equal(totals, []library.VoteTotal{{Target: o.discussion.ID, Score: -1, Down: 1}}) {
		f.t.Errorf("VoteTotals of two roots: %+v", totals)
	}
	if totals, err := f.s.VoteTotals(f.ctx, []string{}); err != nil || len(totals) != 0 {
		f.t.Errorf("VoteTotals of no roots: %+v, %v", totals, err)
	}
	votes, err := f.s.VotesBy(f.ctx, o.a.author)
	wantVotes := []library.Vote{{Target: o.discussion.ID, Root: o.down.ID, ID: o.downNow.ID, Value: -1}}
	byA := map[string]library.Vote{}
	for _, v := range votes {
		byA[v.Target] = v
	}
	if err != nil || len(votes) != 2 || byA[o.discussion.ID] != wantVotes[0] || byA[o.reply.ID].Value != 1 || !slices.IsSortedFunc(votes, func(x, y library.Vote) int { return strings.Compare(x.Target, y.Target) }) {
		f.t.Errorf("VotesBy a: %+v, %v", votes, err)
	}
	if votes, _ := f.s.VotesBy(f.ctx, o.b.author); len(votes) != 2 || !slices.ContainsFunc(votes, func(v library.Vote) bool { return v.Target == o.claim.ID && v.ID == o.voteClaim.ID && v.Value == 1 }) {
		f.t.Errorf("VotesBy b: %+v", votes)
	}
}

// missingID is a revision ID no test stores.
const missingID = "0000000000000000000000000000000000000000000000000000000000000000"
