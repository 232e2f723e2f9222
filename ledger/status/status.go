// Package status derives every claim's statuses, hallmarks and
// requirements from the log alone (spec/ledger-protocol.md, sections
// "Statuses", "Hallmarks", "Challenging a claim", "Correcting a bundle"
// and "Retracting a paper"), so anyone
// holding the log and the files its entries digest gets the same answer
// as the node that serves them.
//
// A Deriver reads the log's leaves in order (Add) and answers for any
// claim at any moment (Claim): the node feeds it each leaf as the log
// grows, and agora status feeds it a whole log fetched over HTTP. It keeps
// no storage and serves nothing; the only thing it reads besides the
// leaves is the manifest and claims of each bundle that opens, through
// the Files it is given, since a leaf names a bundle by its hash and not
// its contents.
//
// What the log decides here:
//
//   - Published: the bundle entry that revealed the claim's bundle, not
//     withdrawn since.
//   - Reproduced, and its failure: reproductions from organizations other
//     than the authors', one vote each with its first verdict,
//     could_not_run no vote.
//   - Formally verified, and its rejection: proof checks, counted the same
//     way.
//   - Reviewed: the three reviews of one version, from organizations
//     other than the authors' and families that did not write it, with a
//     favourable median; reproduced first when the claim computes.
//   - Replicated: a replication claim in another organization's bundle
//     that depends on it, matched by two organizations and mismatched by
//     none.
//   - Contested: a challenge to it is open (challenges.go).
//   - Refuted: a failed reproduction its author did not correct away
//     within CorrectWithin, or an upheld challenge; final either way.
//   - Unavailable: every bundle that held it was withdrawn.
//   - Retracted: its paper's author retracted any version of it
//     (retractions.go); it overrides the hallmarks, Refuted beside it.
//
// Addenda, which change no claim, are derived beside them (addenda.go).
package status

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/vocabulary"
)

// CorrectWithin is how long after its reproduction fails an author has to
// correct a claim away before it is Refuted ("Statuses").
const CorrectWithin = 30 * 24 * time.Hour

// Files reads a file of a bundle the log opened, by the bundle's hash and
// the file's path in it ("manifest.json", "claims.json"). An error means
// the file cannot be had (a withdrawn bundle's files are no longer
// served): the bundle's claims are then known by their IDs only, and earn
// no hallmark that needs their evidence.
type Files func(bundle, path string) ([]byte, error)

// Deriver holds what the leaves added so far say about claims.
type Deriver struct {
	files   Files
	next    uint64
	last    time.Time
	orgs    map[string]string // operator → the organization its latest identity counts as
	bundles map[string]*bundleState
	claims  map[string]*claimState
	// pending are claims whose reproduction has failed, waiting for their
	// correct_by to pass.
	pending map[string]bool
	// everFailed are the claims whose reproduction failed at some point.
	everFailed map[string]bool
	// challenges are the challenges logged, by index; openChallenges those
	// not yet settled or void.
	challenges     map[uint64]*challengeState
	openChallenges map[uint64]bool
	// retractions are the retracted papers, by the hash of their first
	// version; retractionOrder the same in log order.
	retractions     map[string]*Retraction
	retractionOrder []string
	preregs         map[string]*Preregistration // by ID
	addenda         *addendumBook               // addenda.go; nil until one is read
	// papers are the versions of each paper, by its first version's hash;
	// byAuthor the bundles of each author.
	papers   map[string][]*bundleState
	byAuthor map[string][]*bundleState
	// The status index (index.go): the claims to recompute, and each
	// claim's statuses and each status's claims as last computed.
	dirty     map[string]bool
	held      map[string][]string
	byStatus  map[string]map[string]bool
	indexedAt time.Time // the moment the index was last brought up to
}

type bundleState struct {
	hash       string
	author     string
	authorOrg  string
	families   []string
	opened     uint64
	openedAt   time.Time
	replaces   string
	paper      string // the hash of its paper's first version
	withdrawn  bool
	withdrawal uint64
	claims     []string
	known      bool              // its manifest and claims were read
	prereg     map[string]string // claim → the registration it reports for it
	// citations are citation checks' verdicts by source, by organization.
	citations map[string]map[string]string
}

