package libraryhttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// The library: the Alexandria agent read/write contract at its own paths.
//
// A contribution is an author's signed record (library.Envelope). The node
// checks it in the order that costs least first: size, form, the author's
// key and signature, the content schema, then the state rules inside the
// store's write (library.Store.AddContribution). An admitted
// contribution goes on the node's one log as a "contribution" entry:
//
//	{"type": "contribution", "operator": "op:<author>", "revision": <id>,
//	 "record": <the record>, "sig": <the author's signature>}
//
// signed by the author over the record's canonical JSON (not over the
// entry, as ledger entries are), so the log alone lets anyone check who
// wrote what. The answer goes out once the entry is in a published
// checkpoint.

func (s *Server) routeLibrary() {
	s.mux.Handle("POST /api/entries", s.serve(s.publishContribution))
	s.mux.Handle("GET /api/entries/{revision}", s.serve(s.getContribution))
	s.mux.Handle("GET /api/entries/{revision}/head", s.serve(s.getContributionHead))
	s.mux.Handle("POST /api/v1/admin/library/scopes", s.serve(s.admin(s.setLibraryScopes)))
	s.mux.Handle("GET /api/v1/admin/library/scopes/{id}", s.serve(s.admin(s.getLibraryScopes)))
}

// setLibraryScopes answers POST /api/v1/admin/library/scopes {"operator",
// "grant": [scopes], "deny": [scopes], "reset": [scopes]}: the operator's
// scopes from then on, as getLibraryScopes shows them. Reset scopes follow
// the default again.
func (s *Server) setLibraryScopes(r *http.Request) (any, int, error) {
	body, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, 0, err
	}
	obj, ok := body.(map[string]any)
	if !ok {
		return nil, 0, httpapi.BadRequest("bad_request", "The body must be a JSON object {operator, grant, deny, reset}")
	}
	for name := range obj {
		if !slices.Contains([]string{"operator", "grant", "deny", "reset"}, name) {
			return nil, 0, httpapi.BadRequest("bad_request", "Unknown member %q: send operator, grant, deny and reset", name)
		}
	}
	id, _ := obj["operator"].(string)
	if !protocol.IsOperatorID(id) {
		return nil, 0, httpapi.BadRequest("bad_request", "Give \"operator\", an operator ID")
	}
	op, err := s.store.Operator(r.Context(), id)
	if err != nil {
		return nil, 0, err
	}
	yes, no := true, false
	change := map[string]*bool{}
	for member, value := range map[string]*bool{"grant": &yes, "deny": &no, "reset": nil} {
		list, ok := obj[member].([]any)
		if _, present := obj[member]; present && !ok {
			return nil, 0, httpapi.BadRequest("bad_request", "%q must be a list of scopes", member)
		}
		for _, v := range list {
			scope, _ := v.(string)
			if !slices.Contains(library.Scopes(), scope) {
				return nil, 0, httpapi.BadRequest("bad_request", "%v is not a library scope: use %s", v, strings.Join(library.Scopes(), ", "))
			}
			if _, twice := change[scope]; twice {
				return nil, 0, httpapi.BadRequest("bad_request", "%s is named twice", scope)
			}
			change[scope] = value
		}
	}
	if err := s.store.SetLibraryScopes(r.Context(), op.ID, change); err != nil {
		return nil, 0, err
	}
	return s.scopesAnswer(r.Context(), op)
}

// getLibraryScopes answers GET /api/v1/admin/library/scopes/{id}: which
// scopes the operator holds, and which an admin set.
func (s *Server) getLibraryScopes(r *http.Request) (any, int, error) {
	id, err := httpapi.PathOperatorID(r)
	if err != nil {
		return nil, 0, err
	}
	op, err := s.store.Operator(r.Context(), id)
	if err != nil {
		return nil, 0, err
	}
	return s.scopesAnswer(r.Context(), op)
}

func (s *Server) scopesAnswer(ctx context.Context, op store.Operator) (any, int, error) {
	held, err := s.libraryScopes(ctx, op)
	if err != nil {
		return nil, 0, err
	}
	set, err := s.store.LibraryScopes(ctx, op.ID)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"operator": op.ID, "scopes": held, "set_by_admin": set}, http.StatusOK, nil
}

