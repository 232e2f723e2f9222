package storetest

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

func testOperators(f *fixture) {
	k := f.newKey()
	n := f.newOperator(k, "Scout")
	op, err := f.s.CreateOperator(f.ctx, n)
	f.ok(err, "CreateOperator")
	if op.ID != n.ID || op.Name != "Scout" || op.NameBase != "Scout" || op.NameKey != "scout" || op.NameNumber != 1 ||
		op.Model != n.Model || !slices.Equal(op.KeyFamilies, n.KeyFamilies) || !slices.Equal(op.ModelFamilies, n.KeyFamilies) ||
		!op.Registered.Equal(f.now) || len(op.Identities) != 0 {
		f.t.Errorf("CreateOperator = %+v", op)
	}
	if len(op.Keys) != 1 {
		f.t.Fatalf("Keys = %+v, want one", op.Keys)
	}
	key := op.Key()
	if key.Key != pub(k) || key.Digest != protocol.KeyDigest(pub(k)) || key.Entry != n.Entry || key.Since != store.Unlogged ||
		!key.Current() || key.Until != store.Unlogged || !key.Added.Equal(f.now) || !key.Retired.IsZero() {
		f.t.Errorf("Key() = %+v", key)
	}
	if _, ok := op.KeyAt(100); ok {
		f.t.Error("KeyAt finds a key whose entry is not logged")
	}

	// Once its key entry is logged, the key holds from there.
	at := f.bind(n.Entry)
	got, err := f.s.Operator(f.ctx, op.ID)
	f.ok(err, "Operator")
	if got.Key().Since != at {
		f.t.Errorf("Key().Since = %d, want %d", got.Key().Since, at)
	}
	if held, ok := got.KeyAt(at + 1); !ok || held.Key != pub(k) {
		f.t.Errorf("KeyAt(%d) = %+v, %v", at+1, held, ok)
	}
	if _, ok := got.KeyAt(at); ok {
		f.t.Errorf("KeyAt(%d) finds the key its own entry gives", at)
	}
	byKey, err := f.s.OperatorByKey(f.ctx, protocol.KeyDigest(pub(k)))
	f.ok(err, "OperatorByKey")
	if byKey.ID != op.ID {
		f.t.Errorf("OperatorByKey = %s, want %s", byKey.ID, op.ID)
	}

	// Registering again answers with where it stands, whatever it asks.
	again := f.newOperator(k, "Another Name")
	dup, err := f.s.CreateOperator(f.ctx, again)
	f.is(err, store.ErrDuplicate, "CreateOperator again")
	if dup.ID != op.ID || dup.Name != "Scout" || dup.Key().Entry != n.Entry {
		f.t.Errorf("CreateOperator again returned %+v, want the record that stands", dup)
	}

	// Bad calls.
	bad := f.newOperator(f.newKey(), "Scout")
	bad.ID = op.ID
	f.is(second(f.s.CreateOperator(f.ctx, bad)), store.ErrInvalid, "CreateOperator with another key's ID")
	unput := f.newOperator(f.newKey(), "Scout")
	unput.Entry = "sha256:" + nonce()
	f.is(second(f.s.CreateOperator(f.ctx, unput)), store.ErrNotFound, "CreateOperator with an entry not put")
	if _, err := f.s.Operator(f.ctx, unput.ID); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("a failed CreateOperator left %s: %v", unput.ID, err)
	}

	// The families calls name, latest first.
	f.ok(f.s.NoteModelFamily(f.ctx, op.ID, "gpt"), "NoteModelFamily")
	f.ok(f.s.NoteModelFamily(f.ctx, op.ID, "gemini"), "NoteModelFamily")
	f.ok(f.s.NoteModelFamily(f.ctx, op.ID, "gpt"), "NoteModelFamily")
	got, _ = f.s.Operator(f.ctx, op.ID)
	if want := []string{"gpt", "gemini", "claude"}; !slices.Equal(got.ModelFamilies, want) || !slices.Equal(got.KeyFamilies, []string{"claude"}) {
		f.t.Errorf("ModelFamilies = %v, KeyFamilies = %v; want %v, [claude]", got.ModelFamilies, got.KeyFamilies, want)
	}
}

