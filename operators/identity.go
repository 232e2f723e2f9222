package operators

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/vocabulary"
)

// IdentityEntry is an identity entry that passed CheckIdentityEntry: its
// kind, the operator it is for, and what it rests on. The organization it
// counts as follows from that ("Identity"):
//
//   - domain: the registrable domain (RegistrableDomain(Domain));
//   - github: the repository owner's account, GitHubOrganization(its
//     numeric ID), which the node learns from GitHub;
//   - vouched: the voucher, "github:<ID>" or "card:<64 hex>";
//   - sponsored: the organization the sponsor counts as;
//   - invited: the operator itself.
type IdentityEntry struct {
	Kind       string
	Operator   string
	Domain     string // kind domain
	Repository string // kind github: owner/name
	Voucher    string // kind vouched
	// Pairing is a paired vouch's pairing digest: the operator consented
	// in advance (consent_sig) rather than countersigning (sig). "" for a
	// countersigned vouch.
	Pairing string
	Sponsor string // kind sponsored: the operator whose invite it uses
	Code    string // kind sponsored: the invite code
}

// Subject returns what the identity rests on: the domain, the repository,
// the voucher, or the sponsor; "" for an invitation.
func (e *IdentityEntry) Subject() string {
	switch e.Kind {
	case vocabulary.IdentityDomain:
		return e.Domain
	case vocabulary.IdentityGitHub:
		return e.Repository
	case vocabulary.IdentityVouched:
		return e.Voucher
	case vocabulary.IdentitySponsored:
		return e.Sponsor
	}
	return ""
}

// pairedShape keys identityShapes' shape of an identity the operator
// consented to in advance with a pairing code (a vouch, or a domain its
// person named from the link), which holds pairing and consent_sig in
// place of sig and the log's voucher_sig.
func pairedShape(kind string) string { return kind + "+pairing" }

// identityShapes are the members of each kind of identity entry an
// operator sends (or, for an invitation, the log signs), besides type and
// kind, as the reference library's IdentityEntrySchema holds them.
var identityShapes = map[string][]string{
	vocabulary.IdentityDomain:               {"operator", "domain", "sig"},
	vocabulary.IdentityGitHub:               {"operator", "repository", "sig"},
	vocabulary.IdentityVouched:              {"operator", "voucher", "voucher_sig", "sig"},
	pairedShape(vocabulary.IdentityVouched): {"operator", "voucher", "pairing", "consent_sig", "voucher_sig"},
	pairedShape(vocabulary.IdentityDomain):  {"operator", "domain", "pairing", "consent_sig", "voucher_sig"},
	vocabulary.IdentitySponsored:            {"operator", "sponsor", "code", "sponsor_sig", "sig"},
	vocabulary.IdentityInvited:              {"operator", "sig"},
}

