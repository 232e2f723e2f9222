package librarytest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// A librarian is an author of contributions for the library tests.
type librarian struct {
	key    *hybrid.PrivateKey
	author string // 64 hex digits
}

func newLibrarian(f *fixture) librarian {
	key, err := hybrid.GenerateKey()
	if err != nil {
		f.t.Fatal(err)
	}
	return librarian{key, strings.TrimPrefix(protocol.OperatorID(key.Public().String()), "op:")}
}

// contribution makes the NewContribution of content (the contract's content
// object: kind, title, body, links, previous) by l at at, signed, with a
// log entry and leaf as the node makes them.
func (f *fixture) contribution(l librarian, content map[string]any, at time.Time) library.NewContribution {
	f.t.Helper()
	text, err := canonical.Marshal(content)
	if err != nil {
		f.t.Fatal(err)
	}
	c, err := library.ParseContent(text)
	if err != nil {
		f.t.Fatal(err)
	}
	rec, err := library.NewRecord(c, l.author, at)
	if err != nil {
		f.t.Fatal(err)
	}
	env, err := library.Sign(rec, l.key)
	if err != nil {
		f.t.Fatal(err)
	}
	envelope, err := env.Marshal()
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

func mustCanonical(f *fixture, r *library.Record) []byte {
	b, err := r.Canonical()
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// checked is the check the node runs: the library's state rules.
func checked(rec *library.Record) func(context.Context, library.Graph) error {
	return func(ctx context.Context, g library.Graph) error { return library.Check(ctx, rec, g) }
}

// add admits c with the library's rules and fails the test if it is
// refused.
func (f *fixture) add(c library.NewContribution) library.Contribution {
	f.t.Helper()
	got, err := f.s.AddContribution(f.ctx, c, checked(c.Record))
	if err != nil {
		f.t.Fatalf("AddContribution %s (%s %q): %v", c.ID, c.Record.Kind, c.Record.Title, err)
	}
	return got
}

// thread is the content of a thread with title and body.
func thread(title, body, previous string, links ...any) map[string]any {
	if links == nil {
		links = []any{}
	}
	return map[string]any{"kind": "thread", "title": title, "body": body, "links": links, "previous": previous}
}

func testContributions(f *fixture) {
	a, b := newLibrarian(f), newLibrarian(f)
	root := f.add(f.contribution(a, thread("Question", "What holds?", ""), f.now))
	if root.Root != root.ID || !root.Head || root.Seq < 1 || root.Index != store.Unlogged {
		f.t.Fatalf("root as added: %+v", root)
	}
	got, err := f.s.Contribution(f.ctx, root.ID)
	if err != nil || got.ID != root.ID || got.Record.Title != "Question" || got.Entry != root.Entry || got.Seq != root.Seq {
		f.t.Fatalf("Contribution(root): %+v, %v", got, err)
	}
	if s, err := f.s.SignedByDigest(f.ctx, root.Entry); err != nil || string(s.Entry) != string(root.Signed) {
		f.t.Fatalf("the contribution's entry is not kept: %v", err)
	}

	// A revision moves the head; its root is the lineage's first.
	rev := f.add(f.contribution(a, thread("Question, sharper", "What holds, exactly?", root.ID), f.now.Add(time.Minute)))
	if rev.Root != root.ID || rev.Seq <= root.Seq {
		f.t.Fatalf("revision as added: root %s seq %d", rev.Root, rev.Seq)
	}
	head, err := f.s.ContributionHead(f.ctx, root.ID)
	if err != nil || head.ID != rev.ID || !head.Head {
		f.t.Fatalf("ContributionHead: %s, %v; want %s", head.ID, err, rev.ID)
	}
	if old, _ := f.s.Contribution(f.ctx, root.ID); old.Head {
		f.t.Error("the revised root is still marked head")
	}
	if _, err := f.s.ContributionHead(f.ctx, rev.ID); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("ContributionHead of a non-root: %v, want ErrNotFound", err)
	}
	if byEntry, err := f.s.ContributionByEntry(f.ctx, rev.Entry); err != nil || byEntry.ID != rev.ID {
		f.t.Errorf("ContributionByEntry: %s, %v", byEntry.ID, err)
	}

	// The same revision again: the stored one, ErrDuplicate, check not run.
	again, err := f.s.AddContribution(f.ctx, f.contribution(a, thread("Question", "What holds?", ""), f.now), func(context.Context, library.Graph) error {
		f.t.Error("check ran for a stored revision")
		return nil
	})
	if !errors.Is(err, store.ErrDuplicate) || again.ID != root.ID {
		f.t.Errorf("adding the root again: %s, %v", again.ID, err)
	}

	// The rules see the stored graph: a stale head is refused, with
	// nothing written.
	stale := f.contribution(a, thread("Question, other", "Other words", root.ID), f.now.Add(2*time.Minute))
	_, err = f.s.AddContribution(f.ctx, stale, checked(stale.Record))
	var re *library.RuleError
	if !errors.As(err, &re) || re.Code != library.CodeStaleHead {
		f.t.Errorf("stale revision: %v, want the rule %s", err, library.CodeStaleHead)
	}
	if _, err := f.s.Contribution(f.ctx, stale.ID); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("a refused revision was stored: %v", err)
	}
	if _, err := f.s.SignedByDigest(f.ctx, stale.Entry); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("a refused revision's entry was kept: %v", err)
	}
	// A store that skipped the check still keeps the lineage a chain.
	if _, err := f.s.AddContribution(f.ctx, stale, func(context.Context, library.Graph) error { return nil }); !errors.Is(err, store.ErrConflict) {
		f.t.Errorf("a second revision of a replaced head, unchecked: %v, want ErrConflict", err)
	}

	// Votes: one per author and target, found by VoteBy.
	vote := f.add(f.contribution(b, map[string]any{"kind": "vote", "title": "Vote", "body": "1",
		"links": []any{map[string]any{"relation": "votes_on", "target": root.ID}}, "previous": ""}, f.now.Add(3*time.Minute)))
	if vote.Facets.Vote != 1 {
		f.t.Errorf("vote facet %d, want 1", vote.Facets.Vote)
	}
	second := f.contribution(b, map[string]any{"kind": "vote", "title": "Vote again", "body": "-1",
		"links": []any{map[string]any{"relation": "votes_on", "target": root.ID}}, "previous": ""}, f.now.Add(4*time.Minute))
	if _, err := f.s.AddContribution(f.ctx, second, checked(second.Record)); !errors.As(err, &re) || re.Code != library.CodeDuplicateVote {
		f.t.Errorf("a second vote: %v, want %s", err, library.CodeDuplicateVote)
	}

	// Who reviews a claim: its evidence, in admission order.
	claim := f.add(f.contribution(a, map[string]any{"kind": "claim", "title": "Water boils at 100 C",
		"body":  map[string]any{"statement": "Water boils at 100 C at sea level", "scope": "sea level", "assumptions": []any{}},
		"links": []any{}, "previous": ""}, f.now.Add(5*time.Minute)))
	var reviews []string
	for i := range 2 {
		ev := f.add(f.contribution(b, map[string]any{"kind": "evidence", "title": fmt.Sprintf("Kettle %d", i),
			"body":  map[string]any{"method": "experiment", "content": fmt.Sprintf("Kettle %d boiled at 100 C", i), "sources": []any{}, "claim": claim.ID},
			"links": []any{map[string]any{"relation": "evidence_for", "target": claim.ID}}, "previous": ""}, f.now.Add(time.Duration(6+i)*time.Minute)))
		reviews = append(reviews, ev.ID)
	}
	if got, err := f.s.ReviewsOf(f.ctx, claim.ID); err != nil || !slices.Equal(got, reviews) {
		f.t.Errorf("ReviewsOf(claim): %v, %v; want %v", got, err, reviews)
	}
	if got, err := f.s.ReviewsOf(f.ctx, root.ID); err != nil || len(got) != 0 {
		f.t.Errorf("ReviewsOf(a thread): %v, %v; want none", got, err)
	}

	// Binding the entry gives the contribution its log index.
	if err := f.s.BindIndex(f.ctx, 0, root.Entry); err != nil {
		f.t.Fatal(err)
	}
	if got, _ := f.s.Contribution(f.ctx, root.ID); got.Index != 0 {
		f.t.Errorf("index after binding: %d, want 0", got.Index)
	}
	// A contribution's entry is appended after a crash, never dropped.
	if err := f.s.DropUnbound(f.ctx, rev.Entry); !errors.Is(err, store.ErrConflict) {
		f.t.Errorf("DropUnbound of a contribution's entry: %v, want ErrConflict", err)
	}
}

