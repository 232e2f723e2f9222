package ledgertest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/store"
)

// newJobs records n open reproductions of one bundle by organization
// org:author.
func (f *fixture) newJobs(n int, kind string) []ledger.Job {
	f.t.Helper()
	bundle := "sha256:" + nonce() + nonce()
	var js []ledger.Job
	for i := range n {
		js = append(js, ledger.Job{
			ID: fmt.Sprintf("job:%s%02d", nonce(), i), Kind: kind, Bundle: bundle, Urgency: jobs.UrgencySealed,
			AuthorOrgs: []string{"org:author"}, AuthorFamilies: []string{"claude"}, Credits: 1, Minutes: 5, Created: f.now,
			Claims: []ledger.JobClaim{{LocalID: "C1", ClaimID: "claim:" + nonce() + nonce(), NeedsVerdict: true}},
		})
	}
	f.ok(f.s.CreateJobs(f.ctx, js, nil), "CreateJobs")
	return js
}

// chooser is what the node passes TakeJob: jobs.Choose for a verifier.
func chooser(org, family string) func([]jobs.Open) (string, bool) {
	rnd := rand.New(rand.NewPCG(uint64(len(org)), 7))
	return func(open []jobs.Open) (string, bool) {
		j, ok := jobs.Choose(open, jobs.Verifier{Organization: org, Family: family, Can: jobs.DefaultCan}, rnd)
		return j.ID, ok
	}
}

func (f *fixture) take(op, org string, at time.Time) (ledger.Job, error) {
	return f.s.TakeJob(f.ctx, ledger.TakeJob{Operator: op, Organization: org, Family: "gpt", At: at}, chooser(org, "gpt"))
}