type claimState struct {
	id        string
	bundles   []*bundleState // every opened bundle holding it, in log order
	typ       string
	computes  bool
	proves    bool
	measures  bool
	dependsOn []string
	votes     []Vote
	// replications are the replication claims that depend on it.
	replications []string

	failedSince time.Time // when its reproduction last came to have failed
	failedIndex uint64
	refuted     bool
	refutedAt   time.Time
	refutedBy   uint64 // the upheld challenge that refuted it; 0 for a failed reproduction
	challenges  []uint64
	correctedBy string // the opened correction that changed or dropped it
	correctedAt time.Time
}

// Vote is one verdict an attestation gave a claim.
type Vote struct {
	Index        uint64 // the attestation's log index
	Signed       uint64 // where the key that signed it is read: Index, or the commitment it was revealed from
	Disowned     bool   // its verifier's recovery disowned it (disown.go): it counts for no one
	Job          string // its kind: reproduction, methods_review, ...
	Bundle       string // the bundle it was given on
	Verifier     string
	Organization string // "" when the verifier had no identity
	ModelFamily  string
	Verdict      string
}

// New returns a Deriver over an empty log, reading bundle files with
// files.
func New(files Files) *Deriver {
	return &Deriver{files: files, orgs: map[string]string{}, bundles: map[string]*bundleState{},
		claims: map[string]*claimState{}, pending: map[string]bool{}, everFailed: map[string]bool{},
		challenges: map[uint64]*challengeState{}, openChallenges: map[uint64]bool{},
		retractions: map[string]*Retraction{}, preregs: map[string]*Preregistration{},
		papers: map[string][]*bundleState{}, byAuthor: map[string][]*bundleState{}, dirty: map[string]bool{}, held: map[string][]string{}, byStatus: map[string]map[string]bool{}}
}

// Size is the number of leaves added: the index Add expects next.
func (d *Deriver) Size() uint64 { return d.next }

// Add reads the leaf at index, which must be Size: leaves are read in log
// order, each once. A leaf it cannot parse is an error and is not added.
func (d *Deriver) Add(index uint64, leaf []byte) error {
	if index != d.next {
		return fmt.Errorf("status: leaf %d added when %d is next", index, d.next)
	}
	obj, entry, at, err := ParseLeaf(leaf)
	if err != nil {
		return fmt.Errorf("status: leaf %d: %w", index, err)
	}
	d.next++
	if at.After(d.last) {
		d.last = at
	}
	d.settle(d.last)
	switch entry["type"] {
	case "identity":
		op, _ := obj["operator"].(string)
		if org, _ := obj["organization"].(string); op != "" && org != "" {
			d.orgs[strings.Clone(op)] = strings.Clone(org)
		}
	case "bundle":
		if _, revealed := obj["sealed"]; revealed {
			d.open(index, at, obj, entry)
		}
	case "attestation":
		d.attest(index, obj, entry)
	case "withdrawal":
		d.withdraw(index, entry)
		d.addendumWithdrawal(entry)
	case "challenge":
		d.challenge(index, at, entry)
	case "challenge_review":
		d.challengeReview(index, signedAt(index, obj), entry)
	case "key_recovery":
		d.disown(index, obj, entry)
	case "retraction":
		d.retract(index, at, entry)
	case "preregistration":
		d.preregister(index, at, entry)
	case "citation_check":
		d.citationCheck(entry)
	case "addendum":
		d.addendum(index, at, entry)
	case "addendum_screen":
		d.addendumScreen(index, entry)
	}
	return nil
}

// ParseLeaf reads a log leaf: the leaf object, its entry, and when it
// was logged.
func ParseLeaf(leaf []byte) (obj, entry map[string]any, at time.Time, err error) {
	v, err := canonical.Parse(leaf)
	if err != nil {
		return nil, nil, time.Time{}, err
	}
	obj, _ = v.(map[string]any)
	entry, _ = obj["entry"].(map[string]any)
	if obj == nil || entry == nil {
		return nil, nil, time.Time{}, errNoEntry
	}
	stamp, _ := obj["timestamp"].(string)
	at, err = tlog.ParseTimestamp(stamp)
	return obj, entry, at, err
}

var errNoEntry = errors.New("it holds no entry")

