package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
	lru "github.com/hashicorp/golang-lru/v2"
)

// The transparency report ("Endpoints", Transparency report): what this
// node did in a quarter (YYYY-Qn, UTC) or to date. Everything in it is
// counted from the log, by the timestamps of its leaves, except what the
// log does not say and the node's records do: how each hazard panel
// decided, and how each verifier answered each canary.
//
//   - entries: the log's leaves, by entry type;
//   - claims: the claims opened in the span (by their bundle entries), by
//     the statuses they hold now, as the status Deriver gives them;
//   - hazard_reviews: hazard_review entries by verdict, and the panels on
//     the bundles they (or a panel's withdrawal) name, by outcome;
//   - withdrawals: withdrawal entries by reason;
//   - challenges: challenge entries by where each stands now;
//   - integrity_actions: the penalties and takedowns the node applied:
//     missed canaries (each costing MissedCanaryCost), concerns a panel
//     overturned (each costing jobs.ConcernCost), bundles a panel withdrew.
//     This node bans no one yet, so bans are not counted;
//   - canaries: the canary entries revealed in the span, and their
//     verifiers' outcomes by model family, with each family's score, the
//     share of the canaries it ran that it caught.
//
// A quarter before any leaf reports zeros; one that has not begun is 404.
// Each span's count is kept (reportBook) and extended by the leaves bound
// since, so a report reads the log once and then only what is new; the
// claims, challenges, panels and canaries it lists are read again each
// time, since where they stand changes.

var quarterPattern = regexp.MustCompile(`^([0-9]{4})-Q([1-4])$`)

// span is the time a report covers: [from, to), or all time when from is
// zero.
type span struct {
	quarter  string
	from, to time.Time
}

func (sp span) holds(at time.Time) bool {
	return sp.from.IsZero() || !at.Before(sp.from) && at.Before(sp.to)
}

// parseQuarter reads ?quarter=: "" is to date.
func parseQuarter(q string, now time.Time) (span, error) {
	if q == "" {
		return span{}, nil
	}
	m := quarterPattern.FindStringSubmatch(q)
	if m == nil {
		return span{}, httpapi.BadRequest("bad_request", "%.40q is not a quarter: give a year and its quarter, such as 2026-Q4, or none for to date", q)
	}
	year, _ := strconv.Atoi(m[1])
	n, _ := strconv.Atoi(m[2])
	from := time.Date(year, time.Month(3*(n-1)+1), 1, 0, 0, 0, 0, time.UTC)
	if from.After(now) {
		return span{}, httpapi.NotFound("%s has not begun: no report of it yet", q)
	}
	return span{quarter: q, from: from, to: from.AddDate(0, 3, 0)}, nil
}

// ledgerCount is what one pass over the log's leaves finds in a span.
type ledgerCount struct {
	size        uint64          // leaves read
	entries     map[string]int  // by type
	claims      []string        // opened in the span, each once
	seen        map[string]bool // claims and bundles listed: their IDs never collide
	verdicts    map[string]int  // hazard_review entries by verdict
	hazarded    []string        // bundles a hazard_review or panel withdrawal names, each once
	withdrawals map[string]int  // by reason
	challenges  []uint64        // challenge entries' indexes
	canaries    []string        // canary bundles revealed
}

func newLedgerCount() *ledgerCount {
	return &ledgerCount{entries: map[string]int{}, seen: map[string]bool{}, verdicts: map[string]int{}, withdrawals: map[string]int{}}
}

func (c *ledgerCount) once(list *[]string, key string) {
	if !c.seen[key] {
		c.seen[key] = true
		*list = append(*list, key)
	}
}

