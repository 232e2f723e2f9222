package replay_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/recall/replay"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/node/nodetest"
)

func TestZZDebug(t *testing.T) {
	ids := os.Getenv("DEBUGQ")
	if ids == "" {
		return
	}
	srv, dataDir := nodetest.Start(t, node.Config{})
	admin := nodetest.AdminToken(t, dataDir)
	c := adapterOf(t, srv.URL, admin, "codex")
	var prof map[string]any
	db, _ := json.Marshal(memory.DefaultProfile())
	json.Unmarshal(db, &prof)
	prof["id"] = "debug"
	prof["push"].(map[string]any)["after_failure"] = map[string]any{"max_items": 4, "max_chars": 4000, "min_score": 0.01, "require": []any{}}
	b, _ := json.Marshal(prof)
	req, _ := http.NewRequest("POST", srv.URL+"/api/v1/admin/memory/profiles", bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+admin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode >= 300 {
		t.Fatalf("profile: %v %v", err, resp.StatusCode)
	}
	c.Profile = "debug"
	corpus := replay.Build()
	refs, err := c.Store(corpus.Notes)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]string{}
	for k, v := range refs {
		by[v] = k
	}
	for _, q := range corpus.Queries {
		if ids != "all" && !strings.Contains(","+ids+",", ","+strings.SplitN(q.ID, ":", 2)[0]+",") {
			continue
		}
		o, err := c.Ask(q, by, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("== %s want %s\n", q.ID, q.Want)
		for i, h := range o.Hits {
			fmt.Printf("  %s %.2f ", o.Got[i], h.Score)
			for _, r := range h.Reasons {
				fmt.Printf("%s=%.2f(%.50s) ", r.Signal, r.Contribution, r.Value)
			}
			fmt.Println()
		}
	}
}
