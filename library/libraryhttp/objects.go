package libraryhttp

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/library"
)

// The library's reads of one object, as the read contract's routes give
// them (GET /api/contract serves the contract as this node fills it in):
//
//	GET /api/entries/{revision}/connections?offset
//	GET /api/entries/{revision}/discussion?sort&offset
//	GET /api/maps/{revision}
//	GET /api/research/{revision}/activity?offset&challenges
//	GET /api/scores?author
//	GET /api/objects/{revision}?section&offset&exact
//	GET /api/contract
//
// {revision} is an exact revision ID; one that is not 64 lowercase hex
// digits is 400, one not stored 404. Listings page by offset, 50 records a
// page (PageSize), with next_offset the offset of the next page or null at
// the end; a bad offset, sort, section or boolean is 400. Records are the
// contract's signed records (signedRecord). What each listing holds is
// defined once, on library.ObjectStore; each answer is read from one
// snapshot per listing, not across listings.

// PageSize is the contract's limits.page_size.
const PageSize = 50

// maxAncestors bounds the containment chain an object read follows. The
// rules keep containment acyclic (parents are existing roots, immutable on
// revision); the bound only keeps a damaged store from looping a request.
const maxAncestors = 64

func (s *Server) routeLibraryObjects() {
	s.mux.Handle("GET /api/entries/{revision}/connections", s.serve(s.getConnections))
	s.mux.Handle("GET /api/entries/{revision}/discussion", s.serve(s.getDiscussion))
	s.mux.Handle("GET /api/maps/{revision}", s.serve(s.getMap))
	s.mux.Handle("GET /api/research/{revision}/activity", s.serve(s.getActivity))
	s.mux.Handle("GET /api/scores", s.serve(s.getScores))
	s.mux.Handle("GET /api/objects/{revision}", s.serve(s.getObject))
	s.mux.Handle("GET /api/contract", s.serve(s.getContract))
}

// getConnections answers GET /api/entries/{revision}/connections: the
// revision's own links (outgoing), the backlinks to its lineage
// (library.ObjectStore.Incoming) and its lineage's revision IDs, oldest
// first (history). One offset pages incoming and history together, since
// the contract gives one next_offset: it is set while either has more.
func (s *Server) getConnections(r *http.Request) (any, int, error) {
	c, err := s.pathRevision(r)
	if err != nil {
		return nil, 0, err
	}
	offset, err := queryOffset(r)
	if err != nil {
		return nil, 0, err
	}
	in, err := s.store.Incoming(r.Context(), c.Root, offset, PageSize)
	if err != nil {
		return nil, 0, err
	}
	history, err := s.store.Revisions(r.Context(), c.Root, offset, PageSize)
	if err != nil {
		return nil, 0, err
	}
	outgoing := make([]any, len(c.Record.Links))
	for i, l := range c.Record.Links {
		outgoing[i] = map[string]any{"relation": l.Relation, "target": l.Target}
	}
	incoming := make([]any, len(in.Items))
	for i, b := range in.Items {
		incoming[i] = map[string]any{"source": b.Source, "relation": b.Relation, "title": b.SourceTitle, "target": b.Target, "kind": b.SourceKind}
	}
	ids := make([]any, len(history.Items))
	for i, h := range history.Items {
		ids[i] = h.ID
	}
	next := nextOffset(offset, len(in.Items), in.Total)
	if next == nil {
		next = nextOffset(offset, len(history.Items), history.Total)
	}
	return map[string]any{
		"outgoing":       outgoing,
		"incoming":       incoming,
		"incoming_total": in.Total,
		"history":        ids,
		"history_total":  history.Total,
		"next_offset":    next,
	}, http.StatusOK, nil
}

