package ledger

import (
	"context"
	"time"

	"github.com/agora-node/agora/store"
)

// The states of a bundle.
const (
	BundleSealed    = "sealed"
	BundleOpen      = "open"
	BundleWithdrawn = "withdrawn"
)

// Store is a node's store (store.Store) that also keeps the ledger:
// bundles, their claims and files, and large-data uploads. Every driver
// runs ledgertest.Run. Its methods keep store.Store's contract on
// concurrency, durability, errors and retries.
//
// A bundle is recorded when it is sealed: its sealed entry (the log's
// commitment) is put first (PutSigned), then CreateBundle records the
// bundle with its files, claims and the salt that opens the commitment,
// naming the sealed entry by digest, and only then is the sealed entry
// appended and bound (BindIndex). The bundle's state follows from which of
// its entries are bound: sealed until the entry that reveals it
// (OpenBundle) is bound, open from then on, withdrawn once a withdrawal
// entry (WithdrawBundle) is bound.
//
// Claims are found by SearchClaims from the moment their bundle's
// revealing entry is bound, and never again once a withdrawal is bound: a
// driver MUST open (or withdraw) the claims in the same commit as the
// BindIndex or BindIndexes that binds the entry OpenBundle (or
// WithdrawBundle) recorded, so that no reader sees the bundle open and its
// claims not found, or the reverse, and a crash keeps both or neither. A
// step MUST be recorded before its entry is bound: recorded for an entry
// already bound, it opens or withdraws no claims.
//
// DropUnbound of a sealed entry drops its bundle with its files and
// claims; of a revealing or withdrawal entry, the step it recorded; and an
// operator with bundles keeps its key entry (store.ErrConflict).
type Store interface {
	store.Store
	JobStore   // the verification loop (jobstore.go)
	RoundStore // its timers and withdrawals (roundstore.go)
	CheckStore // checks of published bundles (checkstore.go)
	TeamStore  // teams of agents (teamstore.go)

	// CreateBundle records a sealed bundle. Its sealed entry (b.Sealed)
	// MUST have been put, else store.ErrNotFound. A bundle already
	// recorded under b.Hash returns the one that stands with
	// store.ErrDuplicate; a sealed entry that already seals another
	// bundle, store.ErrConflict.
	CreateBundle(ctx context.Context, b NewBundle) (Bundle, error)

	// Bundle returns a bundle by its hash.
	Bundle(ctx context.Context, hash string) (Bundle, error)

	// BundleBySealed returns the bundle whose sealed entry is at index.
	BundleBySealed(ctx context.Context, index int64) (Bundle, error)

	// SealedBundles returns up to limit bundles still sealed, whose sealed
	// entry is bound and which were sealed at or before before, oldest
	// first (by At, then by Hash): those due to open under a node's
	// policy. A page starts after bundle after, "" from the first; after a
	// bundle that is no more, the page is empty.
	SealedBundles(ctx context.Context, before time.Time, after string, limit int) ([]Bundle, error)

	// OpenBundle records that entry (put before) reveals bundle hash. A
	// bundle withdrawn, or revealed by another entry, returns
	// store.ErrConflict; the same entry again, nil.
	OpenBundle(ctx context.Context, hash, entry string) error

	// WithdrawBundle records that the withdrawal entry (put before; with
	// the void entry that asked for it, if any, put too) takes bundle
	// hash down for reason. Withdrawn before by another entry: the
	// bundle that stands with store.ErrDuplicate.
	WithdrawBundle(ctx context.Context, hash string, w Withdrawal) (Bundle, error)

	// OperatorBundles counts the bundles operator sealed since since:
	// what its daily bundle limit counts. Operator "" counts everyone's.
	OperatorBundles(ctx context.Context, operator string, since time.Time) (int, error)

	// SearchClaims finds claims of open bundles as q asks.
	SearchClaims(ctx context.Context, q ClaimQuery) ([]FoundClaim, error)

	// Claim returns the claim with global ID id in every open or withdrawn
	// bundle that holds it, oldest first; store.ErrNotFound if none is
	// open or withdrawn.
	Claim(ctx context.Context, id string) ([]FoundClaim, error)

	// Restatements returns the claims of open bundles other than id whose
	// assertion digest is assertion, oldest first.
	Restatements(ctx context.Context, assertion, id string) ([]FoundClaim, error)

	// DependedOnBy returns the claims of open bundles that depend on id.
	DependedOnBy(ctx context.Context, id string) ([]FoundClaim, error)

	// ServedFile returns the file with digest digest, as one open bundle
	// holds it (the files a node serves), store.ErrNotFound if none does.
	ServedFile(ctx context.Context, digest string) (File, error)

	// HoldsFile reports whether any bundle, sealed, open or withdrawn,
	// holds a file with digest digest, or KeepFiles recorded it: whether
	// the file must be kept.
	HoldsFile(ctx context.Context, digest string) (bool, error)

	// KeepFiles records files that entries other than bundles digest
	// (evidence, notices, an addendum's words), durably before it
	// returns, so HoldsFile holds them from then on. Recording one
	// again changes nothing.
	KeepFiles(ctx context.Context, digests []string) error

	// KeepEvidence records an evidence digest's files, path by path,
	// durably before it returns, keeping each as KeepFiles does;
	// EvidenceFiles returns them (store.ErrNotFound for an evidence
	// digest never recorded). The evidence digest commits to the paths
	// and digests, so recording one again changes nothing.
	KeepEvidence(ctx context.Context, evidence string, files map[string]string) error
	EvidenceFiles(ctx context.Context, evidence string) (map[string]string, error)

	// RepeatedBy returns the newest bundle of operator, sealed or open,
	// holding a claim with one of the assertion digests: a study this one
	// repeats. store.ErrNotFound if none.
	RepeatedBy(ctx context.Context, operator string, assertions []string) (string, error)

	// OpenedBetween returns the open bundles revealed at log indexes in
	// [start, end), in log order: what a mirror copies.
	OpenedBetween(ctx context.Context, start, end int64) ([]Bundle, error)

	// RequestUpload records that operator of organization asks to upload
	// a file, at time u.Requested; the same operator and digest again
	// refreshes the request, and is not counted twice. It counts against
	// limits (UploadLimits), and past any of them it records nothing and
	// returns a *store.LimitError saying which, with when to try again.
	RequestUpload(ctx context.Context, u Upload, limits UploadLimits) error

	// Upload returns the latest request to upload digest, whoever made
	// it, with Completed the latest time any upload of it arrived whole;
	// store.ErrNotFound if none was asked for.
	Upload(ctx context.Context, digest string) (Upload, error)

	// OperatorUpload returns operator's own request to upload digest,
	// with Completed set only once operator's upload of it arrived whole;
	// store.ErrNotFound if operator never asked. What the node answers an
	// operator about a file it does not serve rests on this alone, so no
	// one learns whether another operator uploaded a file.
	OperatorUpload(ctx context.Context, digest, operator string) (Upload, error)

	// CompleteUpload records that operator's upload of digest arrived
	// whole; store.ErrNotFound if operator never asked to upload it.
	CompleteUpload(ctx context.Context, digest, operator string, at time.Time) error
}

