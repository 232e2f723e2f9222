package price

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func of(t *testing.T, b Needs, r Rates, why Free) Price {
	t.Helper()
	p, err := Compute(b, r, why)
	if err != nil {
		t.Fatalf("Compute(%+v, %+v, %q): %v", b, r, why, err)
	}
	return p
}

// Bundles the spec's worked totals speak of.
var (
	// nothingToRerun: claims with nothing to re-run, prove, cite or
	// replicate. The manifest still declares some minutes.
	nothingToRerun = Needs{Minutes: 5}
	// quickComputation: one computation that runs in well under a day.
	quickComputation = Needs{Minutes: 30, Computations: true}
)

// enough is a commons balance that holds enough for any bundle here.
const enough = 1_000_000

func TestWorkedTotals(t *testing.T) {
	// Spec, "Verify first": "a bundle costs 12 credits when its claims have
	// nothing to re-run, prove, cite, or replicate, and one with a quick
	// computation 16, while rates are at their base and the commons takes
	// shares (1 and 2 less once it holds enough)."
	base := BaseRates()
	full := BaseRates()
	full.Commons = enough
	for _, tt := range []struct {
		name   string
		b      Needs
		r      Rates
		credit int
	}{
		{"nothing to re-run, commons taking shares", nothingToRerun, base, 12},
		{"quick computation, commons taking shares", quickComputation, base, 16},
		{"nothing to re-run, commons holding enough", nothingToRerun, full, 11},
		{"quick computation, commons holding enough", quickComputation, full, 14},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := of(t, tt.b, tt.r, Paid)
			if p.Credits != tt.credit || p.Charged != tt.credit || p.Discount != 0 || p.Free != Paid {
				t.Errorf("credits %d, charged %d, discount %d, free %q; want %d, %d, 0, null",
					p.Credits, p.Charged, p.Discount, p.Free, tt.credit, tt.credit)
			}
		})
	}
	// And the commons' part of each is exactly the 1 and 2 the spec names.
	if p := of(t, nothingToRerun, base, Paid); p.Commons != 1 {
		t.Errorf("commons share with nothing to re-run = %d, want 1", p.Commons)
	}
	if p := of(t, quickComputation, base, Paid); p.Commons != 2 {
		t.Errorf("commons share of a quick computation = %d, want 2", p.Commons)
	}
}

func TestItemizedWorkedTotals(t *testing.T) {
	// The parts, as "Verify first" lists them, at base rates.
	p := of(t, nothingToRerun, BaseRates(), Paid)
	want := Price{
		Credits: 12, Charged: 12, Pool: "cpu", Rate: 1,
		ScreeningDeposit: 2, Reviews: 3, DuplicateChecks: 2, ImportanceRatings: 4, Commons: 1,
	}
	if p != want {
		t.Errorf("nothing to re-run:\n got %+v\nwant %+v", p, want)
	}
	p = of(t, quickComputation, BaseRates(), Paid)
	want = Price{
		Credits: 16, Charged: 16, PerJob: 1, Pool: "cpu", Rate: 1, Quick: true,
		ScreeningDeposit: 2, Reserve: 1, Reviews: 3, DuplicateChecks: 2, ImportanceRatings: 4, Commons: 2,
	}
	if p != want {
		t.Errorf("quick computation:\n got %+v\nwant %+v", p, want)
	}
}

