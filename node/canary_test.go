package node

import (
	b64 "encoding/base64"
	"net/http"
	"testing"
)

// TestCanaries: every quick bundle gets a canary here. Its reproductions
// look like the real ones; a verifier that attests "reproduced" without
// running the work misses it and loses 20 credits, an honest one catches
// it; the log reveals it as a canary entry when the real bundle opens,
// and its attestations read back as not counted.
func TestCanaries(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: 1})
	base := srv.URL
	invite := func(name, family string) verifier { return invitedVerifier(t, n, base, name, family) }
	author := invite("Author", "claude")
	lazy, honest1, honest2 := invite("Lazy", "gpt"), invite("Honest 1", "gemini"), invite("Honest 2", "gpt")
	source, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "canary source", true))
	can := map[string]any{"minutes": 30}

	// The lazy verifier takes a job on each of the two bundles, the real
	// one and its canary, which it can't tell apart; it answers the real
	// one honestly and the other "reproduced" without running anything.
	canary := ""
	for range 2 {
		status, job := lazy.request(t, base, can)
		if status != http.StatusOK || job["kind"] != "reproduction" {
			t.Fatalf("lazy's job: %d %v", status, job)
		}
		if job["bundle"] == source {
			if status, ans := lazy.answer(t, base, job); status != http.StatusCreated {
				t.Fatalf("lazy's honest answer: %d %v", status, ans)
			}
			continue
		}
		canary = job["bundle"].(string)
		if holds, _ := judge(t, jobFiles(t, job)); holds {
			t.Fatal("the canary's declared result re-runs as declared")
		}
		job["files"].(map[string]any)["results/R1.json"] = base64JSON(t, `{"total": 90}`) // as if it had not looked
		if status, ans := lazy.answer(t, base, job); status != http.StatusCreated {
			t.Fatalf("lazy's canary answer: %d %v", status, ans)
		}
	}
	if canary == "" {
		t.Fatal("no canary was handed out")
	}
	// The honest verifiers do the rest, and the reviews; the bundle opens.
	// Jobs are chosen at random within the sealed class, so the source's
	// reviews may all be in, and its round close with the canary's, before
	// anyone takes the canary's second reproduction: then no one catches it.
	did := work(t, base, []verifier{honest1, honest2, lazy})
	if kinds := kindsDone(did[source]); kinds["reproduction"] != 1 || kinds["methods_review"]+kinds["domain_review"]+kinds["adversarial_review"] != 3 || len(did[canary]) > 1 {
		t.Fatalf("after the round: %d jobs on the bundle (want 1 more reproduction and 3 reviews), %d on the canary (want at most 1)", len(did[source]), len(did[canary]))
	}
	if status, v := call(t, "GET", base+"/api/v1/bundles/"+source, nil); status != http.StatusOK || v.(map[string]any)["state"] != "open" {
		t.Fatalf("the bundle: %d %v", status, v)
	}
	counts := func(v verifier) map[string]any { return v.record(t, base)["canaries"].(map[string]any) }
	if c := counts(lazy); c["missed"] != 1.0 || c["caught"] != 0.0 {
		t.Errorf("lazy's canaries: %v", c)
	}
	if len(did[canary]) == 1 {
		catcher := did[canary][0].by
		if c := counts(catcher); c["caught"] != 1.0 || c["missed"] != 0.0 {
			t.Errorf("%s's canaries: %v", catcher.name, c)
		}
	}
	if lost := lazy.record(t, base)["verification"].(map[string]any)["lost"]; lost != 20.0 {
		t.Errorf("lazy lost %v, want 20", lost)
	}
	// The log names it, signed by the log; its attestations don't count.
	c := newClient(base, nil, "")
	leaves, _ := auditLog(t, c, n.keys.log.Public().String())
	found := false
	for i, leaf := range leaves {
		e := leaf["entry"].(map[string]any)
		switch e["type"] {
		case "canary":
			found = true
			if e["bundle"] != canary || e["source"] != source || e["change"].(map[string]any)["from"] != 90.0 {
				t.Errorf("the canary entry: %v", e)
			}
		case "attestation":
			if e["bundle"] == canary {
				status, v := call(t, "GET", base+"/api/v1/attestations/"+itoa(uint64(i)), nil)
				if status != http.StatusOK || v.(map[string]any)["counted"] != false || v.(map[string]any)["not_counted_because"] != "canary" {
					t.Errorf("a canary's attestation: %d %v", status, v)
				}
			}
		}
	}
	if !found {
		t.Error("no canary entry on the log")
	}
}

func base64JSON(t *testing.T, s string) string {
	t.Helper()
	return b64.StdEncoding.EncodeToString([]byte(s))
}
