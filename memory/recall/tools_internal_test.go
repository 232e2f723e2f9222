package recall

import (
	"slices"
	"testing"
)

// TestCommandTools holds which tools a failed command ran, the lead
// rule's check that a note is about the same tool: agents prefix
// commands with a directory change, chain them, and read failures out
// of other programs' logs.
func TestCommandTools(t *testing.T) {
	for _, c := range []struct {
		command string
		want    []string
	}{
		{"npm ci", []string{"npm"}},
		{"sudo apt-get update", []string{"apt"}},
		{"/usr/local/bin/terraform plan", []string{"terraform"}},
		{"./scripts/integration.sh --fast", nil},
		{"cd android && ./gradlew assembleRelease", []string{"gradlew"}},
		{"cd web; npx vite build | tee build.log", []string{"vite", "tee"}},
		{"RUST_LOG=debug cargo test", []string{"cargo"}},
		{"kubectl logs job/export -n meadow", nil},
		{"docker compose logs worker --tail 5", nil},
		{"gh run view 12790033218 --log-failed", nil},
		{"python -c 'import torch; torch.zeros(1).cuda()'", []string{"python"}},
		{"kubectl apply -f deploy.yaml", []string{"kubectl"}},
		{"node .github/scripts/comment-plan.js", nil},
		{"python manage.py migrate && python -m pytest", []string{"python"}},
		{"node --version", []string{"node"}},
	} {
		if got := commandTools(c.command); !slices.Equal(got, c.want) {
			t.Errorf("commandTools(%q) = %q, want %q", c.command, got, c.want)
		}
	}
}
