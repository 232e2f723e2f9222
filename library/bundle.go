package library

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
)

// Bundles: signed records carried from one node to another.
//
// The contract names two formats. Both are a JSON object (RFC 8785
// canonical JSON when a node writes one) holding signed records in an
// order that puts every record a record names before it, the public keys
// that verify them, and the bundle's own digest:
//
//	{"format":  "alexandria.bundle/2",
//	 "origin":  the exporting node's log origin, as it declares it,
//	 "map":     the research map revision the bundle is the closure of,
//	 "authors": {"<author>": {"key": "<hybrid public key>", "rotations": [<key_rotation entry>, ...]}, ...},
//	 "records": [{"id", "root", "record", "signature", "admission"}, ...],
//	 "digest":  "sha256:<hex>"}
//
//	{"format":      "alexandria.review-bundle/1",
//	 "origin":      as above,
//	 "node":        the exact research node or claim revision reviewed,
//	 "observed_at": when the exporter read its store, RFC 3339 UTC ending Z,
//	 "authors", "records", "digest": as above}
//
// A map bundle is the curator's selection: the map revision and everything
// it names, transitively (Dependencies): the node revisions it pins, its
// selected assessments and their evidence, its previous revisions, the
// proposal a merge merges, containers, link targets. The curator chose it
// by publishing the map, so the same revision makes the same set of
// records wherever it is exported. A review bundle is what its exporter
// happened to hold about one exact node revision when it looked: the node,
// every evidence and assessment whose subject it is, and what those name.
// Its observed_at is the exporter's word, not a consistent cutoff; nothing
// certifies that the evidence is complete.
//
// records are each the contract's signed record as the exporter serves it;
// admission is the exporter's evidence of its own admission and is carried
// as it is, unverified and unused by an importer. digest is "sha256:" and
// the hex SHA-256 of the bundle's canonical JSON without its digest member:
// it names the bundle and catches damage in transit, but, unsigned, it
// authenticates nothing. What a bundle proves is each record's author:
//
//   - authors has exactly the records' authors. Each author's key makes
//     its ID: strings.TrimPrefix(protocol.OperatorID(key), "op:") is the
//     author, so the key is the first key that operator registered.
//   - An author who rotated keys carries its rotations, oldest first:
//     the key_rotation entries as signed, each signed by the key before
//     it and countersigned by the key it names (protocol.VerifyKeyRotation),
//     so every later key is bound to the ID by a chain from the first.
//   - Every record's signature verifies with one of its author's keys. A
//     bundle cannot show when a record was signed, so a record signed by a
//     key after it was retired verifies as well: signatures establish
//     attribution, not time.
//
// ParseBundle checks all of this, and that the records are a closure in
// order (ErrIncomplete otherwise): each record's ID its revision ID, its
// root the root its previous chain gives, everything it names earlier in
// the list, and no record but the closure the format defines.

// The bundle formats.
const (
	// BundleFormat is a curator-selected map dependency closure.
	BundleFormat = "alexandria.bundle/2"
	// ReviewBundleFormat is an operator-observed evidence and assessment
	// closure of one exact node revision.
	ReviewBundleFormat = "alexandria.review-bundle/1"
)

// Bundle limits.
const (
	// MaxBundleBytes bounds a bundle as encoded: the contract's
	// limits.maximum_bundle_bytes.
	MaxBundleBytes = 33554432

	// MaxRotations bounds the key rotations one author carries. An
	// operator rotating more often than this is not one a bundle serves.
	MaxRotations = 64
)

// ErrIncomplete: a bundle's records are not the closure its format
// defines, in dependency order: a record names a revision not before it,
// a record is not in the closure, an ID or root is not the record's.
var ErrIncomplete = errors.New("bundle records are not a dependency closure in order")

