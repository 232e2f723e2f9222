package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/recall"
	"github.com/agora-node/agora/store"
)

// The memory as a person reads it: the node's admin searches, lists, shows
// and forgets records (node/memory.go serves these on admin routes). None
// of it belongs to a session: nothing here leaves a receipt, spends a
// budget or waits for the next session, so a person sees every record as
// soon as it is written.

// Search ranks every record for words as a session's search would under
// the default profile, and returns at most limit hits, best first. With a
// project, only the records sessions of that project wrote, as Records
// lists them; sessions themselves are pushed records of every project.
// Like every read here, it first follows what other processes sharing
// the store wrote (follow.go).
func (e *Engine) Search(ctx context.Context, words, project string, limit int) ([]memory.Hit, error) {
	if err := e.follow(ctx); err != nil {
		return nil, err
	}
	prof := memory.DefaultProfile()
	q := recall.Query{Text: words, Project: project, Now: e.now()}
	found := e.index.Search(q, weights(prof, searchFloor(prof)), limit*4+8)
	out := []memory.Hit{}
	for _, h := range found {
		r := e.lookup(h.ID)
		if r == nil || (project != "" && r.Project != project) {
			continue
		}
		out = append(out, r.hit(h))
		if len(out) == limit {
			break
		}
	}
	return out, nil
}

// Records returns at most limit records, the one changed last first (a
// new revision, a mark or a trust level is a change). With a project,
// only the records sessions of that project wrote; with an adapter, only
// those its sessions wrote.
func (e *Engine) Records(ctx context.Context, project, adapter string, limit int) ([]memory.ReadRecord, error) {
	if err := e.follow(ctx); err != nil {
		return nil, err
	}
	e.recMu.RLock()
	list := make([]*record, 0, len(e.records))
	for _, r := range e.records {
		if (project == "" || r.Project == project) && (adapter == "" || r.Adapter == adapter) {
			list = append(list, r)
		}
	}
	e.recMu.RUnlock()
	slices.SortFunc(list, func(a, b *record) int {
		return cmp.Or(b.Updated.Compare(a.Updated), cmp.Compare(a.Ref, b.Ref))
	})
	out := make([]memory.ReadRecord, 0, min(limit, len(list)))
	for _, r := range list[:min(limit, len(list))] {
		out = append(out, r.read())
	}
	return out, nil
}

// RecordView is a record whole, as its admin inspects it: what query read
// shows, the fix itself, how often each mark was earned, and every receipt
// naming it.
type RecordView struct {
	Record   memory.ReadRecord
	Adapter  string // the adapter whose sessions wrote it
	Fix      *memory.Fix
	Marks    map[string]int // by the contract's mark names; only those earned
	Receipts []Receipt      // oldest first
}

// Inspect returns record ref whole, or an error wrapping store.ErrNotFound.
func (e *Engine) Inspect(ctx context.Context, ref string) (RecordView, error) {
	if err := e.follow(ctx); err != nil {
		return RecordView{}, err
	}
	r := e.lookup(ref)
	if r == nil {
		return RecordView{}, fmt.Errorf("engine: record %s: %w", ref, store.ErrNotFound)
	}
	rs, err := e.st.MemoryRecordReceipts(ctx, ref)
	if err != nil {
		return RecordView{}, fmt.Errorf("engine: receipts of %s: %w", ref, err)
	}
	v := RecordView{Record: r.read(), Adapter: r.Adapter, Fix: r.Fix, Marks: map[string]int{}, Receipts: receipts(rs)}
	for name, n := range map[string]int{memory.MarkTaskFailed: r.Marks.TaskFailed, "contradicted": r.Marks.Contradicted,
		"superseded": r.Marks.Superseded, memory.MarkUsedThenPassed: r.Marks.UsedThenPassed} {
		if n > 0 {
			v.Marks[name] = n
		}
	}
	return v, nil
}

// Forget removes record ref for good: from the store with its receipts,
// and from ranking before it returns, so no push, search or read finds it
// afterwards. It returns the record as it was and how many receipts went
// with it; a ref that names no record is an error wrapping
// store.ErrNotFound. The topic key it held is free for the next note.
//
// It holds the record lock, so no event is changing the record meanwhile;
// once the removal is sent to the store it is seen through, whatever the
// caller's context says, since the engine must not keep ranking a record
// the store no longer has.
func (e *Engine) Forget(ctx context.Context, ref string) (memory.ReadRecord, int, error) {
	if err := e.follow(ctx); err != nil {
		return memory.ReadRecord{}, 0, err
	}
	e.recWrite.Lock()
	defer e.recWrite.Unlock()
	r := e.lookup(ref)
	if r == nil {
		return memory.ReadRecord{}, 0, fmt.Errorf("engine: record %s: %w", ref, store.ErrNotFound)
	}
	n, err := e.st.DeleteMemoryRecord(context.WithoutCancel(ctx), ref)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return memory.ReadRecord{}, 0, fmt.Errorf("engine: forgetting %s: %w", ref, err)
	}
	// Not found in the store but installed here: it is gone either way
	// (another process deleted it after this one followed).
	e.drop(ref)
	return r.read(), n, nil
}

