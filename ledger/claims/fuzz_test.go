package claims_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/testvectors"
	"github.com/agora-node/agora/ledger/claims"
)

// FuzzValidate feeds arbitrary bytes to ParseFile. It must never panic, and
// for every file it accepts:
//
//   - the claims keep the validator's promises (1 to 30, unique local IDs);
//   - AssignIDs succeeds when every named result is declared, gives the
//     same IDs twice, and each is a well-formed claim ID;
//   - those IDs equal the ones built the slow, obvious way: the parsed JSON
//     object itself, local_id dropped, depends_on replaced and the bound
//     fields added, through the generic canonical encoder. That checks the
//     hand-written encoder against canonical.Marshal on every input.
func FuzzValidate(f *testing.F) {
	data := testvectors.Read(f, testvectors.ConformanceDir(), "claim-id-vectors.json")
	type file struct {
		ClaimsJSON string `json:"claims_json"`
	}
	var vectors struct {
		Cases      []file `json:"cases"`
		Invalid    []file `json:"invalid"`
		Unresolved []file `json:"unresolved"`
	}
	if err := json.Unmarshal(data, &vectors); err != nil {
		f.Fatal(err)
	}
	for _, tc := range slices.Concat(vectors.Cases, vectors.Invalid, vectors.Unresolved) {
		f.Add([]byte(tc.ClaimsJSON))
	}
	f.Add(testvectors.Read(f, testvectors.BenchDir(), "inputs", "claims-30.json"))

	const inputs = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
	f.Fuzz(func(t *testing.T, text []byte) {
		cs, issues, err := claims.ParseFile(text)
		if err != nil || issues != nil {
			if cs != nil {
				t.Fatalf("claims returned with issues %v / error %v", issues, err)
			}
			return
		}
		if len(cs) < 1 || len(cs) > claims.MaxClaims {
			t.Fatalf("accepted %d claims", len(cs))
		}
		results := map[string]any{}
		for _, c := range cs {
			for _, name := range c.ResultsNamed() {
				results[name] = float64(len(name)) // any value will do, as long as it is the same twice
			}
		}
		ids, err := claims.AssignIDs(cs, inputs, results)
		if err != nil {
			t.Fatalf("AssignIDs on valid claims: %v", err)
		}
		again, err := claims.AssignIDs(cs, inputs, results)
		if err != nil || !slices.Equal(ids, again) {
			t.Fatalf("IDs not stable: %v then %v (%v)", ids, again, err)
		}
		seen := map[string]bool{}
		for i, id := range ids {
			if !claims.IsClaimID(id) {
				t.Fatalf("claim %d: malformed ID %q", i, id)
			}
			if seen[cs[i].LocalID] {
				t.Fatalf("duplicate local ID %q accepted", cs[i].LocalID)
			}
			seen[cs[i].LocalID] = true
		}
		v, err := canonical.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range slowIDs(t, v.([]any), inputs, results) {
			if ids[i] != want {
				t.Fatalf("claim %d: ID %s, but the generic encoder gives %s", i, ids[i], want)
			}
		}
	})
}

// slowIDs computes claim IDs from the parsed JSON the plain way, as the
// protocol's "Claim IDs" section describes them, resolving local
// dependencies by repeated passes rather than a topological sort.
func slowIDs(t *testing.T, list []any, inputs string, results map[string]any) []string {
	ids := make([]string, len(list))
	byLocal := map[string]int{}
	for i, item := range list {
		byLocal[item.(map[string]any)["local_id"].(string)] = i
	}
	for pass := 0; pass <= len(list); pass++ {
	claim:
		for i, item := range list {
			if ids[i] != "" {
				continue
			}
			obj := item.(map[string]any)
			content := map[string]any{}
			for k, v := range obj {
				if k != "local_id" {
					content[k] = v
				}
			}
			var deps []string
			for _, d := range obj["depends_on"].([]any) {
				d := d.(string)
				if !claims.IsClaimID(d) {
					if d = ids[byLocal[d]]; d == "" {
						continue claim // not computed yet: a later pass
					}
				}
				if !slices.Contains(deps, d) {
					deps = append(deps, d)
				}
			}
			slices.Sort(deps)
			content["depends_on"] = deps
			evidence := obj["evidence"].([]any)
			if len(evidence) > 0 {
				content["verification_inputs"] = inputs
			}
			named := map[string]any{}
			for _, e := range evidence {
				if r, ok := e.(map[string]any)["result"]; ok {
					named[r.(string)] = results[r.(string)]
				}
			}
			if len(named) > 0 {
				content["results"] = named
			}
			digest, err := canonical.CanonicalDigest(content)
			if err != nil {
				t.Fatal(err)
			}
			ids[i] = "claim:" + digest[len("sha256:"):]
		}
	}
	return ids
}
