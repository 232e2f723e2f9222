package node

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
)

// TestSweepKeepsEvidence runs the uploads' sweep a week on and checks it
// takes only what it may: an upload no bundle used goes; the files every
// other entry digests stay, though no bundle holds them: a challenge's
// evidence, a retraction's notice, the verifiers' evidence, and an
// upload whose bytes are also someone's evidence.
func TestSweepKeepsEvidence(t *testing.T) {
	t.Parallel()
	n, base, writer, round := roundWorld(t)
	var hashes []string
	for _, title := range []string{"a sum to dispute", "a sum to retract", "a third sum"} {
		hash, _ := writer.submit(t, base, sumBundle(t, writer.keyDigest(), "claude", title, true))
		hashes = append(hashes, hash)
	}
	work(t, base, round)
	_, v := call(t, "GET", base+"/api/v1/bundles/"+hashes[0], nil)
	claim := v.(map[string]any)["claims"].([]any)[0].(map[string]any)["claim_id"].(string)

	const report = "The four values sum to 89, not 90."
	evidence := sha([]byte("# Report\n\n" + report + "\n"))
	var challenged bool
	for _, v := range round {
		if status, _ := v.challenge(t, base, claim, "counterexample", report); status == http.StatusCreated {
			challenged = true
			break
		}
	}
	if !challenged {
		t.Fatal("no verifier of the round could challenge the claim")
	}
	words, err := canonical.Marshal(map[string]any{"text": "The sums were wrong.", "nonce": "00112233445566778899aabbccddeeff"})
	if err != nil {
		t.Fatal(err)
	}
	notice := canonical.Digest(words)
	if status, v := call(t, "POST", base+"/api/v1/retractions", writer.retraction(t, hashes[1], "error", "The sums were wrong.", "00112233445566778899aabbccddeeff")); status != http.StatusCreated {
		t.Fatalf("retraction: %d %v", status, v)
	}
	// Someone uploads the challenge's evidence bytes and never uses them.
	uploader := author{id: writer.id, key: writer.key}
	reupload := upload(t, base, uploader, []byte("# Report\n\n"+report+"\n"))
	unused := upload(t, base, uploader, bytes.Repeat([]byte("unused "), 1000))
	if reupload != evidence {
		t.Fatalf("the upload's digest %s is not the evidence's %s", reupload, evidence)
	}

	n.ledger.SweepUploadsOnce(t.Context(), time.Now().Add(8*24*time.Hour))
	if n.files.Has(unused) {
		t.Error("an upload no bundle used outlived the sweep")
	}
	for what, digest := range map[string]string{"the challenge's evidence (also uploaded)": evidence, "the retraction's notice": notice} {
		if !n.files.Has(digest) {
			t.Errorf("the sweep deleted %s", what)
		}
	}
	// Each attestation lists its evidence by path, and the files stay.
	_, cv := call(t, "GET", base+"/api/v1/claims/"+claim, nil)
	listed := 0
	for _, a := range cv.(map[string]any)["attestations"].([]any) {
		index := uint64(a.(map[string]any)["index"].(float64))
		status, av := call(t, "GET", base+"/api/v1/attestations/"+itoa(index), nil)
		if status != http.StatusOK {
			t.Fatalf("attestation %d: %d %v", index, status, av)
		}
		files, _ := av.(map[string]any)["evidence_files"].(map[string]any)
		if _, ok := files["report.md"]; !ok || len(files) != 1 {
			t.Errorf("attestation %d lists its evidence as %v, want its report.md", index, av.(map[string]any)["evidence_files"])
		}
		for path, d := range files {
			if !n.files.Has(d.(string)) {
				t.Errorf("the sweep deleted %s of attestation %d", path, index)
			}
			listed++
		}
	}
	if listed == 0 {
		t.Error("no attestation of the claim listed its evidence")
	}
	// The round's verifiers' evidence: a report saying the verdict.
	for _, verdict := range []string{"reproduced", "sound"} {
		report := sha([]byte("# Report\n\nI recomputed the declared result from the data: " + verdict + ".\n"))
		if !n.files.Has(report) {
			t.Errorf("the sweep deleted the verifiers' %s report", verdict)
		}
	}
}
