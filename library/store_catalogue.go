package library

import (
	"context"
	"errors"
	"github.com/agora-node/agora/internal/search"
)

// CatalogueStore is the part of a Store that answers the catalogue and
// the changes feed. Its methods keep store.Store's contract on
// concurrency, durability and errors.
//
// The catalogue lists lineage heads: each lineage once, as its current
// revision, the moment a revision is stored (a superseded revision is
// never listed, nor found by its old words). Votes are lineages too, but
// are listed only when asked for by kind; they are never searched.
//
// The changes feed lists revisions, not heads, in admission order (Seq).
// A driver MUST make a revision visible to readers no later than every
// revision with a lower Seq, so a reader that sees Seq s sees every
// revision up to s; and it MUST NOT list a revision before its entry, and
// the entry of every revision admitted before it, is bound to a log index
// (so every revision the feed lists carries its admission evidence, and a
// revision still being logged holds the feed back rather than being
// skipped).
type CatalogueStore interface {
	// Catalogue returns one page of the catalogue: the heads q selects,
	// in q.Sort's order, from the q.Offset-th on, at most q.Limit of them,
	// and how many heads q selects in all, read from one snapshot. An
	// offset past the end gives no items and the total. q is not checked
	// against the contract's enums: a value no head has selects nothing.
	Catalogue(ctx context.Context, q CatalogueQuery) (CataloguePage, error)

	// Changes returns one page of the changes feed q names (see
	// ChangesQuery for the snapshot rule). A position the store cannot
	// honour is ErrResync, wrapped with why: one past the newest revision
	// the feed holds (a cursor from another store, or from before a
	// restore), or a new snapshot more than MaxChangesScan feed revisions
	// long.
	Changes(ctx context.Context, q ChangesQuery) (ChangesPage, error)
}

// CatalogueSort is the order of the catalogue.
type CatalogueSort string

const (
	// CatalogueNew is newest head first (highest Seq).
	CatalogueNew CatalogueSort = "new"
	// CatalogueTop is the host-projected vote ranking: the sum of the
	// current values of the votes on the lineage's root (each vote
	// lineage counts with its head's value, -1, 0 or 1), highest first,
	// ties newest first. A lineage no one votes on has 0.
	CatalogueTop CatalogueSort = "top"
	// CatalogueRelevance is the contract's relevance rule, highest score
	// first, ties newest first; it needs Words. A head's score is the sum,
	// over the distinct query words, of 3 × the times the word occurs
	// among its title's words plus 1 × the times it occurs among its
	// body's words (Facets.Text), words as SearchWords makes them.
	CatalogueRelevance CatalogueSort = "relevance"
)

// CatalogueQuery selects and orders catalogue heads. Every field set must
// hold for a head to be selected.
type CatalogueQuery struct {
	// Words, when set, selects the heads whose title or body holds every
	// one of them (as SearchWords makes words: the caller splits the
	// query with it; a duplicate counts once).
	Words []string
	// Kind selects one kind; empty selects every kind but votes.
	Kind string
	// NodeType, Method and Verdict select by facet (Facets).
	NodeType, Method, Verdict string
	// Author selects one author: 64 hex digits, as Record.Author.
	Author string
	// Sort orders the heads; empty is CatalogueNew.
	Sort CatalogueSort

	Offset, Limit int
}

// A CataloguePage is one page of the catalogue.
type CataloguePage struct {
	Items []Contribution
	Total int // how many heads the query selects in all
}

// MaxChangesScan bounds the changes feed's scan, as the contract's limits
// do: a snapshot holds at most this many revisions of its feed, so no page
// reads more.
const MaxChangesScan = 10000

// ChangesQuery names a page of a changes feed.
//
// A feed is Root's, or, with Root empty, the whole library's. No feed
// holds a vote: the library's is every revision but votes, and Root's is
// the revisions, votes aside, of the lineages it watches as of the
// snapshot's end, so a vote's own feed (Root a vote) is empty. Root
// watches its own lineage; every lineage contained in a watched lineage
// (contained_in), or included by Root's lineage (includes), and for a
// research map every node lineage any of its revisions names (a map
// watches the node lineages ever contained in the snapshot); the
// discussions under a watched lineage, recursively (replies, threads and
// discussions linking by replies_to, answers, branches_from, about or
// contained_in); and the evidence, assessments and proposals about a
// watched lineage (evidence_for, assesses, proposes_for), whose own links
// are not followed. Votes, relationships and other citations are not
// followed. A lineage that begins being watched in a later snapshot is
// listed from that snapshot on; its earlier revisions are found through
// the revision that watches it.
//
// A snapshot is the feed's revisions with After < Seq <= End. With End
// zero a new snapshot begins: it ends at the feed's newest revision and
// begins at After, or, with After zero too (history), MaxChangesScan
// feed revisions before its end, or at the beginning.
type ChangesQuery struct {
	Root  string // a lineage root, or empty for the whole library
	After int64  // the Seq up to which the feed was read
	End   int64  // the snapshot's last Seq, or 0 to begin a new one
	Limit int
}

// A ChangesPage is one page of a changes feed.
type ChangesPage struct {
	// Items are the snapshot's first Limit revisions after After, in
	// admission order.
	Items []Contribution
	// After and End are where the snapshot begins and ends: a page of a
	// new snapshot says which one it began.
	After, End int64
	// More reports whether the snapshot holds revisions after Items.
	More bool
}

// ErrResync is a changes position the store cannot honour: the follower
// must read the object again and follow a new history.
var ErrResync = errors.New("store: resync required")

// SearchWords splits text into the words the catalogue's relevance rule
// counts, as the claims search splits them (search.Words): maximal runs of
// letters, marks and digits, in NFKC form, lowercased. A word searched for
// finds every word it starts, as in the claims search: "sort" finds
// "sorting" (search.Range), and its weight in a head is that of all the
// words it finds there.
func SearchWords(text string) []string { return search.Words(text) }