// CheckIdentityEntry checks an identity entry's shape for operator, whose
// request it came with:
//
//	{"type": "identity", "kind": "domain", "operator", "domain", "sig"}
//	{"type": "identity", "kind": "domain", "operator", "domain", "pairing", "consent_sig", "voucher_sig"}
//	{"type": "identity", "kind": "github", "operator", "repository", "sig"}
//	{"type": "identity", "kind": "vouched", "operator", "voucher", "voucher_sig", "sig"}
//	{"type": "identity", "kind": "vouched", "operator", "voucher", "pairing", "consent_sig", "voucher_sig"}
//	{"type": "identity", "kind": "sponsored", "operator", "sponsor", "code", "sponsor_sig", "sig"}
//	{"type": "identity", "kind": "invited", "operator", "sig"}
//
// Identity steps name no model, so nothing else is allowed. It checks no
// signature: VerifyIdentityEntry does, once the keys are known.
func CheckIdentityEntry(entry map[string]any, operator string) (*IdentityEntry, error) {
	if entry == nil {
		return nil, fail(ErrMalformed, "", "the entry is a JSON object")
	}
	kind, _ := entry["kind"].(string)
	shapeKey := kind
	_, paired := entry["pairing"]
	if paired && (kind == vocabulary.IdentityVouched || kind == vocabulary.IdentityDomain) {
		shapeKey = pairedShape(kind)
	}
	shape, ok := identityShapes[shapeKey]
	if !ok || strings.HasSuffix(kind, "+pairing") {
		return nil, fail(ErrMalformed, "/kind", "kind is one of %s", strings.Join(vocabulary.IdentityKinds, ", "))
	}
	if err := members(entry, IdentityType, append([]string{"kind"}, shape...)); err != nil {
		return nil, err
	}
	if err := sameOperator(entry, "operator", operator); err != nil {
		return nil, err
	}
	e := &IdentityEntry{Kind: kind, Operator: operator}
	var err error
	switch kind {
	case vocabulary.IdentityDomain:
		if e.Domain, err = str(entry, "domain"); err == nil {
			err = CheckDomain(e.Domain)
		}
	case vocabulary.IdentityGitHub:
		if e.Repository, err = str(entry, "repository"); err == nil {
			err = CheckRepository(e.Repository)
		}
	case vocabulary.IdentityVouched:
		if e.Voucher, err = str(entry, "voucher"); err == nil && !IsVoucher(e.Voucher) {
			err = fail(ErrMalformed, "/voucher", "voucher is github:<numeric ID> or card:<64 hex digits>")
		}
	case vocabulary.IdentitySponsored:
		if e.Sponsor, err = str(entry, "sponsor"); err == nil {
			if !protocol.IsOperatorID(e.Sponsor) {
				err = fail(ErrMalformed, "/sponsor", "sponsor is an operator ID")
			} else if e.Sponsor == operator {
				err = fail(ErrInvalidInvite, "/sponsor", "an operator can't sponsor itself")
			}
		}
		if err == nil {
			if e.Code, err = str(entry, "code"); err == nil {
				err = CheckInviteCode(e.Code)
			}
		}
	}
	if err == nil && shapeKey != kind {
		if e.Pairing, err = str(entry, "pairing"); err == nil && !digestPattern.MatchString(e.Pairing) {
			err = fail(ErrMalformed, "/pairing", "pairing is sha256: and 64 lowercase hex digits, the SHA-256 of the pairing code")
		}
	}
	if err != nil {
		return nil, err
	}
	return e, nil
}

// IdentityKeys are the keys an identity entry's signatures are checked
// against: the operator's current key, which signs every kind but an
// invitation; the sponsor's current key, which signed the invite a
// sponsored identity countersigns (changing keys voids the codes the old
// key signed); and the log's key, which signs invitations and attests
// vouches.
type IdentityKeys struct {
	Operator string
	Sponsor  string
	Log      string
}

// VerifyIdentityEntry checks the signatures of an identity entry that
// passed CheckIdentityEntry: sig by the operator's key (by the log's for an
// invitation), a sponsored identity's sponsor_sig by the sponsor's key over
// the invite {type: "invite", sponsor, code}, and a vouch's voucher_sig by
// the log's key over the entry without its signatures (VouchPayload). A
// paired vouch or domain has no sig: the log's voucher_sig attests it
// (VouchPayload, PairedDomainPayload), and its consent_sig is the
// operator's key's signature over its consent (ConsentPayload).
func VerifyIdentityEntry(entry map[string]any, e *IdentityEntry, keys IdentityKeys) error {
	switch e.Kind {
	case vocabulary.IdentitySponsored:
		payload, err := InvitePayload(e.Sponsor, e.Code)
		if err != nil {
			return err
		}
		if sig, _ := entry["sponsor_sig"].(string); !hybrid.Verify(sig, payload, keys.Sponsor) {
			return fail(ErrBadSignature, "/sponsor_sig", "sponsor_sig is not the sponsor's current key's signature over the invite; the code may be void")
		}
	case vocabulary.IdentityVouched:
		payload, err := VouchPayload(e.Operator, e.Voucher, e.Pairing)
		if err != nil {
			return err
		}
		if sig, _ := entry["voucher_sig"].(string); !hybrid.Verify(sig, payload, keys.Log) {
			return fail(ErrBadSignature, "/voucher_sig", "voucher_sig is not the log's attestation of the vouch")
		}
		if e.Pairing != "" {
			return verifyConsent(entry, e, keys)
		}
	case vocabulary.IdentityDomain:
		if e.Pairing != "" {
			payload, err := PairedDomainPayload(e.Operator, e.Domain, e.Pairing)
			if err != nil {
				return err
			}
			if sig, _ := entry["voucher_sig"].(string); !hybrid.Verify(sig, payload, keys.Log) {
				return fail(ErrBadSignature, "/voucher_sig", "voucher_sig is not the log's attestation that the pairing code's holder named the domain")
			}
			return verifyConsent(entry, e, keys)
		}
	case vocabulary.IdentityInvited:
		return verify(entry, keys.Log)
	}
	return verify(entry, keys.Operator)
}

