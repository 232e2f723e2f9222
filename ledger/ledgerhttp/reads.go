package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/internal/search"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/price"
	"github.com/agora-node/agora/ledger/schemas"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/vocabulary"
)

// Reading what opened: files, claims, and the documents a bundle is
// checked against.

func (s *Server) routeReads() {
	s.mux.HandleFunc("GET /api/v1/files/{digest}", s.getFile)
	s.mux.Handle("GET /api/v1/files", s.serve(s.listFiles))
	s.mux.Handle("GET /api/v1/claims", s.serve(s.searchClaims))
	s.mux.Handle("GET /api/v1/claims/{id}", s.serve(s.getClaim))
	s.mux.Handle("GET /api/v1/replications", s.serve(s.getReplications))
	s.mux.Handle("POST /api/v1/claims/validate", s.serve(s.validateClaims))
	s.mux.Handle("GET /api/v1/schemas/{name}", s.serve(func(r *http.Request) (any, int, error) {
		doc, ok := schemas.Document(r.PathValue("name"))
		if !ok {
			return nil, 0, httpapi.NotFound("No schema %q: the schemas are claims.json, references.json, materials.json, deviations.json and external.json", r.PathValue("name"))
		}
		return httpapi.Text{ContentType: "application/schema+json", Body: doc}, http.StatusOK, nil
	}))
	s.mux.Handle("GET /api/v1/hazard-rubric", s.serve(func(*http.Request) (any, int, error) {
		// The reference harness reads {rubric: <digest>, text, verdicts};
		// digest repeats the digest for readers of the earlier shape.
		return map[string]any{"rubric": hazard.Digest(), "digest": hazard.Digest(), "text": string(hazard.Text()),
			"verdicts": stringsAny(vocabulary.HazardVerdicts)}, http.StatusOK, nil
	}))
	s.mux.Handle("GET /api/v1/prices", s.serve(s.getPrices))
}

// rates are the node's current prices: the CPU and GPU pools' rates follow
// their backlogs (jobs.Rate); the lab and field pools, whose rates follow
// replication bounties, and the commons are not kept yet, so they stay at
// the base rate and empty.
func (s *Server) rates() price.Rates {
	r := price.BaseRates()
	b, err := s.store.Backlog(context.Background(), s.now().Add(-jobs.PaceWindow))
	if err != nil {
		s.logger.Warn("reading the backlog for prices; base rates it is", "err", err)
		return r
	}
	r.CPU, r.GPU = jobs.Rate(b.OpenCPU, b.ClearedCPU), jobs.Rate(b.OpenGPU, b.ClearedGPU)
	return r
}

