package ledgertest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/store"
)

// newCheckJobs records n check jobs of kind on one bundle by org:author
// (families claude), each with needs.
func (f *fixture) newCheckJobs(n int, kind string, needs ledger.JobNeeds) []ledger.CheckJob {
	f.t.Helper()
	bundle := "sha256:" + nonce() + nonce()
	var js []ledger.CheckJob
	for i := range n {
		js = append(js, ledger.CheckJob{Job: ledger.Job{ID: fmt.Sprintf("job:%s%02d", nonce(), i), Kind: kind, Bundle: bundle, Urgency: jobs.UrgencyOther,
			AuthorOrgs: []string{"org:author"}, AuthorFamilies: []string{"claude"}, Credits: 1, Created: f.now,
			Claims: []ledger.JobClaim{{LocalID: "C1", ClaimID: "claim:" + nonce() + nonce(), NeedsVerdict: true}}}, Needs: needs})
	}
	f.ok(f.s.CreateCheckJobs(f.ctx, js, nil), "CreateCheckJobs")
	return js
}

func (f *fixture) takeAs(op, org, family string, can jobs.Can, at time.Time) (ledger.Job, error) {
	rnd := rand.New(rand.NewPCG(uint64(len(op)), 9))
	v := jobs.Verifier{Organization: org, Family: family, Can: can}
	return f.s.TakeJob(f.ctx, ledger.TakeJob{Operator: op, Organization: org, Family: family, At: at}, func(open []jobs.Open) (string, bool) {
		j, ok := jobs.Choose(open, v, rnd)
		return j.ID, ok
	})
}

