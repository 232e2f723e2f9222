package library

import "context"

// A Stored revision is an admitted record with where it stands.
type Stored struct {
	ID     string  // its revision ID
	Root   string  // its lineage's first revision: ID itself for a root
	Record *Record // the record as signed
}

// Graph is what Check reads of the stored contributions. The store
// implements it; MemGraph is the in-memory one the tests use.
//
// Consistency: Check reads several times and decides from all it read,
// and its verdict holds only if nothing changes before the record is
// stored: the caller MUST run Check and store the record in one
// serializable transaction, or under one lock that every write of
// contributions takes. Otherwise two revisions of one head, or two first
// votes by one author on one target, can both pass. Check calls the
// methods one at a time, from one goroutine, and never writes.
//
// Errors: a missing revision, lineage or vote is an error wrapping
// fs.ErrNotExist (ErrNotFound does, as does the store's own not-found
// error); Check turns it into the rule it breaks. Any other error ends
// Check with that error wrapped, as a failure to decide, not a refusal.
// A canceled ctx MUST end a call with an error wrapping ctx.Err().
type Graph interface {
	// Revision returns the stored revision whose ID is id.
	Revision(ctx context.Context, id string) (*Stored, error)

	// Head returns the ID of the current head of the lineage whose root
	// is root: its latest revision. Revisions are admitted only against
	// the head, so a lineage is a chain and its head is its one revision
	// no other revision names as previous. root must be a root's ID; the
	// head of a revision that is not a root is not found.
	Head(ctx context.Context, root string) (string, error)

	// VoteBy returns the root ID of the vote lineage by author (64 hex
	// digits, as Record.Author) on target (a root's ID), if there is one.
	// There is at most one: Check admits no second.
	VoteBy(ctx context.Context, author, target string) (string, error)
}
