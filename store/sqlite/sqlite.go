// Package sqlite is the embedded store driver: a node's whole store in one
// SQLite database file, through modernc.org/sqlite (pure Go, no cgo), so a
// node needs no other service. Store implements the core contract,
// store.Store (store/store.go), and each face's beside it: ledger.Store
// (ledger/store.go), library.Store (library/store.go) and engine.Store
// (memory/engine/store.go); its tests run every face's conformance suite.
//
// The database runs in WAL mode with synchronous=FULL, so every commit is
// fsync'd before it returns, and foreign keys on. Writes go through one
// connection, one transaction at a time, which is what makes allocation
// (name numbers, invite codes, rate-limit slots) atomic; reads use a small
// pool of read-only connections, which WAL lets run beside the writer, and
// a connection of its own copies the WAL into the database file (see
// checkpointer). Every connection keeps its statements prepared
// (stmtcache.go). The schema is migrated in code on Open (PRAGMA
// user_version counts the migrations applied).
//
// One process opens a database at a time. Its SQL stays close to what
// PostgreSQL also runs (UPSERT ... RETURNING, partial indexes, savepoints,
// BIGINT times in Unix nanoseconds), so store/postgres shares most of it:
// what both run alike is written once, in store/sqlcommon.
//
// It keeps the records spec/ledger-protocol.md, library/contract.json and
// memory/memory-agent-ingress-v1.schema.json define.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// Config says where the database is and how to reach it.
type Config struct {
	// Path is the database file, made if missing. Its directory must
	// exist. SQLite keeps Path-wal and Path-shm beside it.
	Path string
	// BusyTimeout bounds how long a statement waits for a lock held by
	// another connection (a checkpoint, another process). Default 5s.
	BusyTimeout time.Duration
	// Readers is how many read-only connections run at once. Default 4.
	Readers int
}

// Store is a node's store in a SQLite database: a store.Store, a
// ledger.Store, a library.Store and an engine.Store.
type Store struct {
	path string
	w    *sql.DB // the one writer connection, used only by the writer goroutine
	r    *sql.DB // read-only connections
	ck   *sql.DB // the checkpointer's connection, used only by the checkpointer goroutine

	jobs      chan *job     // writes for the writer goroutine; unbuffered
	closing   chan struct{} // closed by Close
	closeOnce sync.Once
	stopped   chan struct{} // closed when the writer goroutine returns

	committed chan struct{} // the writer's nudges to the checkpointer; buffered 1
	ckStopped chan struct{} // closed when the checkpointer goroutine returns

	operators *operatorCache // Operator's records between reads

	sqlcommon.Shared // the methods store/postgres runs alike
}

// A job is one method's write: f runs in the writer's transaction, in a
// savepoint of its own, and done gets the outcome once the transaction
// holding it committed or failed.
type job struct {
	ctx     context.Context
	f       func(tx *sql.Tx) error
	durable bool
	done    chan error
}

// maxBatch bounds how many writes share one commit.
const maxBatch = 256

// walBackstop is the WAL's size, in pages, past which the writer
// checkpoints after a commit, as SQLite's automatic checkpoint does at
// 1,000 pages by default. The checkpointer copies the pages before that;
// the writer's checkpoint is what lets the WAL start over under constant
// load (see checkpointer), and bounds it (40 MB of 4 KB pages) if the
// checkpointer falls behind.
const walBackstop = 10000

// checkpointPause is the least time between the checkpointer's
// checkpoints: each costs two fsyncs, and a longer WAL between them
// copies a page written many times once.
const checkpointPause = 100 * time.Millisecond

var (
	_ store.Store   = (*Store)(nil)
	_ ledger.Store  = (*Store)(nil)
	_ library.Store = (*Store)(nil)
	_ engine.Store  = (*Store)(nil)
)

