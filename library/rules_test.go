package library_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/library"
)

// A ruleCase breaks one state rule in a world holding both example
// sequences, after any setup steps, and expects that rule's code at path.
type ruleCase struct {
	name  string
	setup [][3]string // {step name, actor, content} published first, each named
	actor string
	text  string // the content that breaks the rule
	at    time.Duration
	code  string
	path  string
}

const research = `"scope":"s","assumptions":[],"sources":[],"programs":[]`

var ruleCases = []ruleCase{
	// Links.
	{name: "reply to nothing stored", actor: "peer", code: library.CodeMissingTarget, path: "/links/0/target",
		text: `{"kind":"reply","title":"R","body":"b","links":[{"relation":"replies_to","target":"` + zeros + `"}],"previous":""}`},
	{name: "assessment cites evidence not stored", actor: "peer", code: library.CodeMissingTarget, path: "/body/evidence/0",
		text: `{"kind":"research-assessment","title":"A","body":{"node":"$claim","verdict":"disputed","rationale":"r","scope":"s","assumptions":[],"evidence":["` + zeros + `"]},"links":[{"relation":"assesses","target":"$claim"}],"previous":""}`},
	{name: "revision of nothing stored", actor: "owner", code: library.CodeMissingTarget, path: "/previous",
		text: `{"kind":"thread","title":"T","body":"b","links":[],"previous":"` + zeros + `"}`},
	{name: "map node not stored", actor: "owner", code: library.CodeMissingTarget, path: "/body/nodes/1",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question","` + zeros + `"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":""}`},
	{name: "same link twice", actor: "owner", code: library.CodeDuplicateLink, path: "/links/1",
		text: `{"kind":"thread","title":"T","body":"b","links":[{"relation":"cites","target":"$claim"},{"relation":"cites","target":"$claim"}],"previous":""}`},
	{name: "reply contained in a space", actor: "owner", code: library.CodeLinkNotAllowed, path: "/links/1/relation",
		text: `{"kind":"reply","title":"R","body":"b","links":[{"relation":"replies_to","target":"$thread"},{"relation":"contained_in","target":"$o.space"}],"previous":""}`},
	{name: "thread votes", actor: "owner", code: library.CodeLinkNotAllowed, path: "/links/0/relation",
		text: `{"kind":"thread","title":"T","body":"b","links":[{"relation":"votes_on","target":"$reply"}],"previous":""}`},
	{name: "two containers", actor: "owner", code: library.CodeLinkCount, path: "/links/1",
		text: `{"kind":"space","title":"S","body":{"summary":"s"},"links":[{"relation":"contained_in","target":"$o.space"},{"relation":"contained_in","target":"$o.subspace"}],"previous":""}`},
	{name: "two fork origins", actor: "peer", code: library.CodeLinkCount, path: "/links/1",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"forks_from","target":"$merge"},{"relation":"forks_from","target":"$fork"}],"previous":""}`},
	{name: "vote with a citation", actor: "owner", code: library.CodeExactLinks, path: "/links",
		text: `{"kind":"vote","title":"V","body":"1","links":[{"relation":"votes_on","target":"$thread"},{"relation":"cites","target":"$claim"}],"previous":""}`},
	{name: "evidence linked to another node than its body's", actor: "peer", code: library.CodeExactLinks, path: "/links",
		text: `{"kind":"research-evidence","title":"E","body":{"node":"$claim","method":"example","content":"c","sources":[],"programs":[]},"links":[{"relation":"evidence_for","target":"$question"}],"previous":""}`},
	{name: "proposal without proposes_for", actor: "peer", code: library.CodeExactLinks, path: "/links",
		text: `{"kind":"proposal","title":"P","body":{"base":"$o.merge","title":"t","body":{"statement":"s","scope":"s","assumptions":[]},"links":[],"rationale":"r"},"links":[],"previous":""}`},
	{name: "reply without parent", actor: "peer", code: library.CodeReplyParent, path: "/links",
		text: `{"kind":"reply","title":"R","body":"b","links":[],"previous":""}`},
	{name: "reply with two parents", actor: "peer", code: library.CodeReplyParent, path: "/links",
		text: `{"kind":"reply","title":"R","body":"b","links":[{"relation":"replies_to","target":"$thread"},{"relation":"answers","target":"$question"}],"previous":""}`},
	{name: "relationship links disagree with its body", actor: "owner", code: library.CodeRelationshipLinks, path: "/links",
		text: `{"kind":"relationship","title":"R","body":{"from":"$o.claim","to":"$o.document","relation":"supports","rationale":"r"},"links":[{"relation":"relates_from","target":"$o.claim"},{"relation":"relates_to","target":"$o.space"}],"previous":""}`},
	{name: "merge as a new root", actor: "owner", code: library.CodeMergeNotRevision, path: "/previous",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$proposal"}],"previous":""}`},

	// Containment.
	{name: "claim contained in a claim", actor: "owner", code: library.CodeContainmentTarget, path: "/links/0/target",
		text: `{"kind":"claim","title":"C","body":{"statement":"s","scope":"s","assumptions":[]},"links":[{"relation":"contained_in","target":"$o.claim"}],"previous":""}`},
	{name: "thread contained in a space", actor: "owner", code: library.CodeContainmentTarget, path: "/links/0/target",
		text: `{"kind":"thread","title":"T","body":"b","links":[{"relation":"contained_in","target":"$o.space"}],"previous":""}`},
	{name: "map contained in a revision that is not a root", actor: "owner", code: library.CodeContainmentTarget, path: "/links/0/target",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"contained_in","target":"$merge"}],"previous":""}`},
	{name: "revision moves a claim", actor: "owner", code: library.CodeContainmentChanged, path: "/links",
		text: `{"kind":"claim","title":"C","body":{"statement":"s","scope":"s","assumptions":[]},"links":[{"relation":"contained_in","target":"$o.space"}],"previous":"$o.merge"}`},
	{name: "revision drops a thread's container", actor: "peer", code: library.CodeContainmentChanged, path: "/links",
		text: `{"kind":"thread","title":"T","body":"b","links":[],"previous":"$child_thread"}`},

	// Discussion.
	{name: "branch from a claim", actor: "peer", code: library.CodeBranchTarget, path: "/links/0/target",
		text: `{"kind":"thread","title":"T","body":"b","links":[{"relation":"branches_from","target":"$o.claim"}],"previous":""}`},
	{name: "revision moves a reply", actor: "peer", code: library.CodeParentChanged, path: "/links",
		text: `{"kind":"reply","title":"R","body":"b","links":[{"relation":"replies_to","target":"$o.discussion"}],"previous":"$reply"}`},
	{name: "revision changes a branch's origin", actor: "peer", code: library.CodeParentChanged, path: "/links",
		text: `{"kind":"discussion","title":"B","body":{"text":"t"},"links":[{"relation":"branches_from","target":"$o.discussion"}],"previous":"$o.branch"}`},
	{name: "discussion about a document", actor: "peer", code: library.CodeAboutTarget, path: "/links/0/target",
		text: `{"kind":"discussion","title":"D","body":{"text":"t"},"links":[{"relation":"about","target":"$o.document"}],"previous":""}`},
	{name: "space includes a discussion", actor: "owner", code: library.CodeIncludesTarget, path: "/links/0/target",
		text: `{"kind":"space","title":"S","body":{"summary":"s"},"links":[{"relation":"includes","target":"$o.discussion"}],"previous":""}`},

	// Revisions.
	{name: "evidence revised", actor: "peer", code: library.CodeImmutableKind, path: "/previous",
		text: `{"kind":"research-evidence","title":"E","body":{"node":"$claim","method":"example","content":"c","sources":[],"programs":[]},"links":[{"relation":"evidence_for","target":"$claim"}],"previous":"$evidence"}`},
	{name: "assessment revised", actor: "owner", code: library.CodeImmutableKind, path: "/previous",
		text: `{"kind":"assessment","title":"A","body":{"claim":"$o.claim","verdict":"open","rationale":"r","evidence":[]},"links":[{"relation":"assesses","target":"$o.claim"}],"previous":"$o.assessment"}`},
	{name: "proposal revised", actor: "peer", code: library.CodeImmutableKind, path: "/previous",
		text: `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":"$proposal"}`},
	{name: "peer revises the owner's thread", actor: "peer", code: library.CodeNotOriginalAuthor, path: "",
		text: `{"kind":"thread","title":"T","body":"b","links":[],"previous":"$thread"}`},
	{name: "peer merges into the owner's map", actor: "peer", code: library.CodeNotOriginalAuthor, path: "",
		setup: [][3]string{{"p2", "peer", `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`}},
		text:  `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$p2"}],"previous":"$merge"}`},
	{name: "thread revised as an article", actor: "owner", code: library.CodeKindChanged, path: "/kind",
		text: `{"kind":"article","title":"T","body":"b","links":[],"previous":"$thread"}`},
	{name: "revision of a map that moved on", actor: "owner", code: library.CodeStaleHead, path: "/previous",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":"$map"}`},
	{name: "revision authored before its previous", actor: "owner", at: -time.Hour, code: library.CodeAuthoredBeforePrevious, path: "",
		text: `{"kind":"thread","title":"T","body":"b","links":[],"previous":"$thread"}`},

	// Votes.
	{name: "vote on a vote", actor: "owner", code: library.CodeVoteTarget, path: "/links/0/target",
		text: `{"kind":"vote","title":"V","body":"1","links":[{"relation":"votes_on","target":"$vote"}],"previous":""}`},
	{name: "vote on a revision that is not a root", actor: "owner", code: library.CodeVoteTarget, path: "/links/0/target",
		text: `{"kind":"vote","title":"V","body":"1","links":[{"relation":"votes_on","target":"$merge"}],"previous":""}`},
	{name: "second vote on one target", actor: "peer", code: library.CodeDuplicateVote, path: "/links/0/target",
		text: `{"kind":"vote","title":"V","body":"-1","links":[{"relation":"votes_on","target":"$thread"}],"previous":""}`},
	{name: "vote revised onto another target", actor: "peer", code: library.CodeVoteTargetChanged, path: "/links",
		text: `{"kind":"vote","title":"V","body":"0","links":[{"relation":"votes_on","target":"$map"}],"previous":"$vote"}`},

	// Evidence and assessments.
	{name: "research evidence for a map", actor: "peer", code: library.CodeEvidenceTarget, path: "/links/0/target",
		text: `{"kind":"research-evidence","title":"E","body":{"node":"$map","method":"example","content":"c","sources":[],"programs":[]},"links":[{"relation":"evidence_for","target":"$map"}],"previous":""}`},
	{name: "evidence for a document", actor: "peer", code: library.CodeEvidenceTarget, path: "/links/0/target",
		text: `{"kind":"evidence","title":"E","body":{"claim":"$o.document","method":"example","content":"c","sources":[]},"links":[{"relation":"evidence_for","target":"$o.document"}],"previous":""}`},
	{name: "assessment of a map", actor: "peer", code: library.CodeAssessmentTarget, path: "/links/0/target",
		text: `{"kind":"research-assessment","title":"A","body":{"node":"$map","verdict":"open","rationale":"r","scope":"s","assumptions":[],"evidence":[]},"links":[{"relation":"assesses","target":"$map"}],"previous":""}`},
	{name: "assessment cites evidence for another node", actor: "peer", code: library.CodeAssessmentEvidence, path: "/body/evidence/0",
		setup: [][3]string{{"qevidence", "peer", `{"kind":"research-evidence","title":"E","body":{"node":"$question","method":"example","content":"c","sources":[],"programs":[]},"links":[{"relation":"evidence_for","target":"$question"}],"previous":""}`}},
		text:  `{"kind":"research-assessment","title":"A","body":{"node":"$claim","verdict":"supported","rationale":"r","scope":"s","assumptions":[],"evidence":["$qevidence"]},"links":[{"relation":"assesses","target":"$claim"}],"previous":""}`},
	{name: "assessment cites evidence for an earlier revision of the node", actor: "owner", code: library.CodeAssessmentEvidence, path: "/body/evidence/0",
		setup: [][3]string{{"claim2", "owner", `{"kind":"research-node","title":"C2","body":{"type":"claim","statement":"Pinned code, data and environment suffice.",` + research + `},"links":[],"previous":"$claim"}`}},
		text:  `{"kind":"research-assessment","title":"A","body":{"node":"$claim2","verdict":"refuted","rationale":"r","scope":"s","assumptions":[],"evidence":["$evidence"]},"links":[{"relation":"assesses","target":"$claim2"}],"previous":""}`},
	{name: "research assessment cites object-model evidence", actor: "owner", code: library.CodeAssessmentEvidence, path: "/body/evidence/0",
		text: `{"kind":"research-assessment","title":"A","body":{"node":"$claim","verdict":"supported","rationale":"r","scope":"s","assumptions":[],"evidence":["$o.evidence"]},"links":[{"relation":"assesses","target":"$claim"}],"previous":""}`},
	{name: "supported without evidence", actor: "owner", code: library.CodeAssessmentNeedsEvidence, path: "/body/evidence",
		text: `{"kind":"research-assessment","title":"A","body":{"node":"$claim","verdict":"supported","rationale":"r","scope":"s","assumptions":[],"evidence":[]},"links":[{"relation":"assesses","target":"$claim"}],"previous":""}`},
	{name: "refuted without evidence", actor: "owner", code: library.CodeAssessmentNeedsEvidence, path: "/body/evidence",
		text: `{"kind":"assessment","title":"A","body":{"claim":"$o.claim","verdict":"refuted","rationale":"r","evidence":[]},"links":[{"relation":"assesses","target":"$o.claim"}],"previous":""}`},
	{name: "evidence cited twice", actor: "owner", code: library.CodeAssessmentEvidenceDuplicate, path: "/body/evidence/1",
		text: `{"kind":"research-assessment","title":"A","body":{"node":"$claim","verdict":"disputed","rationale":"r","scope":"s","assumptions":[],"evidence":["$evidence","$evidence"]},"links":[{"relation":"assesses","target":"$claim"}],"previous":""}`},

	// Maps.
	{name: "map without its question node", actor: "owner", code: library.CodeMapQuestion, path: "/body/question",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$claim"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":""}`},
	{name: "map whose question is a claim", actor: "owner", code: library.CodeMapQuestion, path: "/body/question",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$claim","nodes":["$claim"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":""}`},
	{name: "map with a thread as a node", actor: "owner", code: library.CodeMapNode, path: "/body/nodes/1",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question","$thread"],"edges":[{"from":"$question","to":"$thread","relation":"related_to"}],"assessments":[],"message":"m"},"links":[],"previous":""}`},
	{name: "map pins two revisions of one node", actor: "owner", code: library.CodeMapLineage, path: "/body/nodes/2",
		setup: [][3]string{{"claim2", "owner", `{"kind":"research-node","title":"C2","body":{"type":"claim","statement":"Pinned code, data and environment suffice.",` + research + `},"links":[],"previous":"$claim"}`}},
		text:  `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question","$claim","$claim2"],"edges":[{"from":"$question","to":"$claim","relation":"related_to"},{"from":"$question","to":"$claim2","relation":"related_to"}],"assessments":[],"message":"m"},"links":[],"previous":""}`},
	{name: "edge to a node outside the map", actor: "owner", code: library.CodeMapEdge, path: "/body/edges/0/to",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[{"from":"$question","to":"$claim","relation":"related_to"}],"assessments":[],"message":"m"},"links":[],"previous":""}`},
	{name: "edge from a node to itself", actor: "owner", code: library.CodeMapSelfEdge, path: "/body/edges/1",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question","$claim"],"edges":[{"from":"$question","to":"$claim","relation":"related_to"},{"from":"$claim","to":"$claim","relation":"supports"}],"assessments":[],"message":"m"},"links":[],"previous":""}`},
	{name: "edge twice", actor: "owner", code: library.CodeMapDuplicateEdge, path: "/body/edges/1",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question","$claim"],"edges":[{"from":"$question","to":"$claim","relation":"related_to"},{"from":"$question","to":"$claim","relation":"related_to"}],"assessments":[],"message":"m"},"links":[],"previous":""}`},
	{name: "map of unconnected nodes", actor: "owner", code: library.CodeMapDisconnected, path: "/body/nodes/1",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question","$claim"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":""}`},
	{name: "depends_on cycle", actor: "owner", code: library.CodeMapDependencyCycle, path: "/body/edges",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question","$claim"],"edges":[{"from":"$question","to":"$claim","relation":"depends_on"},{"from":"$claim","to":"$question","relation":"depends_on"}],"assessments":[],"message":"m"},"links":[],"previous":""}`},
	{name: "assessment of a node outside the map", actor: "owner", code: library.CodeMapAssessment, path: "/body/assessments/0",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":["$assessment"],"message":"m"},"links":[],"previous":""}`},
	{name: "evidence selected as an assessment", actor: "owner", code: library.CodeMapAssessment, path: "/body/assessments/0",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question","$claim"],"edges":[{"from":"$question","to":"$claim","relation":"related_to"}],"assessments":["$evidence"],"message":"m"},"links":[],"previous":""}`},
	{name: "two assessments of one node", actor: "owner", code: library.CodeMapAssessmentDuplicate, path: "/body/assessments/1",
		setup: [][3]string{{"assessment2", "owner", `{"kind":"research-assessment","title":"A","body":{"node":"$claim","verdict":"open","rationale":"r","scope":"s","assumptions":[],"evidence":[]},"links":[{"relation":"assesses","target":"$claim"}],"previous":""}`}},
		text:  `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question","$claim"],"edges":[{"from":"$question","to":"$claim","relation":"related_to"}],"assessments":["$assessment","$assessment2"],"message":"m"},"links":[],"previous":""}`},

	// Proposals, merges and forks.
	{name: "research proposal for a node", actor: "peer", code: library.CodeProposalBase, path: "/body/base",
		text: `{"kind":"research-proposal","title":"P","body":{"base":"$question","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$question"}],"previous":""}`},
	{name: "proposal for evidence", actor: "owner", code: library.CodeProposalBase, path: "/body/base",
		text: `{"kind":"proposal","title":"P","body":{"base":"$o.evidence","title":"t","body":{"text":"t"},"links":[],"rationale":"r"},"links":[{"relation":"proposes_for","target":"$o.evidence"}],"previous":""}`},
	{name: "proposal against a replaced base", actor: "peer", code: library.CodeStaleBase, path: "/body/base",
		text: `{"kind":"research-proposal","title":"P","body":{"base":"$map","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$map"}],"previous":""}`},
	{name: "merge of a proposal whose base moved on", actor: "owner", code: library.CodeStaleBase, path: "/previous",
		setup: [][3]string{
			{"p2", "peer", `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`},
			{"m3", "owner", `{"kind":"research-map","title":"Edited","body":{"summary":"e","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":"$merge"}`}},
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$p2"}],"previous":"$merge"}`},
	{name: "merge of evidence", actor: "owner", code: library.CodeMergeTarget, path: "/links/0/target",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$evidence"}],"previous":"$merge"}`},
	{name: "map merges an object proposal", actor: "owner", code: library.CodeMergeTarget, path: "/links/0/target",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$o.proposal"}],"previous":"$merge"}`},
	// A merge is stale when the base of the proposal it merges is no longer
	// its lineage's head: stale_base, whichever revision of that lineage
	// previous names. Only a previous of another lineage altogether is
	// merge_previous.
	{name: "merge onto the head past a stale base", actor: "owner", code: library.CodeStaleBase, path: "/previous",
		setup: [][3]string{
			{"p2", "peer", `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`},
			{"m3", "owner", `{"kind":"research-map","title":"Edited","body":{"summary":"e","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":"$merge"}`}},
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$p2"}],"previous":"$m3"}`},
	{name: "merge onto an older revision past a stale base", actor: "owner", code: library.CodeStaleBase, path: "/previous",
		setup: [][3]string{
			{"p2", "peer", `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`},
			{"m3", "owner", `{"kind":"research-map","title":"Edited","body":{"summary":"e","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":"$merge"}`}},
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$p2"}],"previous":"$map"}`},
	{name: "merge onto an older revision while the base is the head", actor: "owner", code: library.CodeStaleHead, path: "/previous",
		setup: [][3]string{{"p2", "peer", `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`}},
		text:  `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$p2"}],"previous":"$map"}`},
	{name: "merge onto another map", actor: "owner", code: library.CodeMergePrevious, path: "/previous",
		setup: [][3]string{
			{"p2", "peer", `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`},
			{"other", "owner", `{"kind":"research-map","title":"Another map","body":{"summary":"o","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":""}`}},
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$p2"}],"previous":"$other"}`},
	{name: "merge onto an older revision of another map", actor: "owner", code: library.CodeMergePrevious, path: "/previous",
		setup: [][3]string{
			{"p2", "peer", `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`},
			{"other", "owner", `{"kind":"research-map","title":"Another map","body":{"summary":"o","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":""}`},
			{"other2", "owner", `{"kind":"research-map","title":"Another map, edited","body":{"summary":"o2","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":"$other"}`}},
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$p2"}],"previous":"$other"}`},
	{name: "merge onto another map past a stale base", actor: "owner", code: library.CodeMergePrevious, path: "/previous",
		setup: [][3]string{
			{"p2", "peer", `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`},
			{"m3", "owner", `{"kind":"research-map","title":"Edited","body":{"summary":"e","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":"$merge"}`},
			{"other", "owner", `{"kind":"research-map","title":"Another map","body":{"summary":"o","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":""}`}},
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$p2"}],"previous":"$other"}`},
	{name: "merge that is not the snapshot", actor: "owner", code: library.CodeMergeContent, path: "/body",
		setup: [][3]string{{"p2", "peer", `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`}},
		text:  `{"kind":"research-map","title":"M","body":{"summary":"other","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$p2"}],"previous":"$merge"}`},
	{name: "merge that drops the fork origin", actor: "peer", code: library.CodeForkOriginChanged, path: "/links",
		setup: [][3]string{{"p2", "owner", `{"kind":"research-proposal","title":"P","body":{"base":"$fork","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$fork"}],"previous":""}`}},
		text:  `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"merges","target":"$p2"}],"previous":"$fork"}`},
	{name: "object merge with another title", actor: "owner", code: library.CodeMergeContent, path: "/title",
		setup: [][3]string{{"p2", "peer", `{"kind":"proposal","title":"P","body":{"base":"$o.merge","title":"Proposed","body":{"statement":"s","scope":"s","assumptions":[]},"links":[{"relation":"contained_in","target":"$o.subspace"}],"rationale":"r"},"links":[{"relation":"proposes_for","target":"$o.merge"}],"previous":""}`}},
		text:  `{"kind":"claim","title":"Not proposed","body":{"statement":"s","scope":"s","assumptions":[]},"links":[{"relation":"contained_in","target":"$o.subspace"},{"relation":"merges","target":"$p2"}],"previous":"$o.merge"}`},
	{name: "object merge with an extra link", actor: "owner", code: library.CodeMergeContent, path: "/links",
		setup: [][3]string{{"p2", "peer", `{"kind":"proposal","title":"P","body":{"base":"$o.merge","title":"Proposed","body":{"statement":"s","scope":"s","assumptions":[]},"links":[{"relation":"contained_in","target":"$o.subspace"}],"rationale":"r"},"links":[{"relation":"proposes_for","target":"$o.merge"}],"previous":""}`}},
		text:  `{"kind":"claim","title":"Proposed","body":{"statement":"s","scope":"s","assumptions":[]},"links":[{"relation":"contained_in","target":"$o.subspace"},{"relation":"cites","target":"$o.document"},{"relation":"merges","target":"$p2"}],"previous":"$o.merge"}`},
	{name: "fork of a thread", actor: "peer", code: library.CodeForkTarget, path: "/links/0/target",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"forks_from","target":"$thread"}],"previous":""}`},
	{name: "fork revised without its origin", actor: "peer", code: library.CodeForkOriginChanged, path: "/links",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[],"previous":"$fork"}`},
	{name: "map revised into a fork", actor: "owner", code: library.CodeForkOriginChanged, path: "/links",
		text: `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"forks_from","target":"$fork"}],"previous":"$merge"}`},

	// A proposal is refused for what its merge would break, at the path in
	// the proposal.
	{name: "proposal snapshots a disconnected map", actor: "peer", code: library.CodeMapDisconnected, path: "/body/snapshot/nodes/1",
		text: `{"kind":"research-proposal","title":"P","body":{"base":"$merge","snapshot":{"summary":"s","question":"$question","nodes":["$question","$claim"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$merge"}],"previous":""}`},
	{name: "proposal moves the claim", actor: "peer", code: library.CodeContainmentChanged, path: "/body/links",
		text: `{"kind":"proposal","title":"P","body":{"base":"$o.merge","title":"t","body":{"statement":"s","scope":"s","assumptions":[]},"links":[{"relation":"contained_in","target":"$o.space"}],"rationale":"r"},"links":[{"relation":"proposes_for","target":"$o.merge"}],"previous":""}`},
	{name: "proposal carries its own merges link", actor: "peer", code: library.CodeLinkNotAllowed, path: "/body/links/1/relation",
		text: `{"kind":"proposal","title":"P","body":{"base":"$o.merge","title":"t","body":{"statement":"s","scope":"s","assumptions":[]},"links":[{"relation":"contained_in","target":"$o.subspace"},{"relation":"merges","target":"$o.proposal"}],"rationale":"r"},"links":[{"relation":"proposes_for","target":"$o.merge"}],"previous":""}`},
}

func TestStateRules(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			for _, s := range tc.setup {
				w.ids[s[0]] = w.publish(s[1], s[2])
			}
			r := w.record(tc.actor, tc.text)
			if tc.at != 0 {
				r.AuthoredAt = w.clock.Add(tc.at).Format(time.RFC3339)
			}
			// The records break a state rule with valid content, so
			// CheckValidated, which a node runs after ValidateContent,
			// must find the same.
			if err, errValidated := library.Check(t.Context(), r, w.g), library.CheckValidated(t.Context(), r, w.g); fmt.Sprint(err) != fmt.Sprint(errValidated) {
				t.Errorf("Check: %v, but CheckValidated: %v", err, errValidated)
			}
			err := w.try(r)
			var re *library.RuleError
			if !errors.As(err, &re) {
				t.Fatalf("got %v, want a *RuleError %s", err, tc.code)
			}
			if re.Code != tc.code || re.Path != tc.path {
				t.Fatalf("got %s at %q (%v), want %s at %q", re.Code, re.Path, re, tc.code, tc.path)
			}
			conflict := slices.Contains([]string{library.CodeStaleHead, library.CodeStaleBase, library.CodeDuplicateVote}, tc.code)
			if errors.Is(err, library.ErrConflict) != conflict || errors.Is(err, library.ErrInvalid) == conflict {
				t.Errorf("%v: conflict is %v; ErrConflict %v, ErrInvalid %v", err, conflict, errors.Is(err, library.ErrConflict), errors.Is(err, library.ErrInvalid))
			}
			if id, _ := r.RevisionID(); id != "" {
				if _, err := w.g.Revision(t.Context(), id); err == nil {
					t.Error("a refused record was stored")
				}
			}
		})
	}
}

// TestEveryRuleTested reads the Code constants out of library.go and fails
// for any that no case above, nor TestAuthoredAt, breaks: a rule without a
// test is a rule nobody knows holds.
func TestEveryRuleTested(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "library.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]bool{library.CodeAuthoredInFuture: true, library.CodeAuthoredTooLongAgo: true}
	for _, tc := range ruleCases {
		tested[tc.code] = true
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		spec, ok := node.(*ast.ValueSpec)
		if !ok || len(spec.Names) != 1 || !strings.HasPrefix(spec.Names[0].Name, "Code") {
			return true
		}
		n++
		code, _ := strconv.Unquote(spec.Values[0].(*ast.BasicLit).Value)
		if !tested[code] {
			t.Errorf("%s (%q) is broken by no test", spec.Names[0].Name, code)
		}
		return true
	})
	if n < 40 {
		t.Fatalf("found only %d codes in library.go", n)
	}
}

// TestRevisionsAccepted checks what the rules allow alongside what they
// refuse: an author revising and re-revising their own work, changing a
// vote, an open assessment without evidence, merging an object proposal
// with its links in another order.
func TestRevisionsAccepted(t *testing.T) {
	w := newWorld(t)
	t2 := w.publish("owner", `{"kind":"thread","title":"Reproducibility, revised","body":"b2","links":[],"previous":"$thread"}`)
	w.ids["t2"] = t2
	w.publish("owner", `{"kind":"thread","title":"Again","body":"b3","links":[],"previous":"$t2"}`)
	w.publish("peer", `{"kind":"vote","title":"Vote","body":"-1","links":[{"relation":"votes_on","target":"$thread"}],"previous":"$vote"}`)
	w.publish("owner", `{"kind":"vote","title":"Vote","body":"1","links":[{"relation":"votes_on","target":"$thread"}],"previous":""}`)
	w.publish("peer", `{"kind":"research-assessment","title":"A","body":{"node":"$question","verdict":"open","rationale":"r","scope":"s","assumptions":[],"evidence":[]},"links":[{"relation":"assesses","target":"$question"}],"previous":""}`)
	w.publish("peer", `{"kind":"reply","title":"R","body":"b","links":[{"relation":"replies_to","target":"$reply"}],"previous":""}`)
	w.publish("peer", `{"kind":"thread","title":"Sub","body":"b","links":[{"relation":"branches_from","target":"$reply"},{"relation":"contained_in","target":"$thread"}],"previous":""}`)
	w.ids["p2"] = w.publish("peer", `{"kind":"proposal","title":"P","body":{"base":"$o.merge","title":"Proposed","body":{"statement":"s","scope":"s","assumptions":[]},"links":[{"relation":"cites","target":"$o.document"},{"relation":"contained_in","target":"$o.subspace"}],"rationale":"r"},"links":[{"relation":"proposes_for","target":"$o.merge"}],"previous":""}`)
	w.publish("owner", `{"kind":"claim","title":"Proposed","body":{"statement":"s","scope":"s","assumptions":[]},"links":[{"relation":"merges","target":"$p2"},{"relation":"contained_in","target":"$o.subspace"},{"relation":"cites","target":"$o.document"}],"previous":"$o.merge"}`)
	// The fork's author merges a proposal into the fork, keeping its origin.
	w.ids["p3"] = w.publish("owner", `{"kind":"research-proposal","title":"P","body":{"base":"$fork","snapshot":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"rationale":"r"},"links":[{"relation":"proposes_for","target":"$fork"}],"previous":""}`)
	w.publish("peer", `{"kind":"research-map","title":"M","body":{"summary":"s","question":"$question","nodes":["$question"],"edges":[],"assessments":[],"message":"m"},"links":[{"relation":"forks_from","target":"$merge"},{"relation":"merges","target":"$p3"}],"previous":"$fork"}`)
}

func TestCheckRefusesInvalidContent(t *testing.T) {
	w := newWorld(t)
	err := w.try(w.record("owner", `{"kind":"space","title":"S","body":{"summary":"s","extra":1},"links":[],"previous":""}`))
	var ce *library.ContentError
	if !errors.As(err, &ce) || !errors.Is(err, library.ErrInvalid) {
		t.Fatalf("got %v, want a *ContentError", err)
	}
	if len(ce.Issues) != 1 || ce.Issues[0].Path != "/body/extra" {
		t.Fatalf("issues %v, want one at /body/extra", ce.Issues)
	}

	// A proposal's body is checked as the revision it proposes, and its
	// issues point into the proposal.
	err = w.try(w.record("peer", `{"kind":"proposal","title":"P","body":{"base":"$o.merge","title":"t","body":{"scope":"s","assumptions":[]},"links":[{"relation":"contained_in","target":"$o.subspace"}],"rationale":"r"},"links":[{"relation":"proposes_for","target":"$o.merge"}],"previous":""}`))
	if !errors.As(err, &ce) || len(ce.Issues) != 1 || ce.Issues[0].Path != "/body/body/statement" || ce.Issues[0].Code != "required" {
		t.Fatalf("got %v, want statement required at /body/body/statement", err)
	}
}

func TestAuthoredAt(t *testing.T) {
	now := epoch
	for _, tc := range []struct {
		ahead time.Duration
		code  string
	}{
		{-24 * 365 * time.Hour, library.CodeAuthoredTooLongAgo},
		{-library.MaxAuthoredAge - time.Second, library.CodeAuthoredTooLongAgo},
		{-library.MaxAuthoredAge, ""},
		{0, ""},
		{library.MaxClockSkew, ""},
		{library.MaxClockSkew + time.Second, library.CodeAuthoredInFuture},
	} {
		r, err := library.NewRecord(library.Content{Kind: "thread", Title: "T", Body: "b"}, zeros, now.Add(tc.ahead))
		if err != nil {
			t.Fatal(err)
		}
		err = library.CheckAuthoredAt(r, now)
		var re *library.RuleError
		if (tc.code == "") != (err == nil) || (tc.code != "" && (!errors.As(err, &re) || re.Code != tc.code)) {
			t.Errorf("%s ahead: %v; want %q", tc.ahead, err, tc.code)
		}
	}
}
