package library

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"
)

// The kinds the rules single out.
const (
	kindThread             = "thread"
	kindReply              = "reply"
	kindVote               = "vote"
	kindResearchNode       = "research-node"
	kindResearchEvidence   = "research-evidence"
	kindResearchAssessment = "research-assessment"
	kindResearchMap        = "research-map"
	kindResearchProposal   = "research-proposal"
	kindSpace              = "space"
	kindDiscussion         = "discussion"
	kindDocument           = "document"
	kindClaim              = "claim"
	kindEvidence           = "evidence"
	kindAssessment         = "assessment"
	kindRelationship       = "relationship"
	kindProposal           = "proposal"
)

// carriers are the kinds that may carry each relation with a meaning. Any
// other relation (a citation, say) is free to every kind but the ones whose
// links are exact.
var carriers = map[string][]string{
	"contained_in":  {kindSpace, kindDiscussion, kindClaim, kindDocument, kindResearchMap, kindThread},
	"replies_to":    {kindReply},
	"answers":       {kindReply},
	"branches_from": {kindThread, kindDiscussion},
	"about":         {kindDiscussion},
	"includes":      {kindSpace},
	"votes_on":      {kindVote},
	"evidence_for":  {kindEvidence, kindResearchEvidence},
	"assesses":      {kindAssessment, kindResearchAssessment},
	"proposes_for":  {kindProposal, kindResearchProposal},
	"merges":        append([]string{kindResearchMap}, proposable...),
	"forks_from":    {kindResearchMap},
	"relates_from":  {kindRelationship},
	"relates_to":    {kindRelationship},
}

// singular are the relations a record carries at most once.
var singular = []string{"contained_in", "branches_from", "about", "forks_from", "merges", "relates_from", "relates_to"}

// exactRelation is, for the kinds whose links are exact, the one relation
// their one link has.
var exactRelation = map[string]string{
	kindVote:               "votes_on",
	kindEvidence:           "evidence_for",
	kindResearchEvidence:   "evidence_for",
	kindAssessment:         "assesses",
	kindResearchAssessment: "assesses",
	kindProposal:           "proposes_for",
	kindResearchProposal:   "proposes_for",
}

// immutable are the kinds that are never revised.
var immutable = []string{kindEvidence, kindResearchEvidence, kindAssessment, kindResearchAssessment, kindProposal, kindResearchProposal}

// proposable are the kinds a (non-research) proposal may be made for: the
// object model's revisable objects.
var proposable = []string{kindSpace, kindDiscussion, kindClaim, kindDocument, kindRelationship}

// fixed are the relations a revision keeps exactly as the revision it
// revises has them, and the rule changing each breaks.
var fixed = []struct {
	relations []string
	code      string
	what      string
}{
	{[]string{"contained_in"}, CodeContainmentChanged, "its container (contained_in)"},
	{[]string{"replies_to", "answers", "branches_from"}, CodeParentChanged, "its discussion parent (replies_to, answers, branches_from)"},
	{[]string{"votes_on"}, CodeVoteTargetChanged, "the vote's target (votes_on)"},
	{[]string{"forks_from"}, CodeForkOriginChanged, "its fork origin (forks_from)"},
}

// fields are the members of structured bodies the rules read; one struct
// serves every kind, since no two kinds give one name two types.
type fields struct {
	Type        string          `json:"type"`
	Node        string          `json:"node"`
	Claim       string          `json:"claim"`
	Verdict     string          `json:"verdict"`
	Evidence    []string        `json:"evidence"`
	From        string          `json:"from"`
	To          string          `json:"to"`
	Base        string          `json:"base"`
	Snapshot    json.RawMessage `json:"snapshot"`
	Title       string          `json:"title"`
	Body        json.RawMessage `json:"body"`
	Links       []Link          `json:"links"`
	Question    string          `json:"question"`
	Nodes       []string        `json:"nodes"`
	Edges       []mapEdge       `json:"edges"`
	Assessments []string        `json:"assessments"`
}

