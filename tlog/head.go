package tlog

import (
	"regexp"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
)

// TimestampLayout is how the protocol writes times: ISO 8601 in UTC with
// milliseconds, as ECMAScript's Date.prototype.toISOString does.
const TimestampLayout = "2006-01-02T15:04:05.000Z"

// FormatTimestamp writes t as the protocol does, in UTC to the millisecond.
func FormatTimestamp(t time.Time) string { return t.UTC().Format(TimestampLayout) }

// isoDatetime is the timestamp form the reference library accepts: UTC,
// seconds and any fraction of them optional.
var isoDatetime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$`)

// ParseTimestamp reads a protocol timestamp: ISO 8601 in UTC ("Z"), such as
// 2026-10-02T12:00:00.000Z.
func ParseTimestamp(s string) (time.Time, error) {
	if !isoDatetime.MatchString(s) {
		return time.Time{}, malformed("%.80q is not an ISO 8601 UTC time such as 2026-10-02T12:00:00.000Z", s)
	}
	layout := "2006-01-02T15:04Z"
	if len(s) > len("2006-01-02T15:04Z") {
		layout = time.RFC3339Nano
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return time.Time{}, malformed("%q is not a real time: %w", s, err)
	}
	return t, nil
}

// A TreeHead is a log's signed commitment to its first Size entries:
// {"type": "tree_head", "log", "size", "root", "timestamp", "sig"}, the
// signature over the canonical JSON of the rest.
type TreeHead struct {
	Log       string // the log's ID, protocol.LogID of its key
	Size      uint64
	Root      Hash
	Timestamp string // as signed: ISO 8601 UTC, normally to the millisecond
	Sig       string // the log key's hybrid signature
}

// SignTreeHead signs the head of the tree of size leaves with root root, at
// time t, with the log's key. The head names the log by
// its ID, protocol.LogID of the key.
func SignTreeHead(key *hybrid.PrivateKey, size uint64, root Hash, t time.Time) (TreeHead, error) {
	if size > MaxPosition {
		return TreeHead{}, malformed("tree size %d is larger than 2^53-1", size)
	}
	h := TreeHead{
		Log:       protocol.LogID(key.Public().String()),
		Size:      size,
		Root:      root,
		Timestamp: FormatTimestamp(t),
	}
	obj := h.Object()
	if err := protocol.Sign(obj, key); err != nil {
		return TreeHead{}, err
	}
	h.Sig = obj["sig"].(string)
	return h, nil
}

// VerifyTreeHead checks that logPublicKey signed h.
func VerifyTreeHead(h TreeHead, logPublicKey string) error {
	if !protocol.Verify(h.Object(), logPublicKey) {
		return unverified("the tree head of %d entries is not signed by the log's key", h.Size)
	}
	return nil
}

// Object returns h as the JSON object the protocol writes, for canonical
// JSON. A signature covers it without its "sig".
func (h TreeHead) Object() map[string]any {
	return map[string]any{
		"type":      "tree_head",
		"log":       h.Log,
		"size":      h.Size,
		"root":      h.Root.String(),
		"timestamp": h.Timestamp,
		"sig":       h.Sig,
	}
}

// MarshalJSON writes h as canonical JSON.
func (h TreeHead) MarshalJSON() ([]byte, error) { return canonical.Marshal(h.Object()) }

// Time returns the time the head was signed.
func (h TreeHead) Time() (time.Time, error) { return ParseTimestamp(h.Timestamp) }

// ParseTreeHead reads a tree head from JSON text, strictly: exactly the
// members a tree head has, each of its type.
func ParseTreeHead(data []byte) (TreeHead, error) {
	v, err := canonical.Parse(data)
	if err != nil {
		return TreeHead{}, malformed("tree head: %w", err)
	}
	return treeHeadFrom(v, "tree head")
}

func treeHeadFrom(v any, what string) (TreeHead, error) {
	o, err := closedObject(v, what, []string{"type", "log", "size", "root", "timestamp", "sig"})
	if err != nil {
		return TreeHead{}, err
	}
	if err := o.literal("type", "tree_head"); err != nil {
		return TreeHead{}, err
	}
	var h TreeHead
	if h.Log, err = o.string("log"); err != nil {
		return TreeHead{}, err
	}
	if h.Size, err = o.position("size"); err != nil {
		return TreeHead{}, err
	}
	if h.Root, err = o.hash("root"); err != nil {
		return TreeHead{}, err
	}
	if h.Timestamp, err = o.string("timestamp"); err != nil {
		return TreeHead{}, err
	}
	if _, err := ParseTimestamp(h.Timestamp); err != nil {
		return TreeHead{}, malformed("%s: timestamp: %w", what, err)
	}
	if h.Sig, err = o.string("sig"); err != nil {
		return TreeHead{}, err
	}
	return h, nil
}

// VerifyTreeGrowth checks that second extends first without rewriting it,
// what a monitor verifies: both heads name the same log, the log's key
// signed both, and proof is a consistency proof from the first tree to the
// second.
func VerifyTreeGrowth(first, second TreeHead, proof []Hash, logPublicKey string) error {
	if first.Log != second.Log {
		return unverified("the tree heads name different logs, %s and %s", first.Log, second.Log)
	}
	if err := VerifyTreeHead(first, logPublicKey); err != nil {
		return err
	}
	if err := VerifyTreeHead(second, logPublicKey); err != nil {
		return err
	}
	return VerifyConsistency(first.Size, second.Size, first.Root, second.Root, proof)
}
