// Package library holds the research library's write side: the signed
// contribution record alexandria.contribution/3, its envelope and
// signature, the read contract itself (Contract, library/contract.json
// embedded as published), the write contract's JSON Schema (its
// write_contract.content_schema) and every state rule the contract lists,
// checked against a Graph the store implements.
//
// It also owns what the library keeps: Store (store.go), the contract on
// the node's store for contributions, the catalogue, the changes feed,
// objects, personal lists and scopes, whose conformance suite is
// library/librarytest.
//
// # The record
//
// A contribution is sent to POST /api/entries as an envelope
// {"record": {...}, "signature": "..."}. The record has exactly these
// members, all strings but links:
//
//	format       "alexandria.contribution/3"
//	author       the author's Agora operator ID without its "op:" prefix: 64 lowercase hex digits
//	authored_at  RFC 3339 in UTC ending "Z", as the author declares it
//	kind         one of the content schema's 19 kinds
//	title        the title
//	body         the body as a string: the text itself for the text kinds
//	             (thread, article, reply, collection, source, vote), and for
//	             every other kind the RFC 8785 canonical JSON of its body object
//	links        [{"relation": "...", "target": "<revision ID>"}, ...]
//	previous     "" for a new root, or the revision ID it revises
//
// The signature is the author's hybrid signature (package hybrid) over the
// record's canonical JSON (RFC 8785). A record's revision ID is the lowercase
// hex SHA-256 of that same canonical JSON; the signature is not part of it,
// so re-signing a record never makes a second revision. The format member
// keeps a signature from being taken for one over any other kind of object.
// A lineage's root is its first revision; previous chains its revisions.
//
// The body of a structured kind must be canonical, not merely JSON: then a
// content file makes exactly one record for a given author and time, so a
// client can compute the revision ID it will get before sending, and "the
// exact proposed content" of a merge is a comparison of strings.
//
// # Admitting a contribution
//
// The node admits a contribution in this order, each step cheaper to fail
// than the next:
//
//  1. ParseEnvelope: size limits first (65,536 bytes, body 48,000
//     characters), then strict I-JSON with exactly the members above.
//  2. Scope: the authorization must carry the scope the kind needs.
//  3. VerifySignature with the author's current public key.
//  4. CheckAuthoredAt against the node's clock.
//  5. Check, within the transaction that stores the record: the content
//     schema (ValidateContent) and then every state rule, against Graph.
//
// # Errors
//
// Errors wrap sentinels so the HTTP boundary chooses a status in one place:
// ErrTooLarge (413), ErrMalformed (400), ErrBadSignature (403, in an
// envelope or a bundle alike), ErrInvalid (422; a *ContentError with JSON
// Pointer issues, or a *RuleError with a stable code), ErrConflict (409; a
// *RuleError whose code is stale_head, stale_base or duplicate_vote: reload
// and try again). The codes are the Code constants; each one names one rule
// of the contract.
//
// The contract this package implements is alexandria.agent-read-contract/1
// of https://library.somewhere.sh, kept in contract.json (Contract); both of
// its example sequences are this package's tests.
package library

