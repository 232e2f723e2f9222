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
	sum := sha256.Sum256(nil)
	for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
		sum = sha256.Sum256(sum[:])
	}
	after, err := b.nodeCPU()
	if err != nil {
		t.Fatal(err)
	}
	if grew := after - before; grew < 100*time.Millisecond {
		t.Errorf("300 ms of hashing added %s of CPU time", grew)
	}
	if _, err := (&bench{nodePIDs: []int{1 << 30}}).nodeCPU(); err == nil {
		t.Error("a PID no process has gave a CPU time")
	}
	if cpu, err := (&bench{}).nodeCPU(); err != nil || cpu != 0 {
		t.Errorf("no PID: %s, %v", cpu, err)
	}
}
