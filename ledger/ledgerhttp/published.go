package ledgerhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/paper"
	"github.com/agora-node/agora/ledger/price"
	"github.com/agora-node/agora/store"
)

// Checks of published bundles ("Verifying claims"): when a bundle opens,
// the node makes the jobs its claims call for, each kind once, with IDs
// made from what they are (roundJobID), so opening twice makes nothing
// twice:
//
//   - 2 proof checks, priced like a reproduction, when a claim's evidence
//     holds a proof; they go only to verifiers listing its checkers;
//   - 2 replication matches when a replication claim depends on a claim
//     of another organization's work; no model of a family that wrote
//     either, nor either organization, judges it;
//   - 2 citation checks, 1 credit for every 5 citations each, when the
//     paper cites claims on the ledger or sources outside it;
//   - 2 duplicate checks of 1 credit when a claim shares most of its words
//     with an earlier claim; else their price goes back to the author;
//   - 4 importance ratings of 1 credit, its reviews being done while it
//     was sealed (public reviews of long work are not made yet).
//
// What the brief of each lists (replicates, citations, pairs) is fixed
// when the job is made and kept with it (ledger.JobNeeds).

// startChecks makes an opened bundle's checks. Each kind stands alone: one
// already made is left as it is.
func (s *Server) startChecks(ctx context.Context, hash string) error {
	ctx = context.WithoutCancel(ctx)
	b, err := s.store.Bundle(ctx, hash)
	if err != nil || b.State != ledger.BundleOpen {
		return err
	}
	o, err := s.checkOrigin(ctx, b)
	if err != nil {
		return err
	}
	var errs []error
	for _, plan := range []func(context.Context, ledger.Bundle, origin) ([]ledger.CheckJob, []jobs.Movement, error){
		s.proofChecks, s.replicationMatches, s.citationChecks, s.duplicateChecks, s.importanceRatings,
	} {
		js, moves, err := plan(ctx, b, o)
		if err == nil && (len(js) > 0 || len(moves) > 0) {
			err = s.store.CreateCheckJobs(ctx, js, moves)
		}
		if err != nil && !errors.Is(err, store.ErrDuplicate) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// origin is whose work a bundle is: its author's organization and the
// families its manifest declares, and how long re-running it takes.
type origin struct {
	org      string
	families []string
	minutes  float64
	gpu      bool
}

func (s *Server) checkOrigin(ctx context.Context, b ledger.Bundle) (origin, error) {
	o := origin{org: b.Operator}
	op, err := s.store.Operator(ctx, b.Operator)
	if err != nil {
		return o, err
	}
	if id, ok := op.Identity(); ok {
		o.org = id.Organization
	}
	m, err := s.bundleManifest(b)
	if err != nil {
		return o, err
	}
	if m != nil {
		o.families, o.minutes, o.gpu = m.ModelFamilies, m.Compute.Minutes, m.Compute.GPU
	}
	return o, nil
}

// bundleManifest reads a bundle's manifest.json; nil if it has none that
// parses (the bundle check refused such bundles).
func (s *Server) bundleManifest(b ledger.Bundle) (*bundle.Manifest, error) {
	data, err := s.bundleFile(b, "manifest.json")
	if err != nil || data == nil {
		return nil, err
	}
	m, _, err := bundle.ParseManifest(data)
	if err != nil {
		return nil, nil
	}
	return m, nil
}

// bundleFile reads the file at path of b, nil if it has none.
func (s *Server) bundleFile(b ledger.Bundle, path string) ([]byte, error) {
	for _, f := range b.Files {
		if f.Path == path {
			return s.readBlob(f.Digest)
		}
	}
	return nil, nil
}

// claimOf reads a claim as claims.json holds it.
func claimOf(c ledger.Claim) claims.Claim {
	var cl claims.Claim
	json.Unmarshal(c.JSON, &cl)
	return cl
}

// checkJobs makes n jobs of kind on b, whose claims list is claimList.
func (s *Server) checkJobs(b ledger.Bundle, kind string, n, credits int, orgs, families []string, claimList []ledger.JobClaim, needs ledger.JobNeeds, minutes float64, gpu bool) []ledger.CheckJob {
	var js []ledger.CheckJob
	for i := range n {
		js = append(js, ledger.CheckJob{Job: ledger.Job{ID: roundJobID(b.Hash, kind, i), Kind: kind, Bundle: b.Hash, Urgency: jobs.Urgency(kind, false),
			AuthorOrgs: orgs, AuthorFamilies: families, Claims: claimList, Credits: credits, Minutes: minutes, GPU: gpu, Created: s.now()}, Needs: needs})
	}
	return js
}

// claimsMarked lists b's claims, those need says needing a verdict.
func claimsMarked(b ledger.Bundle, need func(ledger.Claim) bool) ([]ledger.JobClaim, bool) {
	var out []ledger.JobClaim
	any := false
	for _, c := range b.Claims {
		n := need(c)
		any = any || n
		out = append(out, ledger.JobClaim{LocalID: c.LocalID, ClaimID: c.ID, NeedsVerdict: n})
	}
	return out, any
}

func detailJSON(v map[string]any) []byte {
	data, err := canonical.Marshal(v)
	if err != nil {
		panic(err) // only strings, numbers, maps and slices of them
	}
	return data
}

func (s *Server) proofChecks(_ context.Context, b ledger.Bundle, o origin) ([]ledger.CheckJob, []jobs.Movement, error) {
	var checkers []string
	claimList, any := claimsMarked(b, func(c ledger.Claim) bool {
		proved := false
		for _, e := range claimOf(c).Evidence {
			if e.Kind() == claims.Proof {
				proved = true
				if !slices.Contains(checkers, e.Checker) {
					checkers = append(checkers, e.Checker)
				}
			}
		}
		return proved
	})
	if !any {
		return nil, nil, nil
	}
	rate := s.rates().CPU
	if o.gpu {
		rate = s.rates().GPU
	}
	credits := max(1, int(math.Ceil(o.minutes/60*float64(rate))))
	slices.Sort(checkers)
	return s.checkJobs(b, jobs.ProofCheck, price.ProofCheckJobs, credits, []string{o.org}, o.families, claimList,
		ledger.JobNeeds{Software: checkers}, o.minutes, o.gpu), nil, nil
}

func (s *Server) replicationMatches(ctx context.Context, b ledger.Bundle, o origin) ([]ledger.CheckJob, []jobs.Movement, error) {
	orgs, families := []string{o.org}, slices.Clone(o.families)
	var replicates []any
	replicating := map[string]bool{}
	for _, c := range b.Claims {
		if c.Type != claims.Replication {
			continue
		}
		for _, dep := range c.DependsOn {
			found, err := s.store.Claim(ctx, dep)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, nil, err
			}
			i := slices.IndexFunc(found, func(f ledger.FoundClaim) bool { return !f.Withdrawn && f.Bundle != b.Hash })
			if i < 0 {
				continue
			}
			original, err := s.store.Bundle(ctx, found[i].Bundle)
			if err != nil {
				return nil, nil, err
			}
			oo, err := s.checkOrigin(ctx, original)
			if err != nil {
				return nil, nil, err
			}
			if oo.org == o.org {
				continue // a replication of its own organization's work is no replication
			}
			replicates = append(replicates, map[string]any{"claim_id": c.ID, "original": dep, "original_bundle": original.Hash})
			replicating[c.ID] = true
			orgs = appendNew(orgs, oo.org)
			families = appendNew(families, oo.families...)
		}
	}
	if len(replicates) == 0 {
		return nil, nil, nil
	}
	claimList, _ := claimsMarked(b, func(c ledger.Claim) bool { return replicating[c.ID] })
	return s.checkJobs(b, jobs.ReplicationMatch, price.MatchesPerReplication, price.MatchCredits, orgs, families, claimList,
		ledger.JobNeeds{Detail: detailJSON(map[string]any{"replicates": replicates})}, 0, false), nil, nil
}

func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		if !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}

