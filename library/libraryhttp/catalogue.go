package libraryhttp

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/library"
)

// The library's catalogue and changes feed (the contract's routes).
//
// GET /api/catalogue lists lineage heads, the current revision of each
// lineage (see library.CatalogueStore), 50 a page:
//
//	{"items": [signed record | summary, ...], "library": <namespace>,
//	 "total": <int>, "next_offset": <int or null>}
//
// library is this node's namespace, its log's checkpoint origin, so a
// client that reads several libraries can tell whose heads it was shown.
// The relevance rule, and what a word is, are library.CatalogueRelevance's
// and library.SearchWords'.
//
// GET /api/changes follows the library, or one lineage and what hangs
// from it (library.ChangesQuery says what), in admission order:
//
//	{"items": [signed record, ...], "cursor": <opaque>, "has_more": <bool>}
//
// A cursor names a position in a snapshot: with has_more true it goes on
// through the same snapshot; with has_more false it begins the next, which
// holds exactly the revisions admitted since. A cursor the node cannot
// honour is answered 409 with resync_required: the follower reads the
// object again and follows a new history (no cursor).

// cataloguePage is the contract's page size.
const cataloguePage = 50

// changesItemBytes bounds a changes page's items, encoded, in bytes (the
// contract's changes_item_bytes); a page holds at least one item.
const changesItemBytes = 393216

// maxSearchWords bounds the words of a catalogue search, each of which
// costs the search a join.
const maxSearchWords = 16

// The contract's filter enums.
var (
	nodeTypes = []string{"question", "claim", "definition", "axiom", "theorem", "observation"}
	methods   = []string{"proof", "example", "experiment", "observation", "source", "counterexample"}
	verdicts  = []string{"open", "supported", "disputed", "accepted", "refuted"}
)

func (s *Server) routeLibraryCatalogue() {
	s.mux.Handle("GET /api/catalogue", s.serve(s.getCatalogue))
	s.mux.Handle("GET /api/changes", s.serve(s.getChanges))
}

// queryParams reads a request's query parameters, each at most once and
// each one of allowed.
func queryParams(r *http.Request, allowed ...string) (map[string]string, error) {
	out := map[string]string{}
	for name, values := range r.URL.Query() {
		if !slices.Contains(allowed, name) {
			return nil, httpapi.BadRequest("bad_request", "Unknown parameter %q: send only %s to %s", name, strings.Join(allowed, ", "), r.URL.Path)
		}
		if len(values) > 1 {
			return nil, httpapi.BadRequest("bad_request", "%s is given %d times: send it once", name, len(values))
		}
		out[name] = values[0]
	}
	return out, nil
}

// oneOf checks an enum parameter: empty, or one of values.
func oneOf(name, v string, values []string) error {
	if v == "" || slices.Contains(values, v) {
		return nil
	}
	return httpapi.BadRequest("bad_request", "%s %q is not one the contract names: send one of %s", name, v, strings.Join(values, ", "))
}

