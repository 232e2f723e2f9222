package translog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	gomysql "github.com/go-sql-driver/mysql"
	"github.com/transparency-dev/tessera"
	"github.com/transparency-dev/tessera/api/layout"
	tmysql "github.com/transparency-dev/tessera/storage/mysql"
)

// tesseraSchema is storage/mysql/schema.sql of the Tessera version in
// go.mod, unchanged (TestTesseraSchemaIsTessera compares them): Tessera's
// driver reads these tables but leaves creating them to its caller.
//
//go:embed tessera_mysql_schema.sql
var tesseraSchema string

// agoraSchema holds what the tree-head and cosignature files hold for a
// log in a folder: one row per record, its line of the file (without the
// newline) in record. size is the primary key, so the database itself
// refuses a second tree head of a size; stamp is a tree head's timestamp
// in Unix milliseconds, which the publication's transaction checks never
// goes back (0 in agora_cosignatures).
const agoraSchema = "CREATE TABLE IF NOT EXISTS `agora_tree_heads` (" +
	" `size` BIGINT UNSIGNED NOT NULL," +
	" `stamp` BIGINT NOT NULL," +
	" `record` MEDIUMBLOB NOT NULL," +
	" PRIMARY KEY (`size`)" +
	") ENGINE=InnoDB;\n" +
	"CREATE TABLE IF NOT EXISTS `agora_cosignatures` (" +
	" `size` BIGINT UNSIGNED NOT NULL," +
	" `stamp` BIGINT NOT NULL," +
	" `record` MEDIUMBLOB NOT NULL," +
	" PRIMARY KEY (`size`)" +
	") ENGINE=InnoDB;\n"

// Tables in the log's database: Tessera's, then this package's.
var mysqlTables = []string{"Tessera", "Checkpoint", "TreeState", "Subtree", "TiledLeaves", "agora_tree_heads", "agora_cosignatures", "agora_claims"}

// mysqlConns bounds the log's connections to the server (whose default
// max_connections is 151), which reads of tiles would otherwise open one
// per request in flight. It can be this low because no connection is held
// while waiting for another: Tessera's publication holds one while the
// log reads tiles and writes the tree head on others, its sequencing one
// more, the named lock one.
const mysqlConns = 24

// mysqlTimeout bounds one write of a record, which has no caller's context.
const mysqlTimeout = 30 * time.Second

// MySQLScheme begins the URL form of a log in MySQL, as agora serve --log
// takes it: mysql://user:password@tcp(host:port)/database, which is
// "mysql://" and the DSN Config.MySQL takes.
const MySQLScheme = "mysql://"

// ParseMySQLURL returns the Config.MySQL DSN of a mysql:// URL (see
// MySQLScheme). Its error never repeats the URL, which holds a password.
func ParseMySQLURL(u string) (string, error) {
	dsn, ok := strings.CutPrefix(u, MySQLScheme)
	if !ok {
		return "", errors.New("translog: not a " + MySQLScheme + " URL: use " + MySQLScheme + "user:password@tcp(host:3306)/database")
	}
	if err := checkMySQLDSN(dsn); err != nil {
		return "", fmt.Errorf("translog: the %s URL %w", MySQLScheme, err)
	}
	return dsn, nil
}

// RedactMySQL returns a mysql:// URL or DSN with its password replaced,
// for errors and logs.
func RedactMySQL(u string) string {
	scheme := ""
	dsn := u
	if rest, ok := strings.CutPrefix(u, MySQLScheme); ok {
		scheme, dsn = MySQLScheme, rest
	}
	c, err := gomysql.ParseDSN(dsn)
	if err != nil {
		return "(a MySQL connection string)"
	}
	if c.Passwd != "" {
		c.Passwd = "xxxxx"
	}
	return scheme + c.FormatDSN()
}

// checkMySQLDSN reports what is wrong with a Config.MySQL DSN, without
// repeating it (it holds a password).
func checkMySQLDSN(dsn string) error {
	c, err := gomysql.ParseDSN(dsn)
	if err != nil {
		return errors.New("is not a MySQL DSN such as user:password@tcp(host:3306)/database")
	}
	if c.DBName == "" {
		return errors.New("names no database: user:password@tcp(host:3306)/database")
	}
	return nil
}

