package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// The answers to checks of published bundles: POST
// /api/v1/citation-checks and /api/v1/duplicate-checks take a signed
// check with its evidence, logged as signed once a checkpoint covers it
// ({"citation_check": index} or {"duplicate_check": index}); POST
// /api/v1/importance-ratings takes a signed rating, kept and never logged,
// and answers where the claims' ratings stand. Each is checked as an
// attestation is: its members, then its signature and the job it
// answers, then what the job lists, and only then its evidence.

func (s *Server) routeChecks() {
	s.mux.Handle("POST /api/v1/citation-checks", s.serve(s.citationCheck))
	s.mux.Handle("POST /api/v1/duplicate-checks", s.serve(s.duplicateCheck))
	s.mux.Handle("POST /api/v1/importance-ratings", s.serve(s.rateImportance))
	s.mux.Handle("GET /api/v1/rating-habits", s.serve(s.getRatingHabits))
	s.routeDownloads()
}

// signedAnswer checks who signed an answer whose members had issues list,
// in the order the spec gives: an operator ID to look up, then its
// signature and identity, then the members (422 code).
func (s *Server) signedAnswer(ctx context.Context, who string, entry map[string]any, list []jobs.Issue, code, what string) (store.Operator, store.Identity, error) {
	if !protocol.IsOperatorID(who) {
		return store.Operator{}, store.Identity{}, issuesError(http.StatusUnprocessableEntity, code, what, list)
	}
	op, identity, err := s.verifier(ctx, who, entry, http.StatusUnprocessableEntity)
	if err == nil && len(list) > 0 {
		err = issuesError(http.StatusUnprocessableEntity, code, what, list)
	}
	return op, identity, err
}

// checkAnswer is what a check's entry says, as the shared steps need it.
type checkAnswer struct {
	who, bundle, family, evidence string
	verdicts                      map[string]string
	withWork                      bool
}

// checkKind is one kind of logged check.
type checkKind struct {
	kind, answer string // the job kind, and the member naming the answer's index
	check        func(map[string]any) (checkAnswer, []jobs.Issue)
	// listed are the keys the job's verdicts must cover, with the
	// pointer prefix and name of one, from the job's needs.
	listed func(context.Context, *Server, ledger.Job) ([]string, string, string, error)
	// sealedUntil, when set, runs once a sealed answer is logged, to open
	// what may be opened; after, when set, runs once the answer is logged.
	sealedUntil func(context.Context, *Server, ledger.Job) error
	after       func(context.Context, *Server, ledger.Job) error
	// reply, when set, gives what the answer says besides its index.
	reply func(ctx context.Context, s *Server, j ledger.Job, index uint64) (map[string]any, error)
}

var citationKind = checkKind{kind: jobs.CitationCheck, answer: "citation_check",
	check: func(e map[string]any) (checkAnswer, []jobs.Issue) {
		c, list := jobs.CheckCitationCheck(e)
		return checkAnswer{c.Checker, c.Bundle, c.ModelFamily, c.Evidence, c.Citations, jobs.CitationsWithWork(c.Citations)}, list
	},
	listed: func(ctx context.Context, s *Server, j ledger.Job) ([]string, string, string, error) {
		list, err := s.checkDetail(ctx, j, "citations")
		var refs []string
		for _, c := range list {
			refs = append(refs, fmt.Sprint(c.(map[string]any)["reference"]))
		}
		return refs, "/citations", "citation", err
	},
}

