package node

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/store/postgres/pgtest"
	"github.com/agora-node/agora/translog/mysqltest"
)

// TestSharedCrash runs one node as two processes on one PostgreSQL state
// and one MySQL log, as agora serve does behind a load balancer: a child
// process and this one, with the same keys. Registrations, invitations
// and rotations go through both at once; the child is SIGKILLed mid-burst.
// This process keeps serving; once its recovery has settled what the
// child left, the log is audited through it: every acknowledged entry,
// whichever process acknowledged it, is at its index and provable, every
// entry the log holds is served as signed, the tree extends every head
// either served, and the operators' records rest only on logged entries.
func TestSharedCrash(t *testing.T) {
	crashTest(t)
	dir := dataDir(t)
	state, logURL := pgtest.SchemaDSN(t), mysqltest.URL(t)
	env := []string{crashChildStateEnv + "=" + state, crashChildLogEnv + "=" + logURL}
	ch := startChild(t, dir, env...) // makes the node's keys in dir
	var logged lockedBuffer
	here, err := New(context.Background(), Config{DataDir: dir, State: state, Log: logURL, RecoverGrace: sharedTestGrace,
		Logger: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(here.Handler())
	t.Cleanup(func() {
		srv.Close()
		here.Close(context.Background())
	})
	if !here.log.Shared() {
		t.Fatal("a node on PostgreSQL and a MySQL log does not share its log")
	}
	token, err := os.ReadFile(AdminTokenPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(srv.URL, nil, string(token))
	_, v, err := c.do("GET", "/api/v1/log", nil)
	if err != nil {
		t.Fatal(err)
	}
	pub := v.(map[string]any)["public_key"].(string)

	ack := &acked{registered: map[string]bool{}, identities: map[string]int64{}, rotations: map[string][]int64{}, keys: map[string]string{}}
	burst(t, ch, string(token), pub, 0, 2500*time.Millisecond, ack, srv.URL)

	// This process keeps serving once the other is gone.
	for i := range 3 {
		_, op, status, err := c.register(fmt.Sprintf("After %d", i))
		if err != nil || status != http.StatusCreated {
			t.Fatalf("registering through the process left: %d %v", status, err)
		}
		status, v, err := c.invite(op)
		index, ok := answerIndex(v)
		if err != nil || status != http.StatusCreated || !ok {
			t.Fatalf("inviting through the process left: %d %v %v", status, v, err)
		}
		ack.registered[op], ack.identities[op] = true, index
		ack.attempted = append(ack.attempted, op)
	}

	// Its recovery settles what the child left, once the grace passed.
	deadline := time.Now().Add(2*sharedRecoverEvery + 4*sharedTestGrace)
	for {
		unbound, err := here.store.Unbound(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		left := 0
		for _, s := range unbound {
			if entryType(s.Entry) != "key" {
				left++
			}
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d entries the killed process left are still unbound after %s\n%s", left, 2*sharedRecoverEvery+4*sharedTestGrace, logged.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	leaves, head := auditLog(t, c, pub)
	var settled []string
	for _, line := range strings.Split(logged.String(), "\n") {
		if strings.Contains(line, "recovery:") && !strings.Contains(line, "kept an unlogged") {
			settled = append(settled, line)
		}
	}
	t.Logf("%d operators attempted, %d registered, %d invited, %d rotated; %d tree heads seen; the log holds %d entries; recovery here said:\n%s",
		len(ack.attempted), len(ack.registered), len(ack.identities), len(ack.rotations), len(ack.heads), head.Size, strings.Join(settled, "\n"))
	if len(ack.identities) < 4 {
		t.Fatal("hardly an invitation was acknowledged: the burst did nothing")
	}
	checkAcked(t, here, c, pub, ack, leaves, head)
}