// mysqlBackend is the log in a MySQL or MariaDB database: Tessera's MySQL
// driver and the agora_ tables, with a named lock (GET_LOCK) held on a
// connection of its own for as long as the Log is open, which the server
// drops if the process dies.
type mysqlBackend struct {
	db       *sql.DB
	label    string // "MySQL database <name> at <address>", for errors
	dbName   string
	isShared bool      // Config.Shared: lockName is one of sharedSlots
	slot     int       // with isShared, which one
	lockName string    // the named lock lock holds
	lock     *sql.Conn // owned by the watching goroutine once it runs
	storage  *tmysql.Storage
	maxLeaf  int // see readMaxLeaf

	// stopWatch and watchDone stop and wait for the goroutine watching
	// the lock (see watchLock); nil until it starts.
	stopWatch, watchDone chan struct{}
}

// lockCheckEvery is how often a MySQL log checks it still holds its named
// lock. Tests lower it.
var lockCheckEvery = 5 * time.Second

func openMySQL(ctx context.Context, dsn string, shared bool) (_ *mysqlBackend, err error) {
	c, err := gomysql.ParseDSN(dsn)
	if err != nil {
		return nil, &ConfigError{Field: "MySQL", Issue: "is not a MySQL DSN"}
	}
	if c.Timeout == 0 {
		c.Timeout = 10 * time.Second // dialling
	}
	conn, err := gomysql.NewConnector(c)
	if err != nil {
		return nil, fmt.Errorf("translog: MySQL: %w", err)
	}
	db := sql.OpenDB(conn)
	db.SetMaxOpenConns(mysqlConns)
	db.SetMaxIdleConns(mysqlConns)
	b := &mysqlBackend{db: db, label: fmt.Sprintf("MySQL database %s at %s", c.DBName, c.Addr)}
	defer func() {
		if err != nil {
			b.close()
		}
	}()
	if b.lock, err = b.db.Conn(ctx); err != nil {
		return nil, fmt.Errorf("translog: connecting to the %s: %w", b.label, err)
	}
	b.dbName, b.isShared = c.DBName, shared
	if shared {
		err = b.lockShared(ctx)
	} else {
		err = b.lockExclusive(ctx)
	}
	if err != nil {
		return nil, err
	}
	if err := b.checkDurable(ctx); err != nil {
		return nil, err
	}
	if err := b.readMaxLeaf(ctx); err != nil {
		return nil, err
	}
	if err := b.createTables(ctx); err != nil {
		return nil, err
	}
	if shared {
		if err := b.clearClaims(ctx); err != nil {
			return nil, err
		}
	}
	if b.storage, err = tmysql.New(ctx, b.db); err != nil {
		return nil, fmt.Errorf("translog: starting Tessera on the %s: %w", b.label, err)
	}
	return b, nil
}

// openLockWait is how long Open waits for the database's named lock
// (seconds, as GET_LOCK takes it): a process killed a moment ago holds it
// until the server notices its connection is gone, which on a loaded
// machine takes seconds, and a node restarted after a crash must not fail
// for that.
const openLockWait = 10

// takeLock takes the log's named lock on conn, waiting up to wait
// seconds, or fails with ErrLocked if another connection holds it.
func (b *mysqlBackend) takeLock(ctx context.Context, conn *sql.Conn, wait int) error {
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, ?)", b.lockName, wait).Scan(&got); err != nil {
		return fmt.Errorf("translog: locking the %s: %w", b.label, err)
	}
	if !got.Valid || got.Int64 != 1 {
		return fmt.Errorf("translog: %s: %w", b.label, ErrLocked)
	}
	return nil
}

