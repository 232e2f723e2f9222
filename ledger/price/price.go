// Package price computes what a bundle costs its author: the `price`
// object that checking a bundle answers (the protocol's instructions,
// spec/ledger-protocol.md, "Publishing, step by step", step 6; "the spec"
// below), and the rates that GET /api/v1/prices shows. It is pure: Compute
// reads what a bundle asks verifiers to do, the node's rates today, and why
// the bundle might go free, and returns the price. Nothing is stored or
// charged here.
//
// # The rules (spec, "Verify first")
//
// A bundle prepays every job it creates, and each job pays its verifier what
// was prepaid for it:
//
//   - A reproduction costs its declared machine hours at its pool's rate
//     (cpu, or gpu when the manifest asks for one), and at least 1. A bundle
//     whose claims have computations to re-run pays for 2 reproductions and
//     1 more as the reserve.
//   - 3 reviews of 1 credit each.
//   - 2 proof checks priced like reproductions, if its claims include proofs.
//   - 2 citation checks of 1 credit for every 5 citations (rounded up), if
//     it cites claims on the ledger or sources outside it.
//   - 2 duplicate checks of 1 credit each.
//   - 4 importance ratings of 1 credit each ("Every bundle prepays 4
//     ratings"; "A rating pays 1 credit").
//   - 2 screens of 1 credit each. Work that re-runs in a day or less (quick)
//     holds them as a screening deposit instead, returned once its
//     reproductions clear it.
//   - For measurements, a replication bounty: 2 replications, each worth the
//     hours of each kind of work the manifest declares at that kind's rate.
//   - Its share of the commons, while the commons holds less than a hazard
//     panel and 10 canaries of the bundle's size would cost.
//
// At base rates, with the commons taking shares, this gives the spec's
// worked totals: 12 credits for a bundle whose claims have nothing to
// re-run, prove, cite or replicate (3+2+4+2 and 1 to the commons), and 16
// for one with a quick computation (2+1 reproductions, 3+2+4, a deposit of
// 2, and 2 to the commons); 11 and 14 once the commons holds enough.
//
// # Choices where the spec and the reference are silent
//
// The reference implementation (omerliran/sciencejournal-protocol) has no
// price computation; these are this package's choices, each made so that
// the spec's worked totals come out exactly:
//
//   - Credits are whole numbers. A reproduction's hours × rate is rounded
//     up (90 minutes at rate 1 is 2 credits), and so is a replication's
//     bounty. Rates are whole numbers from 1 to 10.
//   - The commons share is 1 reading credit (toward hazard panels) plus the
//     bundle's expected share of a canary. A canary of the bundle's size
//     costs its 2 reproductions; with about one job in twenty a canary, the
//     expected share is that cost / 20, rounded up. Only quick work can be
//     a canary (canaries are reproduced while sealed), so other bundles
//     pay 1. A hazard panel costs 3 credits: 3 hazard reviews of 1 each,
//     like a challenge panel of 3 reviews. So the commons holds enough for
//     a bundle when its balance is at least 3 + 10 × 2 × per_job for quick
//     work, and at least 3 otherwise.
//   - screening_deposit is 2 for every bundle: for quick work it is the
//     deposit, for the rest the 2 screens it pays outright (quick says
//     which). The price object has no other field for those screens, and
//     credits is always the sum of its parts.
//   - per_job is 0 when the bundle has nothing to re-run: it pays for no
//     reproduction. pool and rate still name the manifest's pool, and proof
//     checks are priced at that pool's per-job price.
//   - replication_matches prices 2 match jobs of 1 credit for each funded
//     replication (a replicator collects once two organizations agree), so
//     4 for a bundle with measurements.
//   - replication_bounty.funded is how many replications are prepaid: 2
//     when the claims priced include measurements, else 0.
//   - A free bundle (seed or verifier) puts nothing into the commons ("Every
//     paid bundle also puts its share into the commons"), and is charged 0.
//   - The correction discount is half the credits rounded down; the author
//     pays the odd credit.
//
// For a correction, Needs describes only what it changed: claims carried
// over keep their reproductions, proof checks and replications, so the
// caller leaves them out of Computations, Proofs and Measurements. Reviews
// and importance ratings are always paid in full.
package price

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
)

