package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/store"
)

// correctionRefused says why prev takes no correction now ("Correcting a
// bundle"): a bundle still sealed takes none (void it, or wait for it to
// open); only the latest version still up is corrected, once, so history
// stays a single line; a withdrawn version is corrected no more. It
// returns nil when prev may be corrected.
func (s *Server) correctionRefused(ctx context.Context, prev ledger.Bundle) (*httpapi.Error, error) {
	refuse := func(format string, args ...any) (*httpapi.Error, error) {
		return &httpapi.Error{Status: http.StatusConflict, Code: "new_version", Message: fmt.Sprintf(format, args...)}, nil
	}
	switch prev.State {
	case ledger.BundleSealed:
		return refuse("%s is still sealed in its round and takes no correction: void it (POST /api/v1/sealed/%d/void) and send this as a bundle of its own, or wait for it to open (GET /api/v1/sealed/%d) and correct it then",
			prev.Hash, prev.SealedIndex, prev.SealedIndex)
	case ledger.BundleWithdrawn:
		return refuse("%s was withdrawn and takes no correction: correct the latest version still up", prev.Hash)
	}
	retracted, err := s.bundleRetraction(ctx, prev.Hash)
	if err != nil {
		return nil, err
	}
	if retracted != nil {
		return refuse("%s was retracted: a retracted paper takes no correction; submit the work again, fixed, as a new bundle", prev.Hash)
	}
	at := slices.Index(prev.Versions, prev.Hash)
	for _, later := range prev.Versions[at+1:] {
		b, err := s.store.Bundle(ctx, later)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if err == nil && b.State != ledger.BundleWithdrawn && b.Replaces == prev.Hash {
			return refuse("%s has its correction already, %s (%s): a bundle is corrected once; correct %s instead once it opens", prev.Hash, b.Hash, b.State, b.Hash)
		}
	}
	return nil, nil
}

// fixable reports whether other organizations' checks found something in
// prev that a new version could fix, which halves a correction's price
// ("Correcting a bundle"): a claim whose reproduction failed or whose
// proof was rejected, whose reviews' median was major_issues or unsound,
// or one of whose counted reviews was, before the claim's correct_by when
// it has one.
func (s *Server) fixable(ctx context.Context, prev ledger.Bundle) (bool, error) {
	found := false
	now := s.now()
	err := s.derived(ctx, func(d *status.Deriver) error {
		for _, cl := range prev.Claims {
			c, ok := d.Claim(cl.ID, now)
			if !ok || !c.CorrectBy.IsZero() && !now.Before(c.CorrectBy) {
				continue
			}
			found = found || checksFound(c, prev.Hash)
		}
		return nil
	})
	return found, err
}

// checksFound reports whether c's checks on bundle found something to fix.
func checksFound(c status.Claim, bundle string) bool {
	req := func(name, key string) bool {
		r, _ := c.Requirements[name].(map[string]any)
		return r[key] == true
	}
	if req("reproduced", "failed") || req("formally_verified", "rejected") {
		return true
	}
	for _, a := range c.Attestations {
		if a.Bundle == bundle && a.Counted && (a.Verdict == "major_issues" || a.Verdict == "unsound") {
			return true
		}
	}
	return false
}