// testContributionsConcurrent races revisions of one head and first votes
// on one target: exactly one of each wins, whatever the interleaving.
func testContributionsConcurrent(f *fixture) {
	a := newLibrarian(f)
	root := f.add(f.contribution(a, thread("Race", "Who wins?", ""), f.now))
	const racers = 8
	var revisions, votes []library.NewContribution
	for i := range racers {
		revisions = append(revisions, f.contribution(a, thread("Race", fmt.Sprintf("Racer %d wins", i), root.ID), f.now.Add(time.Minute)))
		votes = append(votes, f.contribution(a, map[string]any{"kind": "vote", "title": fmt.Sprintf("Vote %d", i), "body": "1",
			"links": []any{map[string]any{"relation": "votes_on", "target": root.ID}}, "previous": ""}, f.now.Add(time.Minute)))
	}
	for _, batch := range [][]library.NewContribution{revisions, votes} {
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for _, c := range batch {
			wg.Go(func() {
				_, err := f.s.AddContribution(f.ctx, c, checked(c.Record))
				switch {
				case err == nil:
					mu.Lock()
					won++
					mu.Unlock()
				case !errors.Is(err, library.ErrConflict):
					f.t.Errorf("%s: %v, want a conflict", c.Record.Title, err)
				}
			})
		}
		wg.Wait()
		if won != 1 {
			f.t.Errorf("%d of %d racers (%s) were admitted, want exactly 1", won, len(batch), batch[0].Record.Kind)
		}
	}
}

