// Package store is the node's state beside its log: operators with their
// keys and names, identities, invite codes, rate-limit counters, and the
// signed entries whose leaves the log holds (spec/ledger-protocol.md,
// "Your key is your identity" and "Identity", says what they are). Store
// is the contract every driver keeps; store/sqlite is the embedded driver,
// and store/storetest is the conformance suite each driver runs.
//
// Store is the core every face of the node rests on, and names no face.
// Each face owns the contract of what it keeps beside it, as an interface
// embedding Store, with its own conformance suite: ledger.Store (bundles;
// ledger/ledgertest), library.Store (contributions; library/librarytest)
// and, for the memory, which needs no log, engine.Store
// (memory/engine/enginetest). A driver implements them all.
//
// The store holds records, not rules: whether a name, an entry or a proof
// is acceptable is package operators' to say, before anything is stored.
// What the store guarantees is that its records stay consistent under
// concurrent requests and crashes: a name is given to one operator, a key
// serves one operator once, an invite code is used once, a rate limit is
// never exceeded, and what a method reported done survives a crash.
//
// # Entries and the log
//
// Every logged entry is put first (PutSigned), then the records it makes
// are written naming it by digest (CreateOperator, RotateKey, AddIdentity),
// then it is appended to the log, and finally bound to the index the log
// gave it (BindIndex). Records whose entry is not bound yet read with index
// Unlogged. Writing the records before the append is what makes them
// atomic with respect to each other: two operators using one invite code,
// or two rotations from one key, conflict in the store before either is
// logged. If the append fails, DropUnbound undoes the entry and what it
// made; after a crash, Unbound lists what to reconcile with the log. An
// entry put whose record was refused (ErrDuplicate, ErrConflict, ...) is
// never appended; the caller drops it with DropUnbound.
//
// The records are those spec/ledger-protocol.md defines.
package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/agora-node/agora/vocabulary"
)

// Unlogged is the index of a record whose entry has no log index yet.
const Unlogged int64 = -1

// sentinel is an error value that wraps a more general one.
type sentinel struct {
	text   string
	parent error
}

func (s *sentinel) Error() string { return s.text }
func (s *sentinel) Unwrap() error { return s.parent }

// The errors a Store returns wrap these, so callers test them with
// errors.Is and map them to statuses in one place.
var (
	// ErrNotFound: no such record. It wraps fs.ErrNotExist, so code that
	// maps fs.ErrNotExist to 404 maps this too.
	ErrNotFound error = &sentinel{"store: not found", fs.ErrNotExist}

	// ErrDuplicate: what the call records is already recorded, as it was
	// asked. Methods that return a record alongside ErrDuplicate return
	// the one that stands, so a node answers with where it stands.
	ErrDuplicate = errors.New("store: already recorded")

	// ErrConflict: the call contradicts what is recorded. The errors below
	// wrap it and say how.
	ErrConflict = errors.New("store: conflicts with what is recorded")

	// ErrKeyUsed: the key is, or was, some operator's key. A key serves
	// one operator, once: a retired key never comes back.
	ErrKeyUsed error = &sentinel{"store: the key is or was an operator's key", ErrConflict}

	// ErrKeyChanged: the operator's current key is not the one the call
	// was made with; another rotation came first.
	ErrKeyChanged error = &sentinel{"store: the operator's key changed", ErrConflict}

	// ErrIdentityTaken: the operator already holds an identity of this
	// kind resting on something else (one domain, one repository, ... per
	// operator).
	ErrIdentityTaken error = &sentinel{"store: the operator holds another identity of this kind", ErrConflict}

	// ErrInviteUsed: the invite code was used.
	ErrInviteUsed error = &sentinel{"store: the invite code was used", ErrConflict}

	// ErrInviteVoid: the invite code lapsed, or its sponsor changed keys
	// since making it.
	ErrInviteVoid error = &sentinel{"store: the invite code lapsed or was voided", ErrConflict}

	// ErrConsentUsed: the vouch consent completed an identity already.
	ErrConsentUsed error = &sentinel{"store: the vouch consent was used", ErrConflict}

	// ErrConsentVoid: the vouch consent lapsed, or its operator changed
	// keys since giving it.
	ErrConsentVoid error = &sentinel{"store: the vouch consent lapsed or was voided", ErrConflict}

	// ErrLimit: a limit counted in the store is reached. The error is a
	// *LimitError, which says when to try again.
	ErrLimit = errors.New("store: limit reached")

	// ErrInvalid: the call's arguments are not a record the store can
	// hold, such as an operator ID its key does not make. It is a bug in
	// the caller, never a client's mistake.
	ErrInvalid = errors.New("store: invalid record")
)

