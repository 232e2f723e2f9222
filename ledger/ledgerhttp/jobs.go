package ledgerhttp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	mrand "math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/paper"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// Jobs: POST /api/v1/jobs hands a verifier its open job, a qualification
// item, or a new job chosen by the spec's urgency order
// (spec/ledger-protocol.md, "Verifying claims", "Qualification");
// POST /api/v1/jobs/release hands one back.

// verification is the loop's state in the server: the random source that
// picks among equally urgent jobs, and per-operator locks that keep one
// operator's qualification state from being read and written by two of its
// requests at once.
type verification struct {
	mu  sync.Mutex // guards rnd
	rnd *mrand.Rand
	// ops are operators' locks and rounds bundles' rounds' locks, each
	// striped by hash. A request holding an operator's lock may take a
	// round's lock (an answer advancing its round), never the reverse, so
	// the two are kept apart.
	ops, rounds [64]sync.Mutex
}

func newVerification() *verification {
	var seed [16]byte
	rand.Read(seed[:])
	return &verification{rnd: mrand.New(mrand.NewPCG(beUint64(seed[:8]), beUint64(seed[8:])))}
}

func beUint64(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// random runs f with the random source held.
func (v *verification) random(f func(r *mrand.Rand)) {
	v.mu.Lock()
	defer v.mu.Unlock()
	f(v.rnd)
}

// lockOperator holds operator's lock, in this process and across those
// sharing the node's log, until the returned func is called.
func (s *Server) lockOperator(ctx context.Context, operator string) (func(), error) {
	return s.lockStripe(ctx, &s.verify.ops, "op", operator)
}

// lockRound holds the lock of bundle's round, in this process and across
// those sharing the node's log, until the returned func is called.
func (s *Server) lockRound(ctx context.Context, bundle string) (func(), error) {
	return s.lockStripe(ctx, &s.verify.rounds, "round", bundle)
}

// lockStripe holds the lock of key's stripe of locks, and the lock of the
// same stripe across processes (named kind and the stripe's number).
func (s *Server) lockStripe(ctx context.Context, locks *[64]sync.Mutex, kind, key string) (func(), error) {
	h := fnv.New32a()
	io.WriteString(h, key)
	i := h.Sum32() % uint32(len(locks))
	locks[i].Lock()
	across, err := s.acrossProcesses(ctx, fmt.Sprintf("%s/%d", kind, i))
	if err != nil {
		locks[i].Unlock()
		return nil, err
	}
	return func() { across(); locks[i].Unlock() }, nil
}

// newJobID is "job:" and 16 random bytes in hex.
func newJobID() string {
	var b [16]byte
	rand.Read(b[:])
	return "job:" + hex.EncodeToString(b[:])
}

// qualificationMode is the test's mode (Config.Qualification), enforce by
// default.
func (s *Server) qualificationMode() string {
	switch s.cfg.Qualification {
	case jobs.ModeOff, jobs.ModeObserve:
		return s.cfg.Qualification
	}
	return jobs.ModeEnforce
}

func (s *Server) routeJobs() {
	s.mux.HandleFunc("POST /api/v1/jobs", s.serveJobRequest)
	s.mux.Handle("POST /api/v1/jobs/release", s.serve(s.releaseJob))
	s.mux.Handle("POST /api/v1/attestations", s.serve(s.attest))
	s.mux.Handle("GET /api/v1/attestations/{index}", s.serve(s.getAttestation))
	s.mux.Handle("POST /api/v1/hazard-reviews", s.serve(s.hazardReview))
	s.mux.Handle("GET /api/v1/operators/{id}/credit", s.serve(s.getCredit))
}

// noJob is a 429 a job request answers in the spec's shape: {"job": null,
// "retry_after_seconds", "error", "code"} with Retry-After.
type noJob struct {
	code  string
	msg   string
	retry int
}

func (e *noJob) Error() string { return e.msg }

// serveJobRequest answers POST /api/v1/jobs; a refusal for asking too
// often keeps the answer's shape, as the harness reads it.
func (s *Server) serveJobRequest(w http.ResponseWriter, r *http.Request) {
	v, status, err := s.requestJob(r)
	var nj *noJob
	if errors.As(err, &nj) {
		body, _ := canonical.Marshal(map[string]any{"job": nil, "retry_after_seconds": nj.retry, "error": nj.msg, "code": nj.code})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", strconv.Itoa(nj.retry))
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write(body)
		return
	}
	s.serve(func(*http.Request) (any, int, error) { return v, status, err }).ServeHTTP(w, r)
}

// issuesError answers entry issues: 400 stale for a time outside the
// window, else status with code.
func issuesError(status int, code, what string, list []jobs.Issue) error {
	if jobs.Stale(list) {
		code, status = "stale", http.StatusBadRequest
	}
	out := make([]any, len(list))
	for i, is := range list {
		out[i] = map[string]any{"path": is.Path, "message": is.Message}
	}
	return &httpapi.IssuesError{Err: httpapi.Error{Status: status, Code: code, Message: what + ": " + list[0].String()}, Issues: out}
}

// signedObject reads a body that is a signed entry of type typ, bare or
// as {"entry"}, and checks the model it names.
func (s *Server) signedObject(r *http.Request, typ string) (entry, body map[string]any, err error) {
	v, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, nil, err
	}
	body, ok := v.(map[string]any)
	if !ok {
		return nil, nil, httpapi.BadRequest("bad_request", "The body is a signed %s entry, a JSON object, or {\"entry\": <it>}", typ)
	}
	if _, typed := body["type"]; typed {
		entry = body
	} else if entry, err = objectMember(body, "entry"); err != nil {
		return nil, nil, err
	}
	// A verifier's call names its model, refused as "Naming your model"
	// says (422 model_missing, unknown_model_family, model_name_invalid)
	// before anything else about it is read; a job release names none.
	if slices.Contains(verifierCalls, typ) {
		if _, _, err := operators.CheckModel(entry); err != nil {
			return nil, nil, ruleError(err)
		}
	}
	return entry, body, nil
}

