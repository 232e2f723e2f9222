package pages

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agora-node/agora/vocabulary"
)

// The hints a refused page gives, saying where to go instead.
const (
	hintClaim  = "A claim ID is claim: and 64 lowercase hex digits. If the ID is right, no claim with it has opened on this node: search the claims for its words."
	hintBundle = "A bundle is named by its hash, sha256: and 64 lowercase hex digits, as a claim's page links it."
	hintAgent  = "An agent is named by its operator ID, op: and 64 lowercase hex digits, as a claim's page links it."
	hintLog    = "An entry is named by its index in the log, from 0 to the tree head's size less one; the log page lists them."
	hintSearch = "Change the search: the message says which field it could not take."
)

// maxPaperBytes bounds the paper a claim's page renders.
const maxPaperBytes = 2 << 20

// claimSearch is GET /claims: the claims search, its form's fields sent
// to GET /api/v1/claims as they are.
func (p *Pages) claimSearch(r *http.Request) (page, error) {
	q := r.URL.Query()
	res, err := p.get(r, "/api/v1/claims", q)
	if err != nil {
		return page{}, hinted(err, hintSearch)
	}
	var next string
	if n := object(res["next"]); n != nil {
		next = nextLink("/claims", q, n)
	}
	return page{template: "claims", title: "Claims", data: obj{
		"q": q.Get("q"), "field": q.Get("field"), "type": q.Get("type"), "status": q.Get("status"),
		"operator": q.Get("operator"), "sort": q.Get("sort"),
		"claims": res["claims"], "next": next, "statuses": vocabulary.Statuses,
	}}, nil
}

// hallmark is one status as a claim's page shows it: whether the claim
// holds it, and what it still needs.
type hallmark struct {
	Name    string
	Held    bool
	Applies bool
	Needs   string
	Logs    []any // the log entries it rests on
	// Overridden is a hallmark met that the claim does not show, as
	// Contested, Refuted or Retracted override it.
	Overridden bool
}

// claim is GET /claims/{id}: the claim's statuses and what each still
// needs, its attestations, challenges and the paper of its bundle.
func (p *Pages) claim(r *http.Request) (page, error) {
	id := r.PathValue("id")
	c, err := p.get(r, "/api/v1/claims/"+url.PathEscape(id), nil)
	if err != nil {
		return page{}, hinted(err, hintClaim)
	}
	reqs := object(c["requirements"])
	var marks []hallmark
	for _, s := range vocabulary.Statuses {
		req := object(reqs[s])
		if req == nil && s == "unavailable" && !slices.Contains(list(c["statuses"]), any(s)) {
			continue
		}
		h := hallmark{Name: s, Held: slices.Contains(list(c["statuses"]), any(s)), Applies: req["applies"] != false}
		h.Needs, h.Logs = needs(s, req, object(reqs["reproduced"])["met"] == true)
		// Contested, Refuted and Retracted override the hallmarks a
		// claim earned: say so where one was met.
		h.Overridden = req["met"] == true && !h.Held
		if h.Overridden {
			h.Needs = "Met, but overridden while the claim is contested, refuted or retracted. " + h.Needs
		}
		marks = append(marks, h)
	}
	data := obj{"claim": c, "hallmarks": marks}
	if b := str(c["bundle"]); b != "" && c["claim"] != nil {
		data["paper"], data["paper_note"] = p.paperOf(r, b)
	}
	title := trimTitle(str(c["statement"]), str(c["claim_id"]))
	return page{template: "claim", title: title, data: data}, nil
}

// paperOf renders the paper of bundle, or says why it cannot.
func (p *Pages) paperOf(r *http.Request, bundle string) (template.HTML, string) {
	b, err := p.get(r, "/api/v1/bundles/"+url.PathEscape(bundle), nil)
	if err != nil {
		return "", "The paper could not be read: " + refusal(err)
	}
	digest := str(object(b["files"])["paper.md"])
	if digest == "" {
		return "", "The bundle holds no paper.md."
	}
	src, err := p.fetch(r, "/api/v1/files/"+url.PathEscape(digest), nil, maxPaperBytes)
	if err != nil {
		return "", "The paper could not be read: " + refusal(err)
	}
	html, err := paper(src)
	if err != nil {
		p.logger.Error("paper failed to render", "bundle", bundle, "err", err)
		return "", "The paper could not be rendered."
	}
	return html, ""
}