var duplicateKind = checkKind{kind: jobs.DuplicateCheck, answer: "duplicate_check",
	check: func(e map[string]any) (checkAnswer, []jobs.Issue) {
		d, list := jobs.CheckDuplicateCheck(e)
		verdicts := d.Verdicts()
		withWork := slices.ContainsFunc(d.Pairs, func(p jobs.DuplicatePair) bool { return !jobs.Idle(p.Verdict) })
		return checkAnswer{d.Checker, d.Bundle, d.ModelFamily, d.Evidence, verdicts, withWork}, list
	},
	listed: func(ctx context.Context, s *Server, j ledger.Job) ([]string, string, string, error) {
		list, err := s.checkDetail(ctx, j, "pairs")
		var keys []string
		for _, p := range list {
			p := p.(map[string]any)
			keys = append(keys, jobs.PairKey(fmt.Sprint(p["claim"]), fmt.Sprint(p["earlier"])))
		}
		return keys, "/pairs", "pair", err
	},
}

func (s *Server) citationCheck(r *http.Request) (any, int, error) {
	return s.answerCheck(r, citationKind)
}
func (s *Server) duplicateCheck(r *http.Request) (any, int, error) {
	return s.answerCheck(r, duplicateKind)
}

// answerCheck answers a logged check of kind k: {"entry", "evidence":
// {"files"}}.
func (s *Server) answerCheck(r *http.Request, k checkKind) (any, int, error) {
	entry, body, err := s.signedObject(r, k.answer)
	if err != nil {
		return nil, 0, err
	}
	if _, bare := body["type"]; bare {
		return nil, 0, httpapi.BadRequest("bad_request", `The body is {"entry": <%s>, "evidence": {"files": {path: base64}}}`, k.answer)
	}
	ctx, now := r.Context(), s.now()
	a, list := k.check(entry)
	op, identity, err := s.signedAnswer(ctx, a.who, entry, list, "invalid_check", "The "+k.answer)
	if err != nil {
		return nil, 0, err
	}
	finish, err := s.answering(ctx, op.ID)
	if err != nil {
		return nil, 0, err
	}
	defer finish()
	job, err := s.heldJob(ctx, op.ID, a.bundle, a.family, now, k.kind)
	if err != nil {
		return nil, 0, err
	}
	want, prefix, what, err := k.listed(ctx, s, job)
	if err != nil {
		return nil, 0, err
	}
	if bad := jobs.CheckCovers(a.verdicts, want, prefix, what); len(bad) > 0 {
		return nil, 0, issuesError(http.StatusUnprocessableEntity, "verdicts", "The "+k.answer+"'s verdicts", bad)
	}
	files, err := evidenceFiles(body, a.evidence)
	if err != nil {
		return nil, 0, err
	}
	if err := s.keepEvidence(ctx, a.evidence, files); err != nil {
		return nil, 0, fmt.Errorf("storing evidence: %w", err)
	}
	index, err := s.logAnswer(ctx, job, entry, op.ID, identity.Organization, a.family, a.verdicts, "", a.withWork, now)
	if err != nil {
		return nil, 0, err
	}
	if k.sealedUntil != nil {
		if err := k.sealedUntil(ctx, s, job); err != nil {
			s.logger.Error("opening sealed answers", "job", job.ID, "err", err)
		}
	}
	if k.after != nil {
		if err := k.after(ctx, s, job); err != nil {
			s.logger.Error("after a check's answer", "job", job.ID, "err", err)
		}
	}
	if k.kind == jobs.CitationCheck && !a.withWork {
		if err := s.closeUnreachedCitations(ctx, job.Bundle); err != nil {
			s.logger.Error("closing a bundle's citation checks", "bundle", job.Bundle, "err", err)
		}
	}
	answer := map[string]any{k.answer: index}
	if k.reply != nil {
		// The answer is logged: a reply that can't be made is logged, and
		// the index still answered.
		more, err := k.reply(ctx, s, job, index)
		if err != nil {
			s.logger.Error("replying to a check's answer", "job", job.ID, "err", err)
		}
		maps.Copy(answer, more)
	}
	return answer, http.StatusCreated, nil
}

// CitationMisses is how many citation checks that got to no source close
// a bundle's remaining ones, their price going back to its author.
const CitationMisses = 3