// Share marks record ref shared (shared true) or no longer shared: the
// admin read its current revision and lets every adapter's sessions read
// it and supersede it or mark it in conflict, whatever their profiles'
// reads say. A new revision of the record is not shared until the admin
// shares it again. It returns the record as it now reads; a ref that names
// no record is an error wrapping store.ErrNotFound. Sharing a shared
// record (or unsharing an unshared one) changes nothing and writes
// nothing.
//
// It holds the record lock, so no event of this process is changing the
// record meanwhile, and a change sent to the store is seen through
// whatever the caller's context says, as Forget does. A record another
// process changed meanwhile is read again and the change made to that
// (follow.go).
func (e *Engine) Share(ctx context.Context, ref string, shared bool) (memory.ReadRecord, error) {
	return e.changeRecord(ctx, ref, func(r *record) (memory.ReadRecord, error) {
		if r.Shared == shared {
			return r.read(), nil
		}
		c := r.clone()
		c.Version++
		c.Shared = shared
		return e.replace(ctx, c, "sharing")
	})
}

// replace stores c, the admin's change to an installed record, and
// installs it; the caller holds recWrite. The store sees the change
// through whatever ctx says, as Forget's removal.
func (e *Engine) replace(ctx context.Context, c *record, doing string) (memory.ReadRecord, error) {
	row, err := c.row()
	if err != nil {
		return memory.ReadRecord{}, err
	}
	if err := e.st.ReplaceMemoryRecord(context.WithoutCancel(ctx), row); err != nil {
		return memory.ReadRecord{}, fmt.Errorf("engine: %s %s: %w", doing, c.Ref, err)
	}
	e.install(c)
	return c.read(), nil
}

// Correction is what a person may rewrite of a record: its title and the
// four parts of its content. The fix, the failure it was matched on and
// what sessions proved of it stay as they are.
type Correction struct {
	Title   string
	Content memory.NoteContent
}

// The bounds of a correction's fields, the contract's for a note's.
const (
	maxTitleRunes   = 160
	maxContentRunes = 2000
)

// Correct rewrites record ref's title and content as its admin corrected
// them: a new revision, ranked on its new words before Correct returns.
// The text goes through the rules a note's does (secrets masked, then
// NoteProblem), so a correction is refused as a note would be, with a
// *memory.Error. The trust, marks and sharing stay: the admin wrote this
// revision, and the fix sessions applied is unchanged. A ref that names
// no record is an error wrapping store.ErrNotFound.
//
// It holds the record lock, and a change sent to the store is seen
// through whatever the caller's context says, as Forget does; a record
// another process changed meanwhile is read again, as for Share.
func (e *Engine) Correct(ctx context.Context, ref string, c Correction) (memory.ReadRecord, error) {
	for _, f := range []struct {
		at   string
		text *string
		most int
	}{{"title", &c.Title, maxTitleRunes}, {"content/what", &c.Content.What, maxContentRunes}, {"content/why", &c.Content.Why, maxContentRunes},
		{"content/where", &c.Content.Where, maxContentRunes}, {"content/learned", &c.Content.Learned, maxContentRunes}} {
		*f.text = strings.TrimSpace(*f.text)
		if n := utf8.RuneCountInString(*f.text); n < 1 || n > f.most {
			return memory.ReadRecord{}, memory.NewError(memory.CodeSchemaInvalid, "at /%s: give 1 to %d characters, not %d", f.at, f.most, n)
		}
		*f.text, _ = memory.MaskSecrets(*f.text)
	}
	return e.changeRecord(ctx, ref, func(r *record) (memory.ReadRecord, error) {
		if err := memory.NoteProblem(&memory.NotePayload{Title: c.Title, Type: r.Type, Scope: r.Scope, Content: c.Content, Fix: r.Fix}); err != nil {
			return memory.ReadRecord{}, err
		}
		if r.Title == c.Title && r.Content == c.Content {
			return r.read(), nil
		}
		n := r.clone()
		n.Version++
		n.Revision++
		n.Updated = e.stamp()
		n.Title, n.Content = c.Title, c.Content
		return e.replace(ctx, n, "correcting")
	})
}
