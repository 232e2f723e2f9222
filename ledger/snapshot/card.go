package snapshot

import (
	"fmt"
	"regexp"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/tlog"
)

// Card is a snapshot's data card: what it holds, counted as Write wrote
// it, and the signed tree head it was taken at.
type Card struct {
	Date    string        // the day it is of, YYYY-MM-DD
	Head    tlog.TreeHead // the log's signed tree head it covers
	TakenAt time.Time     // the head's timestamp: statuses are as of then
	Claims  int
	Bytes   int64  // the gzipped file's size
	Digest  string // sha256: and the SHA-256 of the gzipped file
	// Counts are the claims by status, type, model_family, model and
	// field; a claim counts once under each of its values.
	Counts map[string]map[string]int
	// Licenses count the claims by each of their bundles' licences: prose,
	// code and data.
	Licenses map[string]map[string]int
	// Reissues are the times the snapshot was written again without the
	// claims of bundles withdrawn since, oldest first.
	Reissues []Reissue
	// dropped are the withdrawals that left a line out, as WriteWithout
	// wrote it.
	dropped map[uint64]bool
}

// Reissue is one reissue of a snapshot: the file it replaced, and the
// withdrawals logged up to LogSize that took its claims out.
type Reissue struct {
	At          time.Time // the timestamp of the tree head of LogSize entries
	LogSize     uint64
	Replaced    string // the digest of the file it replaced
	Withdrawals []uint64
}

// The counts a card keeps, in the order it lists them.
var countKinds = []string{"status", "type", "model_family", "model", "field"}

func newCard(date string, head tlog.TreeHead, at time.Time) *Card {
	c := &Card{Date: date, Head: head, TakenAt: at, Counts: map[string]map[string]int{}, Licenses: map[string]map[string]int{},
		dropped: map[uint64]bool{}}
	for _, k := range countKinds {
		c.Counts[k] = map[string]int{}
	}
	for _, k := range []string{"prose", "code", "data"} {
		c.Licenses[k] = map[string]int{}
	}
	return c
}

// count adds one record to the card.
func (c *Card) count(rec map[string]any, m *bundle.Manifest) {
	c.Claims++
	for _, s := range rec["statuses"].([]string) {
		c.Counts["status"][s]++
	}
	c.Counts["type"][rec["type"].(string)]++
	for _, f := range m.ModelFamilies {
		c.Counts["model_family"][f]++
	}
	for _, f := range m.Models {
		c.Counts["model"][f]++
	}
	for _, f := range m.Fields {
		c.Counts["field"][f]++
	}
	for k, v := range rec["licenses"].(map[string]string) {
		c.Licenses[k][v]++
	}
}

// Schema says what each record field holds, as the card lists it.
var Schema = map[string]string{
	"claim_id":          "the claim's global ID (claim: and 64 hex digits)",
	"statement":         "the claim, one declarative sentence, as its bundle's claims.json words it",
	"type":              "empirical, theoretical, methodological, replication, negative_result or resource",
	"core":              "true if the claim is central to its bundle's work",
	"statuses":          "the statuses the log gives it as of taken_at, in the protocol's order",
	"fields":            "its bundle's field tags",
	"bundle":            "the newest bundle still up that holds it, by bundle hash",
	"local_id":          "its label within that bundle",
	"operator":          "that bundle's author, by operator ID",
	"organization":      "the organization the author's identity counts as; null without one",
	"model_families":    "the model families its bundle names as having written it",
	"models":            "the models its bundle names; empty for bundles from before bundles named them",
	"written_by":        "agent, person or both: records written_by agent are model output",
	"duplicate_cluster": "the assertion digest of its statement and type, shared by claims that assert the same thing",
	"licenses":          "its bundle's licences for prose, code and data (the data's CC-BY-4.0 when the bundle names none)",
	"entry_index":       "the log index of the bundle entry where it first opened, which a receipt proves",
	"published_at":      "that entry's timestamp",
}

// checking says how to check a record against the log.
var checking = []any{
	"The snapshot covers the first log_size entries of the log: tree_head is the log's signed tree head at that size; check its signature against the log's public key (GET /api/v1/log).",
	"For a record, fetch its entry with GET /api/v1/log/entries/{entry_index}: the entry reveals the record's bundle (or an earlier version holding the claim) and lists claim_id among its claims.",
	"Prove the entry is in the snapshot's tree with GET /api/v1/log/proofs/inclusion?index={entry_index}&size={log_size} against tree_head's root.",
	"statement, type, core and local_id are claims.json of the record's bundle (GET /api/v1/bundles/{bundle}); fields, licences, model_families, models and written_by its manifest.json.",
	"To recompute the whole file, byte for byte, run: agora snapshot verify FILE --url NODE.",
}

