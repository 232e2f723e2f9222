// Package hazard holds the node's hazard rubric: the public text that
// authors, verifiers, panels and flaggers all apply to screen work for child
// sexual abuse material, meaningful help toward weapons of mass harm
// (biological, chemical, radiological, nuclear, cyber), private data, and
// copies of others' work (section "The hazard screen" of the protocol's
// instructions, spec/ledger-protocol.md). The node serves it at GET /api/v1/hazard-rubric.
//
// The rubric is written in the open, in rubric.md beside this file, and
// embedded byte for byte. Its digest is "sha256:" and the hex SHA-256 of
// exactly those bytes, so it changes whenever the text changes in any way,
// a single space or line ending included. Authors declare the digest of the
// rubric they screened with in their manifest's hazard_screen, and the node
// accepts only the current digest: a change to the text turns away every
// bundle screened under the old one until its author screens it again.
// That is deliberate, since a screen is only as good as the text it
// applied, so change the text only to change the screen.
package hazard

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
)

//go:embed rubric.md
var rubric []byte

// digest is computed once: the text cannot change while the node runs.
var digest = func() string {
	sum := sha256.Sum256(rubric)
	return "sha256:" + hex.EncodeToString(sum[:])
}()

// Text returns the rubric, Markdown in UTF-8, exactly as the node serves
// it. The caller owns the bytes.
func Text() []byte { return bytes.Clone(rubric) }

// Digest is "sha256:" and the hex SHA-256 of Text: the value a manifest's
// hazard_screen.rubric must hold for the node to accept the bundle.
func Digest() string { return digest }
