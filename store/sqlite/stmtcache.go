package sqlite

import (
	"container/list"
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
)

// The statement cache.
//
// database/sql runs tx.QueryRowContext(ctx, query, ...) by asking the
// driver to prepare query, run it once and finalize it, so SQLite parsed
// and planned every statement on every call: a quarter of a busy writer's
// time (a contribution's insert also compiles its catalogue triggers). A cachedConn keeps the statements run on it prepared, by
// their SQL text, so a statement is parsed once per connection and later
// runs only bind, step and reset. The store's code runs SQL as before;
// nothing above the driver knows.
//
// SQLite re-prepares a cached statement itself if the schema changed
// under it (sqlite3_prepare_v2), so a migration needs no invalidation.
// Only queries, DML and savepoints are cached: PRAGMAs, DDL and
// migration scripts run once or rarely, and would only push the hot
// statements out.

// stmtCacheSize bounds the statements each connection keeps prepared; the
// least recently used goes first. The package's SQL is a fixed set of a
// few hundred texts (the catalogue's vary with the number of words and
// filters), and one prepared statement costs a few kilobytes.
const stmtCacheSize = 256

// stmtConnector opens connections through inner and wraps each in a
// cachedConn.
type stmtConnector struct{ inner driver.Connector }

func (c stmtConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	for _, need := range []bool{
		implements[driver.ConnBeginTx](conn), implements[driver.ConnPrepareContext](conn),
		implements[driver.ExecerContext](conn), implements[driver.QueryerContext](conn),
	} {
		if !need {
			conn.Close()
			return nil, fmt.Errorf("sqlite: driver connection %T lacks a context method the statement cache needs", conn)
		}
	}
	return &cachedConn{inner: conn, stmts: map[string]*list.Element{}, lru: list.New()}, nil
}

func (c stmtConnector) Driver() driver.Driver { return c.inner.Driver() }

func implements[T any](v any) bool { _, ok := v.(T); return ok }

// cachedConn is a driver connection that keeps the statements run on it
// prepared. database/sql uses a connection from one goroutine at a time,
// so it needs no lock.
type cachedConn struct {
	inner driver.Conn
	stmts map[string]*list.Element // of *cachedStmt, by SQL text
	lru   *list.List               // most recently used first
}

// cachedStmt is a statement prepared on a cachedConn.
type cachedStmt struct {
	query string
	stmt  driver.Stmt
	// busy is set while rows it returned are open: running it again then
	// would reset them under their reader, so a nested run of the same SQL
	// goes unprepared.
	busy bool
	// evicted is set when it left the cache while busy: closing its rows
	// finalizes it.
	evicted bool
}

var (
	_ driver.Conn               = (*cachedConn)(nil)
	_ driver.ConnBeginTx        = (*cachedConn)(nil)
	_ driver.ConnPrepareContext = (*cachedConn)(nil)
	_ driver.ExecerContext      = (*cachedConn)(nil)
	_ driver.QueryerContext     = (*cachedConn)(nil)
	_ driver.Pinger             = (*cachedConn)(nil)
	_ driver.SessionResetter    = (*cachedConn)(nil)
	_ driver.Validator          = (*cachedConn)(nil)
)

// cached returns query's statement, prepared on first use, or nil when
// it is not to be cached or is busy: the caller then runs query
// unprepared.
func (c *cachedConn) cached(ctx context.Context, query string) (*cachedStmt, error) {
	if !cacheable(query) {
		return nil, nil
	}
	if e, ok := c.stmts[query]; ok {
		s := e.Value.(*cachedStmt)
		if s.busy {
			return nil, nil
		}
		c.lru.MoveToFront(e)
		return s, nil
	}
	ds, err := c.inner.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if !implements[driver.StmtExecContext](ds) || !implements[driver.StmtQueryContext](ds) {
		ds.Close()
		return nil, nil
	}
	if c.lru.Len() >= stmtCacheSize {
		c.evict(c.lru.Back())
	}
	s := &cachedStmt{query: query, stmt: ds}
	c.stmts[query] = c.lru.PushFront(s)
	return s, nil
}

// cacheable reports whether query's first word makes it a statement worth
// keeping prepared and safe to rerun as prepared.
func cacheable(query string) bool {
	query = strings.TrimLeft(query, " \t\r\n")
	end := strings.IndexAny(query, " \t\r\n(")
	if end < 0 {
		end = len(query)
	}
	switch strings.ToUpper(query[:end]) {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "SAVEPOINT", "RELEASE", "ROLLBACK":
		return true
	}
	return false
}

func (c *cachedConn) evict(e *list.Element) {
	s := c.lru.Remove(e).(*cachedStmt)
	delete(c.stmts, s.query)
	if s.busy {
		s.evicted = true
		return
	}
	s.stmt.Close()
}

// ExecContext implements driver.ExecerContext.
func (c *cachedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s, err := c.cached(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.inner.(driver.ExecerContext).ExecContext(ctx, query, args)
	}
	return s.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

// QueryContext implements driver.QueryerContext.
func (c *cachedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s, err := c.cached(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.inner.(driver.QueryerContext).QueryContext(ctx, query, args)
	}
	rows, err := s.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	s.busy = true
	return &cachedRows{Rows: rows, s: s}, nil
}

// cachedRows are a cached statement's rows; closing them frees the
// statement for its next run.
type cachedRows struct {
	driver.Rows
	s *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	if s := r.s; s != nil {
		r.s = nil
		s.busy = false
		if s.evicted {
			err = errors.Join(err, s.stmt.Close())
		}
	}
	return err
}

// PrepareContext implements driver.ConnPrepareContext. A statement the
// caller prepares is its own to close, so it is not cached.
func (c *cachedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.inner.(driver.ConnPrepareContext).PrepareContext(ctx, query)
}

// Prepare implements driver.Conn.
func (c *cachedConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// BeginTx implements driver.ConnBeginTx.
func (c *cachedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.inner.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

// Begin implements driver.Conn.
//
// Deprecated: database/sql calls BeginTx.
func (c *cachedConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// Close finalizes the cached statements, which SQLite needs before it
// closes the connection cleanly, then closes it.
func (c *cachedConn) Close() error {
	var errs []error
	for e := c.lru.Front(); e != nil; e = e.Next() {
		errs = append(errs, e.Value.(*cachedStmt).stmt.Close())
	}
	c.stmts, c.lru = map[string]*list.Element{}, list.New()
	return errors.Join(append(errs, c.inner.Close())...)
}

// Ping implements driver.Pinger.
func (c *cachedConn) Ping(ctx context.Context) error {
	if p, ok := c.inner.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

// ResetSession implements driver.SessionResetter.
func (c *cachedConn) ResetSession(ctx context.Context) error {
	if r, ok := c.inner.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

// IsValid implements driver.Validator.
func (c *cachedConn) IsValid() bool {
	if v, ok := c.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}
