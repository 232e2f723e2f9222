package engine

import (
	"context"
	"time"
)

// MemoryAdapter is an adapter allowed to send events, with the SHA-256 of
// its bearer token. The token itself is never stored.
type MemoryAdapter struct {
	ID        string // the adapter_id of the route
	TokenHash [32]byte
	Issued    time.Time
}

// MemoryProfile is a memory-profile/v1 document kept for sessions to pin by
// its id and revision.
type MemoryProfile struct {
	ID       string
	Revision string
	Document []byte // the document as given
	Stored   time.Time
}

// MemoryEvent is an event applied, with the answer it got: the answer sent
// again, byte for byte, when the same event is sent again.
type MemoryEvent struct {
	AdapterID  string
	EventID    string // sha256:<hex>, the adapter's idempotency key
	BodyDigest string // digest of the event's canonical body
	Kind       string
	Session    string // the session handle the event names, or issued
	Result     []byte // the response body sent
	Status     int    // the HTTP status sent
	At         time.Time
}

// MemorySession is one session as the engine left it after an event.
type MemorySession struct {
	Handle    string
	AdapterID string
	// Version is 1 when the session is made and one more with each change.
	Version int64
	State   []byte // the engine's JSON; opaque to the store
	Started time.Time
	Ended   bool
}

// Record scopes: a project record's topic key is its project's; a global
// one's is every project's.
const (
	MemoryScopeProject = "project"
	MemoryScopeGlobal  = "global"
)

// MemoryRecord is one memory record (lr_…) at its current revision.
type MemoryRecord struct {
	Ref string
	// Version is 1 when the record is made and one more with each change
	// (a new revision, a mark, a trust level).
	Version  int64
	Scope    string // MemoryScopeProject or MemoryScopeGlobal
	Project  string // the project of the session that recorded it
	TopicKey string
	Revision int64  // the note revision; 1 for the first note on the topic
	Session  string // the handle of the session that recorded the revision
	// Adapter is the adapter whose session wrote the record: its owner,
	// and the writer of every revision (a note of another adapter on the
	// same topic makes another record). A record keeps it for life.
	Adapter string
	// Shared says the node's admin reviewed the record's current revision
	// and let other adapters' sessions read it and relate to it.
	Shared  bool
	Created time.Time
	Updated time.Time
	Body    []byte // the engine's JSON; opaque to the store
}

// MemoryReceipt is one exposure (pushed, listed, read, cited, applied) or
// mark (used_success, task_failed, contradicted, superseded) of a record in
// a session, with the contract's receipt payload.
type MemoryReceipt struct {
	Seq       int64 // given by the store, increasing in the order stored
	Session   string
	RecordRef string
	Kind      string
	Payload   []byte // canonical JSON of the receipt payload
	At        time.Time
}

// MemoryChange is everything one event does, applied at once.
type MemoryChange struct {
	Event MemoryEvent
	// Session, when not nil, is made (Version 1) or replaces the stored
	// one (Version one more than it).
	Session *MemorySession
	// Records are made (Version 1) or replace the stored ones (Version one
	// more than theirs).
	Records  []MemoryRecord
	Receipts []MemoryReceipt
}

// MemoryRecordChanges is what changed among the records after a cursor
// (Store.MemoryRecordChanges), read in one snapshot.
type MemoryRecordChanges struct {
	// Records are the records made or replaced after the cursor, each
	// once, at its current version, in no particular order.
	Records []MemoryRecord
	// Deleted are the refs of the records deleted after the cursor.
	Deleted []string
	// Cursor is the store's last change in the snapshot: the cursor to
	// ask from next time.
	Cursor int64
}

