package enginetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/engine"
)

// BenchQuietChanges is what an engine pays before every event to follow
// other processes' writes when none came: MemoryRecordChanges from the
// store's cursor, with records kept but none changed since.
func BenchQuietChanges(b *testing.B, s engine.Store) {
	ctx := b.Context()
	now := time.Date(2026, 10, 2, 12, 0, 0, 0, time.UTC)
	var records []engine.MemoryRecord
	for i := range 100 {
		records = append(records, engine.MemoryRecord{Ref: fmt.Sprintf("lr_%d", i), Version: 1, Adapter: "codex", Scope: engine.MemoryScopeGlobal,
			TopicKey: fmt.Sprintf("bench/%d", i), Revision: 1, Session: "ms_bench", Created: now, Updated: now, Body: []byte(`{}`)})
	}
	ev := engine.MemoryEvent{AdapterID: "codex", EventID: "sha256:" + fmt.Sprintf("%064d", 1), BodyDigest: "sha256:" + fmt.Sprintf("%064d", 1),
		Kind: "note", Session: "ms_bench", Result: []byte(`{"ok":true}`), Status: 200, At: now}
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: ev, Records: records}); err != nil {
		b.Fatal(err)
	}
	ch, err := s.MemoryRecordChanges(ctx, 0)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		quiet, err := s.MemoryRecordChanges(ctx, ch.Cursor)
		if err != nil || len(quiet.Records) != 0 || quiet.Cursor != ch.Cursor {
			b.Fatalf("quiet changes: %d records, cursor %d, %v", len(quiet.Records), quiet.Cursor, err)
		}
	}
}