// testJobs checks the job store's rules: one open job per operator, served
// counted, a job to one operator at a time (also under concurrent takes),
// each kind of a bundle's jobs to different organizations, a decline
// never coming back to its organization, an answer paying once, and
// dropping an unlogged answer undoing it.
func testJobs(f *fixture) {
	js := f.newJobs(2, jobs.Reproduction)
	a, err := f.take("op:a", "org:a", f.now)
	f.ok(err, "TakeJob a")
	if a.Served != 1 || a.Operator != "op:a" || !a.Deadline.Equal(jobs.Deadline(f.now, 5)) {
		f.t.Errorf("taken: %+v", a)
	}
	again, err := f.take("op:a", "org:a", f.now.Add(time.Minute))
	f.ok(err, "TakeJob a again")
	if again.ID != a.ID || again.Served != 2 {
		f.t.Errorf("taking again gave %s served %d, want the open job %s served 2", again.ID, again.Served, a.ID)
	}
	// Another operator of the same organization gets nothing: the other
	// reproduction must go to another organization.
	if _, err := f.take("op:a2", "org:a", f.now); !errorsIs(err, store.ErrNotFound) {
		f.t.Errorf("a second reproduction for org:a: %v, want not found", err)
	}
	b, err := f.take("op:b", "org:b", f.now)
	f.ok(err, "TakeJob b")
	if b.ID == a.ID {
		f.t.Fatalf("one job to two operators: %s", a.ID)
	}
	// Release: org:b declined, the job goes to org:c, never back to org:b.
	f.ok(f.s.ReleaseJob(f.ctx, b.ID, "op:b", f.now), "ReleaseJob")
	f.is(f.s.ReleaseJob(f.ctx, b.ID, "op:b", f.now), store.ErrNotFound, "releasing twice")
	if n, err := f.s.OrgDeclines(f.ctx, "org:b", f.now.Add(-time.Hour)); err != nil || n != 1 {
		f.t.Errorf("OrgDeclines = %d, %v", n, err)
	}
	if _, err := f.take("op:b", "org:b", f.now); !errorsIs(err, store.ErrNotFound) {
		f.t.Errorf("a declined job came back: %v", err)
	}
	c, err := f.take("op:c", "org:c", f.now)
	f.ok(err, "TakeJob c")
	if c.ID != b.ID {
		f.t.Errorf("org:c got %s, want the released %s", c.ID, b.ID)
	}

	// An answer with work pays once; again it is a duplicate.
	entry := f.put("op:a", map[string]any{"type": "attestation", "n": nonce()})
	pay := []jobs.Movement{{Operator: "op:a", Kind: jobs.Earned, Amount: a.Credits, Key: "job:" + a.ID, At: f.now}}
	answer := ledger.Answer{Job: a.ID, Operator: "op:a", Organization: "org:a", Family: "gpt", Kind: a.Kind, Bundle: a.Bundle,
		Entry: entry, Signed: []byte(`{}`), Digest: entry, Verdicts: map[string]string{a.Claims[0].ClaimID: "reproduced"}, WithWork: true, At: f.now}
	done, err := f.s.AnswerJob(f.ctx, answer, pay)
	f.ok(err, "AnswerJob")
	if !done.Done || done.Answer != entry {
		f.t.Errorf("answered: %+v", done)
	}
	second := answer
	second.Entry = f.put("op:a", map[string]any{"type": "attestation", "n": nonce()})
	_, err = f.s.AnswerJob(f.ctx, second, pay)
	f.is(err, store.ErrDuplicate, "answering twice")
	moves, err := f.s.Movements(f.ctx, "op:a")
	f.ok(err, "Movements")
	if len(moves) != 1 || moves[0].Amount != 1 {
		f.t.Errorf("movements after two answers: %+v, want one credit", moves)
	}
	if n, _ := f.s.OrgJobs(f.ctx, "org:a", f.now.Add(-time.Hour)); n != 1 {
		f.t.Errorf("OrgJobs = %d, want 1", n)
	}
	if got, err := f.s.AnswerByEntry(f.ctx, entry); err != nil || got.Job != a.ID || got.Verdicts[a.Claims[0].ClaimID] != "reproduced" {
		f.t.Errorf("AnswerByEntry: %+v %v", got, err)
	}
	// The job is done: nobody holds it open, and op:a may take another.
	if _, err := f.s.OpenJob(f.ctx, "op:a", f.now); !errorsIs(err, store.ErrNotFound) {
		f.t.Errorf("OpenJob after answering: %v", err)
	}

	// An answer whose entry never got logged is undone with it.
	f.ok(f.s.DropUnbound(f.ctx, entry), "DropUnbound")
	undone, err := f.s.Job(f.ctx, a.ID)
	f.ok(err, "Job")
	if undone.Done || undone.Operator != "op:a" {
		f.t.Errorf("after dropping its answer: %+v, want held by op:a and not done", undone)
	}
	if moves, _ := f.s.Movements(f.ctx, "op:a"); len(moves) != 0 {
		f.t.Errorf("credit kept after its answer was dropped: %+v", moves)
	}

	// An answer without work pays nothing and hands the job back.
	idle := answer
	idle.Entry = f.put("op:a", map[string]any{"type": "attestation", "n": nonce()})
	idle.WithWork = false
	back, err := f.s.AnswerJob(f.ctx, idle, pay)
	f.ok(err, "AnswerJob without work")
	if back.Done || back.Operator != "" {
		f.t.Errorf("after an answer without work: %+v", back)
	}
	if moves, _ := f.s.Movements(f.ctx, "op:a"); len(moves) != 0 {
		f.t.Errorf("an answer without work paid: %+v", moves)
	}
	// A deadline passed: the job is open again, and a late answer refused.
	late := f.newJobs(1, jobs.Screen)[0]
	held, err := f.take("op:d", "org:d", f.now)
	f.ok(err, "TakeJob d")
	if held.ID != late.ID {
		f.t.Fatalf("op:d took %s, want %s", held.ID, late.ID)
	}
	after := held.Deadline.Add(time.Second)
	lateAnswer := ledger.Answer{Job: held.ID, Operator: "op:d", Organization: "org:d", Kind: held.Kind, Bundle: held.Bundle,
		Entry: f.put("op:d", map[string]any{"type": "hazard_review", "n": nonce()}), Signed: []byte(`{}`), WithWork: true, At: after}
	_, err = f.s.AnswerJob(f.ctx, lateAnswer, nil)
	f.is(err, store.ErrConflict, "answering after the deadline")
	e1, err1 := f.take("op:e", "org:e", after)
	e2, err2 := f.take("op:f", "org:f", after)
	if err1 != nil || err2 != nil || (e1.ID != late.ID && e2.ID != late.ID) {
		f.t.Errorf("after the deadline: %s %v, %s %v, want %s reassigned", e1.ID, err1, e2.ID, err2, late.ID)
	}
	_ = js

	// Concurrent takes never give one job to two operators.
	many := f.newJobs(20, jobs.Screen)
	_ = many
	var wg sync.WaitGroup
	var mu sync.Mutex
	held2 := map[string]string{}
	for i := range 30 {
		wg.Go(func() {
			op, org := fmt.Sprintf("op:m%d", i), fmt.Sprintf("org:m%d", i)
			j, err := f.take(op, org, f.now)
			if err != nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if prev, twice := held2[j.ID]; twice {
				f.t.Errorf("job %s to %s and %s", j.ID, prev, op)
			}
			held2[j.ID] = op
		})
	}
	wg.Wait()

	// Movements with a key recorded are skipped; qualification state keeps.
	grant := []jobs.Movement{{Operator: "op:q", Kind: jobs.Granted, Amount: 2, Key: "grant:org:q:1", At: f.now}}
	st := jobs.ModelState{Family: "gpt", Model: "gpt-6-1", Level: 1, Setup: true}
	f.ok(f.s.PutQualification(f.ctx, "op:q", jobs.ModelKey("gpt", "gpt-6-1"), st, grant), "PutQualification")
	f.ok(f.s.PutQualification(f.ctx, "op:q2", jobs.ModelKey("gpt", "gpt-6-1"), st, []jobs.Movement{{Operator: "op:q2", Kind: jobs.Granted, Amount: 2, Key: "grant:org:q:1", At: f.now}}), "PutQualification q2")
	if n, err := f.s.AddMovements(f.ctx, grant); err != nil || n != 0 {
		f.t.Errorf("AddMovements of a recorded key: %d %v", n, err)
	}
	if m2, _ := f.s.Movements(f.ctx, "op:q2"); len(m2) != 0 {
		f.t.Errorf("a level granted twice to one organization: %+v", m2)
	}
	q, err := f.s.Qualification(f.ctx, "op:q")
	f.ok(err, "Qualification")
	if got := q[jobs.ModelKey("gpt", "gpt-6-1")]; got.Level != 1 || !got.Setup {
		f.t.Errorf("qualification kept as %+v", got)
	}
	f.is(f.s.CreateJobs(f.ctx, many[:1], nil), store.ErrDuplicate, "CreateJobs again")

	// The backlog: open reproductions and those cleared with work.
	was, err := f.s.Backlog(f.ctx, f.now.Add(-time.Hour))
	f.ok(err, "Backlog")
	fresh := f.newJobs(2, jobs.Reproduction)
	now, err := f.s.Backlog(f.ctx, f.now.Add(-time.Hour))
	f.ok(err, "Backlog")
	if now.OpenCPU != was.OpenCPU+2 || now.OpenGPU != 0 {
		f.t.Errorf("backlog %+v after adding 2 reproductions to %+v", now, was)
	}
	held3, err := f.take("op:bl", "org:bl", f.now)
	f.ok(err, "TakeJob")
	_ = fresh
	e3 := f.put("op:bl", map[string]any{"type": "attestation", "n": nonce()})
	_, err = f.s.AnswerJob(f.ctx, ledger.Answer{Job: held3.ID, Operator: "op:bl", Organization: "org:bl", Kind: held3.Kind, Bundle: held3.Bundle,
		Entry: e3, Signed: []byte(`{}`), Digest: e3, WithWork: true, At: f.now}, nil)
	f.ok(err, "AnswerJob")
	cleared, err := f.s.Backlog(f.ctx, f.now.Add(-time.Hour))
	f.ok(err, "Backlog")
	moved := 0
	if held3.Kind == jobs.Reproduction {
		moved = 1 // a screen is not work that runs code
	}
	if cleared.ClearedCPU != now.ClearedCPU+moved || cleared.OpenCPU != now.OpenCPU-moved {
		f.t.Errorf("backlog %+v after clearing a %s from %+v", cleared, held3.Kind, now)
	}
	if later, _ := f.s.Backlog(f.ctx, f.now.Add(time.Hour)); later.ClearedCPU != 0 {
		f.t.Errorf("cleared since a time after every answer: %+v", later)
	}
}

