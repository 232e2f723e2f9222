package paper

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agora-node/agora/internal/hostile"
)

// FuzzFlags reads any text as paper.md: the checks never panic, and every
// place they name lies in the text, where the number they name is written.
func FuzzFlags(f *testing.F) {
	for _, seed := range []string{
		"# Summary\n\nLoss fell by 0.03 in twenty-seven runs.\n",
		"## Results\r\n\r\nUp 5 and\r6 then\n7, and ten\r\nmillion.\r\n",
		"# Results\n\n**Table 1.** Loss.\n| a | b |\n| - | - |\n| 1 | 2 | 3 |\n\n$$\nx \\tag{1}\n$$\n\nEq. (1) and Table 1.",
		"# Claims\n\n- **C1:** [a 5](doi:10.1/x) <https://x.org/6> https://y.org/7 $8$ `9` <b>10</b> ![Fig. 11](f.png)\n\n[r]: pmid:12",
		"# Results\n\n> $$\n> 1\n\n- $a\n  b$ 2\n\n[^1]: 3\n\n🐝 rose by 3\u200b points; 𝑥2 and x\u202e4.",
		"Title\n=====\n\nResults\n---\n\n| x |\n|---|\n| 22 |\n\t15\n---\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, paper string) {
		flags := Flags(map[string][]byte{"paper.md": []byte(paper), "references.json": []byte(`[]`)}, nil)
		if !utf8.ValidString(paper) {
			return
		}
		text := strings.TrimPrefix(paper, "\uFEFF")
		starts := lineStarts(text)
		for _, o := range OrphanNumbers(text) {
			if o.Line < 1 || o.Line > len(starts) {
				t.Fatalf("orphan %+v: line outside the text's %d lines", o, len(starts))
			}
			lineStart := starts[o.Line-1]
			lineEnd := len(text)
			if o.Line < len(starts) {
				lineEnd = starts[o.Line]
			}
			line := text[lineStart:lineEnd]
			if o.Column < 1 || o.Column > utf8.RuneCountInString(line)+1 {
				t.Fatalf("orphan %+v: column outside line %q", o, line)
			}
			offset := lineStart + len(string([]rune(line)[:o.Column-1]))
			if !strings.HasPrefix(text[offset:], o.Number) {
				t.Fatalf("orphan %+v: the text there is %q", o, text[offset:min(len(text), offset+len(o.Number)+5)])
			}
		}
		if len(flags.OrphanNumbers) > MaxOrphanNumbers {
			t.Fatalf("%d orphan numbers listed", len(flags.OrphanNumbers))
		}
		for _, h := range ScanText("paper.md", paper) {
			if h.Line < 1 || h.Line > len(lineStarts(paper)) || h.Column < 1 {
				t.Fatalf("hidden finding %+v outside the text", h)
			}
		}
		_ = CheckLength([]byte(paper))
	})
}

// The budget of one input to FuzzCheckPaper, in proportion to its length:
// about ten times what the checks cost per byte of ordinary Markdown (some
// 1 µs and 0.4 KB), so an input whose cost grows faster than its length
// fails long before it could cost the node a second.
const (
	fuzzCPUBase    = 50 * time.Millisecond
	fuzzCPUPerByte = 10 * time.Microsecond
	fuzzAllocBase  = 2 << 20
	fuzzAllocByte  = 4 << 10
)

// FuzzCheckPaper runs what the bundle check runs on paper.md, the limits
// first (CheckMarkdown) and then, on what they let through, CheckLength,
// Flags and ScanHidden, and fails any input that costs more CPU time or
// allocation than its length allows. Seeds are the hostile corpus's
// Markdown cases, cut down to a few kilobytes.
func FuzzCheckPaper(f *testing.F) {
	cases, err := hostile.Load("testdata/hostile")
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if IsMarkdown(c.File) {
			f.Add(c.Sized(4000).Input())
		}
	}
	f.Add([]byte(realisticPaper()))
	f.Fuzz(func(t *testing.T, text []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := hostile.ProcessCPU()
		if CheckMarkdown("paper.md", text, true) == nil {
			CheckLength(text)
			Flags(map[string][]byte{"paper.md": text}, nil)
			ScanHidden("paper.md", text)
		}
		cpu := hostile.ProcessCPU() - start
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		if budget := fuzzCPUBase + time.Duration(len(text))*fuzzCPUPerByte; cpu > budget {
			t.Errorf("%d bytes took %s of CPU; the budget is %s", len(text), cpu, budget)
		}
		if budget := uint64(fuzzAllocBase + len(text)*fuzzAllocByte); alloc > budget {
			t.Errorf("%d bytes allocated %d bytes; the budget is %d", len(text), alloc, budget)
		}
	})
}