// checkableReference reports whether a citation check judges a source:
// a claim on the ledger or a source outside it.
func checkableReference(id string) bool {
	for _, p := range []string{"claim:", "doi:", "arxiv:", "pmid:"} {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return false
}

func (s *Server) citationChecks(_ context.Context, b ledger.Bundle, o origin) ([]ledger.CheckJob, []jobs.Movement, error) {
	refsJSON, err := s.bundleFile(b, "references.json")
	if err != nil || refsJSON == nil {
		return nil, nil, err
	}
	paperMD, err := s.bundleFile(b, "paper.md")
	if err != nil {
		return nil, nil, err
	}
	var refs []map[string]any
	if json.Unmarshal(refsJSON, &refs) != nil {
		return nil, nil, nil
	}
	cited := paper.Citations(string(paperMD))
	places := citationPlaces(string(paperMD))
	global := map[string]string{}
	var all []any
	for _, c := range b.Claims {
		global[c.LocalID] = c.ID
		all = append(all, c.ID)
	}
	var list []any
	judged := map[string]bool{}
	for _, ref := range refs {
		id, _ := ref["id"].(string)
		if !checkableReference(id) || !slices.Contains(cited, id) {
			continue
		}
		v := map[string]any{"reference": id, "claims": all, "cited_at": places[id]}
		if locals, ok := ref["claims"].([]any); ok {
			ids := []any{}
			for _, l := range locals {
				if g, ok := global[fmt.Sprint(l)]; ok {
					ids = append(ids, g)
					judged[g] = true
				}
			}
			v["claims"] = ids
		} else {
			for _, c := range b.Claims {
				judged[c.ID] = true
			}
		}
		for _, k := range []string{"title", "authors", "year"} {
			if x, ok := ref[k]; ok {
				v[k] = x
			}
		}
		list = append(list, v)
	}
	if len(list) == 0 {
		return nil, nil, nil
	}
	claimList, _ := claimsMarked(b, func(c ledger.Claim) bool { return judged[c.ID] })
	each := (len(list) + price.CitationsPerCredit - 1) / price.CitationsPerCredit
	return s.checkJobs(b, jobs.CitationCheck, price.CitationCheckJobs, each, []string{o.org}, o.families, claimList,
		ledger.JobNeeds{Detail: detailJSON(map[string]any{"citations": list})}, 0, false), nil, nil
}

// citationPlaces finds where paper.md cites each reference: {"section",
// "line"}, the line its paragraph, table row or heading starts on.
func citationPlaces(md string) map[string][]any {
	out := map[string][]any{}
	section, start := "", 0
	for i, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "## "):
			section, start = strings.TrimSpace(trimmed[3:]), i+1
		case strings.HasPrefix(trimmed, "#"), strings.HasPrefix(trimmed, "|"), start == 0:
			start = i + 1
		}
		if trimmed == "" {
			start = 0
			continue
		}
		for _, id := range paper.Citations(line) {
			place := map[string]any{"section": section, "line": start}
			if n := len(out[id]); n == 0 || out[id][n-1].(map[string]any)["line"] != start {
				out[id] = append(out[id], place)
			}
		}
	}
	return out
}

