package memory

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func sampleHit(ref string) Hit {
	return Hit{
		RecordRef: ref, Title: "Ledger tests need CGO off", Trust: "local_auto",
		ProvenanceLabel: "local auto-confirmed · agora · 2026-02-27 · session outcome: pass",
		Score:           2.75,
		Reasons: []MatchReason{
			{Signal: "error_signature", Value: testEventID, Contribution: 2.0},
			{Signal: "same_project", Value: "agora", Contribution: 0.5},
			{Signal: "negative", Value: "contradicted once", Contribution: -0.25},
		},
		Summary: "go test ./ledger fails with a cgo linker error; run with CGO_ENABLED=0.",
		Marks:   []string{"used_then_passed"},
	}
}

// sampleResults builds a realistic result for every kind.
func sampleResults() map[string]any {
	hit := sampleHit("lr_abcdefghijklmnopqrstuvwxyz")
	inject := &InjectResult{Inject: &Inject{
		Text:       RenderInjectionText(hit),
		RecordRefs: []string{hit.RecordRef},
		Hits:       []Hit{hit},
		Trigger:    "after_failure",
	}}
	return map[string]any{
		"session.start": SessionStartResult{
			SessionHandle:       "sh_01HZX",
			Profile:             DefaultProfile().Pin(),
			ProfileFallback:     ptr("profile team@7 is not known to this node"),
			CapabilitiesMissing: []string{"workspace_snapshot"},
			DisabledKinds:       CapabilityDisabledKinds(),
		},
		"step.before":        InjectResult{},
		"tool.result":        inject,
		"context.compaction": AckResult{},
		"subagent.end":       AckResult{},
		"note": NoteResult{
			RecordRef: ptr("lr_abcdefghijklmnopqrstuvwxy2"), Revision: 1,
			TopicKey: "pitfall/ledger-tests-need-cgo-off", TopicKeyDerived: true,
			VisibleFrom: "next_session", Similar: []Hit{hit},
		},
		"query": QueryReadResult{Op: QueryRead, Record: ReadRecord{
			RecordRef: hit.RecordRef, Title: hit.Title, Trust: "reviewed",
			ProvenanceLabel: hit.ProvenanceLabel, Text: "What: …\nLearned: run with CGO_ENABLED=0",
			Type: "pitfall", Scope: "project", TopicKey: "pitfall/ledger-tests-need-cgo-off", Revision: 2,
			Project: "agora", Content: &RecordContent{What: "cgo linker error", Learned: "CGO_ENABLED=0"},
			EvidenceRefs: []string{"call-7"}, CreatedAt: "2026-02-27T09:00:00Z", UpdatedAt: "2026-02-28T09:00:00+01:00",
		}},
		"workflow.start":       AckResult{},
		"workflow.phase":       inject,
		"workflow.agent.start": AckResult{},
		"workflow.agent.end":   AckResult{},
		"workflow.end":         AckResult{},
		"goal.changed":         AckResult{},
		"session.end": SessionEndResult{
			Outcome: "pass", DomainStatus: "tests green", TaskID: "task-1",
			Exposures:  Exposures{Pushed: 1, Listed: 3, Read: 1, Cited: 0, Applied: ptr[int64](1)},
			RecordRefs: []string{hit.RecordRef}, Notes: ptr[int64](1),
		},
	}
}

// RenderInjectionText renders one hit as a push would.
func RenderInjectionText(h Hit) string {
	text, _ := RenderInjection([]InjectionItem{{Ref: h.RecordRef, Title: h.Title, What: h.Summary, Provenance: h.ProvenanceLabel, Score: h.Score}}, 4000)
	return text
}

func TestEveryResultValidates(t *testing.T) {
	results := sampleResults()
	for _, kind := range Kinds() {
		result, ok := results[kind]
		if !ok {
			t.Errorf("no sample result for %s", kind)
			continue
		}
		body, err := MarshalResult(result)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if err := ValidateResponse(kind, body); err != nil {
			t.Errorf("%s: %v\n%s", kind, err, body)
		}
	}
	// A search result validates as the query response too.
	body, _ := MarshalResult(QuerySearchResult{Op: QuerySearch, Hits: []Hit{sampleHit("rr_1")}, Status: "ok"})
	if err := ValidateResponse("query", body); err != nil {
		t.Errorf("search: %v", err)
	}
}

