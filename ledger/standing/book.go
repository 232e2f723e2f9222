// Package standing derives each operator's nectar, reputation, limits,
// badges and place from the log (spec/ledger-protocol.md, sections
// "Nectar" and "Reputation"), the way package status derives claims'
// statuses: anyone holding the log, the files its entries digest and the
// importance scores a node publishes for its claims gets the same answer
// as the node that serves them.
//
// A Book reads the log's leaves in order (Add), keeping only what claims'
// statuses do not already say: when each entry was logged and who
// answered which job. Sheet then accounts for every operator as of a
// moment, from the Book and a status.Deriver fed the same leaves, and a
// claim's importance, which the spec keeps off the log (ratings are
// requests to a node, not entries) and a node publishes with each claim.
//
// What is counted, and when:
//
//   - Nectar, published: each paper (a bundle with its corrections) earns
//     its author the importance of its most important claim that is
//     established (Reproduced, Replicated or Formally verified, none of
//     them overridden), from the moment its importance is revealed and
//     the hallmark is met, whichever is later; a later, more important
//     claim earns the difference then.
//   - Nectar, refuted: each refuted claim of the author's whose importance
//     is revealed takes it away, when it is refuted.
//   - Nectar, settled: each bundle of another organization's whose claims
//     an operator's work settled, either way, earns it 10% of the most
//     important claim it settled there, rounded: its organization's first
//     reproduction or proof check on the winning side, its replication
//     that matched, or its challenge upheld.
//   - Nectar, retracted and share: an editors' retraction and swarm
//     shares; this node's log records neither, so both are 0.
//   - Reputation: the events the spec lists that the log records (claims
//     reproduced, replicated and refuted; challenges upheld and rejected;
//     reproduction verdicts confirmed and contradicted; another
//     organization's checked claim built on a claim), each once, and the
//     daily limits that follow from the score. Canaries and hazard panels
//     are the node's records, not the log's, and forums, swarms and
//     addendum-screen votes are not counted yet: their parts are 0.
//   - Badges count jobs finished (attestations logged), verdicts confirmed,
//     claims reproduced and challenges upheld.
//
// Every nectar change is an Event, dated, so that a team sums what its
// members earned while on it.
package standing

import (
	"fmt"
	"slices"
	"time"

	"github.com/agora-node/agora/ledger/status"
)

// Book holds what the leaves added so far say of who did what, when.
type Book struct {
	next  uint64
	times []int64 // each leaf's timestamp, Unix nanoseconds, by index
	// attested are the times of each verifier's attestations, in log
	// order.
	attested map[string][]int64
}

// New returns a Book over an empty log.
func New() *Book { return &Book{attested: map[string][]int64{}} }

// Size is the number of leaves added: the index Add expects next.
func (b *Book) Size() uint64 { return b.next }

// Add reads the leaf at index, which must be Size: leaves are read in log
// order, each once.
func (b *Book) Add(index uint64, leaf []byte) error {
	if index != b.next {
		return fmt.Errorf("standing: leaf %d added when %d is next", index, b.next)
	}
	_, entry, at, err := status.ParseLeaf(leaf)
	if err != nil {
		return fmt.Errorf("standing: leaf %d: %w", index, err)
	}
	b.next++
	b.times = append(b.times, at.UnixNano())
	if entry["type"] == "attestation" {
		if verifier, _ := entry["verifier"].(string); verifier != "" {
			b.attested[verifier] = append(b.attested[verifier], at.UnixNano())
		}
	}
	return nil
}

// At is when the leaf at index was logged; zero past the last leaf.
func (b *Book) At(index uint64) time.Time {
	if index >= uint64(len(b.times)) {
		return time.Time{}
	}
	return time.Unix(0, b.times[index]).UTC()
}

// AttestationsSince counts operator op's attestations logged after since.
func (b *Book) AttestationsSince(op string, since time.Time) int {
	times := b.attested[op]
	i, _ := slices.BinarySearch(times, since.UnixNano()+1)
	return len(times) - i
}

// Attestations counts every attestation operator op logged.
func (b *Book) Attestations(op string) int { return len(b.attested[op]) }
