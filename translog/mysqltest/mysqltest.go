// Package mysqltest gives tests a MySQL or MariaDB database to run the log
// on (translog's Config.MySQL, agora serve --log mysql://...): the server
// AGORA_TEST_MYSQL names (.ci/run starts MariaDB and sets it, as README.md's
// "Log in MySQL" says), each test in a database of its own.
//
// AGORA_TEST_MYSQL is a mysql:// URL, such as
// mysql://agora_test:agora_test@tcp(127.0.0.1:3306)/agora_test; its user
// may create and drop databases whose names begin with its database's.
//
// Without AGORA_TEST_MYSQL a test that needs it is skipped, saying why, so
// a plain "go test ./..." runs everything else on a machine without MySQL;
// under CI (CI=true) it fails instead, since CI runs every suite.
package mysqltest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gomysql "github.com/go-sql-driver/mysql"
)

// Env names the server the tests use.
const Env = "AGORA_TEST_MYSQL"

// scheme is translog.MySQLScheme; this package cannot import translog,
// whose own tests use it.
const scheme = "mysql://"

// dsn returns AGORA_TEST_MYSQL's DSN, skipping the test (or, under CI,
// failing it) when it is not set.
func dsn(t testing.TB) *gomysql.Config {
	t.Helper()
	u := os.Getenv(Env)
	if u == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s runs on MySQL, and %s is not set: CI runs every MySQL suite (.ci/run starts MariaDB)", t.Name(), Env)
		}
		t.Skipf("skipping %s: it runs on MySQL, and %s is not set (set it to a mysql:// URL, or run .ci/run, which starts MariaDB)", t.Name(), Env)
	}
	d, ok := strings.CutPrefix(u, scheme)
	c, err := gomysql.ParseDSN(d)
	if !ok || err != nil || c.DBName == "" {
		t.Fatalf("%s is not a URL such as %suser:password@tcp(127.0.0.1:3306)/agora_test", Env, scheme)
	}
	return c
}

// databases numbers the databases this process makes.
var databases atomic.Int64

// DSN returns the Config.MySQL DSN of a new, empty database for one test,
// dropped with everything in it when the test ends.
func DSN(t testing.TB) string {
	t.Helper()
	c := dsn(t)
	name := fmt.Sprintf("%s_%d_%d_%d", c.DBName, os.Getpid(), time.Now().UnixNano()%1e9, databases.Add(1))
	if err := exec(c, "CREATE DATABASE `"+name+"`"); err != nil {
		t.Fatalf("creating database %s on %s as %s: %v", name, c.Addr, c.User, err)
	}
	t.Cleanup(func() {
		if err := exec(c, "DROP DATABASE `"+name+"`"); err != nil {
			t.Errorf("dropping database %s: %v", name, err)
		}
	})
	c.DBName = name
	return c.FormatDSN()
}

// exec runs one statement on the server c names, on a connection of its
// own, closed after it: a test that counts its goroutines sees none left.
func exec(c *gomysql.Config, stmt string) error {
	db, err := sql.Open("mysql", c.FormatDSN())
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(context.Background(), stmt)
	return err
}

// URL is DSN as a mysql:// URL, as agora serve --log takes it.
func URL(t testing.TB) string {
	t.Helper()
	return scheme + DSN(t)
}
