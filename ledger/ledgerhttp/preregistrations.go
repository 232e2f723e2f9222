package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/vocabulary"
)

// Pre-registration ("Pre-registering a plan"): POST
// /api/v1/preregistrations logs a signed commitment to a plan's digest
// before its work runs, and GET /api/v1/preregistrations/{id} shows one
// with the bundles that reported it. A bundle reports one by citing it in
// references.json and carrying the plan under plan/, which the bundle
// check holds to the digest registered by the author's organization.

// Pre-registration limits.
const (
	PreregsPerOperator = 20
	PreregsPerOrg      = 80
	MaxReportDays      = 1095
	// PlanDir is where a bundle carries the plan it reports.
	PlanDir = "plan/"
)

var preregMembers = []string{"type", "operator", "plan", "report_by", "model_family", "model", "sig"}

func (s *Server) routePreregistrations() {
	s.mux.Handle("POST /api/v1/preregistrations", s.serve(s.preregister))
	s.mux.Handle("GET /api/v1/preregistrations/{id}", s.serve(s.getPreregistration))
}

// preregister answers POST /api/v1/preregistrations.
func (s *Server) preregister(r *http.Request) (any, int, error) {
	entry, _, err := s.signedObject(r, "preregistration")
	if err != nil {
		return nil, 0, err
	}
	for k := range entry {
		if !slices.Contains(preregMembers, k) {
			return nil, 0, httpapi.BadRequest("bad_request", "No member %q in a preregistration; its members are %s", k, strings.Join(preregMembers, ", "))
		}
	}
	operator, _ := entry["operator"].(string)
	plan, _ := entry["plan"].(string)
	reportBy, _ := entry["report_by"].(string)
	now := s.now()
	day, dateErr := time.Parse(time.DateOnly, reportBy)
	switch {
	case entry["type"] != "preregistration":
		return nil, 0, httpapi.BadRequest("bad_request", `type must be "preregistration"`)
	case !protocol.IsOperatorID(operator):
		return nil, 0, httpapi.BadRequest("bad_request", "operator is your operator ID")
	case !claims.IsDigest(plan):
		return nil, 0, httpapi.BadRequest("bad_request", "plan is the digest of your plan's files (the bundle-hash rule, paths relative to the plan's folder)")
	case dateErr != nil:
		return nil, 0, httpapi.BadRequest("bad_request", "report_by is a date, YYYY-MM-DD")
	case day.Before(now.UTC().Truncate(24*time.Hour)) || day.After(now.AddDate(0, 0, MaxReportDays)):
		return nil, 0, httpapi.BadRequest("bad_request", "report_by is from today to %d days out", MaxReportDays)
	}
	if _, ok := entry["model_family"]; ok && !vocabulary.IsModelFamily(fmt.Sprint(entry["model_family"])) {
		return nil, 0, httpapi.BadRequest("bad_request", "model_family is one of %s", strings.Join(vocabulary.FamilyNames(), ", "))
	}
	ctx := r.Context()
	op, identity, err := s.verifier(ctx, operator, entry, http.StatusUnprocessableEntity)
	if err != nil {
		var he *httpapi.Error
		if errors.As(err, &he) && he.Code == "no_identity" {
			he.Message = "Pre-registering takes an identity: prove one with POST /api/v1/operators/" + operator + "/identity"
		}
		return nil, 0, err
	}
	id, err := protocol.PreregistrationID(entry)
	if err != nil {
		return nil, 0, httpapi.BadRequest("bad_request", "%v", err)
	}
	if got, ok, err := s.preregistration(ctx, id); err != nil {
		return nil, 0, err
	} else if ok {
		return map[string]any{"preregistration": id, "entry_index": got.Index}, http.StatusOK, nil
	}
	for _, l := range []struct {
		bucket string
		limit  int
	}{{"prereg:op:" + op.ID, PreregsPerOperator}, {"prereg:org:" + identity.Organization, PreregsPerOrg}} {
		ok, retry, err := s.store.Take(ctx, l.bucket, l.limit, vocabulary.Day, now)
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			return nil, 0, &httpapi.Error{Status: http.StatusTooManyRequests, Code: "rate_limited", RetryAfter: int(retry.Seconds()) + 1,
				Message: fmt.Sprintf("At most %d pre-registrations in 24 hours", l.limit)}
		}
	}
	index, err := s.logSigned(ctx, op, entry)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"preregistration": id, "entry_index": index}, http.StatusCreated, nil
}

