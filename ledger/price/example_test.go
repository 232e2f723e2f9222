package price_test

import (
	"encoding/json"
	"fmt"

	"github.com/agora-node/agora/ledger/price"
)

// A bundle with one quick computation, at base rates while the commons
// takes shares: the spec's 16 credits.
func ExampleCompute() {
	p, err := price.Compute(price.Needs{Minutes: 30, Computations: true}, price.BaseRates(), price.Paid)
	if err != nil {
		panic(err)
	}
	b, _ := json.MarshalIndent(p, "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "credits": 16,
	//   "charged": 16,
	//   "discount": 0,
	//   "free": null,
	//   "per_job": 1,
	//   "pool": "cpu",
	//   "rate": 1,
	//   "quick": true,
	//   "screening_deposit": 2,
	//   "reserve": 1,
	//   "reviews": 3,
	//   "proof_checks": 0,
	//   "citation_checks": {
	//     "checks": 0,
	//     "credits_each": 0
	//   },
	//   "duplicate_checks": 2,
	//   "importance_ratings": 4,
	//   "replication_bounty": {
	//     "per_replication": 0,
	//     "funded": 0
	//   },
	//   "replication_matches": 0,
	//   "commons": 2
	// }
}

// A seed bundle: one of a new ledger's first bundles, free to its author.
func ExampleCompute_seed() {
	p, _ := price.Compute(price.Needs{Minutes: 5}, price.BaseRates(), price.Seed)
	fmt.Println(p.Credits, p.Charged, p.Free)
	// Output: 11 0 seed
}

// The answer of GET /api/v1/prices.
func ExampleRates() {
	r := price.BaseRates()
	r.GPU, r.Commons = 3, 17
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
	// Output: {"rates":{"cpu":1,"gpu":3,"lab":1,"field":1},"screening_deposit":2,"commons":17}
}