func errorsIs(err, target error) bool { return errors.Is(err, target) }

// jobsBeforeReopen writes a job in each state, an answer with its credit,
// a decline and a qualification state, and returns the check that finds
// them all as they were after the store is reopened.
func (f *fixture) jobsBeforeReopen() func() {
	js := f.newJobs(3, jobs.Reproduction)
	held, err := f.take("op:dur1", "org:dur1", f.now)
	f.ok(err, "TakeJob")
	entry := f.put("op:dur1", map[string]any{"type": "attestation", "n": nonce()})
	f.bind(entry)
	_, err = f.s.AnswerJob(f.ctx, ledger.Answer{Job: held.ID, Operator: "op:dur1", Organization: "org:dur1", Family: "gpt", Kind: held.Kind,
		Bundle: held.Bundle, Entry: entry, Signed: []byte(`{"a":1}`), Digest: entry, Salt: "s", Verdicts: map[string]string{"c": "reproduced"},
		Hazard: "none", WithWork: true, At: f.now}, []jobs.Movement{{Operator: "op:dur1", Kind: jobs.Earned, Amount: 1, Key: "job:" + held.ID, At: f.now}})
	f.ok(err, "AnswerJob")
	declined, err := f.take("op:dur2", "org:dur2", f.now)
	f.ok(err, "TakeJob 2")
	f.ok(f.s.ReleaseJob(f.ctx, declined.ID, "op:dur2", f.now), "ReleaseJob")
	open, err := f.take("op:dur3", "org:dur3", f.now)
	f.ok(err, "TakeJob 3")
	key := jobs.ModelKey("gemini", "gemini-4")
	f.ok(f.s.PutQualification(f.ctx, "op:dur3", key, jobs.ModelState{Family: "gemini", Model: "gemini-4", Level: 2}, nil), "PutQualification")
	canary := ledger.Canary{Hash: "sha256:" + nonce() + nonce(), Source: js[0].Bundle, Files: map[string]string{"claims.json": "sha256:" + nonce() + nonce()},
		Claims: []ledger.JobClaim{{LocalID: "C1", ClaimID: "claim:" + nonce() + nonce(), NeedsVerdict: true}}, Path: "results/R1.json", Result: "R1.total",
		From: 90, To: 181, Created: f.now}
	canary.Changed = []string{canary.Claims[0].ClaimID}
	f.ok(f.s.CreateCanary(f.ctx, canary, nil), "CreateCanary")
	f.is(f.s.CreateCanary(f.ctx, canary, nil), store.ErrDuplicate, "CreateCanary again")
	canaryEntry := f.put("", map[string]any{"type": "canary", "n": nonce()})
	f.ok(f.s.CloseCanary(f.ctx, canary.Hash, canaryEntry, []ledger.CanaryOutcome{{Operator: "op:dur1", Outcome: "caught"}}, nil), "CloseCanary")
	f.is(f.s.CloseCanary(f.ctx, canary.Hash, canaryEntry, nil, nil), store.ErrDuplicate, "CloseCanary again")
	before := map[string]ledger.Job{}
	for _, j := range js {
		before[j.ID], err = f.s.Job(f.ctx, j.ID)
		f.ok(err, "Job")
	}
	return func() {
		for id, was := range before {
			now, err := f.s.Job(f.ctx, id)
			f.ok(err, "Job after reopening")
			if fmt.Sprint(now) != fmt.Sprint(was) {
				f.t.Errorf("job %s after reopening:\n%+v\nwas\n%+v", id, now, was)
			}
		}
		if moves, err := f.s.Movements(f.ctx, "op:dur1"); err != nil || len(moves) != 1 {
			f.t.Errorf("credit after reopening: %+v %v", moves, err)
		}
		if a, err := f.s.AnswerByEntry(f.ctx, entry); err != nil || a.Salt != "s" || string(a.Signed) != `{"a":1}` {
			f.t.Errorf("answer after reopening: %+v %v", a, err)
		}
		if n, err := f.s.OrgDeclines(f.ctx, "org:dur2", f.now.Add(-time.Hour)); err != nil || n != 1 {
			f.t.Errorf("declines after reopening: %d %v", n, err)
		}
		if j, err := f.s.OpenJob(f.ctx, "op:dur3", f.now); err != nil || j.ID != open.ID {
			f.t.Errorf("open job after reopening: %+v %v", j, err)
		}
		if c, err := f.s.Canary(f.ctx, canary.Hash); err != nil || c.Entry != canaryEntry || c.To != 181 || c.Changed[0] != canary.Changed[0] {
			f.t.Errorf("canary after reopening: %+v %v", c, err)
		}
		if of, err := f.s.CanariesOf(f.ctx, canary.Source); err != nil || len(of) != 1 {
			f.t.Errorf("canaries of its source after reopening: %+v %v", of, err)
		}
		if n, err := f.s.CanaryCounts(f.ctx, "op:dur1"); err != nil || n["caught"] != 1 || n["missed"] != 0 {
			f.t.Errorf("canary counts after reopening: %v %v", n, err)
		}
		if q, err := f.s.Qualification(f.ctx, "op:dur3"); err != nil || q[key].Level != 2 {
			f.t.Errorf("qualification after reopening: %+v %v", q, err)
		}
	}
}