// watchLock checks every lockCheckEvery that the log still holds its named
// lock, which the server drops with the connection (a restart, a killed
// connection). It takes the lock again on a new connection when it can;
// when another process took it meanwhile, it calls lost once and stops.
// While the server is unreachable it keeps trying: nothing is published
// then either.
func (b *mysqlBackend) watchLock(lost func(error)) {
	b.stopWatch, b.watchDone = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(b.watchDone)
		t := time.NewTicker(lockCheckEvery)
		defer t.Stop()
		for {
			select {
			case <-b.stopWatch:
				return
			case <-t.C:
			}
			if err := b.checkLock(); errors.Is(err, ErrLocked) {
				lost(err)
				return
			}
		}
	}()
}

// checkLock checks the lock is held, and takes it again if it is not.
func (b *mysqlBackend) checkLock() error {
	ctx, cancel := context.WithTimeout(context.Background(), mysqlTimeout)
	defer cancel()
	var held sql.NullInt64
	err := b.lock.QueryRowContext(ctx, "SELECT IS_USED_LOCK(?) = CONNECTION_ID()", b.lockName).Scan(&held)
	if err == nil && held.Valid && held.Int64 == 1 {
		return nil
	}
	conn, err := b.db.Conn(ctx)
	if err != nil {
		return err // the server is away: try again at the next tick
	}
	if err := b.takeLock(ctx, conn, 0); err != nil {
		conn.Close()
		return err
	}
	b.lock.Close()
	b.lock = conn
	return nil
}

// sharedSlots is how many shared Logs (Config.Shared) may run on one
// database at once: each holds one slot's named lock, which a Log that
// does not share the database checks are all free. MySQL has no shared
// named lock, and no way to list the names held.
const sharedSlots = 16

func slotName(db string, i int) string { return lockNameFor(fmt.Sprintf("%s#%d", db, i)) }

// lockExclusive takes the database's named lock, then checks no shared
// Log holds a slot. A shared Log takes its slot first and checks the
// named lock after, so of two starting at once at least one sees the
// other.
func (b *mysqlBackend) lockExclusive(ctx context.Context) error {
	b.lockName = lockNameFor(b.dbName)
	if err := b.takeLock(ctx, b.lock, openLockWait); err != nil {
		return err
	}
	query := "SELECT "
	var names []any
	for i := range sharedSlots {
		if i > 0 {
			query += " OR "
		}
		query += "IS_USED_LOCK(?) IS NOT NULL"
		names = append(names, slotName(b.dbName, i))
	}
	var used bool
	if err := b.lock.QueryRowContext(ctx, query, names...).Scan(&used); err != nil {
		return fmt.Errorf("translog: locking the %s: %w", b.label, err)
	}
	if used {
		return fmt.Errorf("translog: %s: shared Logs (Config.Shared) have it open: %w", b.label, ErrLocked)
	}
	return nil
}

// lockShared takes the first free slot, then checks no Log that does not
// share the database holds its named lock.
func (b *mysqlBackend) lockShared(ctx context.Context) error {
	for i := range sharedSlots {
		b.lockName, b.slot = slotName(b.dbName, i), i
		err := b.takeLock(ctx, b.lock, 0)
		if err == nil {
			break
		}
		if !errors.Is(err, ErrLocked) {
			return err
		}
		if i == sharedSlots-1 {
			return fmt.Errorf("translog: %s: %d shared Logs have it open already: %w", b.label, sharedSlots, ErrLocked)
		}
	}
	var free sql.NullInt64
	if err := b.lock.QueryRowContext(ctx, "SELECT IS_FREE_LOCK(?)", lockNameFor(b.dbName)).Scan(&free); err != nil {
		return fmt.Errorf("translog: locking the %s: %w", b.label, err)
	}
	if free.Int64 != 1 {
		return fmt.Errorf("translog: %s: a Log that does not share it has it open: %w", b.label, ErrLocked)
	}
	return nil
}

func (b *mysqlBackend) shared() bool { return b.isShared }