// organization is what op counts as now: its identity's organization, ""
// without one.
func (d *Deriver) organization(op string) string { return d.orgs[op] }

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, item := range list {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// open reads a bundle entry that revealed a bundle.
func (d *Deriver) open(index uint64, at time.Time, leaf, entry map[string]any) {
	hash, _ := entry["bundle"].(string)
	if hash == "" || d.bundles[hash] != nil {
		return
	}
	b := &bundleState{hash: strings.Clone(hash), opened: index, openedAt: at, claims: keptList(leaf["claims"])}
	b.author, _ = leaf["operator"].(string)
	b.replaces, _ = leaf["replaces"].(string)
	b.author, b.replaces = strings.Clone(b.author), strings.Clone(b.replaces)
	b.paper = b.hash
	if old := d.bundles[b.replaces]; old != nil {
		b.paper = old.paper
	}
	d.papers[b.paper] = append(d.papers[b.paper], b)
	d.byAuthor[b.author] = append(d.byAuthor[b.author], b)
	// An author without an identity counts as an organization of its own,
	// as the round that assigned its checks took it.
	b.authorOrg = d.organization(b.author)
	if b.authorOrg == "" {
		b.authorOrg = b.author
	}
	d.bundles[b.hash] = b
	facts := d.readFacts(b)
	for i, id := range b.claims {
		c := d.claim(id)
		c.bundles = append(c.bundles, b)
		if f, ok := facts[i]; ok && b.known {
			c.typ, c.computes, c.proves, c.measures = f.typ, f.computes, f.proves, f.measures
			c.dependsOn = f.dependsOn
			if f.typ == "replication" {
				for _, dep := range f.dependsOn {
					o := d.claim(dep)
					if !slices.Contains(o.replications, id) {
						o.replications = append(o.replications, id)
					}
				}
			}
		}
	}
	d.touch(b.claims...)
	if old := d.bundles[b.replaces]; old != nil {
		d.touch(old.claims...)
		for _, id := range old.claims {
			if slices.Contains(b.claims, id) {
				continue
			}
			c := d.claims[id]
			if c.correctedBy == "" {
				c.correctedBy, c.correctedAt = hash, at
			}
		}
	}
}

func (d *Deriver) claim(id string) *claimState {
	c := d.claims[id]
	if c == nil {
		c = &claimState{id: id}
		d.claims[id] = c
	}
	return c
}

// claimFacts is what claims.json says of one claim.
type claimFacts struct {
	typ       string
	computes  bool
	proves    bool
	measures  bool
	dependsOn []string // global claim IDs
}

// readFacts reads b's manifest (the families that wrote it) and claims
// (each claim's type, evidence and dependencies, by its place in
// claims.json, which is its place in the leaf's list).
func (d *Deriver) readFacts(b *bundleState) map[int]claimFacts {
	if d.files == nil {
		return nil
	}
	manifest, err := d.files(b.hash, "manifest.json")
	if err != nil {
		return nil
	}
	list, err := d.files(b.hash, "claims.json")
	if err != nil {
		return nil
	}
	mv, err := canonical.Parse(manifest)
	if err != nil {
		return nil
	}
	m, _ := mv.(map[string]any)
	b.families = keptList(m["model_families"])
	cv, err := canonical.Parse(list)
	if err != nil {
		return nil
	}
	items, _ := cv.([]any)
	local := map[string]string{}
	for i, item := range items {
		obj, _ := item.(map[string]any)
		if id, _ := obj["local_id"].(string); id != "" && i < len(b.claims) {
			local[id] = b.claims[i]
		}
	}
	d.readReported(b, local)
	out := map[int]claimFacts{}
	for i, item := range items {
		obj, _ := item.(map[string]any)
		if obj == nil || i >= len(b.claims) {
			continue
		}
		var f claimFacts
		f.typ, _ = obj["type"].(string)
		f.typ = strings.Clone(f.typ)
		for _, e := range asList(obj["evidence"]) {
			ev, _ := e.(map[string]any)
			if _, ok := ev["produced_by"]; ok {
				f.computes = true
			}
			if _, ok := ev["proof"]; ok {
				f.proves = true
			}
			if _, ok := ev["measured"]; ok {
				f.measures = true
			}
		}
		for _, dep := range keptList(obj["depends_on"]) {
			if g, ok := local[dep]; ok {
				f.dependsOn = append(f.dependsOn, g)
			} else if claims.IsClaimID(dep) {
				f.dependsOn = append(f.dependsOn, dep)
			}
		}
		out[i] = f
	}
	b.known = true
	return out
}

// keptList is stringList for strings the Deriver keeps: each is copied
// out of the parsed leaf, whose strings share one buffer (canonical.Parse),
// so that a claim ID kept for good does not keep its whole leaf too.
func keptList(v any) []string {
	out := stringList(v)
	for i, s := range out {
		out[i] = strings.Clone(s)
	}
	return out
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}

// attest reads an attestation: each of its verdicts is a vote on a claim.
func (d *Deriver) attest(index uint64, leaf, entry map[string]any) {
	job, _ := entry["job"].(string)
	if _, ok := jobVerdicts(job); !ok {
		return
	}
	verifier, _ := entry["verifier"].(string)
	bundle, _ := entry["bundle"].(string)
	family, _ := entry["model_family"].(string)
	verdicts, _ := entry["claims"].(map[string]any)
	ids := make([]string, 0, len(verdicts))
	for id := range verdicts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		verdict, _ := verdicts[id].(string)
		c := d.claims[id]
		if c == nil {
			continue // a claim the log never opened
		}
		c.votes = append(c.votes, Vote{Index: index, Signed: signedAt(index, leaf), Job: strings.Clone(job), Bundle: strings.Clone(bundle), Verifier: strings.Clone(verifier),
			Organization: d.organization(verifier), ModelFamily: strings.Clone(family), Verdict: strings.Clone(verdict)})
		d.touch(id)
		if job == "reproduction" {
			d.noteReproduction(c, index)
		}
	}
}

