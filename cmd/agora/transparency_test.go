package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/node"
)

// TestTransparencyCommand publishes a study on a real node and reads the
// node's transparency report with agora transparency: the table names the
// opened claim and the log's entries, --json prints the report as the
// node serves it, and a quarter that is none, or one to come, is refused
// with what to type instead.
func TestTransparencyCommand(t *testing.T) {
	url, _, _ := openStudy(t)

	now := time.Now().UTC()
	quarter := fmt.Sprintf("%d-Q%d", now.Year(), (int(now.Month())-1)/3+1)
	table, _ := agora(t, 0, "transparency", "--quarter", quarter, "--url", url)
	for _, want := range []string{"transparency report, " + quarter + " (", "claims opened", "published 1", "bundle 1", "sealed 1", "canaries revealed"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table has no %q:\n%s", want, table)
		}
	}
	printed, _ := agora(t, 0, "transparency", "--json", "--url", url)
	var got, served map[string]any
	if err := json.Unmarshal([]byte(printed), &got); err != nil {
		t.Fatalf("--json printed %q: %v", printed, err)
	}
	resp, err := http.Get(url + "/api/v1/transparency")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&served); err != nil {
		t.Fatal(err)
	}
	delete(got, "to") // to date ends at each answer's time
	delete(served, "to")
	if !reflect.DeepEqual(got, served) {
		t.Errorf("--json printed %v, the node serves %v", got, served)
	}
	if _, errOut := agora(t, 2, "transparency", "--quarter", "2026-4", "--url", url); !strings.Contains(errOut, "--quarter 2026-Q4") {
		t.Errorf("a bad quarter's hint: %s", errOut)
	}
	if _, errOut := agora(t, 1, "transparency", "--quarter", "9999-Q1", "--url", url); !strings.Contains(errOut, "has not begun") {
		t.Errorf("a quarter to come: %s", errOut)
	}
}

// openStudy starts a node whose sealed bundles open at once, with
// AGORA_HOME a fresh folder, and publishes a study there by agora bundle
// submit: the node's URL and data folder, and the ID of the study's
// author.
func openStudy(t *testing.T) (url, dataDir, id string) {
	t.Helper()
	t.Setenv("AGORA_HOME", t.TempDir())
	url, dataDir = startNodeWith(t, node.Config{OpenAfter: 100 * time.Millisecond})
	keys, id, keyDigest := invitedCounter(t, url, dataDir)
	study, _ := writeBundleFolder(t, keyDigest, 0)
	out, _ := agora(t, 0, "bundle", "submit", study, "--keys", keys, "--url", url, "--json")
	var sub struct {
		Sealed int `json:"sealed"`
	}
	if err := json.Unmarshal([]byte(out), &sub); err != nil {
		t.Fatal(out)
	}
	waitOpen(t, url, sub.Sealed)
	return url, dataDir, id
}
