// Package postgres is the store driver for a node past one machine: its
// state in a PostgreSQL database, through pgx (github.com/jackc/pgx/v5) and
// its database/sql driver, so several node processes can share it. Store
// implements the core contract, store.Store (store/store.go), and each
// face's beside it: ledger.Store (ledger/store.go), library.Store
// (library/store.go) and engine.Store (memory/engine/store.go); its tests
// run every face's conformance suite against the database named by
// AGORA_TEST_POSTGRES, once on one store and once with writes alternating
// between two stores on one database (TestTwoStores).
//
// # Concurrency
//
// The rules store/sqlite keeps by running one write at a time (one name
// number, one rotation from a key, one use of an invite code, a library
// head's single successor, one first vote, one open job per operator,
// credit never moved twice, no rate limit passed) hold however many
// processes write at once, in one of four ways:
//
//   - By default a write is one SERIALIZABLE transaction: PostgreSQL
//     aborts a transaction whose reads another's commit made stale.
//   - Putting and binding signed entries (rowWrite) run in READ COMMITTED
//     on row locks and unique constraints alone, since every binding of
//     a neighbouring index would abort SERIALIZABLE ones.
//   - The library's contributions (serialWrite, serial.go) are written one
//     at a time under an advisory lock, a process's waiting writes batched
//     in one transaction, since their rules read much of what the others
//     write.
//   - Rate-limit takes hold their bucket's advisory lock (limits.go).
//
// Everywhere the schema's unique constraints stand behind the checks. A
// write that fails for a transient reason (a serialization failure, a
// deadlock, or a unique violation a racing commit raised) wrote nothing,
// and it runs again from the start, in a new transaction, up to
// maxAttempts times, as store.Store's contract allows ("Retries"): so a
// method's transaction function MUST be safe to run more than once,
// setting every result it reports afresh on each run. Reads run in
// REPEATABLE READ, read-only transactions: a snapshot of one moment, as
// SQLite's are.
//
// # Durability
//
// Sessions run with synchronous_commit = on, so a commit that returned is
// in PostgreSQL's fsync'd WAL (and, with synchronous replicas configured
// on the server, on them). Take alone commits with synchronous_commit =
// off, which the contract allows it.
//
// The schema lives in the schema Config.Schema names (public by default),
// migrated on Open with the same numbering as store/sqlite's
// (migrations.go), every migration due in one transaction: PostgreSQL's
// DDL is transactional, so a failed one leaves the schema as it was. A
// transaction-level advisory lock keeps two processes opening one
// database from migrating it at once. Most of the SQL is
// store/sqlite's, written with its "?" and "?N" placeholders, which each
// statement turns into PostgreSQL's "$N" (rebind).
//
// It keeps the records spec/ledger-protocol.md, library/contract.json and
// memory/memory-agent-ingress-v1.schema.json define.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// Config says which database to use and how.
type Config struct {
	// DSN is the database's connection string, a postgres:// URL or
	// key=value pairs as libpq takes them.
	DSN string
	// Schema is the PostgreSQL schema the tables live in, made if
	// missing. Default the DSN's search_path parameter, if it names one
	// schema, else "public".
	Schema string
	// MaxConns bounds the connections the store opens. Default 16.
	MaxConns int
}

// Store is a node's store in a PostgreSQL database: a store.Store, a
// library.Store and an engine.Store.
type Store struct {
	db     *sql.DB
	r      *pool // db, for reads outside a transaction
	schema string
	// contributions runs the library's contribution writes, holding
	// libraryLock (serialWrite).
	contributions *serializer

	sqlcommon.Shared // the methods store/sqlite runs alike
}

var (
	_ store.Store   = (*Store)(nil)
	_ ledger.Store  = (*Store)(nil)
	_ library.Store = (*Store)(nil)
	_ engine.Store  = (*Store)(nil)
)

// maxAttempts bounds how many times write runs a transaction that failed
// for a transient reason before it returns the failure.
const maxAttempts = 64

// Open opens the store in the database cfg names, making and migrating its
// schema as needed.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = 16
	}
	cc, err := pgx.ParseConfig(cfg.DSN)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse the DSN: %w", err)
	}
	if cfg.Schema == "" {
		cfg.Schema = "public"
		if sp := cc.RuntimeParams["search_path"]; sp != "" && !strings.ContainsAny(sp, ", ") {
			cfg.Schema = sp
		}
	}
	cc.RuntimeParams["search_path"] = cfg.Schema
	cc.RuntimeParams["synchronous_commit"] = "on"
	cc.RuntimeParams["timezone"] = "UTC"
	db := stdlib.OpenDB(*cc)
	db.SetMaxOpenConns(cfg.MaxConns)
	db.SetMaxIdleConns(cfg.MaxConns)
	s := &Store{db: db, r: &pool{db}, schema: cfg.Schema}
	s.Shared = s.shared()
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	s.contributions = newSerializer(s, libraryLock)
	return s, nil
}