// Store keeps the memory: what a node keeps for memory-agent-ingress/v1
// (memory/memory-agent-ingress-v1.schema.json). It holds five things: the
// adapters allowed to send events (by a hash of their token), the profiles
// sessions may pin, every event applied with the answer it got, the
// sessions, and the records with the receipts of how sessions met them.
// The memory logs nothing, so Store is not a store.Store; a driver keeps
// both side by side. Every driver runs enginetest.Run.
//
// Sessions' state and records' bodies are the engine's JSON, opaque to the
// store: it keeps them whole and compares versions, so that what the
// engine read is what it replaces. What the store decides itself is what
// must hold however the engine is written: an event is applied once, a
// session and a record change only from the version they were read at,
// and one topic key names one record of an adapter in its scope (so
// another adapter's note on the same topic can never become a revision of
// someone else's record).
//
// Several processes may share one store (PostgreSQL), each with an
// engine: a record written through one is read by the others through
// MemoryRecordChanges, and a session or record one of them read before
// another changed it fails its next write with store.ErrConflict, which
// the engine answers by reading it again.
//
// Its methods keep store.Store's contract on concurrency (safe for
// concurrent use, each method atomic), durability (a write that returned
// nil, or store.ErrDuplicate, is on stable storage; any other error wrote
// nothing), errors (a missing record wraps store.ErrNotFound) and retries.
type Store interface {
	// PutMemoryAdapter allows an adapter, or, when it is allowed already,
	// replaces its token hash: the old token stops working when this
	// returns.
	PutMemoryAdapter(ctx context.Context, a MemoryAdapter) error

	// MemoryAdapter returns the adapter id, or store.ErrNotFound.
	MemoryAdapter(ctx context.Context, id string) (MemoryAdapter, error)

	// PutMemoryProfile keeps a profile revision. The same revision again
	// with the same document returns store.ErrDuplicate; with another document,
	// store.ErrConflict: a revision, once pinned, never changes.
	PutMemoryProfile(ctx context.Context, p MemoryProfile) error

	// MemoryProfile returns the profile id at revision, or, with revision
	// "", the revision of id stored last; store.ErrNotFound if there is none.
	MemoryProfile(ctx context.Context, id, revision string) (MemoryProfile, error)

	// ApplyMemoryEvent records c.Event and applies the rest of c in one
	// atomic, durable write, so that an event's effects and the answer
	// given for it are kept together or not at all.
	//
	// An event already recorded under (AdapterID, EventID) is returned as
	// stored, with store.ErrDuplicate, and nothing of c is written, whatever its
	// body digest: comparing digests is the caller's. A session or record
	// whose Version is not one more than the stored one (or is 1 when one
	// is stored, or more than 1 when none is), a new record whose
	// topic key another record of the same Adapter holds in its scope (the
	// same project for project records, all of them for global ones), and
	// a change of a record's Adapter, scope or topic, return
	// store.ErrConflict with nothing written. A receipt's Seq is ignored
	// and given anew.
	ApplyMemoryEvent(ctx context.Context, c MemoryChange) (MemoryEvent, error)

	// ReplaceMemoryRecord replaces a stored record outside any event (the
	// admin sharing or unsharing it), in one atomic, durable write. r's
	// Version must be one more than the stored one, and its Adapter, scope
	// and topic the stored ones, else store.ErrConflict with nothing
	// written; store.ErrNotFound when there is no such record.
	ReplaceMemoryRecord(ctx context.Context, r MemoryRecord) error

	// MemoryEvent returns the event recorded under (adapterID, eventID), or
	// store.ErrNotFound.
	MemoryEvent(ctx context.Context, adapterID, eventID string) (MemoryEvent, error)

	// MemorySession returns the session handle, or store.ErrNotFound.
	MemorySession(ctx context.Context, handle string) (MemorySession, error)

	// MemoryRecord returns the record ref, or store.ErrNotFound.
	MemoryRecord(ctx context.Context, ref string) (MemoryRecord, error)

	// MemoryRecords returns every record, by ref. (An engine starts from
	// MemoryRecordChanges from 0, which gives the cursor with them.)
	MemoryRecords(ctx context.Context) ([]MemoryRecord, error)

	// MemoryRecordChanges returns what changed among the records after
	// cursor since (0 for everything kept), read in one snapshot: what
	// an engine sharing the store with other processes reads to follow
	// their writes. Every write that makes, replaces or deletes records
	// (ApplyMemoryEvent with records, ReplaceMemoryRecord,
	// DeleteMemoryRecord) advances the store's cursor by one, and the
	// cursors MUST be given in the order those writes commit, across
	// every process sharing the store: asking again from the Cursor
	// returned gets exactly the changes committed after the snapshot,
	// none missed and none of before. A record deleted after since is in
	// Deleted, never in Records. When the store is still at since, the
	// answer is empty with Cursor since, and costs one indexed read: an
	// engine asks before every event.
	MemoryRecordChanges(ctx context.Context, since int64) (MemoryRecordChanges, error)

	// MemoryReceipts returns the receipts of a session, in the order they
	// were stored; none is an empty list, not an error.
	MemoryReceipts(ctx context.Context, session string) ([]MemoryReceipt, error)

	// MemoryRecordReceipts returns the receipts naming record ref, in the
	// order they were stored; none, or no such record, is an empty list,
	// not an error.
	MemoryRecordReceipts(ctx context.Context, ref string) ([]MemoryReceipt, error)

	// DeleteMemoryRecord removes record ref and every receipt naming it in
	// one atomic, durable write, and returns how many receipts went with
	// it; store.ErrNotFound when there is no such record, with nothing written.
	//
	// What is removed stays removed: the record's topic key is free for a
	// new record (Version 1) once this returns, and a change computed from
	// the record as it was read before (Version more than 1) returns
	// store.ErrConflict rather than bring it back. Events already applied keep
	// the answers stored with them, which may quote the record: an answer
	// sent is not unsent, and the same event sent again must get it back.
	DeleteMemoryRecord(ctx context.Context, ref string) (receipts int, err error)
}
