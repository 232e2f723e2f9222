package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"
)

const testEventID = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// validPayloads holds a realistic payload of every kind.
var validPayloads = map[string]string{
	"session.start": `{"project":"agora","profile_ref":"default@1","capabilities":["session_binding","step_injection","tool_capture","note_tool","query_tools"],
		"adapter_version":"0.1.1","environment":{"os":"linux","arch":"amd64","language":["go"]},
		"dimensions":{"stack":"go","areas":["ledger","memory"]},"workspace_root":"/home/dev/agora"}`,
	"step.before":        `{"session_handle":"sh_1","step":0,"phase":null,"query_text":"make the ledger tests pass"}`,
	"tool.result":        `{"session_handle":"sh_1","tool_name":"shell","ok":false,"call_ref":"call-7","exit_code":1,"error_tail":"FAIL ledger","error_signature":"` + testEventID + `","path":null,"symbols":["protocol.Append"],"command":"go test ./ledger/"}`,
	"context.compaction": `{"session_handle":"sh_1","summary_text":""}`,
	"subagent.end":       `{"session_handle":"sh_1","child_ref":"child-1","stop_reason":"done","agent_type":"reviewer","output_tail":null}`,
	"note": `{"session_handle":"sh_1","title":"Ledger tests need CGO off","type":"pitfall","scope":"project","phase":null,
		"content":{"what":"go test ./ledger fails with a cgo linker error","why":"the sqlite driver is pure Go; cgo pulls a stale toolchain","where":"ledger/store_test.go","learned":"run the ledger tests with CGO_ENABLED=0"},
		"evidence_refs":["call-7"],"relates_to":[{"record_ref":"lr_abc","relation":"related"}],"fix":{"kind":"command","command":"CGO_ENABLED=0 go test ./ledger/"}}`,
	"query":                `{"session_handle":"sh_1","op":"search","query":"cgo linker error","limit":3,"phase":null,"facts":{"tool_name":"shell","symbols":["protocol.Append"],"files":["ledger/store.go"]}}`,
	"workflow.start":       `{"session_handle":"sh_1","run_ref":"run-1","name":"release","description":null,"phases":["build","test"],"meta_digest":null,"dimensions":{"stack":"go"}}`,
	"workflow.phase":       `{"session_handle":"sh_1","run_ref":"run-1","title":"test"}`,
	"workflow.agent.start": `{"session_handle":"sh_1","run_ref":"run-1","seq":0,"label":"tester","phase":"test","child_ref":null}`,
	"workflow.agent.end":   `{"session_handle":"sh_1","run_ref":"run-1","seq":0,"outcome":"pass"}`,
	"workflow.end":         `{"session_handle":"sh_1","run_ref":"run-1","stop_reason":"completed","agents_started":0,"result_outcome":"pass"}`,
	"goal.changed":         `{"session_handle":"sh_1","operation":"create","objective_digest":"` + testEventID + `"}`,
	"session.end":          `{"session_handle":"sh_1","reason":"exit"}`,
}

func envelope(kind, payload string) []byte {
	return []byte(fmt.Sprintf(`{"adapter_id":"codex","event_id":%q,"session_ref":"rs-1","parent_ref":null,"occurred_at":"2026-03-01T10:00:00.5+08:00","kind":%q,"payload":%s}`,
		testEventID, kind, payload))
}