// A BundleError is a bundle refused, with where: Path is a JSON Pointer
// into the bundle ("/records/3/signature"), Record the revision ID of the
// record refused ("" for the bundle as a whole). It wraps the reason,
// which wraps ErrMalformed, ErrTooLarge, ErrBadSignature or ErrIncomplete.
type BundleError struct {
	Path   string
	Record string
	Err    error
}

func (e *BundleError) Error() string {
	where := e.Path
	if where == "" {
		where = "the bundle"
	}
	if e.Record != "" {
		where += " (revision " + e.Record + ")"
	}
	return "library: bundle: " + where + ": " + e.Err.Error()
}

// Unwrap returns the reason.
func (e *BundleError) Unwrap() error { return e.Err }

// A Bundle is a bundle of either format, as built or parsed.
type Bundle struct {
	Format string
	// Origin is the exporting node's log origin, as it declares it.
	Origin string
	// Subject is the map revision (BundleFormat) or the node revision
	// (ReviewBundleFormat) the bundle is the closure of.
	Subject string
	// ObservedAt is when a review bundle's exporter read its store; empty
	// for a map bundle.
	ObservedAt string
	// Authors are the records' authors' keys, by author (64 hex digits).
	Authors map[string]BundleAuthor
	// Records are the signed records, dependencies first.
	Records []BundleRecord
	// Digest is the bundle's digest: set by Marshal and ParseBundle.
	Digest string
}

// A BundleAuthor is the keys that verify one author's records.
type BundleAuthor struct {
	// Key is the first key the author registered: the key that makes its
	// ID.
	Key string
	// Rotations are the author's key_rotation entries as signed, oldest
	// first; nil if it never rotated (or no record needs a later key).
	Rotations []map[string]any
}

// Keys returns the author's keys, first to last: Key, then the key each
// rotation names. It does not verify them; ParseBundle and Marshal do.
func (a BundleAuthor) Keys() []string {
	keys := []string{a.Key}
	for _, r := range a.Rotations {
		k, _ := r["key"].(string)
		keys = append(keys, k)
	}
	return keys
}

// A BundleRecord is one signed record of a bundle.
type BundleRecord struct {
	ID       string
	Root     string
	Envelope *Envelope
	// Admission is the exporter's admission evidence, carried unverified;
	// nil is written as {}.
	Admission map[string]any
	// SignedBy is the author key the signature verifies with, set by
	// ParseBundle and Marshal; never written.
	SignedBy string
}