// testChecks checks the check store: a job's needs kept with it and the
// checkers it needs seen by assignment; an importance rating due in 2
// hours, only one of a claim's ratings from a family that wrote it,
// recorded once and paid once, never by one not holding the job; and
// retiring a bundle's checks.
func testChecks(f *fixture) {
	proof := f.newCheckJobs(1, jobs.ProofCheck, ledger.JobNeeds{Software: []string{"lean4"}, Detail: []byte(`{"x":1}`)})
	f.is(f.s.CreateCheckJobs(f.ctx, proof, nil), store.ErrDuplicate, "CreateCheckJobs again")
	needs, err := f.s.JobNeeds(f.ctx, proof[0].ID)
	f.ok(err, "JobNeeds")
	if !slices.Equal(needs.Software, []string{"lean4"}) || string(needs.Detail) != `{"x":1}` {
		f.t.Errorf("JobNeeds = %+v", needs)
	}
	if none, err := f.s.JobNeeds(f.ctx, "job:none"); err != nil || none.Software != nil || none.Detail != nil {
		f.t.Errorf("JobNeeds of a job without needs = %+v, %v", none, err)
	}
	can := jobs.Can{Minutes: 60, DownloadMB: 100}
	if _, err := f.takeAs("op:p1", "org:p1", "gpt", can, f.now); !errorsIs(err, store.ErrNotFound) {
		f.t.Errorf("a proof check to a verifier without its checker: %v", err)
	}
	can.Software = []string{"lean4"}
	got, err := f.takeAs("op:p1", "org:p1", "gpt", can, f.now)
	if err != nil || got.ID != proof[0].ID {
		f.t.Errorf("a proof check to a verifier listing lean4: %+v %v", got, err)
	}

	ratings := f.newCheckJobs(2, jobs.ImportanceRating, ledger.JobNeeds{})
	claim := ratings[0].Claims[0].ClaimID
	r1, err := f.takeAs("op:r1", "org:r1", "claude", jobs.DefaultCan, f.now)
	f.ok(err, "TakeJob of a rating by the author's family")
	if r1.Kind != jobs.ImportanceRating || !r1.Deadline.Equal(f.now.Add(jobs.RatingDeadline)) {
		f.t.Errorf("a rating taken: %s due %v, want due in 2 hours", r1.Kind, r1.Deadline)
	}
	if _, err := f.takeAs("op:r2", "org:r2", "claude", jobs.DefaultCan, f.now); !errorsIs(err, store.ErrNotFound) {
		f.t.Errorf("a second rating from the author's family: %v", err)
	}
	rating := ledger.Rating{Job: r1.ID, Operator: "op:r1", Organization: "org:r1", Family: "claude", Model: "claude-1", Bundle: r1.Bundle,
		Scores: map[string]int{claim: 55}, Reasons: map[string]string{claim: "Meaningful."}, Digest: "sha256:" + nonce() + nonce(), Signed: []byte(`{}`), At: f.now}
	pay := []jobs.Movement{{Operator: "op:r1", Kind: jobs.Earned, Amount: 1, Key: "job:" + r1.ID, At: f.now}}
	other := rating
	other.Operator = "op:r9"
	f.ratingCount(0, "before any rating")
	_, err = f.s.RateImportance(f.ctx, other, pay)
	f.is(err, store.ErrConflict, "RateImportance by one not holding the job")
	f.ratingCount(0, "after a rating refused")
	done, err := f.s.RateImportance(f.ctx, rating, pay)
	f.ok(err, "RateImportance")
	if !done.Done || done.Answer != rating.Digest {
		f.t.Errorf("the rated job: %+v", done)
	}
	f.ratingCount(1, "after a rating")
	_, err = f.s.RateImportance(f.ctx, rating, pay)
	f.is(err, store.ErrDuplicate, "RateImportance again")
	f.ratingCount(1, "after the rating again")
	if moves, err := f.s.Movements(f.ctx, "op:r1"); err != nil || len(moves) != 1 {
		f.t.Errorf("the rating paid %+v, %v; want once", moves, err)
	}
	kept, err := f.s.ImportanceRatings(f.ctx, r1.Bundle)
	f.ok(err, "ImportanceRatings")
	if len(kept) != 1 || kept[0].Scores[claim] != 55 || kept[0].Reasons[claim] != "Meaningful." || kept[0].Organization != "org:r1" {
		f.t.Errorf("ImportanceRatings = %+v", kept)
	}
	if since, err := f.s.RatingsSince(f.ctx, f.now); err != nil || len(since) != 1 || since[0].Bundle != r1.Bundle || since[0].Scores[claim] != 55 {
		f.t.Errorf("RatingsSince the rating = %+v, %v", since, err)
	}
	if later, err := f.s.RatingsSince(f.ctx, f.now.Add(time.Second)); err != nil || len(later) != 0 {
		f.t.Errorf("RatingsSince after the rating = %+v, %v; want none", later, err)
	}
	// The other rating goes to another organization of another family.
	if _, err := f.takeAs("op:r3", "org:r1", "gpt", jobs.DefaultCan, f.now); !errorsIs(err, store.ErrNotFound) {
		f.t.Errorf("a second rating for the organization that rated: %v", err)
	}
	r4, err := f.takeAs("op:r4", "org:r4", "gemini", jobs.DefaultCan, f.now)
	if err != nil || r4.ID == r1.ID || r4.Kind != jobs.ImportanceRating {
		f.t.Errorf("the other rating: %+v %v", r4, err)
	}
	second := rating
	second.Job, second.Operator, second.Organization, second.Family, second.Digest = r4.ID, "op:r4", "org:r4", "gemini", "sha256:"+nonce()+nonce()
	_, err = f.s.RateImportance(f.ctx, second, nil)
	f.ok(err, "RateImportance of the other")
	f.ratingCount(2, "after the other rating")
	testKeptHabits(f)

	cites := f.newCheckJobs(2, jobs.CitationCheck, ledger.JobNeeds{Detail: []byte(`{"citations":[]}`)})
	refund := []jobs.Movement{{Operator: "op:author", Kind: jobs.Refunded, Amount: 2, Key: "refund:citation_checks:" + cites[0].Bundle, At: f.now}}
	n, err := f.s.RetireBundleJobs(f.ctx, cites[0].Bundle, jobs.CitationCheck, refund)
	if err != nil || n != 2 {
		f.t.Errorf("RetireJobs = %d, %v; want 2", n, err)
	}
	if n, err := f.s.RetireBundleJobs(f.ctx, cites[0].Bundle, jobs.CitationCheck, refund); err != nil || n != 0 {
		f.t.Errorf("RetireJobs again = %d, %v; want 0", n, err)
	}
	if moves, err := f.s.Movements(f.ctx, "op:author"); err != nil || len(moves) != 1 {
		f.t.Errorf("the refund: %+v %v, want once", moves, err)
	}
	for _, j := range cites {
		if got, err := f.s.Job(f.ctx, j.ID); err != nil || !got.Done {
			f.t.Errorf("a retired job: %+v %v", got, err)
		}
	}
}

// ratingCount checks RatingCount is want.
func (f *fixture) ratingCount(want int64, when string) {
	f.t.Helper()
	if n, err := f.s.RatingCount(f.ctx); err != nil || n != want {
		f.t.Errorf("RatingCount %s = %d, %v; want %d", when, n, err, want)
	}
}

