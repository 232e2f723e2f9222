package memory

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
)

// FuzzParseEvent feeds ParseEvent any body under any kind and checks what
// every answer must satisfy:
//
//   - a refusal is an *Error with a code of the contract, whose response
//     body validates against the kind's response schema;
//   - an accepted body written back out (Event.MarshalJSON) parses to the
//     same event, and its canonical form does too, with the same digest.
func FuzzParseEvent(f *testing.F) {
	for _, kind := range Kinds() {
		f.Add(kind, envelope(kind, validPayloads[kind]))
	}
	f.Add("note", []byte(`{"adapter_id":"codex","adapter_id":"codex"}`))
	f.Add("query", envelope("query", `{"session_handle":"a","op":"read","ref":"lr_x"}`))
	f.Add("tool.result", envelope("tool.result", `{"session_handle":"a","tool_name":"t","ok":true,"exit_code":1e2}`))
	f.Add("bogus", []byte(`{}`))
	codes := ErrorCodes()
	f.Fuzz(func(t *testing.T, kind string, body []byte) {
		ev, err := ParseEvent("codex", kind, body)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !slices.Contains(codes, e.Code) {
				t.Fatalf("refusal %v is not an *Error of the contract", err)
			}
			if e.Code == CodeInternal {
				t.Fatalf("a validated body could not be read: %v", err)
			}
			if IsKind(kind) {
				resp, _ := MarshalError(err)
				if verr := ValidateResponse(kind, resp); verr != nil {
					t.Fatalf("the error response breaks the contract: %v\n%s", verr, resp)
				}
			}
			return
		}
		out, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("accepted event does not encode: %v", err)
		}
		again, err := ParseEvent("codex", kind, out)
		if err != nil {
			t.Fatalf("accepted event written back out is refused: %v\n%s\n%s", err, body, out)
		}
		if !sameEvent(ev, again, false) {
			t.Fatalf("round trip changed the event:\n%s\n%s", body, out)
		}
		canon, err := canonical.Canonicalize(body)
		if err != nil {
			t.Fatalf("accepted body has no canonical form: %v", err)
		}
		fromCanon, err := ParseEvent("codex", kind, canon)
		if err != nil || !sameEvent(ev, fromCanon, true) {
			t.Fatalf("the canonical form of an accepted body reads differently: %v", err)
		}
	})
}

func sameEvent(a, b *Event, sameDigest bool) bool {
	if !a.OccurredAt.Equal(b.OccurredAt) || sameDigest && a.BodyDigest != b.BodyDigest {
		return false
	}
	x, y := *a, *b
	x.OccurredAt, y.OccurredAt = time.Time{}, time.Time{}
	x.BodyDigest, y.BodyDigest = "", ""
	return reflect.DeepEqual(x, y)
}