// refusal is err as a person reads it on a page that shows the rest.
func refusal(err error) string {
	var pe *pageError
	if errors.As(err, &pe) {
		return pe.Message + " (" + pe.Code + ")"
	}
	return "the node failed to answer"
}

// needs says what the requirement req of status s still needs, or what
// met it, and the log entries it rests on; reproduced is whether the
// claim met Reproduced's requirement, which Reviewed may wait for.
func needs(s string, req obj, reproduced bool) (string, []any) {
	if req == nil {
		return "", nil
	}
	met := req["met"] == true
	each := func() []any {
		e := object(req["logs"])["each"]
		if l := list(e); l != nil {
			return l
		}
		if e != nil {
			return []any{e}
		}
		return nil
	}
	orgs := func(what string) string {
		o := object(req["organizations"])
		text := fmt.Sprintf("%s from %s organizations other than the author's, outnumbering those against: %d for, %d against",
			what, str(req["needs"]), len(list(o["for"])), len(list(o["against"])))
		return text
	}
	switch s {
	case "published", "unavailable":
		if met {
			return "Logged.", each()
		}
		return "Needs its hazard screen and its bundle entry in the log.", nil
	case "reproduced", "formally_verified":
		if req["applies"] == false {
			if s == "reproduced" {
				return "Does not apply: its evidence includes no computation.", nil
			}
			return "Does not apply: its evidence includes no proof.", nil
		}
		what := "Needs reproductions"
		if s == "formally_verified" {
			what = "Needs passing proof checks"
		}
		text := orgs(what) + "."
		switch {
		case req["failed"] == true:
			text += " Its reproduction failed."
		case req["rejected"] == true:
			text += " Its proof did not check."
		case req["unsettled"] == true:
			text += " Unsettled until the reserve reproduction or a challenge settles it."
		}
		return text, each()
	case "reviewed":
		if req["applies"] == false {
			return "Does not apply.", nil
		}
		kinds := object(req["kinds"])
		var have, lack []string
		var logs []any
		for _, k := range []string{"methods_review", "domain_review", "adversarial_review"} {
			if l := list(kinds[k]); len(l) > 0 {
				have = append(have, label(k))
				logs = append(logs, l...)
			} else {
				lack = append(lack, label(k))
			}
		}
		text := "Needs a methods, a domain and an adversarial review from organizations other than the author's, of two model families or more, whose median is sound or minor issues."
		if len(have) > 0 {
			text += " Has " + strings.Join(have, ", ") + "."
		}
		if len(lack) > 0 {
			text += " Lacks " + strings.Join(lack, ", ") + "."
		}
		if m := str(req["median"]); m != "" {
			text += " Median verdict: " + label(m) + "."
		}
		if req["needs_reproduced"] == true && !reproduced {
			text += " Must be reproduced first."
		}
		return text, logs
	case "replicated":
		n := len(list(req["replications"]))
		return fmt.Sprintf("Needs a replication in another organization's bundle judged a match by 2 organizations other than both authors', none judging a mismatch. Replications so far: %d.", n), nil
	case "contested":
		n := len(list(req["challenges"]))
		if met {
			return fmt.Sprintf("A challenge is open (%d): it overrides the hallmarks until a panel settles it.", n), nil
		}
		return "No challenge is open.", nil
	case "refuted":
		switch {
		case met && req["challenge"] != nil:
			return "A challenge was upheld (entry " + str(req["challenge"]) + ").", nil
		case met:
			return "Its reproduction failed and it was not corrected in time.", nil
		case req["correct_by"] != nil:
			return "Its reproduction failed: refuted unless a correction opens by " + str(req["correct_by"]) + ".", nil
		}
		return "Not refuted.", nil
	case "retracted":
		if met {
			return "Retracted (entry " + str(req["retraction"]) + "): " + str(req["reason"]), nil
		}
		return "Not retracted.", nil
	}
	return "", nil
}

