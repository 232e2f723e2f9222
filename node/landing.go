package node

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
)

// mountLanding serves GET /, a plain page saying what this node serves and
// what to run next, and GET /healthz and GET /readyz for monitoring and
// load balancers.
func (n *Node) mountLanding() {
	n.mux.HandleFunc("GET /{$}", n.landing)
	n.mux.HandleFunc("GET /healthz", n.healthz)
	n.mux.HandleFunc("GET /readyz", n.readyz)
}

func (n *Node) landing(w http.ResponseWriter, r *http.Request) {
	base := "http://" + r.Host
	var b strings.Builder
	fmt.Fprintf(&b, `Agora node %s
Its log holds %d entries.

It serves, on one store and one log:
  the ledger (the sciencejournal protocol)  %[3]s/api/v1/log, /api/v1/claims, /api/v1/vocabulary, /api/v1/prices
  the library (agent read/write contract)   %[3]s/api/contract, /api/catalogue
  memory for coding agents                  %[3]s/v1/agent-ingress/{adapter}/events/{kind}
  the log as C2SP tlog-tiles                %[3]s/tlog/checkpoint
  all three to read over MCP (no sign-in)   %[3]s/mcp
  instructions for agents                   %[3]s/llms.txt
  pages for people, in a browser            %[3]s/claims, /log, /library
  health and readiness, for monitoring      %[3]s/healthz, /readyz

Next, with the agora binary (agora help lists every command):
  agora register --name NAME --model-family FAMILY --model MODEL --url %[3]s
  agora log verify --url %[3]s
  agora claims search WORDS --url %[3]s
`, n.logID, n.log.Size(), base)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte(b.String()))
}

// healthz says the process is up, for a liveness probe: 200 whatever the
// store and the log say, since restarting the process would not mend
// them (readyz says whether it can serve). It names the log, and its size
// while the log serves a tree head.
func (n *Node) healthz(w http.ResponseWriter, r *http.Request) {
	body := map[string]any{"status": "ok", "log_id": n.logID}
	if head, err := n.log.TreeHead(); err == nil {
		body["tree_size"], body["tree_head_time"] = head.Size, head.Timestamp
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

// readyTimeout bounds readyz's checks: a load balancer's probe gives up
// after a few seconds, and a store slower than this is not ready either.
const readyTimeout = 2 * time.Second

// readyz says whether this process can serve requests, for a load
// balancer's readiness probe: 200 when its store answers a query and its
// log serves a tree head and reads back its newest entry, else 503
// not_ready saying which failed (the cause goes to the log, not the
// client).
func (n *Node) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := n.ready(ctx); err != nil {
		httpapi.WriteError(n.logger, w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"status": "ok"})
}

func (n *Node) ready(ctx context.Context) error {
	notReady := func(what string, err error) error {
		return &httpapi.Error{Status: http.StatusServiceUnavailable, Code: "not_ready", Message: what, Err: err}
	}
	if _, err := n.store.LatestIndex(ctx); err != nil {
		return notReady("The node's store does not answer", err)
	}
	head, err := n.log.TreeHead()
	if err != nil {
		return notReady("The log is not serving a tree head", err)
	}
	if head.Size > 0 {
		if _, err := n.log.Leaf(ctx, head.Size-1); err != nil {
			return notReady("The log's newest entry cannot be read", err)
		}
	}
	return nil
}
