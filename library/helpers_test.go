package library_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
)

// contract is the read contract as published.
var contract = sync.OnceValue(library.Contract)

// member walks a path of member names from the contract.
func member(v any, names ...string) any {
	for _, n := range names {
		v = v.(map[string]any)[n]
	}
	return v
}

// An actor is one of the examples' two participants.
type actor struct {
	key    *hybrid.PrivateKey
	public string
	author string // operator ID without "op:"
}

// actors are the owner and the peer, made once per test binary: ML-DSA key
// generation is cheap, but there is no need to repeat it.
var actors = sync.OnceValue(func() map[string]*actor {
	out := map[string]*actor{}
	for _, name := range []string{"owner", "peer"} {
		key, err := hybrid.GenerateKey()
		if err != nil {
			panic(err)
		}
		pub := key.Public().String()
		out[name] = &actor{key: key, public: pub, author: strings.TrimPrefix(protocol.OperatorID(pub), "op:")}
	}
	return out
})

// substitute is library.Substitute, failing the test on a placeholder with no ID.
func substitute(t testing.TB, v any, ids map[string]string) any {
	t.Helper()
	out, err := library.Substitute(v, ids)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A world is a graph holding both example sequences, for the rule tests to
// break one rule against. The write contract's steps are named as the
// contract names them ($thread, $map, ...); the object examples' carry an
// "o." prefix ($o.claim, $o.merge, ...).
type world struct {
	t     testing.TB
	g     *library.MemGraph
	ids   map[string]string
	clock time.Time
}

var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newWorld(t testing.TB) *world {
	t.Helper()
	w := &world{t: t, g: library.NewMemGraph(), ids: map[string]string{}, clock: epoch}
	for _, seq := range []struct{ path, prefix string }{{"write_contract/examples", ""}, {"object_examples", "o."}} {
		steps := member(contract(), strings.Split(seq.path, "/")...).(map[string]any)["steps"].([]any)
		own := map[string]string{} // the sequence's names, as its steps use them
		for _, s := range steps {
			step := s.(map[string]any)
			text, err := canonical.Marshal(substitute(t, step["content"], own))
			if err != nil {
				t.Fatal(err)
			}
			id := w.publish(step["actor"].(string), string(text))
			own[step["name"].(string)] = id
			w.ids[seq.prefix+step["name"].(string)] = id
		}
	}
	return w
}

// record makes the record of a content text whose $names are substituted,
// by actor, at the world's next second.
func (w *world) record(actorName, text string) *library.Record {
	w.t.Helper()
	v, err := canonical.Parse([]byte(text))
	if err != nil {
		w.t.Fatalf("content %s: %v", text, err)
	}
	text2, err := canonical.Marshal(substitute(w.t, v, w.ids))
	if err != nil {
		w.t.Fatal(err)
	}
	c, err := library.ParseContent(text2)
	if err != nil {
		w.t.Fatal(err)
	}
	w.clock = w.clock.Add(time.Second)
	r, err := library.NewRecord(c, actors()[actorName].author, w.clock)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

// try checks and, if it passes, stores a record; it returns Publish's error.
func (w *world) try(r *library.Record) error {
	_, err := w.g.Publish(context.Background(), r)
	return err
}

// publish stores a content text that must be accepted, and returns its ID.
func (w *world) publish(actorName, text string) string {
	w.t.Helper()
	s, err := w.g.Publish(context.Background(), w.record(actorName, text))
	if err != nil {
		w.t.Fatalf("publishing %s: %v", text, err)
	}
	return s.ID
}

// zeros is a revision ID nothing has.
var zeros = strings.Repeat("0", 64)