// Dependencies returns every revision r names, each once, in a fixed
// order: previous, the link targets, then the revisions its body names
// (an evidence's or assessment's node or claim, an assessment's evidence,
// a proposal's base, a map's question, nodes and selected assessments, and
// those of a research proposal's snapshot). These are what Check requires
// stored before r, so a set of records holding each one's dependencies can
// be admitted anywhere in an order that puts them first. A structured body
// that does not decode is an error wrapping ErrInvalid.
func Dependencies(r *Record) ([]string, error) {
	var ids []string
	add := func(id ...string) {
		for _, id := range id {
			if id != "" && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	add(r.Previous)
	for _, l := range r.Links {
		add(l.Target)
	}
	f, err := bodyFields(r)
	if err != nil {
		return nil, fmt.Errorf("library: dependencies: %w: the body does not decode: %w", ErrInvalid, err)
	}
	switch r.Kind {
	case kindEvidence, kindResearchEvidence:
		add(f.subject(r.Kind))
	case kindAssessment, kindResearchAssessment:
		add(f.subject(r.Kind))
		add(f.Evidence...)
	case kindProposal:
		add(f.Base)
		for _, l := range f.Links {
			add(l.Target)
		}
	case kindResearchProposal:
		add(f.Base)
		if len(f.Snapshot) > 0 {
			var s fields
			if err := json.Unmarshal(f.Snapshot, &s); err != nil {
				return nil, fmt.Errorf("library: dependencies: %w: the snapshot does not decode: %w", ErrInvalid, err)
			}
			add(s.Question)
			add(s.Nodes...)
			add(s.Assessments...)
		}
	case kindResearchMap:
		add(f.Question)
		add(f.Nodes...)
		add(f.Assessments...)
	case kindRelationship:
		add(f.From, f.To)
	}
	return ids, nil
}

// IsReviewOf reports whether r is evidence or an assessment whose subject
// is exactly the revision node: what a review bundle of node carries
// beside the node.
func IsReviewOf(r *Record, node string) bool {
	switch r.Kind {
	case kindEvidence, kindResearchEvidence, kindAssessment, kindResearchAssessment:
		f, err := bodyFields(r)
		return err == nil && f.subject(r.Kind) == node
	}
	return false
}

// OrderDependenciesFirst sorts records so that every record comes after
// the records it names (Dependencies) that are among them, keeping the
// given order wherever that already holds: given the order a node admitted
// them in, which already holds, it changes nothing. Records naming each
// other in a cycle, which no store can hold, are ErrIncomplete.
func OrderDependenciesFirst(records []BundleRecord) ([]BundleRecord, error) {
	at := make(map[string]int, len(records))
	for i, r := range records {
		at[r.ID] = i
	}
	waiting := make([]int, len(records)) // dependencies not yet placed
	next := make([][]int, len(records))  // who waits for each
	for i, r := range records {
		deps, err := Dependencies(r.Envelope.Record)
		if err != nil {
			return nil, err
		}
		for _, d := range deps {
			if j, ok := at[d]; ok {
				waiting[i]++
				next[j] = append(next[j], i)
			}
		}
	}
	// Always place the earliest record whose dependencies are placed, so
	// an order that already holds is kept. A placed record waits for -1.
	out := make([]BundleRecord, 0, len(records))
	for len(out) < len(records) {
		i := slices.Index(waiting, 0)
		if i < 0 {
			return nil, fmt.Errorf("library: bundle: the records name each other in a cycle: %w", ErrIncomplete)
		}
		waiting[i] = -1
		out = append(out, records[i])
		for _, k := range next[i] {
			waiting[k]--
		}
	}
	return out, nil
}

// Marshal checks the bundle as ParseBundle would and returns its canonical
// JSON with its digest, which it sets. A bundle over MaxBundleBytes is
// ErrTooLarge; one ParseBundle would refuse is refused here, with the same
// error, so a node never exports a bundle another node refuses.
func (b *Bundle) Marshal() ([]byte, error) {
	if err := b.verify(); err != nil {
		return nil, err
	}
	v, err := b.value()
	if err != nil {
		return nil, err
	}
	unsigned, err := canonical.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("library: bundle: %w", err)
	}
	b.Digest = canonical.Digest(unsigned)
	v["digest"] = b.Digest
	data, err := canonical.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("library: bundle: %w", err)
	}
	if len(data) > MaxBundleBytes {
		return nil, &BundleError{Err: fmt.Errorf("%d bytes; at most %d are allowed: %w", len(data), MaxBundleBytes, ErrTooLarge)}
	}
	return data, nil
}

// value is the bundle as a JSON value without its digest.
func (b *Bundle) value() (map[string]any, error) {
	authors := make(map[string]any, len(b.Authors))
	for id, a := range b.Authors {
		rot := make([]any, len(a.Rotations))
		for i, r := range a.Rotations {
			rot[i] = r
		}
		authors[id] = map[string]any{"key": a.Key, "rotations": rot}
	}
	records := make([]any, len(b.Records))
	for i, r := range b.Records {
		record, err := recordValue(r.Envelope.Record)
		if err != nil {
			return nil, err
		}
		admission := r.Admission
		if admission == nil {
			admission = map[string]any{}
		}
		records[i] = map[string]any{"id": r.ID, "root": r.Root, "record": record, "signature": r.Envelope.Signature, "admission": admission}
	}
	v := map[string]any{"format": b.Format, "origin": b.Origin, "authors": authors, "records": records}
	switch b.Format {
	case BundleFormat:
		v["map"] = b.Subject
	case ReviewBundleFormat:
		v["node"] = b.Subject
		v["observed_at"] = b.ObservedAt
	}
	return v, nil
}

