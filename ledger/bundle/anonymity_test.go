package bundle_test

import (
	"strings"
	"testing"

	"github.com/agora-node/agora/ledger/bundle"
)

const (
	opHex    = "5e1f0c2a9b7d4e3f8a6c1b2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5"
	keyHex   = "aa11bb22cc33dd44ee55ff6600778899aabbccddeeff00112233445566778899"
	otherHex = "0000111122223333444455556666777788889999aaaabbbbccccddddeeeeffff"
)

var author = bundle.Identifiers{
	Operators:    []string{"op:" + opHex},
	KeyDigests:   []string{"sha256:" + keyHex},
	Domains:      []string{"example.org"},
	GitHubLogins: []string{"octocat"},
}

// The kinds of identifier, as the messages say them.
const (
	saysOperator = "the ID of an operator of your organization"
	saysKey      = "the digest of an operator key of your organization"
	saysDomain   = "a domain of your organization"
	saysGitHub   = "a GitHub account of your organization"
)

// scan checks one file, paper.md, holding text.
func scan(text string) []bundle.AnonymityIssue {
	return bundle.CheckAnonymity(map[string][]byte{"paper.md": []byte(text)}, author)
}

func TestAnonymityFinds(t *testing.T) {
	for _, c := range []struct {
		text, says string
	}{
		{"Submitted by op:" + opHex + ".", saysOperator},
		{"operator " + strings.ToUpper(opHex) + " ran it", saysOperator},
		{`{"operator": "OP:` + opHex + `"}`, saysOperator},
		{"see op:" + opHex[:8] + "… on the forum", saysOperator},
		{"see op:" + opHex[:20] + ", the start of our ID", saysOperator},
		{"key_digest = 'sha256:" + keyHex + "'", saysKey},
		{"0x" + keyHex, saysKey},
		{"Contact: example.org", saysDomain},
		{"Data at https://www.example.org/data.csv", saysDomain},
		{"Write to alice@example.org for the code.", saysDomain},
		{"Write to ALICE@Lab.Example.ORG for the code.", saysDomain},
		{"hosted on our site (example.org).", saysDomain},
		{"Our lab is example.org.", saysDomain},
		{`url = "https://api.example.org:8443/v1"`, saysDomain},
		{"«example.org»", saysDomain},
		{"Code: https://github.com/octocat/analysis", saysGitHub},
		{"git clone git@github.com:OctoCat/analysis.git", saysGitHub},
		{"https://github.com/octocat", saysGitHub},
		{"pip install git+https://GitHub.com/octocat/tool@v1", saysGitHub},
		{"curl https://raw.githubusercontent.com/octocat/x/main/a.csv", saysGitHub},
		{"See octocat.github.io for figures.", saysGitHub + ", as <account>.github.io"},
		{"Thanks to @octocat for the review.", saysGitHub + ", as @<account>"},
		{"(@OctoCat)", saysGitHub + ", as @<account>"},
	} {
		issues := scan(c.text)
		if len(issues) != 1 || issues[0].File != "paper.md" || !strings.Contains(issues[0].Message, c.says) {
			t.Errorf("%q: got %+v, want one issue for paper.md saying %q", c.text, issues, c.says)
		}
	}
}

func TestAnonymityLeavesAlone(t *testing.T) {
	for _, text := range []string{
		"",
		"A study of notexample.org and my-example.org.",
		"example.org.uk is another domain, and example.organic another word.",
		"sub_example.org, example.org-mirror and example.orgs",
		"See github.com/octocat-fan, github.com/octocats and notgithub.com/octocat.",
		"octocat is a common word here; so is github.",
		"Mail me@octocat.dev or someone@octocat.",
		"octocat.github.io.example is not the pages site",
		// Hex near the ID but not it.
		"op:" + opHex[:7] + " is too short to say whose it is",
		"op:" + opHex[:8] + "f0f0 goes on differently",
		"the hash " + opHex + "0 is longer",
		"the hash a" + keyHex + " is longer",
		"op:" + otherHex + " is someone else",
		"loop:" + opHex[:8] + " is another word",
	} {
		if issues := scan(text); issues != nil {
			t.Errorf("%q: got %+v", text, issues)
		}
	}
}