type mapEdge struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Relation string `json:"relation"`
}

// bodyFields decodes the fields of a structured body; a text body has none.
func bodyFields(r *Record) (fields, error) {
	var f fields
	if IsTextKind(r.Kind) {
		return f, nil
	}
	err := json.Unmarshal([]byte(r.Body), &f)
	return f, err
}

// subjectMember names the body member subject reads.
func subjectMember(kind string) string {
	switch kind {
	case kindEvidence, kindAssessment:
		return "claim"
	case kindProposal, kindResearchProposal:
		return "base"
	}
	return "node"
}

// subject is the exact revision evidence or an assessment is about, or a
// proposal is for: the body member its one link must point at.
func (f *fields) subject(kind string) string {
	switch kind {
	case kindEvidence, kindAssessment:
		return f.Claim
	case kindResearchEvidence, kindResearchAssessment:
		return f.Node
	case kindProposal, kindResearchProposal:
		return f.Base
	}
	return ""
}

// Check decides whether r may be stored now, given what g holds: first
// ValidateContent (a *ContentError), then every state rule of the contract
// (a *RuleError with the rule's code). It returns nil if r may be stored.
// Errors reading g are returned wrapped, as failures to decide.
//
// r must not be stored yet: a retry of a stored record is the caller's to
// recognize by its revision ID (ErrDuplicate) before calling Check, since a
// stored revision is no longer against the head it was made against. Check
// does not verify the signature or look at authored_at against a clock
// (VerifySignature, CheckAuthoredAt). Run it in the transaction that
// stores r, as the Graph contract requires, or its verdict may not hold.
//
// The rules, in the order they are checked:
//
//   - Links: no relation and target twice; relations with a meaning only
//     on the kinds they are for; contained_in, branches_from, about,
//     forks_from, merges, relates_from and relates_to at most once; votes,
//     evidence, assessments and proposals with exactly one link,
//     votes_on, evidence_for(node), assesses(node) or proposes_for(base);
//     a reply with exactly one replies_to or answers; a relationship
//     with relates_from(from) and relates_to(to); merges only on a
//     revision.
//   - Link targets: every one stored; contained_in a root, of a space for
//     spaces, discussions, claims and documents, of a map or thread for
//     maps and threads; branches_from a thread, discussion or reply;
//     about a claim or space; includes a claim or document; votes_on a
//     root that is not a vote; forks_from a research map; evidence_for and
//     assesses a research node (research kinds) or a claim.
//   - Revisions: not of evidence, assessments or proposals; by the
//     lineage root's author; of the lineage's kind; against its head
//     (stale_head; for a merge, stale_base when its proposal's base is no
//     longer the head, and merge_previous for a previous of another
//     lineage than the base's); authored
//     no earlier than the previous; keeping contained_in, the discussion
//     parent, the vote target and the fork origin.
//   - Votes: one vote lineage per author and target.
//   - Assessments: every piece of evidence stored, of the matching kind,
//     for the exact node assessed, none twice; evidence for any verdict
//     but open.
//   - Maps: the question among the nodes and a question node; nodes
//     research nodes, one revision per lineage; edges between nodes, not
//     to themselves, none twice; the nodes connected; depends_on acyclic;
//     at most one selected assessment per node, each of an exact node.
//   - Proposals: the base of the kind proposed for and its lineage's head;
//     the proposed revision (the snapshot as a revision of the base, or the
//     proposed title, body and links as a revision of the base) passing
//     every rule as the base's author would publish it, with issues and
//     rule paths pointing into the proposal's body.
//   - Merges: of a proposal of the lineage's proposal kind, with previous
//     its base, and its content: a map's body the snapshot; another kind's
//     title, body and links (merges aside) the proposed ones.
func Check(ctx context.Context, r *Record, g Graph) error {
	if issues := ValidateContent(r); issues != nil {
		return &ContentError{Issues: issues}
	}
	return CheckValidated(ctx, r, g)
}