// The protocol's counts and fixed prices, in credits.
const (
	BaseRate = 1  // a pool's rate while its backlog is short
	MaxRate  = 10 // the most a pool's rate rises to

	ReproductionJobs      = 2 // prepaid, plus the reserve
	ReviewJobs            = 3 // one methods, one domain, one adversarial review
	ReviewCredits         = 1
	ProofCheckJobs        = 2
	CitationCheckJobs     = 2
	CitationsPerCredit    = 5 // a citation check pays 1 credit per 5 citations, rounded up
	DuplicateCheckJobs    = 2
	DuplicateCheckCredits = 1
	RatingJobs            = 4 // importance ratings
	RatingCredits         = 1
	ScreenJobs            = 2
	ScreenCredits         = 1
	ScreeningDeposit      = ScreenJobs * ScreenCredits
	Replications          = 2 // bounties a bundle with measurements prepays
	MatchesPerReplication = 2 // replication_match jobs that settle one replication
	MatchCredits          = 1

	// QuickMinutes is the most declared compute a bundle's computations may
	// take to be re-run while it is sealed.
	QuickMinutes = 24 * 60
	// HazardPanelCredits is what a hazard panel costs the commons: 3 hazard
	// reviews of 1 credit.
	HazardPanelCredits = 3
	// CanariesHeld is how many canaries of a bundle's size the commons must
	// cover, beside a hazard panel, before it stops taking shares.
	CanariesHeld = 10
	// CanaryOneIn is how many jobs there are to one canary, about.
	CanaryOneIn = 20
	// ReadingCredits is the reading credit every paid bundle puts toward
	// hazard panels while the commons takes shares.
	ReadingCredits = 1
)

// ErrInvalid is wrapped by every error Compute and Rates.Validate return: the
// input was not a bundle or rates the protocol allows.
var ErrInvalid = errors.New("price: invalid input")

// Pools, as the price object's `pool` names them.
const (
	PoolCPU = "cpu"
	PoolGPU = "gpu"
)

// Free says why a bundle would cost its author nothing: Paid when it
// wouldn't. It marshals to the price object's `free`: null, "seed" or
// "verifier".
type Free string

const (
	// Paid: the author pays (free is null).
	Paid Free = ""
	// Seed: one of a new ledger's first 10 bundles, from an operator the
	// node's reviewers invited.
	Seed Free = "seed"
	// Verifier: a free bundle for verifiers, for an organization that did
	// 2 jobs with work in 30 days and had no such bundle in 7.
	Verifier Free = "verifier"
)

// MarshalJSON writes Paid as null and the others as their strings.
func (f Free) MarshalJSON() ([]byte, error) {
	if f == Paid {
		return []byte("null"), nil
	}
	return json.Marshal(string(f))
}

// UnmarshalJSON reads null as Paid.
func (f *Free) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == nil {
		*f = Paid
		return nil
	}
	if *s == "" {
		return fmt.Errorf("%w: free %q", ErrInvalid, *s)
	}
	*f = Free(*s)
	return nil
}

// Needs is what a bundle asks verifiers to do, read from its manifest and
// claims. For a correction, describe only the claims it changed (see the
// package documentation).
type Needs struct {
	// Minutes and GPU are manifest.json's compute.minutes and compute.gpu:
	// the machine time re-running its computations, or checking its proofs,
	// declares, and its pool.
	Minutes float64
	GPU     bool
	// Computations: some claim's evidence has a computation to re-run.
	Computations bool
	// Proofs: some claim's evidence has a proof to check.
	Proofs bool
	// Measurements: some claim's evidence has a measurement, so the bundle
	// prepays a replication bounty, priced by Replication.
	Measurements bool
	// Replication is manifest.json's replication.needs: the hands-on hours
	// of each kind of work one replication takes. Read only when
	// Measurements is set, and then required.
	Replication []WorkHours
	// Citations counts the references a citation check judges: claims on
	// the ledger, swarm goals, and sources outside the ledger.
	Citations int
	// Correction: the manifest names a bundle it replaces.
	Correction bool
	// Fixable: the replaced version had findings a new version could fix
	// (in attention.to_improve, or a major_issues or unsound review). Only
	// counts for a correction.
	Fixable bool
}

// WorkHours is the hands-on hours of one kind of work a replication takes:
// Kind is one of manifest.json's work kinds, "compute", "gpu", "lab" or
// "field", each priced at its pool's rate.
type WorkHours struct {
	Kind  string
	Hours float64
}

// Rates are the node's rates today: each pool's rate, from BaseRate to
// MaxRate, and the commons' balance. They marshal to the answer of GET
// /api/v1/prices:
//
//	{"rates": {"cpu": 1, "gpu": 1, "lab": 1, "field": 1}, "screening_deposit": 2, "commons": 40}
//
// (The spec names `screening_deposit` and `commons` and says the answer
// gives what an hour of CPU, GPU, lab and field work costs; the `rates`
// object keyed by pool is this package's choice.)
type Rates struct {
	CPU, GPU, Lab, Field int
	// Commons is the commons' balance in credits.
	Commons int
}

// BaseRates are every pool at its base rate, with an empty commons.
func BaseRates() Rates {
	return Rates{CPU: BaseRate, GPU: BaseRate, Lab: BaseRate, Field: BaseRate}
}