// Open opens the store in the database at cfg.Path, making and migrating it
// as needed.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Path == "" || strings.ContainsAny(cfg.Path, "?#") {
		return nil, fmt.Errorf("sqlite: invalid database path %q", cfg.Path)
	}
	if cfg.BusyTimeout <= 0 {
		cfg.BusyTimeout = 5 * time.Second
	}
	if cfg.Readers <= 0 {
		cfg.Readers = 4
	}
	pragmas := url.Values{}
	for _, p := range []string{
		fmt.Sprintf("busy_timeout(%d)", cfg.BusyTimeout.Milliseconds()),
		"journal_mode(WAL)",
		"synchronous(FULL)",
		"foreign_keys(1)",
	} {
		pragmas.Add("_pragma", p)
	}
	// Each write runs in a savepoint, and a page an earlier write of the
	// batch dirtied is copied to the savepoint's journal before it changes
	// again: in a temporary file that was two write(2)s a page, a quarter
	// of the writer's time. In memory it costs the batch's pages at most,
	// and a crash loses nothing the commit had not yet made durable.
	// The writer's page cache holds a full batch's dirty pages (16 MB; the
	// default 2 MB is less than 256 library contributions write): when
	// it fills mid-transaction SQLite spills pages to the WAL, and writes
	// them again at commit, which was a tenth of the writer's CPU.
	writer := pragmas.Encode() + "&_pragma=temp_store(MEMORY)&_pragma=cache_size(-16384)" +
		fmt.Sprintf("&_pragma=wal_autocheckpoint(%d)", walBackstop) + "&_txlock=immediate"
	w, err := openDB("file:" + cfg.Path + "?" + writer)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", cfg.Path, err)
	}
	ck, err := openDB("file:" + cfg.Path + "?" + pragmas.Encode())
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", cfg.Path, err)
	}
	for _, db := range []*sql.DB{w, ck} {
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	}
	s := &Store{path: cfg.Path, w: w, ck: ck, jobs: make(chan *job), closing: make(chan struct{}), stopped: make(chan struct{}),
		committed: make(chan struct{}, 1), ckStopped: make(chan struct{}), operators: newOperatorCache()}
	go s.writer()
	go s.checkpointer()
	if err := s.migrate(ctx); err != nil {
		s.stop()
		ck.Close()
		w.Close()
		return nil, err
	}
	pragmas.Add("_pragma", "query_only(1)")
	r, err := openDB("file:" + cfg.Path + "?" + pragmas.Encode())
	if err != nil {
		s.stop()
		ck.Close()
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", cfg.Path, err)
	}
	r.SetMaxOpenConns(cfg.Readers)
	r.SetMaxIdleConns(cfg.Readers)
	s.r = r
	s.Shared = s.shared()
	return s, nil
}

