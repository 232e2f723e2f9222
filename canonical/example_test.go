package canonical_test

import (
	"fmt"

	"github.com/agora-node/agora/canonical"
)

func ExampleCanonicalize() {
	out, err := canonical.Canonicalize([]byte(`{"b": 1.0, "a": [1e-7, 1e+21, "\u00e9\n"]}`))
	fmt.Println(string(out), err)
	// Output: {"a":[1e-7,1e+21,"é\n"],"b":1} <nil>
}

func ExampleParse() {
	_, err := canonical.Parse([]byte(`{"a": 1, "\u0061": 2}`))
	fmt.Println(err)
	// Output: not I-JSON: duplicate object member name "a" (at byte 9)
}
