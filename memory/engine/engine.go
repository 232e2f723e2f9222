// Package engine is a node's memory: it answers the events of
// memory-agent-ingress/v1 (package memory is the contract,
// memory/memory-agent-ingress-v1.schema.json) over a Store (store.go),
// ranking records with package recall.
//
// One event is handled in this order: the adapter's bearer token, then
// memory.ParseEvent, then the event's history (the same event_id with the
// same body gets the first answer back byte for byte, with another body
// idempotency_conflict), then the session it names, then the kind. What an
// event does (a session made or changed, a record written or marked,
// receipts) is computed in memory and written by one
// Store.ApplyMemoryEvent together with the answer, so an event is applied
// once and its answer survives with its effects, also across a restart.
// The engine's own state (the recall index, the sessions it has read)
// changes only after that write succeeded.
//
// Several processes: node processes sharing one store (PostgreSQL) each
// run an engine, and any of them may take any event. Before an event of
// a session, and before the admin's reads and changes, an engine installs
// what the others changed among the records since it last asked
// (Store.MemoryRecordChanges: one read of one row when nothing changed),
// so a note recorded through one process is pushed by the next failing
// tool result through another, and a record shared, corrected or
// forgotten through one is so in all. An event computed from a session
// or record another process changed meanwhile fails its write with
// store.ErrConflict, writing nothing; the engine reads them again and
// computes the event anew, a few times at most (then unavailable,
// retryable), so a session whose events alternate between processes gets
// the answers one process would give. An event_id is answered once,
// wherever it is sent (follow.go).
//
// Concurrency: events of one session run one at a time in a process (a
// session is a conversation; its events come in order). Events that change records (a
// note, a tool result that earns a record a mark, a session end that
// confirms its notes) also run one at a time across sessions, since a
// record's revision and marks are read and replaced whole. Everything else
// runs side by side; the index takes its own locks.
//
// Visibility: a record is ranked for sessions that started after it was
// first written, never for the session writing it (the note result's
// visible_from "next_session"). Ranking is pure recall: every signal weight
// is the pinned profile's, and push floors are its push policies'. A
// session pinned to a profile keeps it to its end.
//
// Ownership: a record belongs to the adapter whose session wrote it. A
// topic key names one record of an adapter in its scope, so another
// adapter's note on the same topic makes a record of its own; a note may
// supersede or conflict with only its own adapter's records and those the
// admin shared (Share); and a session reads (is pushed, finds, reads,
// relates to) its own adapter's records, the shared ones, and those of the
// adapters its profile's reads names (memory.ReadScope). A new revision of
// a shared record is not shared until the admin shares it again. The
// provenance label, and a pushed fix's own line, name the writing adapter
// and the revision.
//
// Notes on notes: a note supersedes the record most like it on the same
// failure when it says so in relates_to or in words (the old fix no
// longer gets through, is not an option any more, the 2022 note:
// supersede.go), and the successor is pushed above the record it
// replaces. A project note that replaces a global one replaces it in its
// project only: the global note is not pushed there, and still is
// everywhere else. A note that says it met an earlier note's failure again
// ("Same ... failure on my Mac") is matched on that note's quoted
// failure too, so the environment decides between the two (twins.go).
//
// Refused events are not recorded: sent again, they are judged again.
//
// Beside the events, the node's admin reads the records as a person would
// and may forget one for good (people.go): Search, Records, Inspect and
// Forget, none of which belongs to a session.
//
// The contract: memory/memory-agent-ingress-v1.schema.json.
package engine

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/recall"
	"github.com/agora-node/agora/store"
)

// Config configures an Engine.
type Config struct {
	// Now is the engine's clock; nil means time.Now.
	Now func() time.Time
}

// Engine is a node's memory. It is safe for concurrent use.
type Engine struct {
	st    Store
	index *recall.Index

	clockMu sync.Mutex
	last    time.Time // the last stamp given; guarded by clockMu
	now     func() time.Time

	sessMu   sync.Mutex
	sessions map[string]*slot // sessions read so far, by handle; guarded by sessMu

	// recWrite is held while an event that changes records is computed,
	// stored and indexed, so records change one event at a time.
	recWrite sync.Mutex
	recMu    sync.RWMutex
	records  map[string]*record // by ref; guarded by recMu, values never changed in place
	topics   map[topicID]string // ref by scope and topic key; guarded by recMu
	// forgotten are the refs of records deleted, here or by another
	// process, which follow must never install again from a snapshot
	// read before the deletion; guarded by recWrite.
	forgotten map[string]bool

	// followMu is held while the engine reads what other processes
	// changed among the records (follow.go); taken before recWrite,
	// never while holding it.
	followMu sync.Mutex
	cursor   int64     // the store's change the records are read up to; guarded by followMu
	followed time.Time // when the last read of the changes that succeeded began; guarded by followMu
}