// publishContribution answers POST /api/entries: 201 with the signed record
// as the contract shows it, or 200 with it for an envelope admitted before
// (the contract's retry of an uncertain failure). Either goes out only once
// the contribution is logged, durable and provable.
func (s *Server) publishContribution(r *http.Request) (any, int, error) {
	env, err := readEnvelope(r)
	if err != nil {
		return nil, 0, err
	}
	rec := env.Record
	// The record's canonical JSON, made once: its revision ID digests it,
	// the signature covers it, and the entry and the answer hold it.
	canon, err := rec.Canonical()
	if err != nil {
		return nil, 0, libraryError(err)
	}
	id := library.RevisionIDOf(canon)
	nc, err := s.admissible(r.Context(), env, canon, id)
	if err != nil {
		// An envelope admitted before is answered where it stands, whatever
		// refuses it now (its author's key rotated, its authored_at grew
		// old, a scope was denied). Looked up only here: on the way in,
		// the store's write finds a duplicate itself.
		c, ferr := s.store.Contribution(r.Context(), id)
		switch {
		case errors.Is(ferr, store.ErrNotFound):
			return nil, 0, err
		case ferr != nil:
			return nil, 0, ferr
		}
		if c, err = s.logged(r.Context(), c); err != nil {
			return nil, 0, err
		}
		return signedRecord(c), http.StatusOK, nil
	}
	// Once admitted, the contribution is logged whatever the client does.
	ctx := context.WithoutCancel(r.Context())
	// The content was validated above: inside the store's write, where
	// every other write waits, only the state rules are checked.
	// Claimed before it is kept, the entry is logged from what this
	// request kept, not read back: a second request for it, which can only
	// find it once it is kept, waits for this one.
	claim := s.journal.Claim(nc.Entry)
	c, err := s.store.AddContribution(ctx, nc, func(ctx context.Context, g library.Graph) error { return library.CheckValidated(ctx, rec, g) })
	if err != nil && claim != nil {
		claim.Release()
	}
	switch {
	case errors.Is(err, store.ErrDuplicate):
		// The same envelope, sent twice at once: whichever request gets to
		// logging it first does.
		if c, err = s.logged(r.Context(), c); err != nil {
			return nil, 0, err
		}
		return signedRecord(c), http.StatusOK, nil
	case err != nil:
		return nil, 0, libraryError(err)
	}
	var index uint64
	if claim != nil {
		index, err = claim.AppendKept(ctx, nc.Signed, nc.Leaf)
	} else {
		index, err = s.journal.AppendKept(ctx, nc.Entry)
	}
	if err != nil {
		return nil, 0, err
	}
	c.Index = int64(index)
	return signedRecordWith(c, canonical.Raw(canon), env.Signature), http.StatusCreated, nil
}

// admissible checks env, whose record's canonical JSON is canon and
// revision ID id, as POST /api/entries
// admits it (its signer's current key, authored_at, the signer's scope,
// the content), publishes the signer's key if it is not logged yet, and
// returns the contribution to store. The state rules are left to the
// store's write.
func (s *Server) admissible(ctx context.Context, env *library.Envelope, canon []byte, id string) (library.NewContribution, error) {
	rec := env.Record
	op, err := s.signer(ctx, env, canon)
	if err != nil {
		return library.NewContribution{}, err
	}
	if err := library.CheckAuthoredAt(rec, s.now()); err != nil {
		return library.NewContribution{}, libraryError(err)
	}
	// A kind the contract does not name has no scope; the content check
	// below refuses it.
	if scope, ok := library.Scope(rec.Kind); ok {
		if err := s.requireScope(ctx, op, scope); err != nil {
			return library.NewContribution{}, err
		}
	}
	if issues := library.ValidateContent(rec); len(issues) > 0 {
		return library.NewContribution{}, libraryError(&library.ContentError{Issues: issues})
	}
	if err := s.journal.PublishKey(ctx, op); err != nil {
		return library.NewContribution{}, err
	}
	return s.newContribution(env, canon, id, nil)
}

// logged returns c once its entry is logged: at once if it is bound, else
// once the request logging it has logged it, or, when none is (its append
// failed), once this one has (journal.AppendKept).
func (s *Server) logged(ctx context.Context, c library.Contribution) (library.Contribution, error) {
	if c.Index != store.Unlogged {
		return c, nil
	}
	index, err := s.journal.AppendKept(ctx, c.Entry)
	if err != nil {
		return library.Contribution{}, err
	}
	c.Index = int64(index)
	return c, nil
}