// recordValue is the record as canonical.Marshal writes it: a JSON value
// whose canonical form is the record's.
func recordValue(r *Record) (any, error) {
	text, err := r.Canonical()
	if err != nil {
		return nil, err
	}
	return canonical.Parse(text)
}

// ParseBundle reads a bundle of either format and verifies it: the size
// first (MaxBundleBytes, ErrTooLarge), then strict I-JSON with exactly the
// format's members and each record a valid signed envelope (ErrMalformed,
// or ErrTooLarge for a record over the envelope limits), the digest,
// every author key and rotation and every signature (ErrBadSignature), and
// the records a closure in dependency order (ErrIncomplete). Every error
// is a *BundleError naming where. It reads no store: what it accepts is
// true of the bundle alone.
func ParseBundle(data []byte) (*Bundle, error) {
	if len(data) > MaxBundleBytes {
		return nil, &BundleError{Err: fmt.Errorf("%d bytes; at most %d are allowed: %w", len(data), MaxBundleBytes, ErrTooLarge)}
	}
	v, err := canonical.Parse(data)
	if err != nil {
		return nil, &BundleError{Err: fmt.Errorf("%w: %w", ErrMalformed, err)}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, malformed("", "", "a bundle is a JSON object, not %s", canonical.Describe(v))
	}
	var r reader
	b := &Bundle{Format: r.str(obj, "", "format")}
	switch b.Format {
	case BundleFormat:
		r.members("", obj, "format", "origin", "map", "authors", "records", "digest")
		b.Subject = r.str(obj, "", "map")
	case ReviewBundleFormat:
		r.members("", obj, "format", "origin", "node", "observed_at", "authors", "records", "digest")
		b.Subject = r.str(obj, "", "node")
		b.ObservedAt = r.str(obj, "", "observed_at")
	default:
		if r.err == nil {
			return nil, malformed("/format", "", "the format is %q or %q, not %q", BundleFormat, ReviewBundleFormat, b.Format)
		}
	}
	b.Origin = r.str(obj, "", "origin")
	b.Digest = r.str(obj, "", "digest")
	if r.err != nil {
		return nil, &BundleError{Err: r.err}
	}
	if b.Format == ReviewBundleFormat {
		if t, err := time.Parse(time.RFC3339Nano, b.ObservedAt); err != nil || !rfc3339UTCZ.MatchString(b.ObservedAt) || t.IsZero() {
			return nil, malformed("/observed_at", "", "observed_at %q is not an RFC 3339 UTC time ending Z", b.ObservedAt)
		}
	}
	if b.Authors, err = parseAuthors(obj["authors"]); err != nil {
		return nil, err
	}
	list, ok := obj["records"].([]any)
	if !ok {
		return nil, malformed("/records", "", "records is an array, not %s", canonical.Describe(obj["records"]))
	}
	b.Records = make([]BundleRecord, len(list))
	for i, item := range list {
		if b.Records[i], err = parseBundleRecord(item, fmt.Sprintf("/records/%d", i)); err != nil {
			return nil, err
		}
	}
	// The records first, so that an altered record is named even when the
	// digest was not made again to match.
	if err := b.verify(); err != nil {
		return nil, err
	}
	delete(obj, "digest")
	unsigned, err := canonical.Marshal(obj)
	if err != nil {
		return nil, &BundleError{Err: fmt.Errorf("%w: %w", ErrMalformed, err)}
	}
	if got := canonical.Digest(unsigned); got != b.Digest {
		return nil, &BundleError{Path: "/digest", Err: fmt.Errorf("the digest is %s, not %s: the bundle was altered: %w", got, b.Digest, ErrBadSignature)}
	}
	return b, nil
}