// getFile answers GET /api/v1/files/{digest}: a file of an open bundle,
// streamed, with ranges, and cached for good since its name is its hash.
// The answer has as long as the file's size needs (allowTransfer).
func (s *Server) getFile(w http.ResponseWriter, r *http.Request) {
	digest := r.PathValue("digest")
	if !claims.IsDigest(digest) {
		httpapi.WriteError(s.logger, w, r, httpapi.BadRequest("bad_request", "%q is not a digest (sha256: and 64 lowercase hex digits)", digest))
		return
	}
	f, err := s.store.ServedFile(r.Context(), digest)
	if errors.Is(err, store.ErrNotFound) {
		err = s.withdrawnFile(r.Context(), digest, err)
	}
	if err != nil {
		httpapi.WriteError(s.logger, w, r, err)
		return
	}
	file, err := s.blobs.Open(digest)
	if err != nil {
		httpapi.WriteError(s.logger, w, r, fmt.Errorf("file %s of an open bundle: %w", digest, err))
		return
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		httpapi.WriteError(s.logger, w, r, fmt.Errorf("file %s of an open bundle: %w", digest, err))
		return
	}
	s.allowTransfer(w, r, info.Size())
	ctype := mime.TypeByExtension(path.Ext(f.Path))
	switch {
	case path.Ext(f.Path) == ".md":
		ctype = "text/markdown; charset=utf-8"
	case ctype == "":
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Header().Set("ETag", `"`+digest+`"`)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// An agent's file is served as its type says, HTML and SVG among
	// them, from the origin the node's pages are on: sandboxed, no script
	// in it runs and it reaches nothing of the node's.
	w.Header().Set("Content-Security-Policy", "sandbox; default-src 'none'")
	http.ServeContent(w, r, "", time.Time{}, file)
}

// listFiles answers GET /api/v1/files?start&end: the entries in that range
// whose files the node serves, for mirrors.
func (s *Server) listFiles(r *http.Request) (any, int, error) {
	start, hasStart, err := httpapi.QueryUint(r, "start")
	if err != nil {
		return nil, 0, err
	}
	end, hasEnd, err := httpapi.QueryUint(r, "end")
	if err != nil {
		return nil, 0, err
	}
	if !hasStart {
		return nil, 0, httpapi.BadRequest("bad_request", "Ask with start (and end), log indexes")
	}
	if !hasEnd || end > start+maxEntriesPage {
		end = start + maxEntriesPage
	}
	if end < start {
		return nil, 0, httpapi.BadRequest("bad_request", "end (%d) is before start (%d)", end, start)
	}
	opened, err := s.store.OpenedBetween(r.Context(), int64(start), int64(end))
	if err != nil {
		return nil, 0, err
	}
	entries := make([]any, 0, len(opened))
	for _, b := range opened {
		files := map[string]any{}
		for _, f := range b.Files {
			if f.Path != bundle.SignatureFile {
				files[f.Path] = f.Digest
			}
		}
		entries = append(entries, map[string]any{"index": b.RevealedIndex, "bundle": b.Hash, "files": files})
	}
	return map[string]any{"entries": entries}, http.StatusOK, nil
}

// searchClaims answers GET /api/v1/claims.
func (s *Server) searchClaims(r *http.Request) (any, int, error) {
	q := r.URL.Query()
	for name := range q {
		switch name {
		case "q", "field", "type", "status", "operator", "depends_on", "cites", "sort", "before", "offset", "since", "wait", "limit":
		default:
			return nil, 0, httpapi.BadRequest("bad_request", "Unknown parameter %q", name)
		}
	}
	limit := vocabulary.DefaultClaimsPage
	if v, ok, err := httpapi.QueryUint(r, "limit"); err != nil {
		return nil, 0, err
	} else if ok {
		if v < 1 || v > vocabulary.MaxClaimsPage {
			return nil, 0, httpapi.BadRequest("bad_request", "limit is 1 to %d", vocabulary.MaxClaimsPage)
		}
		limit = int(v)
	}
	words, err := ftsQuery(q.Get("q"))
	if err != nil {
		return nil, 0, err
	}
	cq := ledger.ClaimQuery{Words: words, Field: q.Get("field"), Type: q.Get("type"), Operator: q.Get("operator"),
		DependsOn: q.Get("depends_on"), Cites: q.Get("cites"), Limit: limit}
	var wanted []string
	if list := q.Get("status"); list != "" {
		for _, st := range strings.Split(list, ",") {
			if !isStatus(st) {
				return nil, 0, httpapi.BadRequest("bad_request", "status %q is none of %s", st, strings.Join(vocabulary.Statuses, ", "))
			}
			wanted = append(wanted, st)
		}
	}
	search := func(ctx context.Context, cq ledger.ClaimQuery) ([]ledger.FoundClaim, error) {
		return s.searchWithStatus(ctx, cq, wanted)
	}
	since, following, err := httpapi.QueryUint(r, "since")
	if err != nil {
		return nil, 0, err
	}
	sort := q.Get("sort")
	if sort != "" && sort != "importance" && sort != "new" {
		return nil, 0, httpapi.BadRequest("bad_request", "sort is new or importance")
	}
	offset, hasOffset, err := httpapi.QueryUint(r, "offset")
	if err != nil {
		return nil, 0, err
	}
	if hasOffset && sort != "importance" {
		return nil, 0, httpapi.BadRequest("bad_request", "offset pages sort=importance; newest-first pages with before")
	}
	switch {
	case following:
		cq.Follow, cq.Since = true, int64(since)
		wait, _, err := httpapi.QueryUint(r, "wait")
		if err != nil {
			return nil, 0, err
		}
		hold, release := s.waits.hold(r, min(time.Duration(wait)*time.Second, maxWait))
		found, err := s.followClaims(r.Context(), cq, hold, search)
		release()
		if err != nil {
			return nil, 0, err
		}
		next := int64(since)
		if len(found) > 0 {
			next = found[len(found)-1].Opened
		}
		list, err := s.claimList(r.Context(), found)
		if err != nil {
			return nil, 0, err
		}
		return map[string]any{"claims": list, "next": map[string]any{"since": next}}, http.StatusOK, nil
	case sort == "importance":
		page, more, err := s.byImportance(r.Context(), cq, int(offset), search)
		if err != nil {
			return nil, 0, err
		}
		var next any
		if more {
			next = map[string]any{"offset": int(offset) + len(page)}
		}
		list, err := s.claimList(r.Context(), page)
		if err != nil {
			return nil, 0, err
		}
		return map[string]any{"claims": list, "next": next}, http.StatusOK, nil
	}
	if before, ok, err := httpapi.QueryUint(r, "before"); err != nil {
		return nil, 0, err
	} else if ok {
		cq.Before = int64(before)
	}
	found, err := search(r.Context(), cq)
	if err != nil {
		return nil, 0, err
	}
	var next any
	if len(found) >= limit {
		next = map[string]any{"before": found[len(found)-1].Opened}
	}
	list, err := s.claimList(r.Context(), found)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"claims": list, "next": next}, http.StatusOK, nil
}