// readEnvelope reads a signed library envelope, its size checked before
// anything is read.
func readEnvelope(r *http.Request) (*library.Envelope, error) {
	if r.ContentLength > library.MaxEnvelopeBytes {
		return nil, httpapi.TooLarge("The envelope", library.MaxEnvelopeBytes)
	}
	// Read into a buffer of the size the request gives, not one grown
	// from 512 bytes for an envelope of several kilobytes; ReadFrom needs
	// 512 bytes spare to see the end.
	buf := bytes.NewBuffer(make([]byte, 0, max(r.ContentLength, 0)+bytes.MinRead))
	_, err := buf.ReadFrom(http.MaxBytesReader(nil, r.Body, library.MaxEnvelopeBytes+1))
	data := buf.Bytes()
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, httpapi.TooLarge("The envelope", library.MaxEnvelopeBytes)
		}
		return nil, httpapi.BadRequest("bad_request", "The body could not be read")
	}
	env, err := library.ParseEnvelope(data)
	if err != nil {
		return nil, libraryError(err)
	}
	return env, nil
}

// signer returns the operator whose current key signed env: the record's
// author, registered here. canon is the record's canonical JSON, or nil
// for signer to make it.
func (s *Server) signer(ctx context.Context, env *library.Envelope, canon []byte) (store.Operator, error) {
	op, err := s.store.Operator(ctx, env.Record.OperatorID())
	if errors.Is(err, store.ErrNotFound) {
		return store.Operator{}, &httpapi.Error{Status: http.StatusForbidden, Code: "unknown_operator",
			Message: fmt.Sprintf("No operator %s is registered here: register the author's key first (agora register)", env.Record.OperatorID())}
	} else if err != nil {
		return store.Operator{}, err
	}
	if canon == nil {
		err = library.VerifySignature(env, op.Key().Key)
	} else {
		err = library.VerifyCanonical(env, canon, op.Key().Key)
	}
	if err != nil {
		return store.Operator{}, libraryError(err)
	}
	return op, nil
}

// requireScope refuses an operator that does not hold scope. By default
// an operator holds all four of the library's scopes once it holds an
// identity; an admin may grant or deny each one per operator
// (POST /api/v1/admin/library/scopes), which overrides the default.
func (s *Server) requireScope(ctx context.Context, op store.Operator, scope string) error {
	held, err := s.libraryScopes(ctx, op)
	if err != nil {
		return err
	}
	if held[scope] {
		return nil
	}
	hint := "an operator gets the library's scopes with its first identity (agora identity domain|github|accept-invite)"
	if _, ok := op.Identity(); ok {
		hint = "this node's admin denied it (agora admin scopes)"
	}
	return &httpapi.Error{Status: http.StatusForbidden, Code: "scope_denied", Message: fmt.Sprintf("%s does not hold %s: %s", op.ID, scope, hint)}
}

// libraryScopes returns which of the library's scopes op holds: the
// default for its identity, then what an admin granted or denied.
func (s *Server) libraryScopes(ctx context.Context, op store.Operator) (map[string]bool, error) {
	_, identified := op.Identity()
	held := map[string]bool{}
	for _, scope := range library.Scopes() {
		held[scope] = identified
	}
	recorded, err := s.store.LibraryScopes(ctx, op.ID)
	if err != nil {
		return nil, err
	}
	maps.Copy(held, recorded)
	return held, nil
}

// newContribution makes the contribution an admission stores: the
// envelope as kept, its facets, and the log entry that holds it (with
// imported as the entry's "imported" member, when not nil). canon is the
// record's canonical JSON (library.Record.Canonical) and id its revision
// ID. POST /api/entries and an import both admit through it.
func (s *Server) newContribution(env *library.Envelope, canon []byte, id string, imported map[string]any) (library.NewContribution, error) {
	envelope, err := env.MarshalCanonical(canon)
	if err != nil {
		return library.NewContribution{}, err
	}
	signed, digest, leaf, err := s.libraryEntry(env, canon, id, imported)
	if err != nil {
		return library.NewContribution{}, err
	}
	return library.NewContribution{
		ID: id, Record: env.Record, Envelope: envelope, Facets: library.FacetsOf(env.Record), Admitted: s.now(),
		Entry: digest, Signed: signed, Leaf: leaf,
	}, nil
}

// libraryEntry makes the log entry of an admitted contribution, as signed
// and as its leaf holds it, from canon, the record's canonical JSON;
// imported, when not nil, is its "imported" member.
func (s *Server) libraryEntry(env *library.Envelope, canon []byte, id string, imported map[string]any) (signed []byte, digest string, leaf []byte, err error) {
	entry := map[string]any{
		"type":     library.ContributionType,
		"operator": env.Record.OperatorID(),
		"revision": id,
		// Written as it is into the entry and its leaf, not parsed back
		// into values to be written again.
		"record": canonical.Raw(canon),
		"sig":    env.Signature,
	}
	if imported != nil {
		entry["imported"] = imported
	}
	if signed, err = canonical.AppendMarshal(make([]byte, 0, len(canon)+len(env.Signature)+256), entry); err != nil {
		return nil, "", nil, err
	}
	// protocol.EntryDigest(entry), the digest of the entry's canonical
	// JSON, which signed is: not made a second time.
	digest = canonical.Digest(signed)
	leaf, err = s.journal.Leaf(entry, map[string]any{"operator": env.Record.OperatorID()})
	return signed, digest, leaf, err
}