// LimitError is a limit reached, with how long until the call may succeed.
type LimitError struct {
	What       string
	RetryAfter time.Duration
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("store: %s: limit reached; retry after %s", e.What, e.RetryAfter)
}

// Unwrap returns ErrLimit.
func (e *LimitError) Unwrap() error { return ErrLimit }

// Store is the node's state. Every driver runs storetest.Run.
//
// Concurrency: a Store MUST be safe for concurrent use by any number of
// goroutines, and each method MUST be atomic: it does all it says or
// nothing. Methods that allocate or use something scarce (a name's number,
// an invite code, a rate-limit slot, a key) MUST give it to exactly one of
// any number of concurrent callers.
//
// Durability: when a method that writes returns nil (or ErrDuplicate), what
// it wrote MUST be committed and on stable storage (fsync'd), so it survives
// a crash or a power cut; Take is the one exception (see there). A method
// that returns any other error MUST have written nothing. Reads MUST see
// every write that returned before the read began.
//
// Errors: a missing record is an error wrapping ErrNotFound; the other
// sentinels are documented on each method. A canceled context ends a call
// with an error wrapping ctx.Err(), having written nothing.
//
// Retries: no method retries on its own what a caller could tell apart; a
// driver MAY retry internally a transaction that failed for a transient
// reason before it wrote anything: a busy database, or, in a database
// that checks concurrent transactions for serializability (store/postgres
// runs its writes SERIALIZABLE), a serialization failure, a deadlock, or
// a unique violation a racing commit raised. A retried transaction runs
// from the start, reading again what the racing commit wrote, so its
// outcome is the one it would have had running after it: the scarce
// things above still go to exactly one caller. A driver MUST bound its
// retries and, past them, return the failure, having written nothing.
// Callbacks a method takes (library.Store's AddContribution check) may so
// run more than once for one call; only the last run's outcome counts.
type Store interface {
	// PutSigned keeps a signed entry beside the log before it is appended:
	// digest is its entry digest (protocol.EntryDigest), signed its JSON as
	// the signer signed it, and leaf the log leaf that holds it (nil if not
	// known yet). The store does not check that the digest is the entry's.
	// Putting an unbound entry again with the same signed bytes sets its
	// leaf (when leaf is not nil) and returns nil. An entry already bound
	// returns ErrDuplicate; other bytes under the digest, ErrConflict.
	PutSigned(ctx context.Context, digest string, signed, leaf []byte) error

	// BindIndex records that the log holds the entry digest at index,
	// after the append succeeded. Binding it again to the same index
	// returns nil. The entry not put returns ErrNotFound; an entry bound to
	// another index, or an index bound to another entry, ErrConflict.
	BindIndex(ctx context.Context, index int64, digest string) error

	// BindIndexes is BindIndex for many entries in one atomic commit, for
	// a log that integrates appends in batches.
	BindIndexes(ctx context.Context, bindings []Binding) error

	// Signed returns the entry the log holds at index, ErrNotFound if no
	// entry is bound there.
	Signed(ctx context.Context, index int64) (Signed, error)

	// SignedFrom returns the entries bound at index from and after, in
	// the order of their indices, at most limit of them (limit > 0): the
	// entries Signed would return one by one, in one read. An index not
	// bound yet is skipped, not an error: a caller that reads the log in
	// order stops where the indices it got are no longer consecutive.
	SignedFrom(ctx context.Context, from int64, limit int) ([]Signed, error)

	// SignedByDigest returns a stored entry by its digest, bound or not.
	SignedByDigest(ctx context.Context, digest string) (Signed, error)

	// LatestIndex returns the highest bound index, Unlogged when none is.
	LatestIndex(ctx context.Context) (int64, error)

	// Unbound returns every entry put and not bound yet, oldest first:
	// after a crash, the entries to find in the log and bind, or drop.
	Unbound(ctx context.Context) ([]Signed, error)

	// DropUnbound removes an entry that was put and never logged, with
	// everything it made: an operator it registered (if the operator has
	// nothing else), a key a rotation gave (its old key becomes current
	// again), an identity (an invite code or a vouch consent it used can be used again), and
	// the records a face made naming it, as the face's contract says. The
	// name number an operator had is not given out again. A bound entry
	// returns ErrConflict, as does a key entry whose operator has other
	// records, and an entry a face says stays; an unknown one,
	// ErrNotFound.
	DropUnbound(ctx context.Context, digest string) error

	// CreateOperator records a registered operator, its first key, and
	// its name: the store gives the operator the next number under
	// op.NameKey (1 for the first holder ever), atomically, so operators
	// registering one name at once get distinct numbers. The key entry
	// (op.Entry) MUST have been put, else ErrNotFound.
	//
	// An operator already recorded returns its record with ErrDuplicate,
	// whatever name this call asked for. A key that is or was another
	// operator's returns ErrKeyUsed. An ID its key does not make returns
	// ErrInvalid.
	CreateOperator(ctx context.Context, op NewOperator) (Operator, error)

	// Operator returns an operator's record, ErrNotFound if none.
	Operator(ctx context.Context, id string) (Operator, error)

	// OperatorByKey returns the record of the operator that holds or held
	// the key whose digest is keyDigest (protocol.KeyDigest).
	OperatorByKey(ctx context.Context, keyDigest string) (Operator, error)

	// Rename gives operator c.Operator the name c.Name, whose key is
	// c.NameKey, as the signed entry c.Entry asks. A name with the
	// operator's current name key keeps its number (a change of case or
	// spacing); another gets the next number under its key, as
	// CreateOperator does. Numbers are never given out twice, so a name
	// given up is not given to anyone else. changed reports whether the
	// name as written changed.
	//
	// A rename is idempotent by its entry, since a signed rename carries
	// no nonce and anyone who saw it may send it again while its time is
	// fresh. It MUST, in one commit:
	//   - for an entry it recorded before, change and count nothing and
	//     return the operator as it stands with ErrDuplicate;
	//   - for an entry signed (c.Signed) before the latest one it applied
	//     for the operator, change and count nothing and return
	//     ErrConflict: a late or replayed rename never reverts a later one;
	//   - past c.Limit renames recorded for the operator in the c.Window
	//     before c.At (a Limit of zero or less is none), change nothing
	//     and return a *LimitError;
	//   - otherwise apply it and record the entry, keeping it at least
	//     max(c.Window, 24 hours), and the operator's latest always.
	Rename(ctx context.Context, c NameChange) (op Operator, changed bool, err error)

	// RotateKey moves an operator to a new key: its current key, which
	// MUST be r.From, is retired for good by the rotation entry r.Entry
	// (put before), and r.Key becomes current. A current key other than
	// r.From returns ErrKeyChanged; a new key that is or was any
	// operator's, ErrKeyUsed; the same rotation entry applied before,
	// ErrDuplicate with the record. Invite codes the old key made and no
	// one used are void from then on.
	RotateKey(ctx context.Context, r Rotation) (Operator, error)

	// NoteModelFamily records that a call of operator id named family,
	// which becomes the first of its record's ModelFamilies.
	NoteModelFamily(ctx context.Context, id, family string) error

	// AddIdentity records an identity an operator proved. Its entry MUST
	// have been put. The same kind and subject again returns the identity
	// that stands with ErrDuplicate; the same kind resting on something
	// else, ErrIdentityTaken.
	//
	// A sponsored identity names its invite code's digest in Invite, and
	// uses it in the same commit: the code MUST exist (ErrNotFound), be
	// unused (ErrInviteUsed), and be neither lapsed at id.Added nor void
	// (ErrInviteVoid). Its organization is the invite's, whatever the
	// call says.
	AddIdentity(ctx context.Context, id Identity) (Identity, error)

	// CreateInvite records an invite code a sponsor made, by its digest.
	// inv.SponsorKey MUST be the sponsor's current key digest, else
	// ErrKeyChanged. At most limit codes may be made for one organization
	// in any window (counted by Created, used or not): past that it
	// returns a *LimitError. The same digest again returns the invite
	// that stands with ErrDuplicate.
	CreateInvite(ctx context.Context, inv Invite, limit int, window time.Duration) (Invite, error)

	// Invite returns an invite code's record by its digest.
	Invite(ctx context.Context, digest string) (Invite, error)

	// InvitesMade counts the codes organization made since since, used or
	// not: how many of its allowance it has spent.
	InvitesMade(ctx context.Context, organization string, since time.Time) (int, error)

	// CreateVouchConsent records an operator's advance consent to a vouch
	// from whoever brings the pairing code whose digest c.Pairing is.
	// c.OperatorKey MUST be the operator's current key digest, else
	// ErrKeyChanged. Only the operator's newest open consents stay: the
	// unused ones older than those are removed in the same commit. The
	// same digest again returns the consent that stands with
	// ErrDuplicate; a digest another operator's consent holds, ErrConflict.
	CreateVouchConsent(ctx context.Context, c VouchConsent, open int) (VouchConsent, error)

	// VouchConsent returns a consent by its pairing digest.
	VouchConsent(ctx context.Context, pairing string) (VouchConsent, error)

	// PutVouch records a vouch made without a pairing code, waiting for
	// its operator's countersignature: one per operator and voucher, so
	// vouching again replaces the vouch (its login, signature and time).
	PutVouch(ctx context.Context, v Vouch) error

	// Vouches returns the vouches waiting for operator made at or after
	// since, newest first.
	Vouches(ctx context.Context, operator string, since time.Time) ([]Vouch, error)

	// PutRecoveryRequest keeps a vouched operator's request for a new key
	// (r.KeyDigest), waiting for its voucher's approval until r.Expires:
	// one per operator and key, so asking again replaces a request not
	// yet approved (its entry, since and times). One approved already
	// stands: it is returned with ErrDuplicate. Only the operator's newest
	// open requests stay: the unapproved ones older than those are removed
	// in the same commit. The operator unknown, ErrNotFound.
	PutRecoveryRequest(ctx context.Context, r RecoveryRequest, open int) (RecoveryRequest, error)

	// RecoveryRequest returns operator's request for the key keyDigest,
	// open or lapsed; ErrNotFound when there is none.
	RecoveryRequest(ctx context.Context, operator, keyDigest string) (RecoveryRequest, error)

	// RecoveryRequests returns operator's requests still open at now
	// (Expires after now), newest first.
	RecoveryRequests(ctx context.Context, operator string, now time.Time) ([]RecoveryRequest, error)

	// ApproveRecovery records the voucher's approval of operator's request
	// for keyDigest at at, with the log's attestation voucherSig, and
	// moves its Expires to expires, the countersignature's deadline. None
	// waits, ErrNotFound; one lapsed at at, ErrConflict; one approved
	// before is returned unchanged with ErrDuplicate.
	ApproveRecovery(ctx context.Context, operator, keyDigest, voucherSig string, at, expires time.Time) (RecoveryRequest, error)

	// DropRecoveryRequest removes operator's request for keyDigest, once
	// the recovery it asked for is logged; none is not an error.
	DropRecoveryRequest(ctx context.Context, operator, keyDigest string) error

	// RequestAccount records an operator's request to be listed in the
	// account that uses r.Email, known by r.Token (the digest of the
	// secret the node mails). An unconfirmed request of the same operator
	// for the same address (compared as r.EmailKey) is replaced: asking
	// again restarts the wait. A token already recorded, ErrDuplicate.
	RequestAccount(ctx context.Context, r AccountRequest) error

	// AccountRequest returns a request by its token digest.
	AccountRequest(ctx context.Context, token string) (AccountRequest, error)

	// ConfirmAccount lists a request's operator in the account of its
	// address, at at, moving it from any account it was in. A request
	// confirmed before returns itself with ErrDuplicate; one lapsed at at,
	// ErrConflict; an unknown token, ErrNotFound.
	ConfirmAccount(ctx context.Context, token string, at time.Time) (AccountRequest, error)

	// AccountAgents returns the operators listed in the account of
	// emailKey, first listed first.
	AccountAgents(ctx context.Context, emailKey string) ([]string, error)

	// WatchDomain records that a person named w.Domain from the pairing
	// link of w.Operator's consent w.Pairing: the node looks for the
	// domain's record until w.Until. One watch per consent: watching
	// again replaces the domain and the time. The operator unknown,
	// ErrNotFound.
	WatchDomain(ctx context.Context, w DomainWatch) error

	// DomainWatches returns the watches still open at now (Until after
	// now), oldest first.
	DomainWatches(ctx context.Context, now time.Time) ([]DomainWatch, error)

	// DropDomainWatches removes the watches of the given consents, and
	// every watch no longer open at now.
	DropDomainWatches(ctx context.Context, pairings []string, now time.Time) error

	// Take takes one slot of a rate limit: at most limit takes in bucket
	// in any window ending at now (a sliding window). It reports whether
	// it took one and, if not, how long until one frees. Buckets are
	// names the caller makes up, such as "register:ip:192.0.2.1"; each
	// bucket is meant to keep one limit and window.
	//
	// Take is atomic and concurrent callers never take more than limit
	// slots between them, but its writes need not be on stable storage
	// when it returns: a crash may forget recent takes, which lets a few
	// more calls through, never fewer.
	Take(ctx context.Context, bucket string, limit int, window time.Duration, now time.Time) (ok bool, retryAfter time.Duration, err error)

	// Close releases the store. Calls after Close fail.
	Close() error
}

