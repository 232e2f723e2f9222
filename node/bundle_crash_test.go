package node

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
)

// This file tests crash safety for bundle submissions and uploads: the node
// is killed (SIGKILL) while authors submit bundles and while a large file
// is being uploaded, and after a restart no bundle is half-stored, every
// acknowledged bundle is complete, and submitting again says where each
// stands.

// submission is one bundle TestBundleCrash submits, and what became of it.
type submission struct {
	author author
	round  int
	body   any               // the request, parsed
	hash   string            // its bundle hash
	files  map[string][]byte // every file by path: the signature and uploaded ones too
	status int               // the answer to the submission during the round; 0 if none came
	answer any
	acked  int64 // the sealed index a 202 gave; -1 if none
	sealed int64 // where it is sealed after the restart
}

// send submits s and keeps the answer; a node killed first leaves status 0.
func (s *submission) send(c *client) {
	status, v, err := c.do("POST", "/api/v1/bundles", s.body)
	if err != nil {
		return
	}
	s.status, s.answer = status, v
	if index, ok := sealedIndex(v); status == http.StatusAccepted && ok {
		s.acked = index
	}
}

// sealedIndex reads "sealed" from an answer.
func sealedIndex(v any) (int64, bool) {
	obj, _ := v.(map[string]any)
	f, ok := obj["sealed"].(float64)
	return int64(f), ok
}

// put PUTs size bytes from body to path, as an upload link says.
func (c *client) put(path string, body io.Reader, size int64) (int, any, error) {
	req, err := http.NewRequest("PUT", c.url+path, body)
	if err != nil {
		return 0, nil, err
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	v, err := canonical.Parse(data)
	if err != nil {
		return resp.StatusCode, nil, fmt.Errorf("PUT %s: %d %q: %w", path, resp.StatusCode, data, err)
	}
	return resp.StatusCode, v, nil
}

// askUpload asks the node, as a, to upload size bytes with digest d. It
// returns whether the node has the file already and, if not, the link.
func (c *client) askUpload(a author, d string, size int) (present bool, link string, err error) {
	req := map[string]any{"type": "upload_request", "operator": a.id, "time": tlog.FormatTimestamp(time.Now()),
		"files": []any{map[string]any{"digest": d, "bytes": size}}}
	if err := protocol.Sign(req, a.key); err != nil {
		return false, "", err
	}
	status, v, err := c.do("POST", "/api/v1/uploads", req)
	if err != nil {
		return false, "", err
	}
	files, _ := v.(map[string]any)["files"].([]any)
	if status != http.StatusOK || len(files) != 1 {
		return false, "", fmt.Errorf("upload request: %d %v", status, v)
	}
	file := files[0].(map[string]any)
	if file["present"] == true {
		return true, "", nil
	}
	up, _ := file["upload"].(map[string]any)
	link, _ = up["url"].(string)
	if file["present"] != false || link == "" {
		return false, "", fmt.Errorf("upload request: %v", file)
	}
	return false, link, nil
}

// randomBytes returns size bytes from the seeded generator.
func randomBytes(seed uint64, size int) []byte {
	b := make([]byte, size)
	r := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(seed >> 16), byte(seed >> 24), 1})
	r.Read(b)
	return b
}

