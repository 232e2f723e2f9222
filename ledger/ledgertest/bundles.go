package ledgertest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store"
)

// sealBundle records a sealed bundle of op with the given claims and binds
// its sealed entry, as sealing does.
func (f *fixture) sealBundle(op store.Operator, fields []string, statements ...string) ledger.Bundle {
	f.t.Helper()
	sealed := f.put("", map[string]any{"type": "sealed", "commitment": "sha256:" + nonce()})
	hash := "sha256:" + nonce() + nonce()
	nb := ledger.NewBundle{
		Hash: hash, Operator: op.ID, KeyDigest: op.Key().Digest,
		Entry: []byte(`{"type":"bundle","bundle":"` + hash + `","sig":"x"}`), EntryDigest: "sha256:" + nonce() + nonce(),
		Sealed: sealed, Salt: nonce() + nonce(), Fields: fields, WrittenBy: "agent", At: f.now,
		Files: []ledger.File{
			{Path: "claims.json", Digest: "sha256:" + nonce() + nonce(), Size: 10},
			{Path: "data/big.csv", Digest: "sha256:" + nonce() + nonce(), Size: 9 << 20, Uploaded: true},
		},
	}
	for i, s := range statements {
		nb.Claims = append(nb.Claims, ledger.Claim{
			ID: "claim:" + nonce() + nonce(), LocalID: fmt.Sprintf("C%d", i+1), Type: "empirical", Statement: s,
			Assertion: "sha256:" + nonce() + nonce(), JSON: []byte(`{}`),
		})
	}
	b, err := f.s.CreateBundle(f.ctx, nb)
	f.ok(err, "CreateBundle")
	f.bind(sealed)
	b, err = f.s.Bundle(f.ctx, hash)
	f.ok(err, "Bundle")
	return b
}

// open reveals a sealed bundle and binds the revealing entry.
func (f *fixture) open(b ledger.Bundle) int64 {
	f.t.Helper()
	f.ok(f.s.PutSigned(f.ctx, b.EntryDigest, b.Entry, nil), "PutSigned bundle entry")
	f.ok(f.s.OpenBundle(f.ctx, b.Hash, b.EntryDigest), "OpenBundle")
	return f.bind(b.EntryDigest)
}

func claimIDs(found []ledger.FoundClaim) []string {
	var out []string
	for _, c := range found {
		out = append(out, c.ID)
	}
	return out
}