// verifyConsent checks a paired identity's consent_sig: the operator's
// key's signature over its consent to the pairing code.
func verifyConsent(entry map[string]any, e *IdentityEntry, keys IdentityKeys) error {
	consent, err := ConsentPayload(e.Operator, e.Pairing)
	if err != nil {
		return err
	}
	if sig, _ := entry["consent_sig"].(string); !hybrid.Verify(sig, consent, keys.Operator) {
		return fail(ErrBadSignature, "/consent_sig", "consent_sig is not the operator's current key's signature over its consent")
	}
	return nil
}

// SignInvitation returns the identity entry the node logs to invite an
// operator while the network is seeded, {type: "identity", kind:
// "invited", operator, sig}, signed by the log's key. The operator counts
// as its own organization.
func SignInvitation(operator string, logKey *hybrid.PrivateKey) (map[string]any, error) {
	if !protocol.IsOperatorID(operator) {
		return nil, fail(ErrMalformed, "/operator", "%q is not an operator ID", operator)
	}
	entry := map[string]any{"type": IdentityType, "kind": vocabulary.IdentityInvited, "operator": operator}
	if err := protocol.Sign(entry, logKey); err != nil {
		return nil, err
	}
	return entry, nil
}

var domainPattern = regexp.MustCompile(`^[a-z0-9-]+(\.[a-z0-9-]+)+$`)

// CheckDomain checks a domain as an identity entry names it: a lowercase
// domain name of at least two labels (letters, digits and hyphens, 1 to 63
// each, punycode for others), at most 253 characters, under a public
// suffix (RegistrableDomain). Signed entries are checked, never rewritten,
// so "Example.org" is refused rather than lowered.
func CheckDomain(domain string) error {
	if len(domain) > 253 || !domainPattern.MatchString(domain) {
		return fail(ErrInvalidDomain, "/domain", "a domain is a lowercase name such as example.org")
	}
	for _, label := range strings.Split(domain, ".") {
		if len(label) > 63 {
			return fail(ErrInvalidDomain, "/domain", "a label of a domain is at most 63 characters")
		}
	}
	_, err := RegistrableDomain(domain)
	return err
}

// RegistrableDomain returns the organization a domain counts as: its
// registrable domain, one label under its public suffix, so
// lab.example.org and example.org are one organization, example.org.
//
// Only the ICANN section of the Public Suffix List counts. A subdomain a
// shared service gives out (a free dynamic DNS name, a hosting service's
// name) counts as that service's domain, one organization with everyone
// else who uses it, as the instructions say; publicsuffix's
// EffectiveTLDPlusOne, which honours the list's private section, would
// make each such name an organization of its own. A domain that is itself
// a public suffix, or under no ICANN suffix, is refused.
func RegistrableDomain(domain string) (string, error) {
	suffix, icann := publicsuffix.PublicSuffix(domain)
	for !icann {
		// A private suffix (duckdns.org, github.io): go up to the ICANN
		// suffix it is registered under.
		i := strings.IndexByte(suffix, '.')
		if i < 0 {
			return "", fail(ErrInvalidDomain, "/domain", "%s is under no public top-level domain", domain)
		}
		suffix, icann = publicsuffix.PublicSuffix(suffix[i+1:])
	}
	if domain == suffix || !strings.HasSuffix(domain, "."+suffix) {
		return "", fail(ErrInvalidDomain, "/domain", "%s is a public suffix, not a domain of one organization", domain)
	}
	rest := domain[:len(domain)-len(suffix)-1]
	return rest[strings.LastIndexByte(rest, '.')+1:] + "." + suffix, nil
}