// openDB opens a pool of connections to dsn that keep their statements
// prepared (stmtcache.go).
func openDB(dsn string) (*sql.DB, error) {
	c, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(stmtConnector{c}), nil
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close waits for the writes under way, then closes the database,
// checkpointing the WAL into it. Writes after Close fail with ErrClosed.
func (s *Store) Close() error {
	s.stop()
	return errors.Join(s.r.Close(), s.ck.Close(), s.w.Close())
}

// ErrClosed is returned by writes to a closed Store.
var ErrClosed = errors.New("sqlite: store closed")

func (s *Store) stop() {
	s.closeOnce.Do(func() { close(s.closing) })
	<-s.stopped
	<-s.ckStopped
}

// migrations are applied in order, each in its own transaction; PRAGMA
// user_version says how many ran. A migration is never edited once
// released: a change is a new one.
var migrations = []string{
	// 1: the signed entries, operators, keys, names, identities, invites
	// and rate-limit events.
	`
CREATE TABLE signed (
	digest TEXT PRIMARY KEY,
	entry  BLOB NOT NULL,
	leaf   BLOB,
	idx    BIGINT UNIQUE,
	stored BIGINT NOT NULL
);
CREATE INDEX signed_unbound ON signed (stored) WHERE idx IS NULL;

CREATE TABLE operators (
	id             TEXT PRIMARY KEY,
	entry          TEXT NOT NULL REFERENCES signed (digest),
	name           TEXT NOT NULL,
	name_key       TEXT NOT NULL,
	name_number    BIGINT NOT NULL,
	key_families   TEXT NOT NULL,
	model          TEXT NOT NULL,
	model_families TEXT NOT NULL,
	registered     BIGINT NOT NULL,
	UNIQUE (name_key, name_number)
);

CREATE TABLE names (
	name_key TEXT PRIMARY KEY,
	last     BIGINT NOT NULL
);

CREATE TABLE keys (
	digest     TEXT PRIMARY KEY,
	key        TEXT NOT NULL,
	operator   TEXT NOT NULL REFERENCES operators (id),
	seq        BIGINT NOT NULL,
	entry      TEXT NOT NULL UNIQUE REFERENCES signed (digest),
	retired_by TEXT UNIQUE REFERENCES signed (digest),
	added      BIGINT NOT NULL,
	retired    BIGINT,
	UNIQUE (operator, seq)
);
CREATE UNIQUE INDEX keys_current ON keys (operator) WHERE retired_by IS NULL;

CREATE TABLE identities (
	operator     TEXT NOT NULL REFERENCES operators (id),
	kind         TEXT NOT NULL,
	organization TEXT NOT NULL,
	subject      TEXT NOT NULL,
	entry        TEXT NOT NULL UNIQUE REFERENCES signed (digest),
	invite       TEXT UNIQUE,
	added        BIGINT NOT NULL,
	PRIMARY KEY (operator, kind)
);
CREATE INDEX identities_organization ON identities (organization);

CREATE TABLE invites (
	digest       TEXT PRIMARY KEY,
	sponsor      TEXT NOT NULL REFERENCES operators (id),
	sponsor_key  TEXT NOT NULL,
	sponsor_sig  TEXT NOT NULL,
	organization TEXT NOT NULL,
	created      BIGINT NOT NULL,
	expires      BIGINT NOT NULL,
	used_by      TEXT REFERENCES operators (id),
	used_entry   TEXT UNIQUE REFERENCES signed (digest),
	used_at      BIGINT
);
CREATE INDEX invites_organization ON invites (organization, created);

CREATE TABLE rate_events (
	bucket  TEXT NOT NULL,
	at      BIGINT NOT NULL,
	expires BIGINT NOT NULL
);
CREATE INDEX rate_events_bucket ON rate_events (bucket, at);
CREATE INDEX rate_events_expires ON rate_events (expires);
`,
	// 2: bundles, their files and claims (with a full-text index of the
	// claims' statements), and large-data uploads.
	`
CREATE TABLE bundles (
	hash         TEXT PRIMARY KEY,
	operator     TEXT NOT NULL REFERENCES operators (id),
	key_digest   TEXT NOT NULL,
	entry        BLOB NOT NULL,
	entry_digest TEXT NOT NULL,
	sealed       TEXT NOT NULL UNIQUE REFERENCES signed (digest),
	salt         TEXT NOT NULL,
	fields       TEXT NOT NULL,
	replaces     TEXT,
	written_by   TEXT NOT NULL,
	at           BIGINT NOT NULL,
	revealed     TEXT UNIQUE REFERENCES signed (digest),
	withdrawal   TEXT UNIQUE REFERENCES signed (digest),
	reason       TEXT,
	void         TEXT UNIQUE REFERENCES signed (digest),
	withdrawn_at BIGINT
);
CREATE INDEX bundles_operator ON bundles (operator, at);
CREATE INDEX bundles_replaces ON bundles (replaces) WHERE replaces IS NOT NULL;
CREATE INDEX bundles_sealed_at ON bundles (at) WHERE revealed IS NULL AND withdrawal IS NULL;

CREATE TABLE bundle_files (
	bundle   TEXT NOT NULL REFERENCES bundles (hash),
	path     TEXT NOT NULL,
	digest   TEXT NOT NULL,
	size     BIGINT NOT NULL,
	uploaded INTEGER NOT NULL,
	PRIMARY KEY (bundle, path)
);
CREATE INDEX bundle_files_digest ON bundle_files (digest);

CREATE TABLE claims (
	seq       INTEGER PRIMARY KEY,
	id        TEXT NOT NULL,
	bundle    TEXT NOT NULL REFERENCES bundles (hash),
	position  INTEGER NOT NULL,
	local_id  TEXT NOT NULL,
	type      TEXT NOT NULL,
	statement TEXT NOT NULL,
	assertion TEXT NOT NULL,
	operator  TEXT NOT NULL,
	claim     BLOB NOT NULL,
	opened    BIGINT,
	withdrawn INTEGER NOT NULL DEFAULT 0,
	UNIQUE (bundle, position)
);
CREATE INDEX claims_id ON claims (id);
CREATE INDEX claims_assertion ON claims (assertion);
CREATE INDEX claims_opened ON claims (opened, position) WHERE opened IS NOT NULL AND withdrawn = 0;
CREATE INDEX claims_type ON claims (type, opened) WHERE opened IS NOT NULL AND withdrawn = 0;
CREATE INDEX claims_operator ON claims (operator, opened) WHERE opened IS NOT NULL AND withdrawn = 0;

-- What a claim can be found by besides its words: its bundle's fields,
-- the claims it depends on, and the IDs its bundle cites. opened is the
-- claim's, copied when its bundle opens, so a search by tag reads its
-- claims in the order pages take them (claim_tags_opened) and stops at
-- the page's end.
CREATE TABLE claim_tags (
	kind   TEXT NOT NULL,
	value  TEXT NOT NULL,
	claim  INTEGER NOT NULL REFERENCES claims (seq),
	opened BIGINT,
	PRIMARY KEY (kind, value, claim)
) WITHOUT ROWID;
CREATE INDEX claim_tags_claim ON claim_tags (claim);
CREATE INDEX claim_tags_opened ON claim_tags (kind, value, opened) WHERE opened IS NOT NULL;

CREATE VIRTUAL TABLE claim_words USING fts5 (statement, content = '', contentless_delete = 1, prefix = '1 2 3', tokenize = 'unicode61 remove_diacritics 2');

CREATE TABLE uploads (
	digest       TEXT NOT NULL,
	operator     TEXT NOT NULL,
	organization TEXT NOT NULL,
	size         BIGINT NOT NULL,
	requested    BIGINT NOT NULL,
	completed    BIGINT,
	PRIMARY KEY (digest, operator)
);
CREATE INDEX uploads_operator ON uploads (operator, requested);
CREATE INDEX uploads_organization ON uploads (organization, requested);
`,
	// 3: the library's contributions and their links. seq is the order
	// of admission; previous is unique, so a lineage stays a chain even
	// if a check were skipped; is_head marks each lineage's latest.
	`
CREATE TABLE contributions (
	seq          INTEGER PRIMARY KEY AUTOINCREMENT,
	id           TEXT NOT NULL UNIQUE,
	root         TEXT NOT NULL,
	previous     TEXT UNIQUE REFERENCES contributions (id),
	author       TEXT NOT NULL,
	kind         TEXT NOT NULL,
	title        TEXT NOT NULL,
	authored_at  BIGINT NOT NULL,
	admitted     BIGINT NOT NULL,
	envelope     BLOB NOT NULL,
	entry        TEXT NOT NULL UNIQUE REFERENCES signed (digest),
	is_head      INTEGER NOT NULL,
	text         TEXT NOT NULL,
	snippet      TEXT NOT NULL,
	node_type    TEXT,
	method       TEXT,
	verdict      TEXT,
	vote         INTEGER NOT NULL,
	subject      TEXT,
	contained_in TEXT
);
CREATE INDEX contributions_root ON contributions (root, seq);
CREATE INDEX contributions_heads ON contributions (kind, seq) WHERE is_head = 1;
CREATE INDEX contributions_author ON contributions (author, seq);
CREATE INDEX contributions_subject ON contributions (subject, seq) WHERE subject IS NOT NULL;
CREATE INDEX contributions_contained ON contributions (contained_in, seq) WHERE contained_in IS NOT NULL;

-- target_root is the root of the revision linked to, so reads can follow
-- a link to its lineage as well as to the exact revision.
CREATE TABLE contribution_links (
	source      INTEGER NOT NULL REFERENCES contributions (seq),
	position    INTEGER NOT NULL,
	relation    TEXT NOT NULL,
	target      TEXT NOT NULL,
	target_root TEXT NOT NULL,
	PRIMARY KEY (source, position)
) WITHOUT ROWID;
CREATE INDEX contribution_links_target ON contribution_links (target, relation);
CREATE INDEX contribution_links_target_root ON contribution_links (target_root, relation);

-- One vote lineage per author and target root.
CREATE TABLE library_votes (
	author TEXT NOT NULL,
	target TEXT NOT NULL,
	vote   TEXT NOT NULL REFERENCES contributions (id),
	PRIMARY KEY (author, target)
) WITHOUT ROWID;
`,
	// The personal lists' states and read nonces (library_personal.go).
	personalMigration,
	// The memory: adapters, profiles, events, sessions, records, receipts (memory.go).
	memoryMigration,
	// The catalogue's heads, vote sums and words, kept by triggers
	// (library_catalogue.go).
	catalogueMigration,
	// The library scopes an admin granted or denied (library.go).
	scopesMigration,
	// The binding hook an entry is marked with (signed.go, bundles.go).
	bindHookMigration,
	// The renames each operator's signed entries asked for (operators.go).
	nameChangesMigration,
	// Memory records belong to the adapter that wrote them, and the admin
	// may share one (memory.go).
	memoryOwnerMigration,
	// The verification loop: jobs, answers, declines, credit and
	// qualification (jobs.go).
	jobsMigration,
	// Checks of published bundles: check jobs' needs and importance
	// ratings (checks.go).
	checksMigration,
	// Answers found by their own entry digest (jobs.go).
	jobAnswersDigestMigration,
	// When the work following a bundle's opening was done (bundles.go).
	settledMigration,
	// Files entries other than bundles digest: evidence, notices, words
	// (bundles.go).
	keptFilesMigration,
	// Teams: their people, members' spans, moves, requests and bans
	// (teams.go).
	teamsMigration,
	// A person's side of identity: vouch consents, waiting vouches and
	// account requests (people.go).
	peopleMigration,
	// Vouched operators' requests for a new key, waiting for the voucher's
	// approval (recoveries.go).
	recoveryRequestsMigration,
	// The claims' words keyed in page order, for opened claims
	// (claimsearch.go).
	openedWordsMigration,
	// A stored head's catalogue terms written by AddContribution, not by
	// a trigger through JSON (library_catalogue.go).
	catalogueTermsMigration,
	// The count of importance ratings and the rating habits measured,
	// which processes sharing a store check their caches by (checks.go).
	ratingCacheMigration,
	// The records' change cursor, for processes sharing the store to
	// follow each other's writes (memory.go).
	memoryChangesMigration,
}

func (s *Store) migrate(ctx context.Context) error {
	var version int
	if err := s.w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("sqlite: read schema version: %w", err)
	}
	if version > len(migrations) {
		return fmt.Errorf("sqlite: %s has schema version %d, newer than this program's %d", s.path, version, len(migrations))
	}
	for i := version; i < len(migrations); i++ {
		err := s.write(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", i+1))
			return err
		})
		if err != nil {
			return fmt.Errorf("sqlite: migration %d: %w", i+1, err)
		}
	}
	return nil
}