func TestValidateResponseRefuses(t *testing.T) {
	bad := map[string]string{
		"ack with a member":    `{"ok":true,"result":{"extra":1}}`,
		"no ok":                `{"result":{}}`,
		"error without code":   `{"ok":false,"error":{"message":"x","retryable":false}}`,
		"duplicate key":        `{"ok":true,"ok":true,"result":{}}`,
		"search with six hits": `{"ok":true,"result":{"op":"search","hits":[{},{},{},{},{},{}]}}`,
	}
	for name, body := range bad {
		kind := "context.compaction"
		if strings.Contains(name, "search") {
			kind = "query"
		}
		if err := ValidateResponse(kind, []byte(body)); err == nil {
			t.Errorf("%s: accepted %s", name, body)
		}
	}
	if err := ValidateResponse("nope", []byte(`{}`)); !errors.Is(err, &Error{Code: CodeUnknownKind}) {
		t.Errorf("unknown kind: %v", err)
	}
	// A note result whose topic key breaks the pattern is the node's bug.
	r := sampleResults()["note"].(NoteResult)
	r.TopicKey = "Not A Key"
	body, _ := MarshalResult(r)
	if err := ValidateResponse("note", body); err == nil || !strings.Contains(err.Error(), "/result/topic_key") {
		t.Errorf("bad topic key: %v", err)
	}
}

func TestErrorResponses(t *testing.T) {
	for _, code := range ErrorCodes() {
		body, status := MarshalError(NewError(code, "something about %s", code))
		if status < 400 || status > 599 {
			t.Errorf("%s: status %d", code, status)
		}
		for _, kind := range Kinds() {
			if err := ValidateResponse(kind, body); err != nil {
				t.Fatalf("%s as %s: %v", code, kind, err)
			}
		}
		var got struct {
			OK    bool
			Error struct {
				Code, Message string
				Retryable     bool
			}
		}
		if err := json.Unmarshal(body, &got); err != nil || got.OK || got.Error.Code != code || got.Error.Retryable != (code == CodeUnavailable) {
			t.Errorf("%s: %s", code, body)
		}
	}
	if got := loadContract().errorCodes; strings.Join(got, ",") != strings.Join(ErrorCodes(), ",") {
		t.Errorf("x-error-codes %v, constants %v", got, ErrorCodes())
	}
}

func TestHTTPStatus(t *testing.T) {
	want := map[string]int{
		CodeBadRequest: 400, CodeUnknownKind: 404, CodeSchemaInvalid: 422, CodeUnauthorized: 401,
		CodeSessionUnbound: 409, CodeIdempotencyConflict: 409, CodeCapabilityDisabled: 403,
		CodeNotFound: 404, CodeBudgetExhausted: 429, CodeNoteRejected: 422, CodeUnavailable: 503,
		CodeInternal: 500, "no_such_code": 500,
	}
	for code, status := range want {
		if got := HTTPStatus(code); got != status {
			t.Errorf("HTTPStatus(%s) = %d, want %d", code, got, status)
		}
	}
}

func TestMarshalErrorHidesUnclassifiedCauses(t *testing.T) {
	body, status := MarshalError(errors.New("open /var/lib/agora/secret.db: permission denied"))
	if status != http.StatusInternalServerError || strings.Contains(string(body), "secret.db") {
		t.Errorf("%d %s", status, body)
	}
	wrapped := errors.Join(errors.New("context"), NewError(CodeNotFound, "no record lr_x"))
	body, status = MarshalError(wrapped)
	if status != 404 || !strings.Contains(string(body), `"code":"not_found"`) {
		t.Errorf("%d %s", status, body)
	}
	long := NewError(CodeSchemaInvalid, "%s", strings.Repeat("é", 5000))
	body, _ = MarshalError(long)
	if err := ValidateResponse("note", body); err != nil {
		t.Errorf("a long message breaks the contract: %v", err)
	}
}

func TestMarshalResultIsCanonical(t *testing.T) {
	body, err := MarshalResult(InjectResult{})
	if err != nil || string(body) != `{"ok":true,"result":{}}` {
		t.Errorf("%s %v", body, err)
	}
}
