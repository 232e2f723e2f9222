package tlog

import (
	"errors"
	"fmt"
)

// ErrMalformed is wrapped by every error for input that does not have the
// protocol's form: a hash that is not 32 bytes of lowercase hex, a position
// that is not a safe integer, a receipt, tree head, note, checkpoint or key
// of the wrong shape.
var ErrMalformed = errors.New("tlog: malformed input")

// ErrVerification is wrapped by every error for well-formed input that does
// not verify: a proof that does not lead to its root, a signature that does
// not verify, a leaf that does not hash to the hash it is given.
var ErrVerification = errors.New("tlog: verification failed")

// ErrNotFound is wrapped by a SubtreeReader's error for a subtree it does
// not store.
var ErrNotFound = errors.New("tlog: subtree not stored")

// kindError is an error whose message is written for a person, and which
// also matches one of the sentinels above with errors.Is.
type kindError struct {
	kind error
	err  error
}

func (e *kindError) Error() string   { return e.err.Error() }
func (e *kindError) Unwrap() []error { return []error{e.kind, e.err} }

func malformed(format string, args ...any) error {
	return &kindError{ErrMalformed, fmt.Errorf(format, args...)}
}

func unverified(format string, args ...any) error {
	return &kindError{ErrVerification, fmt.Errorf(format, args...)}
}