// CheckValidated is Check for a record ValidateContent already found
// valid: it checks the state rules only. A node admitting a contribution
// validates its content before the store's write and checks the state
// inside it, where the store's one writer waits on it: validating there
// again was a sixth of that writer's work per contribution. Given content
// ValidateContent refuses, what it reports is undefined.
func CheckValidated(ctx context.Context, r *Record, g Graph) error {
	f, err := bodyFields(r)
	if err != nil {
		return fmt.Errorf("library: check: decoding a valid body: %w", err)
	}
	k := &checker{ctx: ctx, g: g, r: r, f: f, read: map[string]*Stored{}}
	for _, rules := range []func() error{k.links, k.targets, k.lineage, k.kindRules} {
		if err := rules(); err != nil {
			return err
		}
	}
	return nil
}

// CheckAuthoredAt checks a new contribution's authored_at against the
// node's clock: CheckNotAhead, and at most MaxAuthoredAge behind now. The
// past bound is wide because the contract has a client retry an envelope
// it could not confirm, unchanged: a retry of an envelope the node
// admitted is answered before this check, so only one that never arrived
// meets the bound, and its author signs it again. It is the node's to call
// at admission, not Check's, so that records admitted before stay
// admissible wherever they are checked again.
func CheckAuthoredAt(r *Record, now time.Time) error {
	if err := CheckNotAhead(r, now); err != nil {
		return err
	}
	t, _ := r.Time()
	if t.Before(now.Add(-MaxAuthoredAge)) {
		return &RuleError{Code: CodeAuthoredTooLongAgo, Path: "", Message: fmt.Sprintf(
			"authored_at %s is %s behind the node's clock; a new contribution may be at most %s old: sign it again with the current time",
			r.AuthoredAt, now.Sub(t).Round(time.Second), MaxAuthoredAge)}
	}
	return nil
}

// CheckNotAhead checks r's authored_at is at most MaxClockSkew ahead of
// now. It sets no lower bound: a record imported from another node's
// bundle was admitted there, long ago perhaps.
func CheckNotAhead(r *Record, now time.Time) error {
	t, err := r.Time()
	if err != nil {
		return err
	}
	if t.After(now.Add(MaxClockSkew)) {
		return &RuleError{Code: CodeAuthoredInFuture, Path: "", Message: fmt.Sprintf(
			"authored_at %s is %s ahead of the node's clock; at most %s of skew is allowed",
			r.AuthoredAt, t.Sub(now).Round(time.Second), MaxClockSkew)}
	}
	return nil
}

// checker holds one Check's record and what it has read.
type checker struct {
	ctx  context.Context
	g    Graph
	r    *Record
	f    fields
	read map[string]*Stored // revisions read, by ID
}

func (k *checker) fail(code, path, format string, args ...any) error {
	return &RuleError{Code: code, Path: path, Message: fmt.Sprintf(format, args...)}
}

// get reads a revision the record names at path; one not stored breaks
// the rule that everything named already exists.
func (k *checker) get(id, path, what string) (*Stored, error) {
	if s, ok := k.read[id]; ok {
		return s, nil
	}
	s, err := k.g.Revision(k.ctx, id)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, k.fail(CodeMissingTarget, path, "%s %s is not stored: everything a contribution names must already exist", what, id)
	}
	if err != nil {
		return nil, fmt.Errorf("library: check: reading revision %s: %w", id, err)
	}
	k.read[id] = s
	return s, nil
}

// fieldsOf decodes a stored revision's body. A stored body was valid when
// stored; one that no longer decodes is the store's fault.
func (k *checker) fieldsOf(s *Stored) (fields, error) {
	f, err := bodyFields(s.Record)
	if err != nil {
		return f, fmt.Errorf("library: check: stored revision %s: decoding its body: %w", s.ID, err)
	}
	return f, nil
}