// verifierCalls are the signed calls of the verification loop, each of
// which names the model making it.
var verifierCalls = []string{"job_request", "attestation", "hazard_review", "citation_check", "duplicate_check", "importance_rating"}

// verifier reads and checks who signed: a registered operator with an
// identity whose current key made sig.
func (s *Server) verifier(ctx context.Context, id string, entry map[string]any, badSigStatus int) (store.Operator, store.Identity, error) {
	op, err := s.store.Operator(ctx, id)
	if err != nil {
		return op, store.Identity{}, err
	}
	if !protocol.Verify(entry, op.Key().Key) {
		return op, store.Identity{}, &httpapi.Error{Status: badSigStatus, Code: "bad_signature", Message: "The signature does not verify with the operator's current key"}
	}
	identity, ok := op.Identity()
	if !ok {
		return op, identity, &httpapi.Error{Status: http.StatusForbidden, Code: "no_identity",
			Message: "Jobs go only to operators with an identity: prove one with POST /api/v1/operators/" + op.ID + "/identity"}
	}
	return op, identity, nil
}

// requestJob answers a signed job_request.
func (s *Server) requestJob(r *http.Request) (any, int, error) {
	e, _, err := s.signedObject(r, "job_request")
	if err != nil {
		return nil, 0, err
	}
	ctx, now := r.Context(), s.now()
	req, list := jobs.CheckRequest(e, now)
	if len(list) > 0 {
		return nil, 0, issuesError(http.StatusBadRequest, "bad_request", "The job request", list)
	}
	op, identity, err := s.verifier(ctx, req.Operator, e, http.StatusUnauthorized)
	if err != nil {
		return nil, 0, err
	}
	org := identity.Organization
	for _, l := range []struct {
		bucket string
		limit  int
	}{{"jobs:op:" + op.ID, jobs.RequestsPerOperator}, {"jobs:org:" + org, jobs.RequestsPerOrg}} {
		ok, retry, err := s.store.Take(ctx, l.bucket, l.limit, time.Hour, now)
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			return nil, 0, &noJob{code: "rate_limited", retry: max(1, int(retry.Round(time.Second)/time.Second)),
				msg: fmt.Sprintf("At most %d job requests an hour from an operator and %d from its organization", jobs.RequestsPerOperator, jobs.RequestsPerOrg)}
		}
	}
	declined, err := s.store.OrgDeclines(ctx, org, now.Add(-24*time.Hour))
	if err != nil {
		return nil, 0, err
	}
	worked, err := s.store.OrgJobs(ctx, org, now.Add(-24*time.Hour))
	if err != nil {
		return nil, 0, err
	}
	if declined >= jobs.DeclinesAllowed(worked) {
		return nil, 0, &noJob{code: "declines_exceeded", retry: 3600,
			msg: fmt.Sprintf("Your organization handed back %d jobs without work in 24 hours, its limit; declare what you can run in can", declined)}
	}
	unlock, err := s.lockOperator(ctx, op.ID)
	if err != nil {
		return nil, 0, err
	}
	defer unlock()

	mode := s.qualificationMode()
	opens := func(string) bool { return true }
	if mode != jobs.ModeOff {
		if _, err := s.store.OpenJob(ctx, op.ID, now); errors.Is(err, store.ErrNotFound) {
			answer, st, err := s.qualificationStep(ctx, op.ID, req, now)
			if err != nil || answer != nil {
				return answer, http.StatusOK, err
			}
			opens = func(kind string) bool { return st.Opens(mode, kind) }
		} else if err != nil {
			return nil, 0, err
		}
	}
	v := jobs.Verifier{Operator: op.ID, Organization: org, Family: req.ModelFamily, Can: req.Can, Unfiltered: req.Unfiltered, NoImportance: !req.Importance, Opens: trackRecord(identity, now, opens)}
	guarded, err := s.guardedScreens(ctx, identity, now)
	if err != nil {
		return nil, 0, err
	}
	job, err := s.store.TakeJob(ctx, ledger.TakeJob{Operator: op.ID, Organization: org, Family: req.ModelFamily, At: now},
		func(open []jobs.Open) (id string, ok bool) {
			if len(guarded) > 0 {
				open = slices.DeleteFunc(slices.Clone(open), func(j jobs.Open) bool { return guarded[j.ID] })
			}
			s.verify.random(func(rnd *mrand.Rand) {
				var j jobs.Open
				j, ok = jobs.Choose(open, v, rnd)
				id = j.ID
			})
			return id, ok
		})
	if errors.Is(err, store.ErrNotFound) {
		return map[string]any{"job": nil, "retry_after_seconds": jobs.RetryAfterNone}, http.StatusOK, nil
	}
	if err != nil {
		return nil, 0, err
	}
	view, err := s.jobView(ctx, job)
	return view, http.StatusOK, err
}

