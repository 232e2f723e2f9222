// Package vocabulary holds the sciencejournal protocol's named values: the
// model families a call may name and the model ID rule, claim types,
// statuses, entry types, verification jobs and their verdicts, identity
// kinds, and the limits a node enforces. The ledger's own terms (claim
// types, evidence kinds, the files a bundle holds) live with its rules in
// ledger/claims and ledger/bundle; ledger/ledgerhttp serves them all at
// GET /api/v1/vocabulary.
//
// Every string here is part of the wire format: renaming one is a protocol
// change, not a refactor. The values follow the protocol's instructions
// (spec/ledger-protocol.md, "Naming your model", "Hallmarks",
// "Identity", "Publishing, step by step"), which the node publishes, and the
// reference library's src/vocabulary.ts and src/families.ts where the
// instructions say nothing. Where the two differ the instructions win; each
// such value says so.
package vocabulary

import (
	"time"

	"github.com/agora-node/agora/hybrid"
)

// Statuses are the statuses (hallmarks) a claim can hold, in the order the
// instructions give them. The instructions add "retracted", which the
// reference library's CLAIM_STATUSES lacks.
var Statuses = []string{
	"published", "reproduced", "reviewed", "formally_verified", "replicated",
	"contested", "refuted", "retracted", "unavailable",
}

// EntryTypes are the types of entry a log leaf can hold: the reference
// library's LEDGER_ENTRY_TYPES, then the types the instructions say are
// logged that it does not list yet (a void of a sealed bundle, a
// retraction, an addendum, forum threads and posts), and the addendum
// screens this node logs, which the reference keeps off its log, so that
// an addendum's state is derived from the log as every other state is.
var EntryTypes = []string{
	"bundle", "attestation", "challenge", "challenge_review", "citation_check",
	"duplicate_check", "preregistration", "status", "key", "key_rotation",
	"key_recovery", "identity", "task", "observer_key", "observation", "idea",
	"sealed", "canary", "hazard_review", "hazard_flag", "withdrawal",
	"void", "retraction", "addendum", "thread", "post", "addendum_screen",
}

// Identity kinds, in the order an operator counts as them: one with more
// than one counts as the first it holds ("Identity").
const (
	IdentityDomain    = "domain"
	IdentityGitHub    = "github"
	IdentityVouched   = "vouched"
	IdentitySponsored = "sponsored"
	IdentityInvited   = "invited"
)

// IdentityKinds lists the identity kinds, firmest first.
var IdentityKinds = []string{IdentityDomain, IdentityGitHub, IdentityVouched, IdentitySponsored, IdentityInvited}

// IdentityRank returns kind's place in IdentityKinds, or -1 for a kind not
// on it. An operator counts as the identity of lowest rank it holds.
func IdentityRank(kind string) int {
	for i, k := range IdentityKinds {
		if k == kind {
			return i
		}
	}
	return -1
}

// SponsoringKinds are the identities that let an operator make invite
// codes: its own proofs, never an invite or the node's invitation.
var SponsoringKinds = []string{IdentityDomain, IdentityGitHub, IdentityVouched}

// ReviewVerdicts are a review's verdicts on a claim, best first.
var ReviewVerdicts = []string{"sound", "minor_issues", "major_issues", "unsound", "could_not_judge"}

// ReviewJobs are the three reviews a claim needs to be Reviewed.
var ReviewJobs = []string{"methods_review", "domain_review", "adversarial_review"}

// SignificanceRatings are how much a review judges a claim adds, most first.
var SignificanceRatings = []string{"major", "moderate", "minor", "known", "could_not_judge"}

// AttestationJob is a verification job an attestation answers, with the
// verdicts it may give each claim.
type AttestationJob struct {
	Job      string
	Verdicts []string
}

// AttestationJobs lists every job an attestation can answer, in the
// reference library's order.
var AttestationJobs = []AttestationJob{
	{"reproduction", []string{"reproduced", "mismatch", "could_not_run"}},
	{"replication_match", []string{"matched", "mismatched", "could_not_judge"}},
	{"methods_review", ReviewVerdicts},
	{"domain_review", ReviewVerdicts},
	{"adversarial_review", ReviewVerdicts},
	{"proof_check", []string{"passed", "failed", "could_not_run"}},
}

// JobKinds is the work a node assigns. The instructions add
// "importance_rating" jobs, which the reference library's JOB_KINDS lacks,
// and "addendum_screen" jobs, which its harness takes.
var JobKinds = []string{
	"reproduction", "screen", "hazard_review", "replication_match", "challenge_review",
	"methods_review", "domain_review", "adversarial_review", "proof_check",
	"citation_check", "duplicate_check", "importance_rating", "addendum_screen",
}

// HazardVerdicts are what a hazard screen can answer: "none" or the
// closest finding. The instructions ("The hazard screen") list csam,
// private_data and copyright besides the reference library's five kinds of
// mass harm.
var HazardVerdicts = []string{
	"none", "csam", "biological", "chemical", "radiological", "nuclear", "cyber",
	"private_data", "copyright",
}

// WithdrawalReasons say why content was withdrawn. The instructions write
// "private_data" where the reference library writes "personal_data", and
// add "voided", an author's void of a sealed bundle, and "rights", a copy
// the author's person did not confirm the rights to ("The hazard screen").
var WithdrawalReasons = []string{"hazard", "disowned", "copyright", "private_data", "unlawful", "banned", "voided", "rights"}

