package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/runes"
)

// MaxEventBytes bounds an event body. The largest event the contract allows
// is a note whose fix carries 65,536 characters of diff or config; written
// with every character as a six-byte \u escape that is under 400 KiB, and
// the rest of a note adds under 100 KiB more, so 1 MiB refuses nothing
// legitimate and bounds what a hostile adapter can make the node parse.
const MaxEventBytes = 1 << 20

// maxSafeInteger is the largest integer every I-JSON reader holds exactly
// (RFC 7493 §2.2). No integer of the contract needs more.
const maxSafeInteger = 1<<53 - 1

// Event is one parsed, validated event: the envelope and its typed payload.
type Event struct {
	AdapterID  string
	EventID    string    // sha256:<hex>, chosen by the adapter; the idempotency key
	SessionRef string    // the runtime's own reference to its session
	ParentRef  string    // the parent session's ref; empty when absent or null
	OccurredAt time.Time // as the adapter stamped it, with its offset
	Kind       string
	// Payload is a pointer to the payload type of Kind: *SessionStartPayload
	// for session.start, *NotePayload for note, and so on.
	Payload any
	// BodyDigest is "sha256:" and the hex SHA-256 of the body's canonical
	// JSON (RFC 8785). The contract answers a repeated event_id with the
	// original result when the body is identical and idempotency_conflict
	// otherwise; comparing digests of canonical bodies makes "identical" not
	// depend on whitespace or member order.
	BodyDigest string
}

// MarshalJSON writes the event as the contract's envelope.
func (e *Event) MarshalJSON() ([]byte, error) {
	env := struct {
		AdapterID  string  `json:"adapter_id"`
		EventID    string  `json:"event_id"`
		SessionRef string  `json:"session_ref"`
		ParentRef  *string `json:"parent_ref,omitempty"`
		OccurredAt string  `json:"occurred_at"`
		Kind       string  `json:"kind"`
		Payload    any     `json:"payload"`
	}{
		AdapterID: e.AdapterID, EventID: e.EventID, SessionRef: e.SessionRef,
		OccurredAt: e.OccurredAt.Format(time.RFC3339Nano), Kind: e.Kind, Payload: e.Payload,
	}
	if e.ParentRef != "" {
		env.ParentRef = &e.ParentRef
	}
	return json.Marshal(env)
}

// adapterIDPattern is $defs/adapter_id.
var adapterIDPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)

