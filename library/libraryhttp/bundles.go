package libraryhttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// Library bundles: the contract's two bundle formats (library.Bundle) out
// of and into the node.
//
//	GET  /api/bundles/{revision}         alexandria.bundle/2 of a research map revision
//	GET  /api/review-bundles/{revision}  alexandria.review-bundle/1 of a research node or claim revision
//	POST /api/bundles/import             a bundle of either format (admin token)
//
// An export carries, for each author, the first key it registered (the one
// that makes its ID) and its key_rotation entries as the node keeps them,
// so a record signed after a rotation verifies anywhere: the key that
// signed is bound to the ID by the chain. An author this node knows only
// from an import gets the chain the import recorded.
//
// An import is the node operator's act, behind the admin token: records
// come in without their authors standing here, so opening it to anyone
// would let anyone publish without the identity POST /api/entries asks
// for. Nothing is written until the whole bundle checks out: every
// signature and key binding (library.ParseBundle), every authored_at
// against the clock, and every record against the state rules in order
// over what the node holds (library.CheckInOrder, in one read of the
// store's write transaction). Then each record not yet held is admitted as
// POST /api/entries admits one (library.Check inside AddContribution) and
// logged as a contribution entry whose "imported" member says where it
// came from:
//
//	"imported": {"bundle": <digest>, "from": <exporter's origin>,
//	             "signed_by": <the key that verifies>,
//	             "author": {"key": <first key>, "rotations": [...]}}
//
// The author is not registered by an import and gets no scope here: its
// records are data the operator chose to bring in, attributed by their
// signatures. A write racing the import can still refuse a record after
// others were admitted; those stay (they passed every rule) and the
// answer says which record failed.

func (s *Server) routeLibraryBundles() {
	s.mux.Handle("GET /api/bundles/{revision}", s.serve(s.exportMapBundle))
	s.mux.Handle("GET /api/review-bundles/{revision}", s.serve(s.exportReviewBundle))
	s.mux.Handle("POST /api/bundles/import", s.serve(s.admin(s.importBundle)))
}

// BundleLimit bounds an exported or imported bundle: the contract's
// maximum_bundle_bytes. Tests lower it.
// It is a variable so tests can lower it.
var BundleLimit = library.MaxBundleBytes

// exportMapBundle answers GET /api/bundles/{revision}: the map revision's
// dependency closure as alexandria.bundle/2.
func (s *Server) exportMapBundle(r *http.Request) (any, int, error) {
	c, err := s.bundleSubject(r, "research-map")
	if err != nil {
		return nil, 0, err
	}
	return s.exportBundle(r.Context(), &library.Bundle{Format: library.BundleFormat, Subject: c.ID}, []string{c.ID})
}

// exportReviewBundle answers GET /api/review-bundles/{revision}: the exact
// node revision, the evidence and assessments about it, and what they
// name, as alexandria.review-bundle/1 observed now.
func (s *Server) exportReviewBundle(r *http.Request) (any, int, error) {
	c, err := s.bundleSubject(r, "research-node", "claim")
	if err != nil {
		return nil, 0, err
	}
	observed := s.now()
	reviews, err := s.store.ReviewsOf(r.Context(), c.ID)
	if err != nil {
		return nil, 0, err
	}
	b := &library.Bundle{Format: library.ReviewBundleFormat, Subject: c.ID, ObservedAt: observed.UTC().Format(time.RFC3339Nano)}
	return s.exportBundle(r.Context(), b, append([]string{c.ID}, reviews...))
}

// bundleSubject reads the revision a bundle is asked of, which must be of
// one of kinds.
func (s *Server) bundleSubject(r *http.Request, kinds ...string) (library.Contribution, error) {
	id := r.PathValue("revision")
	if !library.IsRevisionID(id) {
		return library.Contribution{}, httpapi.BadRequest("bad_request", "%q is not a revision ID (64 lowercase hex digits)", id)
	}
	c, err := s.store.Contribution(r.Context(), id)
	if err != nil {
		return library.Contribution{}, err
	}
	if !slices.Contains(kinds, c.Record.Kind) {
		return library.Contribution{}, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "wrong_kind",
			Message: fmt.Sprintf("This bundle is of a %s revision, and %s is a %s", strings.Join(kinds, " or "), id, c.Record.Kind)}
	}
	return c, nil
}

