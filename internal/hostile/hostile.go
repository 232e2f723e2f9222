// Package hostile generates the hostile-input corpus that the bundle check
// (spec/ledger-protocol.md, "Publishing, step by step": POST
// /api/v1/bundles/check) must answer in bounded time and memory. Each case is
// a small text file under ledger/paper/testdata/hostile/ describing how to
// build its input, so a 10 MB input is a few lines in the repository, not
// 10 MB of it.
//
// A case file holds "key: value" lines; string values are Go-quoted, and
// lines starting with # are comments, the first of which says why the case
// exists:
//
//	# A run of '>' nests blockquotes; goldmark's openBlocks grew with its square.
//	file: paper.md
//	prefix: "# Summary\n\n"
//	unit: ">"
//	repeat: 9500000
//	suffix: "\n"
//	status: 413
//	code: too_large
//
// The input is prefix, then repeat copies of unit, then suffix. With indent
// set, the k-th copy (from 0) is preceded by indent written k mod cycle
// times (k times when cycle is 0): nested lists. {k} in unit is replaced
// by the copy's number: distinct keys. With sep set, copies are
// joined by it: JSON arrays. file is the bundle path the input replaces or
// adds; status and code are the answer the bundle check must give.
package hostile

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Case is one hostile input and the answer it must get.
type Case struct {
	Name   string // the case file's name, without .txt
	Why    string // the file's first comment
	File   string // the bundle path the input goes in
	Prefix string
	Unit   string
	Repeat int
	Sep    string
	Indent string
	Cycle  int
	Suffix string
	Status int    // the HTTP status the bundle check must answer
	Code   string // its error code, "" for a 200

	numbered bool // Unit holds {k}, replaced by the copy's number
}

// Load reads every case in dir (its *.txt files), in the order of their
// names.
func Load(dir string) ([]Case, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var cases []Case
	for _, name := range names {
		c, err := parseFile(name)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("hostile: no cases in %s", dir)
	}
	return cases, nil
}

func parseFile(name string) (Case, error) {
	f, err := os.Open(name)
	if err != nil {
		return Case{}, err
	}
	defer f.Close()
	c := Case{Name: strings.TrimSuffix(filepath.Base(name), ".txt"), Repeat: 1}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if comment, ok := strings.CutPrefix(text, "#"); ok {
			if c.Why == "" {
				c.Why = strings.TrimSpace(comment)
			}
			continue
		}
		key, value, ok := strings.Cut(text, ":")
		if !ok {
			return Case{}, fmt.Errorf("%s:%d: want key: value", name, line)
		}
		if err := c.set(strings.TrimSpace(key), strings.TrimSpace(value)); err != nil {
			return Case{}, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return Case{}, err
	}
	c.numbered = strings.Contains(c.Unit, "{k}")
	if c.File == "" || c.Status == 0 {
		return Case{}, fmt.Errorf("%s: a case names its file and status", name)
	}
	return c, nil
}

func (c *Case) set(key, value string) error {
	quoted := func(dst *string) error {
		s, err := strconv.Unquote(value)
		if err != nil {
			return fmt.Errorf("%s must be a Go-quoted string: %w", key, err)
		}
		*dst = s
		return nil
	}
	number := func(dst *int) error {
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return fmt.Errorf("%s must be a non-negative integer, not %q", key, value)
		}
		*dst = n
		return nil
	}
	switch key {
	case "file":
		c.File = value
	case "code":
		c.Code = value
	case "prefix":
		return quoted(&c.Prefix)
	case "unit":
		return quoted(&c.Unit)
	case "sep":
		return quoted(&c.Sep)
	case "indent":
		return quoted(&c.Indent)
	case "suffix":
		return quoted(&c.Suffix)
	case "repeat":
		return number(&c.Repeat)
	case "cycle":
		return number(&c.Cycle)
	case "status":
		return number(&c.Status)
	default:
		return fmt.Errorf("unknown key %q", key)
	}
	return nil
}

// Input builds the case's input.
func (c Case) Input() []byte {
	var b bytes.Buffer
	b.WriteString(c.Prefix)
	for k := range c.Repeat {
		if k > 0 {
			b.WriteString(c.Sep)
		}
		if c.Indent != "" {
			depth := k
			if c.Cycle > 0 {
				depth = k % c.Cycle
			}
			for range depth {
				b.WriteString(c.Indent)
			}
		}
		if c.numbered {
			b.WriteString(strings.ReplaceAll(c.Unit, "{k}", strconv.Itoa(k)))
		} else {
			b.WriteString(c.Unit)
		}
	}
	b.WriteString(c.Suffix)
	return b.Bytes()
}

// Sized is the case with its repeat count scaled so that its input is about
// n bytes: how a family's cost is measured at several sizes.
func (c Case) Sized(n int) Case {
	if c.Indent != "" && c.Cycle == 0 {
		// Indents grow with the square of the count: solve for it.
		per := len(c.Unit) + len(c.Sep)
		k := 1
		for (k*per + k*k/2*len(c.Indent)) < n {
			k++
		}
		c.Repeat = k
		return c
	}
	per := len(c.Unit) + len(c.Sep)
	if c.Indent != "" {
		per += len(c.Indent) * c.Cycle / 2
	}
	c.Repeat = max(1, (n-len(c.Prefix)-len(c.Suffix))/max(1, per))
	return c
}