// getContribution answers GET /api/entries/{revision}: the exact revision.
func (s *Server) getContribution(r *http.Request) (any, int, error) {
	c, err := s.pathRevision(r)
	if err != nil {
		return nil, 0, err
	}
	return signedRecord(c), http.StatusOK, nil
}

// getContributionHead answers GET /api/entries/{revision}/head: the current
// head of the revision's lineage.
func (s *Server) getContributionHead(r *http.Request) (any, int, error) {
	c, err := s.pathRevision(r)
	if err != nil {
		return nil, 0, err
	}
	head, err := s.store.ContributionHead(r.Context(), c.Root)
	if err != nil {
		return nil, 0, err
	}
	return signedRecord(head), http.StatusOK, nil
}

// signedRecord is a contribution as the contract's signed_record shows it:
// id, root, record, signature, and admission, the node's evidence of the
// author's authority: the operator, the log entry and its index.
func signedRecord(c library.Contribution) map[string]any {
	signature := ""
	if env, _ := library.ParseEnvelope(c.Envelope); env != nil {
		signature = env.Signature
	}
	record, _ := canonical.Parse(mustCanonical(c.Record))
	return signedRecordWith(c, record, signature)
}

// signedRecordWith is signedRecord for a caller that holds the envelope's
// signature and the record as the answer holds it: parsed, or, for an
// answer only written out (POST /api/entries), its canonical JSON as a
// canonical.Raw, not parsed back into values to be written again.
func signedRecordWith(c library.Contribution, record any, signature string) map[string]any {
	var index any
	if c.Index != store.Unlogged {
		index = c.Index
	}
	admission := map[string]any{
		"operator":    c.Record.OperatorID(),
		"entry":       c.Entry,
		"log_index":   index,
		"admitted_at": c.Admitted.UTC().Format("2006-01-02T15:04:05.000Z"),
	}
	// An imported record says where it came from and which key signed it:
	// its author need not be registered here.
	for k, v := range importedAdmission(c) {
		admission[k] = v
	}
	return map[string]any{
		"id":        c.ID,
		"root":      c.Root,
		"record":    record,
		"signature": signature,
		"admission": admission,
	}
}

func mustCanonical(r *library.Record) []byte {
	b, _ := r.Canonical()
	return b
}

// A signature that does not verify is one answer wherever the library
// meets it: in an envelope (POST /api/entries, POST /api/personal) and in a
// bundle (POST /api/bundles/import).
const (
	badSignatureStatus = http.StatusForbidden
	badSignatureCode   = "bad_signature"
)

// libraryError maps the library's and the store's refusals to answers:
// each state rule keeps its own code, and the issues list every finding
// with its JSON Pointer.
func libraryError(err error) error {
	var ce *library.ContentError
	var re *library.RuleError
	switch {
	case errors.As(err, &ce):
		issues := make([]any, len(ce.Issues))
		for i, is := range ce.Issues {
			issues[i] = map[string]any{"path": is.Path, "code": is.Code, "message": is.Message}
		}
		return &httpapi.IssuesError{Err: httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_content", Message: ce.Error(), Err: err}, Issues: issues}
	case errors.As(err, &re):
		status := http.StatusUnprocessableEntity
		if errors.Is(err, library.ErrConflict) {
			status = http.StatusConflict
		}
		return &httpapi.IssuesError{Err: httpapi.Error{Status: status, Code: re.Code, Message: re.Message, Err: err},
			Issues: []any{map[string]any{"path": re.Path, "code": re.Code, "message": re.Message}}}
	case errors.Is(err, library.ErrTooLarge):
		return &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Message: err.Error(), Err: err}
	case errors.Is(err, library.ErrMalformed):
		return &httpapi.Error{Status: http.StatusBadRequest, Code: "malformed", Message: err.Error(), Err: err}
	case errors.Is(err, library.ErrBadSignature):
		return &httpapi.Error{Status: badSignatureStatus, Code: badSignatureCode, Message: err.Error(), Err: err}
	case errors.Is(err, store.ErrConflict):
		return &httpapi.Error{Status: http.StatusConflict, Code: "stale_head", Message: "The lineage moved on while this revision was checked: reload its head and revise that", Err: err}
	}
	return err
}
