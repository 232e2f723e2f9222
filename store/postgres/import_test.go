package postgres_test

import (
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/agora-node/agora/store/postgres"
	"github.com/agora-node/agora/store/sqlite"
)

// TestImportRows copies a SQLite state's rows into an empty schema:
// VerifyRows finds them the same, an identity column goes on past the
// largest value SQLite handed out, and a changed row, a schema that holds
// rows and a source at another migration are refused.
func TestImportRows(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "state.db")
	lite, err := sqlite.Open(ctx, sqlite.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	lite.Close()
	src, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, stmt := range []string{
		`INSERT INTO signed (digest, entry, leaf, idx, stored) VALUES ('sha256:aa', x'7b7d', '{"a":1}', 0, 5), ('sha256:bb', '{"b":2}', NULL, NULL, 6)`,
		`INSERT INTO memory_receipts (session, record_ref, kind, payload, at) VALUES ('s', 'lr_1', 'pushed', x'00ff', 1), ('s', 'lr_2', 'pushed', 'text', 2)`,
		`DELETE FROM memory_receipts WHERE record_ref = 'lr_2'`,
		`INSERT INTO memory_record_cursor (one, seq) VALUES (1, 5)`,
		`INSERT INTO memory_record_deletions (seq, ref) VALUES (5, 'lr_2')`,
	} {
		if _, err := src.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	var version int
	if err := src.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}

	s := newStore(t)
	if _, err := s.ImportRows(ctx, src, version-1); err == nil {
		t.Fatal("ImportRows from a SQLite state at another migration: no error")
	}
	copied, err := s.ImportRows(ctx, src, version)
	if err != nil {
		t.Fatalf("ImportRows: %v", err)
	}
	rows := map[string]int64{}
	for _, c := range copied {
		rows[c.Table] = c.Rows
	}
	if rows["signed"] != 2 || rows["memory_receipts"] != 1 || rows["memory_record_cursor"] != 1 {
		t.Fatalf("ImportRows copied %v, want 2 signed, 1 memory_receipts and the memory records' cursor", rows)
	}
	// The memory's change cursor goes on from where SQLite's stood.
	if ch, err := s.MemoryRecordChanges(ctx, 4); err != nil || ch.Cursor != 5 || len(ch.Deleted) != 1 || ch.Deleted[0] != "lr_2" {
		t.Fatalf("the memory records' changes after the import: %+v, %v; want lr_2 deleted at change 5", ch, err)
	}
	verified, err := s.VerifyRows(ctx, src)
	if err != nil || len(verified) != len(copied) {
		t.Fatalf("VerifyRows: %d tables, %v; want %d", len(verified), err, len(copied))
	}
	// Without the identity moved on, this row would take seq 1, copied.
	if _, err := s.Exec(ctx, `INSERT INTO memory_receipts (session, record_ref, kind, payload, at) VALUES ('s', 'lr_3', 'pushed', '\x00', 3)`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportRows(ctx, src, version); !errors.Is(err, postgres.ErrNotEmpty) {
		t.Fatalf("ImportRows into a schema holding rows: %v, want ErrNotEmpty", err)
	}
	if _, err := s.VerifyRows(ctx, src); !errors.Is(err, postgres.ErrRowsDiffer) {
		t.Fatalf("VerifyRows with a row more: %v, want ErrRowsDiffer", err)
	}
	if _, err := s.Exec(ctx, `DELETE FROM memory_receipts WHERE record_ref = 'lr_3'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Exec(ctx, `UPDATE signed SET stored = 7 WHERE digest = 'sha256:bb'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.VerifyRows(ctx, src); !errors.Is(err, postgres.ErrRowsDiffer) {
		t.Fatalf("VerifyRows with a row changed: %v, want ErrRowsDiffer", err)
	}
}
