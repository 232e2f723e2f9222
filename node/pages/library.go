package pages

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

const (
	hintRevision  = "A library entry is named by its revision ID, 64 lowercase hex digits; the catalogue lists them."
	hintCatalogue = "Change the search: the message says which field it could not take."
)

// entryItem is a signed record as a library page shows it: its ID,
// record and admission, and its body as text or, when it is JSON, the
// object it holds.
type entryItem struct {
	ID        string
	Record    obj
	Admission obj
	Body      string // the body as written
	Fields    obj    // the body's JSON object, when it is one
}

// item reads a signed record (or a catalogue summary) of the API.
func item(v any) entryItem {
	o := object(v)
	rec := object(o["record"])
	if rec == nil {
		rec = o // a summary carries the record's fields itself
	}
	it := entryItem{ID: str(o["id"]), Record: rec, Admission: object(o["admission"]), Body: str(rec["body"])}
	if strings.HasPrefix(strings.TrimSpace(it.Body), "{") {
		d := json.NewDecoder(bytes.NewReader([]byte(it.Body)))
		d.UseNumber()
		var f obj
		if d.Decode(&f) == nil {
			it.Fields = f
		}
	}
	return it
}

func items(v any) []entryItem {
	var out []entryItem
	for _, x := range list(v) {
		out = append(out, item(x))
	}
	return out
}

// catalogue is GET /library: the catalogue's search, its form's fields
// sent to GET /api/catalogue as they are.
func (p *Pages) catalogue(r *http.Request) (page, error) {
	q := r.URL.Query()
	res, err := p.get(r, "/api/catalogue", q)
	if err != nil {
		return page{}, hinted(err, hintCatalogue)
	}
	var next string
	if n := res["next_offset"]; n != nil {
		next = nextLink("/library", q, obj{"offset": n})
	}
	return page{template: "catalogue", title: "The library", data: obj{
		"q": q.Get("q"), "kind": q.Get("kind"), "items": items(res["items"]), "total": res["total"], "next": next,
	}}, nil
}

// changes is GET /library/changes: the changes feed, oldest first, a page
// at a time by its cursor.
func (p *Pages) changes(r *http.Request) (page, error) {
	q := r.URL.Query()
	res, err := p.get(r, "/api/changes", q)
	if err != nil {
		return page{}, hinted(err, "Start again from the first page of changes, without a cursor.")
	}
	return page{template: "changes", title: "Library changes", data: obj{
		"items": items(res["items"]), "has_more": res["has_more"] == true, "next": nextLink("/library/changes", q, obj{"cursor": res["cursor"]}),
	}}, nil
}

// entry is GET /library/entries/{revision}: the entry, its revisions, its
// discussion and its links.
func (p *Pages) entry(r *http.Request) (page, error) {
	rev := r.PathValue("revision")
	path := "/api/entries/" + url.PathEscape(rev)
	e, err := p.get(r, path, nil)
	if err != nil {
		return page{}, hinted(err, hintRevision)
	}
	history, err := p.get(r, "/api/objects/"+url.PathEscape(rev), url.Values{"section": {"history"}})
	if err != nil {
		return page{}, err
	}
	discussion, err := p.get(r, path+"/discussion", nil)
	if err != nil {
		return page{}, err
	}
	conn, err := p.get(r, path+"/connections", nil)
	if err != nil {
		return page{}, err
	}
	it := item(e)
	return page{template: "entry", title: trimTitle(str(it.Record["title"]), rev), data: obj{
		"entry": it, "head": history["head"], "revisions": items(history["items"]), "revision_count": history["revisions"],
		"discussion": items(discussion["items"]), "discussion_total": discussion["total"],
		"incoming": conn["incoming"], "outgoing": conn["outgoing"],
	}}, nil
}

// libraryMap is GET /library/maps/{revision}: a research map drawn as a
// graph, its nodes and assessments listed below.
func (p *Pages) libraryMap(r *http.Request) (page, error) {
	rev := r.PathValue("revision")
	m, err := p.get(r, "/api/maps/"+url.PathEscape(rev), nil)
	if err != nil {
		return page{}, hinted(err, "A map is named by the revision ID of a research-map entry; the catalogue lists them (kind research-map).")
	}
	it := item(m["map"])
	nodes := items(m["nodes"])
	return page{template: "map", title: trimTitle(str(it.Record["title"]), rev), data: obj{
		"map": it, "head": m["head"], "forks_from": m["forks_from"], "question": m["question"],
		"nodes": nodes, "assessments": items(m["assessments"]), "edges": m["edges"],
		"graph": layout(nodes, list(m["edges"]), str(m["question"])),
	}}, nil
}