// Schema returns the schema the store's tables are in.
func (s *Store) Schema() string { return s.schema }

// Close waits for the serial writes under way, then closes the store's
// connections. Calls after Close fail.
func (s *Store) Close() error {
	s.contributions.stop()
	return s.db.Close()
}

func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{s.schema}.Sanitize()); err != nil {
		return fmt.Errorf("postgres: make schema %s: %w", s.schema, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("postgres: begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('agora migrate ' || $1))`, s.schema); err != nil {
		return fmt.Errorf("postgres: lock the schema: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("postgres: read schema version: %w", err)
	}
	var version int
	switch err := tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&version); {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (0)`); err != nil {
			return fmt.Errorf("postgres: read schema version: %w", err)
		}
	case err != nil:
		return fmt.Errorf("postgres: read schema version: %w", err)
	}
	if version > len(migrations) {
		return fmt.Errorf("postgres: schema %s has version %d, newer than this program's %d", s.schema, version, len(migrations))
	}
	if version == len(migrations) {
		return nil
	}
	for i := version; i < len(migrations); i++ {
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("postgres: migration %d: %w", i+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = $1`, len(migrations)); err != nil {
		return fmt.Errorf("postgres: migrations %d to %d: %w", version+1, len(migrations), err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("postgres: migrations %d to %d: %w", version+1, len(migrations), err)
	}
	return nil
}

// A mode is how a write's transaction keeps its rules against racing
// writers.
type mode struct {
	// lock, when not "", names an advisory lock the transaction takes
	// first, in READ COMMITTED: the writes that take one lock run one at
	// a time, each statement seeing every write that committed before.
	lock string
	// rowLocked runs the transaction in READ COMMITTED, for writes
	// whose rules rest wholly on row locks and unique constraints.
	rowLocked bool
	// light skips waiting for the WAL's flush at commit (Take).
	light bool
}

// write runs f in a SERIALIZABLE transaction and commits it, running it
// again in a new one while it fails for a transient reason (see the
// package doc): f MUST set what it reports afresh on every run.
func (s *Store) write(ctx context.Context, f func(tx *txn) error) error {
	return s.writeTx(ctx, mode{}, f)
}

// lightWrite is write for writes a crash may lose (Take), holding lock:
// its commit does not wait for the WAL's flush.
func (s *Store) lightWrite(ctx context.Context, lock string, f func(tx *txn) error) error {
	return s.writeTx(ctx, mode{lock: lock, light: true}, f)
}

// serialWrite is write for the writes that hold z's lock (serial.go):
// they run one at a time, across every process sharing the database, as
// store/sqlite runs every write, in READ COMMITTED, each statement seeing
// every write that committed before the lock was granted. It is for tables
// many writers append to at once whose rules read much of what the others
// write (the library's contributions), where SERIALIZABLE's predicate
// locks would abort most of them. Every write of those tables MUST hold
// the lock.
func (s *Store) serialWrite(ctx context.Context, z *serializer, f func(tx *txn) error) error {
	return z.write(ctx, f)
}

// rowWrite is write for writes whose every rule a row lock or a unique
// constraint keeps (putting and binding signed entries): in READ
// COMMITTED, where SERIALIZABLE's predicate locks would abort writers
// binding neighbouring indexes. A racing commit shows as a unique
// violation, and the new run sees it.
func (s *Store) rowWrite(ctx context.Context, f func(tx *txn) error) error {
	return s.writeTx(ctx, mode{rowLocked: true}, f)
}

func (s *Store) writeTx(ctx context.Context, m mode, f func(tx *txn) error) error {
	for attempt := 1; ; attempt++ {
		err := s.attempt(ctx, m, f)
		if err == nil || !transient(err) || attempt == maxAttempts {
			return err
		}
		// Back off a little, more each time, so racing writers spread.
		pause := time.Duration(rand.Int64N(int64(attempt)*int64(time.Millisecond) + 1))
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return fmt.Errorf("postgres: %w", ctx.Err())
		}
	}
}

func (s *Store) attempt(ctx context.Context, m mode, f func(tx *txn) error) error {
	opts := &sql.TxOptions{Isolation: sql.LevelSerializable}
	if m.rowLocked || m.lock != "" {
		opts.Isolation = sql.LevelReadCommitted
	}
	tx, err := s.db.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("postgres: begin: %w", err)
	}
	err = func() error {
		if m.light {
			if _, err := tx.ExecContext(ctx, `SET LOCAL synchronous_commit = off`); err != nil {
				return fmt.Errorf("postgres: %w", err)
			}
		}
		if m.lock != "" {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, m.lock); err != nil {
				return fmt.Errorf("postgres: take lock %q: %w", m.lock, err)
			}
		}
		return f(&txn{tx: tx})
	}()
	if err != nil {
		tx.Rollback()
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			return fmt.Errorf("postgres: %w: %w", ctx.Err(), err)
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("postgres: commit: %w", err)
	}
	return nil
}