// getCatalogue answers GET /api/catalogue.
func (s *Server) getCatalogue(r *http.Request) (any, int, error) {
	p, err := queryParams(r, "q", "kind", "node_type", "sort", "offset", "author", "method", "verdict", "projection")
	if err != nil {
		return nil, 0, err
	}
	q := library.CatalogueQuery{Kind: p["kind"], NodeType: p["node_type"], Method: p["method"], Verdict: p["verdict"], Author: p["author"], Limit: cataloguePage}
	if q.Kind != "" {
		if _, ok := library.Scope(q.Kind); !ok {
			return nil, 0, httpapi.BadRequest("bad_request", "kind %q is not a kind of the contract: send one of the content schema's kinds, such as thread, claim or research-node", q.Kind)
		}
	}
	for _, e := range []error{oneOf("node_type", q.NodeType, nodeTypes), oneOf("method", q.Method, methods), oneOf("verdict", q.Verdict, verdicts)} {
		if e != nil {
			return nil, 0, e
		}
	}
	if q.Author != "" && !library.IsRevisionID(q.Author) {
		return nil, 0, httpapi.BadRequest("bad_request", "author %q is not a native actor: send its 64 lowercase hex digits, without op:", q.Author)
	}
	if s := p["offset"]; s != "" {
		o, err := strconv.ParseUint(s, 10, 31)
		if err != nil {
			return nil, 0, httpapi.BadRequest("bad_request", "offset %q is not a count: send a non-negative integer, such as a next_offset", s)
		}
		q.Offset = int(o)
	}
	if text, ok := p["q"]; ok && strings.TrimSpace(text) != "" {
		q.Words = library.SearchWords(text)
		if len(q.Words) == 0 {
			return nil, 0, httpapi.BadRequest("bad_request", "q %q has no words: send letters or digits to search for", text)
		}
		if len(q.Words) > maxSearchWords {
			return nil, 0, httpapi.BadRequest("bad_request", "q has %d words: send at most %d", len(q.Words), maxSearchWords)
		}
	}
	switch s := p["sort"]; s {
	case "":
		q.Sort = library.CatalogueNew
		if q.Words != nil {
			q.Sort = library.CatalogueRelevance
		}
	case string(library.CatalogueNew), string(library.CatalogueTop):
		q.Sort = library.CatalogueSort(s)
	case string(library.CatalogueRelevance):
		if q.Words == nil {
			return nil, 0, httpapi.BadRequest("bad_request", "sort=relevance ranks a search: send q too, or sort=new or top")
		}
		q.Sort = library.CatalogueRelevance
	default:
		return nil, 0, httpapi.BadRequest("bad_request", "sort %q is not an order of the catalogue: send new, top or relevance", s)
	}
	summary := false
	switch s := p["projection"]; s {
	case "", "full":
	case "summary":
		summary = true
	default:
		return nil, 0, httpapi.BadRequest("bad_request", "projection %q is not a projection: send full (signed records) or summary", s)
	}

	page, err := s.store.Catalogue(r.Context(), q)
	if err != nil {
		return nil, 0, err
	}
	items := make([]any, len(page.Items))
	for i, c := range page.Items {
		if summary {
			items[i] = catalogueSummary(c)
		} else {
			items[i] = signedRecord(c)
		}
	}
	var next any
	if end := q.Offset + len(page.Items); len(page.Items) > 0 && end < page.Total {
		next = end
	}
	return map[string]any{"items": items, "library": s.log.Origin(), "total": page.Total, "next_offset": next}, http.StatusOK, nil
}

// catalogueSummary is the contract's summary projection: unsigned
// discovery hints, to be checked against the exact entry before use.
func catalogueSummary(c library.Contribution) map[string]any {
	return map[string]any{
		"id":          c.ID,
		"root":        c.Root,
		"title":       c.Record.Title,
		"kind":        c.Record.Kind,
		"author":      c.Record.Author,
		"authored_at": c.Record.AuthoredAt,
		"snippet":     c.Facets.Snippet,
	}
}

// A changesCursor is a position in a changes feed: the feed's root, the
// Seq it was read up to, and its snapshot's end, 0 when the next read
// begins a new snapshot.
type changesCursor struct {
	root       string
	after, end int64
}

// EncodeCursor is the changes-feed cursor at a position: after the
// revision numbered after, in the snapshot ending at end (0: none yet),
// for the watched root ("" for all). Clients only pass back the cursors the
// feed gives; tools and tests make others.
func EncodeCursor(root string, after, end int64) string {
	return changesCursor{root: root, after: after, end: end}.encode()
}

// encode writes the cursor as base64url text with a checksum, so a cursor
// mangled on the way is caught, not read as another position. It is not
// a secret: any position it could name is public.
func (c changesCursor) encode() string {
	payload := fmt.Sprintf("1.%s.%d.%d", c.root, c.after, c.end)
	sum := sha256.Sum256([]byte(payload))
	return base64.RawURLEncoding.EncodeToString([]byte(payload + "." + hex.EncodeToString(sum[:6])))
}

