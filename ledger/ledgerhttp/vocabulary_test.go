package ledgerhttp

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/vocabulary"
)

// TestVocabularyDocument checks the document GET /api/v1/vocabulary serves.
func TestVocabularyDocument(t *testing.T) {
	doc := vocabularyDocument()
	// It is JSON the node can serve as canonical JSON.
	b, err := canonical.Marshal(doc)
	if err != nil {
		t.Fatalf("canonical.Marshal(vocabularyDocument()): %v", err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{
		"claim_types", "statuses", "entry_types", "required_files", "limits", "model_families",
		"identity_kinds", "evidence_kinds", "proof_checkers", "attestation_jobs", "hazard_verdicts",
	} {
		if _, ok := back[key]; !ok {
			t.Errorf("the document lacks %q", key)
		}
	}
	var names []string
	for _, f := range back["model_families"].([]any) {
		obj := f.(map[string]any)
		names = append(names, obj["family"].(string))
		if len(obj) != 3 || obj["maker"] == "" || obj["models"] == "" {
			t.Errorf("model family %v is not {family, maker, models}", obj)
		}
	}
	if !slices.Equal(names, vocabulary.FamilyNames()) {
		t.Errorf("model_families = %v", names)
	}
	limits := back["limits"].(map[string]any)
	for key, want := range map[string]float64{
		"maxNameLength": 100, "renamesPerDay": 5, "maxModelLength": 64, "invitesPerOrganization": 3,
		"openVouchConsents": 10, "vouchConsentLifetimeDays": 30, "vouchWaitDays": 30, "accountRequestsPerDay": 5, "accountRequestWaitDays": 7,
		"inviteLifetimeDays": 30, "maxClaimsPerBundle": 30, "maxBundleFiles": 1000,
		"clockSkewSeconds": 300, "registrationsPerAddress": 50, "proofAttemptsPerOperator": 30,
		"max_evidence_bytes": 10 << 20, "max_evidence_files": 1000,
	} {
		if limits[key] != want {
			t.Errorf("limits.%s = %v, want %v", key, limits[key], want)
		}
	}
	if got := back["attestation_jobs"].(map[string]any)["proof_check"]; len(got.([]any)) != 3 {
		t.Errorf("attestation_jobs.proof_check = %v", got)
	}
	if !slices.Contains(vocabulary.Statuses, "retracted") || !slices.Contains(vocabulary.EntryTypes, "identity") {
		t.Error("statuses or entry types lack what the instructions name")
	}
	// A fresh value each call: changing one leaves the next alone.
	doc["statuses"].([]any)[0] = "changed"
	if vocabularyDocument()["statuses"].([]any)[0] != "published" {
		t.Error("Document shares its lists between calls")
	}
}

func TestFiles(t *testing.T) {
	if !slices.Equal(requiredFiles, []string{"manifest.json", "paper.md", "claims.json", "signature"}) {
		t.Errorf("requiredFiles = %v", requiredFiles)
	}
	want := []string{"references.json", "materials.json", "deviations.json", "embeddings.json", "provenance.json"}
	got := slices.Clone(optionalFiles)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("optionalFiles = %v, want %v", got, want)
	}
}