// Validate checks every rate is a whole number from BaseRate to MaxRate and
// the commons isn't negative.
func (r Rates) Validate() error {
	for _, p := range []struct {
		name string
		rate int
	}{{"cpu", r.CPU}, {"gpu", r.GPU}, {"lab", r.Lab}, {"field", r.Field}} {
		if p.rate < BaseRate || p.rate > MaxRate {
			return fmt.Errorf("%w: rate of %s is %d, not from %d to %d", ErrInvalid, p.name, p.rate, BaseRate, MaxRate)
		}
	}
	if r.Commons < 0 {
		return fmt.Errorf("%w: commons balance %d is negative", ErrInvalid, r.Commons)
	}
	return nil
}

// kind is the rate of a work kind a replication needs.
func (r Rates) kind(k string) (int, bool) {
	switch k {
	case "compute":
		return r.CPU, true
	case "gpu":
		return r.GPU, true
	case "lab":
		return r.Lab, true
	case "field":
		return r.Field, true
	}
	return 0, false
}

type ratesJSON struct {
	Rates struct {
		CPU   int `json:"cpu"`
		GPU   int `json:"gpu"`
		Lab   int `json:"lab"`
		Field int `json:"field"`
	} `json:"rates"`
	ScreeningDeposit int `json:"screening_deposit"`
	Commons          int `json:"commons"`
}

// MarshalJSON writes the answer of GET /api/v1/prices.
func (r Rates) MarshalJSON() ([]byte, error) {
	var j ratesJSON
	j.Rates.CPU, j.Rates.GPU, j.Rates.Lab, j.Rates.Field = r.CPU, r.GPU, r.Lab, r.Field
	j.ScreeningDeposit = ScreeningDeposit
	j.Commons = r.Commons
	return json.Marshal(j)
}

// UnmarshalJSON reads the answer of GET /api/v1/prices.
func (r *Rates) UnmarshalJSON(b []byte) error {
	var j ratesJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Rates{CPU: j.Rates.CPU, GPU: j.Rates.GPU, Lab: j.Rates.Lab, Field: j.Rates.Field, Commons: j.Commons}
	return nil
}

// Price is the price object, field for field and in the spec's order; it
// marshals to exactly its JSON. Every amount is in credits, and Credits is
// the sum of the parts: 2 × PerJob, Reserve, ScreeningDeposit, Reviews,
// ProofChecks, CitationChecks.Checks × CitationChecks.CreditsEach,
// DuplicateChecks, ImportanceRatings, ReplicationBounty.PerReplication ×
// ReplicationBounty.Funded, ReplicationMatches and Commons.
type Price struct {
	Credits  int  `json:"credits"`  // the whole price
	Charged  int  `json:"charged"`  // what submitting now would cost the author
	Discount int  `json:"discount"` // what the node pays of it: half of a correction of a fixable version
	Free     Free `json:"free"`     // why it would cost nothing, or null

	PerJob int    `json:"per_job"` // what one reproduction pays; 0 with nothing to re-run
	Pool   string `json:"pool"`    // "cpu" or "gpu"
	Rate   int    `json:"rate"`    // that pool's rate

	Quick            bool `json:"quick"`             // its computations are re-run while sealed
	ScreeningDeposit int  `json:"screening_deposit"` // held for 2 screens if quick, else paid for them
	Reserve          int  `json:"reserve"`           // the tie-breaking reproduction, returned if unneeded

	Reviews            int               `json:"reviews"`
	ProofChecks        int               `json:"proof_checks"`
	CitationChecks     CitationChecks    `json:"citation_checks"`
	DuplicateChecks    int               `json:"duplicate_checks"`   // returned if no claim comes close to an earlier one
	ImportanceRatings  int               `json:"importance_ratings"` // returned for any its claims don't take
	ReplicationBounty  ReplicationBounty `json:"replication_bounty"`
	ReplicationMatches int               `json:"replication_matches"`
	Commons            int               `json:"commons"` // its share of the commons
}

// CitationChecks is how many citation checks a bundle prepays and what
// each pays.
type CitationChecks struct {
	Checks      int `json:"checks"`
	CreditsEach int `json:"credits_each"`
}

// ReplicationBounty is what one replication of a bundle's measurements
// earns, and how many replications it prepays.
type ReplicationBounty struct {
	PerReplication int `json:"per_replication"`
	Funded         int `json:"funded"`
}

