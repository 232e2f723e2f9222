package blobs

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// This file tests the crash promise for real: a child process (this test
// binary, run again) streams a file into a store from its stdin while the
// parent feeds the pipe slowly and SIGKILLs the child at chosen points.
// Afterwards the digest's name holds nothing or the complete file, never
// part of it, and a store opened again cleans up and takes the file whole.

const (
	childDirEnv    = "BLOBS_CRASH_DIR"
	childDigestEnv = "BLOBS_CRASH_DIGEST"
	childSizeEnv   = "BLOBS_CRASH_SIZE"
)

// TestCrashChild is the child: it runs only when the parent sets its
// environment, and streams stdin into the store.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(childDirEnv)
	if dir == "" {
		t.Skip("run by TestCrashMidPutStream as a child process")
	}
	size, err := strconv.ParseInt(os.Getenv(childSizeEnv), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutStream(os.Stdin, os.Getenv(childDigestEnv), size); err != nil {
		t.Fatal(err)
	}
	fmt.Println("stored")
}

func TestCrashMidPutStream(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("needs SIGKILL")
	}
	data := random(42, 4<<20)
	d := Digest(data)
	size := len(data)

	tests := []struct {
		name  string
		send  int  // bytes fed to the child before the kill
		close bool // close stdin, so the child may finish, then kill at once
		mid   bool // the kill certainly lands mid-stream
	}{
		{"before any byte", 0, false, true},
		{"one chunk in", 64 << 10, false, true},
		{"half", size / 2, false, true},
		{"all but one byte", size - 1, false, true},
		{"every byte, body not ended", size, false, true},
		{"every byte and the end", size, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := Open(dir); err != nil { // lay out before the child starts
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
			cmd.Env = append(os.Environ(),
				childDirEnv+"="+dir, childDigestEnv+"="+d, childSizeEnv+"="+strconv.Itoa(size))
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			killed := false
			defer func() {
				if !killed {
					cmd.Process.Kill()
					cmd.Wait()
				}
			}()

			// Feed the pipe slowly, a chunk at a time.
			for sent := 0; sent < tt.send; {
				n := min(64<<10, tt.send-sent)
				if _, err := stdin.Write(data[sent : sent+n]); err != nil {
					cmd.Process.Kill()
					cmd.Wait()
					killed = true
					t.Fatalf("feeding the child: %v\n%s", err, out.String())
				}
				sent += n
				time.Sleep(time.Millisecond)
			}
			if tt.close {
				stdin.Close()
			} else {
				// Wait until the child has written what it was sent to its
				// temporary file: the kill then lands inside PutStream.
				shard := filepath.Join(dir, filesDir, d[len(prefix):][:2])
				if !waitFor(func() bool { return holds(tt.send, filepath.Join(dir, tmpDir), shard) }) {
					cmd.Process.Kill()
					cmd.Wait()
					killed = true
					t.Fatalf("timed out waiting for the child to write %d bytes\n%s", tt.send, out.String())
				}
			}
			if err := cmd.Process.Kill(); err != nil { // SIGKILL
				t.Fatal(err)
			}
			cmd.Wait()
			killed = true

			s, err := storeWithoutCleaning(dir)
			if err != nil {
				t.Fatal(err)
			}
			if s.Has(d) {
				if tt.mid {
					t.Fatal("a put killed mid-stream left a file under the digest")
				}
				if got := readAll(t, s, d); !bytes.Equal(got, data) {
					t.Fatalf("after the kill the digest's file holds %d other bytes", len(got))
				}
			}
			if tt.mid && len(leftovers(t, s)) != 1 {
				t.Errorf("temporary files after the kill: %v, want the interrupted one", leftovers(t, s))
			}

			// Opening again removes the leftovers, and the file goes in whole.
			s, err = Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if l := leftovers(t, s); len(l) != 0 {
				t.Errorf("Open left %v", l)
			}
			if err := s.PutStream(bytes.NewReader(data), d, int64(size)); err != nil {
				t.Fatalf("PutStream after the crash: %v", err)
			}
			if got := readAll(t, s, d); !bytes.Equal(got, data) {
				t.Fatal("the file put after the crash reads back differently")
			}
		})
	}
}

// storeWithoutCleaning is a Store on dir as the crash left it, for looking
// before Open removes the leftovers.
func storeWithoutCleaning(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	return &Store{dir: abs}, err
}

// holds reports whether a file in one of dirs holds at least n bytes: the
// child has written what it was sent, wherever it writes it.
func holds(n int, dirs ...string) bool {
	for _, dir := range dirs {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && fi.Size() >= int64(n) {
				return true
			}
		}
	}
	return false
}

// waitFor polls cond until it holds, or reports false after 30 seconds.
func waitFor(cond func() bool) bool {
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}