// add counts the leaf at index, if it falls in sp.
func (c *ledgerCount) add(index uint64, leaf []byte, sp span) error {
	c.size++
	v, err := canonical.Parse(leaf)
	if err != nil {
		return fmt.Errorf("leaf %d: %w", index, err)
	}
	obj, _ := v.(map[string]any)
	entry, _ := obj["entry"].(map[string]any)
	stamp, _ := obj["timestamp"].(string)
	at, err := tlog.ParseTimestamp(stamp)
	if entry == nil || err != nil {
		return fmt.Errorf("leaf %d holds no entry or no time: %w", index, err)
	}
	if !sp.holds(at) {
		return nil
	}
	typ, _ := entry["type"].(string)
	c.entries[typ]++
	bundle, _ := entry["bundle"].(string)
	switch typ {
	case "bundle":
		if _, revealed := obj["sealed"]; revealed {
			for _, id := range stringList(obj["claims"]) {
				c.once(&c.claims, id)
			}
		}
	case "hazard_review":
		verdict, _ := entry["verdict"].(string)
		c.verdicts[verdict]++
		c.once(&c.hazarded, bundle)
	case "withdrawal":
		reason, _ := entry["reason"].(string)
		c.withdrawals[reason]++
		if jobs.PanelWithdrawal(reason) {
			c.once(&c.hazarded, bundle)
		}
	case "challenge":
		c.challenges = append(c.challenges, index)
	case "canary":
		c.canaries = append(c.canaries, bundle)
	}
	return nil
}