// newSubmissions registers and invites authors at the child node, has the
// first upload a file of its own ahead, and makes each a realistic bundle
// of its own (the manifest names the author's key), signed.
func newSubmissions(t *testing.T, c *client, round, count int) []*submission {
	t.Helper()
	subs := make([]*submission, count)
	errs := make([]error, count)
	var wg sync.WaitGroup
	for i := range subs {
		wg.Go(func() {
			key, id, status, err := c.register(fmt.Sprintf("Author %d %d", round, i))
			if err != nil || status != http.StatusCreated {
				errs[i] = fmt.Errorf("register: %d %v", status, err)
				return
			}
			if status, v, err := c.invite(id); err != nil || status != http.StatusCreated {
				errs[i] = fmt.Errorf("invite: %d %v %v", status, v, err)
				return
			}
			subs[i] = &submission{author: author{id, key}, round: round, acked: -1}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	for i, s := range subs {
		files, _ := realisticBundle(t, s.author)
		if i > 0 {
			s.sign(t, files)
			continue
		}
		data := randomBytes(uint64(round), 1<<20)
		present, link, err := c.askUpload(s.author, sha(data), len(data))
		if err != nil || present {
			t.Fatalf("round %d: upload request: present %v, %v", round, present, err)
		}
		if status, v, err := c.put(link, bytes.NewReader(data), int64(len(data))); err != nil || status != http.StatusCreated {
			t.Fatalf("round %d: upload: %d %v %v", round, status, v, err)
		}
		files["data/big.txt"] = data
		s.sign(t, files, "data/big.txt")
	}
	return subs
}

// sign makes s's request: files (the uploaded paths sent by digest), and
// its author's signature, which it adds to files.
func (s *submission) sign(t *testing.T, files map[string][]byte, uploaded ...string) {
	t.Helper()
	inline := maps.Clone(files)
	digests := map[string]string{}
	for _, p := range uploaded {
		digests[p] = sha(files[p])
		delete(inline, p)
	}
	body, hash := signedBody(t, s.author.key, inline, digests)
	v, err := canonical.Parse(body)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := base64.StdEncoding.DecodeString(v.(map[string]any)["files"].(map[string]any)["signature"].(string))
	if err != nil {
		t.Fatal(err)
	}
	files["signature"] = sig
	s.body, s.hash, s.files = v, hash, files
}

// tempBytes is how many bytes the blob store's temporary files under dir
// hold: puts in progress.
func tempBytes(dir string) int64 {
	entries, _ := os.ReadDir(filepath.Join(dir, "files", "tmp"))
	var total int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			total += info.Size()
		}
	}
	return total
}

// TestBundleCrash kills the node (SIGKILL) while authors submit bundles at
// once (each its own, so none waits for another): in the first round the
// moment the first is acknowledged, in later rounds at random moments, and
// in the last round while a 64 MB upload is midway through its PUT. The
// child node opens sealed bundles too, so kills also land mid-opening. It
// then restarts the node on the same data folder and checks:
//
//   - recovery left no entry unbound and logged no error;
//   - every acknowledged bundle is recorded at the sealed index it was
//     given, with every file in the blob store;
//   - every other bundle is wholly stored (recorded, sealed on the log,
//     every file kept) or wholly absent;
//   - submitting each again answers 200 with where it stands (the same
//     sealed index) or, for an absent one, 202 sealing it afresh; never
//     an error, never a second sealed entry;
//   - once opened, every bundle lists every file and serves each byte for
//     byte, and the log holds exactly one sealed and one revealing entry
//     per bundle, the commitment opening;
//   - the upload killed midway left no file under its digest: asking
//     again gives a link, and the whole file then goes up;
//   - every receipt on the log verifies (tlog.VerifyReceipt).
func TestBundleCrash(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills and restarts a node: not in -short")
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("random kill moments from seed %d", seed)
	// The child makes every bundle free (more are sealed here than the
	// seeding rule's first ten) and opens each 300 ms after it is sealed.
	dir := dataDir(t)
	const rounds, perRound = 4, 4
	var (
		subs       []*submission
		token, pub string
		recovered  []string
		dropped    []string      // what recovery dropped, as it logged it
		firstAck   time.Duration // how long the first 202 took, in round 0
		uploader   author
		big        []byte
		bigDigest  string
	)
	for round := range rounds {
		ch := startChild(t, dir, crashChildOpenAfterEnv+"=300ms")
		if round == 0 {
			b, err := os.ReadFile(AdminTokenPath(dir))
			if err != nil {
				t.Fatal(err)
			}
			token = string(b)
			_, v, err := newClient(ch.url, nil, "").do("GET", "/api/v1/log", nil)
			if err != nil {
				t.Fatal(err)
			}
			pub = v.(map[string]any)["public_key"].(string)
		}
		c := newClient(ch.url, nil, token)
		these := newSubmissions(t, c, round, perRound)
		subs = append(subs, these...)

		// The last round starts a 64 MB upload, streamed slowly, and
		// stops sending at half of it until the node is killed.
		var (
			putDone   chan string
			stopWrite = make(chan struct{})
			reader    *io.PipeReader
		)
		if round == rounds-1 {
			uploader = these[0].author
			big = randomBytes(seed, 64<<20)
			bigDigest = sha(big)
			present, link, err := c.askUpload(uploader, bigDigest, len(big))
			if err != nil || present {
				t.Fatalf("upload request: present %v, %v", present, err)
			}
			var w *io.PipeWriter
			reader, w = io.Pipe()
			putDone = make(chan string, 1)
			go func() {
				if status, v, err := c.put(link, reader, int64(len(big))); err == nil {
					putDone <- fmt.Sprintf("the upload answered %d %v before the node was killed", status, v)
				}
				close(putDone)
			}()
			go func() {
				for off := 0; off < len(big)/2; off += 1 << 20 {
					if _, err := w.Write(big[off : off+1<<20]); err != nil {
						return
					}
					time.Sleep(5 * time.Millisecond)
				}
				<-stopWrite
				w.CloseWithError(errors.New("the node was killed"))
			}()
			// Midway: the node has written 8 MB of it to a temporary file.
			deadline := time.Now().Add(10 * time.Second)
			for tempBytes(dir) < 8<<20 {
				if time.Now().After(deadline) {
					t.Fatalf("the node did not write the upload: %d bytes in its temporary files", tempBytes(dir))
				}
				time.Sleep(5 * time.Millisecond)
			}
		}

		acks := make(chan struct{}, len(these))
		done := make(chan struct{})
		start := time.Now()
		var wg sync.WaitGroup
		for i, s := range these {
			// Staggered, so one kill finds them at different steps: in
			// round 0 60 ms apart, later anywhere in the first half of
			// the time the first answer took.
			after := time.Duration(i) * 60 * time.Millisecond
			if round > 0 {
				after = time.Duration(rng.Int64N(int64(firstAck)/2 + 1))
			}
			wg.Go(func() {
				time.Sleep(after)
				s.send(c)
				if s.acked >= 0 {
					acks <- struct{}{}
				}
			})
		}
		go func() { wg.Wait(); close(done) }()
		if round == 0 {
			select {
			case <-acks:
				firstAck = time.Since(start)
			case <-done:
				firstAck = time.Since(start)
			case <-time.After(15 * time.Second):
				t.Fatal("no submission was answered in 15 s")
			}
		} else {
			// Anywhere from before the first check to after the first
			// answer: the kill is the event under test, not a race.
			select {
			case <-time.After(time.Duration(rng.Int64N(int64(firstAck)*3/2 + 1))):
			case <-done:
			}
		}
		ch.kill(t)
		killedAt := time.Since(start)
		close(stopWrite)
		if reader != nil {
			reader.CloseWithError(errors.New("the node was killed"))
			if msg, answered := <-putDone; answered {
				t.Error(msg)
			}
		}
		wg.Wait()
		for _, s := range these {
			if s.status != 0 && s.status != http.StatusAccepted {
				t.Errorf("round %d: a submission answered %d %v", round, s.status, s.answer)
			}
		}
		t.Logf("round %d: killed %s after the submissions began (the first answer came after %s in round 0)",
			round, killedAt.Round(time.Millisecond), firstAck.Round(time.Millisecond))
		recovered = append(recovered, recoveryLines(t, ch.stderr.String())...)
		for _, line := range strings.Split(ch.stderr.String(), "\n") {
			if strings.Contains(line, "level=ERROR") && !strings.Contains(line, "recovery:") {
				t.Errorf("round %d: the node logged %s", round, line)
			}
			if strings.Contains(line, "recovery: dropped") {
				dropped = append(dropped, line)
			}
		}
	}
	if tempBytes(dir) < 8<<20 {
		t.Fatalf("the killed upload left %d bytes in temporary files; the test did not kill it midway", tempBytes(dir))
	}

	// Restart in this process, opening nothing yet, to read the store.
	ctx := context.Background()
	var logged lockedBuffer
	n, err := New(ctx, Config{DataDir: dir, Logger: slog.New(slog.NewTextHandler(&logged, nil)), FreeBundles: FreeAll, OpenAfter: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(n.Handler())
	t.Cleanup(func() {
		srv.Close()
		n.Close(context.Background())
	})
	recovered = append(recovered, recoveryLines(t, logged.String())...)
	for _, line := range strings.Split(logged.String(), "\n") {
		if strings.Contains(line, "recovery: dropped") {
			dropped = append(dropped, line)
		}
	}
	t.Logf("recovery said:\n%s\nand dropped:\n%s", strings.Join(recovered, "\n"), strings.Join(dropped, "\n"))
	c := newClient(srv.URL, nil, "")
	checkNoUnbound(t, n, "after recovery")

	// Each bundle is wholly stored or wholly absent, and an acknowledged
	// one is stored at the index it was given.
	outcomes := make([]struct{ acked, stored, absent int }, rounds)
	for _, s := range subs {
		o := &outcomes[s.round]
		b, err := n.store.Bundle(ctx, s.hash)
		switch {
		case errors.Is(err, store.ErrNotFound):
			if s.acked >= 0 {
				t.Errorf("round %d: bundle %s was acknowledged sealed at %d and is gone", s.round, s.hash, s.acked)
			}
			o.absent++
			continue
		case err != nil:
			t.Fatal(err)
		case s.acked >= 0:
			o.acked++
		default:
			o.stored++
		}
		checkWhole(t, n, c, s, b)
	}
	for round, o := range outcomes {
		t.Logf("round %d: %d acknowledged; %d not acknowledged but sealed on the log; %d absent", round, o.acked, o.stored, o.absent)
	}

	// Submitting again answers where each stands, or seals it afresh.
	var wg sync.WaitGroup
	for _, s := range subs {
		wg.Go(func() { s.status, s.answer, s.sealed = resubmit(c, s) })
	}
	wg.Wait()
	for _, s := range subs {
		b, err := n.store.Bundle(ctx, s.hash)
		if err != nil {
			t.Errorf("bundle %s after submitting it again: %v (answered %d %v)", s.hash, err, s.status, s.answer)
			continue
		}
		switch {
		case s.status != http.StatusOK && s.status != http.StatusAccepted:
			t.Errorf("round %d: submitting %s again answered %d %v", s.round, s.hash, s.status, s.answer)
		case s.acked >= 0 && (s.status != http.StatusOK || s.sealed != s.acked):
			t.Errorf("round %d: submitting acknowledged %s (sealed at %d) again answered %d %v", s.round, s.hash, s.acked, s.status, s.answer)
		case s.sealed != b.SealedIndex:
			t.Errorf("round %d: submitting %s again answered sealed at %d; the store has %d", s.round, s.hash, s.sealed, b.SealedIndex)
		}
		checkWhole(t, n, c, s, b)
		// Once more: where it stands, at the same index.
		if status, v, err := c.do("POST", "/api/v1/bundles", s.body); err != nil || status != http.StatusOK {
			t.Errorf("submitting %s a third time: %d %v %v", s.hash, status, v, err)
		} else if index, _ := sealedIndex(v); index != s.sealed {
			t.Errorf("submitting %s a third time answered sealed at %d, not %d", s.hash, index, s.sealed)
		}
	}

	// The upload killed midway left nothing under its digest: asking
	// again gives a link, and the whole file goes up.
	if n.files.Has(bigDigest) {
		t.Errorf("the upload killed midway left a file under its digest")
	}
	if left := tempBytes(dir); left != 0 {
		t.Errorf("the restart left %d bytes of temporary files", left)
	}
	if present, link, err := c.askUpload(uploader, bigDigest, len(big)); err != nil || present {
		t.Errorf("asking again for the upload killed midway: present %v, %v", present, err)
	} else if status, v, err := c.put(link, bytes.NewReader(big), int64(len(big))); err != nil || status != http.StatusCreated {
		t.Errorf("PUT of the whole file after the restart: %d %v %v", status, v, err)
	} else if present, _, err := c.askUpload(uploader, bigDigest, len(big)); err != nil || !present {
		t.Errorf("asking for the upload once it arrived: present %v, %v", present, err)
	}

	// Every bundle opens (as the policy loop would open it), and reads
	// back whole.
	due, err := n.store.SealedBundles(ctx, time.Now(), "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range due {
		wg.Go(func() {
			if _, err := n.ledger.OpenBundle(ctx, b); err != nil {
				t.Errorf("opening %s: %v", b.Hash, err)
			}
		})
	}
	wg.Wait()
	revealed := map[int64]*submission{}
	for _, s := range subs {
		status, v, err := c.do("GET", "/api/v1/sealed/"+itoa(uint64(s.sealed)), nil)
		if err != nil || status != http.StatusOK || v.(map[string]any)["state"] != ledger.BundleOpen {
			t.Errorf("sealed %d (bundle %s): %d %v %v, want it open", s.sealed, s.hash, status, v, err)
			continue
		}
		revealed[int64(v.(map[string]any)["revealed_in"].(float64))] = s
		readBack(t, c, s)
	}

	// The log audits, and holds one sealed and one revealing entry per
	// bundle, the revealing entry opening the sealed one's commitment.
	leaves, _ := auditLog(t, c, pub)
	sealedLeaves, bundleLeaves := 0, 0
	for i, leaf := range leaves {
		entry := leaf["entry"].(map[string]any)
		switch entry["type"] {
		case protocol.SealedType:
			sealedLeaves++
		case "bundle":
			bundleLeaves++
			s := revealed[int64(i)]
			seal, _ := leaf["sealed"].(map[string]any)
			if s == nil || seal == nil || int64(seal["index"].(float64)) != s.sealed {
				t.Errorf("the bundle entry at %d names sealed %v, which no bundle's GET /sealed names it for", i, seal)
				continue
			}
			commitment, err := protocol.SealCommitment(entry, seal["salt"].(string))
			if err != nil || commitment != leaves[s.sealed]["entry"].(map[string]any)["commitment"] {
				t.Errorf("the bundle entry at %d does not open the commitment at %d: %v", i, s.sealed, err)
			}
		}
	}
	if sealedLeaves != len(subs) || bundleLeaves != len(subs) {
		t.Errorf("the log holds %d sealed and %d bundle entries for %d bundles", sealedLeaves, bundleLeaves, len(subs))
	}
	checkNoUnbound(t, n, "at the end")
}

// resubmit submits s again and returns the answer and the sealed index it
// names (-1 if none).
func resubmit(c *client, s *submission) (int, any, int64) {
	status, v, err := c.do("POST", "/api/v1/bundles", s.body)
	if err != nil {
		return 0, err, -1
	}
	index, ok := sealedIndex(v)
	if !ok {
		index = -1
	}
	return status, v, index
}

// checkNoUnbound fails the test if the store holds any entry the log does
// not: every author here was invited, so even key entries are bound.
func checkNoUnbound(t *testing.T, n *Node, when string) {
	t.Helper()
	// A restarted node settles rounds that closed while it was down (a
	// canary closed, an answer revealed): such an entry is put in the
	// store a moment before the log takes it. What recovery left unbound
	// stays so; an entry in flight is bound within the grace period.
	var unbound []store.Signed
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var err error
		if unbound, err = n.store.Unbound(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(unbound) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, s := range unbound {
		t.Errorf("%s: a %s entry %s is unbound (leaf kept: %v)", when, entryType(s.Entry), s.Digest, s.Leaf != nil)
	}
}

// checkWhole checks that bundle b, as the store holds it, is s whole: its
// sealed entry on the log, every file recorded with its digest and kept in
// the blob store, every claim recorded.
func checkWhole(t *testing.T, n *Node, c *client, s *submission, b ledger.Bundle) {
	t.Helper()
	if b.SealedIndex == store.Unlogged {
		t.Errorf("round %d: bundle %s is recorded with its sealed entry unlogged", s.round, s.hash)
		return
	}
	if s.acked >= 0 && b.SealedIndex != s.acked {
		t.Errorf("round %d: bundle %s was acknowledged sealed at %d; the store has %d", s.round, s.hash, s.acked, b.SealedIndex)
	}
	if len(b.Files) != len(s.files) {
		t.Errorf("round %d: bundle %s records %d files, want %d", s.round, s.hash, len(b.Files), len(s.files))
	}
	for _, f := range b.Files {
		data, ok := s.files[f.Path]
		if !ok || f.Digest != sha(data) || f.Size != int64(len(data)) {
			t.Errorf("round %d: bundle %s records file %s as %s, %d bytes", s.round, s.hash, f.Path, f.Digest, f.Size)
		}
		if !n.files.Has(f.Digest) {
			t.Errorf("round %d: bundle %s is recorded but its file %s is not kept", s.round, s.hash, f.Path)
		}
	}
	if len(b.Claims) != 3 {
		t.Errorf("round %d: bundle %s records %d claims, want 3", s.round, s.hash, len(b.Claims))
	}
	status, v, err := c.do("GET", "/api/v1/sealed/"+itoa(uint64(b.SealedIndex)), nil)
	if err != nil || status != http.StatusOK {
		t.Errorf("round %d: GET sealed %d of bundle %s: %d %v %v", s.round, b.SealedIndex, s.hash, status, v, err)
	}
}

// readBack reads open bundle s as a reader would: it lists every file, and
// each reads back byte for byte.
func readBack(t *testing.T, c *client, s *submission) {
	t.Helper()
	status, v, err := c.do("GET", "/api/v1/bundles/"+s.hash, nil)
	if err != nil || status != http.StatusOK {
		t.Errorf("bundle %s: %d %v %v", s.hash, status, v, err)
		return
	}
	listed, _ := v.(map[string]any)["files"].(map[string]any)
	if len(listed) != len(s.files) {
		t.Errorf("bundle %s lists %d files, want %d", s.hash, len(listed), len(s.files))
	}
	for p, want := range s.files {
		d, _ := listed[p].(string)
		resp, err := c.http.Get(c.url + "/api/v1/files/" + d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || !bytes.Equal(got, want) {
			t.Errorf("bundle %s file %s read back %d, %d bytes (%v), want %d", s.hash, p, resp.StatusCode, len(got), err, len(want))
		}
	}
}

// TestBundleCrashRecover makes, deterministically, the two states a crash
// mid-submission leaves that TestBundleCrash reaches only by chance: the
// sealed entry kept with its leaf and the bundle recorded, but never
// appended (A); and the sealed entry appended but not bound (B). After a
// restart A is wholly gone and seals afresh when submitted again, and B is
// sealed where the log holds it and answers where it stands.
func TestBundleCrashRecover(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := dataDir(t)
	var faults *faultStore
	cfg := Config{DataDir: dir, Logger: slog.New(slog.DiscardHandler), FreeBundles: FreeAll, OpenAfter: -1,
		wrapStore: func(st nodeStore) nodeStore { faults = &faultStore{nodeStore: st}; return faults }}
	n, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(n.Handler())
	c := newClient(srv.URL, nil, "")
	var subs []*submission
	for i, fault := range []*atomic.Bool{&faults.failLeafPut, &faults.failBind} {
		s := &submission{author: newAuthor(t, n, srv.URL), round: i, acked: -1}
		files, _ := realisticBundle(t, s.author)
		s.sign(t, files)
		fault.Store(true)
		s.send(c)
		fault.Store(false)
		if s.status != http.StatusInternalServerError {
			t.Fatalf("the injected fault answered %d %v, want 500", s.status, s.answer)
		}
		subs = append(subs, s)
	}
	logSize := n.log.Size()
	srv.Close()
	if err := n.Close(ctx); err != nil {
		t.Fatal(err)
	}

	var logged lockedBuffer
	cfg.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	n, err = New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv = httptest.NewServer(n.Handler())
	t.Cleanup(func() {
		srv.Close()
		n.Close(context.Background())
	})
	c.url = srv.URL
	recoveryLines(t, logged.String())
	checkNoUnbound(t, n, "after recovery")
	if _, err := n.store.Bundle(ctx, subs[0].hash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the bundle whose sealed entry never reached the log: %v, want it dropped", err)
	}
	b, err := n.store.Bundle(ctx, subs[1].hash)
	if err != nil || b.SealedIndex != int64(logSize)-1 {
		t.Fatalf("the bundle whose sealed entry the log holds at %d: sealed at %d, %v", logSize-1, b.SealedIndex, err)
	}
	for _, s := range subs {
		s.status, s.answer, s.sealed = resubmit(c, s)
		if b, err := n.store.Bundle(ctx, s.hash); err != nil {
			t.Errorf("bundle %s after submitting it again: %v", s.hash, err)
		} else {
			checkWhole(t, n, c, s, b)
		}
	}
	if s := subs[0]; s.status != http.StatusAccepted || s.sealed != int64(logSize) {
		t.Errorf("submitting the dropped bundle again: %d %v, want it sealed afresh at %d", s.status, s.answer, logSize)
	}
	if s := subs[1]; s.status != http.StatusOK || s.sealed != b.SealedIndex {
		t.Errorf("submitting the logged bundle again: %d %v, want where it stands, sealed at %d", s.status, s.answer, b.SealedIndex)
	}
	checkNoUnbound(t, n, "at the end")
}