// getDiscussion answers GET /api/entries/{revision}/discussion: the
// discussion under the revision's lineage (library.ObjectStore.Discussion),
// sorted new (the default), old or top.
func (s *Server) getDiscussion(r *http.Request) (any, int, error) {
	c, err := s.pathRevision(r)
	if err != nil {
		return nil, 0, err
	}
	offset, err := queryOffset(r)
	if err != nil {
		return nil, 0, err
	}
	sort := library.DiscussionSort(r.URL.Query().Get("sort"))
	switch sort {
	case "":
		sort = library.SortNew
	case library.SortNew, library.SortOld, library.SortTop:
	default:
		return nil, 0, httpapi.BadRequest("bad_request", "sort must be new, old or top, not %q", sort)
	}
	p, err := s.store.Discussion(r.Context(), c.Root, sort, offset, PageSize)
	if err != nil {
		return nil, 0, err
	}
	return pageAnswer(p, offset), http.StatusOK, nil
}

// mapBody is what a map read needs of a research map's body; the body was
// checked against the content schema when it was admitted.
type mapBody struct {
	Question    string
	Nodes       []string
	Edges       []any
	Assessments []string
}

// getMap answers GET /api/maps/{revision}: the exact map revision with
// the signed record of each node revision it pins and each assessment it
// selects, in its body's order, its edges, its current head and its fork
// origin. A revision that is not a research map is 404: there is no map
// at that address.
func (s *Server) getMap(r *http.Request) (any, int, error) {
	c, err := s.pathRevision(r)
	if err != nil {
		return nil, 0, err
	}
	if c.Record.Kind != "research-map" {
		return nil, 0, &httpapi.Error{Status: http.StatusNotFound, Code: "not_found",
			Message: fmt.Sprintf("%s is %s, not a research map", c.ID, c.Record.Kind)}
	}
	m, err := decodeMap(c.Record)
	if err != nil {
		return nil, 0, fmt.Errorf("map %s as stored: %w", c.ID, err)
	}
	pinned, err := s.store.Contributions(r.Context(), append(slices.Clone(m.Nodes), m.Assessments...))
	if err != nil {
		// Everything a map names existed when it was admitted.
		return nil, 0, inconsistent(fmt.Errorf("map %s: reading what it pins: %w", c.ID, err))
	}
	head, err := s.store.ContributionHead(r.Context(), c.Root)
	if err != nil {
		return nil, 0, err
	}
	var forksFrom any
	for _, l := range c.Record.Links {
		if l.Relation == "forks_from" {
			forksFrom = l.Target
		}
	}
	edges := m.Edges
	if edges == nil {
		edges = []any{}
	}
	return map[string]any{
		"map":         signedRecord(c),
		"head":        head.ID,
		"forks_from":  forksFrom,
		"question":    m.Question,
		"nodes":       signedRecords(pinned[:len(m.Nodes)]),
		"assessments": signedRecords(pinned[len(m.Nodes):]),
		"edges":       edges,
	}, http.StatusOK, nil
}

// inconsistent is a read that found the store breaking what the rules
// guaranteed when a record was admitted, such as a revision it names gone:
// a 500, never the 404 the not-found error it wraps would be.
func inconsistent(err error) error {
	return &httpapi.Error{Status: http.StatusInternalServerError, Code: "internal", Message: "The node failed to answer; try again later", Err: err}
}

