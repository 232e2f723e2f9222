package translog

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog/mysqltest"
)

// TestTesseraSchemaIsTessera checks that the schema Open creates for
// Tessera is the one of the Tessera version go.mod names, byte for byte.
func TestTesseraSchemaIsTessera(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/transparency-dev/tessera").Output()
	if err != nil {
		t.Fatalf("finding Tessera's module: %v", err)
	}
	want, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "storage", "mysql", "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if tesseraSchema != string(want) {
		t.Fatal("tessera_mysql_schema.sql differs from Tessera's storage/mysql/schema.sql: copy it again")
	}
	if n := len(sqlStatements(tesseraSchema)); n != 6 {
		t.Fatalf("Tessera's schema splits into %d statements, want 6 (five tables and the version row)", n)
	}
}

func TestMySQLConfig(t *testing.T) {
	good := testConfig(t, "")
	good.MySQL = "u:p@tcp(127.0.0.1:3306)/db"
	good.CheckpointInterval, good.BatchMaxAge = 0, 0
	if err := good.Validate(); err != nil {
		t.Fatalf("a good config: %v", err)
	}
	if got := good.withDefaults().CheckpointInterval; got != MinMySQLCheckpointInterval {
		t.Errorf("a MySQL log's default interval is %v, want %v", got, MinMySQLCheckpointInterval)
	}
	for what, edit := range map[string]func(*Config){
		"Dir and MySQL":         func(c *Config) { c.Dir = t.TempDir() },
		"not a DSN":             func(c *Config) { c.MySQL = "mysql://secret@" },
		"no database":           func(c *Config) { c.MySQL = "u:secret@tcp(127.0.0.1:3306)/" },
		"too short an interval": func(c *Config) { c.CheckpointInterval = 500 * time.Millisecond },
		"Shared in a folder":    func(c *Config) { c.MySQL, c.Dir, c.Shared = "", t.TempDir(), true },
	} {
		c := good
		edit(&c)
		err := c.Validate()
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%s: Validate() = %v, want a ConfigError", what, err)
			continue
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: the error repeats the password: %v", what, err)
		}
	}

	dsn, err := ParseMySQLURL("mysql://agora:secret@tcp(db:3306)/agora?timeout=5s")
	if err != nil || dsn != "agora:secret@tcp(db:3306)/agora?timeout=5s" {
		t.Errorf("ParseMySQLURL = %q, %v", dsn, err)
	}
	for _, bad := range []string{"postgres://agora:secret@db/agora", "mysql://agora:secret@tcp(db:3306)/", "agora:secret@tcp(db:3306)/agora"} {
		if _, err := ParseMySQLURL(bad); err == nil || strings.Contains(err.Error(), "secret") {
			t.Errorf("ParseMySQLURL(%q) = %v, want an error without the password", bad, err)
		}
	}
	if got := RedactMySQL("mysql://agora:secret@tcp(db:3306)/agora"); strings.Contains(got, "secret") || !strings.Contains(got, "tcp(db:3306)/agora") {
		t.Errorf("RedactMySQL = %q", got)
	}
}