// write runs f in the writer's next transaction and returns once that
// committed, fsync'd (synchronous=FULL). Writes run one at a time, in the
// order the writer takes them; writes that arrive together share one
// commit, each in a savepoint of its own, so one that fails leaves the
// others whole and a crash keeps all of them or none. A job whose context
// ends before it runs writes nothing; once it runs, write waits for its
// commit whatever the context, so what it reports is what happened.
func (s *Store) write(ctx context.Context, f func(tx *sql.Tx) error) error {
	return s.submit(ctx, f, true)
}

// lightWrite is write for writes a crash may lose (Take): a commit of only
// such writes skips the fsync (synchronous=NORMAL, which WAL keeps
// consistent), and the next durable commit makes them durable with its own.
func (s *Store) lightWrite(ctx context.Context, f func(tx *sql.Tx) error) error {
	return s.submit(ctx, f, false)
}

func (s *Store) submit(ctx context.Context, f func(tx *sql.Tx) error, durable bool) error {
	j := &job{ctx: ctx, f: f, durable: durable, done: make(chan error, 1)}
	select {
	case s.jobs <- j:
	case <-s.closing:
		return ErrClosed
	case <-ctx.Done():
		return fmt.Errorf("sqlite: %w", ctx.Err())
	}
	return <-j.done
}