// links checks the record's links by themselves.
func (k *checker) links() error {
	r := k.r
	count := map[string]int{}
	at := map[Link]int{}
	for i, l := range r.Links {
		path := fmt.Sprintf("/links/%d", i)
		if j, ok := at[l]; ok {
			return k.fail(CodeDuplicateLink, path, "repeats link %d (%s %s)", j, l.Relation, l.Target)
		}
		at[l] = i
		if kinds, ok := carriers[l.Relation]; ok && !slices.Contains(kinds, r.Kind) {
			return k.fail(CodeLinkNotAllowed, path+"/relation", "%s cannot carry a %s link; it is for %s", an(r.Kind), l.Relation, orList(kinds))
		}
		count[l.Relation]++
		if count[l.Relation] > 1 && slices.Contains(singular, l.Relation) {
			return k.fail(CodeLinkCount, path, "%s carries at most one %s link", an(r.Kind), l.Relation)
		}
	}
	if rel, ok := exactRelation[r.Kind]; ok {
		want := k.f.subject(r.Kind)
		if len(r.Links) != 1 || r.Links[0].Relation != rel || (want != "" && r.Links[0].Target != want) {
			if r.Kind == kindVote {
				return k.fail(CodeExactLinks, "/links", "a vote's links are exactly one votes_on link")
			}
			return k.fail(CodeExactLinks, "/links", "%s's links are exactly one %s link to its body's %s, %s", an(r.Kind), rel, subjectMember(r.Kind), want)
		}
	}
	switch r.Kind {
	case kindReply:
		if n := count["replies_to"] + count["answers"]; n != 1 {
			return k.fail(CodeReplyParent, "/links", "a reply needs exactly one replies_to or answers parent, not %d; a new subthread is a thread with branches_from", n)
		}
	case kindRelationship:
		if !slices.Contains(r.Links, Link{"relates_from", k.f.From}) || !slices.Contains(r.Links, Link{"relates_to", k.f.To}) {
			return k.fail(CodeRelationshipLinks, "/links", "a relationship links relates_from its body's from (%s) and relates_to its body's to (%s)", k.f.From, k.f.To)
		}
	}
	if count["merges"] > 0 && r.Previous == "" {
		return k.fail(CodeMergeNotRevision, "/previous", "a merge revises the proposal's base: previous must be the base")
	}
	return nil
}

// targets checks that every link target is stored and fits its relation.
func (k *checker) targets() error {
	r := k.r
	for i, l := range r.Links {
		path := fmt.Sprintf("/links/%d/target", i)
		s, err := k.get(l.Target, path, "link target")
		if err != nil {
			return err
		}
		kind := s.Record.Kind
		switch l.Relation {
		case "contained_in":
			want := []string{kindSpace}
			if r.Kind == kindThread || r.Kind == kindResearchMap {
				want = []string{kindResearchMap, kindThread}
			}
			if s.Root != s.ID {
				return k.fail(CodeContainmentTarget, path, "contained_in must name a root, the first revision of its lineage (%s), not a later revision", s.Root)
			}
			if !slices.Contains(want, kind) {
				return k.fail(CodeContainmentTarget, path, "%s is contained in a %s root, not in %s", an(r.Kind), strings.Join(want, " or "), an(kind))
			}
		case "branches_from":
			if !slices.Contains([]string{kindThread, kindDiscussion, kindReply}, kind) {
				return k.fail(CodeBranchTarget, path, "a branch starts from a thread, discussion or reply, not from %s", an(kind))
			}
		case "about":
			if kind != kindClaim && kind != kindSpace {
				return k.fail(CodeAboutTarget, path, "a discussion is about a claim or a space, not about %s", an(kind))
			}
		case "includes":
			if kind != kindClaim && kind != kindDocument {
				return k.fail(CodeIncludesTarget, path, "a space includes claims and documents, not %s", an(kind))
			}
		case "votes_on":
			if s.Root != s.ID {
				return k.fail(CodeVoteTarget, path, "a vote is on a root, the first revision of its lineage (%s), not a later revision", s.Root)
			}
			if kind == kindVote {
				return k.fail(CodeVoteTarget, path, "a vote cannot be on a vote")
			}
		case "forks_from":
			if kind != kindResearchMap {
				return k.fail(CodeForkTarget, path, "a fork starts from a research map, not from %s", an(kind))
			}
		case "evidence_for", "assesses":
			want := kindClaim
			if r.Kind == kindResearchEvidence || r.Kind == kindResearchAssessment {
				want = kindResearchNode
			}
			if kind != want {
				code := CodeEvidenceTarget
				if l.Relation == "assesses" {
					code = CodeAssessmentTarget
				}
				return k.fail(code, path, "%s is about %s, not about %s", an(r.Kind), an(want), an(kind))
			}
		}
	}
	return nil
}