// TestMySQLRecords checks the tree-head table against writers that do not
// share this process's memory, as two processes would be: the database
// itself refuses a second tree head of a size and a timestamp that goes
// back, and a writer that is behind catches up from the table.
func TestMySQLRecords(t *testing.T) {
	dsn := mysqltest.DSN(t)
	b, err := openMySQL(context.Background(), dsn, false)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	if _, err := openMySQL(context.Background(), dsn, false); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second backend on the same database: %v, want ErrLocked", err)
	}
	other, err := openMySQL(context.Background(), mysqltest.DSN(t), false)
	if err != nil {
		t.Fatalf("another database is locked by this one: %v", err)
	}
	other.close()
	one, err := b.openHeads()
	if err != nil {
		t.Fatal(err)
	}
	two, err := b.openHeads()
	if err != nil {
		t.Fatal(err)
	}
	recs := testRecords(t, 4)
	if err := one.append(recs[0]); err != nil {
		t.Fatal(err)
	}
	if err := two.append(recs[0]); err == nil {
		t.Fatal("a second tree head of size 0 was stored")
	}
	if last, ok := two.latest(); !ok || last.head != recs[0].head {
		t.Fatal("a writer that was behind did not catch up from the table")
	}
	if err := two.append(recs[1]); err != nil {
		t.Fatal(err)
	}
	if err := one.append(recs[1]); err == nil {
		t.Fatal("a tree head of a size already stored was stored again")
	}

	// A later tree whose head is stamped before the last one's.
	logKey, _ := testKeys(t)
	early := recs[2]
	prev, _ := recs[1].head.Time()
	if early.head, err = tlog.SignTreeHead(logKey, early.head.Size, early.head.Root, prev.Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := one.append(early); err == nil || !strings.Contains(err.Error(), "stamped") {
		t.Fatalf("a tree head stamped before the last one: %v", err)
	}
	for _, r := range recs[2:] {
		if err := one.append(r); err != nil {
			t.Fatal(err)
		}
	}
	var sizes []uint64
	if err := two.each(func(p published) error { sizes = append(sizes, p.head.Size); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 4 || sizes[3] != recs[3].head.Size {
		t.Fatalf("the table holds sizes %v", sizes)
	}
	for _, r := range recs {
		got, err := two.find(r.head.Size)
		if r.head.Size > 3 && err == nil {
			// two's latest is recs[1]: it answers nothing beyond what it
			// has seen, as reads are gated by the published head.
			t.Fatalf("find(%d) beyond the latest this writer saw = %v", r.head.Size, got.head)
		}
		if r.head.Size <= 3 && (err != nil || got.head != r.head || !bytes.Equal(got.checkpoint, r.checkpoint)) {
			t.Fatalf("find(%d) = %v, %v", r.head.Size, got.head, err)
		}
	}
	if _, err := one.find(recs[3].head.Size + 1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("find beyond the last: %v, want ErrNotFound", err)
	}
	got, ok, err := one.lastWhere(10, func(p published) bool { return p.head.Size < 7 })
	if err != nil || !ok || got.head != recs[2].head {
		t.Fatalf("lastWhere(size < 7) = %v, %v, %v", got.head, ok, err)
	}
}

// TestMySQLRefusesInconsistentState is TestOpenRefusesInconsistentState
// on MySQL: Open refuses a database whose tree heads the stored tree
// contradicts, rather than repair it.
func TestMySQLRefusesInconsistentState(t *testing.T) {
	cfg := testDrivers[1].config(t)
	l := openLog(t, cfg)
	appendConcurrently(t, l, "x", 20, 20)
	closeLog(t, l)
	db, err := sql.Open("mysql", cfg.MySQL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run := func(stmt string) {
		t.Helper()
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}

	// The tiles lose what a tree head signed.
	run("UPDATE `Subtree` SET `index` = 999 WHERE `level` = 0 AND `index` = 0")
	if _, err := Open(context.Background(), cfg); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open with the tiles of the last tree head gone: %v, want ErrCorrupt", err)
	}
	run("UPDATE `Subtree` SET `index` = 0 WHERE `level` = 0 AND `index` = 999")

	// The tree heads are lost, but Tessera has published.
	run("RENAME TABLE `agora_tree_heads` TO `moved_tree_heads`")
	if _, err := Open(context.Background(), cfg); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open with the tree heads gone: %v, want ErrCorrupt", err)
	}
	run("DROP TABLE `agora_tree_heads`")
	run("RENAME TABLE `moved_tree_heads` TO `agora_tree_heads`")
	l = openLog(t, cfg)
	closeLog(t, l)
}

// TestMySQLLockLost kills the connection that holds a MySQL log's named
// lock, as a server restart would: the log takes the lock again and goes
// on. Killed again, with another connection taking the lock first (another
// process starting on the database), the log stops publishing rather than
// share the database with a second writer.
func TestMySQLLockLost(t *testing.T) {
	defer func(old time.Duration) { lockCheckEvery = old }(lockCheckEvery)
	lockCheckEvery = 50 * time.Millisecond
	cfg := testDrivers[1].config(t)
	l := openLog(t, cfg)
	acked := appendConcurrently(t, l, "before", 10, 10)
	db, err := sql.Open("mysql", cfg.MySQL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	name := l.store.(*mysqlBackend).lockName
	killHolder := func() {
		t.Helper()
		var id int64
		if err := db.QueryRowContext(ctx, "SELECT IS_USED_LOCK(?)", name).Scan(&id); err != nil {
			t.Fatalf("the log's lock is not held: %v", err)
		}
		if _, err := db.ExecContext(ctx, fmt.Sprintf("KILL %d", id)); err != nil {
			t.Fatal(err)
		}
	}

	killHolder()
	time.Sleep(10 * lockCheckEvery)
	more := appendConcurrently(t, l, "after a restart", 10, 10)
	for index, leaf := range more {
		acked[index] = leaf
	}
	checkLog(t, l, acked)

	other, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	killHolder()
	var got int64
	if err := other.QueryRowContext(ctx, "SELECT GET_LOCK(?, 5)", name).Scan(&got); err != nil || got != 1 {
		t.Fatalf("another connection could not take the lock: %d, %v", got, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := l.Append(ctx, testLeaf(t, "lost", 0))
		if errors.Is(err, ErrLocked) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Append with the lock taken by another: %v, want ErrLocked", err)
		}
		time.Sleep(lockCheckEvery)
	}
	if err := l.Close(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("Close after the lock was lost: %v, want ErrLocked", err)
	}
}