// writer owns the writer connection: it takes the writes waiting, runs
// them in one transaction and commits it, until Close.
func (s *Store) writer() {
	defer close(s.stopped)
	for {
		var batch []*job
		select {
		case j := <-s.jobs:
			batch = append(batch, j)
		case <-s.closing:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case j := <-s.jobs:
				batch = append(batch, j)
			default:
				break more
			}
		}
		errs := s.commit(batch)
		for i, j := range batch {
			j.done <- errs[i]
		}
		select {
		case s.committed <- struct{}{}:
		default: // the checkpointer has a nudge waiting already
		}
	}
}

// checkpointer copies the WAL's pages into the database file beside the
// writer. Left to the writer, SQLite checkpoints every 1,000 pages inside
// a commit, so its page copies and two fsyncs held up every write behind
// it: under load, about as many fsyncs as the commits themselves. A
// PASSIVE checkpoint neither waits for the writer nor makes it wait; what
// it cannot copy yet (pages a reader still needs, or committed after it
// began), the next one does. Under constant load it never catches up with
// the WAL's end, so the WAL could not start over; the writer's own
// checkpoint at walBackstop pages, between transactions, copies the last
// pages so that it can. Checkpoints fsync the WAL before they copy and
// the database after, so a crash at any point loses nothing.
func (s *Store) checkpointer() {
	defer close(s.ckStopped)
	for {
		select {
		case <-s.committed:
		case <-s.closing:
			return
		}
		// A failed checkpoint leaves its pages in the WAL, where reads
		// find them and the next checkpoint copies them.
		s.ck.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
		select {
		case <-time.After(checkpointPause):
		case <-s.closing:
			return
		}
	}
}

