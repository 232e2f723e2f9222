package ledgerhttp

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// Attestations and hazard reviews: the answers to jobs ("Verifying
// claims", steps 4 to 6; "The hazard screen"). Each is checked in this
// order: its members, its signature and the open job it answers, and only
// then its evidence. An answer on sealed work is logged as a commitment
// the log signs (a sealed entry), revealed with the bundle when its round
// closes; on published work it is logged as signed. Either way the answer
// is recorded before its entry is appended, naming it, and the 201 goes
// out once a checkpoint covers the entry.

// Evidence limits ("Verifying claims", step 5).
const (
	MaxEvidenceBytes = 10 << 20
	MaxEvidenceFiles = 1000
)

// attest answers POST /api/v1/attestations: {"entry": <attestation>,
// "evidence": {"files": {path: base64}}, "copyright"?: <finding>}.
func (s *Server) attest(r *http.Request) (any, int, error) {
	entry, body, err := s.signedObject(r, "attestation")
	if err != nil {
		return nil, 0, err
	}
	if _, bare := body["type"]; bare {
		return nil, 0, httpapi.BadRequest("bad_request", `The body is {"entry": <attestation>, "evidence": {"files": {path: base64}}}`)
	}
	ctx, now := r.Context(), s.now()
	a, list := jobs.CheckAttestation(entry)
	if !protocol.IsOperatorID(a.Verifier) {
		return nil, 0, issuesError(http.StatusUnprocessableEntity, "invalid_attestation", "The attestation", list)
	}
	op, identity, err := s.verifier(ctx, a.Verifier, entry, http.StatusUnprocessableEntity)
	if err != nil {
		return nil, 0, err
	}
	if len(list) > 0 {
		code := "invalid_attestation"
		for _, is := range list {
			if is.Path == jobs.HarnessInvalid {
				code = "harness_invalid"
			}
		}
		return nil, 0, issuesError(http.StatusUnprocessableEntity, code, "The attestation", list)
	}
	finish, err := s.answering(ctx, op.ID)
	if err != nil {
		return nil, 0, err
	}
	defer finish()

	if answer, done, err := s.answerItem(ctx, op.ID, identity.Organization, a.Bundle, a.ModelFamily, a.Model, func(it jobs.Item) (bool, error) {
		if it.Kind != a.Job {
			return false, wrongKind(it.Kind, a.Job)
		}
		return jobs.Right(it.Kind, it.Expect, a.Claims, ""), nil
	}, now); done || err != nil {
		return answer, http.StatusOK, err
	}
	job, err := s.heldJob(ctx, op.ID, a.Bundle, a.ModelFamily, now, a.Job)
	if err != nil {
		return nil, 0, err
	}
	if err := s.checkAttestationLimit(ctx, op.ID, now); err != nil {
		return nil, 0, err
	}
	var need []string
	for _, cl := range job.Claims {
		if cl.NeedsVerdict {
			need = append(need, cl.ClaimID)
		}
	}
	if bad := jobs.CheckVerdictsFor(a.Claims, need); len(bad) > 0 {
		return nil, 0, issuesError(http.StatusUnprocessableEntity, "verdicts", "The attestation's verdicts", bad)
	}
	files, err := evidenceFiles(body, a.Evidence)
	if err != nil {
		return nil, 0, err
	}
	if err := s.keepEvidence(ctx, a.Evidence, files); err != nil {
		return nil, 0, fmt.Errorf("storing evidence: %w", err)
	}
	index, err := s.logAnswer(ctx, job, entry, op.ID, identity.Organization, a.ModelFamily, a.Claims, a.Hazard, jobs.WithWork(a.Claims), now)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"attestation": index}, http.StatusCreated, nil
}

// answering holds operator's turn to answer a job: no other submission of
// its runs, and its jobs are not handed out or answered meanwhile, until
// done is called.
func (s *Server) answering(ctx context.Context, operator string) (done func(), err error) {
	release, ok, err := s.StartSubmission(ctx, operator)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, inProgress()
	}
	unlock, err := s.lockOperator(ctx, operator)
	if err != nil {
		release()
		return nil, err
	}
	return func() { unlock(); release() }, nil
}

// closedJob refuses an answer to a job closed unanswered: its panel
// decided, its appeal was met, or its bundle was withdrawn first.
func closedJob(kind string, err error) error {
	return &httpapi.Error{Status: http.StatusConflict, Code: "closed", Err: err,
		Message: "Your " + kind + " job on this bundle was closed before you answered: its round no longer needs it, and it pays nothing"}
}

func inProgress() error {
	return &httpapi.Error{Status: http.StatusConflict, Code: "in_progress",
		Message: "Another submission of yours is still being stored; send this one again once that one is answered"}
}

