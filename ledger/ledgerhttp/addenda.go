package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/paper"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
)

// Addenda ("Adding an addendum"): POST /api/v1/addenda takes an author's
// signed addendum to its own opened bundle with its words beside it (kept
// here, the log holding their digest), logs it at once and prepays its
// screens; GET /api/v1/addenda/{index} says where it stands. Screens come
// as jobs (addendum_screens.go); ledger/status derives each addendum's
// state from the log, and a bundle's `addenda` are those up.

// Screening an addendum: AddendumScreens screens by other organizations at
// AddendumScreenCredits each, and one more in reserve for a tie.
const (
	AddendumScreens       = 2
	AddendumScreenCredits = 1
	AddendumPrice         = (AddendumScreens + 1) * AddendumScreenCredits
)

// addendumBook is the node's own state for addenda: opening is held from
// an addendum's checks to its screens, so one sent twice at once is logged
// once; under settleMu, settled are those whose credit this process
// settled and made how many screen jobs it knows each has (after a
// restart each is settled or made once more, which moves nothing).
type addendumBook struct {
	opening  sync.Mutex
	settleMu sync.Mutex
	settled  map[uint64]bool
	made     map[uint64]int
}

func (s *Server) routeAddenda() {
	s.mux.Handle("POST /api/v1/addenda", s.serve(s.addAddendum))
	s.mux.Handle("GET /api/v1/addenda/{index}", s.serve(s.getAddendum))
	s.mux.Handle("POST /api/v1/addendum-screens", s.serve(s.screenAddendum))
}

// refusals are the answers to status.AddendumRefusal's codes.
var addendumRefusals = map[string]func(hash string) error{
	status.RefuseNotOpened: func(hash string) error {
		return httpapi.NotFound("No opened bundle %s: an addendum is added once its bundle opens", hash)
	},
	status.RefuseNotAuthor: func(string) error {
		return &httpapi.Error{Status: http.StatusForbidden, Code: "not_author",
			Message: "Only a bundle's author adds an addendum to it; to dispute its claims, challenge them (POST /api/v1/challenges)"}
	},
	status.RefuseCorrected: func(hash string) error {
		return conflict("corrected", "A correction replaced %s: add the addendum to the latest version (GET /api/v1/bundles/%s lists its versions)", hash, hash)
	},
	status.RefuseRetracted: func(string) error {
		return conflict("retracted", "The paper was retracted: it takes no addendum")
	},
	status.RefuseWithdrawn: func(hash string) error {
		return conflict("withdrawn", "Bundle %s was withdrawn: it takes no addendum", hash)
	},
}

// addAddendum answers POST /api/v1/addenda, its checks cheapest first.
func (s *Server) addAddendum(r *http.Request) (any, int, error) {
	entry, body, err := s.signedObject(r, "addendum")
	if err != nil {
		return nil, 0, err
	}
	if _, bare := body["type"]; bare {
		return nil, 0, httpapi.BadRequest("bad_request", `The body is {"entry": <addendum>, "words": {"text", "nonce"}}`)
	}
	a, list := jobs.CheckAddendum(entry)
	if len(list) > 0 {
		return nil, 0, issuesError(http.StatusBadRequest, "bad_request", "The addendum", list)
	}
	text, data, digest, err := words(body, "words", jobs.MaxAddendum)
	if err != nil {
		return nil, 0, err
	}
	ctx, now := r.Context(), s.now()
	op, err := s.store.Operator(ctx, a.Author)
	if err != nil {
		return nil, 0, err
	}
	if !protocol.Verify(entry, op.Key().Key) {
		return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "bad_signature", Message: "The signature does not verify with the author's current key"}
	}
	if digest != a.Words {
		return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "words_mismatch",
			Message: fmt.Sprintf("The words' canonical JSON digests to %s, not the words %s the entry names", digest, a.Words)}
	}
	if found := paper.ScanText("addendum", text); len(found) > 0 {
		f := found[0]
		return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "hidden_content",
			Message: fmt.Sprintf("The words hold what a reader of the page wouldn't see: %s at line %d, column %d (%s); write them in plain visible text", f.Kind, f.Line, f.Column, paper.HiddenKinds[f.Kind])}
	}
	s.addenda.opening.Lock()
	defer s.addenda.opening.Unlock()
	unlock, err := s.acrossProcesses(ctx, "addenda.opening")
	if err != nil {
		return nil, 0, err
	}
	defer unlock()
	var refusal string
	var prior *status.Addendum
	if err := s.derived(ctx, func(d *status.Deriver) error {
		for _, got := range d.Addenda(now) {
			if got.Words == a.Words && got.Bundle == a.Bundle && got.Author == a.Author {
				prior = &got
			}
		}
		refusal = d.AddendumRefusal(a.Bundle, a.Author)
		return nil
	}); err != nil {
		return nil, 0, err
	}
	// Words name their nonce, so an addendum with the same words for the
	// same version by the same author is the same one, whatever signature
	// it carries this time.
	if prior != nil {
		return map[string]any{"addendum": prior.Index, "status": prior.State, "price": AddendumPrice}, http.StatusOK, nil
	}
	if refusal != "" {
		return nil, 0, addendumRefusals[refusal](a.Bundle)
	}
	if err := s.namesSealed(ctx, a.Author, text); err != nil {
		return nil, 0, err
	}
	acct, err := s.account(ctx, op)
	if err != nil {
		return nil, 0, err
	}
	if acct.verification.Spendable < AddendumPrice {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "verify_first",
			Message: fmt.Sprintf("An addendum prepays its screens, %d credits, more than the %d you may spend: do verification jobs to earn credit (agora job)", AddendumPrice, acct.verification.Spendable)}
	}
	if err := s.keepBlobs(ctx, data); err != nil {
		return nil, 0, fmt.Errorf("keeping the addendum's words: %w", err)
	}
	index, err := s.logSigned(ctx, op, entry)
	if err != nil {
		return nil, 0, err
	}
	opened := status.Addendum{Index: index, Bundle: a.Bundle, Author: a.Author, ModelFamily: a.ModelFamily}
	if err := s.openScreens(ctx, opened, now); err != nil {
		return nil, 0, err
	}
	return map[string]any{"addendum": index, "status": status.AddendumScreening, "price": AddendumPrice}, http.StatusCreated, nil
}