func testNames(f *fixture) {
	first, _ := f.register("Scout")
	second, _ := f.register("scout")
	third, _ := f.register("S C O U T")
	other, _ := f.register("Ranger")
	for _, tc := range []struct {
		op   store.Operator
		name string
		n    int
	}{
		{first, "Scout", 1}, {second, "scout #2", 2}, {third, "S C O U T #3", 3}, {other, "Ranger", 1},
	} {
		if tc.op.Name != tc.name || tc.op.NameNumber != tc.n {
			f.t.Errorf("%s: Name %q #%d, want %q #%d", tc.op.ID, tc.op.Name, tc.op.NameNumber, tc.name, tc.n)
		}
	}

	// A rename under the same key keeps the number.
	op, changed, err := f.rename(second.ID, "SCOUT", "scout")
	f.ok(err, "Rename")
	if !changed || op.Name != "SCOUT #2" || op.NameNumber != 2 || op.NameBase != "SCOUT" {
		f.t.Errorf("Rename to the same key: %q #%d, changed %v", op.Name, op.NameNumber, changed)
	}
	op, changed, err = f.rename(second.ID, "SCOUT", "scout")
	f.ok(err, "Rename")
	if changed || op.Name != "SCOUT #2" {
		f.t.Errorf("Rename to the same name: %q, changed %v", op.Name, changed)
	}
	// A rename to another key takes that key's next number, and the
	// number it gave up is never given again.
	op, changed, err = f.rename(first.ID, "Ranger", "ranger")
	f.ok(err, "Rename")
	if !changed || op.Name != "Ranger #2" || op.NameNumber != 2 {
		f.t.Errorf("Rename to a taken name: %q #%d, changed %v", op.Name, op.NameNumber, changed)
	}
	fourth, _ := f.register("Scout")
	if fourth.Name != "Scout #4" {
		f.t.Errorf("a name given up was given again: %q, want Scout #4", fourth.Name)
	}
	op, _, err = f.rename(other.ID, "Pathfinder", "pathfinder")
	f.ok(err, "Rename")
	if op.Name != "Pathfinder" || op.NameNumber != 1 {
		f.t.Errorf("Rename to a new name: %q #%d", op.Name, op.NameNumber)
	}
	f.is(thirdErr(f.rename(other.ID, "", "")), store.ErrInvalid, "Rename to nothing")
}

func thirdErr[A, B any](_ A, _ B, err error) error { return err }

// rename renames operator as a new signed entry, signed now, asks: no
// limit, and an entry never seen before.
func (f *fixture) rename(operator, name, nameKey string) (store.Operator, bool, error) {
	return f.s.Rename(f.ctx, store.NameChange{Operator: operator, Name: name, NameKey: nameKey,
		Entry: "sha256:" + Nonce() + Nonce(), Signed: f.now, At: f.now})
}

