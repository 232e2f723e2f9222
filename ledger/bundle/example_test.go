package bundle_test

import (
	"fmt"

	"github.com/agora-node/agora/ledger/bundle"
)

// The first case of the protocol's bundle-vectors.json: a bundle with no
// verification inputs, whose inputs digest is therefore that of {}.
func ExampleDigest() {
	d, err := bundle.Digest(map[string][]byte{
		"manifest.json": []byte(`{"fields":["mathematics"]}`),
		"paper.md":      []byte("# Summary\n"),
		"claims.json":   []byte(`[]`),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Bundle)
	fmt.Println(d.VerificationInputs)
	// Output:
	// sha256:821822013f774ebdd5877fcc0c68e20c314fa407047854c316e4e9159946ace6
	// sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a
}

func ExampleCheckPaths() {
	err := bundle.CheckPaths([]string{"paper.md", "code/Eval.py", "code/eval.py"})
	fmt.Println(err)
	// Output:
	// bundle paths "code/Eval.py" and "code/eval.py": differ only in letter case, which a case-insensitive file system cannot hold apart
}