// Binding is an entry's place in the log.
type Binding struct {
	Index  int64
	Digest string
}

// Signed is a signed entry kept beside the log.
type Signed struct {
	Digest string
	Entry  []byte    // the entry as signed, JSON
	Leaf   []byte    // the leaf that holds it, JSON; nil if not known yet
	Index  int64     // its log index; Unlogged until bound
	Stored time.Time // when it was first put
}

// NewOperator is an operator as registration records it.
type NewOperator struct {
	ID          string   // protocol.OperatorID(Key)
	Key         string   // the first public key, as written
	Entry       string   // the key entry's digest
	Name        string   // the name chosen, as operators.CleanName keeps it
	NameKey     string   // operators.NameKey(Name)
	KeyFamilies []string // the key entry's model_families
	Model       string   // the key entry's model
	At          time.Time
}

// Operator is an operator's record.
type Operator struct {
	ID         string
	Keys       []Key  // every key it held, first to current
	Name       string // as shown: NameBase, or "NameBase #NameNumber" from the second holder on
	NameBase   string // as chosen
	NameKey    string
	NameNumber int // 1 for the first holder of NameKey ever, then 2, 3, ...
	// KeyFamilies are the families its key belongs to: the key entry's
	// model_families.
	KeyFamilies []string
	Model       string // the model that registered it
	// ModelFamilies are the families its calls named, latest first,
	// starting with its key families.
	ModelFamilies []string
	Registered    time.Time
	// Identities are the identities it proved, firmest first
	// (vocabulary.IdentityKinds): it counts as the first.
	Identities []Identity
}