// testRenameReplays checks that a rename is idempotent by its entry: the
// same entry again changes and counts nothing, an entry signed before the
// latest applied one never reverts it, and the limit counts entries.
func testRenameReplays(f *fixture) {
	op, _ := f.register("Replayed")
	change := func(name, entry string, signed, at time.Time) store.NameChange {
		return store.NameChange{Operator: op.ID, Name: name, NameKey: strings.ToLower(name), Entry: entry,
			Signed: signed, At: at, Limit: 2, Window: 24 * time.Hour}
	}
	older, newer := "sha256:"+Nonce()+Nonce(), "sha256:"+Nonce()+Nonce()
	got, changed, err := f.s.Rename(f.ctx, change("Older", older, f.now, f.now))
	f.ok(err, "Rename")
	if !changed || got.NameBase != "Older" {
		f.t.Errorf("Rename = %q, changed %v", got.NameBase, changed)
	}
	for i := range 3 {
		got, changed, err = f.s.Rename(f.ctx, change("Older", older, f.now, f.now.Add(time.Duration(i+1)*time.Second)))
		f.is(err, store.ErrDuplicate, "the same entry again")
		if changed || got.NameBase != "Older" {
			f.t.Errorf("the same entry again: %q, changed %v", got.NameBase, changed)
		}
	}
	// The replays counted nothing: the second of two renames goes through.
	got, changed, err = f.s.Rename(f.ctx, change("Newer", newer, f.now.Add(time.Minute), f.now.Add(time.Minute)))
	f.ok(err, "Rename after replays")
	if !changed || got.NameBase != "Newer" {
		f.t.Errorf("Rename after replays = %q, changed %v", got.NameBase, changed)
	}
	// The older entry again, after the newer: no revert.
	got, _, err = f.s.Rename(f.ctx, change("Older", older, f.now, f.now.Add(2*time.Minute)))
	f.is(err, store.ErrDuplicate, "the older entry again")
	if got.NameBase != "Newer" {
		f.t.Errorf("the older entry reverted the name: %q", got.NameBase)
	}
	// An entry never seen, signed before the newer one: refused.
	got, _, err = f.s.Rename(f.ctx, change("Late", "sha256:"+Nonce()+Nonce(), f.now.Add(30*time.Second), f.now.Add(2*time.Minute)))
	f.is(err, store.ErrConflict, "an entry signed before the latest")
	if got.NameBase != "Newer" {
		f.t.Errorf("a late entry reverted the name: %q", got.NameBase)
	}
	// The limit (2) is reached now, and lapses a day after the first.
	var le *store.LimitError
	_, _, err = f.s.Rename(f.ctx, change("Third", "sha256:"+Nonce()+Nonce(), f.now.Add(3*time.Minute), f.now.Add(3*time.Minute)))
	if !errors.As(err, &le) || le.RetryAfter != 24*time.Hour-3*time.Minute {
		f.t.Errorf("past the limit: %v, want a *store.LimitError to retry in 23h57m", err)
	}
	got, _, err = f.s.Rename(f.ctx, change("Third", "sha256:"+Nonce()+Nonce(), f.now.Add(25*time.Hour), f.now.Add(25*time.Hour)))
	f.ok(err, "Rename a day later")
	if got.NameBase != "Third" {
		f.t.Errorf("Rename a day later = %q", got.NameBase)
	}
	f.is(thirdErr(f.s.Rename(f.ctx, store.NameChange{Operator: op.ID, Name: "X", NameKey: "x", Signed: f.now, At: f.now})), store.ErrInvalid, "Rename without its entry")
}

// testNamesConcurrent registers operators under one name at once: each gets
// its own number, 1 to n, and exactly one shows the name without one.
func testNamesConcurrent(f *fixture) {
	const n = 24
	ops := make([]store.NewOperator, n)
	for i := range ops {
		ops[i] = f.newOperator(f.newKey(), []string{"Scout", "scout", "SCOUT"}[i%3])
	}
	numbers := make([]int, n)
	names := make([]string, n)
	var failed atomic.Int32
	parallel(n, func(i int) {
		op, err := f.s.CreateOperator(f.ctx, ops[i])
		if err != nil {
			failed.Add(1)
			f.t.Errorf("CreateOperator: %v", err)
			return
		}
		numbers[i], names[i] = op.NameNumber, op.Name
	})
	if failed.Load() > 0 {
		return
	}
	sort.Ints(numbers)
	for i, got := range numbers {
		if got != i+1 {
			f.t.Fatalf("numbers given = %v, want 1 to %d once each", numbers, n)
		}
	}
	plain := 0
	seen := map[string]bool{}
	for _, name := range names {
		if !strings.Contains(name, "#") {
			plain++
		}
		if seen[name] {
			f.t.Errorf("two operators show as %q", name)
		}
		seen[name] = true
	}
	if plain != 1 {
		f.t.Errorf("%d operators show the name without a number, want 1: %v", plain, names)
	}
}

