package sqlite

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// TestBindHookMigration opens a database from before the binding hooks
// with a bundle's revealing entry and another's withdrawal recorded and
// not bound, and checks that binding them after the migration opens and
// withdraws the claims, as binding them did before, and that no other
// entry is marked.
func TestBindHookMigration(t *testing.T) {
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
	key, err := hybrid.GenerateKey()
	ok(err)
	pub := key.Public().String()
	op := protocol.OperatorID(pub)
	ok(s.PutSigned(ctx, "sha256:key", []byte(`{"type":"key"}`), nil))
	_, err = s.CreateOperator(ctx, store.NewOperator{ID: op, Key: pub, Entry: "sha256:key", Name: "A", NameKey: "a", KeyFamilies: []string{"claude"}, At: time.Now()})
	ok(err)
	var index int64
	bindNext := func(digest string) int64 {
		t.Helper()
		ok(s.BindIndex(ctx, index, digest))
		index++
		return index - 1
	}
	seal := func(n string) ledger.Bundle {
		t.Helper()
		sealed := "sha256:sealed-" + n
		ok(s.PutSigned(ctx, sealed, []byte(`{"type":"sealed","n":"`+n+`"}`), nil))
		b, err := s.CreateBundle(ctx, ledger.NewBundle{Hash: "sha256:bundle-" + n, Operator: op, Entry: []byte(`{"type":"bundle","n":"` + n + `"}`),
			EntryDigest: "sha256:entry-" + n, Sealed: sealed, Salt: "salt", WrittenBy: "agent", At: time.Now(),
			Files:  []ledger.File{{Path: "claims.json", Digest: "sha256:file-" + n, Size: 1}},
			Claims: []ledger.Claim{{ID: "claim:" + n, LocalID: "C1", Type: "empirical", Statement: "Claim " + n, Assertion: "sha256:a-" + n, JSON: []byte(`{}`)}}})
		ok(err)
		bindNext(sealed)
		ok(s.PutSigned(ctx, b.EntryDigest, b.Entry, nil))
		ok(s.OpenBundle(ctx, b.Hash, b.EntryDigest))
		return b
	}
	opening, withdrawing := seal("one"), seal("two")
	bindNext(withdrawing.EntryDigest)
	ok(s.PutSigned(ctx, "sha256:withdrawal", []byte(`{"type":"withdrawal"}`), nil))
	_, err = s.WithdrawBundle(ctx, withdrawing.Hash, ledger.Withdrawal{Entry: "sha256:withdrawal", Reason: "hazard", At: time.Now()})
	ok(err)
	ok(s.PutSigned(ctx, "sha256:other", []byte(`{"type":"other"}`), nil))
	// The database as the program before the hooks left it.
	// The migrations after the hooks' go too.
	hooks := slices.Index(migrations, bindHookMigration)
	for _, q := range []string{"DROP TABLE name_changes", "ALTER TABLE signed DROP COLUMN on_bind",
		"DROP INDEX bundles_unsettled", "ALTER TABLE bundles DROP COLUMN settled", "DROP TABLE kept_files", "DROP TABLE evidence_files",
		"DROP TABLE team_bans", "DROP TABLE team_requests", "DROP TABLE team_moves", "DROP TABLE team_spans", "DROP TABLE team_people", "DROP TABLE teams",
		"DROP TABLE rating_count", "DROP TABLE rating_habits", "DROP TABLE memory_record_cursor", "DROP TABLE memory_record_deletions", "DROP INDEX memory_records_change", "ALTER TABLE memory_records DROP COLUMN change_seq",
		undoOpenedWords, "PRAGMA user_version = " + itoa(hooks)} {
		ok(s.write(ctx, func(tx *sql.Tx) error { _, err := tx.ExecContext(ctx, q); return err }))
	}
	ok(s.Close())

	s, err = Open(ctx, Config{Path: path})
	ok(err)
	defer s.Close()
	var marked []string
	ok(s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT digest FROM signed WHERE on_bind IS NOT NULL ORDER BY digest`)
		if err != nil {
			return err
		}
		marked, err = sqlcommon.Strings1(rows)
		return err
	}))
	if want := []string{opening.EntryDigest, "sha256:withdrawal"}; !slices.Equal(marked, want) {
		t.Errorf("marked after the migration: %v, want %v", marked, want)
	}
	claims := func(words ...string) []string {
		t.Helper()
		found, err := s.SearchClaims(ctx, ledger.ClaimQuery{Limit: 10, Words: strings.Join(words, " ")})
		ok(err)
		var ids []string
		for _, c := range found {
			ids = append(ids, c.ID)
		}
		return ids
	}
	if got := claims(); !slices.Equal(got, []string{"claim:two"}) {
		t.Fatalf("claims found before the bindings: %v, want the open bundle's", got)
	}
	// The words of the claims opened before the migration are found.
	if got := claims("two"); !slices.Equal(got, []string{"claim:two"}) {
		t.Fatalf("claims found by their words before the bindings: %v, want the open bundle's", got)
	}
	opened := bindNext(opening.EntryDigest)
	bindNext("sha256:withdrawal")
	bindNext("sha256:other")
	if got := claims(); !slices.Equal(got, []string{"claim:one"}) {
		t.Errorf("claims found after the bindings: %v, want the opened bundle's only", got)
	}
	if got := claims("claim"); !slices.Equal(got, []string{"claim:one"}) {
		t.Errorf("claims found by their words after the bindings: %v, want the opened bundle's only", got)
	}
	if c, err := s.Claim(ctx, "claim:one"); err != nil || c[0].Opened != opened {
		t.Errorf("the opened claim: %+v, %v; want it opened at %d", c, err, opened)
	}
}

func itoa(n int) string { return fmt.Sprint(n) }

// undoOpenedWords puts claim_words back in place of opened_words, as a
// database from before openedWordsMigration has it, for the tests that
// open one.
const undoOpenedWords = `DROP TABLE opened_terms; DROP TABLE opened_words;
CREATE VIRTUAL TABLE claim_words USING fts5 (statement, content = '', contentless_delete = 1, prefix = '1 2 3', tokenize = 'unicode61 remove_diacritics 2')`