// followClaims finds claims opened after cq.Since, waiting up to wait for
// one to open.
func (s *Server) followClaims(ctx context.Context, cq ledger.ClaimQuery, wait time.Duration,
	search func(context.Context, ledger.ClaimQuery) ([]ledger.FoundClaim, error)) ([]ledger.FoundClaim, error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		found, err := search(context.WithoutCancel(ctx), cq)
		if err != nil || len(found) > 0 || wait <= 0 {
			return found, err
		}
		_, size := s.head()
		if _, err := s.log.WaitForSize(ctx, size+1); err != nil {
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				return s.store.SearchClaims(context.WithoutCancel(ctx), cq)
			}
			return nil, err
		}
		// The entry that grew the log is bound a moment after it is
		// published; give it that moment.
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func isStatus(s string) bool {
	for _, st := range vocabulary.Statuses {
		if st == s {
			return true
		}
	}
	return false
}

// ftsQuery turns a web-search query into an FTS5 query: every word must
// appear, each also finding the words it starts; "a phrase" as written;
// or between two words takes either; -word leaves out claims that have it.
func ftsQuery(q string) (string, error) {
	var parts []string
	var negatives []string
	pendingOr := false
	rest := strings.TrimSpace(q)
	for rest != "" {
		var term string
		negative := false
		if rest[0] == '-' {
			negative, rest = true, rest[1:]
		}
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				end = len(rest) - 1
			}
			words := tokens(rest[1 : 1+end])
			rest = strings.TrimSpace(rest[min(len(rest), end+2):])
			if len(words) == 0 {
				continue
			}
			term = `"` + strings.Join(words, " ") + `"`
		} else {
			word, after, _ := strings.Cut(rest, " ")
			rest = strings.TrimSpace(after)
			if strings.EqualFold(word, "or") && len(parts) > 0 && !negative {
				pendingOr = true
				continue
			}
			words := tokens(word)
			if len(words) == 0 {
				continue
			}
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = search.FTS5(w)
			}
			term = strings.Join(quoted, " AND ")
			if len(words) > 1 {
				term = "(" + term + ")"
			}
		}
		switch {
		case negative:
			negatives = append(negatives, term)
		case pendingOr:
			parts[len(parts)-1] = "(" + parts[len(parts)-1] + " OR " + term + ")"
			pendingOr = false
		default:
			parts = append(parts, term)
		}
	}
	if len(parts) == 0 {
		if len(negatives) > 0 {
			return "", httpapi.BadRequest("bad_request", "q needs a word to find besides those it leaves out")
		}
		return "", nil
	}
	out := strings.Join(parts, " AND ")
	for _, neg := range negatives {
		out += " NOT " + neg
	}
	return out, nil
}

// tokens splits text into words as every search does (search.Words).
func tokens(text string) []string { return search.Words(text) }

// claimList is claims as a search answers them, each with the statuses
// its log derives.
func (s *Server) claimList(ctx context.Context, found []ledger.FoundClaim) ([]any, error) {
	derived, err := s.claimStatuses(ctx, found)
	if err != nil {
		return nil, err
	}
	ims, err := s.claimsImportance(ctx, found)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(found))
	for i, c := range found {
		answer := claimAnswer(c)
		answer["statuses"] = statusList(c, derived)
		answer["importance"] = ims[c.ID].object()
		out[i] = answer
	}
	return out, nil
}