// qualificationStep serves the test's next item for the model a request
// names, or its refusal while a model that passed no level waits; answer
// is nil when the request goes on to real jobs, with the model's state.
func (s *Server) qualificationStep(ctx context.Context, operator string, req jobs.Request, now time.Time) (any, jobs.ModelState, error) {
	states, err := s.store.Qualification(ctx, operator)
	if err != nil {
		return nil, jobs.ModelState{}, err
	}
	key := jobs.ModelKey(req.ModelFamily, req.Model)
	st, ok := states[key]
	if !ok {
		st = jobs.ModelState{Family: req.ModelFamily, Model: req.Model, Domains: []string{}}
	}
	var lastStart time.Time
	for k, m := range states {
		if k != key && m.LastAttemptAt.After(lastStart) {
			lastStart = m.LastAttemptAt
		}
	}
	if st.LastAttemptAt.After(lastStart) {
		lastStart = st.LastAttemptAt
	}
	before, err := json.Marshal(st)
	if err != nil {
		return nil, st, err
	}
	var step jobs.Step
	s.verify.random(func(rnd *mrand.Rand) { step = st.Next(req.Can, now, lastStart, rnd, newJobID) })
	// A model past the test asks for jobs with its state unchanged: only
	// a change is written, so a job request costs no durable write of it.
	if after, err := json.Marshal(st); err != nil {
		return nil, st, err
	} else if !ok || string(after) != string(before) {
		if err := s.store.PutQualification(ctx, operator, key, st, nil); err != nil {
			return nil, st, err
		}
	}
	switch {
	case step.Item != nil:
		return itemView(&st, *step.Item, now), st, nil
	case !step.RetakeAt.IsZero():
		// The reference harness prints the message alone, so the message
		// itself says when the model may try again.
		retake := step.RetakeAt.UTC().Format(time.RFC3339)
		return map[string]any{"job": nil, "retry_after_seconds": max(1, int(step.RetakeAt.Sub(now)/time.Second)),
			"qualification": map[string]any{
				"message":   "Your model passed no level of the qualification test, so it gets no jobs until it may try again at " + retake + ". A stronger model can take the test now.",
				"retake_at": retake,
			}}, st, nil
	}
	return nil, st, nil
}

