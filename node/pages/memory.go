package pages

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
)

// The memory pages, the admin's only (admin.go): the records, searched or
// filtered, and a record with its content, its signals and its receipts,
// where the admin corrects or forgets it. Each reads or writes the
// memory's admin routes in-process with the admin token
// (memory/memoryhttp), so the pages show what the API does.

const hintMemory = "A memory record is named by its ref, as the list at /memory links it; a record forgotten is gone for good."

// memoryAPI is the memory's admin routes.
const memoryAPI = "/api/v1/admin/memory"

// adminCall is c made with the admin token.
func (p *Pages) adminCall(r *http.Request, c apiCall) (obj, error) {
	c.token = p.adminToken
	return p.object(r, c)
}

// memoryList is GET /memory?q=&project=&adapter=: the records changed
// last first, or with words the records ranked for them.
func (p *Pages) memoryList(_ http.ResponseWriter, r *http.Request, s adminSession) (page, error) {
	q := r.URL.Query()
	data := obj{"q": q.Get("q"), "project": q.Get("project"), "adapter": q.Get("adapter"), "csrf": s.csrf,
		"forgot": q.Get("forgot"), "receipts": q.Get("receipts")}
	if f := q.Get("forgot"); f != "" {
		// Say a record was forgotten only when it is gone: the link is
		// anyone's to write.
		var pe *pageError
		if _, err := p.adminCall(r, apiCall{method: http.MethodGet, path: memoryAPI + "/records/" + url.PathEscape(f)}); !errors.As(err, &pe) || pe.Status != http.StatusNotFound {
			data["forgot"] = ""
		}
	}
	if q.Get("q") != "" {
		res, err := p.adminCall(r, apiCall{method: http.MethodGet, path: memoryAPI + "/search",
			query: url.Values{"q": {q.Get("q")}, "project": {q.Get("project")}, "limit": {"50"}}})
		if err != nil {
			return page{}, hinted(err, "Change the search: the message says which field it could not take.")
		}
		data["hits"] = res["hits"]
	} else {
		res, err := p.adminCall(r, apiCall{method: http.MethodGet, path: memoryAPI + "/records",
			query: url.Values{"project": {q.Get("project")}, "adapter": {q.Get("adapter")}, "limit": {"200"}}})
		if err != nil {
			return page{}, hinted(err, "Change the filter: the message says which field it could not take.")
		}
		data["records"] = res["records"]
	}
	return page{template: "memory", title: "Memory", data: data}, nil
}

// sessionRun is what one session did with a record, as its receipts say:
// what it was shown, whether it read and applied it, and how the step
// went afterwards.
type sessionRun struct {
	Session  string
	First    string // when the first receipt was written
	Kinds    []string
	Outcome  string
	Receipts []obj
}

// runs groups receipts (oldest first) by session, in the order each
// session first met the record.
func runs(receipts []any) []*sessionRun {
	var out []*sessionRun
	by := map[string]*sessionRun{}
	for _, v := range receipts {
		rc := object(v)
		s := str(rc["session"])
		run := by[s]
		if run == nil {
			run = &sessionRun{Session: s, First: str(rc["at"]), Outcome: "no outcome recorded yet"}
			by[s] = run
			out = append(out, run)
		}
		kind := str(rc["kind"])
		run.Kinds = append(run.Kinds, kind)
		run.Receipts = append(run.Receipts, rc)
		switch kind {
		case "used_success":
			run.Outcome = "the step passed after the fix was applied"
		case "task_failed":
			run.Outcome = "the step failed again after the fix was applied"
		case "superseded":
			run.Outcome = "a note of this session superseded the record"
		}
	}
	return out
}

// memoryRecord is GET /memory/records/{ref}: the record, its signals and
// its receipts, with the forms that correct and forget it.
func (p *Pages) memoryRecord(_ http.ResponseWriter, r *http.Request, s adminSession) (page, error) {
	ref := r.PathValue("ref")
	v, err := p.adminCall(r, apiCall{method: http.MethodGet, path: memoryAPI + "/records/" + url.PathEscape(ref)})
	if err != nil {
		return page{}, hinted(err, hintMemory)
	}
	rec := object(v["record"])
	v["runs"] = runs(list(v["receipts"]))
	v["csrf"] = s.csrf
	v["corrected"] = r.URL.Query().Get("corrected") != ""
	return page{template: "memrecord", title: trimTitle(str(rec["title"]), ref), data: v}, nil
}

// correctRecord is POST /memory/records/{ref}/correct: the form's title
// and content as the record's next revision.
func (p *Pages) correctRecord(_ http.ResponseWriter, r *http.Request, _ adminSession) (page, error) {
	ref := r.PathValue("ref")
	f := r.PostForm
	body, err := json.Marshal(obj{"title": f.Get("title"), "content": obj{
		"what": f.Get("what"), "why": f.Get("why"), "where": f.Get("where"), "learned": f.Get("learned")}})
	if err != nil {
		return page{}, err
	}
	if _, err := p.adminCall(r, apiCall{method: http.MethodPost, path: memoryAPI + "/records/" + url.PathEscape(ref) + "/correct", body: body}); err != nil {
		return page{}, hinted(err, "Go back to the record, change what the message names and send the correction again.")
	}
	return page{redirect: "/memory/records/" + url.PathEscape(ref) + "?corrected=1"}, nil
}

// forgetRecord is POST /memory/records/{ref}/forget: the record and its
// receipts removed for good.
func (p *Pages) forgetRecord(_ http.ResponseWriter, r *http.Request, _ adminSession) (page, error) {
	ref := r.PathValue("ref")
	v, err := p.adminCall(r, apiCall{method: http.MethodDelete, path: memoryAPI + "/records/" + url.PathEscape(ref)})
	if err != nil {
		return page{}, hinted(err, hintMemory)
	}
	return page{redirect: "/memory" + queryString("forgot", ref, "receipts", str(v["receipts"]))}, nil
}

// mountMemory serves the admin's pages on mux.
func (p *Pages) mountMemory(mux *http.ServeMux) {
	mux.HandleFunc("GET /memory/sign-in", p.signInForm)
	mux.HandleFunc("POST /memory/sign-in", p.signIn)
	for pattern, fn := range map[string]adminFunc{
		"POST /memory/sign-out":              p.signOut,
		"GET /memory":                        p.memoryList,
		"GET /memory/records/{ref}":          p.memoryRecord,
		"POST /memory/records/{ref}/correct": p.correctRecord,
		"POST /memory/records/{ref}/forget":  p.forgetRecord,
	} {
		mux.Handle(pattern, p.admin(fn))
	}
}
