package node

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
)

// crashChildJobsEnv, when set, has the child node make every bundle free,
// run no qualification test and no canaries, for TestJobsCrash.
const crashChildJobsEnv = "AGORA_NODE_CRASH_CHILD_JOBS"

// crashVerifier is a verifier TestJobsCrash drives over a client.
type crashVerifier struct {
	id, family string
	key        *hybrid.PrivateKey
}

func (v crashVerifier) signed(e map[string]any) map[string]any {
	if err := protocol.Sign(e, v.key); err != nil {
		panic(err)
	}
	return e
}

// loop takes jobs and attests until stop, sending each acknowledged
// attestation's index to acks. A request that fails (the node killed, or
// too slow on a loaded machine) is tried again until stop, so one slow
// answer never takes a verifier out of its rounds; fails counts them.
func (v crashVerifier) loop(c *client, stop <-chan struct{}, acks chan<- int64, fails *atomic.Int64) {
	pause := func() bool {
		fails.Add(1)
		select {
		case <-stop:
			return false
		case <-time.After(50 * time.Millisecond):
			return true
		}
	}
	report := map[string][]byte{"report.md": []byte("# Report\n\nRe-ran it.\n")}
	_, evidence, _ := bundle.DigestEvidence(report)
	for {
		select {
		case <-stop:
			return
		default:
		}
		status, v2, err := c.do("POST", "/api/v1/jobs", v.signed(map[string]any{"type": "job_request", "operator": v.id,
			"time": tlog.FormatTimestamp(time.Now()), "can": map[string]any{"minutes": 30, "importance": false}, "model_family": v.family, "model": v.family + "-1"}))
		if err != nil {
			if !pause() {
				return
			}
			continue
		}
		job, _ := v2.(map[string]any)
		if status != http.StatusOK || job["job"] == nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		verdicts := map[string]any{}
		for _, cl := range job["claims"].([]any) {
			cl := cl.(map[string]any)
			if cl["needs_verdict"] == true {
				verdicts[cl["claim_id"].(string)] = map[bool]string{true: "reproduced", false: "sound"}[job["kind"] == "reproduction"]
			}
		}
		e := map[string]any{"type": "attestation", "job": job["kind"], "verifier": v.id, "bundle": job["bundle"], "claims": verdicts,
			"evidence": evidence, "model_family": v.family, "model": v.family + "-1", "harness": "crash-test 1"}
		if job["kind"] == "reproduction" {
			e["hazard"] = "none"
		} else {
			sig := map[string]any{}
			for id := range verdicts {
				sig[id] = "minor"
			}
			e["significance"] = sig
		}
		body := map[string]any{"entry": v.signed(e), "evidence": map[string]any{"files": map[string]any{"report.md": base64.StdEncoding.EncodeToString(report["report.md"])}}}
		status, ans, err := c.do("POST", "/api/v1/attestations", body)
		if err != nil {
			if !pause() {
				return
			}
			continue
		}
		if status == http.StatusCreated {
			acks <- int64(ans.(map[string]any)["attestation"].(float64))
		}
	}
}

