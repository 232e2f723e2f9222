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

// testLibraryObjects checks the reads of one object against a small
// library: spaces with a claim revised once, a document, a discussion with
// nested replies and a branch, a relationship, evidence, assessments,
// proposals, an inclusion and votes.
func testLibraryObjects(f *fixture) {
	a, b := newLibrarian(f), newLibrarian(f)
	at := f.now
	next := func() time.Time { at = at.Add(time.Second); return at }
	add := func(l librarian, content map[string]any) library.Contribution {
		f.t.Helper()
		return f.add(f.contribution(l, content, next()))
	}
	claimBody := func(scope string) map[string]any {
		return map[string]any{"statement": "One plus one is two", "scope": scope, "assumptions": []any{}}
	}

	space := add(a, object("space", "Space", map[string]any{"summary": "Arithmetic"}, ""))
	sub := add(a, object("space", "Subspace", map[string]any{"summary": "Definitions"}, "", link("contained_in", space.ID)))
	claim := add(a, object("claim", "Claim", claimBody("Naturals"), "", link("contained_in", sub.ID)))
	doc := add(a, object("document", "Document", map[string]any{"text": "A synthesis"}, "", link("contained_in", space.ID)))
	early := add(b, object("evidence", "Early evidence", map[string]any{"claim": claim.ID, "method": "example", "content": "1+1=2", "sources": []any{}}, "", link("evidence_for", claim.ID)))
	proposal1 := add(b, object("proposal", "Name the axioms", map[string]any{"base": claim.ID, "title": "Claim", "body": claimBody("Peano"),
		"links": []any{link("contained_in", sub.ID)}, "rationale": "Explicit"}, "", link("proposes_for", claim.ID)))
	claim2 := add(a, object("claim", "Claim", claimBody("Natural numbers"), claim.ID, link("contained_in", sub.ID)))
	proposal2 := add(b, object("proposal", "Name the axioms again", map[string]any{"base": claim2.ID, "title": "Claim", "body": claimBody("Peano"),
		"links": []any{link("contained_in", sub.ID)}, "rationale": "Explicit"}, "", link("proposes_for", claim2.ID)))
	counter := add(b, object("evidence", "Counterexample", map[string]any{"claim": claim2.ID, "method": "counterexample", "content": "In Z/2, 1+1=0", "sources": []any{}}, "", link("evidence_for", claim2.ID)))
	example := add(b, object("evidence", "Example", map[string]any{"claim": claim2.ID, "method": "example", "content": "Count two apples", "sources": []any{}}, "", link("evidence_for", claim2.ID)))
	disputed := add(b, object("assessment", "Disputed", map[string]any{"claim": claim2.ID, "verdict": "disputed", "rationale": "Domain", "evidence": []any{counter.ID}}, "", link("assesses", claim2.ID)))
	supported := add(a, object("assessment", "Supported", map[string]any{"claim": claim2.ID, "verdict": "supported", "rationale": "Naturals", "evidence": []any{example.ID}}, "", link("assesses", claim2.ID)))
	rel := add(a, object("relationship", "Supports", map[string]any{"from": claim2.ID, "to": doc.ID, "relation": "supports", "rationale": "It does"}, "",
		link("relates_from", claim2.ID), link("relates_to", doc.ID)))
	shared := add(b, object("space", "Shared", map[string]any{"summary": "Borrows the claim"}, "", link("includes", claim.ID)))

	discussion := add(b, object("discussion", "Domain?", map[string]any{"text": "Does it depend on the domain?"}, "", link("contained_in", sub.ID), link("about", claim.ID)))
	reply := f.add(f.contribution(a, map[string]any{"kind": "reply", "title": "Yes", "body": "Say which addition", "links": []any{link("replies_to", discussion.ID)}, "previous": ""}, next()))
	nested := f.add(f.contribution(b, map[string]any{"kind": "reply", "title": "Agreed", "body": "Naturals", "links": []any{link("replies_to", reply.ID)}, "previous": ""}, next()))
	branch := add(b, object("discussion", "Branch", map[string]any{"text": "Other domains"}, "", link("branches_from", reply.ID)))
	inBranch := f.add(f.contribution(a, map[string]any{"kind": "reply", "title": "Z/2", "body": "Characteristic two", "links": []any{link("answers", branch.ID)}, "previous": ""}, next()))
	// A citation the author takes back by revising: not a backlink.
	cite := add(a, thread("Cites", "See the claim", "", link("cites", claim.ID)))
	add(a, thread("Cites", "No longer cites", cite.ID))
	vote := func(l librarian, target, value, previous string) library.Contribution {
		return add(l, map[string]any{"kind": "vote", "title": "Vote", "body": value, "links": []any{link("votes_on", target)}, "previous": previous})
	}
	voteClaim := vote(b, claim.ID, "1", "")
	vote(a, reply.ID, "1", "")
	vote(b, reply.ID, "1", "")
	down := vote(a, discussion.ID, "1", "")
	downNow := vote(a, discussion.ID, "-1", down.ID) // a changes their mind

	// Contributions: in the order asked, repeats kept; a missing one is
	// not found.
	got, err := f.s.Contributions(f.ctx, []string{claim2.ID, claim.ID, claim2.ID})
	if err != nil || !slices.Equal(ids(got), []string{claim2.ID, claim.ID, claim2.ID}) || !got[0].Head || got[1].Head {
		f.t.Errorf("Contributions: %v, %v", ids(got), err)
	}
	if _, err := f.s.Contributions(f.ctx, []string{claim.ID, missingID}); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("Contributions with a missing ID: %v, want ErrNotFound", err)
	}

	// Revisions: oldest first, paged, with the total.
	p, err := f.s.Revisions(f.ctx, claim.ID, 0, 50)
	if err != nil || p.Total != 2 || !slices.Equal(ids(p.Items), []string{claim.ID, claim2.ID}) {
		f.t.Errorf("Revisions: %v total %d, %v", ids(p.Items), p.Total, err)
	}
	if p, _ := f.s.Revisions(f.ctx, claim.ID, 1, 1); p.Total != 2 || !slices.Equal(ids(p.Items), []string{claim2.ID}) {
		f.t.Errorf("Revisions from 1: %v total %d", ids(p.Items), p.Total)
	}
	if p, _ := f.s.Revisions(f.ctx, claim.ID, 2, 50); p.Total != 2 || len(p.Items) != 0 {
		f.t.Errorf("Revisions past the end: %v total %d", ids(p.Items), p.Total)
	}
	if p, err := f.s.Revisions(f.ctx, missingID, 0, 50); err != nil || p.Total != 0 || len(p.Items) != 0 {
		f.t.Errorf("Revisions of nothing: %+v, %v", p, err)
	}

	// Incoming: the current heads linking to any revision of the claim,
	// newest first, exact targets kept; no votes, no own revisions, no
	// superseded citation.
	in, err := f.s.Incoming(f.ctx, claim.ID, 0, 50)
	if err != nil {
		f.t.Fatal(err)
	}
	type backlink struct{ source, relation, target string }
	var gotLinks []backlink
	for _, l := range in.Items {
		gotLinks = append(gotLinks, backlink{l.Source, l.Relation, l.Target})
	}
	wantLinks := []backlink{
		{discussion.ID, "about", claim.ID},
		{shared.ID, "includes", claim.ID},
		{rel.ID, "relates_from", claim2.ID},
		{supported.ID, "assesses", claim2.ID},
		{disputed.ID, "assesses", claim2.ID},
		{example.ID, "evidence_for", claim2.ID},
		{counter.ID, "evidence_for", claim2.ID},
		{proposal2.ID, "proposes_for", claim2.ID},
		{proposal1.ID, "proposes_for", claim.ID},
		{early.ID, "evidence_for", claim.ID},
	}
	if !slices.Equal(gotLinks, wantLinks) || in.Total != len(wantLinks) {
		f.t.Errorf("Incoming:\n got %v (total %d)\nwant %v", gotLinks, in.Total, wantLinks)
	}
	if len(in.Items) > 0 && (in.Items[0].SourceTitle != "Domain?" || in.Items[0].SourceKind != "discussion") {
		f.t.Errorf("Incoming's first: %+v", in.Items[0])
	}
	if in, _ := f.s.Incoming(f.ctx, claim.ID, 9, 5); in.Total != len(wantLinks) || len(in.Items) != 1 || in.Items[0].Source != early.ID {
		f.t.Errorf("Incoming from 9: %+v", in)
	}

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
		{"discussion new", discussion.ID, library.SortNew, []string{inBranch.ID, branch.ID, nested.ID, reply.ID}},
		{"discussion old", discussion.ID, library.SortOld, []string{reply.ID, nested.ID, branch.ID, inBranch.ID}},
		// reply has two votes, branch and the rest none: ties newest first.
		{"discussion top", discussion.ID, library.SortTop, []string{reply.ID, inBranch.ID, branch.ID, nested.ID}},
		{"claim", claim.ID, library.SortOld, []string{discussion.ID, reply.ID, nested.ID, branch.ID, inBranch.ID}},
		{"subspace", sub.ID, library.SortOld, []string{discussion.ID, reply.ID, nested.ID, branch.ID, inBranch.ID}},
		{"space", space.ID, library.SortOld, nil},
		{"reply", reply.ID, library.SortOld, []string{nested.ID, branch.ID, inBranch.ID}},
	} {
		p, err := f.s.Discussion(f.ctx, c.root, c.sort, 0, 50)
		if err != nil || !slices.Equal(ids(p.Items), c.want) || p.Total != len(c.want) {
			f.t.Errorf("Discussion %s: %v total %d, %v; want %v", c.name, ids(p.Items), p.Total, err, c.want)
		}
	}
	if p, _ := f.s.Discussion(f.ctx, discussion.ID, library.SortOld, 1, 2); p.Total != 4 || !slices.Equal(ids(p.Items), []string{nested.ID, branch.ID}) {
		f.t.Errorf("Discussion page from 1: %v total %d", ids(p.Items), p.Total)
	}
	if _, err := f.s.Discussion(f.ctx, discussion.ID, "best", 0, 50); !errors.Is(err, store.ErrInvalid) {
		f.t.Errorf("Discussion sorted best: %v, want ErrInvalid", err)
	}

	// Activity: exact revision; challenges only; a lineage's proposals.
	for _, c := range []struct {
		name string
		q    library.ActivityQuery
		want []string
	}{
		{"claim2 all", library.ActivityQuery{Subject: claim2.ID}, []string{supported.ID, disputed.ID, example.ID, counter.ID, proposal2.ID}},
		{"claim2 evidence and assessments", library.ActivityQuery{Subject: claim2.ID, Kinds: []string{"evidence", "assessment"}}, []string{supported.ID, disputed.ID, example.ID, counter.ID}},
		{"claim2 challenges", library.ActivityQuery{Subject: claim2.ID, Challenges: true}, []string{disputed.ID, counter.ID}},
		{"claim exact", library.ActivityQuery{Subject: claim.ID, Kinds: []string{"evidence", "assessment"}}, []string{early.ID}},
		{"claim challenges", library.ActivityQuery{Subject: claim.ID, Challenges: true}, nil},
		{"claim lineage proposals", library.ActivityQuery{Subject: claim.ID, Lineage: true, Kinds: []string{"proposal"}}, []string{proposal2.ID, proposal1.ID}},
		{"no kinds", library.ActivityQuery{Subject: claim2.ID, Kinds: []string{}}, nil},
	} {
		c.q.Limit = 50
		p, err := f.s.Activity(f.ctx, c.q)
		if err != nil || !slices.Equal(ids(p.Items), c.want) || p.Total != len(c.want) {
			f.t.Errorf("Activity %s: %v total %d, %v; want %v", c.name, ids(p.Items), p.Total, err, c.want)
		}
	}
	if p, _ := f.s.Activity(f.ctx, library.ActivityQuery{Subject: claim2.ID, Offset: 4, Limit: 50}); p.Total != 5 || !slices.Equal(ids(p.Items), []string{proposal2.ID}) {
		f.t.Errorf("Activity from 4: %v total %d", ids(p.Items), p.Total)
	}

	// Sections.
	for _, c := range []struct {
		name    string
		root    string
		item    string
		section library.ObjectSection
		want    []string
	}{
		{"space children", space.ID, space.ID, library.SectionChildren, []string{doc.ID, sub.ID}},
		{"subspace children", sub.ID, sub.ID, library.SectionChildren, []string{discussion.ID, claim2.ID}},
		{"claim related", claim.ID, claim2.ID, library.SectionRelated, []string{rel.ID}},
		{"document related", doc.ID, doc.ID, library.SectionRelated, []string{rel.ID}},
		{"claim history", claim.ID, claim2.ID, library.SectionHistory, []string{claim.ID, claim2.ID}},
		// The space's child is the document, so the relationship touching
		// it is in the space's graph; the shared space's included claim
		// brings it into that graph too; the subspace's child is the claim.
		{"space graph", space.ID, space.ID, library.SectionGraph, []string{rel.ID}},
		{"shared graph", shared.ID, shared.ID, library.SectionGraph, []string{rel.ID}},
		{"subspace graph", sub.ID, sub.ID, library.SectionGraph, []string{rel.ID}},
		{"reply graph", reply.ID, reply.ID, library.SectionGraph, nil},
		{"claim discussions", claim.ID, claim2.ID, library.SectionDiscussions, []string{discussion.ID}},
		{"subspace discussions", sub.ID, sub.ID, library.SectionDiscussions, []string{discussion.ID}},
		{"reply discussions", reply.ID, reply.ID, library.SectionDiscussions, []string{branch.ID}},
		{"subspace knowledge", sub.ID, sub.ID, library.SectionKnowledge, []string{claim2.ID}},
		// The shared space includes the claim's first revision, exactly.
		{"shared knowledge", shared.ID, shared.ID, library.SectionKnowledge, []string{claim.ID}},
		{"space knowledge", space.ID, space.ID, library.SectionKnowledge, []string{doc.ID}},
		{"subspace all", sub.ID, sub.ID, library.SectionAll, []string{discussion.ID, claim2.ID}},
		{"claim all", claim.ID, claim2.ID, library.SectionAll, []string{discussion.ID, rel.ID}},
		{"shared all", shared.ID, shared.ID, library.SectionAll, []string{claim.ID}},
	} {
		p, err := f.s.Section(f.ctx, library.SectionQuery{Root: c.root, Item: c.item, Section: c.section, Limit: 50})
		if err != nil || !slices.Equal(ids(p.Items), c.want) || p.Total != len(c.want) {
			f.t.Errorf("Section %s: %v total %d, %v; want %v", c.name, ids(p.Items), p.Total, err, c.want)
		}
	}
	if p, _ := f.s.Section(f.ctx, library.SectionQuery{Root: space.ID, Item: space.ID, Section: library.SectionChildren, Offset: 1, Limit: 1}); p.Total != 2 || !slices.Equal(ids(p.Items), []string{sub.ID}) {
		f.t.Errorf("Section children from 1: %v total %d", ids(p.Items), p.Total)
	}
	if _, err := f.s.Section(f.ctx, library.SectionQuery{Root: space.ID, Item: space.ID, Section: "everything", Limit: 50}); !errors.Is(err, store.ErrInvalid) {
		f.t.Errorf("an unknown section: %v, want ErrInvalid", err)
	}

	// Votes: totals of current values, up and down; each author's own.
	totals, err := f.s.VoteTotals(f.ctx, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	want := []library.VoteTotal{
		{Target: claim.ID, Score: 1, Up: 1},
		{Target: reply.ID, Score: 2, Up: 2},
		{Target: discussion.ID, Score: -1, Down: 1},
	}
	slices.SortFunc(want, func(x, y library.VoteTotal) int { return strings.Compare(x.Target, y.Target) })
	if !slices.Equal(totals, want) {
		f.t.Errorf("VoteTotals:\n got %+v\nwant %+v", totals, want)
	}
	if totals, _ := f.s.VoteTotals(f.ctx, []string{discussion.ID, space.ID}); !slices.Equal(totals, []library.VoteTotal{{Target: discussion.ID, Score: -1, Down: 1}}) {
		f.t.Errorf("VoteTotals of two roots: %+v", totals)
	}
	if totals, err := f.s.VoteTotals(f.ctx, []string{}); err != nil || len(totals) != 0 {
		f.t.Errorf("VoteTotals of no roots: %+v, %v", totals, err)
	}
	votes, err := f.s.VotesBy(f.ctx, a.author)
	wantVotes := []library.Vote{{Target: discussion.ID, Root: down.ID, ID: downNow.ID, Value: -1}}
	byA := map[string]library.Vote{}
	for _, v := range votes {
		byA[v.Target] = v
	}
	if err != nil || len(votes) != 2 || byA[discussion.ID] != wantVotes[0] || byA[reply.ID].Value != 1 || !slices.IsSortedFunc(votes, func(x, y library.Vote) int { return strings.Compare(x.Target, y.Target) }) {
		f.t.Errorf("VotesBy a: %+v, %v", votes, err)
	}
	if votes, _ := f.s.VotesBy(f.ctx, b.author); len(votes) != 2 || !slices.ContainsFunc(votes, func(v library.Vote) bool { return v.Target == claim.ID && v.ID == voteClaim.ID && v.Value == 1 }) {
		f.t.Errorf("VotesBy b: %+v", votes)
	}
}

// missingID is a revision ID no test stores.
const missingID = "0000000000000000000000000000000000000000000000000000000000000000"
