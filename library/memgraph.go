package library

import (
	"context"
	"fmt"
	"sync"
)

// MemGraph is a Graph held in memory, for tests and tools: it keeps what
// Publish admits and forgets it all when dropped. It is safe for concurrent
// use; Publish checks and stores under one lock, as the Graph contract asks
// of every store.
type MemGraph struct {
	mu        sync.Mutex         // guards the maps below
	revisions map[string]*Stored // by revision ID
	heads     map[string]string  // lineage root → head
	votes     map[[2]string]string
}

// NewMemGraph returns an empty graph.
func NewMemGraph() *MemGraph {
	return &MemGraph{
		revisions: map[string]*Stored{},
		heads:     map[string]string{},
		votes:     map[[2]string]string{},
	}
}

// Publish checks r (Check) and stores it if it may be, returning where it
// stands. A record already stored is returned as it stands with an error
// wrapping ErrDuplicate. The signature and authored_at are the caller's to
// have checked.
func (g *MemGraph) Publish(ctx context.Context, r *Record) (*Stored, error) {
	id, err := r.RevisionID()
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if s, ok := g.revisions[id]; ok {
		return s, fmt.Errorf("library: revision %s: %w", id, ErrDuplicate)
	}
	if err := Check(ctx, r, lockedGraph{g}); err != nil {
		return nil, err
	}
	s := &Stored{ID: id, Root: id, Record: r}
	if r.Previous != "" {
		s.Root = g.revisions[r.Previous].Root
	}
	g.revisions[id] = s
	g.heads[s.Root] = id
	if r.Kind == kindVote && r.Previous == "" {
		g.votes[[2]string{r.Author, r.Links[0].Target}] = id
	}
	return s, nil
}

// Revision implements Graph.
func (g *MemGraph) Revision(ctx context.Context, id string) (*Stored, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return lockedGraph{g}.Revision(ctx, id)
}

// Head implements Graph.
func (g *MemGraph) Head(ctx context.Context, root string) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return lockedGraph{g}.Head(ctx, root)
}

// VoteBy implements Graph.
func (g *MemGraph) VoteBy(ctx context.Context, author, target string) (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return lockedGraph{g}.VoteBy(ctx, author, target)
}

// lockedGraph reads a MemGraph whose lock its caller holds.
type lockedGraph struct{ g *MemGraph }

func (l lockedGraph) Revision(ctx context.Context, id string) (*Stored, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s, ok := l.g.revisions[id]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("library: revision %s: %w", id, ErrNotFound)
}

func (l lockedGraph) Head(ctx context.Context, root string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if h, ok := l.g.heads[root]; ok {
		return h, nil
	}
	return "", fmt.Errorf("library: lineage %s: %w", root, ErrNotFound)
}

func (l lockedGraph) VoteBy(ctx context.Context, author, target string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if v, ok := l.g.votes[[2]string{author, target}]; ok {
		return v, nil
	}
	return "", fmt.Errorf("library: vote by %s on %s: %w", author, target, ErrNotFound)
}
