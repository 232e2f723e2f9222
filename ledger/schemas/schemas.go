// Package schemas holds the JSON Schemas (draft 2020-12) of the files a
// sciencejournal bundle may carry beside its paper, and validates those files
// against them (sections "Citing", "Methods and materials" and "Large data" of
// the protocol's instructions, spec/ledger-protocol.md).
//
// The node serves each schema at GET /api/v1/schemas/{name} for authors to
// check their files with, and checks every bundle it is sent with the same
// documents, so what it serves and what it enforces cannot drift apart. The
// documents are written from the protocol's instructions and its reference
// library's validators: every field, enum, pattern and limit carries over.
//
// Text limits are the documents' own minLength and maxLength, which count code
// points, as the reference's zod schemas count them (zod's .min and .max on a
// string count code points, so text outside the Basic Multilingual Plane
// weighs one, as any other character does).
//
// Validate adds what a JSON Schema cannot say but the reference checks inside
// the same file: each reference ID listed once, pointed-at files together
// within what any verifier can download, and URLs a browser could open. What
// needs another file, such as whether
// a deviation's claims are in claims.json or whether a pointed-at path
// clashes with the bundle's own files (bundle.CheckExternal), is checked
// elsewhere.
//
// claims.json has its own validator, package claims, which also checks the
// dependency graph; Validate hands claims.json to it, and the claims schema
// here is the shape that validator enforces, written out for authors.
package schemas

import (
	"embed"
	"slices"

	"github.com/agora-node/agora/ledger/claims"
)

// The schema documents, served byte for byte as they are written here.
//
//go:embed claims.json references.json materials.json deviations.json external.json manifest.json
var documents embed.FS

// names are the schemas by the name the node serves them under. The schema
// of data/external.json is served as external.json, since a name in the
// route is one path segment. manifest.json is the shape bundle.CheckManifest
// and the bundle check enforce, written out for authors (bundle's tests
// hold the two to the same verdicts).
var names = []string{"claims.json", "references.json", "materials.json", "deviations.json", "external.json", "manifest.json"}

// Names lists the schemas Document serves, in the order the instructions
// name them.
func Names() []string { return slices.Clone(names) }

// Document returns the text of the schema named name, one of Names, as the
// node serves it at GET /api/v1/schemas/{name}. The caller owns the bytes.
func Document(name string) ([]byte, bool) {
	if !slices.Contains(names, name) {
		return nil, false
	}
	text, err := documents.ReadFile(name)
	return text, err == nil
}

// An Issue is one reason a file was refused: Path is a JSON Pointer
// (RFC 6901) into the file, "" for the file as a whole, and Message says
// what is wrong in words an author can act on. It is the type package claims
// reports claims.json's issues with, so every file of a bundle is reported
// alike.
type Issue = claims.Issue