// takeCosigning takes the named lock that lets one shared Log at a time
// ask the witnesses, on a connection of its own; held reports whether the
// connection still holds it. A Log that does not share the database holds
// it with the database.
func (b *mysqlBackend) takeCosigning(ctx context.Context) (held func(context.Context) bool, release func(), err error) {
	if !b.isShared {
		return func(context.Context) bool { return true }, func() {}, nil
	}
	conn, err := b.db.Conn(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("translog: connecting to the %s: %w", b.label, err)
	}
	name := lockNameFor(b.dbName + "#cosign")
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, 0)", name).Scan(&got); err != nil || got.Int64 != 1 {
		conn.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("translog: locking cosigning in the %s: %w", b.label, err)
		}
		return nil, nil, nil // another Log cosigns
	}
	held = func(ctx context.Context) bool {
		var mine sql.NullInt64
		err := conn.QueryRowContext(ctx, "SELECT IS_USED_LOCK(?) = CONNECTION_ID()", name).Scan(&mine)
		return err == nil && mine.Int64 == 1
	}
	return held, func() { releaseOn(conn, name) }, nil
}

// takeTurn waits for the named lock of the append turn (see Log.Turn) on
// a connection of its own.
func (b *mysqlBackend) takeTurn(ctx context.Context) (func(), error) {
	if !b.isShared {
		return func() {}, nil
	}
	conn, err := b.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("translog: connecting to the %s: %w", b.label, err)
	}
	name := lockNameFor(b.dbName + "#turn")
	for {
		var got sql.NullInt64
		if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, 10)", name).Scan(&got); err != nil {
			releaseOn(conn, name)
			return nil, fmt.Errorf("translog: waiting for the append turn in the %s: %w", b.label, err)
		}
		if got.Int64 == 1 {
			return func() { releaseOn(conn, name) }, nil
		}
		// Ten seconds passed with another Log holding the turn: ask again.
	}
}

// releaseOn releases the named lock name held on conn and gives conn
// back. Conn.Close alone hands the connection back to the pool, lock and
// all; when RELEASE_LOCK fails, ErrBadConn from Raw closes the connection,
// which drops the lock.
func releaseOn(conn *sql.Conn, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), mysqlTimeout)
	defer cancel()
	if _, err := conn.ExecContext(ctx, "DO RELEASE_LOCK(?)", name); err != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	conn.Close()
}

// lockNameFor is the named lock of a database's log; the server allows
// 64 characters.
func lockNameFor(db string) string {
	name := "agora.translog." + db
	if len(name) > 64 {
		sum := sha256.Sum256([]byte(db))
		name = "agora.translog." + hex.EncodeToString(sum[:])[:40]
	}
	return name
}

// checkDurable refuses a server that does not flush its redo log at every
// commit: an acknowledged entry or tree head must survive the server's
// crash, as the POSIX log's fsyncs make it survive the machine's.
func (b *mysqlBackend) checkDurable(ctx context.Context) error {
	var flush string
	if err := b.db.QueryRowContext(ctx, "SELECT @@innodb_flush_log_at_trx_commit").Scan(&flush); err != nil {
		return fmt.Errorf("translog: reading the %s's settings: %w", b.label, err)
	}
	if flush != "1" {
		return fmt.Errorf("translog: the %s has innodb_flush_log_at_trx_commit=%s, which loses committed writes in a crash: set it to 1 (the default)", b.label, flush)
	}
	return nil
}

// minPacket is the least max_allowed_packet Open accepts: MariaDB's
// default, which bounds a leaf a few bytes below MaxLeafSize.
const minPacket = 16 << 20

// packetSlack is what a packet holds besides an entry bundle: the
// statement and its other arguments.
const packetSlack = 4096

// readMaxLeaf bounds leaves by the server's max_allowed_packet: Tessera
// writes an entry bundle, up to 256 leaves with two bytes of length each,
// as one value in one packet, and a server that refuses the packet
// refuses every batch that completes that bundle. MariaDB 10.11's default
// of 16 MiB is 256 bytes short of 256 leaves of MaxLeafSize, so there the
// bound is MaxLeafSize less 17 bytes; MySQL 8's default of 64 MiB leaves
// MaxLeafSize as it is.
func (b *mysqlBackend) readMaxLeaf(ctx context.Context) error {
	var packet int64
	if err := b.db.QueryRowContext(ctx, "SELECT @@max_allowed_packet").Scan(&packet); err != nil {
		return fmt.Errorf("translog: reading the %s's settings: %w", b.label, err)
	}
	if packet < minPacket {
		return fmt.Errorf("translog: the %s has max_allowed_packet=%d, too small for a bundle of 256 entries: set it to at least 16M", b.label, packet)
	}
	b.maxLeaf = int(min(MaxLeafSize, (packet-packetSlack)/layout.EntryBundleWidth-2))
	return nil
}

