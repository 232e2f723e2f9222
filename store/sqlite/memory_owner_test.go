package sqlite

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/engine"
)

// TestMemoryOwnerMigration opens a database from before records named
// their adapter, holding a record written in a session of codex and one
// whose session is gone, and checks that migration 10 gives the first its
// session's adapter, the second none, neither shared, and that a second
// adapter may then hold the same topic.
func TestMemoryOwnerMigration(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "agora.db")
	s, err := Open(ctx, Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	ok := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	// The tables as migration 3 left them, with two records.
	before := slices.Index(migrations, memoryOwnerMigration)
	for _, q := range []string{
		`DROP TABLE memory_records`,
		`CREATE TABLE memory_records (ref TEXT PRIMARY KEY, version INTEGER NOT NULL, scope TEXT NOT NULL, project TEXT NOT NULL,
			topic_scope TEXT NOT NULL, topic_key TEXT NOT NULL, revision INTEGER NOT NULL, session TEXT NOT NULL,
			created BIGINT NOT NULL, updated BIGINT NOT NULL, body BLOB NOT NULL, UNIQUE (scope, topic_scope, topic_key)) WITHOUT ROWID`,
		`INSERT INTO memory_sessions (handle, adapter_id, version, state, started, ended) VALUES ('ms_codex', 'codex', 1, x'7b7d', 1, 0)`,
		`INSERT INTO memory_records VALUES ('lr_codex', 1, 'project', 'shop', 'shop', 'bugfix/npm', 1, 'ms_codex', 1, 1, x'7b7d')`,
		`INSERT INTO memory_records VALUES ('lr_orphan', 1, 'global', 'shop', '', 'bugfix/other', 1, 'ms_gone', 1, 1, x'7b7d')`,
		// and without what later migrations added that they cannot add twice.
		`DROP INDEX bundles_unsettled`,
		`ALTER TABLE bundles DROP COLUMN settled`,
		`DROP TABLE kept_files`,
		`DROP TABLE evidence_files`,
		`DROP TABLE team_bans`, `DROP TABLE team_requests`, `DROP TABLE team_moves`, `DROP TABLE team_spans`, `DROP TABLE team_people`, `DROP TABLE teams`,
		`DROP TABLE memory_record_cursor`, `DROP TABLE memory_record_deletions`, `DROP TABLE rating_count`, `DROP TABLE rating_habits`,
		undoOpenedWords, "PRAGMA user_version = " + itoa(before),
	} {
		ok(s.write(ctx, func(tx *sql.Tx) error { _, err := tx.ExecContext(ctx, q); return err }))
	}
	ok(s.Close())

	s, err = Open(ctx, Config{Path: path})
	ok(err)
	defer s.Close()
	codex, err := s.MemoryRecord(ctx, "lr_codex")
	if err != nil || codex.Adapter != "codex" || codex.Shared || codex.TopicKey != "bugfix/npm" || codex.Project != "shop" {
		t.Errorf("lr_codex after the migration: %+v, %v", codex, err)
	}
	if orphan, err := s.MemoryRecord(ctx, "lr_orphan"); err != nil || orphan.Adapter != "" || orphan.Scope != engine.MemoryScopeGlobal {
		t.Errorf("lr_orphan after the migration: %+v, %v", orphan, err)
	}
	other := engine.MemoryRecord{Ref: "lr_beta", Version: 1, Adapter: "beta", Scope: engine.MemoryScopeProject, Project: "shop",
		TopicKey: "bugfix/npm", Revision: 1, Session: "ms_beta", Created: now, Updated: now, Body: []byte(`{}`)}
	ev := engine.MemoryEvent{AdapterID: "beta", EventID: "sha256:" + itoa(1), BodyDigest: "sha256:x", Kind: "note", Session: "ms_beta", Result: []byte(`{}`), Status: 200, At: now}
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: ev, Records: []engine.MemoryRecord{other}}); err != nil {
		t.Errorf("another adapter's record on a migrated record's topic: %v", err)
	}
}