// testLibraryScopes checks the scopes an admin grants or denies: each scope
// recorded on its own, replaced, and forgotten with nil.
func testLibraryScopes(f *fixture) {
	yes, no := true, false
	op := "op:" + strings.Repeat("ab", 32)
	if got, err := f.s.LibraryScopes(f.ctx, op); err != nil || len(got) != 0 {
		f.t.Fatalf("LibraryScopes before any: %v, %v; want none", got, err)
	}
	if err := f.s.SetLibraryScopes(f.ctx, op, map[string]*bool{library.ScopeVote: &no, library.ScopeCurate: &yes}); err != nil {
		f.t.Fatal(err)
	}
	if err := f.s.SetLibraryScopes(f.ctx, op, map[string]*bool{library.ScopeCurate: &no, library.ScopePublish: &yes}); err != nil {
		f.t.Fatal(err)
	}
	want := map[string]bool{library.ScopeVote: false, library.ScopeCurate: false, library.ScopePublish: true}
	if got, err := f.s.LibraryScopes(f.ctx, op); err != nil || !maps.Equal(got, want) {
		f.t.Errorf("LibraryScopes: %v, %v; want %v", got, err, want)
	}
	if err := f.s.SetLibraryScopes(f.ctx, op, map[string]*bool{library.ScopeVote: nil}); err != nil {
		f.t.Fatal(err)
	}
	delete(want, library.ScopeVote)
	// Read twice, the first answer changed in between: a store that keeps
	// scopes between reads hands out copies, and drops them on a write.
	for range 2 {
		got, err := f.s.LibraryScopes(f.ctx, op)
		if err != nil || !maps.Equal(got, want) {
			f.t.Errorf("LibraryScopes after forgetting vote: %v, %v; want %v", got, err, want)
		}
		maps.Copy(got, map[string]bool{library.ScopeVote: true, library.ScopePublish: false})
	}
	if err := f.s.SetLibraryScopes(f.ctx, op, map[string]*bool{library.ScopePublish: &no}); err != nil {
		f.t.Fatal(err)
	}
	want[library.ScopePublish] = false
	if got, err := f.s.LibraryScopes(f.ctx, op); err != nil || !maps.Equal(got, want) {
		f.t.Errorf("LibraryScopes after denying publish, read before: %v, %v; want %v", got, err, want)
	}
	if got, _ := f.s.LibraryScopes(f.ctx, "op:"+strings.Repeat("cd", 32)); len(got) != 0 {
		f.t.Errorf("another operator's scopes: %v, want none", got)
	}
}