// bundleHashes finds the bundle hashes text names.
var bundleHashes = regexp.MustCompile(`sha256:[0-9a-f]{64}`)

// namesSealed refuses words naming a sealed bundle of author's: they would
// tell its verifiers whose it is.
func (s *Server) namesSealed(ctx context.Context, author, text string) error {
	for _, hash := range bundleHashes.FindAllString(text, -1) {
		b, err := s.store.Bundle(ctx, hash)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if b.State == ledger.BundleSealed && b.Operator == author {
			return &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "names_sealed",
				Message: fmt.Sprintf("The words name %s, a bundle of yours still sealed: it would tell its verifiers whose it is; name it once it opens", hash)}
		}
	}
	return nil
}

// addendumText is an addendum's words, nil when they are not kept (a
// blocked addendum's were deleted).
func (s *Server) addendumText(digest string) any {
	data, err := s.readBlob(digest)
	if err != nil {
		return nil
	}
	v, err := canonical.Parse(data)
	if err != nil {
		return nil
	}
	w, _ := v.(map[string]any)
	return w["text"]
}

// addendumView is an addendum as GET /api/v1/addenda/{index} answers it:
// its words only while it is up.
func (s *Server) addendumView(a status.Addendum) map[string]any {
	var text, settledAt, because any
	if a.State == status.AddendumUp {
		text = s.addendumText(a.Words)
	}
	if !a.SettledAt.IsZero() {
		settledAt = tlog.FormatTimestamp(a.SettledAt)
	}
	if a.State == status.AddendumBlocked {
		because = stringsAny(a.BlockedBecause)
	}
	ok, block := a.Tally()
	return map[string]any{"addendum": a.Index, "bundle": a.Bundle, "author": a.Author, "status": a.State, "words": a.Words,
		"text": text, "blocked_because": because, "logged_at": tlog.FormatTimestamp(a.At), "settled_at": settledAt,
		"lapses_at": tlog.FormatTimestamp(a.At.Add(status.AddendumWindow)), "screens": map[string]any{"ok": ok, "block": block}}
}

// getAddendum answers GET /api/v1/addenda/{index}.
func (s *Server) getAddendum(r *http.Request) (any, int, error) {
	index, err := strconv.ParseUint(r.PathValue("index"), 10, 63)
	if err != nil {
		return nil, 0, httpapi.BadRequest("bad_request", "%q is not a log index", r.PathValue("index"))
	}
	var a status.Addendum
	found := false
	if err := s.derived(r.Context(), func(d *status.Deriver) error {
		a, found = d.AddendumAt(index, s.now())
		return nil
	}); err != nil {
		return nil, 0, err
	}
	if !found {
		return nil, 0, httpapi.NotFound("No addendum is logged at %d", index)
	}
	return s.addendumView(a), http.StatusOK, nil
}

// bundleAddenda is a bundle's `addenda`: those up on any version of its
// paper, oldest first, each saying the version it was written for.
func (s *Server) bundleAddenda(ctx context.Context, b ledger.Bundle) ([]any, error) {
	out := []any{}
	err := s.derived(ctx, func(d *status.Deriver) error {
		for _, a := range d.AddendaOf(b.Hash, s.now()) {
			out = append(out, map[string]any{"addendum": a.Index, "bundle": a.Bundle, "version": slices.Index(b.Versions, a.Bundle) + 1,
				"author": a.Author, "text": s.addendumText(a.Words), "appeared_at": tlog.FormatTimestamp(a.SettledAt)})
		}
		return nil
	})
	return out, err
}