func claimAnswer(c ledger.FoundClaim) map[string]any {
	v, _ := canonical.Parse(c.JSON)
	return map[string]any{
		"claim_id": c.ID, "local_id": c.LocalID, "type": c.Type, "statement": c.Statement,
		"assertion_digest": c.Assertion, "claim": v, "bundle": c.Bundle, "operator": c.Operator,
		"fields": stringsAny(c.Fields), "depends_on": stringsAny(c.DependsOn), "cites": stringsAny(c.Cites),
		"written_by": c.WrittenBy, "published_in": c.Opened, "published_at": formatTime(c.OpenedAt),
		"statuses":   []any{"published"},
		"importance": map[string]any{"score": nil, "ratings": 0, "revealed": false},
	}
}

func formatTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// getClaim answers GET /api/v1/claims/{id}.
func (s *Server) getClaim(r *http.Request) (any, int, error) {
	id := r.PathValue("id")
	if !claims.IsClaimID(id) {
		return nil, 0, httpapi.BadRequest("bad_request", "%q is not a claim ID (claim: and 64 lowercase hex digits)", id)
	}
	ctx := r.Context()
	found, err := s.store.Claim(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	latest := found[len(found)-1]
	bundles := make([]any, len(found))
	for i, c := range found {
		bundles[i] = map[string]any{"bundle": c.Bundle, "published_in": c.Opened, "withdrawn": c.Withdrawn}
	}
	answer := claimAnswer(latest)
	answer["bundles"] = bundles
	derived, err := s.claimStatuses(ctx, found[len(found)-1:])
	if err != nil {
		return nil, 0, err
	}
	answer["statuses"] = statusList(latest, derived)
	if latest.Withdrawn {
		answer["claim"] = nil
		answer["statement"] = nil
	}
	answer["requirements"] = map[string]any{
		"published": map[string]any{"logs": map[string]any{"each": latest.Opened}},
	}
	answer["attestations"] = []any{}
	answer["correct_by"] = nil
	if got, ok := derived[latest.ID]; ok {
		answer["requirements"] = got.Requirements
		answer["attestations"] = attestationViews(got)
		if !got.CorrectBy.IsZero() {
			answer["correct_by"] = formatTime(got.CorrectBy)
		}
	}
	restated, err := s.store.Restatements(ctx, latest.Assertion, id)
	if err != nil {
		return nil, 0, err
	}
	restatements := make([]any, 0, len(restated))
	for _, c := range restated {
		when := "later"
		if c.Opened < latest.Opened {
			when = "earlier"
		}
		restatements = append(restatements, map[string]any{"claim_id": c.ID, "bundle": c.Bundle, "when": when,
			"independent": c.Operator != latest.Operator})
	}
	answer["restatements"] = restatements
	dependents, err := s.store.DependedOnBy(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]any, len(dependents))
	for i, c := range dependents {
		ids[i] = c.ID
	}
	answer["depended_on_by"] = ids
	ims, err := s.importanceOf(ctx, latest.Bundle, []string{latest.ID})
	if err != nil {
		return nil, 0, err
	}
	im := ims[latest.ID]
	answer["importance"] = im.object()
	answer["importance_ratings"] = im.ratingsView(latest.ID)
	answer["importance_habits"] = nil
	if !im.revealed.IsZero() {
		answer["importance_habits"] = map[string]any{"measured_at": tlog.FormatTimestamp(im.habits.At)}
	}
	answer["preregistered"] = nil
	answer["challenges"], answer["appeals"] = []any{}, []any{}
	if aps, err := s.appeals(ctx, latest.Bundle); err != nil {
		return nil, 0, err
	} else {
		list := []any{}
		for _, ap := range aps {
			if slices.ContainsFunc(ap.jobs[0].Claims, func(c ledger.JobClaim) bool { return c.ClaimID == latest.ID }) {
				list = append(list, ap.view(s.now()))
			}
		}
		answer["appeals"] = list
	}
	if got, ok := derived[latest.ID]; ok {
		if c, _ := got.Requirements["contested"].(map[string]any); c != nil {
			answer["challenges"] = c["challenges"]
		}
	}
	if err := s.derived(ctx, func(d *status.Deriver) error {
		now := s.now()
		checked := d.Citations(latest.Bundle)
		cites := []any{}
		for _, ref := range latest.Cites {
			verdicts := map[string]any{}
			for v, n := range checked[ref].Verdicts {
				verdicts[v] = n
			}
			cites = append(cites, map[string]any{"id": ref, "verdicts": verdicts, "could_not_access": checked[ref].Verdicts["could_not_access"]})
		}
		answer["cites"] = cites
		answer["depends_on_refuted"] = stringsAny(d.DependsOnHeld(latest.ID, "refuted", now))
		answer["depends_on_retracted"] = stringsAny(d.DependsOnHeld(latest.ID, "retracted", now))
		if p, ok := d.PreregistrationOf(latest.ID); ok {
			pre := map[string]any{"preregistration": p.ID, "registered_at": tlog.FormatTimestamp(p.At), "bundle": p.Bundle}
			if b, err := s.store.Bundle(context.WithoutCancel(ctx), p.Bundle); err == nil {
				pre["days_before_submission"] = int(b.At.Sub(p.At).Hours() / 24)
			}
			answer["preregistered"] = pre
		}
		return nil
	}); err != nil {
		return nil, 0, err
	}
	answer["retractions"] = []any{}
	if rt, err := s.bundleRetraction(ctx, latest.Bundle); err != nil {
		return nil, 0, err
	} else if rt != nil {
		answer["retractions"] = []any{rt}
	}
	return answer, http.StatusOK, nil
}

