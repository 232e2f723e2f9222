package bundle

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// naiveFind is what scanner.find must return, found the slow way: every
// needle tried at every offset.
func naiveFind(needles []needle, data []byte) []finding {
	var found [githubLogin + 1]finding
	for i := range needles {
		n := &needles[i]
		for start := 0; start+len(n.text) <= len(data); start++ {
			if asciiEqualFold(data[start:start+len(n.text)], n.text) && n.standsAlone(data, start) {
				found[n.kind].add(n, start)
			}
		}
	}
	var out []finding
	for _, f := range found {
		if f.count > 0 {
			out = append(out, f)
		}
	}
	return out
}

// FuzzAnonymity checks the automaton against naiveFind on any text and any
// identifiers, and that each needle, written alone into any text, is found.
func FuzzAnonymity(f *testing.F) {
	const op = "5e1f0c2a9b7d4e3f8a6c1b2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5"
	f.Add([]byte("by op:5e1f0c2a at lab.example.org, @octocat, github.com:OctoCat/x"), "example.org", "octocat", "op:"+op)
	f.Add([]byte("notexample.org example.org.uk me@octocat.dev op:5e1f0c2a9b"), "Example.ORG.", "@OctoCat", op)
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaa@a.a@a a.github.io"), "a", "a", "aaaaaaaaaaaaaaaaaaaa")
	f.Add([]byte{0xff, 0x00, 'o', 'p', ':', '5', 'e'}, "\xffé.x", "a-b", "op:")
	long := []byte(strings.Repeat("lorem ipsum github.com/octocat op:5e1f0c2a9b7d example.org ", 40))
	f.Add(long, "example.org", "octocat", "op:"+op)
	f.Fuzz(func(t *testing.T, text []byte, domain, login, operator string) {
		ids := Identifiers{
			Operators:    []string{operator, "op:" + op},
			KeyDigests:   []string{"sha256:" + strings.Repeat("ab", 32)},
			Domains:      []string{domain},
			GitHubLogins: []string{login},
		}
		sc := newScanner(ids)
		want := naiveFind(sc.needles, text)
		if got := sc.find(text); !slices.Equal(got, want) {
			t.Fatalf("%q: the scanner found %+v, trying every offset %+v", text, got, want)
		}
		if got := sc.findStriped(text, 0); !slices.Equal(got, want) {
			t.Fatalf("%q: the scanner in stripes found %+v, trying every offset %+v", text, got, want)
		}
		for _, n := range sc.needles {
			planted := slices.Concat(text, []byte(" "), n.text, []byte(" "))
			if !slices.ContainsFunc(sc.find(planted), func(f finding) bool { return f.kind == n.kind }) {
				t.Errorf("%q written alone after %q is not found", n.text, text)
			}
		}
		// Any file, path and all, is scanned without a panic.
		CheckAnonymity(map[string][]byte{string(text): text, "paper.md": text}, ids)
	})
}

// TestStripes plants identifiers at and around the edges of the four
// stripes a large file is scanned in, and checks every match is found once.
func TestStripes(t *testing.T) {
	const op = "5e1f0c2a9b7d4e3f8a6c1b2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5"
	sc := newScanner(Identifiers{Operators: []string{"op:" + op}, Domains: []string{"example.org"}, GitHubLogins: []string{"octocat"}})
	plants := []string{"op:" + op, "example.org", "@octocat", "github.com/octocat", op[:40]}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{4 * sc.longest, 1000, 4099, 1 << 14, 1<<14 + 3} {
		chunk := size / 4
		for trial := range 50 {
			data := make([]byte, size)
			for i := range data {
				data[i] = "abcdef0123 .@:/-"[rng.IntN(16)]
			}
			for range 3 {
				plant := plants[rng.IntN(len(plants))]
				// Near a stripe's edge, where a needle straddles two parts.
				at := (1+rng.IntN(3))*chunk - rng.IntN(len(plant)+2)
				if trial%5 == 0 {
					at = rng.IntN(size)
				}
				at = max(0, min(at, size-len(plant)))
				copy(data[at:], plant)
			}
			want := naiveFind(sc.needles, data)
			if got := sc.findStriped(data, 0); !slices.Equal(got, want) {
				t.Fatalf("size %d: in stripes %+v, trying every offset %+v", size, got, want)
			}
			if got := sc.findStriped(data, math.MaxInt); !slices.Equal(got, want) {
				t.Fatalf("size %d: in one stripe %+v, trying every offset %+v", size, got, want)
			}
		}
	}
}

// BenchmarkAnonymity scans a 10 MB bundle, the most a submission carries,
// for the identifiers of an organization with three operators, two keys
// each, two domains and two GitHub accounts. Its paper, code and data are
// made of the characters those identifiers use, so the automaton is seldom
// idle, and a few of them name the author.
func BenchmarkAnonymity(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	hex := func() string {
		const digits = "0123456789abcdef"
		out := make([]byte, 64)
		for i := range out {
			out[i] = digits[rng.IntN(16)]
		}
		return string(out)
	}
	var ids Identifiers
	for range 3 {
		ids.Operators = append(ids.Operators, "op:"+hex())
		ids.KeyDigests = append(ids.KeyDigests, "sha256:"+hex(), "sha256:"+hex())
	}
	ids.Domains = []string{"example.org", "lab-of-things.ac.uk"}
	ids.GitHubLogins = []string{"octocat", "example-lab"}

	words := strings.Fields(`the of and a in to is was for on that with by as at from this are be
		model data example sample result loss accuracy github com org lab things octo cat op sha256
		deadbeef 0x1f 3.14159 2024 figure table method https www io e-mail @ : / . - _`)
	files := make(map[string][]byte)
	size := 0
	for i := 0; size < 10<<20; i++ {
		var sb strings.Builder
		for sb.Len() < 256<<10 {
			sb.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(12) == 0 {
				sb.WriteByte('\n')
			} else {
				sb.WriteByte(' ')
			}
		}
		path := fmt.Sprintf("data/part-%02d.txt", i)
		if i%7 == 3 {
			sb.WriteString(" see https://github.com/octocat/analysis\n")
		}
		files[path] = []byte(sb.String())
		size += sb.Len()
	}
	if got := CheckAnonymity(files, ids); len(got) == 0 {
		b.Fatal("the planted links were not found")
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		CheckAnonymity(files, ids)
	}
}
