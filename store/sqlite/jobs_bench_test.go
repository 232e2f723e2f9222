package sqlite_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/store/sqlite"
)

// The job store at the size the issue measures: 1,000 operators asking
// for and answering jobs from a backlog of 10,000 open ones (5,000 sealed
// bundles of 2 reproductions each, by 100 organizations).
const (
	benchOperators = 1000
	benchOpenJobs  = 10000
	benchAuthors   = 100
)

func jobsFixture(b *testing.B) *ledgerStore { return openJobsFixture(b, []string{"claude"}) }

// openJobsFixture is jobsFixture with bundle i written by a model of
// families[i%len(families)].
func openJobsFixture(b *testing.B, families []string) *ledgerStore {
	b.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, sqlite.Config{Path: filepath.Join(b.TempDir(), "agora.db")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	now := time.Now()
	var js []ledger.Job
	for i := range benchOpenJobs {
		bundle := fmt.Sprintf("sha256:%064x", i/2)
		js = append(js, ledger.Job{ID: fmt.Sprintf("job:%032x", i), Kind: jobs.Reproduction, Bundle: bundle, Urgency: jobs.UrgencySealed,
			AuthorOrgs: []string{fmt.Sprintf("org:author%d", (i/2)%benchAuthors)}, AuthorFamilies: []string{families[(i/2)%len(families)]}, Credits: 1, Minutes: 5,
			Claims: []ledger.JobClaim{{LocalID: "C1", ClaimID: fmt.Sprintf("claim:%064x", i/2), NeedsVerdict: true}}, Created: now.Add(time.Duration(i))})
	}
	if err := s.CreateJobs(ctx, js, nil); err != nil {
		b.Fatal(err)
	}
	return &ledgerStore{s}
}

type ledgerStore struct{ ledger.Store }

// BenchmarkTakeJob hands b.N operators a job each, 32 at a time, from
// 10,000 open jobs by 100 organizations and 5 model families, the
// operators of those families in turn: each take is a new assignment, and
// the jobs taken stay held, as 1,000 operators' would (-benchtime 1000x).
// It reports assignments a second: every write of the node waits for the
// one writer, so what a take holds it for bounds them.
func BenchmarkTakeJob(b *testing.B) {
	families := []string{"claude", "gpt", "gemini", "llama", "mistral"}
	f := openJobsFixture(b, families)
	ctx := context.Background()
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := range 32 {
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(w), 2))
			for {
				i := int(next.Add(1) - 1)
				if i >= b.N {
					return
				}
				op, org, fam := fmt.Sprintf("op:%064x", i), fmt.Sprintf("org:v%d", i), families[i%len(families)]
				v := jobs.Verifier{Operator: op, Organization: org, Family: fam, Can: jobs.DefaultCan}
				j, err := f.TakeJob(ctx, ledger.TakeJob{Operator: op, Organization: org, Family: fam, At: time.Now()}, func(open []jobs.Open) (string, bool) {
					c, ok := jobs.Choose(open, v, rnd)
					return c.ID, ok
				})
				if err != nil {
					b.Error(err)
					return
				}
				if j.Operator != op || slices.Contains(j.AuthorFamilies, fam) {
					b.Errorf("take %d: %+v", i, j)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "takes/s")
}

// BenchmarkJobLoop has operators, 32 at a time, each take a job (jobs.Choose
// over the most urgent open ones) and answer it with work, paying its
// credit; it reports jobs handed out and answers admitted a second.
func BenchmarkJobLoop(b *testing.B) {
	f := jobsFixture(b)
	ctx := context.Background()
	var next atomic.Int64
	var takeNanos, answerNanos atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	work := make(chan int)
	for range 32 {
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(next.Add(1)), 1))
			for i := range work {
				op := fmt.Sprintf("op:%064x", i%benchOperators)
				org := fmt.Sprintf("org:v%d", i%benchOperators)
				v := jobs.Verifier{Operator: op, Organization: org, Family: "gpt", Can: jobs.DefaultCan}
				start := time.Now()
				j, err := f.TakeJob(ctx, ledger.TakeJob{Operator: op, Organization: org, Family: "gpt", At: time.Now()}, func(open []jobs.Open) (string, bool) {
					c, ok := jobs.Choose(open, v, rnd)
					return c.ID, ok
				})
				takeNanos.Add(int64(time.Since(start)))
				if err != nil {
					b.Error(err)
					return
				}
				entry := fmt.Sprintf("sha256:%064x", uint64(i)<<20|uint64(rnd.Uint32()))
				if err := f.PutSigned(ctx, entry, []byte(`{"type":"attestation","n":"`+entry+`"}`), nil); err != nil {
					b.Error(err)
					return
				}
				start = time.Now()
				_, err = f.AnswerJob(ctx, ledger.Answer{Job: j.ID, Operator: op, Organization: org, Family: "gpt", Kind: j.Kind, Bundle: j.Bundle,
					Entry: entry, Signed: []byte(`{}`), Digest: entry, Verdicts: map[string]string{j.Claims[0].ClaimID: "reproduced"}, Hazard: "none",
					WithWork: true, At: time.Now()}, []jobs.Movement{{Operator: op, Kind: jobs.Earned, Amount: 1, Key: "job:" + j.ID, At: time.Now()}})
				answerNanos.Add(int64(time.Since(start)))
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	elapsed := time.Now()
	for i := range b.N {
		work <- i
	}
	close(work)
	wg.Wait()
	wall := time.Since(elapsed).Seconds()
	b.ReportMetric(float64(b.N)/wall, "jobs/s")
	b.ReportMetric(float64(takeNanos.Load())/float64(b.N)/1e6, "ms/take")
	b.ReportMetric(float64(answerNanos.Load())/float64(b.N)/1e6, "ms/answer")
}