func malformed(path, record, format string, args ...any) error {
	return &BundleError{Path: path, Record: record, Err: fmt.Errorf(format+": %w", append(args, ErrMalformed)...)}
}

func parseAuthors(v any) (map[string]BundleAuthor, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, malformed("/authors", "", "authors is an object, not %s", canonical.Describe(v))
	}
	out := make(map[string]BundleAuthor, len(obj))
	for id, av := range obj {
		at := "/authors/" + id
		a, ok := av.(map[string]any)
		if !ok {
			return nil, malformed(at, "", "an author is an object {key, rotations}, not %s", canonical.Describe(av))
		}
		var r reader
		r.members(at, a, "key", "rotations")
		key := r.str(a, at, "key")
		if r.err != nil {
			return nil, &BundleError{Path: at, Err: r.err}
		}
		list, ok := a["rotations"].([]any)
		if !ok {
			return nil, malformed(at+"/rotations", "", "rotations is an array, not %s", canonical.Describe(a["rotations"]))
		}
		if len(list) > MaxRotations {
			return nil, &BundleError{Path: at + "/rotations", Err: fmt.Errorf("%d rotations; at most %d are allowed: %w", len(list), MaxRotations, ErrTooLarge)}
		}
		author := BundleAuthor{Key: key}
		for i, rv := range list {
			rot, ok := rv.(map[string]any)
			if !ok {
				return nil, malformed(fmt.Sprintf("%s/rotations/%d", at, i), "", "a rotation is a key_rotation entry, not %s", canonical.Describe(rv))
			}
			author.Rotations = append(author.Rotations, rot)
		}
		out[id] = author
	}
	return out, nil
}

func parseBundleRecord(v any, at string) (BundleRecord, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return BundleRecord{}, malformed(at, "", "a record is a signed record object, not %s", canonical.Describe(v))
	}
	var r reader
	r.members(at, obj, "id", "root", "record", "signature", "admission")
	br := BundleRecord{ID: r.str(obj, at, "id"), Root: r.str(obj, at, "root")}
	r.str(obj, at, "signature")
	if r.err != nil {
		return BundleRecord{}, &BundleError{Path: at, Record: br.ID, Err: r.err}
	}
	if br.Admission, ok = obj["admission"].(map[string]any); !ok {
		return BundleRecord{}, malformed(at+"/admission", br.ID, "admission is an object, not %s", canonical.Describe(obj["admission"]))
	}
	// The envelope's own parser checks the record, with its limits.
	text, err := canonical.Marshal(map[string]any{"record": obj["record"], "signature": obj["signature"]})
	if err != nil {
		return BundleRecord{}, &BundleError{Path: at, Record: br.ID, Err: fmt.Errorf("%w: %w", ErrMalformed, err)}
	}
	if br.Envelope, err = ParseEnvelope(text); err != nil {
		return BundleRecord{}, &BundleError{Path: at, Record: br.ID, Err: err}
	}
	return br, nil
}

