package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/ledger/jobs"
)

// What the log settles about bundles, checked against what the node
// serves ("The hazard screen", "Statuses"): a bundle the log withdraws is
// served as a tombstone naming that withdrawal and its reason, with no
// files and no claims, its sealed entry reads withdrawn, and each claim
// the log opened with it is Unavailable, its words no longer served; a
// bundle the log opened and never withdrew is not served as withdrawn by
// an entry the log holds no withdrawal at; and each signer's
// hazard_concerns agrees with the concerns the log holds (below). Credit
// is not on the log (a
// job's price is the node's record, not an entry), so the audit leaves
// balances to the node.

// loggedBundle is what the entries this run audits say of one bundle.
type loggedBundle struct {
	opened    bool
	claims    []string // the claim IDs its revealed entry's leaf lists
	withdrawn bool
	at        uint64 // the withdrawal entry's index
	reason    string
	sealed    *uint64 // its sealed entry: the one its reveal opens, or its withdrawal closes
}

// outcomes gathers loggedBundles as the entries go by.
type outcomes struct {
	bundles map[string]*loggedBundle
	order   []string
	// concerns lists, by signer of an attestation or hazard review, the
	// bundles of the answers that named a concern; signers every signer
	// of one, in the order the log first names them.
	concerns map[string][]string
	signers  []string
}

func (o *outcomes) bundle(hash string) *loggedBundle {
	if o.bundles == nil {
		o.bundles = map[string]*loggedBundle{}
	}
	b := o.bundles[hash]
	if b == nil {
		b = &loggedBundle{}
		o.bundles[hash] = b
		o.order = append(o.order, hash)
	}
	return b
}

// note records what entry i, of type typ and already verified, settles.
func (o *outcomes) note(i uint64, typ string, leaf, signed map[string]any) {
	o.noteConcern(typ, signed)
	hash, _ := signed["bundle"].(string)
	if hash == "" {
		return
	}
	switch typ {
	case "bundle":
		if _, revealed := leaf["sealed"]; !revealed {
			return
		}
		b := o.bundle(hash)
		b.opened = true
		if reveal, ok := leaf["sealed"].(map[string]any); ok {
			if idx, ok := reveal["index"].(float64); ok && idx >= 0 && b.sealed == nil {
				at := uint64(idx)
				b.sealed = &at
			}
		}
		list, _ := leaf["claims"].([]any)
		for _, c := range list {
			if id, ok := c.(string); ok {
				b.claims = append(b.claims, id)
			}
		}
	case "withdrawal":
		b := o.bundle(hash)
		if b.withdrawn {
			return // the first withdrawal is the one that took it down
		}
		b.withdrawn, b.at = true, i
		b.reason, _ = signed["reason"].(string)
		if s, ok := signed["sealed"].(float64); ok && s >= 0 {
			idx := uint64(s)
			b.sealed = &idx
		}
	}
}

// checkOutcomes asks the node about every bundle the run's entries opened
// or withdrew, a few at a time, and fails on the first answer the log
// contradicts.
func (a *audit) checkOutcomes(ctx context.Context) error {
	hashes := a.outcomes.order
	if err := inParallel(len(hashes), func(k int) error {
		return a.checkBundleOutcome(ctx, hashes[k], a.outcomes.bundles[hashes[k]])
	}); err != nil {
		return err
	}
	for k := range hashes {
		switch b := a.outcomes.bundles[hashes[k]]; {
		case b.withdrawn:
			a.report.withdrawals++
		case b.opened:
			a.report.openBundles++
		}
	}
	return a.checkConcerns(ctx)
}