var errBadCursor = errors.New("not a cursor this node returned")

func parseChangesCursor(s string) (changesCursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return changesCursor{}, errBadCursor
	}
	text := string(b)
	i := strings.LastIndexByte(text, '.')
	if i < 0 {
		return changesCursor{}, errBadCursor
	}
	payload := text[:i]
	sum := sha256.Sum256([]byte(payload))
	if text[i+1:] != hex.EncodeToString(sum[:6]) {
		return changesCursor{}, errBadCursor
	}
	parts := strings.Split(payload, ".")
	if len(parts) != 4 || parts[0] != "1" {
		return changesCursor{}, errBadCursor
	}
	after, err1 := strconv.ParseInt(parts[2], 10, 64)
	end, err2 := strconv.ParseInt(parts[3], 10, 64)
	if err1 != nil || err2 != nil {
		return changesCursor{}, errBadCursor
	}
	return changesCursor{root: parts[1], after: after, end: end}, nil
}

// resync is the contract's 409: the follower must read the object again.
func resync(format string, args ...any) (any, int, error) {
	return map[string]any{"error": fmt.Sprintf(format, args...), "code": "resync_required", "resync_required": true}, http.StatusConflict, nil
}

// getChanges answers GET /api/changes.
func (s *Server) getChanges(r *http.Request) (any, int, error) {
	p, err := queryParams(r, "root", "cursor", "limit")
	if err != nil {
		return nil, 0, err
	}
	q := library.ChangesQuery{Root: p["root"], Limit: cataloguePage}
	if s, ok := p["limit"]; ok {
		l, err := strconv.Atoi(s)
		if err != nil || l < 1 || l > cataloguePage {
			return nil, 0, httpapi.BadRequest("bad_request", "limit %q is out of range: send an integer from 1 to %d", s, cataloguePage)
		}
		q.Limit = l
	}
	if q.Root != "" {
		if !library.IsRevisionID(q.Root) {
			return nil, 0, httpapi.BadRequest("bad_request", "root %q is not a revision ID: send a contribution root, 64 lowercase hex digits", q.Root)
		}
		c, err := s.store.Contribution(r.Context(), q.Root)
		if err != nil {
			return nil, 0, err
		}
		if c.Root != q.Root {
			return nil, 0, httpapi.BadRequest("bad_request", "%s is a revision of %s: send its root", q.Root, c.Root)
		}
	}
	if s, ok := p["cursor"]; ok {
		c, err := parseChangesCursor(s)
		if err != nil {
			return resync("The cursor is %v: follow a new history (omit cursor)", err)
		}
		if c.root != q.Root {
			return resync("The cursor follows %s, not %s: send it with its own root, or follow a new history", describeRoot(c.root), describeRoot(q.Root))
		}
		q.After, q.End = c.after, c.end
	}
	page, err := s.store.Changes(r.Context(), q)
	if errors.Is(err, library.ErrResync) {
		return resync("This node can no longer honour the cursor (%v): read the object again and follow a new history (omit cursor)", err)
	}
	if err != nil {
		return nil, 0, err
	}
	items := make([]any, 0, len(page.Items))
	next := changesCursor{root: q.Root, after: page.End}
	more, size := page.More, 0
	for i, c := range page.Items {
		rec := signedRecord(c)
		b, err := canonical.Marshal(rec)
		if err != nil {
			return nil, 0, err
		}
		if size += len(b); i > 0 && size > changesItemBytes {
			more = true
			break
		}
		items = append(items, rec)
		next.after = c.Seq
	}
	if more {
		next.end = page.End
	} else {
		next.after = page.End
	}
	return map[string]any{"items": items, "cursor": next.encode(), "has_more": more}, http.StatusOK, nil
}

func describeRoot(root string) string {
	if root == "" {
		return "the whole library"
	}
	return root
}
