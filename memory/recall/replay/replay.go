package replay

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// Client sends events of one adapter to a node's ingress.
type Client struct {
	URL     string // the node's base URL
	Adapter string
	Token   string
	HTTP    *http.Client
	// Profile, when set, is the profile_ref the replayed sessions pin;
	// the node's default otherwise.
	Profile string
}

// hit is one pushed record as the inject names it.
type hit struct {
	Ref     string `json:"record_ref"`
	Title   string `json:"title"`
	Score   float64
	Reasons []struct {
		Signal       string  `json:"signal"`
		Value        string  `json:"value"`
		Contribution float64 `json:"contribution"`
	} `json:"reasons"`
}

type inject struct {
	Text string `json:"text"`
	Hits []hit  `json:"hits"`
}

type answer struct {
	OK     bool `json:"ok"`
	Result struct {
		SessionHandle string  `json:"session_handle"`
		RecordRef     string  `json:"record_ref"`
		Inject        *inject `json:"inject"`
	} `json:"result"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func eventID() string {
	var b [32]byte
	rand.Read(b[:])
	return "sha256:" + hex.EncodeToString(b[:])
}

// send posts one event and returns its answer and how long the node took.
func (c *Client) send(kind, sessionRef string, at time.Time, payload any) (answer, time.Duration, error) {
	body, err := json.Marshal(map[string]any{
		"adapter_id": c.Adapter, "event_id": eventID(), "session_ref": sessionRef,
		"occurred_at": at.UTC().Format(time.RFC3339Nano), "kind": kind, "payload": payload,
	})
	if err != nil {
		return answer{}, 0, err
	}
	req, err := http.NewRequest("POST", c.URL+"/v1/agent-ingress/"+c.Adapter+"/events/"+kind, bytes.NewReader(body))
	if err != nil {
		return answer{}, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	start := time.Now()
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return answer{}, 0, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if err != nil {
		return answer{}, took, err
	}
	var a answer
	if err := json.Unmarshal(data, &a); err != nil {
		return a, took, fmt.Errorf("%s: %d %s", kind, resp.StatusCode, data)
	}
	if !a.OK {
		return a, took, fmt.Errorf("%s refused: %d %s", kind, resp.StatusCode, data)
	}
	return a, took, nil
}

// start opens a session and returns its handle.
func (c *Client) start(ref, project, os, lang string, at time.Time, profile string) (string, error) {
	env := map[string]any{"os": os, "arch": "amd64"}
	if lang != "" {
		env["language"] = []string{lang}
	}
	p := map[string]any{
		"project": project, "environment": env,
		"capabilities": []string{"session_binding", "step_injection", "tool_capture", "note_tool", "query_tools"},
	}
	if profile != "" {
		p["profile_ref"] = profile
	}
	a, _, err := c.send("session.start", ref, at, p)
	return a.Result.SessionHandle, err
}

func (c *Client) end(ref, handle string, at time.Time) error {
	_, _, err := c.send("session.end", ref, at, map[string]any{"session_handle": handle, "reason": "exit"})
	return err
}

var reSlug = regexp.MustCompile(`[^a-z0-9_.-]+`)

// TopicKey gives every note a topic of its own: two notes of the corpus
// are two records, as two sessions' notes on one failure usually are.
func TopicKey(id string) string {
	return "bench/" + strings.Trim(reSlug.ReplaceAllString(strings.ToLower(id), "-"), "-")
}

// NotePayload is the note event's payload for n, relating it to the
// records refs names (by note ID).
func NotePayload(n Note, handle string, refs map[string]string) map[string]any {
	p := map[string]any{
		"session_handle": handle, "title": n.Title, "type": n.Type, "scope": n.Scope, "topic_key": TopicKey(n.ID),
		"content": map[string]any{"what": n.What, "why": n.Why, "where": n.Where, "learned": n.Learned},
	}
	if n.Fix != "" {
		p["fix"] = map[string]any{"kind": "command", "command": n.Fix}
	}
	if n.Supersedes != "" {
		p["relates_to"] = []any{map[string]any{"record_ref": refs[n.Supersedes], "relation": "supersedes"}}
	}
	return p
}

// writingSessions groups notes, oldest first, into the sessions that
// wrote them: consecutive notes of one project, system and year, at most
// five to a session.
func writingSessions(notes []Note) [][]Note {
	sorted := slices.Clone(notes)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].At.Before(sorted[j].At) })
	var out [][]Note
	for _, n := range sorted {
		if k := len(out) - 1; k >= 0 {
			last := out[k][len(out[k])-1]
			if len(out[k]) < 5 && last.Project == n.Project && last.OS == n.OS && last.At.Year() == n.At.Year() {
				out[k] = append(out[k], n)
				continue
			}
		}
		out = append(out, []Note{n})
	}
	return out
}

// Store sends the notes, session by session, in the contract's order:
// session.start, the notes, session.end. It returns each note's
// record_ref by note ID.
func (c *Client) Store(notes []Note) (map[string]string, error) {
	refs := map[string]string{}
	for i, group := range writingSessions(notes) {
		ref := fmt.Sprintf("write-%d", i)
		first := group[0]
		h, err := c.start(ref, first.Project, first.OS, first.Lang, first.At, "")
		if err != nil {
			return nil, err
		}
		for _, n := range group {
			a, _, err := c.send("note", ref, n.At, NotePayload(n, h, refs))
			if err != nil {
				return nil, fmt.Errorf("note %s: %w", n.ID, err)
			}
			refs[n.ID] = a.Result.RecordRef
		}
		if err := c.end(ref, h, group[len(group)-1].At.Add(time.Minute)); err != nil {
			return nil, err
		}
	}
	return refs, nil
}

// Outcome is what one query got.
type Outcome struct {
	Query   Query
	Got     []string // note IDs pushed, in order ("?" and its title for a record the corpus did not write)
	Latency time.Duration
	Hits    []hit
	Text    string // the inject's text, as the agent reads it
}

// Ask replays one failing tool result in a fresh session: session.start,
// tool.result, session.end. It returns the notes pushed, in order.
func (c *Client) Ask(q Query, byRef map[string]string, now time.Time) (Outcome, error) {
	ref := "ask-" + q.ID
	h, err := c.start(ref, q.Project, q.OS, "", now, c.Profile)
	if err != nil {
		return Outcome{}, err
	}
	a, took, err := c.send("tool.result", ref, now, map[string]any{
		"session_handle": h, "tool_name": q.Tool, "ok": false, "exit_code": 1, "command": q.Command, "error_tail": q.Tail,
	})
	if err != nil {
		return Outcome{}, fmt.Errorf("query %s: %w", q.ID, err)
	}
	out := Outcome{Query: q, Latency: took}
	if a.Result.Inject != nil {
		out.Text = a.Result.Inject.Text
		for _, x := range a.Result.Inject.Hits {
			id, ok := byRef[x.Ref]
			if !ok {
				id = "?" + x.Title
			}
			out.Got = append(out.Got, id)
			out.Hits = append(out.Hits, x)
		}
	}
	return out, c.end(ref, h, now)
}

// FileOutcomes are the outcomes of the queries of one corpus file.
type FileOutcomes struct {
	Name     string // the query IDs' prefix: fresh/, fresh2/
	Outcomes []Outcome
}

// ByFile groups outcomes by the prefix of their query IDs (a hand
// file's, up to its first slash), in order of first appearance.
func ByFile(outs []Outcome) []FileOutcomes {
	var parts []FileOutcomes
	for _, o := range outs {
		name, _, _ := strings.Cut(o.Query.ID, "/")
		name += "/"
		i := slices.IndexFunc(parts, func(p FileOutcomes) bool { return p.Name == name })
		if i < 0 {
			parts = append(parts, FileOutcomes{Name: name})
			i = len(parts) - 1
		}
		parts[i].Outcomes = append(parts[i].Outcomes, o)
	}
	return parts
}

// Report is the replay's figures.
type Report struct {
	Queries, NoMatch, WithStale int
	RecallAt1, RecallAt3, MRR   float64
	FalseInjection              float64 // no-match queries that got a push
	StaleFix                    float64 // queries with a superseded note pushed above its successor
	P50, P95                    time.Duration
	Misses                      []string
}

// Evaluate sums up outcomes.
func Evaluate(outs []Outcome) Report {
	var r Report
	var at1, at3, injected, stale int
	var rr float64
	lat := make([]time.Duration, 0, len(outs))
	for _, o := range outs {
		lat = append(lat, o.Latency)
		q := o.Query
		if q.Want == "" {
			r.NoMatch++
			if len(o.Got) > 0 {
				injected++
				r.Misses = append(r.Misses, fmt.Sprintf("%s [%s]: want silence, got %v", q.ID, q.Kind, describe(o)))
			}
			continue
		}
		r.Queries++
		rank := slices.Index(o.Got, q.Want)
		switch {
		case rank == 0:
			at1++
			at3++
		case rank > 0 && rank < 3:
			at3++
		}
		if rank >= 0 {
			rr += 1 / float64(rank+1)
		}
		if rank != 0 {
			r.Misses = append(r.Misses, fmt.Sprintf("%s [%s]: want %s, got %v", q.ID, q.Kind, q.Want, describe(o)))
		}
		if len(q.Stale) > 0 {
			r.WithStale++
			for _, s := range q.Stale {
				if i := slices.Index(o.Got, s); i >= 0 && (rank < 0 || i < rank) {
					stale++
					break
				}
			}
		}
	}
	if r.Queries > 0 {
		r.RecallAt1, r.RecallAt3, r.MRR = float64(at1)/float64(r.Queries), float64(at3)/float64(r.Queries), rr/float64(r.Queries)
	}
	if r.NoMatch > 0 {
		r.FalseInjection = float64(injected) / float64(r.NoMatch)
	}
	if r.WithStale > 0 {
		r.StaleFix = float64(stale) / float64(r.WithStale)
	}
	r.P50, r.P95 = percentile(lat, 0.50), percentile(lat, 0.95)
	return r
}

func describe(o Outcome) string {
	var parts []string
	for i, h := range o.Hits {
		var rs []string
		for _, x := range h.Reasons {
			rs = append(rs, fmt.Sprintf("%s=%.2f(%s)", x.Signal, x.Contribution, clipText(x.Value, 40)))
		}
		parts = append(parts, fmt.Sprintf("%s %.2f [%s]", o.Got[i], h.Score, strings.Join(rs, " ")))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// String prints the figures on one line.
func (r Report) String() string {
	return fmt.Sprintf("recall@1 %.3f  recall@3 %.3f  MRR %.3f  (%d queries)  false injection %.3f (%d no-match)  stale-fix %.3f (%d)  tool.result p50 %v p95 %v",
		r.RecallAt1, r.RecallAt3, r.MRR, r.Queries, r.FalseInjection, r.NoMatch, r.StaleFix, r.WithStale, r.P50.Round(time.Microsecond), r.P95.Round(time.Microsecond))
}
