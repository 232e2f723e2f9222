package adapter

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// SessionState is what the hook adapter remembers of one agent session
// between hook runs, each of which is a separate process. It lives in a file
// of its own (mode 0600) so parallel hooks of different sessions never wait
// on each other.
type SessionState struct {
	Agent     string `json:"agent"`
	SessionID string `json:"session_id"` // the agent's own session id
	// Root is the directory the session started in: the workspace an MCP
	// server of the same agent finds the session by (Store.Live).
	Root string `json:"root,omitempty"`
	// Generation counts node sessions bound to this agent session: a session
	// the agent resumes after it ended, or one the node forgot, starts the
	// next generation, and every event ID includes it.
	Generation int    `json:"generation"`
	Handle     string `json:"handle,omitempty"` // from the session.start result
	Ended      bool   `json:"ended,omitempty"`
	// Start is the session.start sent (or being sent) for this generation,
	// kept whole so that a retry sends the same body.
	Start *PendingStart `json:"start,omitempty"`
	Steps int           `json:"steps"`           // step.before events reserved so far
	Shown bool          `json:"shown,omitempty"` // the node pushed memory into this session
	// Events are the latest events reserved, newest last, at most maxSeen.
	Events  []SeenEvent `json:"events,omitempty"`
	Updated time.Time   `json:"updated"`
}

// PendingStart is a session.start as first built.
type PendingStart struct {
	EventID    string          `json:"event_id"`
	OccurredAt time.Time       `json:"occurred_at"`
	Payload    json.RawMessage `json:"payload"`
}

// SeenEvent pins what an event was first sent with, so that the same hook
// run again sends the same body and the node answers it as before.
type SeenEvent struct {
	ID         string    `json:"id"`
	Key        string    `json:"key"` // what the ID was derived from, before the occurrence count
	OccurredAt time.Time `json:"occurred_at"`
	Step       int       `json:"step,omitempty"`
	Acked      bool      `json:"acked,omitempty"`
}

const maxSeen = 128

// Seen returns the event with id, if it is remembered.
func (s *SessionState) Seen(id string) (SeenEvent, bool) {
	for _, e := range s.Events {
		if e.ID == id {
			return e, true
		}
	}
	return SeenEvent{}, false
}

// Acked counts acknowledged events derived from key.
func (s *SessionState) Acked(key string) int {
	n := 0
	for _, e := range s.Events {
		if e.Key == key && e.Acked {
			n++
		}
	}
	return n
}

func (s *SessionState) remember(e SeenEvent) {
	s.Events = append(s.Events, e)
	if len(s.Events) > maxSeen {
		s.Events = s.Events[len(s.Events)-maxSeen:]
	}
}

func (s *SessionState) ack(id string) {
	for i := range s.Events {
		if s.Events[i].ID == id {
			s.Events[i].Acked = true
		}
	}
}

// Store keeps SessionStates under Dir, one file per adapter and agent
// session. Update is safe across processes: it holds a lock file while it
// reads, changes and writes a state, never while the network is used.
type Store struct {
	Dir string
	Now func() time.Time
	// LockWait bounds how long Update waits for another hook's lock before
	// it gives up; a hook that cannot get its state does nothing rather than
	// make the agent wait.
	LockWait time.Duration
}

// ErrBusy is returned when a session's state stays locked past LockWait.
var ErrBusy = errors.New("session state is locked by another hook")

// staleLock is the age past which a lock is taken to be left by a hook that
// died: no hook holds one for longer than a read and a write.
const staleLock = 5 * time.Second

func (st *Store) path(adapterID, sessionID string) string {
	sum := sha256.Sum256([]byte(sessionID))
	return filepath.Join(st.Dir, adapterID, hex.EncodeToString(sum[:16])+".json")
}

func (st *Store) now() time.Time {
	if st.Now != nil {
		return st.Now()
	}
	return time.Now()
}

// Update runs f on the state of (adapterID, sessionID) and saves it when f
// returns nil. A session not seen before starts from its zero state.
func (st *Store) Update(adapterID, sessionID string, f func(*SessionState) error) (SessionState, error) {
	p := st.path(adapterID, sessionID)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return SessionState{}, fmt.Errorf("make state directory: %w", err)
	}
	unlock, err := st.lock(p + ".lock")
	if err != nil {
		return SessionState{}, err
	}
	defer unlock()
	var s SessionState
	data, err := os.ReadFile(p)
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &s); err != nil {
			// A torn or foreign file must not wedge the session forever:
			// start it afresh in a new generation.
			s = SessionState{Generation: s.Generation + 1}
		}
	case errors.Is(err, fs.ErrNotExist):
	default:
		return SessionState{}, fmt.Errorf("read session state: %w", err)
	}
	s.SessionID = sessionID
	if err := f(&s); err != nil {
		return s, err
	}
	s.Updated = st.now().UTC()
	out, err := json.Marshal(&s)
	if err != nil {
		return s, fmt.Errorf("encode session state: %w", err)
	}
	if err := replaceFile(p, out); err != nil {
		return s, fmt.Errorf("write session state: %w", err)
	}
	return s, nil
}

func (st *Store) lock(p string) (func(), error) {
	wait := st.LockWait
	if wait <= 0 {
		wait = 400 * time.Millisecond
	}
	deadline := time.Now().Add(wait)
	for {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(p) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock session state: %w", err)
		}
		if fi, err := os.Stat(p); err == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(p)
			continue
		}
		if time.Now().After(deadline) {
			return nil, ErrBusy
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Live returns the state of adapterID's session that hooks bound in the
// workspace root and updated last, among those not ended whose handle keep
// accepts. It reads without the lock: Update replaces a state file whole,
// so a read sees one state or the next. A file that cannot be read is
// passed over.
func (st *Store) Live(adapterID, root string, keep func(handle string) bool) (SessionState, bool) {
	dir := filepath.Join(st.Dir, adapterID)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return SessionState{}, false
	}
	root = filepath.Clean(root)
	var best SessionState
	found := false
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		var s SessionState
		if json.Unmarshal(data, &s) != nil || s.Handle == "" || s.Ended || s.Root == "" || filepath.Clean(s.Root) != root {
			continue
		}
		if keep != nil && !keep(s.Handle) {
			continue
		}
		if !found || s.Updated.After(best.Updated) {
			best, found = s, true
		}
	}
	return best, found
}

// Prune removes the states of adapterID not updated for maxAge, so a
// machine that runs thousands of sessions does not keep them all.
func (st *Store) Prune(adapterID string, maxAge time.Duration) {
	dir := filepath.Join(st.Dir, adapterID)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	cutoff := st.now().Add(-maxAge)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