func TestReproductionPrice(t *testing.T) {
	// "A reproduction job costs its declared machine hours at its pool's
	// rate (CPU or GPU), and at least 1."
	r := Rates{CPU: 3, GPU: 7, Lab: 1, Field: 1, Commons: enough}
	for _, tt := range []struct {
		minutes float64
		gpu     bool
		pool    string
		rate    int
		perJob  int
	}{
		{1, false, "cpu", 3, 1},     // 0.05 credits: at least 1
		{20, false, "cpu", 3, 1},    // exactly 1
		{21, false, "cpu", 3, 2},    // 1.05 rounds up
		{60, false, "cpu", 3, 3},    // an hour at 3
		{120, false, "cpu", 3, 6},   // no float error pushes this to 7
		{90, true, "gpu", 7, 11},    // 10.5 rounds up, at the GPU rate
		{1440, true, "gpu", 7, 168}, // a day of GPU
		{0.1, false, "cpu", 3, 1},
	} {
		p := of(t, Needs{Minutes: tt.minutes, GPU: tt.gpu, Computations: true}, r, Paid)
		if p.PerJob != tt.perJob || p.Reserve != tt.perJob || p.Pool != tt.pool || p.Rate != tt.rate {
			t.Errorf("%v minutes gpu=%v: per_job %d, reserve %d, pool %s, rate %d; want %d, %d, %s, %d",
				tt.minutes, tt.gpu, p.PerJob, p.Reserve, p.Pool, p.Rate, tt.perJob, tt.perJob, tt.pool, tt.rate)
		}
		// 2 reproductions and the reserve.
		if got := p.Credits - 11; got != 3*tt.perJob {
			t.Errorf("%v minutes: reproductions and reserve cost %d, want 3 × %d", tt.minutes, got, tt.perJob)
		}
	}
	// Every whole number of minutes at every rate: per_job is the ceiling
	// of minutes × rate / 60, computed exactly in integers, and at least 1.
	for rate := BaseRate; rate <= MaxRate; rate++ {
		for m := 1; m <= 7*24*60; m++ {
			p := of(t, Needs{Minutes: float64(m), Computations: true}, Rates{CPU: rate, GPU: 1, Lab: 1, Field: 1}, Paid)
			if want := max(1, (m*rate+59)/60); p.PerJob != want {
				t.Fatalf("%d minutes at rate %d: per_job %d, want %d", m, rate, p.PerJob, want)
			}
		}
	}
}

func TestQuick(t *testing.T) {
	r := BaseRates()
	// "quick: whether its computations are re-run while it is sealed (a day
	// or less); work with nothing to re-run, or more than a day of it, pays
	// for 2 screens instead."
	day := of(t, Needs{Minutes: 1440, Computations: true}, r, Paid)
	over := of(t, Needs{Minutes: 1441, Computations: true}, r, Paid)
	none := of(t, Needs{Minutes: 10}, r, Paid)
	if !day.Quick || over.Quick || none.Quick {
		t.Errorf("quick: a day %v, over a day %v, nothing to re-run %v; want true, false, false", day.Quick, over.Quick, none.Quick)
	}
	for _, p := range []Price{day, over, none} {
		if p.ScreeningDeposit != 2 {
			t.Errorf("screening_deposit = %d, want 2 (2 screens of 1)", p.ScreeningDeposit)
		}
	}
	// Work over a day still pays its reproductions, but can't be a canary.
	if over.PerJob != 25 || over.Reserve != 25 || over.Commons != 1 {
		t.Errorf("over a day: per_job %d, reserve %d, commons %d; want 25, 25, 1", over.PerJob, over.Reserve, over.Commons)
	}
	if over.Credits != 2*25+25+2+3+2+4+1 {
		t.Errorf("over a day: credits %d", over.Credits)
	}
	// Nothing to re-run buys no reproduction and no reserve.
	if none.PerJob != 0 || none.Reserve != 0 {
		t.Errorf("nothing to re-run: per_job %d, reserve %d; want 0, 0", none.PerJob, none.Reserve)
	}
}