// slot is one session as the engine last stored it. mu is held while an
// event of the session is handled; the fields are guarded by it.
type slot struct {
	mu      sync.Mutex
	version int64
	state   []byte          // the stored state
	profile *memory.Profile // the pinned profile, parsed once
	gone    bool            // no such session, or it ended
}

// New returns an engine over st, with every record of st indexed, and
// the store's change cursor read with them (follow.go).
func New(ctx context.Context, st Store, cfg Config) (*Engine, error) {
	e := &Engine{st: st, index: recall.NewIndex(), now: cfg.Now, sessions: map[string]*slot{},
		records: map[string]*record{}, topics: map[topicID]string{}, forgotten: map[string]bool{}}
	if e.now == nil {
		e.now = time.Now
	}
	all, err := st.MemoryRecordChanges(ctx, 0)
	if err != nil {
		return nil, fmt.Errorf("engine: reading the records: %w", err)
	}
	e.cursor = all.Cursor
	for _, ref := range all.Deleted {
		e.forgotten[ref] = true
	}
	rows := all.Records
	all.Records = nil
	records, docs, err := decodeAll(rows)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	for i, r := range records {
		e.installDoc(r, docs[i])
	}
	if len(rows) >= bigStore {
		// Building the index of a large store leaves as much garbage
		// as the store's bodies: collected now, before the node serves,
		// its collection does not fall on the first requests' time.
		rows = nil
		runtime.GC()
	}
	return e, nil
}

// decodeAll decodes the stored rows and works out each record's recall
// document, prepared for the index (recall.Prepare), on every core: most
// of a large store's start is the documents' text work (the failure each
// note quotes, its normalized output, its prose), which is each record's
// alone. The index then takes them in the order they were stored.
func decodeAll(rows []MemoryRecord) ([]*record, []recall.Doc, error) {
	records, docs := make([]*record, len(rows)), make([]recall.Doc, len(rows))
	errs := make([]error, len(rows))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(rows)/decodeBatch)) {
		wg.Go(func() {
			for {
				from := int(next.Add(decodeBatch)) - decodeBatch
				if from >= len(rows) {
					return
				}
				for i := from; i < min(from+decodeBatch, len(rows)); i++ {
					if records[i], errs[i] = decodeRecord(rows[i]); errs[i] == nil {
						docs[i] = recall.Prepare(records[i].doc())
					}
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return records, docs, nil
}

// decodeBatch is how many rows a decoding worker takes at a time.
const decodeBatch = 64

// bigStore is how many records make the garbage of building the index
// worth a collection before serving (see New).
const bigStore = 10_000

// stamp returns the time now, later than every stamp before it, so that a
// record written and a session started right after it are never at the
// same instant.
func (e *Engine) stamp() time.Time {
	e.clockMu.Lock()
	defer e.clockMu.Unlock()
	t := e.now().UTC().Round(0)
	if !t.After(e.last) {
		t = e.last.Add(time.Nanosecond)
	}
	e.last = t
	return t
}

// adapterIDPattern is the contract's adapter_id.
var adapterIDPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)

// ErrAdapterID is returned by IssueToken for an id the contract does not
// allow.
var ErrAdapterID = errors.New("engine: not an adapter id: expected a lowercase letter, then up to 63 of a-z, 0-9, _ and -")

// IssueToken makes a new bearer token for the adapter and returns it; the
// store keeps only its SHA-256. An adapter issued a token before gets a new
// one, and the old one stops working.
func (e *Engine) IssueToken(ctx context.Context, adapterID string) (string, error) {
	if !adapterIDPattern.MatchString(adapterID) {
		return "", ErrAdapterID
	}
	var b [32]byte
	rand.Read(b[:])
	token := "agm_" + base64.RawURLEncoding.EncodeToString(b[:])
	err := e.st.PutMemoryAdapter(ctx, MemoryAdapter{ID: adapterID, TokenHash: sha256.Sum256([]byte(token)), Issued: e.now()})
	if err != nil {
		return "", fmt.Errorf("engine: issuing a token for %s: %w", adapterID, err)
	}
	return token, nil
}

// PutProfile keeps a memory-profile/v1 document for sessions to pin by
// profile_ref. It returns the profile's pin and whether it was new; the
// same revision with another document is an error wrapping
// store.ErrConflict, and a document that is not a profile a *memory.Error.
func (e *Engine) PutProfile(ctx context.Context, doc []byte) (memory.PinnedProfile, bool, error) {
	p, err := memory.ParseProfile(doc)
	if err != nil {
		return memory.PinnedProfile{}, false, err
	}
	err = e.st.PutMemoryProfile(ctx, MemoryProfile{ID: p.ID, Revision: p.Revision, Document: bytes.Clone(doc), Stored: e.now()})
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return p.Pin(), false, nil
	case err != nil:
		return memory.PinnedProfile{}, false, fmt.Errorf("engine: keeping profile %s@%s: %w", p.ID, p.Revision, err)
	}
	return p.Pin(), true, nil
}

// Handle answers one event: adapterID and kind are the route's segments,
// token the bearer token sent with it and body the request body. It
// returns the response body ({"ok":true,"result"} or {"ok":false,"error"})
// with its HTTP status, and for a refusal the cause, for the node's log
// (never for the adapter).
func (e *Engine) Handle(ctx context.Context, adapterID, kind, token string, body []byte) ([]byte, int, error) {
	out, status, err := e.handle(ctx, adapterID, kind, token, body)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			err = &memory.Error{Code: memory.CodeUnavailable, Message: "the event was not applied; send it again", Retryable: true, Err: err}
		}
		b, s := memory.MarshalError(err)
		return b, s, err
	}
	return out, status, nil
}