// verify checks what ParseBundle checks beyond the form: the authors' keys,
// the records' IDs, roots, order and signatures, and the closure. It sets
// each record's SignedBy.
func (b *Bundle) verify() error {
	switch b.Format {
	case BundleFormat, ReviewBundleFormat:
	default:
		return malformed("/format", "", "the format is %q or %q, not %q", BundleFormat, ReviewBundleFormat, b.Format)
	}
	if b.Origin == "" || strings.ContainsAny(b.Origin, "\n") {
		return malformed("/origin", "", "origin is the exporter's log origin, one non-empty line")
	}
	if !IsRevisionID(b.Subject) {
		return malformed("", "", "the bundle's subject %q is not a revision ID", b.Subject)
	}
	keys, err := b.authorKeys()
	if err != nil {
		return err
	}
	at := make(map[string]int, len(b.Records)) // revision → index
	used := map[string]bool{}
	for i, r := range b.Records {
		path := fmt.Sprintf("/records/%d", i)
		rec := r.Envelope.Record
		id, err := rec.RevisionID()
		if err != nil {
			return &BundleError{Path: path, Record: r.ID, Err: fmt.Errorf("%w: %w", ErrMalformed, err)}
		}
		if id != r.ID {
			return &BundleError{Path: path + "/id", Record: r.ID, Err: fmt.Errorf("the record's revision ID is %s: the record or its ID was altered: %w", id, ErrBadSignature)}
		}
		if j, ok := at[id]; ok {
			return &BundleError{Path: path, Record: id, Err: fmt.Errorf("repeats record %d: %w", j, ErrMalformed)}
		}
		deps, err := Dependencies(rec)
		if err != nil {
			return &BundleError{Path: path + "/record/body", Record: id, Err: err}
		}
		for _, d := range deps {
			if _, ok := at[d]; !ok {
				return &BundleError{Path: path, Record: id, Err: fmt.Errorf("names %s, which is not before it in the bundle: %w", d, ErrIncomplete)}
			}
		}
		root := id
		if rec.Previous != "" {
			root = b.Records[at[rec.Previous]].Root
		}
		if r.Root != root {
			return &BundleError{Path: path + "/root", Record: id, Err: fmt.Errorf("the root is %s, not %s: %w", root, r.Root, ErrIncomplete)}
		}
		ks, ok := keys[rec.Author]
		if !ok {
			return &BundleError{Path: path + "/record/author", Record: id, Err: fmt.Errorf("the bundle carries no key for author %s: %w", rec.Author, ErrBadSignature)}
		}
		used[rec.Author] = true
		signedBy := ""
		for k := len(ks) - 1; k >= 0 && signedBy == ""; k-- {
			if VerifySignature(r.Envelope, ks[k]) == nil {
				signedBy = ks[k]
			}
		}
		if signedBy == "" {
			return &BundleError{Path: path + "/signature", Record: id, Err: fmt.Errorf("the signature is not by any key of %s the bundle carries: %w", rec.OperatorID(), ErrBadSignature)}
		}
		b.Records[i].SignedBy = signedBy
		at[id] = i
	}
	for author := range b.Authors {
		if !used[author] {
			return malformed("/authors/"+author, "", "no record is by this author")
		}
	}
	return b.checkClosure(at)
}

// authorKeys checks each author's key and rotations and returns its keys,
// first to last.
func (b *Bundle) authorKeys() (map[string][]string, error) {
	out := make(map[string][]string, len(b.Authors))
	for author, a := range b.Authors {
		at := "/authors/" + author
		if !hex64.MatchString(author) {
			return nil, malformed(at, "", "an author is 64 lowercase hex digits")
		}
		if strings.TrimPrefix(protocol.OperatorID(a.Key), "op:") != author {
			return nil, &BundleError{Path: at + "/key", Err: fmt.Errorf("the key does not make the author's ID: %w", ErrBadSignature)}
		}
		if len(a.Rotations) > MaxRotations {
			return nil, &BundleError{Path: at + "/rotations", Err: fmt.Errorf("%d rotations; at most %d are allowed: %w", len(a.Rotations), MaxRotations, ErrTooLarge)}
		}
		keys := a.Keys()
		for i, rot := range a.Rotations {
			if rot["operator"] != "op:"+author || !protocol.VerifyKeyRotation(rot, keys[i]) || slices.Contains(keys[:i+1], keys[i+1]) {
				return nil, &BundleError{Path: fmt.Sprintf("%s/rotations/%d", at, i), Err: fmt.Errorf("not a rotation of op:%s signed by its key before and countersigned by a new key: %w", author, ErrBadSignature)}
			}
		}
		out[author] = keys
	}
	return out, nil
}