func (a *audit) checkBundleOutcome(ctx context.Context, hash string, b *loggedBundle) error {
	served, err := a.c.Bundle(ctx, hash)
	if err != nil {
		return fetchFailure("GET /api/v1/bundles/"+hash, err)
	}
	state, _ := served["state"].(string)
	if !b.withdrawn && !b.opened {
		return nil // a bundle only a concern named, still sealed on the log
	}
	if !b.withdrawn {
		if state != "withdrawn" {
			return nil
		}
		at, ok := served["withdrawn_entry"].(float64)
		if ok && uint64(at) >= a.head.Size {
			return nil // withdrawn after the head this run verifies
		}
		return bad("bundle %s is served as withdrawn in entry %v, but the log up to %d entries holds no withdrawal of it", hash, served["withdrawn_entry"], a.head.Size)
	}
	if state != "withdrawn" {
		return bad("entry %d withdraws bundle %s (%s), but the node serves it as %q", b.at, hash, b.reason, state)
	}
	if at, ok := served["withdrawn_entry"].(float64); !ok || uint64(at) != b.at {
		return bad("bundle %s is withdrawn by entry %d, but the node names %v as its withdrawn_entry", hash, b.at, served["withdrawn_entry"])
	}
	tomb, _ := served["tombstone"].(map[string]any)
	if tomb["reason"] != b.reason {
		return bad("entry %d withdraws bundle %s for %q, but its tombstone gives %v", b.at, hash, b.reason, tomb["reason"])
	}
	if files, _ := served["files"].(map[string]any); len(files) > 0 {
		return bad("bundle %s is withdrawn by entry %d, but the node still lists %d of its files", hash, b.at, len(files))
	}
	if list, _ := served["claims"].([]any); len(list) > 0 {
		return bad("bundle %s is withdrawn by entry %d, but the node still serves %d of its claims", hash, b.at, len(list))
	}
	if b.sealed != nil {
		s, err := a.c.Sealed(ctx, *b.sealed)
		if err != nil {
			return fetchFailure(fmt.Sprintf("GET /api/v1/sealed/%d", *b.sealed), err)
		}
		if s["state"] != "withdrawn" {
			return bad("entry %d withdraws the bundle sealed at %d, but the node says that entry is %v", b.at, *b.sealed, s["state"])
		}
	}
	for _, id := range b.claims {
		if err := a.checkUnavailable(ctx, id, hash, b.at); err != nil {
			return err
		}
	}
	return nil
}

// checkUnavailable checks that claim id, which withdrawn bundle hash held,
// is served Unavailable, its words no longer served. A claim another
// bundle still up restates is the other's to serve, and is left alone.
func (a *audit) checkUnavailable(ctx context.Context, id, hash string, at uint64) error {
	c, err := a.c.Claim(ctx, id)
	var ce *client.Error
	if errors.As(err, &ce) && ce.Status == http.StatusNotFound {
		return bad("claim %s of bundle %s, withdrawn by entry %d, is not found: it stays on the record as Unavailable", id, hash, at)
	}
	if err != nil {
		return fetchFailure("GET /api/v1/claims/"+id, err)
	}
	if bundles, _ := c["bundles"].([]any); slices.ContainsFunc(bundles, func(v any) bool {
		m, _ := v.(map[string]any)
		return m["bundle"] != hash && m["withdrawn"] == false
	}) {
		return nil
	}
	statuses, _ := c["statuses"].([]any)
	if !slices.Contains(statuses, any("unavailable")) {
		return bad("claim %s of bundle %s, withdrawn by entry %d, is served with statuses %v, not unavailable", id, hash, at, statuses)
	}
	if c["claim"] != nil || c["statement"] != nil {
		return bad("claim %s of bundle %s, withdrawn by entry %d, still has its words served", id, hash, at)
	}
	return nil
}

// A concern on the log is an attestation's hazard, or a hazard review's
// verdict, that names a hazard (jobs.Concern). Each counts once for its
// signer on the operator record's hazard_concerns: upheld once a panel's
// withdrawal (hazard, private_data, unlawful) takes its bundle down,
// overturned once its bundle opens without one, and neither while its
// bundle is still sealed or was withdrawn another way. The node counts
// only the concerns named up to its panel's decision, and an overturned
// panel's bundle may not have opened yet, so the record must hold at least
// the upheld concerns the log shows, at most those and the ones still
// pending, and no more overturned than the log shows opened or pending.

