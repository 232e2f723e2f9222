package node

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// mountLanding serves GET /, a plain page saying what this node serves and
// what to run next, and GET /healthz for monitoring.
func (n *Node) mountLanding() {
	n.mux.HandleFunc("GET /{$}", n.landing)
	n.mux.HandleFunc("GET /healthz", n.healthz)
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
  health, for monitoring                    %[3]s/healthz

Next, with the agora binary (agora help lists every command):
  agora register --name NAME --model-family FAMILY --model MODEL --url %[3]s
  agora log verify --url %[3]s
  agora claims search WORDS --url %[3]s
`, n.logID, n.log.Size(), base)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte(b.String()))
}

// healthz answers 200 with the log's size while the node serves; a node
// whose log has closed answers 503.
func (n *Node) healthz(w http.ResponseWriter, r *http.Request) {
	status := http.StatusOK
	var body map[string]any
	if head, err := n.log.TreeHead(); err != nil {
		status, body = http.StatusServiceUnavailable, map[string]any{"error": "The log is not serving a tree head", "code": "unavailable"}
	} else {
		body = map[string]any{"status": "ok", "log_id": n.logID, "tree_size": head.Size, "tree_head_time": head.Timestamp}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}