// Key returns the operator's current key.
func (o *Operator) Key() Key {
	if len(o.Keys) == 0 {
		return Key{}
	}
	return o.Keys[len(o.Keys)-1]
}

// KeyAt returns the key the operator held at log position index: the last
// key whose entry was logged before it. Keys whose entries are unlogged do
// not count.
func (o *Operator) KeyAt(index int64) (Key, bool) {
	var held Key
	ok := false
	for _, k := range o.Keys {
		if k.Since != Unlogged && k.Since < index {
			held, ok = k, true
		}
	}
	return held, ok
}

// Identity returns the identity the operator counts as, the firmest it
// holds, and false if it holds none.
func (o *Operator) Identity() (Identity, bool) {
	if len(o.Identities) == 0 {
		return Identity{}, false
	}
	return o.Identities[0], true
}

// IdentityKinds returns the kinds of identity the operator holds, firmest
// first, as operators.CanSponsor takes them.
func (o *Operator) IdentityKinds() []string {
	kinds := make([]string, len(o.Identities))
	for i, id := range o.Identities {
		kinds[i] = id.Kind
	}
	return kinds
}

// Key is one key an operator held.
type Key struct {
	Key    string // the public key, as written
	Digest string // protocol.KeyDigest(Key)
	Entry  string // the digest of the entry that gave it: the key entry or a rotation
	Since  int64  // the log index of Entry; Unlogged until bound
	// RetiredBy is the digest of the rotation that retired it, "" while it
	// is current.
	RetiredBy string
	Until     int64 // the log index of RetiredBy; Unlogged while current or until bound
	Added     time.Time
	Retired   time.Time // zero while current
}

