package library

import "context"

// ObjectStore is the part of a Store that answers the reads of one
// object: its connections, discussion, map, activity, scores and sections.
// Its methods keep store.Store's contract on concurrency, durability and
// errors.
//
// Words used below. A lineage is a root and its revisions; its current
// head is the revision that is its head when the method reads. "Links to
// a lineage" means a link whose target is any revision of it (the link's
// exact target is kept, and reported where it matters). "Newest first"
// orders by Seq, the admission order, highest first.
//
// Listings take an offset and a limit and return a ContributionPage: at
// most limit items from the offset-th on, and the listing's total, both
// read from one snapshot, so Total and Items agree. An offset at or past
// the end gives no items and the total; a limit of 0 or less gives no
// items. A root that is not stored lists nothing: the methods do not
// check that what they are asked about exists, the caller does.
type ObjectStore interface {
	// Contributions returns the revisions ids names, in the order named,
	// a repeated ID repeated. An ID not stored is store.ErrNotFound, naming it.
	Contributions(ctx context.Context, ids []string) ([]Contribution, error)

	// Revisions lists the lineage whose root is root, oldest first: the
	// root, then each revision of the one before.
	Revisions(ctx context.Context, root string, offset, limit int) (ContributionPage, error)

	// Incoming lists the links from other lineages to the lineage whose
	// root is root: one Backlink for each link the current head of
	// another lineage carries to any revision of it, votes aside (they
	// are counted by VoteTotals, not listed). A lineage's own revisions
	// are not its backlinks, nor are the links of superseded revisions:
	// a link an author removed by revising is gone. Newest source first,
	// a source's links in its order.
	Incoming(ctx context.Context, root string, offset, limit int) (BacklinkPage, error)

	// Discussion lists the discussion under the lineage whose root is
	// root, as current heads: every reply, thread and discussion that
	// links by replies_to, answers, branches_from, about or contained_in
	// to root's lineage, and, recursively, to the lineage of any of them;
	// so replies to replies, and discussions branching from a reply, are
	// under the object too. Maps, claims, spaces and documents contained
	// in an object are not discussion, and nothing is followed through
	// them. Sort orders it (DiscussionSort).
	Discussion(ctx context.Context, root string, sort DiscussionSort, offset, limit int) (ContributionPage, error)

	// Activity lists the evidence, assessments and proposals about a
	// revision: those whose one evidence_for, assesses or proposes_for
	// link (the body's node, claim or base) names it, newest first; q
	// says which (ActivityQuery).
	Activity(ctx context.Context, q ActivityQuery) (ContributionPage, error)

	// Section lists one section of an object (ObjectSection says what
	// each holds).
	Section(ctx context.Context, q SectionQuery) (ContributionPage, error)

	// VoteTotals returns the host-projected totals of the current votes on
	// each target root in targets, or on every root anyone votes on when
	// targets is nil, ordered by target. A vote lineage counts with its
	// current head's value; a target no one votes on has no VoteTotal.
	VoteTotals(ctx context.Context, targets []string) ([]VoteTotal, error)

	// VotesBy returns the current vote of author (64 hex digits, as
	// Record.Author) on each root they vote on, ordered by
	// target.
	VotesBy(ctx context.Context, author string) ([]Vote, error)
}

// A ContributionPage is one page of a listing.
type ContributionPage struct {
	Items []Contribution
	Total int // how many the whole listing holds
}

// A Backlink is one link to a lineage from the current head of another.
type Backlink struct {
	Source      string // the linking revision: a current head
	SourceKind  string
	SourceTitle string
	Relation    string
	Target      string // the exact revision linked to
}

// A BacklinkPage is one page of backlinks.
type BacklinkPage struct {
	Items []Backlink
	Total int
}

// DiscussionSort is the order of a discussion.
type DiscussionSort string

// The orders of a discussion. "When" is when its lineage began (its
// root's Seq), so that editing a reply does not move it.
const (
	// SortNew: newest lineage first.
	SortNew DiscussionSort = "new"
	// SortOld: oldest lineage first, the order a thread is read in.
	SortOld DiscussionSort = "old"
	// SortTop: highest sum of current votes on the lineage's root first,
	// ties newest first.
	SortTop DiscussionSort = "top"
)

// ActivityQuery says which activity Activity lists.
type ActivityQuery struct {
	// Subject is the exact revision the activity is about.
	Subject string
	// Lineage widens Subject, which must then be a root, to every
	// revision of its lineage: a map's proposals, say, made against
	// any of its revisions.
	Lineage bool
	// Kinds keeps only contributions of these kinds; nil keeps all.
	Kinds []string
	// Challenges keeps only the challenges: evidence whose method is
	// counterexample and assessments whose verdict is disputed or
	// refuted.
	Challenges bool

	Offset, Limit int
}

// ObjectSection names a section of an object: what GET
// /api/objects/{revision}?section= lists. Every section lists signed
// revisions newest first but history, oldest first; "of it" means linked
// to any revision of the object's lineage (Root).
type ObjectSection string

// The sections.
const (
	// SectionAll: children, related, discussions and knowledge together,
	// each revision once.
	SectionAll ObjectSection = "all"
	// SectionChildren: the current heads of the lineages contained in it
	// (contained_in names its root): subspaces, discussions, claims and
	// documents of a space; maps and threads of a map or thread.
	SectionChildren ObjectSection = "children"
	// SectionRelated: the current heads of the relationships incident to
	// it (relates_from or relates_to one of its revisions).
	SectionRelated ObjectSection = "related"
	// SectionHistory: its revisions, oldest first, as Revisions lists them.
	SectionHistory ObjectSection = "history"
	// SectionGraph: the current heads of the relationships incident to
	// it, to any of its direct children, or to anything its Item includes.
	// A relationship keeps its exact endpoints in its body and links.
	SectionGraph ObjectSection = "graph"
	// SectionDiscussions: the current heads of the discussions and
	// threads about it, contained in it or branching from it: direct ones
	// only; their replies are Discussion's.
	SectionDiscussions ObjectSection = "discussions"
	// SectionKnowledge: the claims and documents it holds: the current
	// heads of those contained in it and the exact revisions its Item
	// includes (includes links keep their exact endpoints).
	SectionKnowledge ObjectSection = "knowledge"
)

// ObjectSections are the sections, in the contract's order.
var ObjectSections = []ObjectSection{SectionAll, SectionChildren, SectionRelated, SectionHistory, SectionGraph, SectionDiscussions, SectionKnowledge}

// SectionQuery says which section of which object Section lists.
type SectionQuery struct {
	Root    string        // the object's root
	Item    string        // the revision shown, whose includes links count
	Section ObjectSection // an unknown section is store.ErrInvalid

	Offset, Limit int
}

// A VoteTotal is the host's projection of the votes on one root.
type VoteTotal struct {
	Target string // the root voted on
	Score  int64  // the sum of the current votes' values
	Up     int    // current votes of 1
	Down   int    // current votes of -1
}

// A Vote is an author's current vote on one root.
type Vote struct {
	Target string // the root voted on
	Root   string // the vote lineage's root
	ID     string // its current head
	Value  int    // -1, 0 or 1
}
