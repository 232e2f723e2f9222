package client_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/node/nodetest"
)

// TestAdminAndMemory drives the admin routes and memory ingress through
// the one transport: the admin token and an adapter's token as the
// client's bearer token, the spec's errors for the admin routes and the
// contract's for ingress.
func TestAdminAndMemory(t *testing.T) {
	ctx := context.Background()
	srv, dir := nodetest.Start(t, node.Config{})
	admin := client.New(srv.URL, srv.Client(), client.WithToken(nodetest.AdminToken(t, dir)))

	key, _ := hybrid.GenerateKey()
	reg, err := admin.Register(ctx, keyEntry(t, key), "Admin Test")
	if err != nil {
		t.Fatal(err)
	}
	inv, err := admin.Invite(ctx, "", reg.Operator)
	if err != nil || inv.Kind != "invited" || len(inv.Raw) == 0 {
		t.Fatalf("invite with the client's token: %+v, %v", inv, err)
	}
	sc, err := admin.SetLibraryScopes(ctx, client.ScopeChange{Operator: reg.Operator, Deny: []string{"library.vote"}})
	if _, set := sc.SetByAdmin["library.vote"]; err != nil || sc.Scopes["library.vote"] || !set || !sc.Scopes["library.publish"] {
		t.Fatalf("deny a scope: %+v, %v", sc, err)
	}
	if sc, err = admin.LibraryScopes(ctx, reg.Operator); err != nil || sc.Scopes["library.vote"] {
		t.Fatalf("read the scopes: %+v, %v", sc, err)
	}

	tok, err := admin.IssueAdapterToken(ctx, "claude-code")
	if err != nil || tok.AdapterID != "claude-code" || tok.Token == "" {
		t.Fatalf("issue an adapter token: %+v, %v", tok, err)
	}
	if _, err := admin.IssueAdapterToken(ctx, "Not An ID"); !client.IsCode(err, "bad_request") {
		t.Fatalf("a bad adapter id: %v", err)
	}
	ev := func() *memory.Event {
		return &memory.Event{AdapterID: "claude-code", EventID: "sha256:" + hexOf(time.Now().String()), SessionRef: "s1",
			OccurredAt: time.Now(), Kind: "session.start", Payload: &memory.SessionStartPayload{Project: "p", Capabilities: []string{}}}
	}
	agent := client.New(srv.URL, srv.Client(), client.WithToken(tok.Token))
	if res, err := agent.MemoryEvent(ctx, "claude-code", ev()); err != nil || len(res) == 0 {
		t.Fatalf("session.start: %s, %v", res, err)
	}
	_, err = client.New(srv.URL, srv.Client(), client.WithToken("agm_wrong")).MemoryEvent(ctx, "claude-code", ev())
	if !errors.Is(err, &memory.Error{Code: memory.CodeUnauthorized}) {
		t.Fatalf("a wrong adapter token: %v", err)
	}

	if recs, err := admin.MemoryRecords(ctx, url.Values{"limit": {"5"}}); err != nil || len(recs) != 0 {
		t.Fatalf("records of a new node: %v, %v", recs, err)
	}
	if hits, err := admin.MemorySearch(ctx, url.Values{"q": {"left-pad"}}); err != nil || len(hits) != 0 {
		t.Fatalf("search of a new node: %v, %v", hits, err)
	}
	var ce *client.Error
	if _, err := admin.MemoryRecord(ctx, "lr_nosuchrecord"); !errors.As(err, &ce) || ce.Status != http.StatusNotFound {
		t.Fatalf("an unknown record: %v", err)
	}
	if _, err := client.New(srv.URL, srv.Client()).MemoryRecords(ctx, url.Values{}); !client.IsCode(err, "unauthorized") {
		t.Fatalf("an admin route without the token: %v", err)
	}
}

// TestBadAnswer checks that a 2xx answer that is not the route's wraps
// ErrBadAnswer, and is not an *Error.
func TestBadAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>hello</html>")) }))
	defer srv.Close()
	c := client.New(srv.URL, srv.Client(), client.WithToken("x"))
	for name, call := range map[string]func() error{
		"log":    func() error { _, err := c.Log(context.Background()); return err },
		"scopes": func() error { _, err := c.LibraryScopes(context.Background(), "op:x"); return err },
		"ingress": func() error {
			_, err := c.MemoryEvent(context.Background(), "a", &memory.Event{Kind: "note"})
			return err
		},
		"operator": func() error { _, err := c.Operator(context.Background(), "op:x"); return err },
	} {
		var ce *client.Error
		if err := call(); !errors.Is(err, client.ErrBadAnswer) || errors.As(err, &ce) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func hexOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
