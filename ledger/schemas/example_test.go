package schemas_test

import (
	"fmt"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/schemas"
)

func ExampleValidate() {
	text := []byte(`[
		{"kind": "antibody", "name": "Anti-NeuN, clone A60", "rrid": "RRID:AB_2298772"},
		{"kind": "reagent", "name": "PBS"}
	]`)
	v, err := canonical.Parse(text)
	if err != nil {
		panic(err)
	}
	for _, issue := range schemas.Validate("materials.json", v) {
		fmt.Printf("%s: %s\n", issue.Path, issue.Message)
	}
	// Output:
	// /1/kind: "reagent" is not one of antibody, cell_line, organism, sample, chemical, kit, oligonucleotide, plasmid, instrument, software, other
}

func ExampleDocument() {
	doc, ok := schemas.Document("deviations.json")
	fmt.Println(ok, len(doc) > 0)
	_, ok = schemas.Document("paper.md")
	fmt.Println(ok)
	// Output:
	// true true
	// false
}