// Compute prices what b asks at rates r, for an author whose bundle would
// go free for why (Paid if it wouldn't). It fails, wrapping ErrInvalid, for
// inputs the protocol doesn't allow: rates out of range, minutes negative
// or over 7 days, measurements without replication needs, needs of an
// unknown or repeated kind or with hours not positive, a negative citation
// count, or an unknown Free.
func Compute(b Needs, r Rates, why Free) (Price, error) {
	if err := check(b, r, why); err != nil {
		return Price{}, err
	}
	p := Price{Free: why, Pool: PoolCPU, Rate: r.CPU}
	if b.GPU {
		p.Pool, p.Rate = PoolGPU, r.GPU
	}
	job := max(1, ceilCredits(b.Minutes/60*float64(p.Rate)))

	if b.Computations {
		p.PerJob = job
		p.Reserve = job
		p.Quick = b.Minutes <= QuickMinutes
	}
	p.ScreeningDeposit = ScreeningDeposit
	p.Reviews = ReviewJobs * ReviewCredits
	if b.Proofs {
		p.ProofChecks = ProofCheckJobs * job
	}
	if b.Citations > 0 {
		p.CitationChecks = CitationChecks{
			Checks:      CitationCheckJobs,
			CreditsEach: (b.Citations + CitationsPerCredit - 1) / CitationsPerCredit,
		}
	}
	p.DuplicateChecks = DuplicateCheckJobs * DuplicateCheckCredits
	p.ImportanceRatings = RatingJobs * RatingCredits
	if b.Measurements {
		hours := 0.0
		for _, n := range b.Replication {
			rate, _ := r.kind(n.Kind)
			hours += n.Hours * float64(rate)
		}
		p.ReplicationBounty = ReplicationBounty{PerReplication: max(1, ceilCredits(hours)), Funded: Replications}
		p.ReplicationMatches = Replications * MatchesPerReplication * MatchCredits
	}
	if why == Paid {
		p.Commons = commonsShare(p, r.Commons)
	}

	p.Credits = ReproductionJobs*p.PerJob + p.Reserve + p.ScreeningDeposit + p.Reviews + p.ProofChecks +
		p.CitationChecks.Checks*p.CitationChecks.CreditsEach + p.DuplicateChecks + p.ImportanceRatings +
		p.ReplicationBounty.PerReplication*p.ReplicationBounty.Funded + p.ReplicationMatches + p.Commons
	if b.Correction && b.Fixable {
		p.Discount = p.Credits / 2
	}
	p.Charged = p.Credits - p.Discount
	if why != Paid {
		p.Charged = 0
	}
	return p, nil
}

// CanaryCost is what a canary of p's size costs the commons: its 2
// reproductions, for quick work; 0 for work that is never a canary.
func CanaryCost(p Price) int {
	if !p.Quick {
		return 0
	}
	return ReproductionJobs * p.PerJob
}

// CommonsTarget is the balance past which the commons takes no share of a
// bundle priced p: a hazard panel and 10 canaries of its size.
func CommonsTarget(p Price) int {
	return HazardPanelCredits + CanariesHeld*CanaryCost(p)
}

// commonsShare is what a paid bundle priced p puts into a commons holding
// balance: a reading credit and its expected share of a canary, or nothing
// once the commons holds enough.
func commonsShare(p Price, balance int) int {
	if balance >= CommonsTarget(p) {
		return 0
	}
	canary := CanaryCost(p)
	return ReadingCredits + (canary+CanaryOneIn-1)/CanaryOneIn
}

// ceilCredits rounds a non-negative amount up to whole credits, forgiving
// float error of up to 1e-9 credits: 42 minutes at rate 10 is
// 7.000000000000001 in float64, and costs 7, not 8.
func ceilCredits(x float64) int {
	return int(math.Ceil(x - 1e-9))
}

func check(b Needs, r Rates, why Free) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if math.IsNaN(b.Minutes) || b.Minutes < 0 || b.Minutes > 7*24*60 {
		return fmt.Errorf("%w: compute minutes %v, not from 0 to %d", ErrInvalid, b.Minutes, 7*24*60)
	}
	if b.Citations < 0 {
		return fmt.Errorf("%w: %d citations", ErrInvalid, b.Citations)
	}
	if b.Measurements && len(b.Replication) == 0 {
		return fmt.Errorf("%w: measurements with no replication needs", ErrInvalid)
	}
	var kinds []string
	for _, n := range b.Replication {
		if _, ok := r.kind(n.Kind); !ok {
			return fmt.Errorf("%w: replication kind %q is not compute, gpu, lab or field", ErrInvalid, n.Kind)
		}
		if slices.Contains(kinds, n.Kind) {
			return fmt.Errorf("%w: replication kind %q listed twice", ErrInvalid, n.Kind)
		}
		kinds = append(kinds, n.Kind)
		if !(n.Hours > 0 && n.Hours <= 100_000) {
			return fmt.Errorf("%w: replication needs %v hours of %s", ErrInvalid, n.Hours, n.Kind)
		}
	}
	switch why {
	case Paid, Seed, Verifier:
	default:
		return fmt.Errorf("%w: free %q is not seed or verifier", ErrInvalid, string(why))
	}
	return nil
}