// Object is the card as GET /api/v1/snapshots/{date}/card serves it.
func (c *Card) Object() map[string]any {
	counts := map[string]any{}
	for k, byValue := range c.Counts {
		counts[k] = intsAny(byValue)
	}
	byLicense := map[string]any{}
	for k, byValue := range c.Licenses {
		byLicense[k] = intsAny(byValue)
	}
	schema := map[string]any{}
	for k, v := range Schema {
		schema[k] = v
	}
	obj := c.Entry()
	obj["format"] = "gzipped JSON Lines: one claim a line in canonical JSON (RFC 8785), in log order, at gzip level 6 with no name or time in its header"
	obj["tree_head"] = c.Head.Object()
	obj["counts"] = counts
	obj["schema"] = schema
	obj["licenses"] = map[string]any{
		"claims": "CC0-1.0", "metadata": "CC0-1.0",
		"note":    "Claims and their metadata are CC0; papers, code and data keep their bundles' licences, which each record names.",
		"bundles": byLicense,
	}
	obj["checking"] = checking
	reissues := []any{}
	for _, r := range c.Reissues {
		reissues = append(reissues, map[string]any{"reissued_at": tlog.FormatTimestamp(r.At), "log_size": r.LogSize,
			"replaced": r.Replaced, "withdrawals": indexesAny(r.Withdrawals)})
	}
	obj["reissues"] = reissues
	return obj
}

// Entry is the snapshot as GET /api/v1/snapshots lists it.
func (c *Card) Entry() map[string]any {
	e := map[string]any{
		"date": c.Date, "claims": c.Claims, "bytes": c.Bytes, "digest": c.Digest,
		"log_size": c.Head.Size, "taken_at": tlog.FormatTimestamp(c.TakenAt),
		"file": "/api/v1/snapshots/" + c.Date, "card": "/api/v1/snapshots/" + c.Date + "/card",
	}
	if n := len(c.Reissues); n > 0 {
		e["reissued_at"] = tlog.FormatTimestamp(c.Reissues[n-1].At)
	}
	return e
}

// ParseCard reads a card as Object writes it, keeping what Card holds.
func ParseCard(data []byte) (*Card, error) {
	v, err := canonical.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("snapshot card: %w", err)
	}
	obj, _ := v.(map[string]any)
	raw, err := canonical.Marshal(obj["tree_head"])
	if err != nil || obj["tree_head"] == nil {
		return nil, fmt.Errorf("snapshot card: no tree_head")
	}
	head, err := tlog.ParseTreeHead(raw)
	if err != nil {
		return nil, fmt.Errorf("snapshot card: tree_head: %w", err)
	}
	at, err := head.Time()
	if err != nil {
		return nil, fmt.Errorf("snapshot card: tree_head: %w", err)
	}
	date, _ := obj["date"].(string)
	if !IsDate(date) {
		return nil, fmt.Errorf("snapshot card: date %q is not YYYY-MM-DD", date)
	}
	n, _ := obj["claims"].(float64)
	size, _ := obj["bytes"].(float64)
	digest, _ := obj["digest"].(string)
	c := &Card{Date: date, Head: head, TakenAt: at, Claims: int(n), Bytes: int64(size), Digest: digest}
	list, _ := obj["reissues"].([]any)
	for i, item := range list {
		r, _ := item.(map[string]any)
		stamp, _ := r["reissued_at"].(string)
		at, err := tlog.ParseTimestamp(stamp)
		size, ok := r["log_size"].(float64)
		if err != nil || !ok || size < float64(head.Size) {
			return nil, fmt.Errorf("snapshot card: reissues[%d] is not {\"reissued_at\", \"log_size\", ...} after the tree head", i)
		}
		re := Reissue{At: at, LogSize: uint64(size)}
		re.Replaced, _ = r["replaced"].(string)
		for _, w := range asList(r["withdrawals"]) {
			if f, ok := w.(float64); ok {
				re.Withdrawals = append(re.Withdrawals, uint64(f))
			}
		}
		c.Reissues = append(c.Reissues, re)
	}
	return c, nil
}

// LogSize is the log size the snapshot stands at: the tree head's, or
// its last reissue's, whose withdrawals it leaves out.
func (c *Card) LogSize() uint64 {
	if n := len(c.Reissues); n > 0 {
		return c.Reissues[n-1].LogSize
	}
	return c.Head.Size
}

func indexesAny(list []uint64) []any {
	out := make([]any, len(list))
	for i, n := range list {
		out[i] = n
	}
	return out
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}

var datePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// IsDate reports whether s is a real day written YYYY-MM-DD, as a
// snapshot is named.
func IsDate(s string) bool {
	if !datePattern.MatchString(s) {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func intsAny(m map[string]int) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
