package node

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/note"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog"
)

// acceptingWitness cosigns whatever checkpoint it is sent (c2sp.org/
// tlog-witness add-checkpoint), answering with its cosignature line.
func acceptingWitness(t *testing.T) (*tlog.Cosigner, translog.Witness) {
	seed := sha256.Sum256([]byte("node test witness"))
	c, err := tlog.NewCosigner("witness.example/w1", ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		_, checkpoint, ok := bytes.Cut(body, []byte("\n\n"))
		if !ok {
			http.Error(w, "no checkpoint", http.StatusBadRequest)
			return
		}
		cosigned, err := c.Cosign(checkpoint, time.Now())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Write(cosigned[len(checkpoint):])
	}))
	t.Cleanup(srv.Close)
	return c, translog.Witness{VerifierKey: c.VerifierKey(), URL: srv.URL + "/add-checkpoint"}
}

// TestCheckpointWithWitness checks that, with a witness configured, GET
// /api/v1/log/checkpoint serves the log's checkpoint with the witness's
// cosignature after the log's signature, both verifying with sumdb's note
// package.
func TestCheckpointWithWitness(t *testing.T) {
	t.Parallel()
	cosigner, witness := acceptingWitness(t)
	n, srv := testNodeWith(t, Config{Witnesses: []translog.Witness{witness}})
	_, v := call(t, "GET", srv.URL+"/api/v1/log", nil)
	info := v.(map[string]any)
	ck, err := tlog.ParseCheckpointKeys(mustJSON(t, info["checkpoint_keys"]))
	if err != nil {
		t.Fatal(err)
	}
	logVerifiers, err := tlog.VerifyCheckpointKeys(ck, info["public_key"].(string), ck.Origin)
	if err != nil {
		t.Fatal(err)
	}
	witnessVerifier, err := tlog.NewNoteVerifier(cosigner.VerifierKey())
	if err != nil {
		t.Fatal(err)
	}
	// Log something, so a new checkpoint is published and sent to the witness.
	token, err := os.ReadFile(AdminTokenPath(n.cfg.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	key, _ := hybrid.GenerateKey()
	_, v = call(t, "POST", srv.URL+"/api/v1/operators", mustJSON(t, map[string]any{"entry": keyEntry(t, key), "name": "Witnessed"}))
	id := v.(map[string]any)["operator"].(string)
	if status, v := call(t, "POST", srv.URL+"/api/v1/admin/invitations", mustJSON(t, map[string]any{"operator": id}), "Authorization", "Bearer "+string(token)); status != http.StatusCreated {
		t.Fatalf("invite: %d %v", status, v)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		_, text := call(t, "GET", srv.URL+"/api/v1/log/checkpoint", nil)
		msg, err := note.Open([]byte(text.(string)), note.VerifierList(append(logVerifiers, witnessVerifier)...))
		if err == nil && len(msg.Sigs) == 2 {
			if !strings.HasPrefix(msg.Text, ck.Origin+"\n") {
				t.Errorf("checkpoint of another origin: %q", msg.Text)
			}
			if _, err := tlog.VerifyCosignature([]byte(text.(string)), cosigner.VerifierKey()); err != nil {
				t.Errorf("cosignature: %v", err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no cosigned checkpoint served: %v\n%s", err, text)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