// checkClosure checks that the records are exactly the closure the format
// defines: the map and what it names (BundleFormat), or the node, the
// evidence and assessments about it, and what those name
// (ReviewBundleFormat).
func (b *Bundle) checkClosure(at map[string]int) error {
	i, ok := at[b.Subject]
	if !ok {
		return &BundleError{Record: b.Subject, Err: fmt.Errorf("the bundle does not hold its own subject: %w", ErrIncomplete)}
	}
	kind := b.Records[i].Envelope.Record.Kind
	var start []int
	switch b.Format {
	case BundleFormat:
		if kind != kindResearchMap {
			return &BundleError{Path: "/map", Record: b.Subject, Err: fmt.Errorf("a map bundle is of a research map, not %s: %w", an(kind), ErrMalformed)}
		}
		start = []int{i}
	case ReviewBundleFormat:
		if kind != kindResearchNode && kind != kindClaim {
			return &BundleError{Path: "/node", Record: b.Subject, Err: fmt.Errorf("a review bundle is of a research node or a claim, not %s: %w", an(kind), ErrMalformed)}
		}
		start = []int{i}
		for j, r := range b.Records {
			if IsReviewOf(r.Envelope.Record, b.Subject) {
				start = append(start, j)
			}
		}
	}
	reached := make([]bool, len(b.Records))
	for len(start) > 0 {
		j := start[len(start)-1]
		start = start[:len(start)-1]
		if reached[j] {
			continue
		}
		reached[j] = true
		deps, _ := Dependencies(b.Records[j].Envelope.Record) // decoded in verify
		for _, d := range deps {
			start = append(start, at[d])
		}
	}
	for j, ok := range reached {
		if !ok {
			return &BundleError{Path: fmt.Sprintf("/records/%d", j), Record: b.Records[j].ID, Err: fmt.Errorf("not part of the closure the bundle's format defines: %w", ErrIncomplete)}
		}
	}
	return nil
}

// CheckInOrder checks records as if each were stored, in order, right
// after the ones before it: Check of each against g with the records
// before it added. It returns the index of the first one refused with
// Check's error, or -1 and nil. It only reads g, so a node importing a
// bundle learns before it writes anything whether every record would be
// admitted; the verdict holds as long as g does not change, as Graph's
// contract says of Check's.
func CheckInOrder(ctx context.Context, g Graph, records []*Record) (int, error) {
	o := &overlay{g: g, revisions: map[string]*Stored{}, heads: map[string]string{}, votes: map[[2]string]string{}}
	for i, r := range records {
		if err := Check(ctx, r, o); err != nil {
			return i, err
		}
		id, err := r.RevisionID()
		if err != nil {
			return i, err
		}
		s := &Stored{ID: id, Root: id, Record: r}
		if r.Previous != "" {
			prev, err := o.Revision(ctx, r.Previous)
			if err != nil {
				return i, fmt.Errorf("library: check in order: %w", err)
			}
			s.Root = prev.Root
		}
		o.revisions[id] = s
		o.heads[s.Root] = id
		if r.Kind == kindVote && r.Previous == "" && len(r.Links) == 1 {
			o.votes[[2]string{r.Author, r.Links[0].Target}] = id
		}
	}
	return -1, nil
}

// overlay is a Graph with records laid over another, unstored.
type overlay struct {
	g         Graph
	revisions map[string]*Stored
	heads     map[string]string // lineage root → head, where a laid record moved it
	votes     map[[2]string]string
}

func (o *overlay) Revision(ctx context.Context, id string) (*Stored, error) {
	if s, ok := o.revisions[id]; ok {
		return s, nil
	}
	return o.g.Revision(ctx, id)
}

func (o *overlay) Head(ctx context.Context, root string) (string, error) {
	if h, ok := o.heads[root]; ok {
		return h, nil
	}
	return o.g.Head(ctx, root)
}

func (o *overlay) VoteBy(ctx context.Context, author, target string) (string, error) {
	if v, ok := o.votes[[2]string{author, target}]; ok {
		return v, nil
	}
	return o.g.VoteBy(ctx, author, target)
}
