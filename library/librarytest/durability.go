package librarytest

import (
	"bytes"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store"
)

// testDurability admits contributions (a lineage, a vote, a claim with its
// evidence), binds all but the last, keeps personal states and a read
// nonce and sets scopes, closes the store, opens it again, and finds
// everything as it was: each revision with its entry, the heads, the
// catalogue with its words and vote sums, the changes feed, the unbound
// entry still unbound for recovery to append, admission going on from
// where it stood (heads and votes), the personal chain and its nonces, and
// the scopes.
func testDurability(f *fixture, reopen func(t *testing.T, s library.Store) library.Store) {
	a, b := newLibrarian(f), newLibrarian(f)
	book := &catalogueBook{f: f, at: f.now}
	root := book.add(a, thread("Question", "What holds under load?", ""))
	rev := book.add(a, thread("Question, sharper", "What holds under load, exactly?", root.ID))
	book.add(b, catContent("vote", "Vote", "1", "", [2]string{"votes_on", root.ID}))
	claim := book.add(a, catContent("claim", "Water boils at 100 C", map[string]any{"statement": "Water boils at 100 C at sea level", "scope": "sea level", "assumptions": []any{}}, ""))
	book.at = book.at.Add(time.Second)
	evidence := f.add(f.contribution(b, catContent("evidence", "Kettle", map[string]any{"method": "experiment", "content": "The kettle boiled at 100 C", "sources": []any{}, "claim": claim.ID}, "",
		[2]string{"evidence_for", claim.ID}), book.at))
	ids := []string{root.ID, rev.ID, claim.ID, evidence.ID}
	first, err := f.s.SetPersonalState(f.ctx, f.personalState(a, "", f.now, root.ID))
	f.ok(err, "SetPersonalState")
	current, err := f.s.SetPersonalState(f.ctx, f.personalState(a, first.ID, f.now.Add(time.Second), root.ID, claim.ID))
	f.ok(err, "SetPersonalState")
	read := library.PersonalRead{Author: a.author, Nonce: strings.Repeat("1", 64), Request: strings.Repeat("r1", 32), Expires: f.now.Add(6 * time.Minute), Now: f.now}
	answered, err := f.s.ReadPersonal(f.ctx, read)
	f.ok(err, "ReadPersonal")
	yes, no := true, false
	f.ok(f.s.SetLibraryScopes(f.ctx, "op:"+a.author, map[string]*bool{library.ScopeVote: &no, library.ScopeCurate: &yes}), "SetLibraryScopes")
	before := map[string]library.Contribution{}
	for _, id := range ids {
		before[id], err = f.s.Contribution(f.ctx, id)
		f.ok(err, "Contribution")
	}
	catalogue, err := f.s.Catalogue(f.ctx, library.CatalogueQuery{Limit: 50})
	f.ok(err, "Catalogue")
	top, err := f.s.Catalogue(f.ctx, library.CatalogueQuery{Sort: library.CatalogueTop, Limit: 50})
	f.ok(err, "Catalogue top")
	if len(top.Items) == 0 || top.Items[0].ID != rev.ID {
		f.t.Fatalf("the catalogue's top before reopening = %v, want the voted lineage's head %s first", catIDs(top.Items), rev.ID)
	}
	changes, err := f.s.Changes(f.ctx, library.ChangesQuery{Limit: 50})
	f.ok(err, "Changes")

	f.s = reopen(f.t, f.s)

	for id, was := range before {
		now, err := f.s.Contribution(f.ctx, id)
		f.ok(err, "Contribution after reopening")
		if !sameContribution(was, now) {
			f.t.Errorf("%s after reopening:\n%+v\nwas\n%+v", id, now, was)
		}
		s, err := f.s.SignedByDigest(f.ctx, was.Entry)
		if err != nil || !bytes.Equal(s.Entry, was.Signed) || !bytes.Equal(s.Leaf, was.Leaf) || s.Index != was.Index {
			f.t.Errorf("the entry of %s after reopening = %+v, %v", id, s, err)
		}
	}
	if got := before[evidence.ID]; got.Index != store.Unlogged || before[root.ID].Index == store.Unlogged {
		f.t.Errorf("indexes before reopening: root %d, evidence %d", before[root.ID].Index, got.Index)
	}
	if unbound, err := f.s.Unbound(f.ctx); err != nil || len(unbound) != 1 || unbound[0].Digest != evidence.Entry {
		f.t.Errorf("Unbound after reopening = %d entries, %v; want the evidence's entry", len(unbound), err)
	}
	if byEntry, err := f.s.ContributionByEntry(f.ctx, evidence.Entry); err != nil || byEntry.ID != evidence.ID {
		f.t.Errorf("ContributionByEntry after reopening = %s, %v", byEntry.ID, err)
	}
	if head, err := f.s.ContributionHead(f.ctx, root.ID); err != nil || head.ID != rev.ID {
		f.t.Errorf("the head after reopening = %s, %v; want %s", head.ID, err, rev.ID)
	}
	if got, err := f.s.Catalogue(f.ctx, library.CatalogueQuery{Limit: 50}); err != nil || got.Total != catalogue.Total || !slices.Equal(catIDs(got.Items), catIDs(catalogue.Items)) {
		f.t.Errorf("the catalogue after reopening = %v (%d), %v; was %v", catIDs(got.Items), got.Total, err, catIDs(catalogue.Items))
	}
	if got, err := f.s.Catalogue(f.ctx, library.CatalogueQuery{Words: library.SearchWords("exactly"), Limit: 50}); err != nil || !slices.Equal(catIDs(got.Items), []string{rev.ID}) {
		f.t.Errorf("the catalogue's words after reopening = %v, %v", catIDs(got.Items), err)
	}
	if got, err := f.s.Catalogue(f.ctx, library.CatalogueQuery{Sort: library.CatalogueTop, Limit: 50}); err != nil || !slices.Equal(catIDs(got.Items), catIDs(top.Items)) {
		f.t.Errorf("the catalogue's top after reopening = %v, %v; was %v", catIDs(got.Items), err, catIDs(top.Items))
	}
	if got, err := f.s.Changes(f.ctx, library.ChangesQuery{Limit: 50}); err != nil || !slices.Equal(catIDs(got.Items), catIDs(changes.Items)) || len(got.Items) != 3 {
		f.t.Errorf("the changes feed after reopening = %v, %v; was %v", catIDs(got.Items), err, catIDs(changes.Items))
	}
	if totals, err := f.s.VoteTotals(f.ctx, []string{root.ID}); err != nil || len(totals) != 1 || totals[0].Score != 1 {
		f.t.Errorf("VoteTotals after reopening = %+v, %v", totals, err)
	}
	if reviews, err := f.s.ReviewsOf(f.ctx, claim.ID); err != nil || !slices.Equal(reviews, []string{evidence.ID}) {
		f.t.Errorf("ReviewsOf after reopening = %v, %v", reviews, err)
	}
	// Admission goes on from where it stood: after every revision, against
	// the head.
	stale := f.contribution(a, thread("Question, other", "Other words", root.ID), f.now.Add(time.Hour))
	var re *library.RuleError
	if _, err := f.s.AddContribution(f.ctx, stale, checked(stale.Record)); !errors.As(err, &re) || re.Code != library.CodeStaleHead {
		f.t.Errorf("a stale revision after reopening: %v, want %s", err, library.CodeStaleHead)
	}
	again := f.contribution(b, catContent("vote", "Vote again", "-1", "", [2]string{"votes_on", root.ID}), f.now.Add(time.Hour))
	if _, err := f.s.AddContribution(f.ctx, again, checked(again.Record)); !errors.As(err, &re) || re.Code != library.CodeDuplicateVote {
		f.t.Errorf("a second first vote after reopening: %v, want %s", err, library.CodeDuplicateVote)
	}
	next := f.add(f.contribution(a, thread("Question, sharpest", "What holds?", rev.ID), f.now.Add(time.Hour)))
	if next.Seq <= before[evidence.ID].Seq {
		f.t.Errorf("a revision admitted after reopening has Seq %d, not after %d", next.Seq, before[evidence.ID].Seq)
	}
	// The new head carries its lineage's votes, above a newer head with none.
	f.add(f.contribution(b, thread("Another question", "Unvoted", ""), f.now.Add(2*time.Hour)))
	if got, err := f.s.Catalogue(f.ctx, library.CatalogueQuery{Sort: library.CatalogueTop, Limit: 50}); err != nil || len(got.Items) == 0 || got.Items[0].ID != next.ID {
		f.t.Errorf("the catalogue's top after a revision after reopening = %v, %v; want the voted lineage's new head %s first", catIDs(got.Items), err, next.ID)
	}

	if cur, err := f.s.CurrentPersonalState(f.ctx, a.author); err != nil || cur.ID != current.ID || !bytes.Equal(cur.Envelope, current.Envelope) || !cur.Stored.Equal(current.Stored) {
		f.t.Errorf("the personal state after reopening = %s, %v; want %s", cur.ID, err, current.ID)
	}
	if st, err := f.s.ReadPersonal(f.ctx, read); !errors.Is(err, store.ErrDuplicate) || st == nil || st.ID != answered.ID {
		f.t.Errorf("the read again after reopening = %+v, %v; want its answer with ErrDuplicate", st, err)
	}
	replay := read
	replay.Request = strings.Repeat("r2", 32)
	f.is(second(f.s.ReadPersonal(f.ctx, replay)), library.ErrNonceUsed, "the nonce in another request after reopening")
	f.is(second(f.s.SetPersonalState(f.ctx, f.personalState(a, first.ID, f.now.Add(time.Minute)))), store.ErrConflict, "a state replacing a replaced one after reopening")
	if _, err := f.s.SetPersonalState(f.ctx, f.personalState(a, current.ID, f.now.Add(time.Minute))); err != nil {
		f.t.Errorf("a state replacing the current one after reopening: %v", err)
	}
	want := map[string]bool{library.ScopeVote: false, library.ScopeCurate: true}
	if got, err := f.s.LibraryScopes(f.ctx, "op:"+a.author); err != nil || !maps.Equal(got, want) {
		f.t.Errorf("LibraryScopes after reopening = %v, %v; want %v", got, err, want)
	}
}

// sameContribution reports whether two reads of a contribution agree.
func sameContribution(a, b library.Contribution) bool {
	return a.ID == b.ID && a.Root == b.Root && a.Seq == b.Seq && a.Index == b.Index && a.Head == b.Head &&
		a.Entry == b.Entry && bytes.Equal(a.Envelope, b.Envelope) && bytes.Equal(a.Signed, b.Signed) && bytes.Equal(a.Leaf, b.Leaf) &&
		a.Admitted.Equal(b.Admitted) && reflect.DeepEqual(a.Facets, b.Facets) && reflect.DeepEqual(a.Record, b.Record)
}