// ParseEvent reads the body of POST /v1/agent-ingress/{adapter_id}/events/
// {kind}. adapterID and kind are the route's segments. The checks run from
// cheapest to dearest, and the first that fails decides the error:
//
//  1. the body is at most MaxEventBytes (bad_request);
//  2. kind is a kind of the contract (unknown_kind), and adapterID is a
//     well-formed adapter id (bad_request), before any JSON is read;
//  3. the body is strict I-JSON: one value, no repeated member names, valid
//     UTF-8, no lone surrogates or noncharacters, no number beyond binary64
//     and no integer beyond ±(2^53−1) (bad_request);
//  4. the body matches the contract's schema, unknown members included
//     (schema_invalid, naming the JSON Pointer of what failed);
//  5. the body's adapter_id and kind are the route's (bad_request);
//  6. the rules the schema states only in words (schema_invalid; see
//     checkWordRules).
//
// Between 4 and 5 every string of the body is masked (MaskJSON): a secret
// in a note, a tool result's command or error tail, a project name or a
// query is replaced by [redacted:<kind>] before anything else reads it, so
// the payload returned holds no secret and no later error quotes one; a
// schema error, which may quote a value, is masked itself. The schema
// bounds every string first, and so the work masking does. BodyDigest is
// of the body as sent.
//
// Capability-disabled kinds are read like any other; whether the session may
// send them is the caller's question (IsCapabilityDisabled,
// Profile.KindEnabled). So are the session handle, the event_id's history
// and dimension names, which need the node's state (Profile.CheckDimensions).
//
// Every error is an *Error.
func ParseEvent(adapterID, kind string, body []byte) (*Event, error) {
	if len(body) > MaxEventBytes {
		return nil, newError(CodeBadRequest, "the body is %d bytes; at most %d are allowed", len(body), MaxEventBytes)
	}
	if !IsKind(kind) {
		return nil, newError(CodeUnknownKind, "%q is not a kind of %s; the kinds are %s",
			clip(kind, 64), ContractID, strings.Join(Kinds(), ", "))
	}
	if !adapterIDPattern.MatchString(adapterID) {
		return nil, newError(CodeBadRequest, "%q is not an adapter id: expected a lowercase letter, then up to 63 of a-z, 0-9, _ and -", clip(adapterID, 64))
	}
	value, err := canonical.Parse(body)
	if err != nil {
		e := newError(CodeBadRequest, "the body is not I-JSON: %s", strings.TrimPrefix(err.Error(), "not I-JSON: "))
		e.Err = err
		return nil, e
	}
	if at, ok := unsafeInteger(value, ""); !ok {
		return nil, newError(CodeBadRequest, "the body is not I-JSON: the number at %s is an integer beyond ±(2^53−1)", at)
	}
	if err := loadContract().envelope.Validate(value); err != nil {
		// A schema message may quote a value, and its cause goes to the
		// node's log: both are masked.
		return nil, maskError(schemaError(err, ""))
	}
	// The digest is of the body as sent, so the same event sent again is
	// the same event; everything after it sees the body masked, so no
	// secret reaches a message, a record, a session or the store. Masking
	// comes after the schema, which bounds what there is to scan.
	canon, err := canonical.Marshal(value)
	if err != nil {
		return nil, &Error{Code: CodeInternal, Message: "the event could not be re-encoded", Err: fmt.Errorf("memory: canonical form of an event: %w", err)}
	}
	if _, masked := MaskJSON(value); masked > 0 {
		// A mask can be longer than the secret it replaced; what the node
		// keeps and answers must still fit the contract.
		if err := loadContract().envelope.Validate(value); err != nil {
			e := maskError(schemaError(err, ""))
			e.Message = "with its secrets masked, the event no longer fits the contract (shorten the text around them): " + e.Message
			return nil, e
		}
	}
	obj := value.(map[string]any) // the schema requires an object
	if got := obj["adapter_id"].(string); got != adapterID {
		return nil, newError(CodeBadRequest, "the body's adapter_id %q is not the route's %q", got, adapterID)
	}
	if got := obj["kind"].(string); got != kind {
		return nil, newError(CodeBadRequest, "the body's kind %q is not the route's %q", got, kind)
	}
	ev := &Event{
		AdapterID:  adapterID,
		EventID:    obj["event_id"].(string),
		SessionRef: obj["session_ref"].(string),
		Kind:       kind,
		BodyDigest: canonical.Digest(canon),
	}
	if p, ok := obj["parent_ref"].(string); ok {
		ev.ParentRef = p
	}
	occurred := obj["occurred_at"].(string)
	ev.OccurredAt, err = time.Parse(time.RFC3339Nano, occurred)
	if err != nil {
		e := newError(CodeSchemaInvalid, "at /occurred_at: %q is not a date and time that exists", occurred)
		e.Err = err
		return nil, e
	}
	if ev.Payload, err = decodePayload(kind, obj["payload"]); err != nil {
		return nil, err
	}
	if err := checkWordRules(ev.Payload); err != nil {
		return nil, err
	}
	return ev, nil
}

// decodePayload fills kind's payload type from its validated generic form.
func decodePayload(kind string, generic any) (any, error) {
	payload, err := newPayload(kind)
	if err != nil {
		return nil, &Error{Code: CodeInternal, Message: "the node has no type for this kind", Err: err}
	}
	text, err := canonical.Marshal(generic)
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		err = dec.Decode(payload)
	}
	if err != nil {
		// The schema admitted what the types refuse: a defect here, not the
		// adapter's.
		return nil, &Error{Code: CodeInternal, Message: "the payload could not be read", Err: fmt.Errorf("memory: decoding a validated %s payload: %w", kind, err)}
	}
	return payload, nil
}

// unsafeInteger finds an integral number beyond I-JSON's exact range, and
// returns its JSON Pointer.
func unsafeInteger(v any, at string) (string, bool) {
	switch v := v.(type) {
	case float64:
		if math.Abs(v) > maxSafeInteger && v == math.Trunc(v) {
			return at, false
		}
	case map[string]any:
		for k, item := range v {
			if p, ok := unsafeInteger(item, at+pointer([]string{k})); !ok {
				return p, false
			}
		}
	case []any:
		for i, item := range v {
			if p, ok := unsafeInteger(item, fmt.Sprintf("%s/%d", at, i)); !ok {
				return p, false
			}
		}
	}
	return "", true
}

// maskError masks what a refusal's message and cause say, since both may
// quote what the adapter sent.
func maskError(e *Error) *Error {
	e.Message, _ = MaskSecrets(e.Message)
	if e.Err != nil {
		cause, _ := MaskSecrets(e.Err.Error())
		e.Err = errors.New(cause)
	}
	return e
}

// clip shortens an untrusted value before a message quotes it.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return runes.Prefix(s, n) + "…"
}
