package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// cacheConn opens a one-connection pool through the statement cache on a
// fresh database and returns the connection held.
func cacheConn(t *testing.T) *sql.Conn {
	t.Helper()
	db, err := openDB("file:" + filepath.Join(t.TempDir(), "c.db") + "?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.ExecContext(t.Context(), `CREATE TABLE t (x INTEGER)`); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := conn.ExecContext(t.Context(), `INSERT INTO t (x) VALUES (?)`, i); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

// cachedOn returns the statement cache of conn's driver connection.
func cachedOn(t *testing.T, conn *sql.Conn) (texts []string) {
	t.Helper()
	err := conn.Raw(func(dc any) error {
		c := dc.(*cachedConn)
		for e := c.lru.Front(); e != nil; e = e.Next() {
			texts = append(texts, e.Value.(*cachedStmt).query)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return texts
}

func ints(t *testing.T, ctx context.Context, conn *sql.Conn, query string, args ...any) []int {
	t.Helper()
	rows, err := conn.QueryContext(ctx, query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var x int
		if err := rows.Scan(&x); err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStmtCacheReuses checks that a statement run twice is prepared once
// and gives fresh results with new arguments, that a setting read back
// after a change is the new one, and that PRAGMAs and DDL are not kept.
func TestStmtCacheReuses(t *testing.T) {
	ctx := t.Context()
	conn := cacheConn(t)
	const q = `SELECT x FROM t WHERE x >= ? ORDER BY x`
	if got := fmt.Sprint(ints(t, ctx, conn, q, 1)); got != "[1 2]" {
		t.Errorf("first run: %s, want [1 2]", got)
	}
	if got := fmt.Sprint(ints(t, ctx, conn, q, 2)); got != "[2]" {
		t.Errorf("second run: %s, want [2]", got)
	}
	for _, set := range []string{"FULL", "OFF"} {
		if _, err := conn.ExecContext(ctx, "PRAGMA synchronous = "+set); err != nil {
			t.Fatal(err)
		}
		var v string
		if err := conn.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&v); err != nil {
			t.Fatal(err)
		}
		if want := map[string]string{"FULL": "2", "OFF": "0"}[set]; v != want {
			t.Errorf("after synchronous = %s: PRAGMA synchronous = %s, want %s", set, v, want)
		}
	}
	n := 0
	for _, text := range cachedOn(t, conn) {
		if text == q {
			n++
		}
		if !cacheable(text) {
			t.Errorf("cached %q", text)
		}
	}
	if n != 1 {
		t.Errorf("%q cached %d times, want once", q, n)
	}
}

// TestStmtCacheNested runs a statement again while its rows are open, and
// fills the cache past its size while they are: the open rows must read
// on undisturbed.
func TestStmtCacheNested(t *testing.T) {
	ctx := t.Context()
	conn := cacheConn(t)
	const q = `SELECT x FROM t ORDER BY x`
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var outer []int
	for rows.Next() {
		var x int
		if err := rows.Scan(&x); err != nil {
			t.Fatal(err)
		}
		outer = append(outer, x)
		if got := fmt.Sprint(ints(t, ctx, conn, q)); got != "[0 1 2]" {
			t.Fatalf("nested run: %s, want [0 1 2]", got)
		}
		if x == 1 {
			for i := range stmtCacheSize + 1 {
				if got := ints(t, ctx, conn, fmt.Sprintf(`SELECT x + %d FROM t WHERE x = 0`, i)); len(got) != 1 || got[0] != i {
					t.Fatalf("filler %d: %v", i, got)
				}
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(outer); got != "[0 1 2]" {
		t.Errorf("outer run: %s, want [0 1 2]", got)
	}
	if n := len(cachedOn(t, conn)); n > stmtCacheSize {
		t.Errorf("%d statements cached, more than %d", n, stmtCacheSize)
	}
	if got := fmt.Sprint(ints(t, ctx, conn, q)); got != "[0 1 2]" {
		t.Errorf("after eviction: %s, want [0 1 2]", got)
	}
}

// TestStmtCacheSchemaChange checks a cached statement sees a column added
// after it was prepared: SQLite re-prepares it.
func TestStmtCacheSchemaChange(t *testing.T) {
	ctx := t.Context()
	conn := cacheConn(t)
	const q = `SELECT * FROM t WHERE x = 0`
	cols := func() int {
		rows, err := conn.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		c, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		return len(c)
	}
	if n := cols(); n != 1 {
		t.Fatalf("%d columns, want 1", n)
	}
	if _, err := conn.ExecContext(ctx, `ALTER TABLE t ADD COLUMN y TEXT`); err != nil {
		t.Fatal(err)
	}
	if n := cols(); n != 2 {
		t.Errorf("after ALTER TABLE: %d columns, want 2", n)
	}
}
