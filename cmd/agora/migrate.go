package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agora-node/agora/store/postgres"
	"github.com/agora-node/agora/translog"
)

// migrateCommand is "agora migrate": a stopped node's SQLite state and
// POSIX log copied into PostgreSQL and MySQL, and the copy verified, so
// agora serve --state … --log … goes on from where the folder stopped.
func migrateCommand() *command {
	c := newCommand("migrate", "agora migrate [--data DIR] [--state URL] [--log URL] [--verify-only]",
		"copy a stopped node's state and log into PostgreSQL and MySQL, and verify the copy",
		"state.db goes into PostgreSQL (--state postgres://…), log/ into MySQL or",
		"MariaDB (--log mysql://…), either or both; then the copy is verified: every",
		"table's rows (count and digest), every entry's leaf and index, every receipt",
		"(its inclusion proof against the copied tree heads) and every tree head,",
		"checkpoint and cosignature, the same signed records. The targets must be",
		"empty; the node must be stopped. --verify-only checks a copy made before.",
		"Exit 0 the same, 1 different, 2 could not finish.")
	dataDir := c.flags.String("data", defaultDataDir(), "the node's data folder, holding state.db and log/")
	stateURL := c.flags.String("state", "", "the PostgreSQL database to copy the state into: postgres://user:password@host:5432/database")
	logURL := c.flags.String("log", "", "the MySQL database to copy the log into: mysql://user:password@tcp(host:3306)/database")
	verifyOnly := c.flags.Bool("verify-only", false, "copy nothing: compare a copy made before with the data folder")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 0 {
			return c.usageError(e, "agora migrate takes no arguments, only flags")
		}
		m := &migration{e: e, dir: *dataDir, stateURL: *stateURL, verifyOnly: *verifyOnly}
		if code := m.check(c, *logURL); code != 0 {
			return code
		}
		return m.run(ctx)
	}
	return c
}

type migration struct {
	e          *env
	dir        string
	stateURL   string
	logDSN     string
	logURL     string // redacted, for messages
	verifyOnly bool
}

// check refuses flags that cannot work before anything is opened.
func (m *migration) check(c *command, logURL string) int {
	if m.stateURL == "" && logURL == "" {
		return c.usageError(m.e, "say where to copy to: --state postgres://user:password@host:5432/database, --log mysql://user:password@tcp(host:3306)/database, or both")
	}
	if m.stateURL != "" && !strings.HasPrefix(m.stateURL, "postgres://") && !strings.HasPrefix(m.stateURL, "postgresql://") {
		return c.usageError(m.e, "--state is not a postgres:// URL: give --state postgres://user:password@host:5432/database")
	}
	if logURL != "" {
		dsn, err := translog.ParseMySQLURL(logURL)
		if err != nil {
			return c.usageError(m.e, "--log: %v", strings.TrimPrefix(err.Error(), "translog: "))
		}
		m.logDSN, m.logURL = dsn, translog.RedactMySQL(logURL)
	}
	for _, need := range []struct{ path, flag string }{{"state.db", m.stateURL}, {"log", m.logDSN}} {
		if need.flag == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(m.dir, need.path)); err != nil {
			return fail(m.e, exitCouldNotRun, "give the folder agora serve --data used: agora migrate --data DIR ...",
				"%s holds no %s to copy", m.dir, need.path)
		}
	}
	return 0
}

func (m *migration) run(ctx context.Context) int {
	start := time.Now()
	// The node takes this lock while it serves; holding it keeps one from
	// starting on the folder while the copy is made.
	folder, err := translog.LockFolder(filepath.Join(m.dir, "log"))
	if errors.Is(err, translog.ErrLocked) {
		return fail(m.e, exitCouldNotRun, "stop the node (Ctrl-C or SIGTERM to agora serve), then run agora migrate again",
			"a node is running on %s", m.dir)
	}
	if err != nil {
		return fail(m.e, exitCouldNotRun, "", "locking %s: %v", m.dir, err)
	}
	defer folder.Close()
	// The log's receipts are checked against the entries state.db
	// records; a node whose state is elsewhere already has none.
	var src *sql.DB
	var version int
	if _, err := os.Stat(filepath.Join(m.dir, "state.db")); err == nil || m.stateURL != "" {
		if src, version, err = openSourceState(ctx, filepath.Join(m.dir, "state.db")); err != nil {
			return fail(m.e, exitCouldNotRun, "", "%v", err)
		}
		defer src.Close()
	}
	if m.stateURL != "" {
		if code := m.state(ctx, src, version); code != 0 {
			return code
		}
	}
	if m.logDSN != "" {
		if code := m.log(ctx, folder, src); code != 0 {
			return code
		}
	}
	verb := "copied and verified"
	if m.verifyOnly {
		verb = "verified"
	}
	fmt.Fprintf(m.e.stdout, "%s in %s\n", verb, time.Since(start).Round(time.Millisecond))
	return 0
}