// exportBundle fills b with the closure of start (library.Dependencies,
// transitively) in admission order, which puts dependencies first, and
// with its authors' keys, and answers it as the bundle's bytes.
func (s *Server) exportBundle(ctx context.Context, b *library.Bundle, start []string) (any, int, error) {
	b.Origin = s.log.Origin()
	var held []library.Contribution
	seen := map[string]bool{}
	size := 0
	for len(start) > 0 {
		id := start[len(start)-1]
		start = start[:len(start)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		c, err := s.store.Contribution(ctx, id)
		if err != nil {
			return nil, 0, fmt.Errorf("export: revision %s, which a revision in the bundle names: %w", id, err)
		}
		// The envelope is most of what a record adds: stop reading as
		// soon as the bundle cannot fit.
		if size += len(c.Envelope); size > BundleLimit {
			return nil, 0, bundleTooLarge(size)
		}
		held = append(held, c)
		deps, err := library.Dependencies(c.Record)
		if err != nil {
			return nil, 0, err
		}
		start = append(start, deps...)
	}
	slices.SortFunc(held, func(a, b library.Contribution) int { return int(a.Seq - b.Seq) })
	records := make([]library.BundleRecord, len(held))
	for i, c := range held {
		env, err := library.ParseEnvelope(c.Envelope)
		if err != nil {
			return nil, 0, fmt.Errorf("export: revision %s as kept: %w", c.ID, err)
		}
		admission, _ := signedRecord(c)["admission"].(map[string]any)
		records[i] = library.BundleRecord{ID: c.ID, Root: c.Root, Envelope: env, Admission: admission}
	}
	ordered, err := library.OrderDependenciesFirst(records)
	if err != nil {
		return nil, 0, err
	}
	b.Records = ordered
	if b.Authors, err = s.bundleAuthors(ctx, held); err != nil {
		return nil, 0, err
	}
	data, err := b.Marshal()
	switch {
	case errors.Is(err, library.ErrTooLarge):
		return nil, 0, bundleTooLarge(size)
	case err != nil:
		return nil, 0, fmt.Errorf("export: the bundle this node made does not verify: %w", err)
	case len(data) > BundleLimit:
		return nil, 0, bundleTooLarge(len(data))
	}
	return httpapi.Text{ContentType: "application/json", Body: data}, http.StatusOK, nil
}

func bundleTooLarge(size int) *httpapi.Error {
	return &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
		Message: fmt.Sprintf("The bundle would be over %d bytes (at least %d); a bundle holds at most that", BundleLimit, size)}
}

// bundleAuthors returns the keys of the contributions' authors: the
// longest of the chains the node knows for each, which are, for an
// operator registered here, its first key and the rotations the node kept,
// and for each record imported, the chain its import recorded. Chains of
// one author all start from the key that makes its ID, so the longest
// holds the keys the others do, unless the author signed two rotations
// from one key, which Marshal's verification then finds.
func (s *Server) bundleAuthors(ctx context.Context, held []library.Contribution) (map[string]library.BundleAuthor, error) {
	out := map[string]library.BundleAuthor{}
	consider := func(author string, a library.BundleAuthor) {
		if old, ok := out[author]; !ok || len(a.Rotations) > len(old.Rotations) {
			out[author] = a
		}
	}
	authors := map[string]bool{}
	for _, c := range held {
		authors[c.Record.Author] = true
	}
	for author := range authors {
		op, err := s.store.Operator(ctx, "op:"+author)
		if errors.Is(err, store.ErrNotFound) {
			continue
		} else if err != nil {
			return nil, err
		}
		a := library.BundleAuthor{Key: op.Keys[0].Key}
		for _, k := range op.Keys[1:] {
			kept, err := s.store.SignedByDigest(ctx, k.Entry)
			if err != nil {
				return nil, fmt.Errorf("export: the rotation to a key of %s: %w", op.ID, err)
			}
			v, err := canonical.Parse(kept.Entry)
			if err != nil {
				return nil, fmt.Errorf("export: the rotation to a key of %s as kept: %w", op.ID, err)
			}
			rot, _ := v.(map[string]any)
			if rot["type"] == protocol.KeyRecoveryType {
				// A recovery rests on the identity the node checked, which
				// no reader of a bundle can check again offline.
				return nil, &httpapi.Error{Status: http.StatusConflict, Code: "author_recovered",
					Message: fmt.Sprintf("%s took its ID back with a key recovery, which a library bundle's chain of keys cannot carry: it holds only rotations, each signed by the key before", op.ID)}
			}
			a.Rotations = append(a.Rotations, rot)
		}
		consider(author, a)
	}
	for _, c := range held {
		if imported, ok := importedFrom(c); ok {
			if a, err := importedAuthor(imported); err == nil {
				consider(c.Record.Author, a)
			}
		}
	}
	for author := range authors {
		if _, ok := out[author]; !ok {
			return nil, fmt.Errorf("export: %s is neither registered here nor imported with its key", author)
		}
	}
	return out, nil
}

