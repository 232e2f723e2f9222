package library

import (
	"context"
	"time"

	"github.com/agora-node/agora/store"
)

// NewContribution is a contribution as the node admits it.
type NewContribution struct {
	ID       string  // revision ID: SHA-256 of the record's canonical JSON
	Root     string  // first revision of its lineage: the store sets it
	Record   *Record // the record as signed
	Envelope []byte  // {record, signature} as the node keeps it (canonical JSON)
	Facets   Facets  // FacetsOf(Record)
	Admitted time.Time

	// The log entry that holds it, as PutSigned takes one.
	Entry  string // entry digest
	Signed []byte // the entry as signed
	Leaf   []byte // the leaf that holds it
}

// Contribution is a stored contribution.
type Contribution struct {
	NewContribution
	// Seq is its place in the order the node admitted contributions,
	// from 1: the changes feed's order, and "newest" everywhere.
	Seq int64
	// Index is its entry's log index, store.Unlogged until bound.
	Index int64
	// Head reports whether it is its lineage's current head.
	Head bool
}

// Store is a node's store (store.Store) that also keeps the library: its
// contributions, the reads of its catalogue, changes feed and objects, the
// authors' personal lists and the scopes an admin set. Every driver runs
// librarytest.Run. Its methods keep store.Store's contract on concurrency,
// durability, errors and retries.
//
// A contribution is admitted in one write: AddContribution runs the
// library's state rules (Check) against the contributions stored, inside
// the transaction that stores it, and stores the contribution, its links
// and its log entry (as PutSigned does, with its leaf) together. So the
// rules' verdict holds when the write commits, however many writers race,
// and a contribution is never kept without the entry that logs it. The
// node then appends the leaf and binds the entry (BindIndex), as for any
// logged entry.
//
// A contribution is visible to the library's reads and rules from the
// moment it is stored, bound or not: a revision admitted right after
// another must see it as the head. So a contribution's entry is never
// dropped after a crash; recovery appends it (see the node), and
// DropUnbound of it returns store.ErrConflict.
type Store interface {
	store.Store

	// AddContribution admits c: in the write transaction that stores it,
	// it calls check with a Graph reading that transaction (so it
	// sees every contribution stored before, and only those), and stores c
	// only if check returns nil; check's error is returned as it is, with
	// nothing written. check MUST only read through the graph, and may
	// be called more than once for one call: a driver that runs the
	// transaction again after a serialization failure (store.Store's
	// Retries) calls it again with the new transaction's graph, and only
	// that verdict counts.
	//
	// The same revision stored before returns the stored one with
	// store.ErrDuplicate, without calling check. Storing a revision whose
	// previous is not its lineage's head returns store.ErrConflict: check
	// should have refused it. The entry is kept as PutSigned keeps one,
	// and its digest already kept for other bytes is store.ErrConflict.
	AddContribution(ctx context.Context, c NewContribution, check func(context.Context, Graph) error) (Contribution, error)

	// Contribution returns a stored revision by its ID.
	Contribution(ctx context.Context, id string) (Contribution, error)

	// ContributionHead returns the current head of the lineage whose
	// root is root. A root not stored, or an ID that is not a root, is
	// store.ErrNotFound.
	ContributionHead(ctx context.Context, root string) (Contribution, error)

	// ContributionByEntry returns the contribution a log entry holds, by
	// the entry's digest.
	ContributionByEntry(ctx context.Context, digest string) (Contribution, error)

	// SetLibraryScopes records, for operator, an explicit grant (true) or
	// denial (false) of each scope named in scopes, replacing what was
	// recorded for those scopes; nil forgets the scope's entry, so the
	// node's default applies again. Scopes not named keep theirs.
	SetLibraryScopes(ctx context.Context, operator string, scopes map[string]*bool) error

	// LibraryScopes returns what was recorded for operator by
	// SetLibraryScopes: an empty map when nothing was.
	LibraryScopes(ctx context.Context, operator string) (map[string]bool, error)

	CatalogueStore
	ObjectStore
	PersonalStore
	BundleReads
}