// testKeptHabits checks that the first habits kept for a moment are the
// ones every later KeepHabits and KeptHabits of it return, to the last
// offset, and that another moment's are its own.
func testKeptHabits(f *fixture) {
	at := f.now.Truncate(time.Hour)
	if _, err := f.s.KeptHabits(f.ctx, at); !errorsIs(err, store.ErrNotFound) {
		f.t.Errorf("KeptHabits before any were kept: %v, want ErrNotFound", err)
	}
	first := jobs.Habits{At: at, Models: []jobs.Habit{{Name: "gpt-1", Offset: 4.25, Ratings: 12}},
		Families: []jobs.Habit{{Name: "gpt", Offset: 4.25, Ratings: 12}, {Name: "gemini", Offset: -3.1, Ratings: 9}}}
	kept, err := f.s.KeepHabits(f.ctx, first)
	f.ok(err, "KeepHabits")
	same := func(got, want jobs.Habits) bool {
		return got.At.Equal(want.At) && slices.Equal(got.Models, want.Models) && slices.Equal(got.Families, want.Families)
	}
	if !same(kept, first) {
		f.t.Errorf("KeepHabits = %+v, want %+v", kept, first)
	}
	later := jobs.Habits{At: at, Families: []jobs.Habit{{Name: "gpt", Offset: 9, Ratings: 13}}}
	if again, err := f.s.KeepHabits(f.ctx, later); err != nil || !same(again, first) {
		f.t.Errorf("KeepHabits of a second measurement = %+v, %v; want the first, %+v", again, err, first)
	}
	if got, err := f.s.KeptHabits(f.ctx, at); err != nil || !same(got, first) {
		f.t.Errorf("KeptHabits = %+v, %v; want %+v", got, err, first)
	}
	next := jobs.Habits{At: at.Add(time.Hour)}
	if got, err := f.s.KeepHabits(f.ctx, next); err != nil || !same(got, next) || got.Models != nil {
		f.t.Errorf("KeepHabits of none at another moment = %+v, %v; want none", got, err)
	}
}

// checksBeforeReopen writes a check job with needs and a rating, and
// returns the check that finds both after the store is reopened.
func (f *fixture) checksBeforeReopen() func() {
	js := f.newCheckJobs(1, jobs.ImportanceRating, ledger.JobNeeds{Software: []string{"rocq"}, Detail: []byte(`{"pairs":[]}`)})
	// Asking to run nothing, it gets the rating, not the reproductions
	// jobsBeforeReopen leaves open.
	held, err := f.takeAs("op:dr", "org:dr", "gpt", jobs.Can{}, f.now)
	f.ok(err, "TakeJob of a rating")
	claim := js[0].Claims[0].ClaimID
	_, err = f.s.RateImportance(f.ctx, ledger.Rating{Job: held.ID, Operator: "op:dr", Organization: "org:dr", Family: "gpt", Model: "gpt-1", Bundle: held.Bundle,
		Scores: map[string]int{claim: 30}, Reasons: map[string]string{}, Digest: "sha256:" + nonce() + nonce(), Signed: []byte(`{}`), At: f.now}, nil)
	f.ok(err, "RateImportance")
	count, err := f.s.RatingCount(f.ctx)
	f.ok(err, "RatingCount")
	habits := jobs.Habits{At: f.now.Truncate(time.Hour), Families: []jobs.Habit{{Name: "gpt", Offset: 1.5, Ratings: 7}}}
	_, err = f.s.KeepHabits(f.ctx, habits)
	f.ok(err, "KeepHabits")
	return func() {
		if got, err := f.s.RatingCount(f.ctx); err != nil || got != count || count == 0 {
			f.t.Errorf("RatingCount after reopening = %d, %v; want %d", got, err, count)
		}
		if got, err := f.s.KeptHabits(f.ctx, habits.At); err != nil || !slices.Equal(got.Families, habits.Families) {
			f.t.Errorf("KeptHabits after reopening = %+v, %v; want %+v", got, err, habits)
		}
		needs, err := f.s.JobNeeds(f.ctx, js[0].ID)
		if err != nil || !slices.Equal(needs.Software, []string{"rocq"}) || string(needs.Detail) != `{"pairs":[]}` {
			f.t.Errorf("a job's needs after reopening: %+v %v", needs, err)
		}
		kept, err := f.s.ImportanceRatings(f.ctx, held.Bundle)
		if err != nil || len(kept) != 1 || kept[0].Scores[claim] != 30 {
			f.t.Errorf("ratings after reopening: %+v %v", kept, err)
		}
	}
}
