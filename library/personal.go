package library

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/agora-node/agora/canonical"
)

// Personal lists (the contract's personal_lists): each author's following
// and saved lists of object roots, read and written through POST
// /api/personal with records of the contribution format signed as
// contributions are, but of two kinds the content schema does not know:
//
//	personal-read   body {"nonce": "<64 hex>"}, links [], previous ""
//	personal-state  body {"following": [roots], "saved": [roots]}, links [],
//	                previous "" for the first state, else the state it replaces
//
// The body is carried as its canonical JSON, as every structured kind's is,
// so a request has exactly one revision ID for a given author and time.
// The contract gives personal records no title; any title of at most 200
// characters is taken, and NewPersonalRead and NewPersonalState use the
// kind. A read's nonce makes it a request no one else can replay to mean
// something new; a state's previous makes a write a compare-and-set. The
// content schema's kind enum keeps these records out of POST /api/entries,
// so they never reach the catalogue, the graph or the log.
//
// The node checks a personal request in publishContribution's order: size
// and form (ParsePersonal), the author's operator, key and signature,
// freshness (CheckPersonalTime), scope, and then for a state the roots
// (CheckPersonalRoots) and the compare-and-set in the store.

// The personal kinds.
const (
	KindPersonalRead  = "personal-read"
	KindPersonalState = "personal-state"
)

// The personal lists' limits.
const (
	// MaxPersonalRoots bounds each list: 128 unique roots.
	MaxPersonalRoots = 128

	// PersonalWindow is how old a personal request may be when it
	// arrives: it is an authorization, fresh or refused. With MaxClockSkew
	// ahead, it is also how long a node must remember a read's nonce.
	PersonalWindow = 5 * time.Minute
)

// Codes of the personal lists' rules, reported as RuleError codes.
const (
	// CodeStaleRequest: authored_at is more than PersonalWindow behind the
	// node's clock; sign a new request.
	CodeStaleRequest = "stale_request"
	// CodeNotListable: a list names something that is not the root of a
	// stored space, discussion, claim or document.
	CodeNotListable = "not_listable"
)

// listable are the kinds whose roots a personal list may hold.
var listable = []string{kindSpace, kindDiscussion, kindClaim, kindDocument}

// IsPersonalKind reports whether kind is one of the personal kinds, which
// go to POST /api/personal and never to POST /api/entries.
func IsPersonalKind(kind string) bool {
	return kind == KindPersonalRead || kind == KindPersonalState
}

// PersonalLists is a personal-state's body: the roots an author follows
// and has saved, each list in the author's order.
type PersonalLists struct {
	Following []string
	Saved     []string
}

// List returns the list named name ("following" or "saved"), for Add and
// Remove; nil for another name.
func (p *PersonalLists) List(name string) *[]string {
	switch name {
	case "following":
		return &p.Following
	case "saved":
		return &p.Saved
	}
	return nil
}

// body is the lists as the record's body object.
func (p PersonalLists) body() map[string]any {
	return map[string]any{"following": idList(p.Following), "saved": idList(p.Saved)}
}

func idList(ids []string) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// A PersonalRequest is a parsed POST /api/personal body: the envelope, its
// record's revision ID, and the read's nonce or the state's lists.
type PersonalRequest struct {
	Envelope *Envelope
	ID       string
	Nonce    string         // a personal-read's
	Lists    *PersonalLists // a personal-state's
}

// ParsePersonal reads a personal request as sent: ParseEnvelope's checks,
// then ValidatePersonal's. It verifies no signature and reads no clock.
func ParsePersonal(data []byte) (*PersonalRequest, error) {
	env, err := ParseEnvelope(data)
	if err != nil {
		return nil, err
	}
	id, err := env.Record.RevisionID()
	if err != nil {
		return nil, err
	}
	req := &PersonalRequest{Envelope: env, ID: id}
	req.Nonce, req.Lists, err = ValidatePersonal(env.Record)
	if err != nil {
		return nil, err
	}
	return req, nil
}

