package ledgerhttp

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
)

// Retractions ("Retracting a paper"): POST /api/v1/retractions takes an
// author's signed retraction of a paper, any version named, with the
// notice's words beside it (kept, not logged: the entry names their
// digest); GET /api/v1/retractions lists retracted papers, newest first;
// GET /api/v1/retractions/{index} shows one. Nothing is withdrawn: the
// paper stays readable, its claims Retracted (ledger/status derives it).

// RetractionReasons are why a paper is retracted.
var RetractionReasons = []string{"error", "rights", "ethics", "misconduct", "duplicate", "other"}

// MaxNotice bounds a retraction notice's text, in characters.
const MaxNotice = 4000

func (s *Server) routeRetractions() {
	s.mux.Handle("POST /api/v1/retractions", s.serve(s.retract))
	s.mux.Handle("GET /api/v1/retractions", s.serve(s.listRetractions))
	s.mux.Handle("GET /api/v1/retractions/{index}", s.serve(s.getRetraction))
}

var retractionMembers = []string{"type", "author", "bundle", "reason", "notice", "sig"}

// words reads {"text", "nonce"} from body's member name, the text at most
// limit characters, and returns its canonical JSON and digest.
func words(body map[string]any, name string, limit int) (text string, data []byte, digest string, err error) {
	w, err := objectMember(body, name)
	if err != nil {
		return "", nil, "", err
	}
	text, _ = w["text"].(string)
	nonce, _ := w["nonce"].(string)
	raw, hexErr := hex.DecodeString(nonce)
	switch {
	case len(w) != 2 || text == "":
		return "", nil, "", httpapi.BadRequest("bad_request", `%s is {"text": "...", "nonce": "<16 random bytes in hex>"}`, name)
	case strings.TrimSpace(text) != text:
		return "", nil, "", httpapi.BadRequest("bad_request", "%s.text neither starts nor ends with whitespace", name)
	case utf8.RuneCountInString(text) > limit:
		return "", nil, "", httpapi.BadRequest("bad_request", "%s.text is at most %d characters", name, limit)
	case hexErr != nil || len(raw) != 16 || nonce != strings.ToLower(nonce):
		return "", nil, "", httpapi.BadRequest("bad_request", "%s.nonce is 16 random bytes in lowercase hex (32 digits)", name)
	}
	data, err = canonical.Marshal(w)
	if err != nil {
		return "", nil, "", err
	}
	return text, data, canonical.Digest(data), nil
}

// retract answers POST /api/v1/retractions.
func (s *Server) retract(r *http.Request) (any, int, error) {
	entry, body, err := s.signedObject(r, "retraction")
	if err != nil {
		return nil, 0, err
	}
	if _, bare := body["type"]; bare {
		return nil, 0, httpapi.BadRequest("bad_request", `The body is {"entry": <retraction>, "words": {"text", "nonce"}}`)
	}
	for k := range entry {
		if !slices.Contains(retractionMembers, k) {
			return nil, 0, httpapi.BadRequest("bad_request", "No member %q in a retraction; its members are %s", k, strings.Join(retractionMembers, ", "))
		}
	}
	author, _ := entry["author"].(string)
	hash, _ := entry["bundle"].(string)
	reason, _ := entry["reason"].(string)
	notice, _ := entry["notice"].(string)
	switch {
	case entry["type"] != "retraction":
		return nil, 0, httpapi.BadRequest("bad_request", `type must be "retraction"`)
	case !protocol.IsOperatorID(author):
		return nil, 0, httpapi.BadRequest("bad_request", "author is your operator ID")
	case !claims.IsDigest(hash):
		return nil, 0, httpapi.BadRequest("bad_request", "bundle is the hash of any version of the paper")
	case !slices.Contains(RetractionReasons, reason):
		return nil, 0, httpapi.BadRequest("bad_request", "reason is one of %s", strings.Join(RetractionReasons, ", "))
	case !claims.IsDigest(notice):
		return nil, 0, httpapi.BadRequest("bad_request", "notice is the digest of the canonical JSON of words")
	}
	_, data, digest, err := words(body, "words", MaxNotice)
	if err != nil {
		return nil, 0, err
	}
	ctx := r.Context()
	op, err := s.store.Operator(ctx, author)
	if err != nil {
		return nil, 0, err
	}
	if !protocol.Verify(entry, op.Key().Key) {
		return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "bad_signature", Message: "The signature does not verify with the author's current key"}
	}
	if digest != notice {
		return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "notice_mismatch",
			Message: fmt.Sprintf("The words' canonical JSON digests to %s, not the notice %s the entry names", digest, notice)}
	}
	b, err := s.store.Bundle(ctx, hash)
	if errors.Is(err, store.ErrNotFound) || err == nil && b.State == ledger.BundleSealed {
		return nil, 0, httpapi.NotFound("No opened bundle %s: a paper is retracted once it has opened", hash)
	}
	if err != nil {
		return nil, 0, err
	}
	if b.Operator != author {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "not_author",
			Message: "Only a paper's author retracts it; to dispute its claims, challenge them (POST /api/v1/challenges)"}
	}
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	s.challenges.opening.Lock() // one retraction of a paper at a time, as one challenge of a claim
	defer s.challenges.opening.Unlock()
	unlock, err := s.acrossProcesses(ctx, "challenges.opening")
	if err != nil {
		return nil, 0, err
	}
	defer unlock()
	var prior *status.Retraction
	if err := s.derived(ctx, func(d *status.Deriver) error {
		if got, ok := d.RetractionOf(hash); ok {
			prior = &got
		}
		return nil
	}); err != nil {
		return nil, 0, err
	}
	if prior != nil {
		if earlier, err := s.store.Signed(ctx, int64(prior.Index)); err == nil && string(earlier.Entry) == string(signed) {
			return s.retractionView(ctx, *prior), http.StatusOK, nil
		}
		return nil, 0, conflict("retracted", "The paper was retracted already, at entry %d", prior.Index)
	}
	if err := s.keepBlobs(ctx, data); err != nil {
		return nil, 0, fmt.Errorf("keeping the notice: %w", err)
	}
	index, err := s.logSigned(ctx, op, entry)
	if err != nil {
		return nil, 0, err
	}
	var got status.Retraction
	if err := s.derived(ctx, func(d *status.Deriver) error {
		got, _ = d.RetractionOf(hash)
		return nil
	}); err != nil {
		return nil, 0, err
	}
	if got.Index != index {
		return nil, 0, fmt.Errorf("retraction logged at %d, derived as %d", index, got.Index)
	}
	return s.retractionView(ctx, got), http.StatusCreated, nil
}