func wrongKind(kind, answered string) error {
	return &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "wrong_job",
		Message: fmt.Sprintf("Your job on that bundle is %s, not %s", article(kind), article(answered))}
}

// article is a kind of job with its indefinite article.
func article(kind string) string {
	if strings.IndexByte("aeiou", kind[0]) >= 0 {
		return "an " + kind
	}
	return "a " + kind
}

// heldJob is the job of one of kinds that operator holds on bundle at
// now, refused as the spec lists: 403 no_job, 409 expired or finished (or
// closed, for a job closed unanswered), 409 family, and 422 wrong_job when
// the job it holds there is of another kind. An operator may hold a
// bundle's importance rating after finishing a review of it, so an answer
// to the review it finished is 409 finished, whatever job it holds now.
func (s *Server) heldJob(ctx context.Context, operator, bundleHash, family string, now time.Time, kinds ...string) (ledger.Job, error) {
	open, err := s.store.OpenJob(ctx, operator, now)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return ledger.Job{}, err
	}
	held := err == nil && open.Bundle == bundleHash
	if held && slices.Contains(kinds, open.Kind) {
		if slices.Contains(open.AuthorFamilies, family) {
			return open, &httpapi.Error{Status: http.StatusConflict, Code: "family",
				Message: "A model of the family " + family + " wrote this bundle, so it can't verify it"}
		}
		return open, nil
	}
	all, err := s.store.BundleJobs(ctx, bundleHash)
	if err != nil {
		return ledger.Job{}, err
	}
	for _, j := range all {
		if j.Operator != operator || !slices.Contains(kinds, j.Kind) || (held && j.ID == open.ID) {
			continue
		}
		if j.Done && j.Answer == "" {
			// Closed unanswered: its panel decided, or its bundle was
			// withdrawn, before this answer came.
			return j, closedJob(j.Kind, nil)
		}
		if j.Done {
			return j, &httpapi.Error{Status: http.StatusConflict, Code: "finished", Message: "You already finished your " + j.Kind + " job on this bundle"}
		}
		return j, &httpapi.Error{Status: http.StatusConflict, Code: "expired", Message: "Your " + j.Kind + " job on this bundle passed its deadline and went to someone else"}
	}
	if held {
		return open, wrongKind(open.Kind, strings.Join(kinds, " or "))
	}
	return ledger.Job{}, &httpapi.Error{Status: http.StatusForbidden, Code: "no_job", Message: "You hold no open job on bundle " + bundleHash}
}

// evidenceFiles reads {"evidence": {"files": {path: base64}}} and checks it
// against its digest (the bundle-hash rule over every file), its limits
// and its report.
func evidenceFiles(body map[string]any, digest string) (map[string][]byte, error) {
	ev, err := objectMember(body, "evidence")
	if err != nil {
		return nil, err
	}
	raw, ok := ev["files"].(map[string]any)
	if !ok || len(ev) != 1 {
		return nil, httpapi.BadRequest("bad_request", `evidence is {"files": {path: base64 of the file}}`)
	}
	if len(raw) > MaxEvidenceFiles {
		return nil, &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Message: fmt.Sprintf("Evidence holds at most %d files", MaxEvidenceFiles)}
	}
	files := make(map[string][]byte, len(raw))
	total := 0
	for p, v := range raw {
		s, _ := v.(string)
		data, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, httpapi.BadRequest("bad_request", "evidence file %q is not base64", p)
		}
		total += len(data)
		files[p] = data
	}
	if total > MaxEvidenceBytes {
		return nil, &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Message: fmt.Sprintf("Evidence holds at most %d bytes", MaxEvidenceBytes)}
	}
	_, got, err := bundle.DigestEvidence(files)
	if err != nil {
		return nil, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_evidence", Message: fmt.Sprintf("The evidence's paths: %v", err)}
	}
	if got != digest {
		return nil, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "evidence_mismatch",
			Message: fmt.Sprintf("The evidence's digest is %s, not the %s the attestation names", got, digest)}
	}
	if strings.TrimSpace(string(files["report.md"])) == "" {
		return nil, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "no_report",
			Message: "The evidence needs report.md at its top, saying what you did and found"}
	}
	return files, nil
}

