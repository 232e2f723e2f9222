package main

import (
	"crypto/sha256"
	"os"
	"testing"
	"time"
)

// TestBenchNodeCPU reads this process's CPU time as bench append reads
// the node's: it grows with work done, and a PID that names no process
// is refused with what to give instead.
func TestBenchNodeCPU(t *testing.T) {
	b := &bench{nodePIDs: []int{os.Getpid()}}
	before, err := b.nodeCPU()
	if err != nil {
		t.Fatal(err)
	}
	// Hash until 100 ms of CPU time are added, or give up after 20 s: on a
	// busy machine 300 ms of hashing may get a fraction of a core.
	sum := sha256.Sum256(nil)
	var grew time.Duration
	for start := time.Now(); grew < 100*time.Millisecond && time.Since(start) < 20*time.Second; {
		for range 10000 {
			sum = sha256.Sum256(sum[:])
		}
		after, err := b.nodeCPU()
		if err != nil {
			t.Fatal(err)
		}
		grew = after - before
	}
	if grew < 100*time.Millisecond {
		t.Errorf("20 s of hashing added %s of CPU time", grew)
	}
	if _, err := (&bench{nodePIDs: []int{1 << 30}}).nodeCPU(); err == nil {
		t.Error("a PID no process has gave a CPU time")
	}
	if cpu, err := (&bench{}).nodeCPU(); err != nil || cpu != 0 {
		t.Errorf("no PID: %s, %v", cpu, err)
	}
}
