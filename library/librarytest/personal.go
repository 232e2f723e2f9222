package librarytest

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store"
)

// personalState makes the state l writes replacing previous, listing
// following, signed, authored at at.
func (f *fixture) personalState(l librarian, previous string, at time.Time, following ...string) library.PersonalState {
	f.t.Helper()
	if following == nil {
		following = []string{}
	}
	rec, err := library.NewPersonalState(l.author, library.PersonalLists{Following: following, Saved: []string{}}, previous, at)
	if err != nil {
		f.t.Fatal(err)
	}
	env, err := library.Sign(rec, l.key)
	if err != nil {
		f.t.Fatal(err)
	}
	envelope, err := env.Marshal()
	if err != nil {
		f.t.Fatal(err)
	}
	id, _ := rec.RevisionID()
	return library.PersonalState{ID: id, Record: rec, Envelope: envelope, Stored: at}
}

// testLibraryPersonal checks the personal lists: states chain by
// compare-and-set, a retry gets the current state, reads record their
// nonce with their answer, and nothing of it reaches the contributions.
func testLibraryPersonal(f *fixture) {
	a, b := newLibrarian(f), newLibrarian(f)
	root := strings.Repeat("ab", 32)
	if _, err := f.s.CurrentPersonalState(f.ctx, a.author); !errors.Is(err, store.ErrNotFound) {
		f.t.Fatalf("CurrentPersonalState before any: %v, want ErrNotFound", err)
	}

	// A read before any state answers none, and records the nonce.
	read := library.PersonalRead{Author: a.author, Nonce: strings.Repeat("1", 64), Request: strings.Repeat("r1", 32),
		Expires: f.now.Add(6 * time.Minute), Now: f.now}
	if st, err := f.s.ReadPersonal(f.ctx, read); err != nil || st != nil {
		f.t.Fatalf("first read: %+v, %v; want no state", st, err)
	}

	// The first state has previous "": a later first is a conflict.
	first := f.personalState(a, "", f.now, root)
	got, err := f.s.SetPersonalState(f.ctx, first)
	if err != nil || got.ID != first.ID || !got.Stored.Equal(f.now) {
		f.t.Fatalf("first state: %+v, %v", got, err)
	}
	if cur, err := f.s.CurrentPersonalState(f.ctx, a.author); err != nil || cur.ID != first.ID || string(cur.Envelope) != string(first.Envelope) || cur.Record.Body != first.Record.Body {
		f.t.Fatalf("current after the first: %s, %v", cur.ID, err)
	}
	if _, err := f.s.SetPersonalState(f.ctx, f.personalState(a, "", f.now.Add(time.Second))); !errors.Is(err, store.ErrConflict) {
		f.t.Errorf("a second first state: %v, want ErrConflict", err)
	}

	// The read's retry answers what it answered then, none, though a
	// state is current now; its nonce with another request is refused.
	if st, err := f.s.ReadPersonal(f.ctx, read); !errors.Is(err, store.ErrDuplicate) || st != nil {
		f.t.Errorf("the read again: %+v, %v; want none with ErrDuplicate", st, err)
	}
	replay := read
	replay.Request = strings.Repeat("r2", 32)
	if _, err := f.s.ReadPersonal(f.ctx, replay); !errors.Is(err, library.ErrNonceUsed) || !errors.Is(err, store.ErrConflict) {
		f.t.Errorf("the nonce in another request: %v, want ErrNonceUsed", err)
	}
	// Nonces are the author's: another author may use the same one.
	other := read
	other.Author = b.author
	if st, err := f.s.ReadPersonal(f.ctx, other); err != nil || st != nil {
		f.t.Errorf("b's read with a's nonce: %+v, %v; want b's none", st, err)
	}
	fresh := library.PersonalRead{Author: a.author, Nonce: strings.Repeat("2", 64), Request: strings.Repeat("r3", 32),
		Expires: f.now.Add(6 * time.Minute), Now: f.now}
	if st, err := f.s.ReadPersonal(f.ctx, fresh); err != nil || st == nil || st.ID != first.ID {
		f.t.Errorf("a fresh read: %+v, %v; want the first state", st, err)
	}

	// The next state replaces the current one; a retry of the first gets
	// the current (second) state with ErrDuplicate; a state replacing the
	// first again is a conflict.
	second := f.personalState(a, first.ID, f.now.Add(time.Minute))
	if got, err := f.s.SetPersonalState(f.ctx, second); err != nil || got.ID != second.ID {
		f.t.Fatalf("second state: %+v, %v", got.ID, err)
	}
	if got, err := f.s.SetPersonalState(f.ctx, first); !errors.Is(err, store.ErrDuplicate) || got.ID != second.ID {
		f.t.Errorf("the first state again: %s, %v; want the second with ErrDuplicate", got.ID, err)
	}
	if got, err := f.s.SetPersonalState(f.ctx, second); !errors.Is(err, store.ErrDuplicate) || got.ID != second.ID {
		f.t.Errorf("the second state again: %s, %v; want it with ErrDuplicate", got.ID, err)
	}
	fork := f.personalState(a, first.ID, f.now.Add(2*time.Minute), root)
	if _, err := f.s.SetPersonalState(f.ctx, fork); !errors.Is(err, store.ErrConflict) {
		f.t.Errorf("a state replacing a replaced one: %v, want ErrConflict", err)
	}
	// b's states are b's alone.
	if _, err := f.s.SetPersonalState(f.ctx, f.personalState(b, first.ID, f.now)); !errors.Is(err, store.ErrConflict) {
		f.t.Errorf("b replacing a's state: %v, want ErrConflict", err)
	}
	if _, err := f.s.CurrentPersonalState(f.ctx, b.author); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("b's state after refusals: %v, want ErrNotFound", err)
	}

	// An expired nonce is forgotten: the same nonce may serve again.
	later := fresh
	later.Request, later.Now = strings.Repeat("r4", 32), f.now.Add(7*time.Minute)
	later.Expires = later.Now.Add(6 * time.Minute)
	if st, err := f.s.ReadPersonal(f.ctx, later); err != nil || st == nil || st.ID != second.ID {
		f.t.Errorf("an expired nonce used again: %+v, %v; want the current state", st, err)
	}

	// Nothing personal is a contribution.
	if _, err := f.s.Contribution(f.ctx, second.ID); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("a personal state reads as a contribution: %v", err)
	}

	// Writers racing from one state: exactly one wins, and the rest
	// conflict.
	const racers = 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range racers {
		st := f.personalState(a, second.ID, f.now.Add(3*time.Minute), fmt.Sprintf("%064x", i))
		wg.Go(func() {
			_, err := f.s.SetPersonalState(f.ctx, st)
			switch {
			case err == nil:
				mu.Lock()
				won++
				mu.Unlock()
			case !errors.Is(err, store.ErrConflict):
				f.t.Errorf("racer: %v, want ErrConflict", err)
			}
		})
	}
	wg.Wait()
	if won != 1 {
		f.t.Errorf("%d of %d racing states were stored, want exactly 1", won, racers)
	}
}