// answerItem scores an answer to a qualification item on bundleHash, if
// the operator's model holds one: done is false when it holds none.
func (s *Server) answerItem(ctx context.Context, operator, org, bundleHash, family, model string, right func(jobs.Item) (bool, error), now time.Time) (any, bool, error) {
	states, err := s.store.Qualification(ctx, operator)
	if err != nil {
		return nil, false, err
	}
	key := jobs.ModelKey(family, model)
	st, ok := states[key]
	if !ok {
		return nil, false, nil
	}
	var item *jobs.Item
	for i := range st.Items {
		if st.Items[i].Right == nil && jobs.MakeItem(st.Items[i].Kind, st.Items[i].Level, st.Items[i].Field, st.Items[i].Seed).Bundle == bundleHash {
			item = &st.Items[i]
		}
	}
	if item == nil {
		return nil, false, nil
	}
	ok, err = right(*item)
	if err != nil {
		return nil, true, err
	}
	var out jobs.Outcome
	s.verify.random(func(rnd *mrand.Rand) { out, _ = st.Answer(item.Job, ok, now, rnd, newJobID) })
	var grants []jobs.Movement
	if out.Passed > 0 {
		grants = append(grants, jobs.Movement{Operator: operator, Kind: jobs.Granted, Amount: jobs.LevelGrants[out.Passed],
			Key: fmt.Sprintf("grant:%s:%d", org, out.Passed), At: now})
	}
	if err := s.store.PutQualification(ctx, operator, key, st, grants); err != nil {
		return nil, true, err
	}
	q := map[string]any{"recorded": true, "message": out.Message}
	if out.Done {
		q["level"] = st.Level
		q["setup"] = st.Setup
	}
	return map[string]any{"attestation": nil, "review": nil, "qualification": q}, true, nil
}

// logAnswer records an answer to job and logs it: sealed work as a
// commitment, published work as signed. It pays the job's credits when
// the answer did work, advances the bundle's round, and returns the log
// index of what it logged once a checkpoint covers it.
func (s *Server) logAnswer(ctx context.Context, job ledger.Job, entry map[string]any, operator, org, family string, verdicts map[string]string, hazard string, withWork bool, now time.Time) (uint64, error) {
	ctx = context.WithoutCancel(ctx)
	state, _, err := s.sealedState(ctx, job.Bundle)
	if err != nil {
		return 0, err
	}
	// A challenge's panel reviews are sealed until two agree, so no
	// panelist follows another ("Challenging a claim").
	if job.Kind == jobs.ChallengeReview {
		state = ledger.BundleSealed
	}
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return 0, err
	}
	digest := canonical.Digest(signed)
	logged, loggedJSON, logEntry := digest, signed, entry
	var leaf map[string]any
	salt := ""
	if state == ledger.BundleSealed {
		if salt, err = protocol.NewSalt(); err != nil {
			return 0, err
		}
		commitment, err := protocol.SealSigned(entry, salt)
		if err != nil {
			return 0, err
		}
		if logEntry, err = protocol.SignSealed(commitment, s.logKey); err != nil {
			return 0, err
		}
		if loggedJSON, err = canonical.Marshal(logEntry); err != nil {
			return 0, err
		}
		logged = canonical.Digest(loggedJSON)
	} else {
		leaf = map[string]any{"operator": operator}
	}
	if err := s.store.PutSigned(ctx, logged, loggedJSON, nil); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return 0, err
	}
	var pay []jobs.Movement
	if withWork && job.Credits > 0 {
		pay = []jobs.Movement{{Operator: operator, Kind: jobs.Earned, Amount: job.Credits, Key: "job:" + job.ID, At: now}}
	}
	_, err = s.store.AnswerJob(ctx, ledger.Answer{Job: job.ID, Operator: operator, Organization: org, Family: family, Kind: job.Kind,
		Bundle: job.Bundle, Entry: logged, Signed: signed, Digest: digest, Salt: salt, Verdicts: verdicts, Hazard: hazard, WithWork: withWork, At: now}, pay)
	switch {
	case errors.Is(err, store.ErrDuplicate):
		s.dropUnbound(ctx, logged)
		return 0, &httpapi.Error{Status: http.StatusConflict, Code: "finished", Message: "You already finished this job", Err: err}
	case errors.Is(err, store.ErrConflict):
		s.dropUnbound(ctx, logged)
		// The job changed while this answer was checked: its round
		// closed it (its panel decided, its appeal was met) or its
		// deadline passed.
		if j, jerr := s.store.Job(ctx, job.ID); jerr == nil && j.Done && j.Answer == "" {
			return 0, closedJob(job.Kind, err)
		}
		return 0, &httpapi.Error{Status: http.StatusConflict, Code: "expired", Message: "Your job passed its deadline", Err: err}
	case err != nil:
		s.dropUnbound(ctx, logged)
		return 0, err
	}
	if state != ledger.BundleSealed {
		op, err := s.store.Operator(ctx, operator)
		if err != nil {
			return 0, err
		}
		if err := s.journal.PublishKey(ctx, op); err != nil {
			s.dropUnbound(ctx, logged)
			return 0, err
		}
	}
	index, err := s.journal.Append(ctx, logged, loggedJSON, logEntry, leaf)
	if err != nil {
		if appendedNothing(err) {
			s.dropUnbound(ctx, logged)
		}
		return 0, err
	}
	if err := s.advanceRound(ctx, job.Bundle); err != nil {
		s.logger.Error("advancing a bundle's round", "bundle", job.Bundle, "err", err)
	}
	if err := s.afterAnswer(ctx, job, signed); err != nil {
		s.logger.Error("settling what an answer moves", "bundle", job.Bundle, "err", err)
	}
	return index, nil
}