// importBundle answers POST /api/bundles/import: 201 with what it admitted,
// or 200 when every record was held already.
func (s *Server) importBundle(r *http.Request) (any, int, error) {
	if r.ContentLength > int64(BundleLimit) {
		return nil, 0, bundleTooLarge(int(r.ContentLength))
	}
	data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, int64(BundleLimit)+1))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, 0, bundleTooLarge(BundleLimit + 1)
		}
		return nil, 0, httpapi.BadRequest("bad_request", "The body could not be read")
	}
	b, err := library.ParseBundle(data)
	if err != nil {
		return nil, 0, bundleError(err)
	}
	ctx := r.Context()
	now := s.now()
	ids := make([]string, len(b.Records))
	var fresh []freshRecord
	for i, br := range b.Records {
		ids[i] = br.ID
		if err := library.CheckNotAhead(br.Envelope.Record, now); err != nil {
			return nil, 0, recordRefused(i, br.ID, libraryError(err))
		}
		if _, err := s.store.Contribution(ctx, br.ID); err == nil {
			continue
		} else if !errors.Is(err, store.ErrNotFound) {
			return nil, 0, err
		}
		imported := map[string]any{
			"bundle":    b.Digest,
			"from":      b.Origin,
			"signed_by": br.SignedBy,
			"author":    authorValue(b.Authors[br.Envelope.Record.Author]),
		}
		canon, err := br.Envelope.Record.Canonical()
		if err != nil {
			return nil, 0, err
		}
		nc, err := s.newContribution(br.Envelope, canon, br.ID, imported)
		if err != nil {
			return nil, 0, err
		}
		fresh = append(fresh, freshRecord{at: i, nc: nc})
	}
	answer := func(imported int, status int) (any, int, error) {
		return map[string]any{"bundle": b.Digest, "imported": imported, "skipped": len(ids) - imported, "records": ids}, status, nil
	}
	if len(fresh) == 0 {
		return answer(0, http.StatusOK)
	}
	if err := s.checkImport(ctx, fresh); err != nil {
		return nil, 0, err
	}

	// Once writing starts, the import finishes whatever the client does.
	ctx = context.WithoutCancel(ctx)
	imported := 0
	var last uint64
	for _, f := range fresh {
		c, err := s.store.AddContribution(ctx, f.nc, func(ctx context.Context, g library.Graph) error { return library.Check(ctx, f.nc.Record, g) })
		switch {
		case errors.Is(err, store.ErrDuplicate):
			continue // admitted meanwhile, by another request
		case err != nil:
			err = recordRefused(f.at, f.nc.ID, libraryError(err))
			return nil, 0, fmt.Errorf("import: %d of the bundle's records were admitted before: %w", imported, err)
		}
		imported++
		// Sequenced one by one, so the log holds them in the bundle's
		// order; the answer waits for one checkpoint covering them all.
		if last, err = s.journal.SequenceKept(ctx, c.Entry); err != nil {
			return nil, 0, err
		}
	}
	if imported > 0 {
		if _, err := s.log.WaitForSize(ctx, last+1); err != nil {
			return nil, 0, err
		}
	}
	if imported == 0 {
		return answer(0, http.StatusOK)
	}
	return answer(imported, http.StatusCreated)
}

// A freshRecord is a bundle's record the node does not hold, at its index
// in the bundle.
type freshRecord struct {
	at int
	nc library.NewContribution
}

// errImportChecked ends checkImport's read of the write transaction: the
// records would all be admitted, and nothing is to be written.
var errImportChecked = errors.New("import checked")

// importRefusal is a record checkImport found refused.
type importRefusal struct {
	at  int
	err error
}

func (e *importRefusal) Error() string { return e.err.Error() }
func (e *importRefusal) Unwrap() error { return e.err }

// checkImport checks every fresh record against the state rules, in order,
// over what the store holds, without writing: AddContribution gives its
// check the write transaction's graph and writes nothing when the check
// fails, so a check that always fails reads one consistent state under the
// writer's lock.
func (s *Server) checkImport(ctx context.Context, fresh []freshRecord) error {
	recs := make([]*library.Record, len(fresh))
	for i, f := range fresh {
		recs[i] = f.nc.Record
	}
	_, err := s.store.AddContribution(ctx, fresh[0].nc, func(ctx context.Context, g library.Graph) error {
		if i, err := library.CheckInOrder(ctx, g, recs); err != nil {
			return &importRefusal{at: i, err: err}
		}
		return errImportChecked
	})
	var refused *importRefusal
	switch {
	case errors.Is(err, errImportChecked), errors.Is(err, store.ErrDuplicate):
		// A duplicate is a record admitted since the bundle was read; the
		// admissions that follow find it held.
		return nil
	case errors.As(err, &refused):
		f := fresh[refused.at]
		return recordRefused(f.at, f.nc.ID, libraryError(refused.err))
	case err == nil:
		return fmt.Errorf("import: the store wrote %s although its check failed", fresh[0].nc.ID)
	}
	return err
}

