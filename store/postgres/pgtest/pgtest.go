// Package pgtest gives tests a PostgreSQL database to run store/postgres
// against: the one AGORA_TEST_POSTGRES names (.ci/run starts PostgreSQL
// and sets it, as README.md's "State in PostgreSQL" says), each test in a
// schema of its own.
//
// Without AGORA_TEST_POSTGRES a test that needs it is skipped, saying
// why, so a plain "go test ./..." runs everything else on a machine
// without PostgreSQL; under CI (CI=true) it fails instead, since CI runs
// every suite.
package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/store/postgres"
)

// Env names the database the tests use.
const Env = "AGORA_TEST_POSTGRES"

// DSN returns the database's connection string, skipping the test (or,
// under CI, failing it) when there is none.
func DSN(t testing.TB) string {
	t.Helper()
	d := os.Getenv(Env)
	if d == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s runs on PostgreSQL, and %s is not set: CI runs every PostgreSQL suite (.ci/run starts the database)", t.Name(), Env)
		}
		t.Skipf("skipping %s: it runs on PostgreSQL, and %s is not set (set it to a postgres:// URL, or run .ci/run, which starts PostgreSQL)", t.Name(), Env)
	}
	return d
}

// schemas numbers the schemas this process makes.
var schemas atomic.Int64

// Schema returns the name of a new schema for one test, dropped with
// everything in it when the test ends.
func Schema(t testing.TB) string {
	t.Helper()
	d := DSN(t)
	schema := fmt.Sprintf("agora_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano(), schemas.Add(1))
	t.Cleanup(func() {
		// The test's context is done by now.
		ctx := context.Background()
		s, err := postgres.Open(ctx, postgres.Config{DSN: d, Schema: schema})
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer s.Close()
		if _, err := s.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return schema
}

// SchemaDSN returns the DSN with a new schema (Schema) as its
// search_path, for a node given only a URL.
func SchemaDSN(t testing.TB) string {
	t.Helper()
	d, schema := DSN(t), Schema(t)
	u, err := url.Parse(d)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("%s is not a postgres:// URL", Env)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return strings.TrimSpace(u.String())
}
