package library

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/agora-node/agora/canonical"
)

// A Record is a signed contribution's record, alexandria.contribution/3 (see
// the package documentation for each member). Build one with NewRecord or
// ParseEnvelope, which check the members the content schema does not; treat
// it as immutable once built, since its revision ID and signature are over
// its canonical JSON.
type Record struct {
	Format     string
	Author     string
	AuthoredAt string
	Kind       string
	Title      string
	Body       string
	Links      []Link
	Previous   string
}

// A Link is one typed edge from a record to an exact revision.
type Link struct {
	Relation string `json:"relation"`
	Target   string `json:"target"`
}

// Content is what an author writes: the content schema's object, with the
// body decoded. For the text kinds Body is the text (a string); for the
// others it is the body object as canonical.Parse returns JSON values
// (map[string]any, []any, string, float64, bool, nil). It is also the
// --content file the contract's examples give each step.
type Content struct {
	Kind     string
	Title    string
	Body     any
	Links    []Link
	Previous string
}

// textKinds are the kinds whose body is text, carried as it is; every other
// kind's body is JSON, carried as canonical JSON text.
var textKinds = []string{"thread", "article", "reply", "collection", "source", "vote"}

// IsTextKind reports whether kind's body is text carried as it is, rather
// than an object carried as its canonical JSON.
func IsTextKind(kind string) bool { return slices.Contains(textKinds, kind) }