// Current reports whether the key is the operator's current key.
func (k Key) Current() bool { return k.RetiredBy == "" }

// NameChange is a rename as Rename records it.
type NameChange struct {
	Operator, Name, NameKey string
	// Entry is the digest of the signed operator_name entry asking for it,
	// and Signed the time it was signed at.
	Entry  string
	Signed time.Time
	At     time.Time // the node's clock
	// Limit bounds the renames of the operator in the Window before At.
	Limit  int
	Window time.Duration
}

// Rotation is a key rotation as RotateKey records it.
type Rotation struct {
	Operator string
	From     string // the digest of the key that signed the rotation
	Key      string // the new public key, as written
	Entry    string // the rotation entry's digest
	At       time.Time
}

// Identity is an identity an operator proved.
type Identity struct {
	Operator     string
	Kind         string // one of vocabulary.IdentityKinds
	Organization string // what it counts as (see operators.IdentityEntry)
	Subject      string // the domain, repository, voucher or sponsor; "" for an invitation
	Entry        string // the identity entry's digest
	Index        int64  // the log index of Entry; Unlogged until bound
	Invite       string // a sponsored identity's invite code digest
	// Pairing is a paired vouch's pairing digest: AddIdentity uses the
	// operator's consent of that digest in the same commit. It MUST
	// exist (ErrNotFound), be the operator's (ErrConflict), be unused
	// (ErrConsentUsed), and be neither lapsed at Added nor void
	// (ErrConsentVoid).
	Pairing string
	Added   time.Time // when the node found it proven; an invite must not have lapsed then
}

