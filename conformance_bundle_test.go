package agora_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"testing"

	"github.com/agora-node/agora/ledger/bundle"
)

// bundleVectors runs bundle-vectors.json: every case's files must give
// exactly the expected file digests, bundle hash and verification inputs,
// and every invalid path set must be refused, both by CheckPaths and by
// Digest.
func bundleVectors(t *testing.T, data []byte) {
	var file struct {
		Cases []struct {
			Name     string            `json:"name"`
			Files    map[string]string `json:"files"`
			Expected struct {
				Files              map[string]string `json:"files"`
				Bundle             string            `json:"bundle"`
				VerificationInputs string            `json:"verification_inputs"`
			} `json:"expected"`
		} `json:"cases"`
		Invalid []struct {
			Name  string   `json:"name"`
			Paths []string `json:"paths"`
		} `json:"invalid"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 || len(file.Invalid) == 0 {
		t.Fatalf("vector file has %d cases and %d invalid; want some of each", len(file.Cases), len(file.Invalid))
	}

	for _, tc := range file.Cases {
		t.Run("case/"+tc.Name, func(t *testing.T) {
			files := make(map[string][]byte, len(tc.Files))
			for path, b64 := range tc.Files {
				b, err := base64.StdEncoding.DecodeString(b64)
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				files[path] = b
			}
			got, err := bundle.Digest(files)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got.Files, tc.Expected.Files) {
				t.Errorf("files = %v, want %v", got.Files, tc.Expected.Files)
			}
			if got.Bundle != tc.Expected.Bundle {
				t.Errorf("bundle = %s, want %s", got.Bundle, tc.Expected.Bundle)
			}
			if got.VerificationInputs != tc.Expected.VerificationInputs {
				t.Errorf("verification inputs = %s, want %s", got.VerificationInputs, tc.Expected.VerificationInputs)
			}
		})
	}
	for _, tc := range file.Invalid {
		t.Run("invalid/"+tc.Name, func(t *testing.T) {
			err := bundle.CheckPaths(tc.Paths)
			if !errors.Is(err, bundle.ErrLayout) {
				t.Fatalf("CheckPaths(%q) = %v, want an error wrapping ErrLayout", tc.Paths, err)
			}
			t.Logf("refused: %v", err)
			files := make(map[string][]byte, len(tc.Paths))
			for _, p := range tc.Paths {
				files[p] = nil
			}
			if d, err := bundle.Digest(files); !errors.Is(err, bundle.ErrLayout) {
				t.Errorf("Digest accepted %q: %+v", tc.Paths, d)
			}
		})
	}
}