func jobVerdicts(job string) ([]string, bool) {
	for _, j := range vocabulary.AttestationJobs {
		if j.Job == job {
			return j.Verdicts, true
		}
	}
	return nil, false
}

// noteReproduction follows whether c's reproduction has failed after a
// new reproduction vote: from the moment it fails its correct_by runs,
// and a failure that stops holding (an appeal's reproductions) stops it.
func (d *Deriver) noteReproduction(c *claimState, index uint64) {
	if c.refuted {
		return
	}
	t := d.tally(c, "reproduction", "reproduced", "mismatch")
	failed := t.failed()
	switch {
	case failed && c.failedSince.IsZero():
		c.failedSince, c.failedIndex = d.last, index
		d.pending[c.id] = true
		d.everFailed[c.id] = true
	case !failed && !c.failedSince.IsZero():
		c.failedSince, c.failedIndex = time.Time{}, 0
		delete(d.pending, c.id)
	}
}

// settle makes final every failed claim whose correct_by has passed by
// now with no correction that changed it: Refuted is final for a claim ID.
func (d *Deriver) settle(now time.Time) {
	d.voidChallenges(now)
	for id := range d.pending {
		c := d.claims[id]
		deadline := c.failedSince.Add(CorrectWithin)
		if now.Before(deadline) {
			continue
		}
		delete(d.pending, id)
		if c.correctedBy != "" && c.correctedAt.Before(deadline) {
			continue
		}
		c.refuted, c.refutedAt = true, deadline
		d.touch(id)
	}
}

// withdraw reads a withdrawal of a bundle the log opened.
func (d *Deriver) withdraw(index uint64, entry map[string]any) {
	hash, _ := entry["bundle"].(string)
	b := d.bundles[hash]
	if b == nil || b.withdrawn {
		return
	}
	b.withdrawn, b.withdrawal = true, index
	d.touch(b.claims...)
	// A withdrawn correction no longer stands: the claims it dropped are
	// not corrected away by it.
	if old := d.bundles[b.replaces]; old != nil {
		for _, id := range old.claims {
			if c := d.claims[id]; c.correctedBy == hash {
				c.correctedBy, c.correctedAt = "", time.Time{}
				d.touch(id)
			}
		}
	}
}

// Derive reads a whole log, its leaves in order from index 0, and answers
// for every claim it opened as of now.
func Derive(leaves [][]byte, files Files, now time.Time) (map[string]Claim, error) {
	d := New(files)
	for i, leaf := range leaves {
		if err := d.Add(uint64(i), leaf); err != nil {
			return nil, err
		}
	}
	out := make(map[string]Claim, len(d.claims))
	for _, id := range d.IDs() {
		out[id], _ = d.Claim(id, now)
	}
	return out, nil
}

// EverFailed lists, in ID order, the claims whose reproduction failed at
// some point, refuted since or not: the claims an appeal may be for.
func (d *Deriver) EverFailed() []string {
	out := make([]string, 0, len(d.everFailed))
	for id := range d.everFailed {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
