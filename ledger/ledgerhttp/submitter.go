package ledgerhttp

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/store"
)

// verifySubmitter checks who sent a submission before anything reads its
// content: the key manifest.json names is an operator's here, the operator
// has an identity, and the signature verifies with its current key over
// the bundle hash. The spec's order of a submission's errors leaves this
// free (spec/ledger-protocol.md, "Publishing, step by step", step 7: 403
// for an unknown key or no identity, 422 for a bundle problem), so a
// submission no operator signed costs the node the bundle hash and one
// small JSON file, never the Markdown and claims checks. It returns the
// submitter's operator ID.
func (s *Server) verifySubmitter(ctx context.Context, req *bundleRequest) (string, error) {
	problem := func(file, message string) error {
		return &httpapi.IssuesError{
			Err:    httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_bundle", Message: "The bundle has problems: " + file + ": " + message},
			Issues: []any{map[string]any{"file": file, "path": "", "message": message}},
		}
	}
	inline := make(map[string][]byte, len(req.files))
	for p, data := range req.files {
		if p != bundle.SignatureFile {
			inline[p] = data
		}
	}
	digests, err := bundle.DigestWithUploads(inline, req.uploaded)
	if err != nil {
		return "", &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_bundle", Message: err.Error(), Err: err}
	}
	keyDigest := ""
	if data, ok := req.files["manifest.json"]; ok && len(data) <= MaxParsedJSONBytes {
		if v, err := canonical.Parse(bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})); err == nil {
			if m, ok := v.(map[string]any); ok {
				keyDigest, _ = m["operator_key_digest"].(string)
			}
		}
	}
	if keyDigest == "" {
		return "", problem("manifest.json", "manifest.json must name your key by operator_key_digest, and the node reads it before anything else; POST /api/v1/bundles/check lists every problem")
	}
	op, err := s.store.OperatorByKey(ctx, keyDigest)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "", &httpapi.Error{Status: http.StatusForbidden, Code: "unknown_key",
			Message: "No operator here holds the key manifest.json names: register it first with POST /api/v1/operators"}
	case err != nil:
		return "", err
	}
	if _, ok := op.Identity(); !ok {
		return "", &httpapi.Error{Status: http.StatusForbidden, Code: "no_identity",
			Message: "Publishing takes an identity: prove one with POST /api/v1/operators/" + op.ID + "/identity"}
	}
	sig, ok := req.files[bundle.SignatureFile]
	if !ok {
		return "", problem(bundle.SignatureFile, "the bundle has no signature, which every bundle needs")
	}
	key := op.Key()
	payload, err := canonical.Marshal(map[string]any{"type": "bundle", "bundle": digests.Bundle})
	if err != nil {
		return "", err
	}
	if !hybrid.Verify(strings.TrimSpace(string(sig)), payload, key.Key) {
		return "", problem(bundle.SignatureFile, `the signature does not verify: sign the canonical JSON of {"type": "bundle", "bundle": "`+digests.Bundle+`"} with the key `+key.Digest)
	}
	return op.ID, nil
}
