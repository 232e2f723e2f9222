package ledgertest

import (
	"fmt"
	"slices"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
)

// testRounds checks the round's timers and withdrawals (ledger.RoundStore):
// a job nobody holds lapses once old enough, a held one doesn't; retiring
// closes jobs once, with their refunds paid once; and a withdrawn
// bundle's files read withdrawn, and held elsewhere only by a bundle still
// up.
func testRounds(f *fixture) {
	js := f.newJobs(2, jobs.MethodsReview)
	later := f.now.Add(jobs.ReviewerWait)
	lapsed, err := f.s.LapsedJobs(f.ctx, jobs.ReviewKinds, f.now.Add(-time.Minute), later, 10)
	f.ok(err, "LapsedJobs")
	if len(lapsed) != 0 {
		f.t.Errorf("jobs made after the bound lapsed: %d", len(lapsed))
	}
	held, err := f.take("op:a", "org:a", later)
	f.ok(err, "TakeJob")
	lapsed, err = f.s.LapsedJobs(f.ctx, jobs.ReviewKinds, f.now, later, 10)
	f.ok(err, "LapsedJobs")
	if len(lapsed) != 1 || lapsed[0].ID == held.ID {
		f.t.Errorf("lapsed: %+v, want the one job nobody holds", lapsed)
	}
	if other, err := f.s.LapsedJobs(f.ctx, []string{jobs.Reproduction}, f.now, later, 10); err != nil || len(other) != 0 {
		f.t.Errorf("lapsed of another kind: %d, %v", len(other), err)
	}
	refund := jobs.Movement{Operator: "op:author", Kind: jobs.Refunded, Amount: 1, Key: "refund:test:" + nonce(), At: f.now}
	ids := []string{js[0].ID, js[1].ID}
	retired, err := f.s.RetireJobs(f.ctx, ids, []jobs.Movement{refund})
	f.ok(err, "RetireJobs")
	if len(retired) != 2 {
		f.t.Errorf("retired %v, want both", retired)
	}
	retired, err = f.s.RetireJobs(f.ctx, ids, []jobs.Movement{refund})
	f.ok(err, "RetireJobs again")
	moves, err := f.s.Movements(f.ctx, "op:author")
	f.ok(err, "Movements")
	if len(retired) != 0 || len(moves) != 1 {
		f.t.Errorf("retiring again retired %v and left %d movements, want none and 1", retired, len(moves))
	}
	for _, id := range ids {
		j, err := f.s.Job(f.ctx, id)
		f.ok(err, "Job")
		if !j.Done || j.Answer != "" {
			f.t.Errorf("a retired job: %+v", j)
		}
	}
	if _, err := f.s.OpenJob(f.ctx, "op:a", later); err == nil {
		f.t.Error("a retired job is still held")
	}

	op, _ := f.register("Withdrawn author")
	up, down := f.sealBundle(op, []string{"physics"}, "Up"), f.sealBundle(op, []string{"physics"}, "Down")
	w := f.put("", map[string]any{"type": "withdrawal", "bundle": down.Hash, "reason": "hazard"})
	_, err = f.s.WithdrawBundle(f.ctx, down.Hash, ledger.Withdrawal{Entry: w, Reason: "hazard", At: f.now})
	f.ok(err, "WithdrawBundle")
	file := down.Files[0].Digest
	if gone, err := f.s.WithdrawnFile(f.ctx, file); err != nil || gone {
		f.t.Errorf("a file whose withdrawal is not bound yet reads withdrawn: %v %v", gone, err)
	}
	f.bind(w)
	if gone, err := f.s.WithdrawnFile(f.ctx, file); err != nil || !gone {
		f.t.Errorf("WithdrawnFile of a withdrawn bundle's file: %v %v", gone, err)
	}
	if gone, err := f.s.WithdrawnFile(f.ctx, up.Files[0].Digest); err != nil || gone {
		f.t.Errorf("WithdrawnFile of a sealed bundle's file: %v %v", gone, err)
	}
	if elsewhere, err := f.s.HeldElsewhere(f.ctx, file, down.Hash); err != nil || elsewhere {
		f.t.Errorf("HeldElsewhere of a file only the withdrawn bundle holds: %v %v", elsewhere, err)
	}
	if elsewhere, err := f.s.HeldElsewhere(f.ctx, up.Files[0].Digest, down.Hash); err != nil || !elsewhere {
		f.t.Errorf("HeldElsewhere of a file a bundle still sealed holds: %v %v", elsewhere, err)
	}
}

// testSealedPages checks that SealedBundles pages through sealed bundles
// in order, a page starting after the last one of the page before, and
// that a bundle opened meanwhile drops out without losing the rest.
func testSealedPages(f *fixture) {
	op, _ := f.register("Paging author")
	var want []string
	for i := range 5 {
		want = append(want, f.sealBundle(op, []string{"physics"}, fmt.Sprintf("Paged %d", i)).Hash)
	}
	page := func(after string, limit int) []string {
		f.t.Helper()
		list, err := f.s.SealedBundles(f.ctx, f.now, after, limit)
		f.ok(err, "SealedBundles")
		var hashes []string
		for _, b := range list {
			hashes = append(hashes, b.Hash)
		}
		return hashes
	}
	all := page("", 10)
	if !slices.Equal(slices.Sorted(slices.Values(all)), slices.Sorted(slices.Values(want))) {
		f.t.Fatalf("SealedBundles = %v, want the 5 sealed", all)
	}
	first := page("", 2)
	if !slices.Equal(first, all[:2]) {
		f.t.Errorf("first page = %v, want %v", first, all[:2])
	}
	b, err := f.s.Bundle(f.ctx, all[2])
	f.ok(err, "Bundle")
	f.ok(f.s.PutSigned(f.ctx, b.EntryDigest, b.Entry, nil), "PutSigned")
	f.ok(f.s.OpenBundle(f.ctx, b.Hash, b.EntryDigest), "OpenBundle")
	f.bind(b.EntryDigest)
	if next := page(first[1], 2); !slices.Equal(next, all[3:5]) {
		f.t.Errorf("page after %s, with the next one opened = %v, want %v", first[1], next, all[3:5])
	}
	if rest := page(all[4], 2); len(rest) != 0 {
		f.t.Errorf("page after the last = %v, want none", rest)
	}
}