// decodeMap reads a research map's body.
func decodeMap(rec *library.Record) (mapBody, error) {
	v, err := canonical.Parse([]byte(rec.Body))
	if err != nil {
		return mapBody{}, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return mapBody{}, fmt.Errorf("body is %s, not an object", canonical.Describe(v))
	}
	strs := func(name string) []string {
		list, _ := obj[name].([]any)
		out := make([]string, 0, len(list))
		for _, e := range list {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	q, _ := obj["question"].(string)
	edges, _ := obj["edges"].([]any)
	return mapBody{Question: q, Nodes: strs("nodes"), Edges: edges, Assessments: strs("assessments")}, nil
}

// getActivity answers GET /api/research/{revision}/activity: for a
// research node or a claim, the evidence and assessments of that exact
// revision (with challenges=true, only counterexamples and disputed or
// refuted assessments); for a research map, the proposals made against any
// revision of it. Other kinds have no research activity: 404.
func (s *Server) getActivity(r *http.Request) (any, int, error) {
	c, err := s.pathRevision(r)
	if err != nil {
		return nil, 0, err
	}
	offset, err := queryOffset(r)
	if err != nil {
		return nil, 0, err
	}
	challenges, err := queryBool(r, "challenges")
	if err != nil {
		return nil, 0, err
	}
	q := library.ActivityQuery{Subject: c.ID, Challenges: challenges, Offset: offset, Limit: PageSize}
	switch c.Record.Kind {
	case "research-node":
		q.Kinds = []string{"research-evidence", "research-assessment"}
	case "claim":
		q.Kinds = []string{"evidence", "assessment"}
	case "research-map":
		if challenges {
			return nil, 0, httpapi.BadRequest("bad_request", "challenges=true reads a node's challenges; a map's activity is its proposals")
		}
		q.Subject, q.Lineage, q.Kinds = c.Root, true, []string{"research-proposal"}
	default:
		return nil, 0, &httpapi.Error{Status: http.StatusNotFound, Code: "not_found",
			Message: fmt.Sprintf("%s is %s: research activity is kept for research nodes, claims and maps", c.ID, c.Record.Kind)}
	}
	p, err := s.store.Activity(r.Context(), q)
	if err != nil {
		return nil, 0, err
	}
	return pageAnswer(p, offset), http.StatusOK, nil
}

// getScores answers GET /api/scores: the host's projection of the current
// votes on every root voted on (library.ObjectStore.VoteTotals), and with
// author (64 hex digits, or an operator ID with "op:"), that author's
// current vote on each root. Any other parameter, or author twice, is 400,
// as on the catalogue and the changes feed.
func (s *Server) getScores(r *http.Request) (any, int, error) {
	p, err := queryParams(r, "author")
	if err != nil {
		return nil, 0, err
	}
	given, asked := p["author"]
	author := strings.TrimPrefix(given, "op:")
	if asked && !library.IsRevisionID(author) {
		return nil, 0, httpapi.BadRequest("bad_request", "author must be an operator ID: 64 lowercase hex digits, with or without \"op:\"")
	}
	totals, err := s.store.VoteTotals(r.Context(), nil)
	if err != nil {
		return nil, 0, err
	}
	byTarget := make(map[string]any, len(totals))
	for _, t := range totals {
		byTarget[t.Target] = map[string]any{"score": t.Score, "up": t.Up, "down": t.Down}
	}
	answer := map[string]any{"totals": byTarget}
	if author != "" {
		votes, err := s.store.VotesBy(r.Context(), author)
		if err != nil {
			return nil, 0, err
		}
		mine := make(map[string]any, len(votes))
		for _, v := range votes {
			mine[v.Target] = map[string]any{"value": v.Value, "id": v.ID, "root": v.Root}
		}
		answer["author"] = author
		answer["votes"] = mine
	}
	return answer, http.StatusOK, nil
}

// getObject answers GET /api/objects/{revision}: the object's item (its
// current head, or the revision asked for with exact=true), its head's ID,
// its original (the root), its ancestors (the current heads of the
// lineages it is contained in, following contained_in, root first), one
// page of a section (library.ObjectSection says what each holds; all by
// default), and how many revisions its lineage has.
func (s *Server) getObject(r *http.Request) (any, int, error) {
	c, err := s.pathRevision(r)
	if err != nil {
		return nil, 0, err
	}
	offset, err := queryOffset(r)
	if err != nil {
		return nil, 0, err
	}
	exact, err := queryBool(r, "exact")
	if err != nil {
		return nil, 0, err
	}
	section := library.ObjectSection(r.URL.Query().Get("section"))
	if section == "" {
		section = library.SectionAll
	}
	if !slices.Contains(library.ObjectSections, section) {
		return nil, 0, httpapi.BadRequest("bad_request", "section must be one of %v, not %q", library.ObjectSections, section)
	}
	ctx := r.Context()
	head, err := s.store.ContributionHead(ctx, c.Root)
	if err != nil {
		return nil, 0, err
	}
	original := c
	if c.ID != c.Root {
		if original, err = s.store.Contribution(ctx, c.Root); err != nil {
			return nil, 0, err
		}
	}
	item := head
	if exact {
		item = c
	}
	ancestors, err := s.ancestors(r, item)
	if err != nil {
		return nil, 0, err
	}
	p, err := s.store.Section(ctx, library.SectionQuery{Root: c.Root, Item: item.ID, Section: section, Offset: offset, Limit: PageSize})
	if err != nil {
		return nil, 0, err
	}
	revisions, err := s.store.Revisions(ctx, c.Root, 0, 0)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{
		"item":        signedRecord(item),
		"head":        head.ID,
		"original":    signedRecord(original),
		"ancestors":   ancestors,
		"section":     string(section),
		"items":       signedRecords(p.Items),
		"total":       p.Total,
		"revisions":   revisions.Total,
		"next_offset": nextOffset(offset, len(p.Items), p.Total),
	}, http.StatusOK, nil
}

// ancestors returns the signed current heads of the lineages c is
// contained in, root first. Containment is fixed on the root, so any
// revision's contained_in is the lineage's.
func (s *Server) ancestors(r *http.Request, c library.Contribution) ([]any, error) {
	var chain []any
	for parent := c.Facets.ContainedIn; parent != ""; {
		if len(chain) == maxAncestors {
			return nil, inconsistent(fmt.Errorf("%s: containment deeper than %d", c.ID, maxAncestors))
		}
		head, err := s.store.ContributionHead(r.Context(), parent)
		if err != nil {
			return nil, inconsistent(fmt.Errorf("%s's container %s: %w", c.ID, parent, err))
		}
		chain = append(chain, signedRecord(head))
		parent = head.Facets.ContainedIn
	}
	slices.Reverse(chain)
	if chain == nil {
		chain = []any{}
	}
	return chain, nil
}

// pathRevision reads the {revision} of the path and returns it as stored.
func (s *Server) pathRevision(r *http.Request) (library.Contribution, error) {
	id := r.PathValue("revision")
	if !library.IsRevisionID(id) {
		return library.Contribution{}, httpapi.BadRequest("bad_request", "%q is not a revision ID (64 lowercase hex digits)", id)
	}
	return s.store.Contribution(r.Context(), id)
}

// queryOffset reads the offset query parameter: a non-negative integer,
// 0 when absent.
func queryOffset(r *http.Request) (int, error) {
	v, _, err := httpapi.QueryUint(r, "offset")
	return int(v), err
}

// queryBool reads a boolean query parameter: true or false, false when
// absent.
func queryBool(r *http.Request, name string) (bool, error) {
	switch s := r.URL.Query().Get(name); s {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	default:
		return false, httpapi.BadRequest("bad_request", "%s must be true or false, not %q", name, s)
	}
}

// nextOffset is the offset of the page after one of n items from offset,
// or nil when that page ended the listing of total.
func nextOffset(offset, n, total int) any {
	if n == 0 || offset+n >= total {
		return nil
	}
	return offset + n
}

// pageAnswer is a page of signed records as the contract's listings give
// one: items, total and next_offset.
func pageAnswer(p library.ContributionPage, offset int) map[string]any {
	return map[string]any{
		"items":       signedRecords(p.Items),
		"total":       p.Total,
		"next_offset": nextOffset(offset, len(p.Items), p.Total),
	}
}

// signedRecords is signedRecord of each.
func signedRecords(cs []library.Contribution) []any {
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = signedRecord(c)
	}
	return out
}