func (b *mysqlBackend) maxLeafSize() int { return b.maxLeaf }

// createTables creates Tessera's tables and this package's if they are
// missing, and checks they are all InnoDB: Tessera's driver and the
// tree-head table rely on transactions and row locks.
func (b *mysqlBackend) createTables(ctx context.Context) error {
	for _, stmt := range sqlStatements(tesseraSchema + agoraSchema + claimsSchema) {
		if _, err := b.db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("translog: creating the log's tables in the %s: %w", b.label, err)
		}
	}
	rows, err := b.db.QueryContext(ctx, "SELECT TABLE_NAME, ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()")
	if err != nil {
		return fmt.Errorf("translog: reading the %s's tables: %w", b.label, err)
	}
	defer rows.Close()
	engines := map[string]string{}
	for rows.Next() {
		var name string
		var engine sql.NullString
		if err := rows.Scan(&name, &engine); err != nil {
			return fmt.Errorf("translog: reading the %s's tables: %w", b.label, err)
		}
		engines[name] = engine.String
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("translog: reading the %s's tables: %w", b.label, err)
	}
	for _, t := range mysqlTables {
		if !strings.EqualFold(engines[t], "InnoDB") {
			return fmt.Errorf("translog: table %s in the %s is %q, not InnoDB, whose transactions the log relies on", t, b.label, engines[t])
		}
	}
	return nil
}

// sqlStatements splits a schema into statements, leaving out comment lines.
func sqlStatements(schema string) []string {
	var kept []string
	for _, line := range strings.Split(schema, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			kept = append(kept, line)
		}
	}
	var stmts []string
	for _, stmt := range strings.Split(strings.Join(kept, "\n"), ";") {
		if stmt = strings.TrimSpace(stmt); stmt != "" {
			stmts = append(stmts, stmt)
		}
	}
	return stmts
}

func (b *mysqlBackend) where() string { return b.label }

func (b *mysqlBackend) driver(context.Context) (tessera.Driver, error) { return b.storage, nil }

func (b *mysqlBackend) tesseraCheckpoint(ctx context.Context) ([]byte, error) {
	return b.storage.ReadCheckpoint(ctx)
}

// tile and bundle read Tessera's one row per tile, which it rewrites as
// the tile grows: it holds at least width entries once the tree does.
func (b *mysqlBackend) tile(ctx context.Context, level, index uint64, width uint8) ([]byte, error) {
	data, err := b.storage.ReadTile(ctx, level, index, width)
	if err != nil {
		return nil, fmt.Errorf("translog: reading tile %d/%d from the %s: %w", level, index, b.label, err)
	}
	return data, nil
}

func (b *mysqlBackend) bundle(ctx context.Context, index uint64, width uint8) ([]byte, error) {
	data, err := b.storage.ReadEntryBundle(ctx, index, width)
	if err != nil {
		return nil, fmt.Errorf("translog: reading entry bundle %d from the %s: %w", index, b.label, err)
	}
	return data, nil
}