// testBundles checks a bundle's life: sealed, found by its sealed index,
// due to open, opened (its claims found from then on), withdrawn (never
// found again), and what sealing it again answers.
func testBundles(f *fixture) {
	op, _ := f.register("Author")
	b := f.sealBundle(op, []string{"physics", "astronomy"}, "The Mandelbrot set has area 1.5", "Dark matter halos are cuspy")
	if b.State != ledger.BundleSealed || b.SealedIndex == store.Unlogged || len(b.Files) != 2 || len(b.Claims) != 2 {
		f.t.Fatalf("sealed bundle = %+v", b)
	}
	if !slices.Equal(b.Fields, []string{"physics", "astronomy"}) || b.Versions[0] != b.Hash {
		f.t.Errorf("fields %v, versions %v", b.Fields, b.Versions)
	}
	again, err := f.s.CreateBundle(f.ctx, b.NewBundle)
	f.is(err, store.ErrDuplicate, "CreateBundle of the same bundle")
	if again.Hash != b.Hash || again.SealedIndex != b.SealedIndex {
		f.t.Errorf("CreateBundle again returned %+v", again)
	}
	other := b.NewBundle
	other.Hash = "sha256:" + nonce() + nonce()
	_, err = f.s.CreateBundle(f.ctx, other)
	f.is(err, store.ErrConflict, "CreateBundle of another bundle under the same sealed entry")

	if held, err := f.s.HoldsFile(f.ctx, b.Files[1].Digest); err != nil || !held {
		f.t.Errorf("HoldsFile of a sealed bundle's file = %v, %v", held, err)
	}
	if held, err := f.s.HoldsFile(f.ctx, "sha256:"+nonce()+nonce()); err != nil || held {
		f.t.Errorf("HoldsFile of a file no bundle has = %v, %v", held, err)
	}
	// Evidence and notices no bundle holds are kept once recorded.
	evidence := "sha256:" + nonce() + nonce()
	f.ok(f.s.KeepFiles(f.ctx, []string{evidence, evidence}), "KeepFiles")
	f.ok(f.s.KeepFiles(f.ctx, []string{evidence}), "KeepFiles again")
	if held, err := f.s.HoldsFile(f.ctx, evidence); err != nil || !held {
		f.t.Errorf("HoldsFile of a file KeepFiles recorded = %v, %v", held, err)
	}
	// An evidence digest's files, by path, are kept too.
	files := map[string]string{"report.md": "sha256:" + nonce() + nonce(), "logs/run.txt": "sha256:" + nonce() + nonce()}
	f.ok(f.s.KeepEvidence(f.ctx, evidence, files), "KeepEvidence")
	f.ok(f.s.KeepEvidence(f.ctx, evidence, files), "KeepEvidence again")
	if got, err := f.s.EvidenceFiles(f.ctx, evidence); err != nil || !maps.Equal(got, files) {
		f.t.Errorf("EvidenceFiles = %v, %v; want %v", got, err, files)
	}
	if held, err := f.s.HoldsFile(f.ctx, files["logs/run.txt"]); err != nil || !held {
		f.t.Errorf("HoldsFile of an evidence file = %v, %v", held, err)
	}
	f.is(second(f.s.EvidenceFiles(f.ctx, "sha256:"+nonce()+nonce())), store.ErrNotFound, "EvidenceFiles of evidence never recorded")
	by, err := f.s.BundleBySealed(f.ctx, b.SealedIndex)
	f.ok(err, "BundleBySealed")
	if by.Hash != b.Hash {
		f.t.Errorf("BundleBySealed = %s, want %s", by.Hash, b.Hash)
	}
	due, err := f.s.SealedBundles(f.ctx, f.now, "", 10)
	f.ok(err, "SealedBundles")
	if len(due) != 1 || due[0].Hash != b.Hash {
		f.t.Errorf("SealedBundles = %d bundles", len(due))
	}
	if due, _ := f.s.SealedBundles(f.ctx, f.now.Add(-time.Second), "", 10); len(due) != 0 {
		f.t.Errorf("SealedBundles before it was sealed = %d bundles", len(due))
	}
	if n, err := f.s.OperatorBundles(f.ctx, op.ID, f.now.Add(-time.Hour)); err != nil || n != 1 {
		f.t.Errorf("OperatorBundles = %d, %v", n, err)
	}
	if found, _ := f.s.SearchClaims(f.ctx, ledger.ClaimQuery{Limit: 10}); len(found) != 0 {
		f.t.Errorf("a sealed bundle's claims were found: %v", claimIDs(found))
	}
	if _, err := f.s.ServedFile(f.ctx, b.Files[0].Digest); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("a sealed bundle's file is served: %v", err)
	}

	// Opening: recorded, then found once the revealing entry is bound.
	f.ok(f.s.PutSigned(f.ctx, b.EntryDigest, b.Entry, nil), "PutSigned bundle entry")
	f.ok(f.s.OpenBundle(f.ctx, b.Hash, b.EntryDigest), "OpenBundle")
	f.ok(f.s.OpenBundle(f.ctx, b.Hash, b.EntryDigest), "OpenBundle again")
	if got, _ := f.s.Bundle(f.ctx, b.Hash); got.State != ledger.BundleSealed {
		f.t.Errorf("state before the revealing entry is bound = %s", got.State)
	}
	f.unsettled(nil, "before the revealing entry is bound")
	opened := f.bind(b.EntryDigest)
	got, err := f.s.Bundle(f.ctx, b.Hash)
	f.ok(err, "Bundle")
	if got.State != ledger.BundleOpen || got.RevealedIndex != opened {
		f.t.Errorf("opened bundle: state %s, revealed at %d, want %d", got.State, got.RevealedIndex, opened)
	}
	f.unsettled([]string{b.Hash}, "once opened")
	f.ok(f.s.SettleBundle(f.ctx, b.Hash), "SettleBundle")
	f.ok(f.s.SettleBundle(f.ctx, b.Hash), "SettleBundle again")
	f.unsettled(nil, "once settled")
	found, err := f.s.SearchClaims(f.ctx, ledger.ClaimQuery{Limit: 10})
	f.ok(err, "SearchClaims")
	if !slices.Equal(claimIDs(found), []string{b.Claims[0].ID, b.Claims[1].ID}) || found[0].Opened != opened {
		f.t.Errorf("claims found = %v", claimIDs(found))
	}
	file, err := f.s.ServedFile(f.ctx, b.Files[1].Digest)
	f.ok(err, "ServedFile")
	if file.Path != "data/big.csv" || file.Size != 9<<20 || !file.Uploaded {
		f.t.Errorf("ServedFile = %+v", file)
	}
	between, err := f.s.OpenedBetween(f.ctx, opened, opened+1)
	f.ok(err, "OpenedBetween")
	if len(between) != 1 || between[0].Hash != b.Hash {
		f.t.Errorf("OpenedBetween = %d bundles", len(between))
	}
	if c, err := f.s.Claim(f.ctx, b.Claims[0].ID); err != nil || len(c) != 1 || c[0].Statement != b.Claims[0].Statement {
		f.t.Errorf("Claim = %+v, %v", c, err)
	}
	if repeated, err := f.s.RepeatedBy(f.ctx, op.ID, []string{b.Claims[1].Assertion}); err != nil || repeated != b.Hash {
		f.t.Errorf("RepeatedBy = %q, %v", repeated, err)
	}
	_, err = f.s.RepeatedBy(f.ctx, op.ID, []string{"sha256:" + nonce()})
	f.is(err, store.ErrNotFound, "RepeatedBy of an assertion no bundle has")

	// Withdrawal: never found again, served no more.
	w := f.put("", map[string]any{"type": "withdrawal", "bundle": b.Hash, "reason": "hazard"})
	wb, err := f.s.WithdrawBundle(f.ctx, b.Hash, ledger.Withdrawal{Entry: w, Reason: "hazard", At: f.now})
	f.ok(err, "WithdrawBundle")
	if wb.State != ledger.BundleOpen {
		f.t.Errorf("state before the withdrawal is bound = %s", wb.State)
	}
	f.bind(w)
	got, _ = f.s.Bundle(f.ctx, b.Hash)
	if got.State != ledger.BundleWithdrawn || got.Withdrawal.Reason != "hazard" {
		f.t.Errorf("withdrawn bundle = %s %+v", got.State, got.Withdrawal)
	}
	for _, q := range []ledger.ClaimQuery{{Limit: 10}, {Field: "physics", Limit: 10}} {
		if found, _ := f.s.SearchClaims(f.ctx, q); len(found) != 0 {
			f.t.Errorf("a withdrawn bundle's claims were found by %+v: %v", q, claimIDs(found))
		}
	}
	if _, err := f.s.ServedFile(f.ctx, b.Files[0].Digest); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("a withdrawn bundle's file is served: %v", err)
	}
	if c, err := f.s.Claim(f.ctx, b.Claims[0].ID); err != nil || !c[0].Withdrawn {
		f.t.Errorf("Claim of a withdrawn bundle = %+v, %v", c, err)
	}
	_, err = f.s.WithdrawBundle(f.ctx, b.Hash, ledger.Withdrawal{Entry: f.put("", map[string]any{"type": "withdrawal", "n": nonce()}), Reason: "banned"})
	f.is(err, store.ErrDuplicate, "WithdrawBundle again")
	f.is(f.s.OpenBundle(f.ctx, b.Hash, f.put("", map[string]any{"type": "bundle", "n": nonce()})), store.ErrConflict, "OpenBundle by another entry")
}