// TestJobsCrash kills the node (SIGKILL) while verifiers take jobs and
// attest on sealed rounds, restarts it, and checks that no acknowledged
// attestation was lost, no job's credit was paid twice or for an answer
// the log does not hold, and no job is held by two operators or any
// operator holds two; then the rounds finish and every bundle opens.
func TestJobsCrash(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills and restarts a node: not in -short")
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("random kill moment from seed %d", seed)
	dir := dataDir(t)
	ch := startChild(t, dir, crashChildJobsEnv+"=1")
	token, err := os.ReadFile(AdminTokenPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(ch.url, nil, string(token))
	newOp := func(name, family string) crashVerifier {
		key, id, status, err := c.register(name)
		if err != nil || status != http.StatusCreated {
			t.Fatalf("register %s: %d %v", name, status, err)
		}
		if status, v, err := c.invite(id); err != nil || status != http.StatusCreated {
			t.Fatalf("invite: %d %v %v", status, v, err)
		}
		return crashVerifier{id: id, family: family, key: key}
	}
	author := newOp("Author", "claude")
	var hashes []string
	for i := range 4 {
		files := sumBundle(t, protocol.KeyDigest(author.key.Public().String()), "claude", fmt.Sprintf("crash sample %d", i), true)
		body, hash := signedBody(t, author.key, files, nil)
		hashes = append(hashes, hash)
		req, _ := http.NewRequest("POST", ch.url+"/api/v1/bundles", bytes.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusAccepted {
			t.Fatalf("submit: %v %v", resp, err)
		}
		resp.Body.Close()
	}
	var vs []crashVerifier
	for i := range 6 {
		vs = append(vs, newOp(fmt.Sprintf("Verifier %d", i), []string{"gpt", "gemini"}[i%2]))
	}
	acks := make(chan int64, 1000)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var fails atomic.Int64
	for _, v := range vs {
		wg.Go(func() { v.loop(newClient(ch.url, nil, ""), stop, acks, &fails) })
	}
	time.Sleep(time.Duration(200+rng.IntN(800)) * time.Millisecond)
	ch.kill(t)
	close(stop)
	wg.Wait()
	close(acks)
	var acked []int64
	for i := range acks {
		acked = append(acked, i)
	}
	t.Logf("%d attestations acknowledged before the kill", len(acked))

	// The store after the crash, recovered, before anyone asks again.
	var logBuf bytes.Buffer
	n := openNode(t, dir, &logBuf)
	checkJobStore(t, n, acked, vs, hashes)
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	// Restarted, the rounds finish.
	ch = startChild(t, dir, crashChildJobsEnv+"=1")
	stop = make(chan struct{})
	acks = make(chan int64, 1000)
	fails.Store(0)
	for _, v := range vs {
		wg.Go(func() { v.loop(newClient(ch.url, nil, ""), stop, acks, &fails) })
	}
	deadline := time.Now().Add(2 * time.Minute)
	for open := 0; open < len(hashes); {
		open = 0
		for _, h := range hashes {
			if status, v, err := newClient(ch.url, nil, "").do("GET", "/api/v1/bundles/"+h, nil); err == nil && status == http.StatusOK && v.(map[string]any)["state"] == "open" {
				open++
			}
		}
		if time.Now().After(deadline) {
			for _, h := range hashes {
				status, v, err := newClient(ch.url, nil, "").do("GET", "/api/v1/bundles/"+h, nil)
				t.Logf("bundle %s: %d %v %v", h, status, v, err)
			}
			t.Fatalf("after the restart %d of %d bundles opened (%d requests failed and were sent again); the node's log:\n%s", open, len(hashes), fails.Load(), ch.stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	ch.kill(t)
	n = openNode(t, dir, &logBuf)
	defer n.Close(context.Background())
	checkJobStore(t, n, acked, vs, hashes)
}

// checkJobStore checks the invariants of the job store of n: every
// acknowledged attestation is on the log and recorded; every credit
// movement for a job pays its answer's operator once, for an answer the
// log holds; no operator holds two open jobs.
func checkJobStore(t *testing.T, n *Node, acked []int64, vs []crashVerifier, hashes []string) {
	t.Helper()
	ctx := context.Background()
	for _, i := range acked {
		s, err := n.store.Signed(ctx, i)
		if err != nil {
			t.Errorf("acknowledged attestation %d: %v", i, err)
			continue
		}
		a, err := n.store.AnswerByEntry(ctx, s.Digest)
		if err != nil || a.Kind == "" {
			t.Errorf("acknowledged attestation %d is not recorded as an answer: %v", i, err)
		}
	}
	for _, v := range vs {
		moves, err := n.store.Movements(ctx, v.id)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, m := range moves {
			if seen[m.Key] {
				t.Errorf("%s paid twice for %s", v.id, m.Key)
			}
			seen[m.Key] = true
			j, err := n.store.Job(ctx, m.Key[len("job:"):])
			if err != nil {
				t.Errorf("%s paid for %s, which is no job: %v", v.id, m.Key, err)
				continue
			}
			if !j.Done || j.Operator != v.id {
				t.Errorf("%s paid for %s, done %v by %s", v.id, j.ID, j.Done, j.Operator)
			}
			s, err := n.store.SignedByDigest(ctx, j.Answer)
			if err != nil || s.Index == store.Unlogged {
				t.Errorf("%s paid for %s, whose answer %s the log does not hold: %v", v.id, j.ID, j.Answer, err)
			}
		}
	}
	holding := map[string]int{}
	for _, h := range hashes {
		js, err := n.store.BundleJobs(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range js {
			if !j.Done && j.Operator != "" && j.Deadline.After(time.Now()) {
				holding[j.Operator]++
			}
			if j.Done {
				if a, err := n.store.AnswerByEntry(ctx, j.Answer); err != nil || a.Operator != j.Operator {
					t.Errorf("job %s done by %s, its answer %+v %v", j.ID, j.Operator, a, err)
				}
			}
		}
	}
	for op, k := range holding {
		if k > 1 {
			t.Errorf("%s holds %d open jobs", op, k)
		}
	}
}