func TestProofChecks(t *testing.T) {
	// "2 proof checks priced like reproductions if its claims include
	// proofs."
	r := Rates{CPU: 2, GPU: 5, Lab: 1, Field: 1, Commons: enough}
	p := of(t, Needs{Minutes: 90, Proofs: true}, r, Paid)
	if p.ProofChecks != 2*3 || p.PerJob != 0 || p.Reserve != 0 || p.Quick {
		t.Errorf("proofs only: proof_checks %d, per_job %d, reserve %d, quick %v; want 6, 0, 0, false",
			p.ProofChecks, p.PerJob, p.Reserve, p.Quick)
	}
	if p.Credits != 6+2+3+2+4 {
		t.Errorf("proofs only: credits %d, want 17", p.Credits)
	}
	p = of(t, Needs{Minutes: 90, Proofs: true, Computations: true}, r, Paid)
	if p.ProofChecks != 2*p.PerJob || p.PerJob != 3 {
		t.Errorf("proofs and computations: proof_checks %d, per_job %d", p.ProofChecks, p.PerJob)
	}
	if p := of(t, Needs{Minutes: 1, Proofs: true}, r, Paid); p.ProofChecks != 2 {
		t.Errorf("a one-minute proof: proof_checks %d, want 2 (at least 1 each)", p.ProofChecks)
	}
	if p := of(t, Needs{Minutes: 90}, r, Paid); p.ProofChecks != 0 {
		t.Errorf("no proofs: proof_checks %d", p.ProofChecks)
	}
}

func TestCitationChecks(t *testing.T) {
	// "2 citation checks of 1 credit for every 5 citations if it cites
	// claims or sources outside the ledger."
	for _, tt := range []struct {
		citations int
		want      CitationChecks
	}{
		{0, CitationChecks{}},
		{1, CitationChecks{2, 1}},
		{5, CitationChecks{2, 1}},
		{6, CitationChecks{2, 2}},
		{10, CitationChecks{2, 2}},
		{11, CitationChecks{2, 3}},
		{100, CitationChecks{2, 20}},
	} {
		p := of(t, Needs{Minutes: 5, Citations: tt.citations}, BaseRates(), Paid)
		if p.CitationChecks != tt.want {
			t.Errorf("%d citations: %+v, want %+v", tt.citations, p.CitationChecks, tt.want)
		}
		if p.Credits != 12+tt.want.Checks*tt.want.CreditsEach {
			t.Errorf("%d citations: credits %d", tt.citations, p.Credits)
		}
	}
}

func TestReplication(t *testing.T) {
	// "2 replications, each worth the hours of each kind of work its
	// manifest declares at that kind's rate."
	r := Rates{CPU: 2, GPU: 4, Lab: 3, Field: 5, Commons: enough}
	b := Needs{Minutes: 5, Measurements: true, Replication: []WorkHours{
		{Kind: "lab", Hours: 40},
		{Kind: "compute", Hours: 2.5},
		{Kind: "gpu", Hours: 0.25},
		{Kind: "field", Hours: 1},
	}}
	p := of(t, b, r, Paid)
	// 40×3 + 2.5×2 + 0.25×4 + 1×5 = 131
	if p.ReplicationBounty != (ReplicationBounty{PerReplication: 131, Funded: 2}) {
		t.Errorf("replication_bounty = %+v, want 131 × 2", p.ReplicationBounty)
	}
	if p.ReplicationMatches != 4 {
		t.Errorf("replication_matches = %d, want 4", p.ReplicationMatches)
	}
	if p.Credits != 11+262+4 {
		t.Errorf("credits = %d, want %d", p.Credits, 11+262+4)
	}
	// Fractions round up, once, on the whole bounty.
	p = of(t, Needs{Measurements: true, Replication: []WorkHours{{Kind: "lab", Hours: 0.1}, {Kind: "field", Hours: 0.1}}}, BaseRates(), Paid)
	if p.ReplicationBounty.PerReplication != 1 {
		t.Errorf("0.2 hours at rate 1: per_replication %d, want 1", p.ReplicationBounty.PerReplication)
	}
	// No measurements, no bounty and no match jobs; nor for a correction
	// that carries its measured claims over, though its manifest still
	// declares the replication.
	for _, b := range []Needs{{Minutes: 5}, {Minutes: 5, Correction: true, Replication: b.Replication}} {
		p = of(t, b, r, Paid)
		if p.ReplicationBounty != (ReplicationBounty{}) || p.ReplicationMatches != 0 || p.Credits != 11 {
			t.Errorf("no measurements priced: %+v, %d, credits %d", p.ReplicationBounty, p.ReplicationMatches, p.Credits)
		}
	}
}

