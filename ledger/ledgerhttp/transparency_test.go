package ledgerhttp

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/store/sqlite"
	"github.com/agora-node/agora/tlog"
)

// TestParseQuarter: a quarter is YYYY-Qn, covering its three months in
// UTC; one not yet begun is 404, anything else 400.
func TestParseQuarter(t *testing.T) {
	now := time.Date(2026, 12, 3, 14, 0, 0, 0, time.UTC)
	for q, want := range map[string][2]string{
		"2026-Q4": {"2026-10-01", "2027-01-01"},
		"2026-Q1": {"2026-01-01", "2026-04-01"},
		"2001-Q2": {"2001-04-01", "2001-07-01"},
		"2026-Q3": {"2026-07-01", "2026-10-01"},
	} {
		sp, err := parseQuarter(q, now)
		if err != nil || sp.from.Format(time.DateOnly) != want[0] || sp.to.Format(time.DateOnly) != want[1] || sp.quarter != q {
			t.Errorf("%s: %v %v, want %v", q, sp, err, want)
		}
		if !sp.holds(sp.from) || sp.holds(sp.to) || sp.holds(sp.from.Add(-time.Millisecond)) {
			t.Errorf("%s holds the wrong instants", q)
		}
	}
	if sp, err := parseQuarter("", now); err != nil || !sp.holds(time.Time{}) || !sp.holds(now) {
		t.Errorf("to date: %v %v", sp, err)
	}
	for q, status := range map[string]int{"2027-Q1": http.StatusNotFound, "2026-Q5": http.StatusBadRequest, "2026-Q0": http.StatusBadRequest,
		"26-Q1": http.StatusBadRequest, "2026Q1": http.StatusBadRequest, "2026-q1": http.StatusBadRequest, "2026-Q1 ": http.StatusBadRequest} {
		var he *httpapi.Error
		if _, err := parseQuarter(q, now); !errors.As(err, &he) || he.Status != status {
			t.Errorf("%q: %v, want %d", q, err, status)
		}
	}
}

// TestPanelOutcome: a panel stands as its answers in order decide it,
// and an overturned one counts the concerns raised before it decided.
func TestPanelOutcome(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 12, 1, 0, m, 0, 0, time.UTC) }
	concern := ledger.Answer{Kind: jobs.Reproduction, Hazard: "biological", At: at(0)}
	screen := ledger.Answer{Kind: jobs.Reproduction, Hazard: "none", At: at(1)}
	review := func(hazard string, m int) ledger.Answer {
		return ledger.Answer{Kind: jobs.HazardReview, Hazard: hazard, At: at(m)}
	}
	late := ledger.Answer{Kind: jobs.Reproduction, Hazard: "chemical", At: at(9)}
	for name, tc := range map[string]struct {
		answers    []ledger.Answer
		outcome    string
		overturned int
	}{
		"no panel":   {[]ledger.Answer{concern, screen}, "", 0},
		"pending":    {[]ledger.Answer{concern, review("none", 2)}, "pending", 0},
		"upheld":     {[]ledger.Answer{concern, review("biological", 2), review("biological", 3)}, "upheld", 0},
		"overturned": {[]ledger.Answer{concern, screen, review("none", 2), review("none", 3), late}, "overturned", 1},
		"decided by the first majority": {[]ledger.Answer{concern, review("none", 2), review("none", 3), review("biological", 4),
			review("biological", 5)}, "overturned", 1},
	} {
		if outcome, n := panelOutcome(tc.answers); outcome != tc.outcome || n != tc.overturned {
			t.Errorf("%s: %q %d, want %q %d", name, outcome, n, tc.outcome, tc.overturned)
		}
	}
}

// TestReportCountWaitsForLowerIndex: a count stops at the first index
// not bound yet, so an index another process binds after a higher one
// (its append sequenced first, bound later) is counted once bound,
// never skipped.
func TestReportCountWaitsForLowerIndex(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Config{Path: filepath.Join(t.TempDir(), "state.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &Server{store: st}
	bind := func(index int64, typ string) {
		t.Helper()
		leaf, err := canonical.Marshal(map[string]any{"entry": map[string]any{"type": typ, "n": index},
			"timestamp": tlog.FormatTimestamp(time.Date(2026, 12, 7, 1, 0, int(index), 0, time.UTC))})
		if err != nil {
			t.Fatal(err)
		}
		digest := canonical.Digest(leaf)
		if err := st.PutSigned(ctx, digest, leaf, leaf); err != nil {
			t.Fatal(err)
		}
		if err := st.BindIndex(ctx, index, digest); err != nil {
			t.Fatal(err)
		}
	}
	count := func() (uint64, map[string]int) {
		t.Helper()
		c, err := s.countLog(ctx, span{})
		if err != nil {
			t.Fatal(err)
		}
		return c.size, maps.Clone(c.entries)
	}
	bind(0, "registration")
	bind(2, "withdrawal")
	if size, entries := count(); size != 1 || entries["registration"] != 1 || entries["withdrawal"] != 0 {
		t.Errorf("with index 1 not bound: %d leaves %v, want the one before it", size, entries)
	}
	bind(1, "challenge")
	if size, entries := count(); size != 3 || entries["challenge"] != 1 || entries["withdrawal"] != 1 {
		t.Errorf("once index 1 is bound: %d leaves %v, want all three", size, entries)
	}
}