func (s *Server) closeUnreachedCitations(ctx context.Context, hash string) error {
	ctx = context.WithoutCancel(ctx)
	answers, err := s.store.BundleAnswers(ctx, hash)
	if err != nil {
		return err
	}
	misses := 0
	for _, a := range answers {
		if a.Kind == jobs.CitationCheck && !a.WithWork {
			misses++
		}
	}
	if misses < CitationMisses {
		return nil
	}
	all, err := s.store.BundleJobs(ctx, hash)
	if err != nil {
		return err
	}
	left := 0
	for _, j := range all {
		if j.Kind == jobs.CitationCheck && !j.Done {
			left += j.Credits
		}
	}
	b, err := s.store.Bundle(ctx, hash)
	if err != nil {
		return err
	}
	moves, err := s.refundIfPaid(ctx, b, "citation_checks", left)
	if err != nil {
		return err
	}
	_, err = s.store.RetireBundleJobs(ctx, hash, jobs.CitationCheck, moves)
	return err
}

// RatingsToReveal is how many organizations rate a claim before its
// ratings show: those its score is made of.
const RatingsToReveal = jobs.RatingsToScore

// rateImportance answers POST /api/v1/importance-ratings: {"entry":
// <importance_rating>}, or the rating bare.
func (s *Server) rateImportance(r *http.Request) (any, int, error) {
	entry, _, err := s.signedObject(r, "importance_rating")
	if err != nil {
		return nil, 0, err
	}
	ctx, now := r.Context(), s.now()
	rt, list := jobs.CheckImportanceRating(entry)
	op, identity, err := s.signedAnswer(ctx, rt.Rater, entry, list, "invalid_rating", "The importance rating")
	if err != nil {
		return nil, 0, err
	}
	unlock, err := s.lockOperator(ctx, op.ID)
	if err != nil {
		return nil, 0, err
	}
	defer unlock()
	// A family that wrote the bundle may rate it (assignment lets one of
	// them), so the held job is not refused for the family.
	job, err := s.heldJob(ctx, op.ID, rt.Bundle, "", now, jobs.ImportanceRating)
	if err != nil {
		return nil, 0, err
	}
	var want []string
	for _, c := range job.Claims {
		want = append(want, c.ClaimID)
	}
	if bad := jobs.CheckCovers(rt.Scores, want, "/scores", "claim"); len(bad) > 0 {
		return nil, 0, issuesError(http.StatusUnprocessableEntity, "verdicts", "The importance rating's scores", bad)
	}
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	var pay []jobs.Movement
	if job.Credits > 0 {
		pay = []jobs.Movement{{Operator: op.ID, Kind: jobs.Earned, Amount: job.Credits, Key: "job:" + job.ID, At: now}}
	}
	_, err = s.store.RateImportance(context.WithoutCancel(ctx), ledger.Rating{Job: job.ID, Operator: op.ID, Organization: identity.Organization,
		Family: rt.ModelFamily, Model: rt.Model, Bundle: rt.Bundle, Scores: rt.Scores, Reasons: rt.Reasons,
		Digest: canonical.Digest(signed), Signed: signed, At: now}, pay)
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "finished", Message: "You already rated this job's claims", Err: err}
	case errors.Is(err, store.ErrConflict):
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "expired", Message: "Your job passed its deadline", Err: err}
	case err != nil:
		return nil, 0, err
	}
	standing, err := s.importanceStanding(ctx, rt.Bundle, want)
	return map[string]any{"bundle": rt.Bundle, "claims": standing}, http.StatusOK, err
}

// importanceStanding is where each claim's ratings stand, as a rating's
// answer gives it (importance.go).
func (s *Server) importanceStanding(ctx context.Context, hash string, ids []string) ([]any, error) {
	ims, err := s.importanceOf(ctx, hash, ids)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, id := range ids {
		out = append(out, map[string]any{"claim_id": id, "importance": ims[id].object()})
	}
	return out, nil
}
