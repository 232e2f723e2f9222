package bundle_test

import (
	"fmt"

	"github.com/agora-node/agora/ledger/bundle"
)

func ExampleCheckAnonymity() {
	files := map[string][]byte{
		"manifest.json": []byte(`{"fields": ["ecology"]}`),
		"paper.md":      []byte("# Summary\n\nCode at https://github.com/Example-Lab/dunes.\n"),
		"code/fit.py":   []byte("# a fit of notexample.org's public data\n"),
	}
	author := bundle.Identifiers{Domains: []string{"example.org"}, GitHubLogins: []string{"example-lab"}}
	for _, issue := range bundle.CheckAnonymity(files, author) {
		fmt.Printf("%s: %s\n", issue.File, issue.Message)
	}
	// Output:
	// paper.md: names who wrote the bundle: it holds a GitHub account of your organization, as a github.com/<account> link, first at line 3. Verifiers judge the work without knowing whose it is, so only manifest.json and signature may say who you are: take it out, and cite your own earlier work by claim ID or DOI
}