func TestCommons(t *testing.T) {
	// The commons takes shares "while the commons holds less than a hazard
	// panel and 10 canaries of the bundle's size would cost".
	for _, tt := range []struct {
		name    string
		b       Needs
		r       Rates
		target  int
		share   int
		credits int // at a balance under the target
	}{
		{"nothing to re-run", nothingToRerun, BaseRates(), 3, 1, 12},
		{"quick at base", quickComputation, BaseRates(), 3 + 10*2, 2, 16},
		// per_job 10: canary 20, share 1 + 20/20.
		{"quick at rate 10", Needs{Minutes: 60, Computations: true}, Rates{CPU: 10, GPU: 1, Lab: 1, Field: 1}, 3 + 10*20, 2, 3*10 + 11 + 2},
		// per_job 20: canary 40, share 1 + 40/20.
		{"quick, 2 hours at 10", Needs{Minutes: 120, Computations: true}, Rates{CPU: 10, GPU: 1, Lab: 1, Field: 1}, 3 + 10*40, 3, 3*20 + 11 + 3},
		// per_job 11: canary 22, share 1 + ⌈22/20⌉.
		{"quick, canary share rounds up", Needs{Minutes: 66, Computations: true}, Rates{CPU: 10, GPU: 1, Lab: 1, Field: 1}, 3 + 10*22, 3, 3*11 + 11 + 3},
		{"over a day: never a canary", Needs{Minutes: 2000, Computations: true}, BaseRates(), 3, 1, 3*34 + 11 + 1},
		{"proofs only: never a canary", Needs{Minutes: 30, Proofs: true}, BaseRates(), 3, 1, 2 + 11 + 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.r
			r.Commons = tt.target - 1
			below := of(t, tt.b, r, Paid)
			if below.Commons != tt.share || below.Credits != tt.credits {
				t.Errorf("commons at %d: share %d, credits %d; want %d, %d", r.Commons, below.Commons, below.Credits, tt.share, tt.credits)
			}
			if got := CommonsTarget(below); got != tt.target {
				t.Errorf("CommonsTarget = %d, want %d", got, tt.target)
			}
			r.Commons = tt.target
			at := of(t, tt.b, r, Paid)
			if at.Commons != 0 || at.Credits != tt.credits-tt.share {
				t.Errorf("commons at its target %d: share %d, credits %d; want 0, %d", r.Commons, at.Commons, at.Credits, tt.credits-tt.share)
			}
		})
	}
}

func TestCorrection(t *testing.T) {
	// "A correction of a version in which other organizations' checks
	// found something a new version could fix ... costs you half its
	// price, and the node pays the rest (discount)"; "a correction of one
	// they found nothing in costs its whole price."
	fixable := of(t, Needs{Minutes: 30, Computations: true, Correction: true, Fixable: true}, BaseRates(), Paid)
	if fixable.Credits != 16 || fixable.Discount != 8 || fixable.Charged != 8 {
		t.Errorf("fixable correction: credits %d, discount %d, charged %d; want 16, 8, 8", fixable.Credits, fixable.Discount, fixable.Charged)
	}
	// An odd total: the node pays half rounded down, the author the rest.
	// 11 for the checks every bundle pays, 2 citation checks of 1, 2 proof
	// checks of 1, and nothing to a commons that holds enough.
	odd := of(t, Needs{Minutes: 5, Correction: true, Fixable: true, Citations: 1, Proofs: true}, Rates{CPU: 1, GPU: 1, Lab: 1, Field: 1, Commons: 3}, Paid)
	if odd.Credits != 15 || odd.Discount != 7 || odd.Charged != 8 {
		t.Errorf("fixable correction of 15: credits %d, discount %d, charged %d; want 15, 7, 8", odd.Credits, odd.Discount, odd.Charged)
	}
	whole := of(t, Needs{Minutes: 30, Computations: true, Correction: true}, BaseRates(), Paid)
	if whole.Discount != 0 || whole.Charged != 16 {
		t.Errorf("correction of a version with nothing to fix: discount %d, charged %d; want 0, 16", whole.Discount, whole.Charged)
	}
	notCorrection := of(t, Needs{Minutes: 30, Computations: true, Fixable: true}, BaseRates(), Paid)
	if notCorrection.Discount != 0 {
		t.Errorf("Fixable without Correction gave a discount of %d", notCorrection.Discount)
	}
	// A correction that changed no computation re-runs nothing, but still
	// pays its reviews and importance ratings in full.
	carried := of(t, Needs{Minutes: 30, Correction: true}, BaseRates(), Paid)
	if carried.PerJob != 0 || carried.Reviews != 3 || carried.ImportanceRatings != 4 || carried.Credits != 12 {
		t.Errorf("correction carrying its computations over: %+v", carried)
	}
}