func TestParseEventEveryKind(t *testing.T) {
	if len(validPayloads) != len(Kinds()) {
		t.Fatalf("the test covers %d kinds; the contract has %d", len(validPayloads), len(Kinds()))
	}
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			ev, err := ParseEvent("codex", kind, envelope(kind, validPayloads[kind]))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind != kind || ev.AdapterID != "codex" || ev.EventID != testEventID || ev.SessionRef != "rs-1" || ev.ParentRef != "" {
				t.Errorf("envelope read as %+v", ev)
			}
			want := time.Date(2026, 3, 1, 2, 0, 0, 5e8, time.UTC)
			if !ev.OccurredAt.Equal(want) {
				t.Errorf("occurred_at = %v, want %v", ev.OccurredAt, want)
			}
			want2, _ := newPayload(kind)
			if reflect.TypeOf(ev.Payload) != reflect.TypeOf(want2) {
				t.Errorf("payload is %T, want %T", ev.Payload, want2)
			}
			if !strings.HasPrefix(ev.BodyDigest, "sha256:") || len(ev.BodyDigest) != 71 {
				t.Errorf("body digest %q", ev.BodyDigest)
			}
			if IsCapabilityDisabled(kind) == contains(L0Kinds(), kind) {
				t.Errorf("%s is both or neither L0 and capability-disabled", kind)
			}
			assertRoundTrip(t, ev)
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// assertRoundTrip checks that an event written back out parses to the
// same event.
func assertRoundTrip(t *testing.T, ev *Event) {
	t.Helper()
	out, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseEvent(ev.AdapterID, ev.Kind, out)
	if err != nil {
		t.Fatalf("the event written back out is refused: %v\n%s", err, out)
	}
	if !again.OccurredAt.Equal(ev.OccurredAt) {
		t.Errorf("occurred_at %v became %v", ev.OccurredAt, again.OccurredAt)
	}
	a, b := *ev, *again
	a.OccurredAt, b.OccurredAt = time.Time{}, time.Time{}
	a.BodyDigest, b.BodyDigest = "", ""
	if !reflect.DeepEqual(a, b) {
		t.Errorf("round trip changed the event:\n%#v\n%#v", a.Payload, b.Payload)
	}
}

func TestParseEventTypedFields(t *testing.T) {
	ev, err := ParseEvent("codex", "session.start", envelope("session.start", validPayloads["session.start"]))
	if err != nil {
		t.Fatal(err)
	}
	p := ev.Payload.(*SessionStartPayload)
	if *p.ProfileRef != "default@1" || p.WorkspaceRoot != "/home/dev/agora" || len(p.Capabilities) != 5 {
		t.Errorf("session.start read as %+v", p)
	}
	if d := p.Dimensions["stack"]; d.Set || !reflect.DeepEqual(d.Values, []string{"go"}) {
		t.Errorf("exact dimension read as %+v", d)
	}
	if d := p.Dimensions["areas"]; !d.Set || len(d.Values) != 2 {
		t.Errorf("set dimension read as %+v", d)
	}
	ev, err = ParseEvent("codex", "note", envelope("note", validPayloads["note"]))
	if err != nil {
		t.Fatal(err)
	}
	n := ev.Payload.(*NotePayload)
	if n.Fix == nil || n.Fix.Kind != FixCommand || n.Content.Learned == "" {
		t.Errorf("note read as %+v", n)
	}
	if key, derived := n.EffectiveTopicKey(); !derived || key != "pitfall/ledger-tests-need-cgo-off" {
		t.Errorf("EffectiveTopicKey = %q, %v", key, derived)
	}
	if h, ok := SessionHandle(n); !ok || h != "sh_1" {
		t.Errorf("SessionHandle = %q, %v", h, ok)
	}
}

func TestParseEventRefusals(t *testing.T) {
	note := validPayloads["note"]
	tests := []struct {
		name      string
		adapter   string
		kind      string
		body      []byte
		code      string
		inMessage string
	}{
		{"too large", "codex", "note", bytes.Repeat([]byte(" "), MaxEventBytes+1), CodeBadRequest, "bytes"},
		{"unknown kind before JSON", "codex", "session.pause", []byte("not json"), CodeUnknownKind, "session.pause"},
		{"empty kind", "codex", "", envelope("note", note), CodeUnknownKind, ""},
		{"bad adapter id", "Codex", "note", envelope("note", note), CodeBadRequest, "adapter id"},
		{"not JSON", "codex", "note", []byte(`{"adapter_id":`), CodeBadRequest, "I-JSON"},
		{"duplicate key", "codex", "session.end", []byte(`{"adapter_id":"codex","adapter_id":"codex"}`), CodeBadRequest, "I-JSON"},
		{"duplicate key deep", "codex", "session.end", envelope("session.end", `{"session_handle":"a","reason":"x","reason":"y"}`), CodeBadRequest, "I-JSON"},
		{"invalid UTF-8", "codex", "session.end", envelope("session.end", "{\"session_handle\":\"a\",\"reason\":\"\xff\"}"), CodeBadRequest, "I-JSON"},
		{"lone surrogate", "codex", "session.end", envelope("session.end", `{"session_handle":"a","reason":"\ud800"}`), CodeBadRequest, "I-JSON"},
		{"two values", "codex", "session.end", append(envelope("session.end", validPayloads["session.end"]), []byte(" {}")...), CodeBadRequest, "I-JSON"},
		{"unsafe integer", "codex", "step.before", envelope("step.before", `{"session_handle":"a","step":9007199254740993}`), CodeBadRequest, "/payload/step"},
		{"not an object", "codex", "note", []byte(`[]`), CodeSchemaInvalid, "at /"},
		{"unknown envelope member", "codex", "session.end", bytes.Replace(envelope("session.end", validPayloads["session.end"]), []byte(`"kind"`), []byte(`"extra":1,"kind"`), 1), CodeSchemaInvalid, "extra"},
		{"unknown payload member", "codex", "session.end", envelope("session.end", `{"session_handle":"a","reason":"x","mood":"ok"}`), CodeSchemaInvalid, "/payload"},
		{"missing member", "codex", "session.end", envelope("session.end", `{"session_handle":"a"}`), CodeSchemaInvalid, "reason"},
		{"bad handle", "codex", "session.end", envelope("session.end", `{"session_handle":"a b","reason":"x"}`), CodeSchemaInvalid, "/payload/session_handle"},
		{"negative step", "codex", "step.before", envelope("step.before", `{"session_handle":"a","step":-1}`), CodeSchemaInvalid, "/payload/step"},
		{"fractional step", "codex", "step.before", envelope("step.before", `{"session_handle":"a","step":1.5}`), CodeSchemaInvalid, "/payload/step"},
		{"query limit", "codex", "query", envelope("query", `{"session_handle":"a","op":"search","query":"x","limit":6}`), CodeSchemaInvalid, "/payload/limit"},
		{"query read without ref", "codex", "query", envelope("query", `{"session_handle":"a","op":"read"}`), CodeSchemaInvalid, "/payload"},
		{"note bad type", "codex", "note", envelope("note", strings.Replace(note, `"pitfall"`, `"rumour"`, 1)), CodeSchemaInvalid, "/payload/type"},
		{"note bad topic key", "codex", "note", envelope("note", strings.Replace(note, `"scope"`, `"topic_key":"No Slash","scope"`, 1)), CodeSchemaInvalid, "/payload/topic_key"},
		{"body adapter differs", "claude", "note", envelope("note", note), CodeBadRequest, "adapter_id"},
		{"body kind differs", "codex", "session.end", envelope("note", note), CodeBadRequest, "kind"},
		{"body kind differs, payload fits both", "codex", "workflow.agent.start", envelope("workflow.agent.end", `{"session_handle":"a","run_ref":"r","seq":1}`), CodeBadRequest, "kind"},
		{"impossible date", "codex", "session.end", bytes.Replace(envelope("session.end", validPayloads["session.end"]), []byte("2026-03-01"), []byte("2026-02-30"), 1), CodeSchemaInvalid, "/occurred_at"},
		{"bad event id", "codex", "session.end", bytes.Replace(envelope("session.end", validPayloads["session.end"]), []byte(testEventID), []byte("sha256:XYZ"), 1), CodeSchemaInvalid, "/event_id"},
		{"relative workspace root", "codex", "session.start", envelope("session.start", `{"project":"p","capabilities":[],"workspace_root":"src/agora"}`), CodeSchemaInvalid, "/payload/workspace_root"},
		{"path with content", "codex", "tool.result", envelope("tool.result", `{"session_handle":"a","tool_name":"write","ok":true,"path":"a.go\npackage main"}`), CodeSchemaInvalid, "/payload/path"},
		{"fix with foreign member", "codex", "note", envelope("note", strings.Replace(note, `"command":"CGO`, `"diff":"x","command":"CGO`, 1)), CodeSchemaInvalid, "/payload/fix/diff"},
		{"fix config escapes root", "codex", "note", envelope("note", strings.Replace(note, `{"kind":"command","command":"CGO_ENABLED=0 go test ./ledger/"}`, `{"kind":"config","path":"../../etc/passwd","content":"x"}`, 1)), CodeSchemaInvalid, "/payload/fix/path"},
		{"fix diff absolute", "codex", "note", envelope("note", strings.Replace(note, `{"kind":"command","command":"CGO_ENABLED=0 go test ./ledger/"}`, `{"kind":"diff","diff":"--- /etc/hosts\n+++ /etc/hosts\n@@ -1 +1 @@\n-a\n+b\n"}`, 1)), CodeSchemaInvalid, "/payload/fix/diff"},
		{"fix diff not a diff", "codex", "note", envelope("note", strings.Replace(note, `{"kind":"command","command":"CGO_ENABLED=0 go test ./ledger/"}`, `{"kind":"diff","diff":"just change it"}`, 1)), CodeSchemaInvalid, "/payload/fix/diff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := ParseEvent(tt.adapter, tt.kind, tt.body)
			if err == nil {
				t.Fatalf("accepted: %+v", ev)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			if e.Code != tt.code {
				t.Errorf("code = %s, want %s (%s)", e.Code, tt.code, e.Message)
			}
			if !strings.Contains(e.Message, tt.inMessage) {
				t.Errorf("message %q does not mention %q", e.Message, tt.inMessage)
			}
			if len([]rune(e.Message)) > maxMessageChars {
				t.Errorf("message is %d characters", len([]rune(e.Message)))
			}
		})
	}
}

func TestParseEventAcceptsRelativeDiffAndConfig(t *testing.T) {
	note := validPayloads["note"]
	for _, fix := range []string{
		`{"kind":"diff","diff":"diff --git a/go.mod b/go.mod\n--- a/go.mod\n+++ b/go.mod\n@@ -1 +1 @@\n-go 1.25\n+go 1.26\n"}`,
		`{"kind":"config","path":".golangci.yml","content":""}`,
	} {
		body := envelope("note", strings.Replace(note, `{"kind":"command","command":"CGO_ENABLED=0 go test ./ledger/"}`, fix, 1))
		ev, err := ParseEvent("codex", "note", body)
		if err != nil {
			t.Fatalf("%s: %v", fix, err)
		}
		assertRoundTrip(t, ev)
	}
}

func TestBodyDigestIgnoresLayout(t *testing.T) {
	a := envelope("session.end", `{"session_handle":"a","reason":"x"}`)
	b := envelope("session.end", `{ "reason" : "x",   "session_handle":"a" }`)
	c := envelope("session.end", `{"session_handle":"a","reason":"y"}`)
	ea, err := ParseEvent("codex", "session.end", a)
	if err != nil {
		t.Fatal(err)
	}
	eb, _ := ParseEvent("codex", "session.end", b)
	ec, _ := ParseEvent("codex", "session.end", c)
	if ea.BodyDigest != eb.BodyDigest {
		t.Error("the same event laid out differently has another digest")
	}
	if ea.BodyDigest == ec.BodyDigest {
		t.Error("different events share a digest")
	}
}

// TestParseEventRefusesEveryKind breaks every kind's valid payload in the
// ways the contract names: an unknown member, a member of the wrong type,
// and, for every kind but session.start, no session handle. Each is
// schema_invalid and names where.
func TestParseEventRefusesEveryKind(t *testing.T) {
	for _, kind := range Kinds() {
		var payload map[string]any
		if err := json.Unmarshal([]byte(validPayloads[kind]), &payload); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		broken := map[string]map[string]any{}
		unknown := maps.Clone(payload)
		unknown["mood"] = "cheerful"
		broken["an unknown member"] = unknown
		wrongType := maps.Clone(payload)
		for name, v := range payload {
			if _, isString := v.(string); isString {
				wrongType[name] = 42.0
				break
			}
		}
		broken["a string given as a number"] = wrongType
		if _, ok := payload["session_handle"]; ok {
			noHandle := maps.Clone(payload)
			delete(noHandle, "session_handle")
			broken["no session handle"] = noHandle
		} else if kind != "session.start" {
			t.Errorf("%s's valid payload has no session handle", kind)
		}
		for what, p := range broken {
			b, _ := json.Marshal(p)
			_, err := ParseEvent("codex", kind, envelope(kind, string(b)))
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeSchemaInvalid || !strings.Contains(e.Message, "/payload") {
				t.Errorf("%s with %s: %v, want schema_invalid at /payload", kind, what, err)
			}
		}
	}
}
