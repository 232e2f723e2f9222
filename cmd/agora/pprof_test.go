package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestProfilesLoopbackOnly checks that --pprof refuses an address others
// can reach, and serves the profiles' index on a loopback one.
func TestProfilesLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:6060", ":6060", "example.com:6060", "6060"} {
		if _, stop, err := listenProfiles(addr); err == nil {
			stop()
			t.Errorf("--pprof %s was accepted", addr)
		}
	}
	addr, stop, err := listenProfiles("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	resp, err := http.Get("http://" + addr + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine") {
		t.Errorf("profiles index: %d %.200s", resp.StatusCode, body)
	}
}