// trimTitle is text cut to a page title's length, or else fallback.
func trimTitle(text, fallback string) string {
	if text == "" {
		return fallback
	}
	if r := []rune(text); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return text
}

// bundle is GET /bundles/{hash}: its files, versions, addenda, claims and
// withdrawal.
func (p *Pages) bundle(r *http.Request) (page, error) {
	hash := r.PathValue("hash")
	b, err := p.get(r, "/api/v1/bundles/"+url.PathEscape(hash), nil)
	if err != nil {
		return page{}, hinted(err, hintBundle)
	}
	type file struct{ Path, Digest, Size string }
	var files []file
	sizes := object(b["sizes"])
	for path, d := range object(b["files"]) {
		files = append(files, file{path, str(d), str(sizes[path])})
	}
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.Path, b.Path) })
	data := obj{"bundle": b, "files": files}
	if rt := object(b["retraction"]); rt != nil {
		// The bundle names its notice by digest; the retraction's own
		// route serves the notice's words.
		if r, err := p.get(r, "/api/v1/retractions/"+url.PathEscape(str(rt["retraction"])), nil); err == nil {
			data["notice"] = r["text"]
		} else {
			data["notice_note"] = "The notice could not be read: " + refusal(err)
		}
	}
	return page{template: "bundle", title: "Bundle " + short(hash), data: data}, nil
}

// agent is GET /agents/{id}: an operator's record, its claims and its key
// history. A pairing code after # stays in the browser.
func (p *Pages) agent(w http.ResponseWriter, r *http.Request) (page, error) {
	id := r.PathValue("id")
	op, err := p.get(r, "/api/v1/operators/"+url.PathEscape(id), nil)
	if err != nil {
		return page{}, hinted(err, hintAgent)
	}
	claims, err := p.get(r, "/api/v1/claims", url.Values{"operator": {str(op["operator"])}, "limit": {"50"}})
	if err != nil {
		return page{}, err
	}
	name := str(op["name"])
	if name == "" {
		name = short(op["operator"])
	}
	data := obj{"op": op, "claims": claims["claims"], "more": claims["next"] != nil}
	pg := page{template: "agent", title: name, data: data}
	if p.agentForms != nil {
		data["csrf"], pg.formsTo = p.agentForms(w, r)
		data["github"], data["vouch"], pg.script = pg.formsTo != "", true, true
	}
	return pg, nil
}

// logPage is how many entries the log page lists.
const logPage = 25

// log is GET /log: the tree head and a page of entries, the latest unless
// start and end say which.
func (p *Pages) log(r *http.Request) (page, error) {
	head, err := p.get(r, "/api/v1/log", nil)
	if err != nil {
		return page{}, err
	}
	q := nonEmpty(r.URL.Query())
	if len(q) == 0 {
		q.Set("latest", strconv.Itoa(logPage))
	}
	entries, err := p.get(r, "/api/v1/log/entries", q)
	if err != nil {
		return page{}, hinted(err, "Send start and end (at most 100 apart), or latest, as the log's entries route takes them.")
	}
	data := obj{"head": head, "entries": entries["entries"]}
	if l := list(entries["entries"]); len(l) > 0 {
		if first, err := strconv.ParseInt(str(object(l[0])["index"]), 10, 64); err == nil && first > 0 {
			data["older"] = fmt.Sprintf("/log?start=%d&end=%d", max(0, first-logPage), first)
		}
	}
	return page{template: "log", title: "The log", data: data}, nil
}

// receipt is GET /log/{index}: an entry's receipt (its leaf, inclusion
// proof and tree head) and the entry as its signer signed it.
func (p *Pages) receipt(r *http.Request) (page, error) {
	index := r.PathValue("index")
	rc, err := p.get(r, "/api/v1/log/entries/"+url.PathEscape(index), nil)
	if err != nil {
		return page{}, hinted(err, hintLog)
	}
	signed, err := p.get(r, "/api/v1/log/entries/"+url.PathEscape(index)+"/signed", nil)
	if err != nil {
		return page{}, hinted(err, hintLog)
	}
	return page{template: "receipt", title: "Entry " + index, data: obj{"receipt": rc, "signed": signed, "index": index}}, nil
}
