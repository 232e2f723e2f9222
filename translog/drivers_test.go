package translog

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/agora-node/agora/translog/mysqltest"
	"github.com/transparency-dev/tessera/api/layout"
)

// A testDriver is a storage the tests of the log's behaviour run on: the
// POSIX folder always, MySQL when AGORA_TEST_MYSQL names a server (see
// package mysqltest; under CI its absence fails the MySQL rows).
type testDriver struct {
	name string
	// config returns a Config for a new, empty log on this storage, as
	// testConfig does.
	config func(t testing.TB) Config
	// spread is how many times more goroutines a test appends from:
	// Tessera's MySQL driver publishes at most once a second, ten times
	// less often than the POSIX one, so an append from one goroutine
	// waits that much longer.
	spread int
}

var testDrivers = []testDriver{
	{name: "posix", spread: 1, config: func(t testing.TB) Config {
		return testConfig(t, t.TempDir())
	}},
	{name: "mysql", spread: 10, config: func(t testing.TB) Config {
		t.Helper()
		cfg := testConfig(t, "")
		cfg.MySQL = mysqltest.DSN(t)
		cfg.CheckpointInterval = MinMySQLCheckpointInterval
		return cfg
	}},
}

// forEachDriver runs test on every testDriver, as subtests named after it.
func forEachDriver(t *testing.T, test func(t *testing.T, d testDriver)) {
	for _, d := range testDrivers {
		t.Run(d.name, func(t *testing.T) { test(t, d) })
	}
}

// tesseraCheckpoint reads the checkpoint Tessera itself last published
// for the log cfg names, from its storage rather than through the Log.
func tesseraCheckpoint(t testing.TB, cfg Config) []byte {
	t.Helper()
	if cfg.MySQL == "" {
		cp, err := os.ReadFile(filepath.Join(cfg.Dir, tilesName, layout.CheckpointPath))
		if err != nil {
			t.Fatal(err)
		}
		return cp
	}
	db, err := sql.Open("mysql", cfg.MySQL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var cp []byte
	if err := db.QueryRowContext(context.Background(), "SELECT `note` FROM `Checkpoint` WHERE `id` = 0").Scan(&cp); err != nil {
		t.Fatal(err)
	}
	return cp
}