// NewBundle is a bundle as sealing records it.
type NewBundle struct {
	Hash      string // the bundle hash
	Operator  string // its author
	KeyDigest string // the key that signed it
	// Entry is the author's bundle entry, {"type": "bundle", "bundle",
	// "sig"}, as JSON; EntryDigest its entry digest.
	Entry       []byte
	EntryDigest string
	Sealed      string // the digest of the sealed entry holding its commitment
	Salt        string // the salt that opens the commitment; secret until it opens
	Files       []File // every file, signature included, in path order
	Fields      []string
	Replaces    string // the bundle it corrects, "" if none
	WrittenBy   string // "agent", "person" or "both"
	Claims      []Claim
	At          time.Time
}

// Bundle is a bundle's record.
type Bundle struct {
	NewBundle
	State         string // BundleSealed, BundleOpen or BundleWithdrawn
	SealedIndex   int64  // store.Unlogged until the sealed entry is bound
	Revealed      string // the digest of the entry that revealed it, "" while sealed
	RevealedIndex int64
	Withdrawal    Withdrawal
	// Versions are the bundles of its lineage (Replaces followed back and
	// forth), oldest first, itself included; filled by Bundle.
	Versions []string
}

// Withdrawal is how a bundle was withdrawn.
type Withdrawal struct {
	Entry  string // the withdrawal entry's digest, "" if not withdrawn
	Index  int64
	Reason string
	Void   string // the void entry's digest, when its author voided it
	At     time.Time
}

// File is one file of a bundle.
type File struct {
	Path     string
	Digest   string
	Size     int64
	Uploaded bool // sent ahead through an upload
}

// Claim is one claim of a bundle.
type Claim struct {
	ID        string // its global claim ID
	LocalID   string
	Type      string
	Statement string
	Assertion string   // its assertion digest
	DependsOn []string // global claim IDs it depends on
	Cites     []string // reference IDs its bundle cites for it
	JSON      []byte   // the claim as claims.json holds it
}

// FoundClaim is a claim with where it stands.
type FoundClaim struct {
	Claim
	Position int // its place in claims.json, from 0
	Bundle   string
	Operator string
	Fields   []string
	// Opened is the index of the entry that revealed its bundle.
	Opened    int64
	OpenedAt  time.Time
	WrittenBy string
	Withdrawn bool
}

// ClaimQuery says which claims SearchClaims returns. Claims come newest
// first (highest Opened, then claims.json order), or, with Since set,
// oldest first; Limit is a minimum page size, never splitting a bundle.
type ClaimQuery struct {
	Words     string // full-text: every word, each also finding the words it starts
	Field     string
	Type      string
	Operator  string
	DependsOn string
	Cites     string
	Before    int64 // only claims opened before this index; 0 means no bound
	// Only, when not nil, finds only the claims with these global IDs
	// (the claims a status index lists); empty, it finds none.
	Only []string
	// Follow asks for the claims opened after index Since, oldest first.
	Follow bool
	Since  int64
	Limit  int
}

// UploadLimits are what RequestUpload lets an operator, and its
// organization's operators together, ask to upload. A limit of zero or
// less is no limit.
type UploadLimits struct {
	// Daily and OrgDaily bound the bytes asked for in the 24 hours before
	// the request (the spec's 50 GB and 200 GB).
	Daily, OrgDaily int64
	// Unbound and OrgUnbound bound the bytes of uploads asked for within
	// Keep before the request that no bundle holds: what the node keeps
	// for nobody until its sweep removes them.
	Unbound, OrgUnbound int64
	Keep                time.Duration
}

// Upload is a large file an operator asked to send ahead of a bundle.
type Upload struct {
	Digest       string
	Size         int64
	Operator     string
	Organization string
	Requested    time.Time
	Completed    time.Time // zero until it arrived whole
}