// itemView is a qualification item as a job answer: a job of the kind it
// stands for, on a bundle made for it, with `qualification`.
func itemView(st *jobs.ModelState, it jobs.Item, now time.Time) map[string]any {
	c := jobs.MakeItem(it.Kind, it.Level, it.Field, it.Seed)
	files := map[string]any{}
	for p, data := range c.Files {
		files[p] = base64.StdEncoding.EncodeToString(data)
	}
	claimList := make([]any, len(c.Claims))
	for i, cl := range c.Claims {
		claimList[i] = map[string]any{"local_id": cl.LocalID, "claim_id": cl.ClaimID, "needs_verdict": it.Kind != jobs.Screen}
	}
	return map[string]any{
		"job": it.Job, "kind": it.Kind, "bundle": c.Bundle, "deadline": now.Add(24 * time.Hour).UTC().Format(time.RFC3339),
		"fields": []any{it.Field}, "compute": map[string]any{"minutes": c.Minutes, "gpu": false}, "claims": claimList,
		"credits": 0, "files": files, "served": 1, "assigned_at": now.UTC().Format(time.RFC3339),
		"integrity": paper.Flags(c.Files, nil), "qualification": st.Position(it.Job),
	}
}

// jobView is a job as its verifier gets it: blind, every file of its
// bundle but manifest.json and signature.
func (s *Server) jobView(ctx context.Context, j ledger.Job) (map[string]any, error) {
	switch j.Kind {
	case jobs.ImportanceRating:
		return s.ratingView(ctx, j)
	case jobs.AddendumScreen:
		return s.addendumJobView(ctx, j)
	}
	// A canary is served as the bundle it copies is: its fields, and
	// every file but manifest.json and signature, one result changed.
	source := j.Bundle
	paths := map[string]string{}
	if c, err := s.store.Canary(ctx, j.Bundle); err == nil {
		source, paths = c.Source, c.Files
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	b, err := s.store.Bundle(ctx, source)
	if err != nil {
		return nil, err
	}
	if source == j.Bundle {
		for _, f := range b.Files {
			paths[f.Path] = f.Digest
		}
	}
	delete(paths, "manifest.json")
	delete(paths, "signature")
	inline, downloads := s.splitJobFiles(b, paths)
	files, read := map[string]any{}, map[string][]byte{}
	for _, p := range inline {
		data, err := s.readBlob(paths[p])
		if err != nil {
			return nil, fmt.Errorf("job %s: %s: %w", j.ID, p, err)
		}
		files[p] = base64.StdEncoding.EncodeToString(data)
		if paper.ReadByFlags(p) {
			read[p] = data
		}
	}
	unread := map[string]int64{}
	for _, p := range downloads {
		unread[p] = fileSize(b, p, paths[p])
	}
	claimList := make([]any, len(j.Claims))
	for i, cl := range j.Claims {
		claimList[i] = map[string]any{"local_id": cl.LocalID, "claim_id": cl.ClaimID, "needs_verdict": cl.NeedsVerdict}
	}
	view := map[string]any{
		"job": j.ID, "kind": j.Kind, "bundle": j.Bundle, "deadline": j.Deadline.UTC().Format(time.RFC3339),
		"fields": stringsAny(b.Fields), "compute": map[string]any{"minutes": j.Minutes, "gpu": j.GPU}, "claims": claimList,
		"credits": j.Credits, "files": files, "served": j.Served, "assigned_at": j.AssignedAt.UTC().Format(time.RFC3339),
		// Every job carries the node's deterministic checks of the files it
		// carries (spec, "Verifying claims"); a canary's are its own.
		"integrity": s.jobIntegrity(j.Bundle, read, unread, paths),
	}
	if len(downloads) > 0 {
		view["downloads"] = s.downloadLinks(j, b, paths, downloads)
	}
	return view, s.addCheckDetail(ctx, j, view)
}

// jobIntegrity is the integrity checks of the files a job of bundle
// carries, read (read) and sent as downloads (unread), kept per bundle.
func (s *Server) jobIntegrity(bundle string, read map[string][]byte, unread map[string]int64, paths map[string]string) paper.Integrity {
	if flags, ok := s.jobFlags.Get(bundle); ok {
		return flags
	}
	flags := paper.FlagsUnread(read, unread, slices.Sorted(maps.Keys(paths)))
	s.jobFlags.Add(bundle, flags)
	return flags
}

func (s *Server) readBlob(digest string) ([]byte, error) {
	f, err := s.blobs.Open(digest)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// releaseJob answers POST /api/v1/jobs/release: a signed {"type":
// "job_release", "operator", "job", "time", "blocked"?} hands back the job
// the operator holds. It counts as a job handed back without work.
func (s *Server) releaseJob(r *http.Request) (any, int, error) {
	e, _, err := s.signedObject(r, "job_release")
	if err != nil {
		return nil, 0, err
	}
	ctx, now := r.Context(), s.now()
	if err := checkReleaseMembers(e, now); err != nil {
		return nil, 0, err
	}
	id, _ := e["operator"].(string)
	op, _, err := s.verifier(ctx, id, e, http.StatusUnauthorized)
	if err != nil {
		return nil, 0, err
	}
	job, _ := e["job"].(string)
	unlock, err := s.lockOperator(ctx, op.ID)
	if err != nil {
		return nil, 0, err
	}
	defer unlock()
	if job == "" {
		open, err := s.store.OpenJob(ctx, op.ID, now)
		if errors.Is(err, store.ErrNotFound) {
			return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "no_job", Message: "You hold no job to hand back"}
		}
		if err != nil {
			return nil, 0, err
		}
		job = open.ID
	}
	if err := s.store.ReleaseJob(ctx, job, op.ID, now); errors.Is(err, store.ErrNotFound) {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "no_job", Message: "You hold no job " + job}
	} else if err != nil {
		return nil, 0, err
	}
	return map[string]any{"job": job, "released": true}, http.StatusOK, nil
}