// commit runs a batch of jobs in one transaction and returns each one's
// outcome.
func (s *Store) commit(batch []*job) []error {
	errs := make([]error, len(batch))
	all := func(err error) []error {
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	ctx := context.Background()
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return all(fmt.Errorf("sqlite: writer: %w", err))
	}
	defer conn.Close()
	durable := false
	for _, j := range batch {
		durable = durable || j.durable
	}
	if !durable {
		if _, err := conn.ExecContext(ctx, "PRAGMA synchronous = NORMAL"); err != nil {
			return all(fmt.Errorf("sqlite: writer: %w", err))
		}
		defer func() {
			// Back to fsync'ing every commit, or out of the pool: no
			// durable write may run on a connection left at NORMAL.
			if _, err := conn.ExecContext(ctx, "PRAGMA synchronous = FULL"); err != nil {
				conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return all(fmt.Errorf("sqlite: begin: %w", err))
	}
	ran := 0
	for i, j := range batch {
		if err := j.ctx.Err(); err != nil {
			errs[i] = fmt.Errorf("sqlite: %w", err)
			continue
		}
		if _, err := tx.ExecContext(ctx, "SAVEPOINT job"); err != nil {
			tx.Rollback()
			return all(fmt.Errorf("sqlite: savepoint: %w", err))
		}
		if errs[i] = j.f(tx); errs[i] != nil {
			if _, err := tx.ExecContext(ctx, "ROLLBACK TO job"); err != nil {
				// SQLite rolled the whole transaction back: every job
				// in it failed.
				tx.Rollback()
				return all(fmt.Errorf("sqlite: rollback to savepoint after %w: %w", errs[i], err))
			}
		} else {
			ran++
		}
		if _, err := tx.ExecContext(ctx, "RELEASE job"); err != nil {
			tx.Rollback()
			return all(fmt.Errorf("sqlite: release savepoint: %w", err))
		}
	}
	if ran == 0 {
		tx.Rollback()
		return errs
	}
	if err := tx.Commit(); err != nil {
		return all(fmt.Errorf("sqlite: commit: %w", err))
	}
	return errs
}

// read runs f in a read transaction, a snapshot of one moment.
func (s *Store) read(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	defer tx.Rollback()
	return f(tx)
}
