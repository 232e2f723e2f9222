package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog"
)

// TestServe starts the node on its embedded default in a fresh folder,
// stops it as SIGINT would, and starts it again on the same folder: the
// keys made on first start are kept (0600) and used again.
func TestServe(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	serve := func() {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		var out syncBuffer
		done := make(chan int, 1)
		go func() {
			done <- run(ctx, []string{"serve", "--data", dir, "--listen", "127.0.0.1:0"}, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out})
		}()
		deadline := time.Now().Add(20 * time.Second)
		for !strings.Contains(out.String(), "agora node serving") {
			select {
			case code := <-done:
				t.Fatalf("serve exited %d before serving:\n%s", code, out.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("serve did not start:\n%s", out.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		if code := <-done; code != 0 {
			t.Fatalf("serve exited %d on shutdown:\n%s", code, out.String())
		}
	}
	serve()
	first, err := hybrid.ReadKeyFile(filepath.Join(dir, "keys", "log.key"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"keys/log.key", "keys/checkpoint.key", "keys/admin.token"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, mode %v; want 0600", name, err, fi.Mode().Perm())
		}
	}
	for _, name := range []string{"state.db", "log"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	serve()
	again, err := hybrid.ReadKeyFile(filepath.Join(dir, "keys", "log.key"))
	if err != nil || again.Public().String() != first.Public().String() {
		t.Errorf("the log key changed across restarts: %v", err)
	}
	agora(t, 2, "serve", "--data", dir, "--max-body", "0")
	if _, errOut := agora(t, 2, "serve", "--data", dir, "--checkpoint-interval", "5ms"); !strings.Contains(errOut, "from 100ms to 1m0s") {
		t.Errorf("a checkpoint interval too short: %s", errOut)
	}
	agora(t, 2, "serve", "extra")
	// A --log that is not a mysql:// URL with a database is refused
	// before anything starts, without its password; so is an interval
	// Tessera's MySQL driver cannot keep.
	for _, bad := range []string{"postgres://agora:hunter2@db/agora", "mysql://agora:hunter2@tcp(db:3306)/"} {
		if _, errOut := agora(t, 2, "serve", "--data", dir, "--log", bad); !strings.Contains(errOut, "mysql://agora:PASSWORD@tcp(127.0.0.1:3306)/agora") || strings.Contains(errOut, "hunter2") {
			t.Errorf("--log %s: %s", bad, errOut)
		}
	}
	if _, errOut := agora(t, 2, "serve", "--data", dir, "--log", "mysql://agora:hunter2@tcp(db:3306)/agora", "--checkpoint-interval", "500ms"); !strings.Contains(errOut, "from 1s to 1m0s") {
		t.Errorf("a checkpoint interval too short for MySQL: %s", errOut)
	}
	t.Setenv("AGORA_GITHUB_CLIENT_SECRET", "")
	if _, errOut := agora(t, 2, "serve", "--data", dir, "--github-client-id", "Iv1.x"); !strings.Contains(errOut, "needs its secret") {
		t.Errorf("a GitHub client ID without its secret: %s", errOut)
	}
	if _, errOut := agora(t, 2, "serve", "--data", dir, "--smtp", "mail.example.org"); !strings.Contains(errOut, "host:port") {
		t.Errorf("--smtp without a port: %s", errOut)
	}
	if _, errOut := agora(t, 2, "serve", "--data", dir, "--smtp", "127.0.0.1:25"); !strings.Contains(errOut, "agora@example.org") {
		t.Errorf("--smtp without --smtp-from: %s", errOut)
	}
}

// syncBuffer is a bytes.Buffer the server's goroutines and the test may
// use at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestServeTransferDeadlines runs agora serve's server with tight
// timeouts, a second to read a request and two to answer it, and checks
// that the routes that move files have deadlines sized to the file: an
// upload sent slowly but steadily for longer than the read timeout is
// kept, and a download read slowly but steadily for longer than the write
// timeout arrives whole, while an ordinary route whose body trickles in is
// still cut off at the read timeout.
func TestServeTransferDeadlines(t *testing.T) {
	t.Setenv("AGORA_HOME", t.TempDir()) // submit keeps a note of what it sealed
	tm := httpTimeouts{readHeader: time.Second, read: time.Second, write: 2 * time.Second, idle: time.Minute}
	url, dataDir := startServe(t, node.Config{OpenAfter: 100 * time.Millisecond, CheckpointInterval: translog.MinCheckpointInterval,
		TransferGrace: time.Second, MinTransferRate: 256 << 10}, tm)
	keys := filepath.Join(t.TempDir(), "keys")
	out, _ := agora(t, 0, "register", "--name", "Mover", "--model-family", "claude", "--model", "claude-test-1", "--keys", keys, "--url", url)
	id := operatorLine.FindStringSubmatch(out)[1]
	agora(t, 0, "admin", "invite", id, "--data", dataDir, "--url", url)
	keyFile, err := hybrid.KeyFilePath(keys, id)
	if err != nil {
		t.Fatal(err)
	}
	key, err := hybrid.ReadKeyFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := client.New(url, nil)

	// An upload of 1 MB at 512 KB/s takes two read timeouts; its deadline
	// is a second plus 1 MB at 256 KB/s.
	data := bytes.Repeat([]byte("a steady upload "), (1<<20)/16)
	sum := sha256.Sum256(data)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	req := map[string]any{"type": "upload_request", "operator": id, "time": tlog.FormatTimestamp(time.Now()),
		"files": []any{map[string]any{"digest": digest, "bytes": len(data)}}}
	if err := protocol.Sign(req, key); err != nil {
		t.Fatal(err)
	}
	links, err := c.RequestUploads(ctx, req)
	if err != nil || len(links) != 1 || links[0].Upload == nil {
		t.Fatalf("upload links: %v %v", links, err)
	}
	began := time.Now()
	if err := c.Put(ctx, links[0], &steady{r: bytes.NewReader(data), rate: 512 << 10, chunk: 16 << 10}, int64(len(data))); err != nil {
		t.Errorf("a steady upload over %v: %v", time.Since(began).Round(time.Millisecond), err)
	} else if took := time.Since(began); took < tm.read {
		t.Errorf("the upload took %v, not longer than the read timeout", took)
	}

	// An ordinary route keeps the read timeout: a body trickling in at 16
	// bytes a second is cut off.
	trickle, err := http.NewRequest("POST", url+"/api/entries", &steady{r: bytes.NewReader(make([]byte, 4096)), rate: 16, chunk: 1})
	if err != nil {
		t.Fatal(err)
	}
	trickle.ContentLength = 4096
	began = time.Now()
	hc := &http.Client{Timeout: 10 * time.Second}
	resp, err := hc.Do(trickle)
	if err == nil {
		resp.Body.Close()
	}
	if took := time.Since(began); (err == nil && resp.StatusCode < 400) || took > tm.read+3*time.Second {
		t.Errorf("a trickling body on POST /api/entries: %v after %v, want cut off after the read timeout (%v)", err, took.Round(time.Millisecond), tm.read)
	}

	// A download of 9 MB (a bundle carries at most 10) read at 1.5 MB/s
	// takes three write timeouts; the client's small receive buffer
	// leaves the server no more than its own send buffer (4 MB at most on
	// Linux) to write ahead, so it still writes past the write timeout.
	// Its deadline is a second plus 9 MB at 256 KB/s.
	out, _ = agora(t, 0, "key", "show", id, "--keys", keys)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	dir, big := writeBundleFolder(t, protocol.KeyDigest(lines[len(lines)-1]), 9)
	agora(t, 0, "bundle", "check", dir, "--keys", keys, "--url", url)
	out, _ = agora(t, 0, "bundle", "submit", dir, "--keys", keys, "--url", url, "--json")
	var sub struct {
		Sealed int `json:"sealed"`
	}
	if err := json.Unmarshal([]byte(out), &sub); err != nil {
		t.Fatalf("submit printed %s", out)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if out, _ = agora(t, 0, "sealed", itoa(sub.Sealed), "--url", url, "--json"); strings.Contains(out, `"state": "open"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never opened: %s", out)
		}
	}
	sum = sha256.Sum256(big)
	dialer := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 32<<10) })
	}}
	slow := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	began = time.Now()
	resp, err = slow.Get(url + "/api/v1/files/sha256:" + hex.EncodeToString(sum[:]))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(&steady{r: resp.Body, rate: 3 << 19, chunk: 32 << 10})
	resp.Body.Close()
	if took := time.Since(began); resp.StatusCode != http.StatusOK || err != nil || !bytes.Equal(got, big) {
		t.Errorf("a steady download over %v: %d, %d of %d bytes, %v", took.Round(time.Millisecond), resp.StatusCode, len(got), len(big), err)
	} else if took < tm.write {
		t.Errorf("the download took %v, not longer than the write timeout", took)
	}
}

// startServe runs serve on a free loopback port with cfg (its DataDir a
// new folder) and the server timeouts tm until the test ends, and returns
// its URL and data folder.
func startServe(t *testing.T, cfg node.Config, tm httpTimeouts) (url, dataDir string) {
	t.Helper()
	cfg.DataDir = filepath.Join(t.TempDir(), "data")
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- serve(ctx, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out}, "127.0.0.1:0", cfg, tm)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d on shutdown:\n%s", code, out.String())
		}
	})
	servingAt := regexp.MustCompile(`agora node serving" url=(http://\S+)`)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := servingAt.FindStringSubmatch(out.String()); m != nil {
			return m[1], cfg.DataDir
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited %d before serving:\n%s", code, out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start:\n%s", out.String())
		}
	}
}

// steady reads from r in pieces of at most chunk bytes, at about rate
// bytes a second.
type steady struct {
	r     io.Reader
	rate  float64
	chunk int
	began time.Time
	n     int64
}

func (s *steady) Read(p []byte) (int, error) {
	if s.began.IsZero() {
		s.began = time.Now()
	}
	n, err := s.r.Read(p[:min(len(p), s.chunk)])
	s.n += int64(n)
	time.Sleep(time.Until(s.began.Add(time.Duration(float64(s.n) / s.rate * float64(time.Second)))))
	return n, err
}
