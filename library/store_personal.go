package library

import (
	"context"
	"time"

	"github.com/agora-node/agora/store"
)

// PersonalState is one personal-state an author wrote: the record setting
// the author's following and saved lists, as signed.
type PersonalState struct {
	ID       string    // the record's revision ID
	Record   *Record   // the record as signed; Record.Previous is the state it replaced
	Envelope []byte    // {record, signature} as the node keeps it (canonical JSON)
	Stored   time.Time // when the node stored it
}

// PersonalRead is a personal-read as the store records it: the read's
// nonce, kept until the request could no longer be fresh, with the
// request it came in and the state it was answered with.
type PersonalRead struct {
	Author  string    // 64 lowercase hex digits, as Record.Author
	Nonce   string    // the read's nonce
	Request string    // the read's revision ID
	Expires time.Time // the nonce may be forgotten after this
	Now     time.Time // nonces that expired before Now may be forgotten now
}

// ErrNonceUsed: a personal read's nonce came before in another request.
// It wraps store.ErrConflict.
var ErrNonceUsed error = &storeError{"store: the nonce was used by another request", store.ErrConflict}

// storeError is an error of a Store that wraps one of store.Store's
// sentinels.
type storeError struct {
	text   string
	parent error
}

func (e *storeError) Error() string { return e.text }
func (e *storeError) Unwrap() error { return e.parent }

// PersonalStore is the part of a Store that keeps each author's personal
// lists (following, saved), which are never part of the library's
// catalogue, revisions, graph or log. Its methods keep store.Store's
// contract on concurrency, durability and errors.
//
// An author's states make a chain: the first has previous "", and each
// later one names the state it replaced, which was the author's current
// state when it was stored. So SetPersonalState is a compare-and-set, and
// of writers racing from one state exactly one wins.
type PersonalStore interface {
	// SetPersonalState makes s the author's current state if s's
	// previous (s.Record.Previous) is the ID of the author's current
	// state, or "" and the author has none. It returns the state stored.
	//
	// A state with s's ID stored before (a retry) returns the author's
	// current state, which may be a later one, with store.ErrDuplicate. A
	// previous that is not the current state's ID returns
	// store.ErrConflict with nothing written. The lists are not checked: that is the
	// caller's, before.
	SetPersonalState(ctx context.Context, s PersonalState) (PersonalState, error)

	// CurrentPersonalState returns the author's current state, or
	// store.ErrNotFound if the author never stored one.
	CurrentPersonalState(ctx context.Context, author string) (PersonalState, error)

	// ReadPersonal answers a personal read: in one write, it records the
	// read's nonce with its request and returns the author's current
	// state, nil if none, which it records as the answer. The same
	// request again (r.Request, the nonce recorded with it) returns the
	// state recorded as its answer then, nil if none, with
	// store.ErrDuplicate, though a later state is current. The nonce
	// recorded with another request is ErrNonceUsed (a
	// store.ErrConflict). Nonces whose Expires is before r.Now may be
	// forgotten, in the same write.
	ReadPersonal(ctx context.Context, r PersonalRead) (*PersonalState, error)
}
