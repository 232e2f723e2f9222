package postgres

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// A node's state moves here from SQLite table by table (migrations.go
// keeps the two schemas table for table): ImportRows copies each table's
// rows, VerifyRows compares them. claim_terms is the one table SQLite has
// no rows for (it keeps an FTS5 index instead); ImportRows builds it from
// the claims, as AddBundle does.

var (
	// ErrNotEmpty is wrapped by ImportRows's error when a table already
	// holds rows.
	ErrNotEmpty = errors.New("postgres: the schema already holds a node's state")
	// ErrRowsDiffer is wrapped by VerifyRows's error when a table's rows
	// are not the source's.
	ErrRowsDiffer = errors.New("postgres: the rows differ from the source's")
)

// derived names the tables built here rather than copied.
var derived = map[string]bool{"claim_terms": true}

// TableRows is one table's row count and the digest of its rows: SHA-256
// over the sorted SHA-256 digests of each row's values, typed as the
// PostgreSQL column is, so it does not depend on the order either side
// reads them in.
type TableRows struct {
	Table  string
	Rows   int64
	Digest [32]byte
}

type column struct {
	name, kind string // kind: information_schema's data_type
	identity   bool
}

type table struct {
	name string
	cols []column
}

// tables returns the schema's tables but schema_version, each after those
// its foreign keys name, so rows copied in that order satisfy them.
func (s *Store) tables(ctx context.Context) ([]table, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.table_name, c.column_name, c.data_type, c.is_identity = 'YES'
		FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
		WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_version'
		ORDER BY c.table_name, c.ordinal_position`, s.schema)
	if err != nil {
		return nil, fmt.Errorf("postgres: read the tables: %w", err)
	}
	defer rows.Close()
	var all []table
	for rows.Next() {
		var name string
		var c column
		if err := rows.Scan(&name, &c.name, &c.kind, &c.identity); err != nil {
			return nil, fmt.Errorf("postgres: read the tables: %w", err)
		}
		if len(all) == 0 || all[len(all)-1].name != name {
			all = append(all, table{name: name})
		}
		all[len(all)-1].cols = append(all[len(all)-1].cols, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: read the tables: %w", err)
	}
	deps := map[string][]string{}
	fk, err := s.db.QueryContext(ctx, `SELECT f.relname, r.relname FROM pg_constraint k
		JOIN pg_class f ON f.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
		JOIN pg_namespace n ON n.oid = f.relnamespace
		WHERE k.contype = 'f' AND n.nspname = $1`, s.schema)
	if err != nil {
		return nil, fmt.Errorf("postgres: read the foreign keys: %w", err)
	}
	defer fk.Close()
	for fk.Next() {
		var from, to string
		if err := fk.Scan(&from, &to); err != nil {
			return nil, fmt.Errorf("postgres: read the foreign keys: %w", err)
		}
		if from != to {
			deps[from] = append(deps[from], to)
		}
	}
	if err := fk.Err(); err != nil {
		return nil, fmt.Errorf("postgres: read the foreign keys: %w", err)
	}
	var ordered []table
	done := map[string]bool{}
	for len(ordered) < len(all) {
		before := len(ordered)
		for _, t := range all {
			if !done[t.name] && !slices.ContainsFunc(deps[t.name], func(d string) bool { return !done[d] }) {
				ordered, done[t.name] = append(ordered, t), true
			}
		}
		if len(ordered) == before {
			return nil, errors.New("postgres: the tables' foreign keys form a cycle")
		}
	}
	return ordered, nil
}

// ImportRows copies every table's rows from src, a node's SQLite database
// at the same migration (srcVersion, its user_version), into the store's
// tables, which must be empty (ErrNotEmpty), in one transaction: on an
// error nothing is kept. Identity columns go on from the largest value
// SQLite handed out (sqlite_sequence, for AUTOINCREMENT), and claim_terms
// is built from the claims.
func (s *Store) ImportRows(ctx context.Context, src *sql.DB, srcVersion int) ([]TableRows, error) {
	version, err := s.SchemaVersion(ctx)
	if err != nil {
		return nil, err
	}
	if version != srcVersion {
		return nil, fmt.Errorf("postgres: the SQLite state is at migration %d and this schema at %d: they must be the same", srcVersion, version)
	}
	tables, err := s.tables(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range tables {
		var any bool
		if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM `+pgx.Identifier{s.schema, t.name}.Sanitize()+`)`).Scan(&any); err != nil {
			return nil, fmt.Errorf("postgres: read %s: %w", t.name, err)
		}
		if any {
			return nil, fmt.Errorf("postgres: table %s in schema %s holds rows: %w", t.name, s.schema, ErrNotEmpty)
		}
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	defer conn.Close()
	var counts []TableRows
	err = conn.Raw(func(dc any) error {
		tx, err := dc.(*stdlib.Conn).Conn().Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		for _, t := range tables {
			if derived[t.name] {
				continue
			}
			n, err := s.copyTable(ctx, tx, src, t)
			if err != nil {
				return fmt.Errorf("table %s: %w", t.name, err)
			}
			counts = append(counts, TableRows{Table: t.name, Rows: n})
		}
		if err := s.buildClaimTerms(ctx, tx); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: import: %w", err)
	}
	return counts, nil
}