func (b *mysqlBackend) openHeads() (records[published], error) {
	r := &sqlRecords[published]{
		db: b.db, table: "agora_tree_heads", what: "tree-head table",
		parse: parseRecord, format: formatRecord,
		sizeOf: func(p published) uint64 { return p.head.Size },
		stampOf: func(p published) (int64, error) {
			t, err := p.head.Time()
			return t.UnixMilli(), err
		},
	}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

func (b *mysqlBackend) openCosignatures() (records[cosigned], error) {
	r := &sqlRecords[cosigned]{
		db: b.db, table: "agora_cosignatures", what: "cosignature table",
		parse: parseCosigned, format: formatCosigned,
		sizeOf:   func(c cosigned) uint64 { return c.size },
		replaces: true,
	}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

func (b *mysqlBackend) close() error {
	var errs []error
	if b.stopWatch != nil {
		close(b.stopWatch)
		<-b.watchDone
	}
	if b.lock != nil {
		// Released at once, so a Log opened right after finds it free:
		// the server drops a closed connection's locks only once it has
		// noticed the close.
		releaseOn(b.lock, b.lockName)
	}
	errs = append(errs, b.db.Close())
	return errors.Join(errs...)
}

// sqlRecords keeps records in a table of (size, stamp, record), with the
// contract of recordFile: an append is durable once it returns nil (InnoDB
// flushes its redo log at commit; checkDurable sees to that), and on an
// error the table is as before or, if the commit's answer was lost, holds
// the record, which the next append finds. find and latest are safe to call
// concurrently with each other and with append.
type sqlRecords[T any] struct {
	db     *sql.DB
	table  string
	what   string
	parse  func(line []byte) (T, error)
	format func(T) ([]byte, error)
	sizeOf func(T) uint64
	// stampOf, if set, is a record's timestamp, which may not go back
	// from one record to the next.
	stampOf func(T) (int64, error)
	// replaces allows a record of the last record's size, replacing it.
	replaces bool

	appendMu sync.Mutex // serializes appends in this process
	// mu guards the fields below it.
	mu     sync.Mutex
	last   *T // the record of the largest size; nil while there is none
	closed bool
}

// queryer is a *sql.DB or *sql.Tx.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *sqlRecords[T]) open() error { return s.refresh() }

// refresh reads the last row, which a commit whose answer was lost (or
// another writer) may have stored without this process knowing.
func (s *sqlRecords[T]) refresh() error {
	ctx, cancel := context.WithTimeout(context.Background(), mysqlTimeout)
	defer cancel()
	last, _, err := s.lastRow(ctx, s.db, false)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if last != nil && (s.last == nil || s.sizeOf(*s.last) < s.sizeOf(*last)) {
		s.last = last
	}
	return nil
}

// lastRow reads the record of the largest size and its stamp; nil if the
// table is empty. forUpdate locks it, and the gap after it, until q's
// transaction ends, so no other writer appends meanwhile.
func (s *sqlRecords[T]) lastRow(ctx context.Context, q queryer, forUpdate bool) (*T, int64, error) {
	query := "SELECT `stamp`, `record` FROM `" + s.table + "` ORDER BY `size` DESC LIMIT 1"
	if forUpdate {
		query += " FOR UPDATE"
	}
	var stamp int64
	var line []byte
	err := q.QueryRowContext(ctx, query).Scan(&stamp, &line)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("translog: reading the %s: %w", s.what, err)
	}
	rec, err := s.parse(line)
	if err != nil {
		return nil, 0, corrupt("%s, the last record: %w", s.what, err)
	}
	return &rec, stamp, nil
}

func (s *sqlRecords[T]) name() string { return s.table }

func (s *sqlRecords[T]) brokenErr() error { return nil } // a failed write leaves nothing to undo

func (s *sqlRecords[T]) latest() (T, bool) { return lastUnder(&s.mu, &s.last) }

// append stores rec in one transaction that first locks the last row, so
// the checks below it hold against every writer of the database: rec's
// size follows the last one (the primary key refuses a repeated size
// too), and its stamp is not before the last one's.
func (s *sqlRecords[T]) append(rec T) error {
	line, err := s.format(rec)
	if err != nil {
		return err
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	var stamp int64
	if s.stampOf != nil {
		if stamp, err = s.stampOf(rec); err != nil {
			return err
		}
	}
	s.appendMu.Lock()
	defer s.appendMu.Unlock()
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return fmt.Errorf("translog: %s: %w", s.what, ErrClosed)
	}

	ctx, cancel := context.WithTimeout(context.Background(), mysqlTimeout)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("translog: writing the %s: %w", s.what, err)
	}
	defer tx.Rollback()
	stored, storedStamp, err := s.lastRow(ctx, tx, true)
	if err != nil {
		return err
	}
	if stored != nil {
		s.mu.Lock()
		behind := s.last == nil || s.sizeOf(*s.last) < s.sizeOf(*stored)
		if behind {
			s.last = stored // a commit whose answer was lost, or another writer
		}
		s.mu.Unlock()
		size, last := s.sizeOf(rec), s.sizeOf(*stored)
		if size < last || size == last && !s.replaces {
			return fmt.Errorf("translog: %s: a record of size %d after one of %d", s.what, size, last)
		}
		if s.stampOf != nil && stamp < storedStamp {
			return fmt.Errorf("translog: %s: a record stamped %d after one stamped %d", s.what, stamp, storedStamp)
		}
	}
	insert := "INSERT INTO `" + s.table + "` (`size`, `stamp`, `record`) VALUES (?, ?, ?)"
	if s.replaces {
		insert = "REPLACE INTO `" + s.table + "` (`size`, `stamp`, `record`) VALUES (?, ?, ?)"
	}
	if _, err := tx.ExecContext(ctx, insert, s.sizeOf(rec), stamp, line); err != nil {
		return fmt.Errorf("translog: writing the %s: %w", s.what, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("translog: committing the %s: %w", s.what, err)
	}
	s.mu.Lock()
	s.last = &rec
	s.mu.Unlock()
	return nil
}

func (s *sqlRecords[T]) find(size uint64) (T, error) {
	var zero T
	s.mu.Lock()
	last, closed := s.last, s.closed
	s.mu.Unlock()
	switch {
	case closed:
		return zero, fmt.Errorf("translog: %s: %w", s.what, ErrClosed)
	case last == nil || size > s.sizeOf(*last):
		return zero, notFound("%s: no record of size %d", s.what, size)
	case size == s.sizeOf(*last):
		return *last, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), mysqlTimeout)
	defer cancel()
	var line []byte
	err := s.db.QueryRowContext(ctx, "SELECT `record` FROM `"+s.table+"` WHERE `size` = ?", size).Scan(&line)
	if errors.Is(err, sql.ErrNoRows) {
		return zero, notFound("%s: no record of size %d", s.what, size)
	}
	if err != nil {
		return zero, fmt.Errorf("translog: reading the %s: %w", s.what, err)
	}
	rec, err := s.parse(line)
	if err != nil {
		return zero, corrupt("%s, record of size %d: %w", s.what, size, err)
	}
	return rec, nil
}