// testClaimSearch checks the search: words as prefixes, every filter, the
// newest-first pages that never split a bundle, and the feed.
func testClaimSearch(f *fixture) {
	alice, _ := f.register("Alice")
	bob, _ := f.register("Bob")
	first := f.sealBundle(alice, []string{"mathematics"}, "The Mandelbrot set is connected", "Julia sets are compact")
	o1 := f.open(first)
	second := f.sealBundle(bob, []string{"physics"}, "Neutrinos oscillate", "Muons decay", "Tau leptons decay faster")
	o2 := f.open(second)
	ids := func(q ledger.ClaimQuery) []string {
		f.t.Helper()
		found, err := f.s.SearchClaims(f.ctx, q)
		f.ok(err, "SearchClaims")
		return claimIDs(found)
	}
	c := func(b ledger.Bundle, i int) string { return b.Claims[i].ID }
	all := []string{c(second, 0), c(second, 1), c(second, 2), c(first, 0), c(first, 1)}
	if got := ids(ledger.ClaimQuery{Limit: 50}); !slices.Equal(got, all) {
		f.t.Errorf("newest first = %v, want %v", got, all)
	}
	for _, tc := range []struct {
		name string
		q    ledger.ClaimQuery
		want []string
	}{
		{"prefix", ledger.ClaimQuery{Words: `"mandel"*`, Limit: 10}, []string{c(first, 0)}},
		{"every word", ledger.ClaimQuery{Words: `"decay"* AND "tau"*`, Limit: 10}, []string{c(second, 2)}},
		// The rest of the FTS5 syntax the HTTP layer writes (ftsQuery).
		{"every word, no AND", ledger.ClaimQuery{Words: `"decay"* "tau"*`, Limit: 10}, []string{c(second, 2)}},
		{"a word as written", ledger.ClaimQuery{Words: `decay`, Limit: 10}, []string{c(second, 1), c(second, 2)}},
		{"a word as written, not the words it starts", ledger.ClaimQuery{Words: `deca`, Limit: 10}, nil},
		{"phrase", ledger.ClaimQuery{Words: `"tau leptons"`, Limit: 10}, []string{c(second, 2)}},
		{"phrase out of order", ledger.ClaimQuery{Words: `"leptons tau"`, Limit: 10}, nil},
		{"phrase, its last word a prefix", ledger.ClaimQuery{Words: `"tau lep"*`, Limit: 10}, []string{c(second, 2)}},
		{"either", ledger.ClaimQuery{Words: `("muons"* OR "neutrinos"*)`, Limit: 10}, []string{c(second, 0), c(second, 1)}},
		{"either, and a word", ledger.ClaimQuery{Words: `("muons"* OR "tau"*) AND "faster"*`, Limit: 10}, []string{c(second, 2)}},
		{"leaving out", ledger.ClaimQuery{Words: `"decay"* NOT "tau"*`, Limit: 10}, []string{c(second, 1)}},
		{"diacritics folded", ledger.ClaimQuery{Words: `"júlia"*`, Limit: 10}, []string{c(first, 1)}},
		{"field", ledger.ClaimQuery{Field: "mathematics", Limit: 10}, []string{c(first, 0), c(first, 1)}},
		{"operator", ledger.ClaimQuery{Operator: bob.ID, Limit: 10}, []string{c(second, 0), c(second, 1), c(second, 2)}},
		{"type", ledger.ClaimQuery{Type: "theoretical", Limit: 10}, nil},
		{"before", ledger.ClaimQuery{Before: o2, Limit: 10}, []string{c(first, 0), c(first, 1)}},
		{"page not split", ledger.ClaimQuery{Limit: 1}, []string{c(second, 0), c(second, 1), c(second, 2)}},
		{"field, page not split", ledger.ClaimQuery{Field: "physics", Limit: 1}, []string{c(second, 0), c(second, 1), c(second, 2)}},
		{"field and words", ledger.ClaimQuery{Field: "physics", Words: `"decay"*`, Limit: 10}, []string{c(second, 1), c(second, 2)}},
		{"field and operator", ledger.ClaimQuery{Field: "physics", Operator: alice.ID, Limit: 10}, nil},
		{"field before", ledger.ClaimQuery{Field: "physics", Before: o2, Limit: 10}, nil},
		{"field feed", ledger.ClaimQuery{Field: "mathematics", Follow: true, Since: -1, Limit: 1}, []string{c(first, 0), c(first, 1)}},
		{"feed", ledger.ClaimQuery{Follow: true, Since: o1, Limit: 10}, []string{c(second, 0), c(second, 1), c(second, 2)}},
		{"feed from the start", ledger.ClaimQuery{Follow: true, Since: -1, Limit: 1}, []string{c(first, 0), c(first, 1)}},
		{"feed caught up", ledger.ClaimQuery{Follow: true, Since: o2, Limit: 10}, nil},
		{"only", ledger.ClaimQuery{Only: []string{c(first, 1), c(second, 0)}, Limit: 10}, []string{c(second, 0), c(first, 1)}},
		{"only, page not split", ledger.ClaimQuery{Only: []string{c(second, 2), c(second, 0), c(first, 0)}, Limit: 1}, []string{c(second, 0), c(second, 2)}},
		{"only and field", ledger.ClaimQuery{Only: []string{c(first, 1), c(second, 0)}, Field: "physics", Limit: 10}, []string{c(second, 0)}},
		{"only none", ledger.ClaimQuery{Only: []string{}, Limit: 10}, nil},
	} {
		if got := ids(tc.q); !slices.Equal(got, tc.want) {
			f.t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}

	// A page never splits a bundle, however many claims it holds.
	statements := make([]string, 40)
	for i := range statements {
		statements[i] = fmt.Sprintf("Long study claim %d", i)
	}
	long := f.sealBundle(alice, []string{"mathematics"}, statements...)
	f.open(long)
	for _, q := range []ledger.ClaimQuery{{Limit: 1}, {Field: "mathematics", Limit: 1}, {Words: `"long"*`, Limit: 1}, {Follow: true, Since: o2, Limit: 1}} {
		if got := ids(q); len(got) != len(statements) || got[0] != c(long, 0) || got[len(got)-1] != c(long, len(statements)-1) {
			f.t.Errorf("%+v: %d claims, want the long bundle's %d in order", q, len(got), len(statements))
		}
	}

	// depends_on and cites, and restatements by assertion.
	nb := second.NewBundle
	nb.Hash = "sha256:" + nonce() + nonce()
	nb.Sealed = f.put("", map[string]any{"type": "sealed", "n": nonce()})
	nb.EntryDigest = "sha256:" + nonce() + nonce()
	nb.Replaces = second.Hash
	nb.Claims = []ledger.Claim{{ID: "claim:" + nonce() + nonce(), LocalID: "C1", Type: "replication", Statement: "Neutrinos oscillate again",
		Assertion: second.Claims[0].Assertion, DependsOn: []string{c(second, 0)}, Cites: []string{"doi:10.1/x"}, JSON: []byte(`{}`)}}
	third, err := f.s.CreateBundle(f.ctx, nb)
	f.ok(err, "CreateBundle")
	f.bind(nb.Sealed)
	third, _ = f.s.Bundle(f.ctx, third.Hash)
	f.open(third)
	if got := ids(ledger.ClaimQuery{DependsOn: c(second, 0), Limit: 10}); !slices.Equal(got, []string{third.Claims[0].ID}) {
		f.t.Errorf("depends_on = %v", got)
	}
	if got := ids(ledger.ClaimQuery{Cites: "doi:10.1/x", Limit: 10}); !slices.Equal(got, []string{third.Claims[0].ID}) {
		f.t.Errorf("cites = %v", got)
	}
	dependents, err := f.s.DependedOnBy(f.ctx, c(second, 0))
	f.ok(err, "DependedOnBy")
	if !slices.Equal(claimIDs(dependents), []string{third.Claims[0].ID}) {
		f.t.Errorf("DependedOnBy = %v", claimIDs(dependents))
	}
	restated, err := f.s.Restatements(f.ctx, second.Claims[0].Assertion, c(second, 0))
	f.ok(err, "Restatements")
	if !slices.Equal(claimIDs(restated), []string{third.Claims[0].ID}) {
		f.t.Errorf("Restatements = %v", claimIDs(restated))
	}
	got, _ := f.s.Bundle(f.ctx, second.Hash)
	if !slices.Equal(got.Versions, []string{second.Hash, third.Hash}) {
		f.t.Errorf("versions = %v", got.Versions)
	}
}

// testDropBundle checks that dropping an unbound sealed entry takes its
// bundle with it, and dropping a revealing entry leaves the bundle sealed.
func testDropBundle(f *fixture) {
	op, _ := f.register("Author")
	b := f.sealBundle(op, []string{"biology"}, "Cells divide")
	f.ok(f.s.PutSigned(f.ctx, b.EntryDigest, b.Entry, nil), "PutSigned bundle entry")
	f.ok(f.s.OpenBundle(f.ctx, b.Hash, b.EntryDigest), "OpenBundle")
	f.ok(f.s.DropUnbound(f.ctx, b.EntryDigest), "DropUnbound of the revealing entry")
	got, err := f.s.Bundle(f.ctx, b.Hash)
	f.ok(err, "Bundle")
	if got.State != ledger.BundleSealed || got.Revealed != "" {
		f.t.Errorf("after dropping its revealing entry: %s, revealed by %q", got.State, got.Revealed)
	}

	sealed := f.put("", map[string]any{"type": "sealed", "n": nonce()})
	nb := b.NewBundle
	nb.Hash, nb.Sealed = "sha256:"+nonce()+nonce(), sealed
	_, err = f.s.CreateBundle(f.ctx, nb)
	f.ok(err, "CreateBundle")
	f.ok(f.s.DropUnbound(f.ctx, sealed), "DropUnbound of the sealed entry")
	_, err = f.s.Bundle(f.ctx, nb.Hash)
	f.is(err, store.ErrNotFound, "Bundle after its sealed entry was dropped")
	_, err = f.s.CreateBundle(f.ctx, nb)
	f.is(err, store.ErrNotFound, "CreateBundle naming a dropped sealed entry")
}

// testUploads checks upload requests, their allowances and completion.
func testUploads(f *fixture) {
	d1, d2 := "sha256:"+nonce()+nonce(), "sha256:"+nonce()+nonce()
	daily := ledger.UploadLimits{Daily: 1000, OrgDaily: 1500}
	_, err := f.s.Upload(f.ctx, d1)
	f.is(err, store.ErrNotFound, "Upload never asked for")
	u := ledger.Upload{Digest: d1, Size: 600, Operator: "op:a", Organization: "example.org", Requested: f.now}
	f.ok(f.s.RequestUpload(f.ctx, u, daily), "RequestUpload")
	f.ok(f.s.RequestUpload(f.ctx, u, daily), "RequestUpload again (a refresh, not counted twice)")
	var le *store.LimitError
	err = f.s.RequestUpload(f.ctx, ledger.Upload{Digest: d2, Size: 500, Operator: "op:a", Organization: "example.org", Requested: f.now}, daily)
	if !errors.As(err, &le) || le.RetryAfter <= 0 {
		f.t.Errorf("past the operator's allowance: %v", err)
	}
	err = f.s.RequestUpload(f.ctx, ledger.Upload{Digest: d2, Size: 1000, Operator: "op:b", Organization: "example.org", Requested: f.now}, daily)
	f.is(err, store.ErrLimit, "past the organization's allowance")
	f.ok(f.s.RequestUpload(f.ctx, ledger.Upload{Digest: d2, Size: 500, Operator: "op:a", Organization: "example.org", Requested: f.now.Add(25 * time.Hour)}, daily),
		"RequestUpload a day later")
	got, err := f.s.Upload(f.ctx, d1)
	f.ok(err, "Upload")
	if got.Size != 600 || !got.Completed.IsZero() {
		f.t.Errorf("Upload = %+v", got)
	}
	f.ok(f.s.CompleteUpload(f.ctx, d1, "op:a", f.now), "CompleteUpload")
	if got, _ := f.s.Upload(f.ctx, d1); got.Completed.IsZero() {
		f.t.Error("CompleteUpload did not record the upload complete")
	}
	f.is(f.s.CompleteUpload(f.ctx, "sha256:"+nonce()+nonce(), "op:a", f.now), store.ErrNotFound, "CompleteUpload never asked for")
	f.is(f.s.CompleteUpload(f.ctx, d1, "op:b", f.now), store.ErrNotFound, "CompleteUpload by an operator that never asked")
	testOperatorUploads(f)
	testUnboundUploads(f)
}

// testOperatorUploads checks that an upload completes for its uploader
// only: another operator that asked for the same file learns nothing of it.
func testOperatorUploads(f *fixture) {
	d := "sha256:" + nonce() + nonce()
	for _, op := range []string{"op:first", "op:second"} {
		f.ok(f.s.RequestUpload(f.ctx, ledger.Upload{Digest: d, Size: 10, Operator: op, Organization: op, Requested: f.now}, ledger.UploadLimits{}), "RequestUpload")
	}
	_, err := f.s.OperatorUpload(f.ctx, d, "op:third")
	f.is(err, store.ErrNotFound, "OperatorUpload by an operator that never asked")
	f.ok(f.s.CompleteUpload(f.ctx, d, "op:first", f.now), "CompleteUpload")
	if u, err := f.s.OperatorUpload(f.ctx, d, "op:first"); err != nil || u.Completed.IsZero() || u.Size != 10 || u.Organization != "op:first" {
		f.t.Errorf("the uploader's own upload = %+v, %v", u, err)
	}
	if u, err := f.s.OperatorUpload(f.ctx, d, "op:second"); err != nil || !u.Completed.IsZero() {
		f.t.Errorf("another operator's request completed with the uploader's: %+v, %v", u, err)
	}
}

// testUnboundUploads checks the quota of uploads no bundle holds: it
// counts requests within Keep, not those a bundle holds, and frees
// itself as requests lapse.
func testUnboundUploads(f *fixture) {
	op, _ := f.register("Uploader")
	limits := ledger.UploadLimits{Unbound: 1000, OrgUnbound: 1500, Keep: 7 * 24 * time.Hour}
	org := "unbound-" + nonce() + ".example"
	held, loose := "sha256:"+nonce()+nonce(), "sha256:"+nonce()+nonce()
	f.ok(f.s.RequestUpload(f.ctx, ledger.Upload{Digest: held, Size: 900, Operator: op.ID, Organization: org, Requested: f.now}, limits), "RequestUpload")
	var le *store.LimitError
	err := f.s.RequestUpload(f.ctx, ledger.Upload{Digest: loose, Size: 200, Operator: op.ID, Organization: org, Requested: f.now.Add(time.Hour)}, limits)
	if !errors.As(err, &le) || le.RetryAfter != 7*24*time.Hour-time.Hour || !strings.Contains(le.What, "no bundle holds") {
		f.t.Errorf("past the unbound quota: %v (%+v), want a *store.LimitError to retry in 167h", err, le)
	}
	// A bundle that holds the first file takes it out of the quota.
	b := f.sealBundle(op, []string{"physics"})
	hash := "sha256:" + nonce() + nonce()
	nb := b.NewBundle
	nb.Hash, nb.Sealed = hash, f.put("", map[string]any{"type": "sealed", "commitment": "sha256:" + nonce()})
	nb.Files = []ledger.File{{Path: "data/big.bin", Digest: held, Size: 900, Uploaded: true}}
	_, err = f.s.CreateBundle(f.ctx, nb)
	f.ok(err, "CreateBundle holding the upload")
	f.ok(f.s.RequestUpload(f.ctx, ledger.Upload{Digest: loose, Size: 200, Operator: op.ID, Organization: org, Requested: f.now.Add(time.Hour)}, limits),
		"RequestUpload once a bundle holds the earlier file")
	// The organization's quota counts its operators together: 200 bytes
	// of the first operator's, and 1000 of another's, are past 1100.
	orgLimits := limits
	orgLimits.OrgUnbound = 1100
	err = f.s.RequestUpload(f.ctx, ledger.Upload{Digest: "sha256:" + nonce() + nonce(), Size: 1000, Operator: "op:" + nonce(), Organization: org, Requested: f.now.Add(time.Hour)}, orgLimits)
	if !errors.As(err, &le) || !strings.Contains(le.What, "organization") {
		f.t.Errorf("past the organization's unbound quota: %v", err)
	}
	// Requests older than Keep lapsed: the sweep has removed their files.
	f.ok(f.s.RequestUpload(f.ctx, ledger.Upload{Digest: "sha256:" + nonce() + nonce(), Size: 1000, Operator: op.ID, Organization: org, Requested: f.now.Add(8 * 24 * time.Hour)}, limits),
		"RequestUpload once the earlier requests lapsed")
}

// unsettled fails the test unless UnsettledBundles lists exactly want.
func (f *fixture) unsettled(want []string, when string) {
	f.t.Helper()
	list, err := f.s.UnsettledBundles(f.ctx, 10)
	f.ok(err, "UnsettledBundles")
	var got []string
	for _, b := range list {
		got = append(got, b.Hash)
	}
	if !slices.Equal(got, want) {
		f.t.Errorf("UnsettledBundles %s = %v, want %v", when, got, want)
	}
}