func TestFree(t *testing.T) {
	for _, why := range []Free{Seed, Verifier} {
		p := of(t, quickComputation, BaseRates(), why)
		if p.Charged != 0 || p.Free != why {
			t.Errorf("%s: charged %d, free %q; want 0, %q", why, p.Charged, p.Free, why)
		}
		// Only paid bundles put a share into the commons; the jobs are
		// prepaid all the same.
		if p.Commons != 0 || p.Credits != 14 || p.PerJob != 1 || p.Reserve != 1 {
			t.Errorf("%s: commons %d, credits %d; want 0, 14", why, p.Commons, p.Credits)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(`"free":"`+string(why)+`"`)) || !bytes.Contains(b, []byte(`"charged":0`)) {
			t.Errorf("%s marshals to %s", why, b)
		}
	}
	// A free correction of a fixable version still shows the discount the
	// node would give, and charges nothing.
	p := of(t, Needs{Minutes: 5, Correction: true, Fixable: true}, BaseRates(), Seed)
	if p.Charged != 0 || p.Discount != 5 || p.Credits != 11 {
		t.Errorf("free fixable correction: %+v", p)
	}
}

// specKeys are the price object's members, in the spec's order.
var specKeys = []string{
	"credits", "charged", "discount", "free",
	"per_job", "pool", "rate",
	"quick", "screening_deposit", "reserve",
	"reviews", "proof_checks", "citation_checks", "duplicate_checks",
	"importance_ratings", "replication_bounty", "replication_matches", "commons",
}

func TestJSON(t *testing.T) {
	p := of(t, quickComputation, BaseRates(), Paid)
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"credits":16,"charged":16,"discount":0,"free":null,"per_job":1,"pool":"cpu","rate":1,` +
		`"quick":true,"screening_deposit":2,"reserve":1,"reviews":3,"proof_checks":0,` +
		`"citation_checks":{"checks":0,"credits_each":0},"duplicate_checks":2,"importance_ratings":4,` +
		`"replication_bounty":{"per_replication":0,"funded":0},"replication_matches":0,"commons":2}`
	if string(b) != want {
		t.Errorf("marshal:\n got %s\nwant %s", b, want)
	}
	// Exactly the spec's members, in its order, and they read back.
	dec := json.NewDecoder(bytes.NewReader(b))
	var keys []string
	dec.Token() // {
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	if !slices.Equal(keys, specKeys) {
		t.Errorf("members %v, want %v", keys, specKeys)
	}
	var back Price
	if err := json.Unmarshal(b, &back); err != nil || back != p {
		t.Errorf("round trip: %+v, %v; want %+v", back, err, p)
	}
	seed := of(t, Needs{Minutes: 5, Citations: 7, Measurements: true, Replication: []WorkHours{{Kind: "lab", Hours: 2}}}, BaseRates(), Seed)
	b, _ = json.Marshal(seed)
	if err := json.Unmarshal(b, &back); err != nil || back != seed {
		t.Errorf("round trip of %s: %+v, %v", b, back, err)
	}
	if err := json.Unmarshal([]byte(`{"free":""}`), &back); !errors.Is(err, ErrInvalid) {
		t.Errorf(`free "" reads as %v, want ErrInvalid`, err)
	}
}

func TestRatesJSON(t *testing.T) {
	r := Rates{CPU: 1, GPU: 4, Lab: 2, Field: 10, Commons: 40}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"rates":{"cpu":1,"gpu":4,"lab":2,"field":10},"screening_deposit":2,"commons":40}`
	if string(b) != want {
		t.Errorf("GET /api/v1/prices:\n got %s\nwant %s", b, want)
	}
	var back Rates
	if err := json.Unmarshal(b, &back); err != nil || back != r {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if b, _ := json.Marshal(BaseRates()); string(b) != `{"rates":{"cpu":1,"gpu":1,"lab":1,"field":1},"screening_deposit":2,"commons":0}` {
		t.Errorf("base rates: %s", b)
	}
}