// ValidatePersonal checks the content of a personal record: its kind, a
// title of at most 200 characters, no links, the body the canonical JSON of
// exactly the kind's members, a read's previous empty and its nonce 64
// lowercase hex digits, a state's previous empty or a revision ID and each
// list at most MaxPersonalRoots revision IDs with no repeats. It returns
// the nonce or the lists, or a *ContentError with every issue found.
func ValidatePersonal(r *Record) (nonce string, lists *PersonalLists, err error) {
	var issues []Issue
	add := func(path, code, format string, args ...any) {
		issues = append(issues, Issue{Path: path, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	if !IsPersonalKind(r.Kind) {
		add("/kind", "enum", "%s is not %q or %q: POST /api/personal takes personal requests only, and contributions go to POST /api/entries",
			shown(r.Kind), KindPersonalRead, KindPersonalState)
		return "", nil, &ContentError{Issues: issues}
	}
	if n := canonical.UTF16Len(r.Title); n > 200 {
		add("/title", "maxLength", "must be at most 200 characters, not %d", n)
	}
	if len(r.Links) > 0 {
		add("/links", "maxItems", "a %s has no links, but %d were given", r.Kind, len(r.Links))
	}
	body, perr := canonical.Parse([]byte(r.Body))
	obj, isObject := body.(map[string]any)
	switch {
	case perr != nil:
		add("/body", IssueBodyJSON, "a %s's body must be the JSON text of its body object: %v", r.Kind, perr)
	case !isObject:
		add("/body", "type", "must be object, not %s", canonical.Describe(body))
	default:
		if c, err := canonical.Marshal(obj); err == nil && string(c) != r.Body {
			add("/body", IssueBodyCanonical, "a %s's body must be its body object's canonical JSON (RFC 8785): no whitespace, members sorted", r.Kind)
		}
	}
	members := []string{"nonce"}
	if r.Kind == KindPersonalState {
		members = []string{"following", "saved"}
	}
	if isObject {
		for _, name := range members {
			if _, ok := obj[name]; !ok {
				add("/body/"+name, "required", "%s is required", name)
			}
		}
		for name := range obj {
			if !slices.Contains(members, name) {
				add("/body/"+escape(name), "additionalProperties", "%q is not a member allowed here", name)
			}
		}
	}

	if r.Kind == KindPersonalRead {
		if r.Previous != "" {
			add("/previous", "const", "a personal-read's previous must be \"\"")
		}
		if v, ok := obj["nonce"]; ok {
			s, _ := v.(string)
			if !hex64.MatchString(s) {
				add("/body/nonce", "pattern", "the nonce must be a fresh random value of 64 lowercase hex digits, not %s", shown(v))
			}
			nonce = s
		}
	} else {
		if r.Previous != "" && !hex64.MatchString(r.Previous) {
			add("/previous", "pattern", "%s is not a state ID: 64 lowercase hex digits, or \"\" for the first state", shown(r.Previous))
		}
		lists = &PersonalLists{}
		for _, name := range members {
			v, ok := obj[name]
			if !ok {
				continue
			}
			*lists.List(name) = rootList(v, "/body/"+name, add)
		}
	}
	if issues = tidy(issues); issues != nil {
		return "", nil, &ContentError{Issues: issues}
	}
	return nonce, lists, nil
}

// rootList reads one list of a state's body, reporting what is wrong.
func rootList(v any, at string, add func(path, code, format string, args ...any)) []string {
	items, ok := v.([]any)
	if !ok {
		add(at, "type", "must be array, not %s", canonical.Describe(v))
		return nil
	}
	if len(items) > MaxPersonalRoots {
		add(at, "maxItems", "holds %d roots; at most %d are allowed", len(items), MaxPersonalRoots)
	}
	ids := make([]string, 0, len(items))
	seen := make(map[string]int, len(items))
	for i, item := range items {
		s, _ := item.(string)
		path := fmt.Sprintf("%s/%d", at, i)
		switch first, dup := seen[s]; {
		case !hex64.MatchString(s):
			add(path, "pattern", "%s is not a root ID: 64 lowercase hex digits", shown(item))
		case dup:
			add(path, "uniqueItems", "repeats item %d", first)
		default:
			seen[s] = i
		}
		ids = append(ids, s)
	}
	return ids
}

// CheckPersonalTime checks a personal request's authored_at against the
// node's clock: at most PersonalWindow behind it (CodeStaleRequest) and
// at most MaxClockSkew ahead (CodeAuthoredInFuture). Unlike a
// contribution, a personal request is an authorization and goes stale.
func CheckPersonalTime(r *Record, now time.Time) error {
	if err := CheckAuthoredAt(r, now); err != nil {
		return err
	}
	t, err := r.Time()
	if err != nil {
		return err
	}
	if t.Before(now.Add(-PersonalWindow)) {
		return &RuleError{Code: CodeStaleRequest, Path: "", Message: fmt.Sprintf(
			"authored_at %s is %s behind the node's clock; a personal request must be at most %s old: sign a new one",
			r.AuthoredAt, now.Sub(t).Round(time.Second), PersonalWindow)}
	}
	return nil
}

// CheckPersonalRoots checks that every root the lists name is the root of
// a stored space, discussion, claim or document, reading each with
// revision, which returns an error wrapping fs.ErrNotExist for a revision
// not stored. It returns a *RuleError (CodeNotListable) for the first
// that is not, or revision's other error wrapped.
func CheckPersonalRoots(lists PersonalLists, revision func(id string) (*Stored, error)) error {
	for _, name := range []string{"following", "saved"} {
		for i, id := range *lists.List(name) {
			path := fmt.Sprintf("/body/%s/%d", name, i)
			s, err := revision(id)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return &RuleError{Code: CodeNotListable, Path: path, Message: fmt.Sprintf("no revision %s is stored here", id)}
			case err != nil:
				return fmt.Errorf("library: personal lists: reading %s: %w", id, err)
			case s.Root != s.ID:
				return &RuleError{Code: CodeNotListable, Path: path, Message: fmt.Sprintf(
					"%s is a revision of %s; lists hold roots: give %s", id, s.Root, s.Root)}
			case !slices.Contains(listable, s.Record.Kind):
				return &RuleError{Code: CodeNotListable, Path: path, Message: fmt.Sprintf(
					"%s is %s; lists hold only space, discussion, claim and document roots", id, an(s.Record.Kind))}
			}
		}
	}
	return nil
}

// NewNonce returns a fresh random nonce for a personal read.
func NewNonce() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("library: nonce: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// NewPersonalRead makes the personal-read record of author (as NewRecord
// takes it) with nonce, authored at at.
func NewPersonalRead(author, nonce string, at time.Time) (*Record, error) {
	return newPersonal(KindPersonalRead, author, map[string]any{"nonce": nonce}, "", at)
}

// NewPersonalState makes the personal-state record of author setting the
// lists, replacing the state whose ID is previous ("" for the first).
func NewPersonalState(author string, lists PersonalLists, previous string, at time.Time) (*Record, error) {
	return newPersonal(KindPersonalState, author, lists.body(), previous, at)
}

func newPersonal(kind, author string, body map[string]any, previous string, at time.Time) (*Record, error) {
	r, err := NewRecord(Content{Kind: kind, Title: kind, Body: body, Links: []Link{}, Previous: previous}, author, at)
	if err != nil {
		return nil, err
	}
	if _, _, err := ValidatePersonal(r); err != nil {
		return nil, fmt.Errorf("library: %s: %w", kind, err)
	}
	return r, nil
}

// PersonalListsOf returns the lists a personal-state record sets.
func PersonalListsOf(r *Record) (PersonalLists, error) {
	if r.Kind != KindPersonalState {
		return PersonalLists{}, fmt.Errorf("library: a %s sets no personal lists: %w", r.Kind, ErrInvalid)
	}
	_, lists, err := ValidatePersonal(r)
	if err != nil {
		return PersonalLists{}, err
	}
	return *lists, nil
}