func TestAnonymityReports(t *testing.T) {
	files := map[string][]byte{
		"manifest.json":          []byte(`{"operator_key_digest": "sha256:` + keyHex + `"}`),
		"signature":              []byte("op:" + opHex),
		"paper.md":               []byte("# Title\n\nSummary.\n\nData from example.org and example.org;\nmore at data.example.org.\n"),
		"code/run.py":            []byte("# by @octocat\nKEY = 'sha256:" + keyHex + "'\nURL = 'https://example.org'\n"),
		"data/example.org/a.csv": []byte("a,b\n1,2\n"),
		"results/R1.json":        []byte(`{"loss": 0.1}`),
		"data/blob.bin":          append([]byte{0xff, 0xfe, 0x00}, []byte("op:"+opHex)...),
		"references.json":        []byte(`[]`),
		"proofs/Main.lean":       []byte("theorem t : True := trivial\n"),
		"env/requirements.txt":   []byte("numpy\n"),
	}
	got := bundle.CheckAnonymity(files, author)
	want := []struct{ file, says string }{
		{"code/run.py", saysKey + ", first at line 2."},
		{"code/run.py", saysDomain},
		{"code/run.py", saysGitHub + ", as @<account>, first at line 1."},
		{"data/blob.bin", saysOperator + ", first at byte 6."},
		{"data/example.org/a.csv", "its path names who wrote the bundle: it holds " + saysDomain},
		{"paper.md", saysDomain},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d issues, want %d:\n%+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].File != w.file || !strings.Contains(got[i].Message, w.says) {
			t.Errorf("issue %d is %+v; want %s …%s…", i, got[i], w.file, w.says)
		}
	}
	if m := got[len(got)-1].Message; !strings.Contains(m, "first at line 5 (3 times in all)") {
		t.Errorf("paper.md: %q does not say where and how often", m)
	}
	// No issue repeats what it found: the author's identifiers are theirs,
	// and an issue list may be shown beside the bundle.
	for _, is := range got {
		for _, secret := range []string{opHex, opHex[:8], keyHex, "example.org", "octocat"} {
			if strings.Contains(strings.ToLower(is.Message), secret) {
				t.Errorf("%s: %q repeats an identifier", is.File, is.Message)
			}
		}
	}
}

func TestAnonymityIdentifiers(t *testing.T) {
	files := map[string][]byte{"paper.md": []byte("a plain paper about example.org, by op:" + opHex)}
	if got := bundle.CheckAnonymity(files, bundle.Identifiers{}); got != nil {
		t.Errorf("no identifiers: got %+v", got)
	}
	// Blank identifiers name nobody, rather than everything.
	blank := bundle.Identifiers{Operators: []string{"", " "}, KeyDigests: []string{""}, Domains: []string{"", "."}, GitHubLogins: []string{"", "@"}}
	if got := bundle.CheckAnonymity(files, blank); got != nil {
		t.Errorf("blank identifiers: got %+v", got)
	}
	// Written loosely, they still match.
	loose := bundle.Identifiers{Domains: []string{" Example.ORG. "}, GitHubLogins: []string{"@OctoCat"}, Operators: []string{strings.ToUpper(opHex)}}
	files["code/a.py"] = []byte("# github.com/octocat\n")
	got := bundle.CheckAnonymity(files, loose)
	if len(got) != 3 || !strings.Contains(got[0].Message, saysGitHub) || !strings.Contains(got[1].Message, saysOperator) || !strings.Contains(got[2].Message, saysDomain) {
		t.Errorf("loose identifiers: got %+v", got)
	}
	// A subdomain is found for its domain, not the other way round.
	sub := bundle.Identifiers{Domains: []string{"lab.example.org"}}
	if got := bundle.CheckAnonymity(map[string][]byte{"paper.md": []byte("see example.org and www.example.org")}, sub); got != nil {
		t.Errorf("the parent of a proven domain: got %+v", got)
	}
	if got := bundle.CheckAnonymity(map[string][]byte{"paper.md": []byte("see data.lab.example.org")}, sub); len(got) != 1 {
		t.Errorf("a subdomain of a proven domain: got %+v", got)
	}
	// Every operator and key of the organization counts.
	org := bundle.Identifiers{Operators: []string{"op:" + otherHex, "op:" + opHex}}
	if got := bundle.CheckAnonymity(map[string][]byte{"paper.md": []byte(otherHex)}, org); len(got) != 1 {
		t.Errorf("a second operator: got %+v", got)
	}
}