// DomainRecord returns the name whose TXT record proves domain:
// _sciencejournal.<domain>.
func DomainRecord(domain string) string {
	return vocabulary.DomainRecordName + "." + domain
}

// ProofLine returns what proves a key: the TXT record's value, and a line
// of a repository's .sciencejournal file, sciencejournal-operator=<key
// digest>.
func ProofLine(keyDigest string) string {
	return vocabulary.ProofPrefix + keyDigest
}

// TXTProves reports whether any of a domain record's TXT records names the
// key whose digest is keyDigest. Each record is given whole, its strings
// joined, as net.Resolver.LookupTXT gives it. Surrounding whitespace and
// quotes, and the case of the hex, are forgiven.
func TXTProves(records []string, keyDigest string) bool {
	want := ProofLine(keyDigest)
	for _, r := range records {
		if strings.EqualFold(strings.Trim(strings.TrimSpace(r), `"`), want) {
			return true
		}
	}
	return false
}

// GitHubFileProves reports whether a .sciencejournal file names the key
// whose digest is keyDigest: one of its lines, surrounding whitespace
// aside, is sciencejournal-operator=<digest>. One line per key, so several
// operators can share a file; other lines are ignored.
func GitHubFileProves(content []byte, keyDigest string) bool {
	want := []byte(ProofLine(keyDigest))
	for line := range bytes.Lines(bytes.TrimPrefix(content, []byte("\uFEFF"))) {
		if bytes.EqualFold(bytes.TrimSpace(line), want) {
			return true
		}
	}
	return false
}

var repositoryPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$`)

// CheckRepository checks a GitHub repository as an identity entry names
// it: owner/name, the owner as GitHub allows account names, the name of
// letters, digits, ".", "_" and "-" (never "." or ".."), at most 140
// characters.
func CheckRepository(repo string) error {
	if len(repo) > 140 || !repositoryPattern.MatchString(repo) {
		return fail(ErrInvalidRepository, "/repository", "a repository is owner/name, such as example-lab/agents")
	}
	if name := repo[strings.IndexByte(repo, '/')+1:]; name == "." || name == ".." {
		return fail(ErrInvalidRepository, "/repository", "%q is not a repository name", name)
	}
	return nil
}

// GitHubOrganization returns the organization a GitHub account counts as:
// github:<its numeric ID>, which GitHub never changes or gives to another
// account, unlike its login.
func GitHubOrganization(accountID int64) string {
	return "github:" + strconv.FormatInt(accountID, 10)
}

var (
	githubAccountPattern = regexp.MustCompile(`^github:[1-9][0-9]{0,15}$`)
	cardPattern          = regexp.MustCompile(`^card:[0-9a-f]{64}$`)
)

// IsGitHubOrganization reports whether s is of GitHubOrganization's form.
func IsGitHubOrganization(s string) bool { return githubAccountPattern.MatchString(s) }

// IsVoucher reports whether s names who can vouch: a GitHub account,
// github:<ID>, or a card, card:<64 hex digits>.
func IsVoucher(s string) bool {
	return githubAccountPattern.MatchString(s) || cardPattern.MatchString(s)
}

// CheckGitHubAccountAge checks that a GitHub account made at created is at
// least 90 days old at now, so fresh accounts can't stand in for
// organizations.
func CheckGitHubAccountAge(created, now time.Time) error {
	if now.Sub(created) < vocabulary.GitHubMinAge {
		return fail(ErrAccountTooNew, "/repository", "the account that owns the repository was made %s; it must be at least 90 days old",
			created.UTC().Format(time.DateOnly))
	}
	return nil
}