func (e *Engine) handle(ctx context.Context, adapterID, kind, token string, body []byte) ([]byte, int, error) {
	if err := e.authenticate(ctx, adapterID, token); err != nil {
		return nil, 0, err
	}
	ev, err := memory.ParseEvent(adapterID, kind, body)
	if err != nil {
		return nil, 0, err
	}
	if kind == "session.start" {
		switch prior, err := e.st.MemoryEvent(ctx, adapterID, ev.EventID); {
		case err == nil:
			return replay(prior, ev)
		case !errors.Is(err, store.ErrNotFound):
			return nil, 0, fmt.Errorf("engine: the history of event %s: %w", ev.EventID, err)
		}
		return e.startSession(ctx, ev)
	}
	handle, _ := memory.SessionHandle(ev.Payload)
	return e.sessionEvent(ctx, ev, handle)
}

// authenticate checks the bearer token against the adapter's, in constant
// time.
func (e *Engine) authenticate(ctx context.Context, adapterID, token string) error {
	refuse := memory.NewError(memory.CodeUnauthorized, "this needs the adapter's bearer token (agora memory adapter add %s)", adapterID)
	if token == "" || !adapterIDPattern.MatchString(adapterID) {
		return refuse
	}
	a, err := e.st.MemoryAdapter(ctx, adapterID)
	if errors.Is(err, store.ErrNotFound) {
		return refuse
	}
	if err != nil {
		return fmt.Errorf("engine: adapter %s: %w", adapterID, err)
	}
	sum := sha256.Sum256([]byte(token))
	if subtle.ConstantTimeCompare(sum[:], a.TokenHash[:]) != 1 {
		return refuse
	}
	return nil
}

// replay answers an event seen before: the first answer when the body is
// the same, idempotency_conflict when it is not.
func replay(prior MemoryEvent, ev *memory.Event) ([]byte, int, error) {
	if prior.BodyDigest != ev.BodyDigest {
		return nil, 0, memory.NewError(memory.CodeIdempotencyConflict,
			"event %s was applied with another body; a changed event needs a new event_id", ev.EventID)
	}
	return bytes.Clone(prior.Result), prior.Status, nil
}

// answer encodes a result and checks it against the contract: a result
// that breaks it is the engine's defect, and is never sent.
func answer(kind string, result any) ([]byte, error) {
	body, err := memory.MarshalResult(result)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	if err := memory.ValidateResponse(kind, body); err != nil {
		return nil, fmt.Errorf("engine: the %s answer breaks the contract: %w", kind, err)
	}
	return body, nil
}

// commit stores what an event did with its answer. It returns the answer
// to send, which is the first one's if the event was applied meanwhile;
// applied says whether this call applied it.
func (e *Engine) commit(ctx context.Context, ev *memory.Event, handle string, body []byte, c MemoryChange) (out []byte, status int, applied bool, err error) {
	c.Event = MemoryEvent{AdapterID: ev.AdapterID, EventID: ev.EventID, BodyDigest: ev.BodyDigest, Kind: ev.Kind,
		Session: handle, Result: body, Status: http.StatusOK, At: e.now()}
	// Once the write is on its way, a client hanging up must not leave the
	// caller unsure whether it happened.
	prior, err := e.st.ApplyMemoryEvent(context.WithoutCancel(ctx), c)
	switch {
	case errors.Is(err, store.ErrDuplicate):
		out, status, err = replay(prior, ev)
		return out, status, false, err
	case err != nil:
		return nil, 0, false, fmt.Errorf("engine: storing event %s: %w", ev.EventID, err)
	}
	return body, http.StatusOK, true, nil
}