// stringList is the strings of a JSON list.
func stringList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, item := range list {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// panelOutcome is how a bundle's hazard panel stands on its answers:
// "upheld", "overturned" or "pending", "" with no panel (the hazard
// reviews were the round's screens), and how many concerns it overturned.
func panelOutcome(answers []ledger.Answer) (outcome string, overturned int) {
	h := hazardsOf(answers)
	if len(h.panel) == 0 {
		return "", 0
	}
	var verdicts []string
	for _, a := range h.panel {
		verdicts = append(verdicts, a.Hazard)
		decided, upheld := jobs.Panel(verdicts)
		switch {
		case decided && upheld:
			return "upheld", 0
		case decided:
			for _, c := range h.concerns {
				if !c.At.After(a.At) {
					overturned++
				}
			}
			return "overturned", overturned
		}
	}
	return "pending", 0
}

// familyScore is one model family's canary outcomes.
type familyScore map[string]int

func (f familyScore) view() map[string]any {
	out := map[string]any{"caught": f["caught"], "missed": f["missed"], "could_not_run": f["could_not_run"], "score": nil}
	if ran := f["caught"] + f["missed"]; ran > 0 {
		out["score"] = float64(f["caught"]) / float64(ran)
	}
	return out
}

func (s *Server) routeTransparency() {
	s.mux.Handle("GET /api/v1/transparency", s.serve(s.getTransparency))
}

// getTransparency answers GET /api/v1/transparency?quarter=.
func (s *Server) getTransparency(r *http.Request) (any, int, error) {
	for name := range r.URL.Query() {
		if name != "quarter" {
			return nil, 0, httpapi.BadRequest("bad_request", "Unknown parameter %q: GET /api/v1/transparency takes quarter, such as 2026-Q4", name)
		}
	}
	now := s.now()
	sp, err := parseQuarter(r.URL.Query().Get("quarter"), now)
	if err != nil {
		return nil, 0, err
	}
	ctx := r.Context()
	// One report at a time: each goes on from the count its span's last
	// report left, which it extends.
	s.reports.mu.Lock()
	defer s.reports.mu.Unlock()
	c, err := s.countLog(ctx, sp)
	if err != nil {
		return nil, 0, err
	}
	report := map[string]any{"quarter": nil, "from": nil, "to": tlog.FormatTimestamp(now), "log_size": c.size,
		"entries":     map[string]any{"total": sum(c.entries), "by_type": maps.Clone(c.entries)},
		"withdrawals": map[string]any{"total": sum(c.withdrawals), "by_reason": maps.Clone(c.withdrawals)}}
	if sp.quarter != "" {
		report["quarter"], report["from"], report["to"] = sp.quarter, tlog.FormatTimestamp(sp.from), tlog.FormatTimestamp(sp.to)
	}
	if err := s.derivedCounts(ctx, c, now, report); err != nil {
		return nil, 0, err
	}
	if err := s.recordedCounts(ctx, c, report); err != nil {
		return nil, 0, err
	}
	return report, http.StatusOK, nil
}

// reportsKept is how many spans' counts the node keeps between reports.
const reportsKept = 8

// reportBook keeps the counts of the spans last reported on, so a report
// reads only the leaves bound since the last one of its span, not the
// whole log again. mu is held for a whole report, which reads its count.
type reportBook struct {
	mu     sync.Mutex
	counts *lru.Cache[string, *ledgerCount] // by quarter, "" to date; nil until the first report
}

// countLog brings sp's count up to every bound leaf. A count that fails
// is dropped, so the next report starts it again.
func (s *Server) countLog(ctx context.Context, sp span) (*ledgerCount, error) {
	if s.reports.counts == nil {
		s.reports.counts = mustLRU[*ledgerCount](reportsKept)
	}
	c, ok := s.reports.counts.Get(sp.quarter)
	if !ok {
		c = newLedgerCount()
	}
	err := s.boundFrom(ctx, int64(c.size), func(signed store.Signed) error {
		return c.add(uint64(signed.Index), signed.Leaf, sp)
	})
	if err != nil {
		s.reports.counts.Remove(sp.quarter)
		return nil, fmt.Errorf("transparency report: %w", err)
	}
	s.reports.counts.Add(sp.quarter, c)
	return c, nil
}

// derivedCounts adds what the status Deriver says of the span's claims
// and challenges now.
func (s *Server) derivedCounts(ctx context.Context, c *ledgerCount, now time.Time, report map[string]any) error {
	byStatus := map[string]int{}
	challenges := map[string]int{status.ChallengeOpen: 0, status.ChallengeUpheld: 0, status.ChallengeRejected: 0, status.ChallengeVoid: 0}
	err := s.derived(ctx, func(d *status.Deriver) error {
		for _, id := range c.claims {
			for _, st := range d.Statuses(id, now) {
				byStatus[st]++
			}
		}
		for _, index := range c.challenges {
			if ch, ok := d.Challenge(index, now); ok {
				challenges[ch.State]++
			}
		}
		return nil
	})
	report["claims"] = map[string]any{"opened": len(c.claims), "by_status": byStatus}
	out := map[string]any{"total": len(c.challenges)}
	for k, v := range challenges {
		out[k] = v
	}
	report["challenges"] = out
	return err
}

// recordedCounts adds what the node's records say of the span's hazard
// panels and canaries, and the integrity actions they led to.
func (s *Server) recordedCounts(ctx context.Context, c *ledgerCount, report map[string]any) error {
	panels := map[string]int{"upheld": 0, "overturned": 0, "pending": 0}
	overturned := 0
	for _, hash := range c.hazarded {
		answers, err := s.store.BundleAnswers(ctx, hash)
		if err != nil {
			return err
		}
		if outcome, n := panelOutcome(answers); outcome != "" {
			panels[outcome]++
			overturned += n
		}
	}
	families := map[string]familyScore{}
	missed := 0
	for _, hash := range c.canaries {
		canary, err := s.store.Canary(ctx, hash)
		if errors.Is(err, store.ErrNotFound) {
			continue // a canary entry another node's records hold
		}
		if err != nil {
			return err
		}
		answers, err := s.store.BundleAnswers(ctx, hash)
		if err != nil {
			return err
		}
		for _, a := range answers {
			outcome := canaryOutcome(canary, a)
			if families[a.Family] == nil {
				families[a.Family] = familyScore{}
			}
			families[a.Family][outcome]++
			if outcome == "missed" {
				missed++
			}
		}
	}
	byFamily := map[string]any{}
	for f, score := range families {
		byFamily[f] = score.view()
	}
	panelWithdrawals := 0
	for reason, n := range c.withdrawals {
		if jobs.PanelWithdrawal(reason) {
			panelWithdrawals += n
		}
	}
	report["hazard_reviews"] = map[string]any{"total": sum(c.verdicts), "by_verdict": maps.Clone(c.verdicts), "panels": panels}
	report["canaries"] = map[string]any{"revealed": len(c.canaries), "by_model_family": byFamily}
	report["integrity_actions"] = map[string]any{"missed_canary_penalties": missed, "overturned_concerns": overturned,
		"panel_withdrawals": panelWithdrawals}
	return nil
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
