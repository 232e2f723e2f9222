package agora_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/claims"
)

// claimIDVectors runs claim-id-vectors.json: every case must parse strictly,
// validate and give exactly the expected IDs; every invalid file must be
// refused by the parser or the validator; every unresolved case must give
// an error, not an ID.
func claimIDVectors(t *testing.T, data []byte) {
	var file struct {
		Cases []struct {
			Name               string            `json:"name"`
			ClaimsJSON         string            `json:"claims_json"`
			VerificationInputs string            `json:"verification_inputs"`
			Results            json.RawMessage   `json:"results"`
			Expected           map[string]string `json:"expected"`
		} `json:"cases"`
		Invalid []struct {
			Name       string `json:"name"`
			ClaimsJSON string `json:"claims_json"`
		} `json:"invalid"`
		Unresolved []struct {
			Name               string          `json:"name"`
			ClaimsJSON         string          `json:"claims_json"`
			VerificationInputs string          `json:"verification_inputs"`
			Results            json.RawMessage `json:"results"`
		} `json:"unresolved"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 || len(file.Invalid) == 0 || len(file.Unresolved) == 0 {
		t.Fatalf("vector file has %d cases, %d invalid, %d unresolved; want some of each",
			len(file.Cases), len(file.Invalid), len(file.Unresolved))
	}

	// Declared values go through the strict parser too, so they are in the
	// same form (float64 numbers and all) as values read from results files.
	results := func(t *testing.T, raw json.RawMessage) map[string]any {
		t.Helper()
		v, err := canonical.Parse(raw)
		if err != nil {
			t.Fatalf("results: %v", err)
		}
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("results is %T, not an object", v)
		}
		return m
	}

	for _, tc := range file.Cases {
		t.Run("case/"+tc.Name, func(t *testing.T) {
			parsed, issues, err := claims.ParseFile([]byte(tc.ClaimsJSON))
			if err != nil || len(issues) > 0 {
				t.Fatalf("refused a valid claims file: %v %v", err, issues)
			}
			ids, err := claims.AssignIDs(parsed, tc.VerificationInputs, results(t, tc.Results))
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) != len(tc.Expected) {
				t.Fatalf("%d IDs, want %d", len(ids), len(tc.Expected))
			}
			for i, c := range parsed {
				if want, ok := tc.Expected[c.LocalID]; !ok || ids[i] != want {
					t.Errorf("%s: got %s, want %s", c.LocalID, ids[i], want)
				}
			}
		})
	}
	for _, tc := range file.Invalid {
		t.Run("invalid/"+tc.Name, func(t *testing.T) {
			_, issues, err := claims.ParseFile([]byte(tc.ClaimsJSON))
			switch {
			case err != nil:
				if !errors.Is(err, canonical.ErrNotIJSON) {
					t.Errorf("parser refused it, but with an error not wrapping ErrNotIJSON: %v", err)
				}
			case len(issues) == 0:
				t.Errorf("accepted an invalid claims file")
			default:
				t.Logf("refused: %v", issues)
			}
		})
	}
	for _, tc := range file.Unresolved {
		t.Run("unresolved/"+tc.Name, func(t *testing.T) {
			parsed, issues, err := claims.ParseFile([]byte(tc.ClaimsJSON))
			if err != nil || len(issues) > 0 {
				t.Fatalf("the claims file is valid, but was refused: %v %v", err, issues)
			}
			ids, err := claims.AssignIDs(parsed, tc.VerificationInputs, results(t, tc.Results))
			if err == nil {
				t.Fatalf("got IDs %v for a claim naming an undeclared result", ids)
			}
			if !errors.Is(err, claims.ErrUnresolved) {
				t.Errorf("error does not wrap ErrUnresolved: %v", err)
			}
		})
	}
}