// lineage checks a revision against the revision it revises.
func (k *checker) lineage() error {
	r := k.r
	if r.Previous == "" {
		return nil
	}
	if slices.Contains(immutable, r.Kind) {
		return k.fail(CodeImmutableKind, "/previous", "%s is never revised: publish a new one with an empty previous", an(r.Kind))
	}
	prev, err := k.get(r.Previous, "/previous", "previous")
	if err != nil {
		return err
	}
	// A merge revises the base of the proposal it merges: a previous of
	// another lineage is no revision of it at all.
	base, err := k.mergedBase()
	if err != nil {
		return err
	}
	if base != nil && base.Root != prev.Root {
		return k.fail(CodeMergePrevious, "/previous", "a merge's previous is the proposal's base, %s; %s is a revision of another lineage (%s)", base.ID, prev.ID, prev.Root)
	}
	root := prev
	if prev.Root != prev.ID {
		if root, err = k.get(prev.Root, "/previous", "the root of previous"); err != nil {
			return err
		}
	}
	if r.Author != root.Record.Author {
		return k.fail(CodeNotOriginalAuthor, "", "only the original author (%s) revises %s; others can propose", root.Record.OperatorID(), an(r.Kind))
	}
	if r.Kind != prev.Record.Kind {
		return k.fail(CodeKindChanged, "/kind", "a revision keeps its lineage's kind, %s", prev.Record.Kind)
	}
	head, err := k.g.Head(k.ctx, prev.Root)
	if err != nil {
		return fmt.Errorf("library: check: reading the head of %s: %w", prev.Root, err)
	}
	// A merge is stale when its proposal's base is no longer the head,
	// whichever revision of the lineage previous names: only a new
	// proposal against the head can be merged.
	if base != nil && head != base.ID {
		return k.fail(CodeStaleBase, "/previous", "the proposal's base %s is no longer the head (%s): a new proposal against the head is needed", base.ID, head)
	}
	if head != prev.ID {
		return k.fail(CodeStaleHead, "/previous", "previous %s is no longer the head of its lineage; the head is %s", r.Previous, head)
	}
	t, err := r.Time()
	if err != nil {
		return err
	}
	if pt, err := prev.Record.Time(); err == nil && t.Before(pt) {
		return k.fail(CodeAuthoredBeforePrevious, "", "authored_at %s is before the previous revision's %s", r.AuthoredAt, prev.Record.AuthoredAt)
	}
	for _, group := range fixed {
		mine, theirs := linksOf(r.Links, group.relations), linksOf(prev.Record.Links, group.relations)
		if !slices.Equal(mine, theirs) {
			return k.fail(group.code, "/links", "a revision keeps %s as the revision it revises has it: %s", group.what, describeLinks(theirs))
		}
	}
	return nil
}