// maxValidateBody bounds POST /api/v1/claims/validate.
const maxValidateBody = 256 << 10

// validateClaims answers POST /api/v1/claims/validate.
func (s *Server) validateClaims(r *http.Request) (any, int, error) {
	body, err := httpapi.ReadJSON(r, maxValidateBody)
	if err != nil {
		return nil, 0, err
	}
	obj, ok := body.(map[string]any)
	if !ok {
		return nil, 0, httpapi.BadRequest("bad_request", `The body is {"claims": [...], "verification_inputs": "sha256:...", "results": {...}}`)
	}
	for k := range obj {
		if k != "claims" && k != "verification_inputs" && k != "results" {
			return nil, 0, httpapi.BadRequest("bad_request", "Unknown member %q: the body holds claims, verification_inputs and results", k)
		}
	}
	list, present := obj["claims"]
	if !present {
		return nil, 0, httpapi.BadRequest("bad_request", `The body needs "claims", the contents of claims.json`)
	}
	cs, issues := claims.Check(list)
	if len(issues) > 0 {
		return validationFailed(issues), http.StatusUnprocessableEntity, nil
	}
	inputs, hasInputs := obj["verification_inputs"].(string)
	if _, present := obj["verification_inputs"]; present && (!hasInputs || !claims.IsDigest(inputs)) {
		return nil, 0, httpapi.BadRequest("bad_request", "verification_inputs is a digest: sha256: and 64 lowercase hex digits")
	}
	results, _ := obj["results"].(map[string]any)
	if _, present := obj["results"]; present && results == nil {
		return nil, 0, httpapi.BadRequest("bad_request", "results is an object of result names to their declared values")
	}
	var ids []string
	if hasInputs {
		for i, c := range cs {
			for j, ev := range c.Evidence {
				if ev.Result != "" {
					if _, ok := results[ev.Result]; !ok {
						return validationFailed([]claims.Issue{{Path: claims.Pointer(i, "evidence", j, "result"),
							Message: "give the declared value of " + ev.Result + " in results"}}), http.StatusUnprocessableEntity, nil
					}
				}
			}
		}
		ids, err = claims.AssignIDs(cs, inputs, results)
	} else {
		ids, err = claims.AssignIDsWithoutInputs(cs)
	}
	if err != nil {
		return validationFailed([]claims.Issue{{Path: "", Message: err.Error()}}), http.StatusUnprocessableEntity, nil
	}
	out := make([]any, len(cs))
	for i := range cs {
		d, err := claims.AssertionDigest(&cs[i])
		if err != nil {
			return nil, 0, err
		}
		var id any
		if ids[i] != "" {
			id = ids[i]
		}
		out[i] = map[string]any{"local_id": cs[i].LocalID, "claim_id": id, "assertion_digest": d}
	}
	return map[string]any{"valid": true, "claims": out}, http.StatusOK, nil
}

func validationFailed(issues []claims.Issue) map[string]any {
	list := make([]any, len(issues))
	for i, is := range issues {
		list[i] = map[string]any{"path": is.Path, "message": is.Message}
	}
	return map[string]any{"valid": false, "issues": list}
}

var _ = strconv.Itoa