// authorValue is an author's keys as an entry's "imported" member holds
// them: the bundle's authors member for one author.
func authorValue(a library.BundleAuthor) map[string]any {
	rot := make([]any, len(a.Rotations))
	for i, r := range a.Rotations {
		rot[i] = r
	}
	return map[string]any{"key": a.Key, "rotations": rot}
}

// importedFrom returns the "imported" member of a contribution's entry, if
// it came in a bundle.
func importedFrom(c library.Contribution) (map[string]any, bool) {
	// In canonical JSON a member name is the only place `"imported":`
	// can appear unescaped: without it the entry has no such member, and
	// nearly no entry has, so it is not parsed to find out.
	if !bytes.Contains(c.Signed, []byte(`"imported":`)) {
		return nil, false
	}
	v, err := canonical.Parse(c.Signed)
	if err != nil {
		return nil, false
	}
	entry, _ := v.(map[string]any)
	imported, ok := entry["imported"].(map[string]any)
	return imported, ok
}

// importedAuthor reads back the author's keys an import recorded.
func importedAuthor(imported map[string]any) (library.BundleAuthor, error) {
	a, _ := imported["author"].(map[string]any)
	key, _ := a["key"].(string)
	list, ok := a["rotations"].([]any)
	if key == "" || !ok {
		return library.BundleAuthor{}, errors.New("no author keys recorded")
	}
	out := library.BundleAuthor{Key: key}
	for _, r := range list {
		rot, ok := r.(map[string]any)
		if !ok {
			return library.BundleAuthor{}, errors.New("a rotation recorded is not an object")
		}
		out.Rotations = append(out.Rotations, rot)
	}
	return out, nil
}

// importedAdmission is what signedRecord's admission should add for a
// contribution that came in a bundle: {"imported_from": <exporter's
// origin>, "bundle": <digest>, "key": <the key that verifies>}; nil for
// one published here.
func importedAdmission(c library.Contribution) map[string]any {
	imported, ok := importedFrom(c)
	if !ok {
		return nil
	}
	return map[string]any{"imported_from": imported["from"], "bundle": imported["bundle"], "key": imported["signed_by"]}
}

// bundleError maps a bundle ParseBundle refused to its answer, naming the
// record refused: a forged or altered record, key binding or bundle is 403
// bad_signature, the answer POST /api/entries gives a signature that does
// not verify; a bundle that is not the closure it claims to be is 422.
func bundleError(err error) error {
	var be *library.BundleError
	if !errors.As(err, &be) {
		return libraryError(err)
	}
	status, code := http.StatusUnprocessableEntity, "invalid_bundle"
	switch {
	case errors.Is(err, library.ErrTooLarge):
		status, code = http.StatusRequestEntityTooLarge, "too_large"
	case errors.Is(err, library.ErrMalformed):
		status, code = http.StatusBadRequest, "malformed"
	case errors.Is(err, library.ErrBadSignature):
		// libraryError's answer, so the two cannot drift apart again.
		status, code = badSignatureStatus, badSignatureCode
	case errors.Is(err, library.ErrIncomplete):
		code = "incomplete_bundle"
	}
	issue := map[string]any{"path": be.Path, "code": code, "message": be.Err.Error()}
	if be.Record != "" {
		issue["record"] = be.Record
	}
	return &httpapi.IssuesError{Err: httpapi.Error{Status: status, Code: code, Message: be.Error(), Err: err}, Issues: []any{issue}}
}

// recordRefused names, in an answer about the bundle, the record whose
// admission err refuses, and where it is in the bundle.
func recordRefused(at int, id string, err error) error {
	var ie *httpapi.IssuesError
	var ae *httpapi.Error
	path := fmt.Sprintf("/records/%d", at)
	switch {
	case errors.As(err, &ie):
		issues := make([]any, len(ie.Issues))
		for i, is := range ie.Issues {
			m, _ := is.(map[string]any)
			named := map[string]any{"record": id}
			for k, v := range m {
				named[k] = v
			}
			if p, ok := m["path"].(string); ok {
				named["path"] = path + "/record" + p
			}
			issues[i] = named
		}
		out := *ie
		out.Err.Message = fmt.Sprintf("Record %s (%s) is refused: %s", id, path, ie.Err.Message)
		out.Issues = issues
		return &out
	case errors.As(err, &ae):
		out := *ae
		out.Message = fmt.Sprintf("Record %s (%s) is refused: %s", id, path, ae.Message)
		return &httpapi.IssuesError{Err: out, Issues: []any{map[string]any{"record": id, "path": path, "code": ae.Code, "message": ae.Message}}}
	}
	return fmt.Errorf("record %s (%s): %w", id, path, err)
}