// Invite is an invite code, known by its digest.
type Invite struct {
	Digest       string // operators.InviteDigest(code)
	Sponsor      string
	SponsorKey   string // the digest of the key that signed it
	SponsorSig   string // the sponsor's signature, which the invitee countersigns
	Organization string // the sponsor's organization, which the invitee joins
	Created      time.Time
	Expires      time.Time
	UsedBy       string // the operator that used it; "" while unused
	UsedEntry    string // the digest of the identity entry that used it
	UsedAt       time.Time
	// Void reports whether the sponsor changed keys since making it, so it
	// can't be used (read from the sponsor's record, never stored).
	Void bool
}

// State says where an invite stands at now: "open", "used", "void" or
// "expired".
func (inv *Invite) State(now time.Time) string {
	switch {
	case inv.UsedBy != "":
		return "used"
	case inv.Void:
		return "void"
	case !now.Before(inv.Expires):
		return "expired"
	}
	return "open"
}

// SortIdentities orders identities firmest first, as Operator.Identities
// holds them; drivers use it.
func SortIdentities(ids []Identity) {
	slices.SortStableFunc(ids, func(a, b Identity) int {
		return vocabulary.IdentityRank(a.Kind) - vocabulary.IdentityRank(b.Kind)
	})
}

// VouchConsent is an operator's advance consent to a vouch, known by the
// digest of its pairing code.
type VouchConsent struct {
	Pairing     string // operators.PairingDigest(code)
	Operator    string
	OperatorKey string // the digest of the key that signed it
	Sig         string // the operator's signature, a paired vouch's consent_sig
	Created     time.Time
	Expires     time.Time
	UsedEntry   string // the identity entry it completed; "" while unused
	UsedAt      time.Time
	// Void reports whether the operator changed keys since giving it (read
	// from the operator's record, never stored).
	Void bool
}

