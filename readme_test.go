package agora_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// exampleBlock is a README block that shows a file of examples/: a marker
// comment naming the file, then a fenced block holding it.
var exampleBlock = regexp.MustCompile("(?s)<!-- example: (examples/[^ ]+) -->\n```[a-z]*\n(.*?)```\n")

// TestReadmeExamples keeps the README's examples the files in examples/,
// byte for byte, so what a newcomer copies from the README is what the
// tests run (the first-hour script checks, submits and replays those
// files), and checks that every examples/ path the README names exists.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := exampleBlock.FindAllSubmatch(readme, -1)
	shown := map[string]bool{}
	for _, m := range blocks {
		path, text := string(m[1]), m[2]
		shown[path] = true
		file, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("the README shows %s, which is not there: %v", path, err)
			continue
		}
		if string(file) != string(text) {
			t.Errorf("the README's %s is not the file's text:\n--- README\n%s--- file\n%s", path, text, file)
		}
	}
	for _, want := range []string{"examples/study/manifest.json", "examples/study/claims.json", "examples/library/01-thread.json", "examples/hooks/claude-b-03-npm-test-failed.json"} {
		if !shown[want] {
			t.Errorf("the README does not show %s", want)
		}
	}
	for _, path := range regexp.MustCompile(`examples/[A-Za-z0-9_./-]*[A-Za-z0-9]`).FindAllString(string(readme), -1) {
		if _, err := os.Stat(strings.TrimSuffix(path, ".")); err != nil {
			t.Errorf("the README names %s: %v", path, err)
		}
	}
}