import (
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// Format is the record format this package reads and writes.
const Format = "alexandria.contribution/3"

// ContributionType is the type of the log entry that holds a contribution.
const ContributionType = "contribution"

// The write contract's transport limits.
const (
	// MaxEnvelopeBytes bounds the signed envelope as sent.
	MaxEnvelopeBytes = 65536

	// MaxBodyChars bounds the record's body string, counted in UTF-16 code
	// units as the contract's JavaScript clients count a string's length,
	// so a character beyond U+FFFF counts twice.
	MaxBodyChars = 48000

	// MaxClockSkew is how far ahead of the node's clock an authored_at may
	// be: the contract allows personal-list requests this much skew, and
	// a contribution gets the same.
	MaxClockSkew = 60 * time.Second

	// MaxAuthoredAge is how far behind the node's clock a new
	// contribution's authored_at may be, so a record cannot be backdated
	// at will; the node's admitted_at beside it is the independent time.
	MaxAuthoredAge = 24 * time.Hour
)

// notFound is ErrNotFound's type: it wraps fs.ErrNotExist, as the store's
// own not-found error does, so one mapping serves both.
type notFound struct{}

func (notFound) Error() string { return "no such revision" }
func (notFound) Unwrap() error { return fs.ErrNotExist }

// The sentinels errors of this package wrap.
var (
	// ErrTooLarge: the envelope is over MaxEnvelopeBytes or the body over
	// MaxBodyChars.
	ErrTooLarge = errors.New("contribution too large")

	// ErrMalformed: the envelope is not strict I-JSON, or its members,
	// their types, the format, the author or authored_at are not as the
	// record requires.
	ErrMalformed = errors.New("malformed contribution envelope")

	// ErrBadSignature: the signature is not the given key's over the
	// record's canonical JSON.
	ErrBadSignature = errors.New("signature does not verify")

	// ErrInvalid: the content breaks the content schema (*ContentError) or
	// a state rule that reloading cannot fix (*RuleError).
	ErrInvalid = errors.New("contribution breaks the write contract")

	// ErrConflict: the contribution was made against a state that has
	// moved on (*RuleError with code stale_head, stale_base or
	// duplicate_vote).
	ErrConflict = errors.New("contribution conflicts with the current state")

	// ErrNotFound: no revision has the ID. It wraps fs.ErrNotExist; a Graph
	// may return any error wrapping fs.ErrNotExist in its place.
	ErrNotFound error = notFound{}

	// ErrDuplicate: the revision is already stored. Retrying the exact
	// envelope is the contract's answer to an uncertain failure, so the
	// node answers it with where the revision stands, not as an error.
	ErrDuplicate = errors.New("revision already stored")
)

// A ContentError is content the content schema refuses, or a body that does
// not decode as its kind needs, with every issue found. It wraps ErrInvalid.
type ContentError struct {
	Issues []Issue
}

func (e *ContentError) Error() string {
	switch len(e.Issues) {
	case 0:
		return "invalid content"
	case 1:
		return "invalid content: " + e.Issues[0].String()
	}
	return fmt.Sprintf("invalid content: %s (and %d more issues)", e.Issues[0], len(e.Issues)-1)
}

// Unwrap returns ErrInvalid.
func (e *ContentError) Unwrap() error { return ErrInvalid }

// An Issue is one reason content was refused. Path is a JSON Pointer
// (RFC 6901) into the content object {kind, title, body, links, previous}
// with the body decoded, so "/body/nodes/1" is the second node of a map
// even though the record carries the body as a string; "" is the content as
// a whole. Code is the JSON Schema keyword that failed ("required",
// "pattern", ...) or one of the Issue* codes for what the schema cannot say.
type Issue struct {
	Path    string `json:"path"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (i Issue) String() string {
	if i.Path == "" {
		return i.Message
	}
	return i.Path + ": " + i.Message
}

// Issue codes beyond the JSON Schema keywords.
const (
	// IssueBodyJSON: a structured kind's body string is not strict I-JSON.
	IssueBodyJSON = "body_json"
	// IssueBodyCanonical: a structured kind's body string is JSON but not
	// its RFC 8785 canonical form.
	IssueBodyCanonical = "body_canonical"
	// IssueSourceURL: a source, archive or artifact URL is not HTTPS with
	// a host name, or carries a user name or password.
	IssueSourceURL = "source_url"
)

// A RuleError is a state rule the contribution breaks. Code is stable and
// machine-readable (one of the Code constants); Path is a JSON Pointer into
// the content as Issue.Path is, or "" for the record as a whole; Message
// says what is wrong in words an author can act on. It wraps ErrConflict
// for stale_head, stale_base and duplicate_vote, ErrInvalid otherwise.
type RuleError struct {
	Code    string `json:"code"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (e *RuleError) Error() string {
	if e.Path == "" {
		return e.Code + ": " + e.Message
	}
	return e.Code + ": " + e.Path + ": " + e.Message
}

// Unwrap returns ErrConflict or ErrInvalid.
func (e *RuleError) Unwrap() error {
	switch e.Code {
	case CodeStaleHead, CodeStaleBase, CodeDuplicateVote:
		return ErrConflict
	}
	return ErrInvalid
}

// The state rules' codes. Each names one rule of the contract's
// write_contract.state_rules or object_model; the comment says when it is
// reported.
const (
	// Links, of any kind.

	// CodeMissingTarget: a link target, previous, or a revision a body
	// names (an assessment's evidence, a map's nodes, question and
	// assessments) is not stored. All link targets must already exist.
	CodeMissingTarget = "missing_target"
	// CodeDuplicateLink: the same relation and target twice.
	CodeDuplicateLink = "duplicate_link"
	// CodeLinkNotAllowed: a relation with a meaning this kind cannot carry,
	// such as contained_in on a reply or votes_on on a thread.
	CodeLinkNotAllowed = "link_not_allowed"
	// CodeLinkCount: a relation a record carries at most once (contained_in,
	// branches_from, about, forks_from, merges, relates_from, relates_to)
	// given twice: one container, one fork origin, one merged proposal.
	CodeLinkCount = "link_count"
	// CodeExactLinks: a vote, evidence, assessment or proposal whose links
	// are not exactly votes_on(target), evidence_for(node), assesses(node)
	// or proposes_for(base), the node and base being the body's.
	CodeExactLinks = "exact_links"

	// Containment.

	// CodeContainmentTarget: contained_in names no root, or a root of a
	// kind this kind cannot be contained in: spaces, discussions, claims
	// and documents are contained in space roots, maps and threads in map
	// or thread roots.
	CodeContainmentTarget = "containment_target"
	// CodeContainmentChanged: a revision's contained_in differs from its
	// previous revision's; parentage cannot change, which with
	// existing-root targets keeps containment free of cycles.
	CodeContainmentChanged = "containment_changed"

	// Discussion.

	// CodeReplyParent: a reply without exactly one replies_to or answers
	// parent.
	CodeReplyParent = "reply_parent"
	// CodeBranchTarget: branches_from names neither a thread, a discussion
	// nor a reply.
	CodeBranchTarget = "branch_target"
	// CodeParentChanged: a revision's replies_to, answers or branches_from
	// differs from its previous revision's.
	CodeParentChanged = "parent_changed"
	// CodeAboutTarget: a discussion is about something that is neither a
	// claim nor a space.
	CodeAboutTarget = "about_target"
	// CodeIncludesTarget: a space includes something that is neither a
	// claim nor a document.
	CodeIncludesTarget = "includes_target"
	// CodeRelationshipLinks: a relationship's links are not one
	// relates_from its body's from and one relates_to its body's to.
	CodeRelationshipLinks = "relationship_links"

	// Revisions.

	// CodeImmutableKind: evidence, an assessment or a proposal with a
	// previous; publish a new contribution instead.
	CodeImmutableKind = "immutable_kind"
	// CodeNotOriginalAuthor: a revision by someone other than the author of
	// its lineage's root. Only a map's author merges into it.
	CodeNotOriginalAuthor = "not_original_author"
	// CodeKindChanged: a revision of another kind than its lineage.
	CodeKindChanged = "kind_changed"
	// CodeStaleHead: previous is not the current head of its lineage
	// (a conflict: reload the head and revise that).
	CodeStaleHead = "stale_head"
	// CodeAuthoredBeforePrevious: a revision authored before the revision
	// it revises.
	CodeAuthoredBeforePrevious = "authored_before_previous"
	// CodeAuthoredInFuture: authored_at is more than MaxClockSkew ahead of
	// the node's clock (CheckAuthoredAt).
	CodeAuthoredInFuture = "authored_in_future"
	// CodeAuthoredTooLongAgo: a new contribution's authored_at is more than
	// MaxAuthoredAge behind the node's clock (CheckAuthoredAt).
	CodeAuthoredTooLongAgo = "authored_too_long_ago"

	// Votes.

	// CodeVoteTarget: votes_on names a revision that is not a root, or a
	// vote.
	CodeVoteTarget = "vote_target"
	// CodeDuplicateVote: a new vote by an author who already votes on the
	// target; revise that vote instead (a conflict).
	CodeDuplicateVote = "duplicate_vote"
	// CodeVoteTargetChanged: a vote revision on another target.
	CodeVoteTargetChanged = "vote_target_changed"

	// Evidence and assessments.

	// CodeEvidenceTarget: evidence for something that is not a research
	// node (research-evidence) or a claim (evidence).
	CodeEvidenceTarget = "evidence_target"
	// CodeAssessmentTarget: an assessment of something that is not a
	// research node (research-assessment) or a claim (assessment).
	CodeAssessmentTarget = "assessment_target"
	// CodeAssessmentEvidence: an assessment cites something that is not
	// evidence of its kind for the exact node it assesses.
	CodeAssessmentEvidence = "assessment_evidence"
	// CodeAssessmentNeedsEvidence: a verdict other than open with no
	// evidence.
	CodeAssessmentNeedsEvidence = "assessment_needs_evidence"
	// CodeAssessmentEvidenceDuplicate: one piece of evidence cited twice.
	CodeAssessmentEvidenceDuplicate = "assessment_evidence_duplicate"

	// Research maps.

	// CodeMapQuestion: the question is not among the nodes, or is not a
	// research node of type question.
	CodeMapQuestion = "map_question"
	// CodeMapNode: a node that is not a research node.
	CodeMapNode = "map_node"
	// CodeMapLineage: two revisions of one node lineage.
	CodeMapLineage = "map_lineage"
	// CodeMapEdge: an edge endpoint that is not among the nodes.
	CodeMapEdge = "map_edge"
	// CodeMapSelfEdge: an edge from a node to itself.
	CodeMapSelfEdge = "map_self_edge"
	// CodeMapDuplicateEdge: the same from, to and relation twice.
	CodeMapDuplicateEdge = "map_duplicate_edge"
	// CodeMapDisconnected: the nodes are not connected by the edges (taken
	// as undirected).
	CodeMapDisconnected = "map_disconnected"
	// CodeMapDependencyCycle: the depends_on edges make a cycle.
	CodeMapDependencyCycle = "map_dependency_cycle"
	// CodeMapAssessment: a selected assessment that is not a research
	// assessment of an exact node of the map.
	CodeMapAssessment = "map_assessment"
	// CodeMapAssessmentDuplicate: two selected assessments of one node.
	CodeMapAssessmentDuplicate = "map_assessment_duplicate"

	// Proposals, merges and forks.

	// CodeProposalBase: a research proposal whose base is not a research
	// map, or a proposal whose base is of a kind that takes no proposals
	// (space, discussion, claim, document and relationship do).
	CodeProposalBase = "proposal_base"
	// CodeStaleBase: a proposal against a base that is not its lineage's
	// head, or a merge of a proposal whose base is no longer the head,
	// whichever revision of the base's lineage the merge's previous names:
	// a new proposal is needed (a conflict).
	CodeStaleBase = "stale_base"
	// CodeMergeNotRevision: merges on a new root; a merge revises the base.
	CodeMergeNotRevision = "merge_not_revision"
	// CodeMergeTarget: merges names something that is not a proposal of
	// the kind this lineage takes (research-proposal for maps, proposal
	// for the rest).
	CodeMergeTarget = "merge_target"
	// CodeMergePrevious: a merge whose previous is not a revision of the
	// proposal's base's lineage at all. (A previous of that lineage other
	// than the base is stale: stale_base while the base is not the head,
	// else stale_head.)
	CodeMergePrevious = "merge_previous"
	// CodeMergeContent: a merge whose content is not the proposal's: a
	// map's body must be the snapshot; another kind's title, body and
	// links (merges aside) the proposed ones.
	CodeMergeContent = "merge_content"
	// CodeForkTarget: forks_from names something that is not a research
	// map.
	CodeForkTarget = "fork_target"
	// CodeForkOriginChanged: a revision's forks_from differs from its
	// previous revision's (a fork keeps its origin; a map cannot become a
	// fork later).
	CodeForkOriginChanged = "fork_origin_changed"
)
