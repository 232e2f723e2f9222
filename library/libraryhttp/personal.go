package libraryhttp

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store"
)

// Personal lists: POST /api/personal takes an author's signed personal-read
// or personal-state (package library's personal kinds) and answers
// {"state": <the author's latest signed state, or null>}. These records are
// kept apart from the contributions (library.PersonalStore): they are not
// logged, and no read of the library serves them; a read answers only its
// signer's own state.
//
// A request is an authorization, so it must be fresh (authored within
// library.PersonalWindow, at most library.MaxClockSkew ahead), signed with
// the author's current key, and its author must hold library.publish (an
// identity). The exact envelope sent again is answered as it was, while
// it stays fresh and its author authorized: a read with the state it got
// then, a state with the current state. A read's nonce serves that one
// request only.

func (s *Server) routeLibraryPersonal() {
	s.mux.Handle("POST /api/personal", s.serve(s.personal))
}

// personal answers POST /api/personal: 200 with the state for a read or a
// state sent before, 201 with the state a write stored.
func (s *Server) personal(r *http.Request) (any, int, error) {
	env, err := readEnvelope(r)
	if err != nil {
		return nil, 0, err
	}
	rec := env.Record
	op, err := s.signer(r.Context(), env, nil)
	if err != nil {
		return nil, 0, err
	}
	now := s.now()
	if err := library.CheckPersonalTime(rec, now); err != nil {
		return nil, 0, libraryError(err)
	}
	if err := s.requireScope(r.Context(), op, library.ScopePublish); err != nil {
		return nil, 0, err
	}
	nonce, lists, err := library.ValidatePersonal(rec)
	if err != nil {
		return nil, 0, libraryError(err)
	}
	id, err := rec.RevisionID()
	if err != nil {
		return nil, 0, libraryError(err)
	}

	if lists == nil {
		authored, _ := rec.Time() // checked by CheckPersonalTime
		// The nonce is kept as long as the request could be fresh, by
		// either clock.
		expires := now.Add(library.PersonalWindow + library.MaxClockSkew)
		if authored.After(now) {
			expires = authored.Add(library.PersonalWindow + library.MaxClockSkew)
		}
		st, err := s.store.ReadPersonal(r.Context(), library.PersonalRead{
			Author: rec.Author, Nonce: nonce, Request: id, Expires: expires, Now: now})
		switch {
		case errors.Is(err, library.ErrNonceUsed):
			return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "nonce_used", Err: err,
				Message: "This read's nonce was used by another request: sign a new read with a fresh random nonce"}
		case err != nil && !errors.Is(err, store.ErrDuplicate):
			return nil, 0, err
		}
		return personalAnswer(st), http.StatusOK, nil
	}

	err = library.CheckPersonalRoots(*lists, func(id string) (*library.Stored, error) {
		c, err := s.store.Contribution(r.Context(), id)
		if err != nil {
			return nil, err
		}
		return &library.Stored{ID: c.ID, Root: c.Root, Record: c.Record}, nil
	})
	if err != nil {
		return nil, 0, libraryError(err)
	}
	envelope, err := env.Marshal()
	if err != nil {
		return nil, 0, err
	}
	st, err := s.store.SetPersonalState(r.Context(), library.PersonalState{ID: id, Record: rec, Envelope: envelope, Stored: now})
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return personalAnswer(&st), http.StatusOK, nil
	case errors.Is(err, store.ErrConflict):
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "stale_state", Err: err,
			Message: fmt.Sprintf("Your personal lists are no longer at state %q: reload them (a personal-read) and make the change again on the state it returns", rec.Previous)}
	case err != nil:
		return nil, 0, err
	}
	return personalAnswer(&st), http.StatusCreated, nil
}

// personalAnswer is the contract's {"state": signed state or null}: a
// state is {id, record, signature}, the record as its author signed it.
func personalAnswer(st *library.PersonalState) map[string]any {
	if st == nil {
		return map[string]any{"state": nil}
	}
	record, _ := canonical.Parse(mustCanonical(st.Record))
	signature := ""
	if env, err := library.ParseEnvelope(st.Envelope); err == nil {
		signature = env.Signature
	}
	return map[string]any{"state": map[string]any{"id": st.ID, "record": record, "signature": signature}}
}
