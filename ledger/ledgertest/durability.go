package ledgertest

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store"
)

// testDurability writes bundles in every state, with a correction, claims,
// uploads, and teams with their members, moves, requests and bans, closes the store, opens it again, and finds everything as
// it was: each bundle whole, the open one's claims found and the withdrawn
// one's not, the uploads and their allowances counted, and a revealing
// entry recorded before the close opening its bundle's claims when it is
// bound after.
func testDurability(f *fixture, reopen func(t *testing.T, s ledger.Store) ledger.Store) {
	op, _ := f.register("Author")
	sealed := f.sealBundle(op, []string{"biology"}, "Cells divide by mitosis")
	opened := f.sealBundle(op, []string{"physics", "astronomy"}, "Neutrinos oscillate", "Muons decay")
	f.open(opened)
	withdrawn := f.sealBundle(op, []string{"physics"}, "Cold fusion works")
	f.open(withdrawn)
	w := f.put("", map[string]any{"type": "withdrawal", "bundle": withdrawn.Hash, "reason": "hazard"})
	_, err := f.s.WithdrawBundle(f.ctx, withdrawn.Hash, ledger.Withdrawal{Entry: w, Reason: "hazard", At: f.now})
	f.ok(err, "WithdrawBundle")
	f.bind(w)
	nb := opened.NewBundle
	nb.Hash, nb.Sealed, nb.EntryDigest, nb.Replaces = "sha256:"+nonce()+nonce(), f.put("", map[string]any{"type": "sealed", "n": nonce()}), "sha256:"+nonce()+nonce(), opened.Hash
	nb.Entry = []byte(`{"type":"bundle","bundle":"` + nb.Hash + `","sig":"y"}`)
	nb.Claims = []ledger.Claim{{ID: "claim:" + nonce() + nonce(), LocalID: "C1", Type: "replication", Statement: "Neutrinos oscillate, again",
		Assertion: opened.Claims[0].Assertion, DependsOn: []string{opened.Claims[0].ID}, Cites: []string{"doi:10.1/x"}, JSON: []byte(`{"id":"C1"}`)}}
	_, err = f.s.CreateBundle(f.ctx, nb)
	f.ok(err, "CreateBundle of the correction")
	f.bind(nb.Sealed)
	evidence := "sha256:" + nonce() + nonce()
	f.ok(f.s.KeepFiles(f.ctx, []string{evidence}), "KeepFiles")
	report := "sha256:" + nonce() + nonce()
	f.ok(f.s.KeepEvidence(f.ctx, evidence, map[string]string{"report.md": report}), "KeepEvidence")
	// The correction's revealing entry is recorded, not yet bound.
	f.ok(f.s.PutSigned(f.ctx, nb.EntryDigest, nb.Entry, nil), "PutSigned the correction's entry")
	f.ok(f.s.OpenBundle(f.ctx, nb.Hash, nb.EntryDigest), "OpenBundle of the correction")
	done, pending := "sha256:"+nonce()+nonce(), "sha256:"+nonce()+nonce()
	f.ok(f.s.RequestUpload(f.ctx, ledger.Upload{Digest: done, Size: 600, Operator: op.ID, Organization: "example.org", Requested: f.now}, ledger.UploadLimits{Daily: 1000, OrgDaily: 1500}), "RequestUpload")
	f.ok(f.s.CompleteUpload(f.ctx, done, op.ID, f.now.Add(time.Minute)), "CompleteUpload")
	f.ok(f.s.RequestUpload(f.ctx, ledger.Upload{Digest: pending, Size: 300, Operator: op.ID, Organization: "example.org", Requested: f.now}, ledger.UploadLimits{Daily: 1000, OrgDaily: 1500}), "RequestUpload")
	before := map[string]ledger.Bundle{}
	for _, h := range []string{sealed.Hash, opened.Hash, withdrawn.Hash, nb.Hash} {
		before[h], err = f.s.Bundle(f.ctx, h)
		f.ok(err, "Bundle")
	}
	beforeClaims, err := f.s.SearchClaims(f.ctx, ledger.ClaimQuery{Limit: 50})
	f.ok(err, "SearchClaims")

	afterReopen, checksAfterReopen, teamsAfterReopen := f.jobsBeforeReopen(), f.checksBeforeReopen(), f.teamsBeforeReopen()
	f.s = reopen(f.t, f.s)
	afterReopen()
	checksAfterReopen()
	teamsAfterReopen()

	for h, was := range before {
		now, err := f.s.Bundle(f.ctx, h)
		f.ok(err, "Bundle after reopening")
		if !sameBundle(was, now) {
			f.t.Errorf("bundle %s after reopening:\n%+v\nwas\n%+v", h, now, was)
		}
	}
	if got := before[withdrawn.Hash]; got.State != ledger.BundleWithdrawn || got.Withdrawal.Reason != "hazard" {
		f.t.Errorf("the withdrawn bundle = %s %+v", got.State, got.Withdrawal)
	}
	if got := before[nb.Hash]; got.State != ledger.BundleSealed || got.Revealed != nb.EntryDigest || !slices.Equal(got.Versions, []string{opened.Hash, nb.Hash}) {
		f.t.Errorf("the correction = %s, revealed by %q, versions %v", got.State, got.Revealed, got.Versions)
	}
	found, err := f.s.SearchClaims(f.ctx, ledger.ClaimQuery{Limit: 50})
	f.ok(err, "SearchClaims after reopening")
	if !slices.Equal(claimIDs(found), claimIDs(beforeClaims)) || !slices.Equal(claimIDs(found), []string{opened.Claims[0].ID, opened.Claims[1].ID}) {
		f.t.Errorf("claims found after reopening = %v, before %v", claimIDs(found), claimIDs(beforeClaims))
	}
	for _, tc := range []struct {
		q    ledger.ClaimQuery
		want []string
	}{
		{ledger.ClaimQuery{Words: `"neutrinos"*`, Limit: 10}, []string{opened.Claims[0].ID}},
		{ledger.ClaimQuery{Field: "astronomy", Limit: 10}, []string{opened.Claims[0].ID, opened.Claims[1].ID}},
		{ledger.ClaimQuery{Operator: op.ID, Follow: true, Since: -1, Limit: 10}, []string{opened.Claims[0].ID, opened.Claims[1].ID}},
	} {
		if found, err := f.s.SearchClaims(f.ctx, tc.q); err != nil || !slices.Equal(claimIDs(found), tc.want) {
			f.t.Errorf("%+v after reopening = %v, %v; want %v", tc.q, claimIDs(found), err, tc.want)
		}
	}
	if c, err := f.s.Claim(f.ctx, withdrawn.Claims[0].ID); err != nil || len(c) != 1 || !c[0].Withdrawn {
		f.t.Errorf("the withdrawn claim after reopening = %+v, %v", c, err)
	}
	if file, err := f.s.ServedFile(f.ctx, opened.Files[1].Digest); err != nil || file.Size != opened.Files[1].Size || !file.Uploaded {
		f.t.Errorf("ServedFile after reopening = %+v, %v", file, err)
	}
	if held, err := f.s.HoldsFile(f.ctx, sealed.Files[0].Digest); err != nil || !held {
		f.t.Errorf("HoldsFile of the sealed bundle's file after reopening = %v, %v", held, err)
	}
	if held, err := f.s.HoldsFile(f.ctx, evidence); err != nil || !held {
		f.t.Errorf("HoldsFile of a file KeepFiles recorded, after reopening = %v, %v", held, err)
	}
	if files, err := f.s.EvidenceFiles(f.ctx, evidence); err != nil || files["report.md"] != report || len(files) != 1 {
		f.t.Errorf("EvidenceFiles after reopening = %v, %v", files, err)
	}
	if held, err := f.s.HoldsFile(f.ctx, report); err != nil || !held {
		f.t.Errorf("HoldsFile of a file KeepEvidence recorded, after reopening = %v, %v", held, err)
	}
	if due, err := f.s.SealedBundles(f.ctx, f.now, "", 10); err != nil || len(due) == 0 || due[0].Hash != sealed.Hash ||
		slices.ContainsFunc(due, func(b ledger.Bundle) bool { return b.Hash == opened.Hash || b.Hash == withdrawn.Hash }) {
		f.t.Errorf("SealedBundles after reopening = %d bundles, %v; want the sealed one first, none opened", len(due), err)
	}
	if n, err := f.s.OperatorBundles(f.ctx, op.ID, f.now.Add(-time.Hour)); err != nil || n != 4 {
		f.t.Errorf("OperatorBundles after reopening = %d, %v; want 4", n, err)
	}
	if u, err := f.s.Upload(f.ctx, done); err != nil || u.Size != 600 || !u.Completed.Equal(f.now.Add(time.Minute)) {
		f.t.Errorf("the completed upload after reopening = %+v, %v", u, err)
	}
	if u, err := f.s.Upload(f.ctx, pending); err != nil || u.Size != 300 || !u.Completed.IsZero() {
		f.t.Errorf("the pending upload after reopening = %+v, %v", u, err)
	}
	// The allowance goes on from where it stood: 900 of 1000 bytes spent.
	var le *store.LimitError
	err = f.s.RequestUpload(f.ctx, ledger.Upload{Digest: "sha256:" + nonce() + nonce(), Size: 200, Operator: op.ID, Organization: "example.org", Requested: f.now}, ledger.UploadLimits{Daily: 1000, OrgDaily: 1500})
	if !errors.As(err, &le) {
		f.t.Errorf("past the operator's allowance after reopening: %v, want a *store.LimitError", err)
	}

	// The revealing entry recorded before the close opens the correction's
	// claims when it is bound after.
	revealed := f.bind(nb.EntryDigest)
	if got, err := f.s.Bundle(f.ctx, nb.Hash); err != nil || got.State != ledger.BundleOpen || got.RevealedIndex != revealed {
		f.t.Errorf("the correction bound after reopening = %s at %d, %v", got.State, got.RevealedIndex, err)
	}
	if found, err := f.s.SearchClaims(f.ctx, ledger.ClaimQuery{Cites: "doi:10.1/x", Limit: 10}); err != nil || !slices.Equal(claimIDs(found), []string{nb.Claims[0].ID}) || found[0].Opened != revealed {
		f.t.Errorf("the correction's claims after binding its entry = %v, %v", claimIDs(found), err)
	}
}

// sameBundle reports whether two reads of a bundle agree, times compared
// as instants.
func sameBundle(a, b ledger.Bundle) bool {
	if !a.At.Equal(b.At) || !a.Withdrawal.At.Equal(b.Withdrawal.At) {
		return false
	}
	a.At, b.At, a.Withdrawal.At, b.Withdrawal.At = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}