func (s *sqlRecords[T]) lastWhere(limit int, ok func(T) bool) (T, bool, error) {
	var found *T
	err := s.scan("ORDER BY `size` DESC LIMIT ?", []any{limit}, func(rec T) bool {
		if ok(rec) {
			found = &rec
		}
		return found == nil
	})
	if err != nil || found == nil {
		var zero T
		return zero, false, err
	}
	return *found, true, nil
}

func (s *sqlRecords[T]) each(fn func(T) error) error {
	var fnErr error
	err := s.scan("ORDER BY `size`", nil, func(rec T) bool {
		fnErr = fn(rec)
		return fnErr == nil
	})
	return errors.Join(err, fnErr)
}

// scan calls more with the records the query's tail picks, in its order,
// until more returns false.
func (s *sqlRecords[T]) scan(tail string, args []any, more func(T) bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), mysqlTimeout)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, "SELECT `size`, `record` FROM `"+s.table+"` "+tail, args...)
	if err != nil {
		return fmt.Errorf("translog: reading the %s: %w", s.what, err)
	}
	defer rows.Close()
	for rows.Next() {
		var size uint64
		var line []byte
		if err := rows.Scan(&size, &line); err != nil {
			return fmt.Errorf("translog: reading the %s: %w", s.what, err)
		}
		rec, err := s.parse(line)
		if err != nil {
			return corrupt("%s, record of size %d: %w", s.what, size, err)
		}
		if !more(rec) {
			return nil
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("translog: reading the %s: %w", s.what, err)
	}
	return nil
}

func (s *sqlRecords[T]) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}