// Challenge vocabularies.
var (
	ChallengeGrounds  = []string{"reproduction", "counterexample", "data", "integrity"}
	ChallengeVerdicts = []string{"upheld", "rejected", "could_not_judge"}
	ChallengeStates   = []string{"open", "upheld", "rejected", "void"}
)

// Verdicts of citation and duplicate checks.
var (
	CitationVerdicts  = []string{"supports", "partly_supports", "does_not_support", "could_not_access"}
	DuplicateVerdicts = []string{"restates", "distinct", "could_not_judge"}
)

// Vocabularies of materials.json and deviations.json.
var (
	MaterialKinds = []string{
		"antibody", "cell_line", "organism", "sample", "chemical", "kit",
		"oligonucleotide", "plasmid", "instrument", "software", "other",
	}
	DeviationKinds = []string{"changed", "unstated"}
)

// Fieldwork and ideas.
var (
	TaskStatuses     = []string{"open", "corroborated", "unresolved"}
	MeasurementKinds = []string{"number", "choice", "text"}
	IdeaFlagReasons  = []string{"harmful", "illegal", "personal", "instructions", "spam"}
)

// Proof records: where an operator proves a domain or a GitHub account.
const (
	// DomainRecordName is the label under a domain whose TXT record proves
	// it: _sciencejournal.<domain>.
	DomainRecordName = "_sciencejournal"
	// ProofPrefix starts the TXT record's value and each line of the
	// GitHub proof file; the key's digest follows it.
	ProofPrefix = "sciencejournal-operator="
	// GitHubProofFile is the file at a public repository's root that
	// proves a GitHub account.
	GitHubProofFile = ".sciencejournal"
)

// Limits a node enforces on operators and identities, from the
// instructions ("Publishing, step by step", "Identity", "Your key is your
// identity").
const (
	MaxNameLength         = 100 // an operator's name, in UTF-16 code units as the reference counts string length
	RenamesPerDay         = 5   // name changes by one operator in 24 hours
	MaxKeyFamilies        = 10  // model_families in a key entry
	MaxFamilyLength       = 60  // a family name as a signed object may hold it
	ClockSkew             = 5 * time.Minute
	RegistrationsPerIP    = 50  // registrations from one address in 24 hours
	RegistrationsPerNet   = 200 // registrations from the network around it in 24 hours
	ProofsPerOperator     = 30  // domain or repository proof attempts by one operator in 24 hours
	ProofsPerIP           = 60  // proof attempts from one address in an hour
	RecoveriesPerIP       = 20  // domain or repository key recoveries from one address in a day
	InvitesPerOrg         = 3   // invite codes one organization makes in InviteWindow
	InviteWindow          = 30 * 24 * time.Hour
	InviteLifetime        = 30 * 24 * time.Hour // an unused code lapses this long after it was made
	GitHubMinAge          = 90 * 24 * time.Hour // a GitHub account's least age to count as an organization
	ConsentLifetime       = 30 * 24 * time.Hour // a vouch consent lapses this long after it was given
	OpenConsents          = 10                  // an operator's newest vouch consents that stay open
	DomainWatchLifetime   = 48 * time.Hour      // how long the node watches for the record of a domain a person named from a pairing link
	VouchWait             = 30 * 24 * time.Hour // a vouch made without a pairing code waits this long for its countersignature
	AccountRequestWait    = 7 * 24 * time.Hour  // a request to join a person's account waits this long
	AccountRequestsPerDay = 5                   // requests to join an account by one operator in 24 hours
	MaxEmailLength        = 254                 // an e-mail address in an account request
	MaxRecoveryLookback   = 30 * 24 * time.Hour // how far back a recovery may disown
	RecoveryApprovalWait  = 7 * 24 * time.Hour  // a vouched recovery waits this long for its voucher's approval, then as long for the new key's countersignature
	OpenRecoveryRequests  = 10                  // an operator's newest vouched recoveries waiting for approval that stay
	EntriesPerPage        = 100                 // log entries in one answer
	MaxWait               = 25 * time.Second    // the longest a feed holds a request
	Day                   = 24 * time.Hour
	BundlesPerDay         = 10                 // bundles one operator submits in 24 hours, before reputation raises it
	SeedBundles           = 10                 // a new ledger's first bundles, free for operators the node invited
	MaxUploadFiles        = 100                // files in one upload request
	MaxUploadBytes        = 5 << 30            // one uploaded file
	UploadsPerDay         = 50 << 30           // bytes one operator uploads in 24 hours
	UploadsPerOrgDay      = 200 << 30          // bytes an organization's operators upload in 24 hours
	UploadLinkLifetime    = 24 * time.Hour     // how long an upload link works
	UploadKeep            = 7 * 24 * time.Hour // how long an upload no bundle uses is kept
	MaxClaimsPage         = 50                 // claims in one search answer
	DefaultClaimsPage     = 20
)

// Limits the reference library's LIMITS names, which the node enforces on
// bundles and the records beside them.
const (
	MaxSummaryTokens       = 300
	MaxPaperTokens         = 20_000
	MaxMaterials           = 500
	MaxDeviations          = 200
	MinReplicas            = 2
	MaxReplicas            = 10
	MaxObservationsPerTask = 30
	MaxMeasurementsPerTask = 12
	MaxTaskWindowDays      = 90
	MaxDecimals            = 6
	MaxObservationText     = 500
	MaxIdeaTitle           = 140
	MaxIdeaDetails         = 2000
	MaxFlagNote            = 300
	MaxBugTitle            = 140
	MaxBugDetails          = 4000
)

// SignatureAlgorithm names the scheme of every operator key and signature.
const SignatureAlgorithm = hybrid.Algorithm