func checkReleaseMembers(e map[string]any, now time.Time) error {
	allowed := map[string]bool{"type": true, "operator": true, "job": true, "time": true, "blocked": true, "model_family": true, "model": true, "sig": true}
	for k := range e {
		if !allowed[k] {
			return httpapi.BadRequest("bad_request", "A job_release has no member %q; it is {type, operator, job?, time, blocked?, sig}", k)
		}
	}
	if e["type"] != "job_release" {
		return httpapi.BadRequest("bad_request", `type must be "job_release"`)
	}
	if id, _ := e["operator"].(string); !protocol.IsOperatorID(id) {
		return httpapi.BadRequest("bad_request", "operator must be an operator ID")
	}
	if j, ok := e["job"]; ok {
		if s, _ := j.(string); len(s) < 5 || s[:4] != "job:" {
			return httpapi.BadRequest("bad_request", "job is a job ID, job: and hex")
		}
	}
	if b, ok := e["blocked"]; ok {
		area, _ := b.(string)
		valid := false
		for _, a := range jobs.FilterAreas {
			valid = valid || a == area
		}
		if !valid {
			return httpapi.BadRequest("bad_request", "blocked names the area a filter refused: biological, chemical, radiological, nuclear, cyber or other")
		}
	}
	if _, ok := e["sig"].(string); !ok {
		return httpapi.BadRequest("bad_request", "sig is the operator's signature")
	}
	t, _ := e["time"].(string)
	if _, err := checkTime(t, now); err != nil {
		return err
	}
	return nil
}

// checkTime checks a signed time is within the clock window.
func checkTime(value string, now time.Time) (time.Time, error) {
	t, err := operators.CheckTime(value, now)
	if err != nil {
		return t, httpapi.BadRequest("stale", "%v", err)
	}
	return t, nil
}

// keepBlobs stores files an entry digests that no bundle holds
// (evidence, a notice, an addendum's words) and records them as kept,
// so the uploads' sweep never takes them; both are durable on return.
func (s *Server) keepBlobs(ctx context.Context, files ...[]byte) error {
	digests := make([]string, 0, len(files))
	for _, data := range files {
		d, err := s.blobs.Put(data)
		if err != nil {
			return err
		}
		digests = append(digests, d)
	}
	return s.store.KeepFiles(ctx, digests)
}

// keepEvidence stores an evidence digest's files and records them by path,
// so the attestation or challenge that commits to it can list them and
// the uploads' sweep never takes them; both are durable on return.
func (s *Server) keepEvidence(ctx context.Context, evidence string, files map[string][]byte) error {
	paths := make(map[string]string, len(files))
	for path, data := range files {
		d, err := s.blobs.Put(data)
		if err != nil {
			return err
		}
		paths[path] = d
	}
	return s.store.KeepEvidence(ctx, evidence, paths)
}