var (
	hex64       = regexp.MustCompile(`^[0-9a-f]{64}$`)
	rfc3339UTCZ = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?Z$`)
)

// IsRevisionID reports whether id has a revision ID's form: 64 lowercase hex
// digits, no prefix.
func IsRevisionID(id string) bool { return hex64.MatchString(id) }

// NewRecord makes the record of content c by author (64 lowercase hex
// digits, or an operator ID with its "op:" prefix) at authoredAt, which is
// written in UTC to the second's fraction the time holds. A structured
// kind's body is encoded as its canonical JSON. It checks what ParseEnvelope
// checks, not the content: that is ValidateContent's and Check's.
func NewRecord(c Content, author string, authoredAt time.Time) (*Record, error) {
	if len(author) == len("op:")+64 && author[:3] == "op:" {
		author = author[3:]
	}
	r := &Record{
		Format:     Format,
		Author:     author,
		AuthoredAt: authoredAt.UTC().Format(time.RFC3339Nano),
		Kind:       c.Kind,
		Title:      c.Title,
		Links:      slices.Clone(c.Links),
		Previous:   c.Previous,
	}
	if r.Links == nil {
		r.Links = []Link{}
	}
	if s, ok := c.Body.(string); ok && IsTextKind(c.Kind) {
		r.Body = s
	} else {
		if IsTextKind(c.Kind) {
			return nil, fmt.Errorf("library: new record: a %s's body is text, not %s: %w", c.Kind, canonical.Describe(c.Body), ErrMalformed)
		}
		body, err := canonical.Marshal(c.Body)
		if err != nil {
			return nil, fmt.Errorf("library: new record: encoding the body: %w", err)
		}
		r.Body = string(body)
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("library: new record: %w", err)
	}
	return r, nil
}

// ParseContent reads a content file: strict I-JSON, an object with exactly
// the members kind, title, body, links and previous, the links being
// {relation, target} objects of strings. What the values must be beyond
// their types is ValidateContent's to say, once the content is a record.
func ParseContent(text []byte) (Content, error) {
	v, err := canonical.Parse(text)
	if err != nil {
		return Content{}, fmt.Errorf("library: content: %w: %w", ErrMalformed, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return Content{}, fmt.Errorf("library: content must be a JSON object, not %s: %w", canonical.Describe(v), ErrMalformed)
	}
	var r reader
	r.members("", obj, "kind", "title", "body", "links", "previous")
	c := Content{
		Kind:     r.str(obj, "", "kind"),
		Title:    r.str(obj, "", "title"),
		Body:     obj["body"],
		Links:    r.links(obj, ""),
		Previous: r.str(obj, "", "previous"),
	}
	if r.err != nil {
		return Content{}, fmt.Errorf("library: content: %w", r.err)
	}
	return c, nil
}

// Content returns the record's content with its body decoded, as
// ValidateContent sees it. A structured body that is not JSON is an error
// wrapping ErrInvalid.
func (r *Record) Content() (Content, error) {
	body, err := r.decodeBody()
	if err != nil {
		return Content{}, fmt.Errorf("library: record body: %w: %w", ErrInvalid, err)
	}
	return Content{Kind: r.Kind, Title: r.Title, Body: body, Links: slices.Clone(r.Links), Previous: r.Previous}, nil
}

// decodeBody returns the body as content has it: the text for text kinds
// and for kinds the schema does not know (whose kind alone is reported),
// the parsed JSON otherwise.
func (r *Record) decodeBody() (any, error) {
	if IsTextKind(r.Kind) || !knownKind(r.Kind) {
		return r.Body, nil
	}
	return canonical.Parse([]byte(r.Body))
}

// value is the record as a generic JSON object, the form its canonical JSON
// is written from.
// sizeHint is about the length of r's canonical JSON, escapes aside: a
// buffer of it holds the record without growing (growing one for a body of
// a few kilobytes was most of what a library write allocated).
func (r *Record) sizeHint() int {
	return 256 + len(r.Title) + len(r.Body) + len(r.Kind) + len(r.Previous) + 100*len(r.Links)
}

func (r *Record) value() map[string]any {
	links := make([]any, len(r.Links))
	for i, l := range r.Links {
		links[i] = map[string]any{"relation": l.Relation, "target": l.Target}
	}
	return map[string]any{
		"format":      r.Format,
		"author":      r.Author,
		"authored_at": r.AuthoredAt,
		"kind":        r.Kind,
		"title":       r.Title,
		"body":        r.Body,
		"links":       links,
		"previous":    r.Previous,
	}
}

// Canonical returns the record's RFC 8785 canonical JSON: the bytes its
// signature covers and its revision ID digests. It fails only for strings
// that are not valid UTF-8, which a parsed record never holds.
func (r *Record) Canonical() ([]byte, error) {
	b, err := canonical.AppendMarshal(make([]byte, 0, r.sizeHint()), r.value())
	if err != nil {
		return nil, fmt.Errorf("library: record: %w", err)
	}
	return b, nil
}

// RevisionID returns the record's revision ID: the lowercase hex SHA-256 of
// its canonical JSON.
func (r *Record) RevisionID() (string, error) {
	b, err := r.Canonical()
	if err != nil {
		return "", err
	}
	return RevisionIDOf(b), nil
}

// RevisionIDOf returns the revision ID of the record whose canonical JSON
// is canon, for a caller that holds it.
func RevisionIDOf(canon []byte) string {
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:])
}

// OperatorID returns the author's Agora operator ID, "op:" and the author.
func (r *Record) OperatorID() string { return "op:" + r.Author }

// Time returns authored_at as a time.
func (r *Record) Time() (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, r.AuthoredAt)
	if err != nil || !rfc3339UTCZ.MatchString(r.AuthoredAt) {
		return time.Time{}, fmt.Errorf("authored_at %q is not an RFC 3339 UTC time ending Z: %w", r.AuthoredAt, ErrMalformed)
	}
	return t, nil
}

// check checks the members only the record has (format, author,
// authored_at) and the body's size. The content members are left to
// ValidateContent, so that their issues carry JSON Pointers.
func (r *Record) check() error {
	if r.Format != Format {
		return fmt.Errorf("format must be %q, not %q: %w", Format, r.Format, ErrMalformed)
	}
	if !hex64.MatchString(r.Author) {
		return fmt.Errorf("author must be the author's operator ID without \"op:\": 64 lowercase hex digits: %w", ErrMalformed)
	}
	if _, err := r.Time(); err != nil {
		return err
	}
	if n := canonical.UTF16Len(r.Body); n > MaxBodyChars {
		return fmt.Errorf("the encoded body is %d characters; at most %d are allowed: %w", n, MaxBodyChars, ErrTooLarge)
	}
	return nil
}

// reader reads members of a parsed object, keeping the first error.
type reader struct {
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format+": %w", append(args, ErrMalformed)...)
	}
}

// members requires obj to have exactly the members names.
func (r *reader) members(at string, obj map[string]any, names ...string) {
	for _, name := range names {
		if _, ok := obj[name]; !ok {
			r.fail("%s/%s is required", at, name)
		}
	}
	if len(obj) > len(names) {
		var extra []string
		for name := range obj {
			if !slices.Contains(names, name) {
				extra = append(extra, name)
			}
		}
		slices.Sort(extra)
		r.fail("%s has no member %q; its members are exactly %v", orWhole(at), extra[0], names)
	}
}

func (r *reader) str(obj map[string]any, at, name string) string {
	v, ok := obj[name]
	if !ok {
		return "" // reported by members
	}
	s, ok := v.(string)
	if !ok {
		r.fail("%s/%s must be a string, not %s", at, name, canonical.Describe(v))
	}
	return s
}

func (r *reader) links(obj map[string]any, at string) []Link {
	v, ok := obj["links"]
	if !ok {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		r.fail("%s/links must be an array, not %s", at, canonical.Describe(v))
		return nil
	}
	links := make([]Link, len(list))
	for i, item := range list {
		itemAt := fmt.Sprintf("%s/links/%d", at, i)
		l, ok := item.(map[string]any)
		if !ok {
			r.fail("%s must be an object {relation, target}, not %s", itemAt, canonical.Describe(item))
			continue
		}
		r.members(itemAt, l, "relation", "target")
		links[i] = Link{Relation: r.str(l, itemAt, "relation"), Target: r.str(l, itemAt, "target")}
	}
	return links
}

func orWhole(at string) string {
	if at == "" {
		return "the object"
	}
	return at
}
