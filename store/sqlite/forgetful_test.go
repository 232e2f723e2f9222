package sqlite_test

import (
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// forgetEnv, set to a table's name, has reopen lose every row of that
// table, as a driver would that did not keep what it holds: the
// durability test of the table's face must notice.
const forgetEnv = "AGORA_SQLITE_TEST_FORGET"

// owner says whose durability test must notice a table forgotten: the
// core's tables are storetest's, and every other is a face's.
func owner(table string) string {
	switch table {
	case "signed", "operators", "names", "keys", "identities", "invites", "rate_events", "name_changes",
		"vouch_consents", "vouches", "account_requests", "account_members", "domain_watches", "recovery_requests":
		return "Core"
	case "bundles", "bundle_files", "claims", "claim_tags", "opened_words", "uploads",
		"jobs", "job_answers", "job_declines", "credit_moves", "qualification", "canaries", "canary_outcomes",
		"job_needs", "importance_ratings", "rating_count", "rating_habits", "kept_files", "evidence_files",
		"teams", "team_people", "team_spans", "team_moves", "team_requests", "team_bans":
		return "Ledger"
	case "contributions", "contribution_links", "library_votes", "catalogue_heads", "catalogue_votes", "catalogue_terms",
		"personal_states", "personal_nonces", "library_scopes":
		return "Library"
	}
	if strings.HasPrefix(table, "memory_") {
		return "Memory"
	}
	return ""
}

// forget deletes every row of table in the database at path (closed).
func forget(t *testing.T, path, table string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := `DELETE FROM "` + table + `"`
	if table == "opened_words" {
		q = `INSERT INTO opened_words (opened_words) VALUES ('delete-all')`
	}
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("forgetting %s: %v", table, err)
	}
}

// faceTables lists the tables of a new database that a face keeps.
func faceTables(t *testing.T) []string {
	t.Helper()
	s := newStore(t)
	path := s.Path()
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'opened_words_%' AND name != 'opened_terms' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		switch owner(name) {
		case "":
			t.Errorf("table %s belongs to no suite: say in owner whose durability test covers it", name)
		case "Core":
		default:
			out = append(out, name)
		}
	}
	return out
}

// TestDurabilityCatchesForgetfulDriver runs the durability test of every
// conformance suite against drivers that, reopened, have lost the rows of
// one table a face keeps (bundles and their claims, uploads,
// contributions, the catalogue, personal lists, scopes, each part of the
// memory): the durability test of that table's face must fail, and the
// others pass.
func TestDurabilityCatchesForgetfulDriver(t *testing.T) {
	if os.Getenv(forgetEnv) != "" {
		t.Skip("run by TestDurabilityCatchesForgetfulDriver itself")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tables := faceTables(t)
	if !slices.Contains(tables, "bundles") || !slices.Contains(tables, "contributions") || !slices.Contains(tables, "personal_states") || !slices.Contains(tables, "memory_records") {
		t.Fatalf("the face tables found are %v", tables)
	}
	for _, table := range tables {
		t.Run(table, func(t *testing.T) {
			cmd := exec.Command(exe, "-test.run", "^TestConformance$/^.*$/^Durability$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), forgetEnv+"="+table)
			cmd.Dir = filepath.Dir(exe)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Errorf("the durability tests passed a driver that forgets %s on reopen", table)
			}
			for _, face := range []string{"Core", "Ledger", "Library", "Memory"} {
				verdict := "PASS"
				if face == owner(table) {
					verdict = "FAIL"
				}
				if want := "--- " + verdict + ": TestConformance/" + face + "/Durability"; !strings.Contains(string(out), want) {
					t.Errorf("a driver that forgets %s: the durability tests do not say %q", table, want)
				}
			}
			if t.Failed() {
				t.Logf("their output:\n%s", out)
			}
		})
	}
}