func testRotation(f *fixture) {
	op, k0 := f.register("Scout")
	keyEntry := op.Key().Entry
	k1, k2 := f.newKey(), f.newKey()

	r1 := f.rotation(op.ID, k0, k1)
	got, err := f.s.RotateKey(f.ctx, r1)
	f.ok(err, "RotateKey")
	if len(got.Keys) != 2 || got.Key().Key != pub(k1) || got.Key().Entry != r1.Entry || !got.Key().Current() {
		f.t.Fatalf("after RotateKey, Keys = %+v", got.Keys)
	}
	old := got.Keys[0]
	if old.Key != pub(k0) || old.RetiredBy != r1.Entry || old.Current() || !old.Retired.Equal(f.now) || old.Until != store.Unlogged {
		f.t.Errorf("the retired key = %+v", old)
	}
	if got.ID != op.ID || got.Name != op.Name {
		f.t.Errorf("RotateKey changed the record: %+v", got)
	}
	// Logging both entries gives the keys their indexes.
	i0, i1 := f.bind(keyEntry), f.bind(r1.Entry)
	got, _ = f.s.Operator(f.ctx, op.ID)
	if got.Keys[0].Since != i0 || got.Keys[0].Until != i1 || got.Keys[1].Since != i1 || got.Keys[1].Until != store.Unlogged {
		f.t.Errorf("indexes of the keys: %+v", got.Keys)
	}
	if held, _ := got.KeyAt(i1); held.Key != pub(k0) {
		f.t.Errorf("KeyAt(%d) = %s, want the first key", i1, held.Key)
	}
	if held, _ := got.KeyAt(i1 + 1); held.Key != pub(k1) {
		f.t.Errorf("KeyAt(%d) = %s, want the second key", i1+1, held.Key)
	}
	for _, d := range []string{digestOf(k0), digestOf(k1)} {
		if byKey, err := f.s.OperatorByKey(f.ctx, d); err != nil || byKey.ID != op.ID {
			f.t.Errorf("OperatorByKey(%s) = %s, %v", d, byKey.ID, err)
		}
	}

	// The same rotation again stands; one from the retired key conflicts.
	dup, err := f.s.RotateKey(f.ctx, r1)
	f.is(err, store.ErrDuplicate, "RotateKey again")
	if len(dup.Keys) != 2 {
		f.t.Errorf("RotateKey again returned %d keys", len(dup.Keys))
	}
	f.is(second(f.s.RotateKey(f.ctx, f.rotation(op.ID, k0, k2))), store.ErrKeyChanged, "RotateKey from a retired key")
	// A retired key never comes back, to this operator or another.
	f.is(second(f.s.RotateKey(f.ctx, f.rotation(op.ID, k1, k0))), store.ErrKeyUsed, "RotateKey back to a retired key")
	f.is(second(f.s.RotateKey(f.ctx, f.rotation(op.ID, k1, k1))), store.ErrKeyUsed, "RotateKey to the current key")
	f.is(second(f.s.CreateOperator(f.ctx, f.newOperator(k1, "Thief"))), store.ErrKeyUsed, "CreateOperator with another operator's key")
	other, otherKey := f.register("Ranger")
	f.is(second(f.s.RotateKey(f.ctx, f.rotation(other.ID, otherKey, k1))), store.ErrKeyUsed, "RotateKey to another operator's key")
	f.is(second(f.s.RotateKey(f.ctx, f.rotation(other.ID, otherKey, k0))), store.ErrKeyUsed, "RotateKey to another operator's retired key")
	unput := f.rotation(op.ID, k1, k2)
	unput.Entry = "sha256:" + nonce()
	f.is(second(f.s.RotateKey(f.ctx, unput)), store.ErrNotFound, "RotateKey with an entry not put")

	// And on: the third key.
	got, err = f.s.RotateKey(f.ctx, f.rotation(op.ID, k1, k2))
	f.ok(err, "RotateKey to a third key")
	if len(got.Keys) != 3 || got.Key().Key != pub(k2) || got.Keys[1].Current() {
		f.t.Errorf("after a second rotation, Keys = %+v", got.Keys)
	}
}

// testRotationConcurrent rotates one key to many at once: one wins, the
// rest find the key changed.
func testRotationConcurrent(f *fixture) {
	op, k0 := f.register("Scout")
	const n = 12
	rotations := make([]store.Rotation, n)
	for i := range rotations {
		rotations[i] = f.rotation(op.ID, k0, f.newKey())
	}
	var won, changed atomic.Int32
	parallel(n, func(i int) {
		_, err := f.s.RotateKey(f.ctx, rotations[i])
		switch {
		case err == nil:
			won.Add(1)
		case errors.Is(err, store.ErrKeyChanged):
			changed.Add(1)
		default:
			f.t.Errorf("RotateKey: %v", err)
		}
	})
	if won.Load() != 1 || changed.Load() != n-1 {
		f.t.Errorf("%d rotations won and %d found the key changed, want 1 and %d", won.Load(), changed.Load(), n-1)
	}
	got, _ := f.s.Operator(f.ctx, op.ID)
	if len(got.Keys) != 2 {
		f.t.Errorf("Keys = %d, want 2", len(got.Keys))
	}
}