// logSigned logs an operator's signed entry with the operator in its
// leaf, and returns its index once a checkpoint covers it.
func (s *Server) logSigned(ctx context.Context, op store.Operator, entry map[string]any) (uint64, error) {
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return 0, err
	}
	digest := canonical.Digest(signed)
	if err := s.journal.PublishKey(ctx, op); err != nil {
		return 0, err
	}
	index, err := s.journal.Append(ctx, digest, signed, entry, map[string]any{"operator": op.ID})
	if err != nil && appendedNothing(err) {
		s.dropUnbound(ctx, digest)
	}
	return index, err
}

// retractionView is a retraction as the routes answer it: the entry, the
// notice's words, and every version of the paper it covers.
func (s *Server) retractionView(ctx context.Context, r status.Retraction) map[string]any {
	var text any
	if data, err := s.readBlob(r.Notice); err == nil {
		if v, err := canonical.Parse(data); err == nil {
			text = v.(map[string]any)["text"]
		}
	}
	versions := []any{r.Bundle}
	if b, err := s.store.Bundle(ctx, r.Bundle); err == nil {
		versions = stringsAny(b.Versions)
	}
	return map[string]any{"retraction": r.Index, "bundle": r.Bundle, "versions": versions, "author": r.Author,
		"reason": r.Reason, "notice": r.Notice, "text": text, "retracted_at": tlog.FormatTimestamp(r.At), "by": "author"}
}

// listRetractions answers GET /api/v1/retractions.
func (s *Server) listRetractions(r *http.Request) (any, int, error) {
	var list []status.Retraction
	if err := s.derived(r.Context(), func(d *status.Deriver) error {
		list = d.Retractions()
		return nil
	}); err != nil {
		return nil, 0, err
	}
	out := make([]any, len(list))
	for i, rt := range list {
		out[i] = s.retractionView(r.Context(), rt)
	}
	return map[string]any{"retractions": out}, http.StatusOK, nil
}

// getRetraction answers GET /api/v1/retractions/{index}.
func (s *Server) getRetraction(r *http.Request) (any, int, error) {
	index, err := strconv.ParseUint(r.PathValue("index"), 10, 63)
	if err != nil {
		return nil, 0, httpapi.BadRequest("bad_request", "%q is not a log index", r.PathValue("index"))
	}
	var found *status.Retraction
	if err := s.derived(r.Context(), func(d *status.Deriver) error {
		for _, rt := range d.Retractions() {
			if rt.Index == index {
				found = &rt
			}
		}
		return nil
	}); err != nil {
		return nil, 0, err
	}
	if found == nil {
		return nil, 0, httpapi.NotFound("No retraction is logged at %d", index)
	}
	return s.retractionView(r.Context(), *found), http.StatusOK, nil
}

// bundleRetraction is a bundle's `retraction`: its paper's retraction, or
// null.
func (s *Server) bundleRetraction(ctx context.Context, hash string) (any, error) {
	var out any
	err := s.derived(ctx, func(d *status.Deriver) error {
		if r, ok := d.RetractionOf(hash); ok {
			out = map[string]any{"retraction": r.Index, "by": "author", "author": r.Author, "reason": r.Reason, "notice": r.Notice,
				"retracted_at": tlog.FormatTimestamp(r.At)}
		}
		return nil
	})
	return out, err
}