// openSourceState opens state.db to read, with its migration number.
func openSourceState(ctx context.Context, path string) (*sql.DB, int, error) {
	// mode=rw: a missing file is an error, not a new database.
	db, err := sql.Open("sqlite", "file:"+path+"?mode=rw&_pragma=query_only(1)&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, 0, fmt.Errorf("opening %s: %w", path, err)
	}
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		db.Close()
		return nil, 0, fmt.Errorf("reading %s: %w", path, err)
	}
	return db, version, nil
}

func (m *migration) state(ctx context.Context, src *sql.DB, version int) int {
	st, err := postgres.Open(ctx, postgres.Config{DSN: m.stateURL})
	if err != nil {
		return fail(m.e, exitCouldNotRun, "check the URL, and that the database exists and the user may create tables in it",
			"opening the PostgreSQL state: %v", err)
	}
	defer st.Close()
	if !m.verifyOnly {
		if want, _ := st.SchemaVersion(ctx); want != version {
			return fail(m.e, exitCouldNotRun, "run this agora's agora serve --data "+m.dir+" once, so it migrates state.db, stop it, then run agora migrate again",
				"state.db is at migration %d, this agora's PostgreSQL schema at %d", version, want)
		}
		_, err := st.ImportRows(ctx, src, version)
		if errors.Is(err, postgres.ErrNotEmpty) {
			return fail(m.e, exitCouldNotRun, "give --state an empty database, or run agora migrate --verify-only to check a copy made before",
				"%v", err)
		}
		if err != nil {
			return fail(m.e, exitCouldNotRun, "", "copying the state: %v", err)
		}
	}
	tables, err := st.VerifyRows(ctx, src)
	if errors.Is(err, postgres.ErrRowsDiffer) {
		return fail(m.e, exitMisbehaved, "", "the PostgreSQL state is not the folder's: %v", err)
	}
	if err != nil {
		return fail(m.e, exitCouldNotRun, "", "verifying the state: %v", err)
	}
	var total int64
	var line []string
	for _, t := range tables {
		total += t.Rows
		if t.Rows > 0 {
			line = append(line, fmt.Sprintf("%s %d", t.Table, t.Rows))
		}
	}
	fmt.Fprintf(m.e.stdout, "state: %d rows in %d tables, each table's count and digest the same in PostgreSQL\n  %s\n",
		total, len(tables), strings.Join(line, ", "))
	return 0
}

func (m *migration) log(ctx context.Context, folder *translog.Folder, src *sql.DB) int {
	if !m.verifyOnly {
		_, err := translog.Import(ctx, folder, m.logDSN)
		if code := m.logFailed(err, "copying the log"); code != 0 {
			return code
		}
	}
	var entries []translog.Entry
	if src != nil {
		var err error
		if entries, err = loggedEntries(ctx, src); err != nil {
			return fail(m.e, exitCouldNotRun, "", "reading the entries state.db records: %v", err)
		}
	}
	got, err := translog.VerifyImport(ctx, folder, m.logDSN, entries)
	if errors.Is(err, translog.ErrDiffers) {
		return fail(m.e, exitMisbehaved, "", "the MySQL log is not the folder's: %v", err)
	}
	if code := m.logFailed(err, "verifying the log"); code != 0 {
		return code
	}
	fmt.Fprintf(m.e.stdout, "log: %d entries, %d tree heads, %d cosignature rounds, %d receipts proved, the same in %s\n",
		got.Entries, len(got.Heads), got.Cosignatures, got.Receipts, m.logURL)
	if src == nil {
		fmt.Fprintf(m.e.stdout, "  (%s holds no state.db, so no receipts were proved)\n", m.dir)
	}
	return 0
}

func (m *migration) logFailed(err error, doing string) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, translog.ErrNotEmpty):
		return fail(m.e, exitCouldNotRun, "give --log an empty database, or run agora migrate --verify-only to check a copy made before",
			"%s: %s already holds a log", doing, m.logURL)
	case errors.Is(err, translog.ErrLocked):
		return fail(m.e, exitCouldNotRun, "stop the agora serve --log using it, then run agora migrate again",
			"%s: a node is running on %s", doing, m.logURL)
	}
	return fail(m.e, exitCouldNotRun, "", "%s: %v", doing, err)
}

// loggedEntries is every entry state.db says the log holds, with its leaf.
func loggedEntries(ctx context.Context, src *sql.DB) ([]translog.Entry, error) {
	rows, err := src.QueryContext(ctx, "SELECT idx, leaf FROM signed WHERE idx IS NOT NULL ORDER BY idx")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []translog.Entry
	for rows.Next() {
		var e translog.Entry
		var idx int64
		if err := rows.Scan(&idx, &e.Leaf); err != nil {
			return nil, err
		}
		e.Index = uint64(idx)
		out = append(out, e)
	}
	return out, rows.Err()
}