func TestInvalid(t *testing.T) {
	ok := Needs{Minutes: 30, Computations: true}
	base := BaseRates()
	for _, tt := range []struct {
		name string
		b    Needs
		r    Rates
		why  Free
	}{
		{"zero rates", ok, Rates{}, Paid},
		{"cpu rate 11", ok, Rates{CPU: 11, GPU: 1, Lab: 1, Field: 1}, Paid},
		{"field rate 0", ok, Rates{CPU: 1, GPU: 1, Lab: 1}, Paid},
		{"negative commons", ok, Rates{CPU: 1, GPU: 1, Lab: 1, Field: 1, Commons: -1}, Paid},
		{"negative minutes", Needs{Minutes: -1, Computations: true}, base, Paid},
		{"NaN minutes", Needs{Minutes: math.NaN(), Computations: true}, base, Paid},
		{"infinite minutes", Needs{Minutes: math.Inf(1), Computations: true}, base, Paid},
		{"over 7 days", Needs{Minutes: 7*24*60 + 1, Computations: true}, base, Paid},
		{"negative citations", Needs{Minutes: 5, Citations: -1}, base, Paid},
		{"measurements, no needs", Needs{Measurements: true}, base, Paid},
		{"unknown kind", Needs{Measurements: true, Replication: []WorkHours{{Kind: "cpu", Hours: 1}}}, base, Paid},
		{"kind twice", Needs{Replication: []WorkHours{{Kind: "lab", Hours: 1}, {Kind: "lab", Hours: 2}}}, base, Paid},
		{"zero hours", Needs{Replication: []WorkHours{{Kind: "lab", Hours: 0}}}, base, Paid},
		{"NaN hours", Needs{Replication: []WorkHours{{Kind: "lab", Hours: math.NaN()}}}, base, Paid},
		{"unknown free", ok, base, Free("gift")},
	} {
		if _, err := Compute(tt.b, tt.r, tt.why); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Of = %v, want ErrInvalid", tt.name, err)
		}
	}
}

