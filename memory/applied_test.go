package memory

import "testing"

func TestAppliedByCommand(t *testing.T) {
	fix := Fix{Kind: FixCommand, Command: "CGO_ENABLED=0 go test ./ledger/"}
	yes := []string{
		"CGO_ENABLED=0 go test ./ledger/",
		"go   test   ./ledger/",
		"cd /work/main && go test ./ledger/",
		"sudo -E env CGO_ENABLED=0 go test './ledger/'",
		"go test ./ledger/ | tee log.txt",
	}
	no := []string{
		"go test ./ledger/...",
		"go test ./store/",
		"echo go test ./ledger/",
		"",
	}
	for _, run := range yes {
		if via, ok := AppliedBy(fix, "shell", run, nil); !ok || via != AppliedViaCommand {
			t.Errorf("%q: not seen as applying %q", run, fix.Command)
		}
	}
	for _, run := range no {
		if _, ok := AppliedBy(fix, "shell", run, nil); ok {
			t.Errorf("%q: seen as applying %q", run, fix.Command)
		}
	}
	npx := Fix{Kind: FixCommand, Command: "npx prisma generate && npm test"}
	if _, ok := AppliedBy(npx, "shell", "npx --yes prisma generate && npm test", nil); !ok {
		t.Error("npx with options and a compound fix")
	}
	if _, ok := AppliedBy(npx, "shell", "npm test && prisma generate", nil); ok {
		t.Error("a compound fix matched out of order")
	}
	// A command fix is not applied by writing files.
	if _, ok := AppliedBy(fix, "write", "", []string{"ledger/store.go"}); ok {
		t.Error("a write applied a command fix")
	}
}

func TestAppliedByPath(t *testing.T) {
	config := Fix{Kind: FixConfig, Path: ".golangci.yml", Content: "linters: {}"}
	diff := Fix{Kind: FixDiff, Diff: "--- a/go.mod\n+++ b/go.mod\n@@ -1 +1 @@\n-go 1.25\n+go 1.26\n--- /dev/null\n+++ b/internal/new.go\n"}
	tests := []struct {
		fix     Fix
		written []string
		want    bool
	}{
		{config, []string{".golangci.yml"}, true},
		{config, []string{"/home/dev/agora/.golangci.yml"}, true},
		{config, []string{`C:\src\agora\.golangci.yml`}, true},
		{config, []string{"./.golangci.yml"}, true},
		{config, []string{"x.golangci.yml", "sub/golangci.yml"}, false},
		{diff, []string{"README.md", "/w/agora/go.mod"}, true},
		{diff, []string{"internal/new.go"}, true},
		{diff, []string{"new.go"}, false},
		{diff, nil, false},
	}
	for _, tt := range tests {
		via, ok := AppliedBy(tt.fix, "write", "", tt.written)
		if ok != tt.want || ok && via != AppliedViaPath {
			t.Errorf("%s fix, written %v: %q %v, want %v", tt.fix.Kind, tt.written, via, ok, tt.want)
		}
	}
}

func TestNextMark(t *testing.T) {
	if NextMark(true, true) != "used_then_passed" || NextMark(true, false) != "task_failed" ||
		NextMark(false, true) != "" || NextMark(false, false) != "" {
		t.Error("NextMark")
	}
}