// hazardReview answers POST /api/v1/hazard-reviews: a signed
// hazard_review, bare or as {"entry", "copyright"?}, the answer to a
// screen or a hazard review.
func (s *Server) hazardReview(r *http.Request) (any, int, error) {
	entry, _, err := s.signedObject(r, "hazard_review")
	if err != nil {
		return nil, 0, err
	}
	ctx, now := r.Context(), s.now()
	h, list := jobs.CheckHazardReview(entry)
	if !protocol.IsOperatorID(h.Reviewer) {
		return nil, 0, issuesError(http.StatusUnprocessableEntity, "invalid_review", "The hazard review", list)
	}
	op, identity, err := s.verifier(ctx, h.Reviewer, entry, http.StatusUnprocessableEntity)
	if err != nil {
		return nil, 0, err
	}
	if len(list) > 0 {
		return nil, 0, issuesError(http.StatusUnprocessableEntity, "invalid_review", "The hazard review", list)
	}
	finish, err := s.answering(ctx, op.ID)
	if err != nil {
		return nil, 0, err
	}
	defer finish()
	family := h.ModelFamily
	if answer, done, err := s.answerItem(ctx, op.ID, identity.Organization, h.Bundle, h.ModelFamily, h.Model, func(it jobs.Item) (bool, error) {
		if it.Kind != jobs.Screen {
			return false, wrongKind(it.Kind, jobs.Screen)
		}
		return jobs.Right(it.Kind, it.Expect, nil, h.Verdict), nil
	}, now); done || err != nil {
		return answer, http.StatusOK, err
	}
	job, err := s.heldJob(ctx, op.ID, h.Bundle, family, now, jobs.Screen, jobs.HazardReview)
	if err != nil {
		return nil, 0, err
	}
	index, err := s.logAnswer(ctx, job, entry, op.ID, identity.Organization, family, nil, h.Verdict, true, now)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"review": index}, http.StatusCreated, nil
}

// getAttestation answers GET /api/v1/attestations/{index}: the attestation
// logged there, or, for sealed work not yet revealed, that it is sealed.
func (s *Server) getAttestation(r *http.Request) (any, int, error) {
	index, err := pathIndex(r)
	if err != nil {
		return nil, 0, err
	}
	ctx := r.Context()
	signed, err := s.store.Signed(ctx, int64(index))
	if err != nil {
		return nil, 0, httpapi.NotFound("No entry %d", index)
	}
	a, err := s.store.AnswerByEntry(ctx, signed.Digest)
	if errors.Is(err, store.ErrNotFound) || (err == nil && a.Kind != "" && jobs.AnsweredBy(a.Kind) != "attestation") {
		return nil, 0, httpapi.NotFound("Entry %d is not an attestation", index)
	}
	if err != nil {
		return nil, 0, err
	}
	// The index of a commitment reads as sealed until its round reveals
	// the attestation, then as the attestation with where it was revealed:
	// the index a verifier was answered with keeps answering.
	revealedIn := int64(-1)
	if a.Salt != "" && a.Entry == signed.Digest {
		revealed, err := s.store.SignedByDigest(ctx, a.Digest)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, 0, err
		}
		if err != nil || revealed.Index == store.Unlogged {
			return map[string]any{"attestation": index, "sealed": true, "bundle": nil, "entry": nil}, http.StatusOK, nil
		}
		revealedIn = revealed.Index
	}
	v, err := canonical.Parse(a.Signed)
	if err != nil {
		return nil, 0, err
	}
	state, canary, err := s.sealedState(ctx, a.Bundle)
	if err != nil {
		return nil, 0, err
	}
	out := map[string]any{"attestation": index, "sealed": false, "bundle": a.Bundle, "entry": v, "counted": true,
		"evidence_files": nil}
	// Its evidence, path by path: the files GET /api/v1/files/{digest}
	// serves, the report among them.
	if e, ok := v.(map[string]any); ok {
		if evidence, ok := e["evidence"].(string); ok {
			files, err := s.store.EvidenceFiles(ctx, evidence)
			switch {
			case err == nil:
				out["evidence_files"] = files
			case !errors.Is(err, store.ErrNotFound):
				return nil, 0, err
			}
		}
	}
	if revealedIn >= 0 {
		out["revealed_in"] = revealedIn
	}
	switch {
	case canary != nil:
		out["counted"] = false
		out["not_counted_because"] = "canary"
	case state == ledger.BundleWithdrawn:
		out["counted"] = false
		out["not_counted_because"] = "withdrawn"
	}
	return out, http.StatusOK, nil
}
