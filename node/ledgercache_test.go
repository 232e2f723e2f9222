package node

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/ledgerhttp"
	"github.com/agora-node/agora/ledger/standing"
	"github.com/agora-node/agora/store/postgres"
	"github.com/agora-node/agora/store/postgres/pgtest"
)

// ledgerTwin serves n's ledger a second time, as a second process would:
// a ledgerhttp.Server of its own, with its own caches, over its own
// connections to n's PostgreSQL state (dsn), reading n's log and files,
// on the clock now. It only reads; it runs no background loops.
func ledgerTwin(t *testing.T, n *Node, dsn string, cfg ledgerhttp.Config, now func() time.Time) string {
	t.Helper()
	st, err := postgres.Open(context.Background(), postgres.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	cfg.HabitsEvery, cfg.OpenAfter = n.cfg.HabitsEvery, -1
	ledgerhttp.New(mux, cfg, ledgerhttp.Deps{
		Store: st, Journal: n.journal, Log: n.log, Blobs: n.files, LogID: n.logID, Logger: n.logger, Now: now,
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		st.Close()
	})
	return srv.URL
}

// served is the JSON object GET path answers on base, with drop's keys
// (those that name when it was asked) left out.
func served(t *testing.T, base, path string, drop ...string) map[string]any {
	t.Helper()
	code, v := call(t, "GET", base+path, nil)
	if code != http.StatusOK {
		t.Fatalf("GET %s on %s: %d %v", path, base, code, v)
	}
	m := v.(map[string]any)
	for _, k := range drop {
		delete(m, k)
	}
	return m
}

// standingOf is what op's record says of its standing, on base.
func standingOf(t *testing.T, base, op string) string {
	t.Helper()
	record, kept := served(t, base, "/api/v1/operators/"+op), map[string]any{}
	for _, k := range standing.RecordKeys {
		kept[k] = record[k]
	}
	return asJSON(kept)
}

// servedHabits is GET /api/v1/rating-habits on base.
func servedHabits(t *testing.T, base string) string {
	t.Helper()
	return asJSON(served(t, base, "/api/v1/rating-habits"))
}

// servedReport is the transparency report to date on base, without the
// moment it was asked at.
func servedReport(t *testing.T, base string) string {
	t.Helper()
	return asJSON(served(t, base, "/api/v1/transparency", "to"))
}

// TestLedgerCachesAcrossProcesses runs two more ledger servers over one
// node's PostgreSQL state, as other processes sharing it would, and has
// each of their caches see what the node wrote:
//
//   - the standing sheet: a rating the node takes logs nothing, yet the
//     twin, whose sheet was made at the same log size, serves the author's
//     record as the node does after it (ledger.CheckStore's RatingCount);
//   - rating habits: a twin whose clock stands in the next hour measures
//     that hour's habits before any rating; a second twin asking for that hour
//     after the ratings (stamped before it) came in serves the habits the
//     first measured, and scores each claim as the first does, instead of
//     measuring them again from other ratings (KeepHabits);
//   - the transparency report: the twin's count, kept from a report before
//     the node logged the round's work, is extended to the node's.
func TestLedgerCachesAcrossProcesses(t *testing.T) {
	t.Parallel()
	state := pgtest.SchemaDSN(t)
	n, base, author, round := roundWorld(t, func(c *Config) { c.State = state })
	for i := range round {
		round[i].importance = map[string]int{"gpt": 60, "gemini": 50}[round[i].family]
	}
	twin := ledgerTwin(t, n, state, ledgerhttp.Config{}, time.Now)
	// The twins ahead stand a minute into the next hour for the whole
	// test, so that both ask for that hour's habits whenever the test runs.
	next := time.Now().UTC().Truncate(time.Hour).Add(time.Hour + time.Minute)
	ahead := func() time.Time { return next }
	early, late := ledgerTwin(t, n, state, ledgerhttp.Config{}, ahead), ledgerTwin(t, n, state, ledgerhttp.Config{}, ahead)

	var hashes []string
	for _, title := range []string{"rated one", "rated two", "rated three", "rated four"} {
		h, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", title, true))
		hashes = append(hashes, h)
	}
	before := servedReport(t, twin)
	firstHabits := servedHabits(t, early)

	// The round's work, reading the author's record on the twin before
	// each rating (so its sheet is made at that log size) and on both
	// after.
	movedByRating := 0
	workAround(t, base, round, func(job map[string]any, answer func()) {
		if job["kind"] != "importance_rating" {
			answer()
			return
		}
		was, size := standingOf(t, twin, author.id), n.log.Size()
		answer()
		now, onTwin := standingOf(t, base, author.id), standingOf(t, twin, author.id)
		if onTwin != now {
			t.Errorf("after a rating the node serves the author's standing as\n%s\nand the twin as\n%s", now, onTwin)
		}
		if now != was && n.log.Size() == size {
			movedByRating++
		}
	})
	if movedByRating == 0 {
		t.Fatal("no rating moved the author's standing without the log growing: the test saw nothing a stale sheet would miss")
	}

	if got := servedHabits(t, late); got != firstHabits {
		t.Errorf("the hour's habits asked for after the ratings came in:\n%s\nwhere the first to measure the hour served\n%s", got, firstHabits)
	}
	if got := servedHabits(t, early); got != firstHabits {
		t.Errorf("the hour's habits changed on the twin that measured them: %s, was %s", got, firstHabits)
	}
	scored := 0
	for _, h := range hashes {
		_, bv := call(t, "GET", base+"/api/v1/bundles/"+h, nil)
		claim := bv.(map[string]any)["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
		views := map[string]string{}
		for name, at := range map[string]string{"early": early, "late": late} {
			code, cv := call(t, "GET", at+"/api/v1/claims/"+claim, nil)
			if code != http.StatusOK {
				t.Fatalf("claim %s on the %s twin: %d %v", claim, name, code, cv)
			}
			c := cv.(map[string]any)
			views[name] = asJSON([]any{c["importance"], c["importance_ratings"]})
			if c["importance"].(map[string]any)["revealed"] == true {
				scored++
			}
		}
		if views["early"] != views["late"] {
			t.Errorf("claim %s's importance on the twin that measured the hour first:\n%s\nand on the one after:\n%s", claim, views["early"], views["late"])
		}
	}
	if scored == 0 {
		t.Fatal("no claim got its score revealed")
	}

	after := servedReport(t, twin)
	if after == before {
		t.Fatalf("the round's work left the report as it was: %s", after)
	}
	if want := servedReport(t, base); after != want {
		t.Errorf("the twin's transparency report:\n%s\nthe node's:\n%s", after, want)
	}
}

// TestSnapshotsWithdrawnAcrossProcesses: a second ledger server over the
// node's PostgreSQL state, keeping its own copy of today's snapshot,
// stops serving it (410 snapshot_reissuing, its loop reissuing it) once
// the node logged the withdrawal of a bundle the snapshot holds: the
// twin learns of the withdrawal from the entries the store binds, not
// from the request that withdrew it.
func TestSnapshotsWithdrawnAcrossProcesses(t *testing.T) {
	t.Parallel()
	state := pgtest.SchemaDSN(t)
	n, srv := testNodeWith(t, Config{State: state, OpenAfter: -1, Qualification: "off", CanaryRate: -1})
	kept := t.TempDir()
	var twin string
	w := withdrawPublished(t, n, srv.URL, func(today string) {
		taken := filepath.Join(n.cfg.DataDir, "snapshots")
		files, err := os.ReadDir(taken)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(taken, f.Name()))
			if err == nil {
				err = os.WriteFile(filepath.Join(kept, f.Name()), data, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		twin = ledgerTwin(t, n, state, ledgerhttp.Config{SnapshotDir: kept}, time.Now)
		if code, v := call(t, "GET", twin+"/api/v1/snapshots/"+today+"/card", nil); code != http.StatusOK || v.(map[string]any)["claims"] != 1.0 {
			t.Fatalf("the twin's card before the withdrawal: %d %v", code, v)
		}
	})
	for _, path := range []string{"/api/v1/snapshots/" + w.today + "/card", "/api/v1/snapshots/" + w.today} {
		code, v := call(t, "GET", twin+path, nil)
		if m, _ := v.(map[string]any); code != http.StatusGone || m["code"] != "snapshot_reissuing" {
			t.Errorf("GET %s on the twin after the node withdrew %s: %d %v, want 410 snapshot_reissuing", path, w.hash, code, m)
		}
	}
}
