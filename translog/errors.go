package translog

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/agora-node/agora/tlog"
)

var (
	// ErrNotFound is wrapped by every error for something beyond the
	// published tree: a leaf index, a tree size, a tree head or checkpoint
	// at a size never published, a tile past the published size. It wraps
	// fs.ErrNotExist, so errors.Is(err, fs.ErrNotExist) holds too.
	ErrNotFound = fmt.Errorf("translog: not in the published log: %w", fs.ErrNotExist)

	// ErrInvalidRange is wrapped by errors for a request that can never
	// be answered: an index not below the tree size it names, a first
	// size above the second, a start above the end.
	ErrInvalidRange = errors.New("translog: invalid range")

	// ErrInvalidLeaf is wrapped by Append's error for a leaf the log
	// refuses: not the canonical JSON of an object, or longer than the
	// 65,535 bytes a tlog-tiles entry bundle holds.
	ErrInvalidLeaf = errors.New("translog: invalid leaf")

	// ErrPushback is wrapped by Append's error when Config.MaxPending
	// appends are already in flight. Nothing was added; try again later
	// (an HTTP front end answers 503 with Retry-After).
	ErrPushback = errors.New("translog: too many appends in flight")

	// ErrUnpublished is wrapped by Append's error when the entry was
	// durably sequenced, so Append returns its index, but its publication
	// was not confirmed: the wait for a checkpoint covering it was cut
	// short (ctx ended, or the log was closed mid-way), or its proof could
	// not be read or did not verify (ErrCorrupt too). The entry stays in
	// the log and will be published.
	ErrUnpublished = errors.New("translog: entry sequenced but not confirmed published")

	// ErrClosed is wrapped by errors from a log that is closing or closed.
	ErrClosed = errors.New("translog: log is closed")

	// ErrLocked is wrapped by Open's error when another Log, in this
	// process or another, has the directory or database open.
	ErrLocked = errors.New("translog: the log is open in another process (one process at a time keeps a log)")

	// ErrCorrupt is wrapped by errors for stored state that contradicts
	// itself: a tree head the tiles do not reproduce, a tree-head record
	// that does not parse, a leaf that does not hash to its tile's hash.
	// It needs an operator; the log never repairs it silently.
	ErrCorrupt = errors.New("translog: stored log is inconsistent")
)

// notFound returns an error wrapping ErrNotFound, and tlog.ErrNotFound so
// that it also honours the tlog.SubtreeReader contract.
func notFound(format string, args ...any) error {
	return &kindError{[]error{ErrNotFound, tlog.ErrNotFound}, fmt.Errorf(format, args...)}
}

func invalidRange(format string, args ...any) error {
	return &kindError{[]error{ErrInvalidRange}, fmt.Errorf(format, args...)}
}

func corrupt(format string, args ...any) error {
	return &kindError{[]error{ErrCorrupt}, fmt.Errorf(format, args...)}
}

// kindError is an error with a message for a person that also matches its
// sentinels with errors.Is, and whatever its message wraps.
type kindError struct {
	kinds []error
	err   error
}

func (e *kindError) Error() string { return "translog: " + e.err.Error() }
func (e *kindError) Unwrap() []error {
	return append(append([]error(nil), e.kinds...), e.err)
}