// concernOf is the signer and the hazard a verified entry of type typ
// names, "" when it names none.
func concernOf(typ string, signed map[string]any) (signer, hazard string) {
	switch typ {
	case "attestation":
		signer, _ = signed["verifier"].(string)
		hazard, _ = signed["hazard"].(string)
	case "hazard_review":
		signer, _ = signed["reviewer"].(string)
		hazard, _ = signed["verdict"].(string)
	}
	return signer, hazard
}

// noteConcern records who signed an answer and, if it names a concern,
// on which bundle.
func (o *outcomes) noteConcern(typ string, signed map[string]any) {
	signer, hazard := concernOf(typ, signed)
	bundle, _ := signed["bundle"].(string)
	if signer == "" || bundle == "" {
		return
	}
	if o.concerns == nil {
		o.concerns = map[string][]string{}
	}
	if _, seen := o.concerns[signer]; !seen {
		o.concerns[signer] = nil
		o.signers = append(o.signers, signer)
	}
	if jobs.Concern(hazard) {
		o.concerns[signer] = append(o.concerns[signer], bundle)
		o.bundle(bundle) // so its state is known
	}
}

// concernCounts is what the log says of one signer's concerns.
type concernCounts struct{ upheld, overturned, pending int }

func (o *outcomes) counts(signer string) concernCounts {
	var c concernCounts
	for _, hash := range o.concerns[signer] {
		b := o.bundles[hash]
		switch {
		case b.withdrawn && jobs.PanelWithdrawal(b.reason):
			c.upheld++
		case b.opened:
			c.overturned++
		default:
			c.pending++
		}
	}
	return c
}

// checkConcerns checks every answering signer's hazard_concerns against
// the log, on a run that audits the whole log (the counts are over all of
// it).
func (a *audit) checkConcerns(ctx context.Context) error {
	if !a.wholeLog {
		if len(a.outcomes.signers) > 0 {
			a.report.notChecked(notCheckedConcerns, "operator")
		}
		return nil
	}
	signers := a.outcomes.signers
	if err := inParallel(len(signers), func(k int) error { return a.checkSignerConcerns(ctx, signers[k]) }); err != nil {
		return err
	}
	a.report.concernRecords = len(signers)
	return nil
}

const notCheckedConcerns = "operators' hazard_concerns, which count over the whole log (a run with a new --pin checks them)"

func (a *audit) checkSignerConcerns(ctx context.Context, signer string) error {
	op, err := a.c.Operator(ctx, signer)
	if err != nil {
		return fetchFailure("GET /api/v1/operators/"+signer, err)
	}
	served, ok := op.Raw["hazard_concerns"].(map[string]any)
	if !ok {
		return bad("operator %s's record has no hazard_concerns", signer)
	}
	upheld, okU := served["upheld"].(float64)
	overturned, okO := served["overturned"].(float64)
	if !okU || !okO {
		return bad("operator %s's hazard_concerns is %v, not {upheld, overturned}", signer, served)
	}
	c := a.outcomes.counts(signer)
	switch {
	case int(upheld) < c.upheld || int(upheld) > c.upheld+c.pending:
		return bad("operator %s's record shows %v hazard concerns upheld, but the log shows %d upheld by a panel's withdrawal and %d pending", signer, upheld, c.upheld, c.pending)
	case int(overturned) > c.overturned+c.pending:
		return bad("operator %s's record shows %v hazard concerns overturned, but the log shows %d on bundles that opened and %d pending", signer, overturned, c.overturned, c.pending)
	case int(upheld+overturned) > c.upheld+c.overturned+c.pending:
		return bad("operator %s's record shows %v hazard concerns decided, but the log holds %d it named", signer, upheld+overturned, c.upheld+c.overturned+c.pending)
	}
	return nil
}

// inParallel calls check for 0 to n-1, a few at a time, and returns the
// error of the lowest k that failed.
func inParallel(n int, check func(k int) error) error {
	const workers = 8
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for k := range next {
				errs[k] = check(k)
			}
		})
	}
	for k := range n {
		next <- k
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