func (s *Server) duplicateChecks(ctx context.Context, b ledger.Bundle, o origin) ([]ledger.CheckJob, []jobs.Movement, error) {
	var pairs []any
	paired := map[string]bool{}
	for _, c := range b.Claims {
		words := jobs.Distinctive(c.Statement, 3)
		if len(words) == 0 {
			continue
		}
		found, err := s.store.SearchClaims(ctx, ledger.ClaimQuery{Words: strings.Join(words, " "), Before: b.RevealedIndex, Limit: 50})
		if err != nil {
			return nil, nil, err
		}
		n := 0
		earlier := map[string]bool{} // a claim carried over by a correction is in two bundles; pair it once
		for _, f := range found {
			if n == jobs.MaxPairsPerClaim || f.Withdrawn || slices.Contains(b.Versions, f.Bundle) || f.Assertion == c.Assertion ||
				earlier[f.ID] || jobs.SharedWords(c.Statement, f.Statement) < jobs.SharedWordsAtLeast {
				continue
			}
			earlier[f.ID] = true
			pairs = append(pairs, map[string]any{"claim": c.ID, "statement": c.Statement, "earlier": f.ID, "earlier_statement": f.Statement, "earlier_bundle": f.Bundle})
			paired[c.ID] = true
			n++
		}
	}
	if len(pairs) == 0 {
		moves, err := s.duplicateRefund(ctx, b)
		return nil, moves, err
	}
	claimList, _ := claimsMarked(b, func(c ledger.Claim) bool { return paired[c.ID] })
	return s.checkJobs(b, jobs.DuplicateCheck, price.DuplicateCheckJobs, price.DuplicateCheckCredits, []string{o.org}, o.families, claimList,
		ledger.JobNeeds{Detail: detailJSON(map[string]any{"pairs": pairs})}, 0, false), nil, nil
}

// duplicateRefund gives a paid bundle's author back its duplicate checks'
// price when no claim comes close to an earlier one.
func (s *Server) duplicateRefund(ctx context.Context, b ledger.Bundle) ([]jobs.Movement, error) {
	return s.refundIfPaid(ctx, b, "duplicate_checks", price.DuplicateCheckJobs*price.DuplicateCheckCredits)
}

// refundIfPaid is the movement that gives amount back to b's author for
// what, keyed so it is given once; none if b went free.
func (s *Server) refundIfPaid(ctx context.Context, b ledger.Bundle, what string, amount int) ([]jobs.Movement, error) {
	moves, err := s.store.Movements(ctx, b.Operator)
	if err != nil {
		return nil, err
	}
	if amount <= 0 || !slices.ContainsFunc(moves, func(m jobs.Movement) bool { return m.Key == "bundle:"+b.Hash && m.Amount < 0 }) {
		return nil, nil // it went free: nothing to give back
	}
	return []jobs.Movement{{Operator: b.Operator, Kind: jobs.Refunded, Amount: amount, Key: "refund:" + what + ":" + b.Hash, At: s.now()}}, nil
}

func (s *Server) importanceRatings(_ context.Context, b ledger.Bundle, o origin) ([]ledger.CheckJob, []jobs.Movement, error) {
	if len(b.Claims) == 0 {
		return nil, nil, nil
	}
	claimList, _ := claimsMarked(b, func(ledger.Claim) bool { return true })
	return s.checkJobs(b, jobs.ImportanceRating, price.RatingJobs, price.RatingCredits, []string{o.org}, o.families, claimList,
		ledger.JobNeeds{}, 0, false), nil, nil
}