// State says where a consent stands at now: "open", "used", "void" or
// "expired".
func (c *VouchConsent) State(now time.Time) string {
	switch {
	case c.UsedEntry != "":
		return "used"
	case c.Void:
		return "void"
	case !now.Before(c.Expires):
		return "expired"
	}
	return "open"
}

// Vouch is a vouch a person made without a pairing code, waiting for its
// operator to countersign it.
type Vouch struct {
	Operator   string
	Voucher    string // github:<ID> or card:<hex>
	Login      string // a GitHub account's login when it vouched; "" for a card
	VoucherSig string // the log's attestation
	At         time.Time
}

// RecoveryRequest is a vouched operator's request for a new key, waiting
// for the voucher to approve it on the operator's page, then for the new
// key to countersign the log's attestation. It is the node's record, never
// logged.
type RecoveryRequest struct {
	Operator  string
	KeyDigest string    // the new key's digest
	Key       string    // the new public key, as written
	Voucher   string    // github:<ID>, the account that vouched
	Since     uint64    // the request's since
	Entry     []byte    // the request as the new key signed it, canonical JSON
	Requested time.Time // when it was last sent
	Expires   time.Time // the approval's deadline; once approved, the countersignature's
	// Approved is when the voucher approved it, zero until then, and
	// VoucherSig the log's attestation of that approval.
	Approved   time.Time
	VoucherSig string
}

// State is where the request stands at now: waiting, approved or expired.
func (r RecoveryRequest) State(now time.Time) string {
	switch {
	case !now.Before(r.Expires):
		return "expired"
	case !r.Approved.IsZero():
		return "approved"
	}
	return "waiting"
}

// AccountRequest is an operator's request to be listed in a person's
// account.
type AccountRequest struct {
	Token     string // the digest of the secret the confirming link carries
	Operator  string
	Email     string // as signed
	EmailKey  string // operators.EmailKey(Email)
	Requested time.Time
	Expires   time.Time
	Confirmed time.Time // zero until the person confirms
}

// DomainWatch is a domain a person named from an agent's pairing link,
// which the node watches for the record that proves the agent's key.
type DomainWatch struct {
	Pairing  string // the consent's pairing digest
	Operator string
	Domain   string
	Started  time.Time
	Until    time.Time
}