func testIdentities(f *fixture) {
	op, _ := f.register("Scout")

	invited := f.identity(op.ID, "invited", "", op.ID)
	got, err := f.s.AddIdentity(f.ctx, invited)
	f.ok(err, "AddIdentity invited")
	if got.Kind != "invited" || got.Organization != op.ID || got.Entry != invited.Entry || got.Index != store.Unlogged || !got.Added.Equal(f.now) {
		f.t.Errorf("AddIdentity = %+v", got)
	}
	domain := f.identity(op.ID, "domain", "lab.example.org", "example.org")
	_, err = f.s.AddIdentity(f.ctx, domain)
	f.ok(err, "AddIdentity domain")

	rec, _ := f.s.Operator(f.ctx, op.ID)
	if len(rec.Identities) != 2 || rec.Identities[0].Kind != "domain" || rec.Identities[1].Kind != "invited" {
		f.t.Fatalf("Identities = %+v, want domain first", rec.Identities)
	}
	if counted, ok := rec.Identity(); !ok || counted.Organization != "example.org" || counted.Subject != "lab.example.org" {
		f.t.Errorf("Identity() = %+v, %v", counted, ok)
	}

	// Proving the same again stands; another domain is refused.
	again := f.identity(op.ID, "domain", "lab.example.org", "example.org")
	dup, err := f.s.AddIdentity(f.ctx, again)
	f.is(err, store.ErrDuplicate, "AddIdentity again")
	if dup.Entry != domain.Entry {
		f.t.Errorf("AddIdentity again returned %+v, want the identity that stands", dup)
	}
	f.is(second(f.s.AddIdentity(f.ctx, f.identity(op.ID, "domain", "other.org", "other.org"))), store.ErrIdentityTaken, "a second domain")

	at := f.bind(domain.Entry)
	rec, _ = f.s.Operator(f.ctx, op.ID)
	if rec.Identities[0].Index != at {
		f.t.Errorf("the domain identity's Index = %d, want %d", rec.Identities[0].Index, at)
	}

	github := f.identity(op.ID, "github", "example-lab/agents", "github:42")
	github.Entry = "sha256:" + nonce()
	f.is(second(f.s.AddIdentity(f.ctx, github)), store.ErrNotFound, "AddIdentity with an entry not put")
	bad := f.identity(op.ID, "passport", "x", "x")
	f.is(second(f.s.AddIdentity(f.ctx, bad)), store.ErrInvalid, "AddIdentity of an unknown kind")
	noInvite := f.identity(op.ID, "sponsored", "", "example.org")
	f.is(second(f.s.AddIdentity(f.ctx, noInvite)), store.ErrInvalid, "a sponsored identity without its invite")
}

// testOperatorReadsFollowWrites reads an operator, its entries logged,
// after each write that changes its record: a store that keeps records
// between reads must not serve one a later write changed.
func testOperatorReadsFollowWrites(f *fixture) {
	op, k0 := f.register("Scout")
	f.bind(op.Key().Entry)
	read := func(what string, holds func(store.Operator) bool) {
		f.t.Helper()
		for range 2 { // the second read may come from a kept record
			got, err := f.s.Operator(f.ctx, op.ID)
			f.ok(err, "Operator")
			if !holds(got) {
				f.t.Errorf("after %s, Operator = %+v", what, got)
			}
		}
	}
	read("registering", func(o store.Operator) bool { return o.Name == "Scout" && len(o.Identities) == 0 })

	id, err := f.s.AddIdentity(f.ctx, f.identity(op.ID, "domain", "example.org", "example.org"))
	f.ok(err, "AddIdentity")
	f.bind(id.Entry)
	read("AddIdentity", func(o store.Operator) bool { return len(o.Identities) == 1 && o.Identities[0].Index != store.Unlogged })

	f.ok(f.s.NoteModelFamily(f.ctx, op.ID, "gemini"), "NoteModelFamily")
	read("NoteModelFamily", func(o store.Operator) bool { return len(o.ModelFamilies) > 0 && o.ModelFamilies[0] == "gemini" })

	_, _, err = f.s.Rename(f.ctx, store.NameChange{Operator: op.ID, Name: "Pathfinder", NameKey: "pathfinder",
		Entry: "sha256:" + Nonce() + Nonce(), Signed: f.now, At: f.now})
	f.ok(err, "Rename")
	read("Rename", func(o store.Operator) bool { return o.NameBase == "Pathfinder" })

	k1 := f.newKey()
	r := f.rotation(op.ID, k0, k1)
	_, err = f.s.RotateKey(f.ctx, r)
	f.ok(err, "RotateKey")
	f.bind(r.Entry)
	read("RotateKey", func(o store.Operator) bool { return o.Key().Key == pub(k1) && o.Key().Since != store.Unlogged })
}