func (s *Store) copyTable(ctx context.Context, tx pgx.Tx, src *sql.DB, t table) (int64, error) {
	names := make([]string, len(t.cols))
	for i, c := range t.cols {
		names[i] = c.name
	}
	rows, err := selectAll(ctx, src, t)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n, err := tx.CopyFrom(ctx, pgx.Identifier{s.schema, t.name}, names, &rowSource{rows: rows, cols: t.cols})
	if err != nil {
		return 0, err
	}
	for _, c := range t.cols {
		if !c.identity {
			continue
		}
		next := int64(0)
		// AUTOINCREMENT never hands out a value again, even one deleted.
		_ = src.QueryRowContext(ctx, `SELECT seq FROM sqlite_sequence WHERE name = ?`, t.name).Scan(&next)
		ident := pgx.Identifier{s.schema, t.name}.Sanitize()
		if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST($3::bigint, (SELECT COALESCE(max(`+pgx.Identifier{c.name}.Sanitize()+`), 0) FROM `+ident+`), 1), true)`,
			ident, c.name, next); err != nil {
			return 0, fmt.Errorf("identity %s: %w", c.name, err)
		}
	}
	return n, nil
}

// selectAll reads t's columns from SQLite in the order SQLite stored the
// rows, so rows naming earlier rows of their own table come after them.
func selectAll(ctx context.Context, src *sql.DB, t table) (*sql.Rows, error) {
	names := make([]string, len(t.cols))
	for i, c := range t.cols {
		names[i] = `"` + c.name + `"`
	}
	q := `SELECT ` + strings.Join(names, ", ") + ` FROM "` + t.name + `"`
	rows, err := src.QueryContext(ctx, q+` ORDER BY rowid`)
	if err != nil {
		rows, err = src.QueryContext(ctx, q) // a table WITHOUT ROWID
	}
	if err != nil {
		return nil, fmt.Errorf("reading it from SQLite: %w", err)
	}
	return rows, nil
}

// rowSource feeds SQLite's rows to COPY, each value as the column's type.
type rowSource struct {
	rows *sql.Rows
	cols []column
}

func (r *rowSource) Next() bool { return r.rows.Next() }

func (r *rowSource) Values() ([]any, error) {
	raw := make([]any, len(r.cols))
	ptrs := make([]any, len(raw))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	if err := r.rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	for i, c := range r.cols {
		v, err := asColumn(raw[i], c.kind)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.name, err)
		}
		raw[i] = v
	}
	return raw, nil
}

func (r *rowSource) Err() error { return r.rows.Err() }

// asColumn is SQLite's value v as a value of PostgreSQL's type kind:
// SQLite keeps text in BLOB columns and booleans as integers.
func asColumn(v any, kind string) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch kind {
	case "bytea":
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			return []byte(x), nil
		}
	case "text", "character varying":
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		}
	case "bigint", "integer", "smallint":
		if x, ok := v.(int64); ok {
			return x, nil
		}
	case "double precision", "real":
		switch x := v.(type) {
		case float64:
			return x, nil
		case int64:
			return float64(x), nil
		}
	case "boolean":
		if x, ok := v.(int64); ok {
			return x != 0, nil
		}
		if x, ok := v.(bool); ok {
			return x, nil
		}
	}
	return nil, fmt.Errorf("a %T where PostgreSQL has %s", v, kind)
}

// buildClaimTerms indexes every claim's words, as AddBundle does.
func (s *Store) buildClaimTerms(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT seq, statement FROM claims`)
	if err != nil {
		return fmt.Errorf("claim_terms: %w", err)
	}
	type claim struct {
		seq       int64
		statement string
	}
	var claims []claim
	for rows.Next() {
		var c claim
		if err := rows.Scan(&c.seq, &c.statement); err != nil {
			rows.Close()
			return fmt.Errorf("claim_terms: %w", err)
		}
		claims = append(claims, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("claim_terms: %w", err)
	}
	var terms [][]any
	for _, c := range claims {
		for i, w := range claimWords(c.statement) {
			terms = append(terms, []any{w, c.seq, int64(i)})
		}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{s.schema, "claim_terms"}, []string{"term", "claim", "position"}, pgx.CopyFromRows(terms)); err != nil {
		return fmt.Errorf("claim_terms: %w", err)
	}
	return nil
}