// TestInvariants prices many random bundles and checks what holds for
// every price: credits is the sum of its parts, the charge is within it,
// and the rules that don't depend on the numbers.
func TestInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20_000 {
		r := Rates{
			CPU: 1 + rng.IntN(10), GPU: 1 + rng.IntN(10), Lab: 1 + rng.IntN(10), Field: 1 + rng.IntN(10),
			Commons: rng.IntN(600),
		}
		b := Needs{
			Minutes:      rng.Float64() * 7 * 24 * 60,
			GPU:          rng.IntN(2) == 0,
			Computations: rng.IntN(2) == 0,
			Proofs:       rng.IntN(4) == 0,
			Citations:    rng.IntN(3) * rng.IntN(30),
			Correction:   rng.IntN(3) == 0,
			Fixable:      rng.IntN(2) == 0,
		}
		if rng.IntN(3) == 0 {
			for _, k := range []string{"compute", "gpu", "lab", "field"} {
				if rng.IntN(2) == 0 {
					b.Replication = append(b.Replication, WorkHours{Kind: k, Hours: 0.01 + rng.Float64()*100})
				}
			}
			b.Measurements = len(b.Replication) > 0 && rng.IntN(4) > 0
		}
		why := []Free{Paid, Paid, Seed, Verifier}[rng.IntN(4)]
		p, err := Compute(b, r, why)
		if err != nil {
			t.Fatalf("Compute(%+v, %+v): %v", b, r, err)
		}
		sum := 2*p.PerJob + p.Reserve + p.ScreeningDeposit + p.Reviews + p.ProofChecks +
			p.CitationChecks.Checks*p.CitationChecks.CreditsEach + p.DuplicateChecks + p.ImportanceRatings +
			p.ReplicationBounty.PerReplication*p.ReplicationBounty.Funded + p.ReplicationMatches + p.Commons
		switch {
		case p.Credits != sum:
			t.Fatalf("credits %d, parts sum to %d: %+v", p.Credits, sum, p)
		case p.Charged < 0 || p.Charged > p.Credits:
			t.Fatalf("charged %d of %d", p.Charged, p.Credits)
		case why != Paid && (p.Charged != 0 || p.Commons != 0):
			t.Fatalf("free bundle charged %d, commons %d", p.Charged, p.Commons)
		case why == Paid && p.Charged+p.Discount != p.Credits:
			t.Fatalf("charged %d + discount %d != credits %d", p.Charged, p.Discount, p.Credits)
		case p.Discount != 0 && !(b.Correction && b.Fixable):
			t.Fatalf("discount %d for %+v", p.Discount, b)
		case p.Quick && (!b.Computations || b.Minutes > QuickMinutes):
			t.Fatalf("quick for %+v", b)
		case b.Computations && (p.PerJob < 1 || p.Reserve != p.PerJob):
			t.Fatalf("computations: per_job %d, reserve %d", p.PerJob, p.Reserve)
		case !b.Computations && (p.PerJob != 0 || p.Reserve != 0):
			t.Fatalf("nothing to re-run: per_job %d, reserve %d", p.PerJob, p.Reserve)
		case (p.ReplicationBounty.Funded > 0) != b.Measurements || (p.ReplicationMatches > 0) != b.Measurements:
			t.Fatalf("bounty %+v, matches %d for measurements=%v", p.ReplicationBounty, p.ReplicationMatches, b.Measurements)
		case p.Rate != map[bool]int{false: r.CPU, true: r.GPU}[b.GPU]:
			t.Fatalf("rate %d for gpu=%v at %+v", p.Rate, b.GPU, r)
		case why == Paid && (p.Commons == 0) != (r.Commons >= CommonsTarget(p)):
			t.Fatalf("commons %d at balance %d, target %d", p.Commons, r.Commons, CommonsTarget(p))
		}
		// Raising any rate never lowers the price.
		r2 := r
		r2.CPU, r2.GPU, r2.Lab, r2.Field = min(10, r.CPU+1), min(10, r.GPU+1), min(10, r.Lab+1), min(10, r.Field+1)
		r2.Commons = enough
		p1, _ := Compute(b, Rates{CPU: r.CPU, GPU: r.GPU, Lab: r.Lab, Field: r.Field, Commons: enough}, why)
		p2, _ := Compute(b, r2, why)
		if p2.Credits < p1.Credits {
			t.Fatalf("raising rates %+v to %+v lowered credits from %d to %d for %+v", r, r2, p1.Credits, p2.Credits, b)
		}
	}
}

func TestPriceFieldsMatchSpec(t *testing.T) {
	// The struct's tags are the spec's members, in order, so nothing is
	// added or dropped without this test saying so.
	var tags []string
	typ := reflect.TypeFor[Price]()
	for i := range typ.NumField() {
		tags = append(tags, typ.Field(i).Tag.Get("json"))
	}
	if !slices.Equal(tags, specKeys) {
		t.Errorf("Price's JSON tags %v, want %v", tags, specKeys)
	}
}