// preregistration looks a registration up on the log.
func (s *Server) preregistration(ctx context.Context, id string) (status.Preregistration, bool, error) {
	var p status.Preregistration
	var ok bool
	err := s.derived(ctx, func(d *status.Deriver) error {
		p, ok = d.Preregistration(id)
		return nil
	})
	return p, ok, err
}

func preregView(p status.Preregistration) map[string]any {
	return map[string]any{"preregistration": p.ID, "entry_index": p.Index, "operator": p.Operator, "plan": p.Plan,
		"report_by": p.ReportBy, "registered_at": tlog.FormatTimestamp(p.At), "bundles": stringsAny(p.Bundles)}
}

// getPreregistration answers GET /api/v1/preregistrations/{id}.
func (s *Server) getPreregistration(r *http.Request) (any, int, error) {
	id := r.PathValue("id")
	if !strings.HasPrefix(id, "prereg:") || !claims.IsDigest("sha256:"+strings.TrimPrefix(id, "prereg:")) {
		return nil, 0, httpapi.BadRequest("bad_request", "%q is not a pre-registration ID (prereg: and 64 lowercase hex digits)", id)
	}
	p, ok, err := s.preregistration(r.Context(), id)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0, httpapi.NotFound("No pre-registration %s is logged here", id)
	}
	return preregView(p), http.StatusOK, nil
}

// planDigest is the digest of the plan files carries under plan/, by
// their paths within it, as they were registered; "" when it carries
// none.
func planDigest(files map[string][]byte) (string, error) {
	plan := map[string]any{}
	for p, data := range files {
		if rel, ok := strings.CutPrefix(p, PlanDir); ok {
			plan[rel] = canonical.Digest(data)
		}
	}
	if len(plan) == 0 {
		return "", nil
	}
	data, err := canonical.Marshal(plan)
	if err != nil {
		return "", err
	}
	return canonical.Digest(data), nil
}

// checkReportedPlan checks the registration c's references.json cites, if
// any: one only, registered by the author's organization, its plan the
// files under plan/.
func (s *Server) checkReportedPlan(ctx context.Context, c *checkedBundle, org string, add func(file, path, format string, args ...any)) error {
	v, err := canonical.Parse(c.req.files["references.json"])
	if err != nil {
		return nil
	}
	refs, _ := v.([]any)
	var cited []int
	for i, r := range refs {
		ref, _ := r.(map[string]any)
		if id, _ := ref["id"].(string); strings.HasPrefix(id, "prereg:") {
			cited = append(cited, i)
		}
	}
	if len(cited) == 0 {
		return nil
	}
	if len(cited) > 1 {
		add("references.json", fmt.Sprintf("/%d/id", cited[1]), "a bundle reports one pre-registration; cite the one this work followed")
	}
	at := fmt.Sprintf("/%d/id", cited[0])
	id := refs[cited[0]].(map[string]any)["id"].(string)
	p, ok, err := s.preregistration(ctx, id)
	if err != nil {
		return err
	}
	got, err := planDigest(c.req.files)
	if err != nil {
		return err
	}
	switch {
	case !ok:
		add("references.json", at, "no pre-registration %s is logged here", id)
	case got == "":
		// Citing a registration without its plan, as a replication
		// following another's does.
	case p.Organization != org:
		add("references.json", at, "%s was registered by another organization: a bundle carries under plan/ only a plan its own organization registered", id)
	case got != p.Plan:
		add("references.json", at, "the files under plan/ digest to %s, not the %s registered", got, p.Plan)
	}
	return nil
}
