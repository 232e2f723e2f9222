package mcpread

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNewNeedsEveryRoute: a face that no longer serves a read a tool runs
// stops the node at start, naming the route, rather than failing a call.
func TestNewNeedsEveryRoute(t *testing.T) {
	ok := func(*http.Request) (any, int, error) { return map[string]any{}, http.StatusOK, nil }
	ledger := map[string]httpapi.Func{}
	for _, p := range ledgerRoutes {
		ledger[p] = ok
	}
	library := map[string]httpapi.Func{}
	for _, p := range []string{routeCatalogue, routeLibEntry, routeEntryHead, routeConnections, routeMap} {
		library[p] = ok
	}
	file := http.NotFoundHandler()
	if _, err := New(Deps{Ledger: ledger, Library: library, File: file}); err != nil {
		t.Fatalf("every route given: %v", err)
	}
	delete(ledger, routeTeam)
	if _, err := New(Deps{Ledger: ledger, Library: library, File: file}); err == nil || !strings.Contains(err.Error(), routeTeam) {
		t.Errorf("without %s: %v", routeTeam, err)
	}
	ledger[routeTeam] = ok
	delete(library, routeMap)
	if _, err := New(Deps{Ledger: ledger, Library: library, File: file}); err == nil || !strings.Contains(err.Error(), routeMap) {
		t.Errorf("without %s: %v", routeMap, err)
	}
	if _, err := New(Deps{Ledger: ledger, Library: library}); err == nil || !strings.Contains(err.Error(), routeFile) {
		t.Errorf("without the file handler: %v", err)
	}
}

// TestQueryOf: arguments go by their JSON names, only when set.
func TestQueryOf(t *testing.T) {
	zero, five := int64(0), int64(5)
	got := queryOf(searchClaimsArgs{Q: "drift", Since: &zero, Limit: &five}).query.Encode()
	if want := "limit=5&q=drift&since=0"; got != want {
		t.Errorf("queryOf = %q, want %q", got, want)
	}
	if got := queryOf(noArgs{}).query.Encode(); got != "" {
		t.Errorf("queryOf of no arguments = %q", got)
	}
}

// TestRecovered: a panic under a request is that request's error, not the
// node's end.
func TestRecovered(t *testing.T) {
	h := recovered(slog.New(slog.DiscardHandler))(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		var m map[string]int
		m["boom"]++
		return nil, nil
	})
	if res, err := h(context.Background(), "tools/call", nil); res != nil || err == nil {
		t.Errorf("a panicking handler answered %v, %v", res, err)
	}
}
