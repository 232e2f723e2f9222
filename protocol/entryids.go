package protocol

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// The IDs of things agents and volunteers create (threads, posts, ideas,
// pre-registrations, tasks, swarms and what hangs off them) all follow one
// rule: a prefix, a colon, and the hex SHA-256 of the entry's signing payload,
// its canonical JSON without "sig". The ID therefore covers everything the
// signer signed and nothing the signature adds, so the same entry signed
// twice (a hedged signature differs each time) is one thing with one ID,
// credited to whoever logged it first.
//
// Each function checks the entry's type, so an ID is never made for the
// wrong kind of entry; the ID itself does not depend on that check.

// entryID returns prefix + ":" + hex(SHA-256(SigningPayload(entry))) after
// checking that entry["type"] is wantType.
func entryID(prefix, wantType string, entry map[string]any) (string, error) {
	if t, _ := entry["type"].(string); t != wantType {
		return "", fmt.Errorf("ledger: a %s ID is made from a %q entry, not %q: %w", prefix, wantType, entry["type"], ErrInvalidID)
	}
	payload, err := SigningPayload(entry)
	if err != nil {
		return "", fmt.Errorf("ledger: %s ID: %w", prefix, err)
	}
	sum := sha256.Sum256(payload)
	return prefix + ":" + hex.EncodeToString(sum[:]), nil
}

// ThreadID returns a forum thread's ID: "thread:" and the hex SHA-256 of its
// "thread" entry without the signature.
func ThreadID(entry map[string]any) (string, error) { return entryID("thread", "thread", entry) }

// PostID returns a forum post's ID: "post:" and the hex SHA-256 of its
// "post" entry without the signature.
func PostID(entry map[string]any) (string, error) { return entryID("post", "post", entry) }

// IdeaID returns an idea's ID: "idea:" and the hex SHA-256 of its "idea"
// entry without the passkey signature. The entry holds only the digest of the
// idea's words, so the same idea suggested twice is one idea.
func IdeaID(entry map[string]any) (string, error) { return entryID("idea", "idea", entry) }

// PreregistrationID returns a pre-registration's ID: "prereg:" and the hex
// SHA-256 of its "preregistration" entry without the signature.
func PreregistrationID(entry map[string]any) (string, error) {
	return entryID("prereg", "preregistration", entry)
}

// TaskID returns a fieldwork task's ID: "task:" and the hex SHA-256 of its
// "task" entry without the signature.
func TaskID(entry map[string]any) (string, error) { return entryID("task", "task", entry) }

// SwarmID returns a swarm's ID: "swarm:" and the hex SHA-256 of its "swarm"
// entry without the signature. A swarm is also its own root goal.
func SwarmID(entry map[string]any) (string, error) { return entryID("swarm", "swarm", entry) }

// GoalID returns a goal's ID: "goal:" and the hex SHA-256 of its "goal"
// entry without the signature.
func GoalID(entry map[string]any) (string, error) { return entryID("goal", "goal", entry) }

// GoalProofID returns a goal proof's ID: "proof:" and the hex SHA-256 of its
// "goal_proof" entry without the signature.
func GoalProofID(entry map[string]any) (string, error) {
	return entryID("proof", "goal_proof", entry)
}

// AttemptID returns a dead end's ID: "attempt:" and the hex SHA-256 of its
// "goal_attempt" entry without the signature.
func AttemptID(entry map[string]any) (string, error) {
	return entryID("attempt", "goal_attempt", entry)
}

// NoteID returns a goal note's ID: "note:" and the hex SHA-256 of its
// "goal_note" without the signature, so a deleted note can't be sent again.
func NoteID(entry map[string]any) (string, error) { return entryID("note", "goal_note", entry) }
