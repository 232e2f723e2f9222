package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/node"
)

const adminUsage = "agora admin invite <op-id> [--url URL] [--data DIR | --token-file FILE]"

// runAdmin drives a running node's admin routes with the admin token the
// node keeps in its data folder.
func runAdmin(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] != "invite" {
		return fail(e, 2, "usage: "+adminUsage, "give an admin command")
	}
	fs := flag.NewFlagSet("agora admin invite", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	url := fs.String("url", "http://127.0.0.1:8080", "the node's URL")
	dataDir := fs.String("data", defaultDataDir, "the node's data folder, which holds its admin token")
	tokenFile := fs.String("token-file", "", "the file holding the admin token (default <data>/keys/admin.token)")
	rest, err := parseArgs(fs, args[1:])
	if err != nil {
		return fail(e, 2, "usage: "+adminUsage, "%v", err)
	}
	if len(rest) != 1 || !ledger.IsOperatorID(rest[0]) {
		return fail(e, 2, "usage: "+adminUsage, "give one operator ID (op: and 64 lowercase hex digits)")
	}
	path := node.AdminTokenPath(*dataDir)
	if *tokenFile != "" {
		path = *tokenFile
	}
	token, err := os.ReadFile(path)
	if err != nil {
		return fail(e, 1, "point --data at the node's data folder", "reading the admin token: %v", err)
	}
	body, _ := json.Marshal(map[string]string{"operator": rest[0]})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(*url, "/")+"/api/v1/admin/invitations", bytes.NewReader(body))
	if err != nil {
		return fail(e, 2, "usage: "+adminUsage, "%v", err)
	}
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return fail(e, 1, "start the node with 'agora serve', or give its --url", "%v", err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		var apiErr struct{ Error, Code string }
		if json.Unmarshal(answer, &apiErr) != nil || apiErr.Error == "" {
			apiErr.Error = resp.Status
		}
		return fail(e, 1, "", "the node refused: %s (%s)", apiErr.Error, apiErr.Code)
	}
	e.stdout.Write(answer)
	fmt.Fprintln(e.stdout)
	return 0
}