// mergedBase is the base of the proposal the record merges, or nil when it
// merges none of the kind its lineage takes (merge says what is wrong with
// any other merges target).
func (k *checker) mergedBase() (*Stored, error) {
	i := slices.IndexFunc(k.r.Links, func(l Link) bool { return l.Relation == "merges" })
	if i < 0 {
		return nil, nil
	}
	path := fmt.Sprintf("/links/%d/target", i)
	p, err := k.get(k.r.Links[i].Target, path, "merged proposal")
	if err != nil || p.Record.Kind != proposalKind(k.r.Kind) {
		return nil, err
	}
	f, err := k.fieldsOf(p)
	if err != nil {
		return nil, err
	}
	// The base was stored when the proposal was admitted.
	return k.get(f.Base, path, "the merged proposal's base")
}

// linksOf are the links of the given relations, sorted.
func linksOf(links []Link, relations []string) []Link {
	var out []Link
	for _, l := range links {
		if slices.Contains(relations, l.Relation) {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, compareLinks)
	return out
}

func compareLinks(a, b Link) int {
	if c := strings.Compare(a.Relation, b.Relation); c != 0 {
		return c
	}
	return strings.Compare(a.Target, b.Target)
}

func describeLinks(links []Link) string {
	if len(links) == 0 {
		return "none"
	}
	parts := make([]string, len(links))
	for i, l := range links {
		parts[i] = l.Relation + " " + l.Target
	}
	return strings.Join(parts, ", ")
}

// kindRules checks what each kind asks beyond its links.
func (k *checker) kindRules() error {
	r := k.r
	switch r.Kind {
	case kindVote:
		if r.Previous == "" {
			return k.firstVote()
		}
	case kindAssessment, kindResearchAssessment:
		return k.assessment()
	case kindResearchMap:
		if err := k.researchMap(k.f, "/body"); err != nil {
			return err
		}
	case kindResearchProposal, kindProposal:
		return k.proposal()
	}
	if slices.ContainsFunc(r.Links, func(l Link) bool { return l.Relation == "merges" }) {
		return k.merge()
	}
	return nil
}

// firstVote checks that the author has no vote on the target yet.
func (k *checker) firstVote() error {
	target := k.r.Links[0].Target
	vote, err := k.g.VoteBy(k.ctx, k.r.Author, target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("library: check: reading %s's vote on %s: %w", k.r.OperatorID(), target, err)
	}
	return k.fail(CodeDuplicateVote, "/links/0/target", "%s already votes on %s (vote %s): change it by revising that vote", k.r.OperatorID(), target, vote)
}

// assessment checks an assessment's evidence.
func (k *checker) assessment() error {
	f := k.f
	node := f.subject(k.r.Kind)
	evidenceKind := kindEvidence
	if k.r.Kind == kindResearchAssessment {
		evidenceKind = kindResearchEvidence
	}
	if f.Verdict != "open" && len(f.Evidence) == 0 {
		return k.fail(CodeAssessmentNeedsEvidence, "/body/evidence", "%s verdict needs evidence; only an open one may have none", an(f.Verdict))
	}
	for i, id := range f.Evidence {
		path := fmt.Sprintf("/body/evidence/%d", i)
		if j := slices.Index(f.Evidence, id); j < i {
			return k.fail(CodeAssessmentEvidenceDuplicate, path, "repeats evidence %d", j)
		}
		s, err := k.get(id, path, "evidence")
		if err != nil {
			return err
		}
		if s.Record.Kind != evidenceKind {
			return k.fail(CodeAssessmentEvidence, path, "%s cites %s, not %s", an(k.r.Kind), evidenceKind, an(s.Record.Kind))
		}
		ef, err := k.fieldsOf(s)
		if err != nil {
			return err
		}
		if about := ef.subject(evidenceKind); about != node {
			return k.fail(CodeAssessmentEvidence, path, "the evidence is for %s, not for the exact revision assessed, %s", about, node)
		}
	}
	return nil
}

// an writes a kind (or a verdict) with its indefinite article.
func an(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// orList writes a list as prose: "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
