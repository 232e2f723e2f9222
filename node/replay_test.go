package node

import (
	"net/http"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// signedRename is a's signed rename to name, signed at at.
func signedRename(t *testing.T, a author, name string, at time.Time) []byte {
	t.Helper()
	entry := map[string]any{"type": "operator_name", "operator": a.id, "name": name,
		"time": tlog.FormatTimestamp(at), "model_family": "claude", "model": "claude-test-1"}
	if err := protocol.Sign(entry, a.key); err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, map[string]any{"entry": entry})
}

func nameOf(t *testing.T, base, id string) any {
	t.Helper()
	status, v := call(t, "GET", base+"/api/v1/operators/"+id, nil)
	if status != http.StatusOK {
		t.Fatalf("operator: %d %v", status, v)
	}
	return v.(map[string]any)["name"]
}

// TestRenameReplays sends a signed rename again as anyone who saw it
// could: each copy answers 200 with the name as it stands and counts
// nothing against the owner's 5 a day, and an older rename sent after a
// newer one never reverts it.
func TestRenameReplays(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	a := newAuthor(t, n, base)
	start := time.Now().Add(-4 * time.Minute) // room for later signed times within the 5-minute window
	first := signedRename(t, a, "First Name", start)
	status, v := call(t, "POST", base+"/api/v1/operators/"+a.id+"/name", first)
	if status != http.StatusOK || v.(map[string]any)["changed"] != true {
		t.Fatalf("rename: %d %v", status, v)
	}
	for i := range 5 {
		status, v := call(t, "POST", base+"/api/v1/operators/"+a.id+"/name", first)
		if status != http.StatusOK || v.(map[string]any)["name"] != "First Name" || v.(map[string]any)["changed"] != false {
			t.Fatalf("replay %d: %d %v", i+1, status, v)
		}
	}
	// The owner's next rename is still allowed: the replays spent nothing.
	status, v = call(t, "POST", base+"/api/v1/operators/"+a.id+"/name", signedRename(t, a, "Second Name", start.Add(time.Minute)))
	if status != http.StatusOK || v.(map[string]any)["name"] != "Second Name" {
		t.Fatalf("the owner's rename after replays: %d %v", status, v)
	}
	// The older rename again does not revert the newer.
	status, v = call(t, "POST", base+"/api/v1/operators/"+a.id+"/name", first)
	if status != http.StatusOK || v.(map[string]any)["name"] != "Second Name" || v.(map[string]any)["changed"] != false {
		t.Fatalf("the older rename replayed after the newer: %d %v", status, v)
	}
	// Nor does a rename never seen before that was signed before it.
	status, v = call(t, "POST", base+"/api/v1/operators/"+a.id+"/name", signedRename(t, a, "Late Name", start.Add(30*time.Second)))
	if status != http.StatusConflict || v.(map[string]any)["code"] != "superseded" {
		t.Fatalf("a late rename: %d %v", status, v)
	}
	if got := nameOf(t, base, a.id); got != "Second Name" {
		t.Fatalf("after the replays the name is %v", got)
	}
	// Three more fresh renames make 5 in the day; the sixth is refused.
	for i, name := range []string{"Third Name", "Fourth Name", "Fifth Name"} {
		body := signedRename(t, a, name, start.Add(time.Duration(2+i)*time.Minute))
		if status, v := call(t, "POST", base+"/api/v1/operators/"+a.id+"/name", body); status != http.StatusOK || v.(map[string]any)["name"] != name {
			t.Fatalf("rename %d: %d %v", i+3, status, v)
		}
	}
	status, v = call(t, "POST", base+"/api/v1/operators/"+a.id+"/name", signedRename(t, a, "Sixth Name", start.Add(5*time.Minute)))
	if status != http.StatusTooManyRequests || v.(map[string]any)["code"] != "rate_limited" {
		t.Fatalf("the sixth rename in a day: %d %v", status, v)
	}
}

// TestRotationReplay sends a key rotation again after it moved the
// operator: 200 with where it stands, not a refusal of the retired key's
// signature, and the key stays the new one.
func TestRotationReplay(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	a := newAuthor(t, n, base)
	newKey, _ := hybrid.GenerateKey()
	rotation, err := protocol.SignKeyRotation(a.id, newKey, a.key)
	if err != nil {
		t.Fatal(err)
	}
	body := mustJSON(t, map[string]any{"entry": rotation})
	status, v := call(t, "POST", base+"/api/v1/operators/"+a.id+"/key", body)
	if status != http.StatusOK {
		t.Fatalf("rotate: %d %v", status, v)
	}
	want := v.(map[string]any)
	for i := range 3 {
		status, v := call(t, "POST", base+"/api/v1/operators/"+a.id+"/key", body)
		if status != http.StatusOK || v.(map[string]any)["key_digest"] != want["key_digest"] || v.(map[string]any)["index"] != want["index"] {
			t.Fatalf("replay %d: %d %v, want %v", i+1, status, v, want)
		}
	}
	status, v = call(t, "GET", base+"/api/v1/operators/"+a.id, nil)
	if status != http.StatusOK || v.(map[string]any)["key_digest"] != protocol.KeyDigest(newKey.Public().String()) {
		t.Fatalf("after replays: %d %v", status, v)
	}
}