// VerifyRows compares every table copied from src with the store's: the
// same number of rows, and the same digest of them (TableRows). A
// difference is an error wrapping ErrRowsDiffer, naming the table.
func (s *Store) VerifyRows(ctx context.Context, src *sql.DB) ([]TableRows, error) {
	tables, err := s.tables(ctx)
	if err != nil {
		return nil, err
	}
	var out []TableRows
	for _, t := range tables {
		if derived[t.name] {
			continue
		}
		want, err := digestRows(ctx, src, t, true)
		if err != nil {
			return out, fmt.Errorf("postgres: table %s in SQLite: %w", t.name, err)
		}
		got, err := digestRows(ctx, s.db, table{name: pgx.Identifier{s.schema, t.name}.Sanitize(), cols: t.cols}, false)
		if err != nil {
			return out, fmt.Errorf("postgres: table %s: %w", t.name, err)
		}
		if got.Rows != want.Rows {
			return out, fmt.Errorf("%w: table %s holds %d rows, SQLite %d", ErrRowsDiffer, t.name, got.Rows, want.Rows)
		}
		if got.Digest != want.Digest {
			return out, fmt.Errorf("%w: table %s holds %d rows as SQLite does, but not the same ones", ErrRowsDiffer, t.name, got.Rows)
		}
		got.Table = t.name
		out = append(out, got)
	}
	return out, nil
}

func digestRows(ctx context.Context, db *sql.DB, t table, fromSQLite bool) (TableRows, error) {
	var rows *sql.Rows
	var err error
	if fromSQLite {
		rows, err = selectAll(ctx, db, t)
	} else {
		names := make([]string, len(t.cols))
		for i, c := range t.cols {
			names[i] = pgx.Identifier{c.name}.Sanitize()
		}
		rows, err = db.QueryContext(ctx, `SELECT `+strings.Join(names, ", ")+` FROM `+t.name) // t.name is quoted
	}
	if err != nil {
		return TableRows{}, err
	}
	defer rows.Close()
	src := &rowSource{rows: rows, cols: t.cols}
	var sums [][32]byte
	for src.Next() {
		vals, err := src.Values()
		if err != nil {
			return TableRows{}, err
		}
		sums = append(sums, rowDigest(vals))
	}
	if err := src.Err(); err != nil {
		return TableRows{}, err
	}
	slices.SortFunc(sums, func(a, b [32]byte) int { return strings.Compare(string(a[:]), string(b[:])) })
	h := sha256.New()
	for _, s := range sums {
		h.Write(s[:])
	}
	out := TableRows{Rows: int64(len(sums))}
	h.Sum(out.Digest[:0])
	return out, nil
}

// rowDigest hashes a row's values, each tagged with its type and length,
// so no two rows share an encoding.
func rowDigest(vals []any) [32]byte {
	h := sha256.New()
	var n [8]byte
	put := func(tag byte, b []byte) {
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write([]byte{tag})
		h.Write(n[:])
		h.Write(b)
	}
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			put('n', nil)
		case []byte:
			put('b', x)
		case string:
			put('s', []byte(x))
		case int64:
			put('i', binary.BigEndian.AppendUint64(nil, uint64(x)))
		case float64:
			put('f', binary.BigEndian.AppendUint64(nil, math.Float64bits(x)))
		case bool:
			b := byte(0)
			if x {
				b = 1
			}
			put('t', []byte{b})
		}
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}
