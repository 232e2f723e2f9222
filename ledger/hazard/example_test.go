package hazard_test

import (
	"fmt"
	"strings"

	"github.com/agora-node/agora/ledger/hazard"
)

// A manifest declares the rubric it was screened with by its digest; the
// node compares that with the digest of the text it serves now.
func ExampleDigest() {
	declared := hazard.Digest() // as an author copies it from GET /api/v1/hazard-rubric
	fmt.Println(strings.HasPrefix(declared, "sha256:"), declared == hazard.Digest())
	fmt.Println(strings.SplitN(string(hazard.Text()), "\n", 2)[0])
	// Output:
	// true true
	// # Agora hazard rubric
}