// transient reports whether err is a failure a new run of the transaction
// may not meet: a serialization failure, a deadlock, or a unique
// violation, which a racing commit raises where this transaction's checks
// would see it on a new run.
func transient(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Code {
	case "40001", "40P01", "23505":
		return true
	}
	return false
}

// read runs f in a read-only transaction, a snapshot of one moment.
func (s *Store) read(ctx context.Context, f func(tx *txn) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return fmt.Errorf("postgres: begin: %w", err)
	}
	defer tx.Rollback()
	return f(&txn{tx: tx})
}

// querier is what loading a record needs: a transaction, read or write,
// or the store's pool.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// txn is a transaction whose statements are written with SQLite's
// placeholders (rebind). A detached one runs its statements whatever
// their contexts say (a serial batch, where one caller giving up must not
// end the others' statements).
type txn struct {
	tx       *sql.Tx
	detached bool
}

func (t *txn) context(ctx context.Context) context.Context {
	if t.detached {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

func (t *txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = t.context(ctx)
	query, args = prepare(query, args)
	return t.tx.ExecContext(ctx, query, args...)
}

func (t *txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = t.context(ctx)
	query, args = prepare(query, args)
	return t.tx.QueryContext(ctx, query, args...)
}

func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = t.context(ctx)
	query, args = prepare(query, args)
	return t.tx.QueryRowContext(ctx, query, args...)
}

// boolInts turns bool arguments into 1 and 0: SQLite keeps flags as
// integers, and so do these tables, whose SQL compares them with 1 and 0.
// A bool column read back scans into a bool.
func boolInts(args []any) []any {
	var out []any
	for i, a := range args {
		b, ok := a.(bool)
		if !ok {
			continue
		}
		if out == nil {
			out = slices.Clone(args)
		}
		out[i] = 0
		if b {
			out[i] = 1
		}
	}
	if out == nil {
		return args
	}
	return out
}

// pool is the store's connections, for reads outside a transaction, with
// statements written as txn's are.
type pool struct{ db *sql.DB }

func (p *pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	query, args = prepare(query, args)
	return p.db.QueryContext(ctx, query, args...)
}

func (p *pool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	query, args = prepare(query, args)
	return p.db.QueryRowContext(ctx, query, args...)
}

// A statement is a query as PostgreSQL takes it, and how many arguments
// it names.
type statement struct {
	query string
	args  int
}

// rebound keeps rebind's answers: statements are a program's constants,
// or made from a few of them.
var rebound sync.Map

// rebind turns SQLite's placeholders into PostgreSQL's: "?N" is "$N", and
// a bare "?" is one more than the highest number before it, as SQLite
// numbers them. Question marks in quoted strings and identifiers stay.
// args is what the statement names: SQLite lets a call bind arguments the
// text never names (one list of arguments for several statements), which
// PostgreSQL refuses, so the callers drop those past it.
func rebind(query string) statement {
	if q, ok := rebound.Load(query); ok {
		return q.(statement)
	}
	var b strings.Builder
	highest := 0
	var quote byte
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			b.WriteByte(c)
		case c == '\'' || c == '"':
			quote = c
			b.WriteByte(c)
		case c == '?':
			j := i + 1
			for j < len(query) && query[j] >= '0' && query[j] <= '9' {
				j++
			}
			n := highest + 1
			if j > i+1 {
				n, _ = strconv.Atoi(query[i+1 : j])
			}
			highest = max(highest, n)
			b.WriteString("$" + strconv.Itoa(n))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	st := statement{b.String(), highest}
	rebound.Store(query, st)
	return st
}

// prepare is query rebound with the arguments it names, flags as integers
// (boolInts).
func prepare(query string, args []any) (string, []any) {
	st := rebind(query)
	if len(args) > st.args {
		args = args[:st.args]
	}
	return st.query, boolInts(args)
}

// Exec runs one statement outside the store's records, such as a test's
// cleanup; it is not part of any contract.
func (s *Store) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return s.db.ExecContext(ctx, query, args...)
}

// SchemaVersion returns how many migrations the schema has had: after
// Open, len(migrations), the same number as store/sqlite's user_version
// for the same tables.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.db.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("postgres: read schema version: %w", err)
	}
	return v, nil
}
