package tlog

import (
	"context"
	"fmt"

	"github.com/agora-node/agora/canonical"
)

// LeafBytes returns a leaf's bytes in the tree: the canonical JSON of the
// leaf the log holds, {timestamp, operator or observer, entry, ...}, whose
// entry has each signature replaced by its digest (ledger detaches them).
func LeafBytes(leaf map[string]any) ([]byte, error) {
	b, err := canonical.Marshal(leaf)
	if err != nil {
		return nil, malformed("leaf: %w", err)
	}
	return b, nil
}

// A Receipt proves that a log holds an entry: the leaf at Index, its hash,
// a tree head the log signed, and the inclusion proof of the leaf in that
// tree. Written as JSON it is {log, index, leaf, leaf_hash, tree_head,
// inclusion_proof}, and, as a node serves it, copies.
type Receipt struct {
	Log            string
	Index          uint64
	Leaf           map[string]any
	LeafHash       Hash
	TreeHead       TreeHead
	InclusionProof []Hash
	// Copies is where the node says other logs hold the same entry. No
	// signature covers it and VerifyReceipt does not read it. Nil leaves
	// it out of the JSON.
	Copies []Copy
}

// A Copy names where another log holds an entry.
type Copy struct {
	Log   string
	Index uint64
}

// NewReceipt builds the receipt for the leaf at index under the signed
// head, with the proof read from r, and checks the proof before returning.
func NewReceipt(ctx context.Context, r SubtreeReader, head TreeHead, index uint64, leaf map[string]any) (*Receipt, error) {
	b, err := LeafBytes(leaf)
	if err != nil {
		return nil, err
	}
	hash := LeafHash(b)
	proof, err := InclusionProof(ctx, r, index, head.Size)
	if err != nil {
		return nil, err
	}
	if err := VerifyInclusion(index, head.Size, hash, proof, head.Root); err != nil {
		return nil, fmt.Errorf("the stored tree does not hold this leaf at %d under the head: %w", index, err)
	}
	return &Receipt{
		Log:            head.Log,
		Index:          index,
		Leaf:           leaf,
		LeafHash:       hash,
		TreeHead:       head,
		InclusionProof: proof,
	}, nil
}

// VerifyReceipt checks a receipt against the log's public key, as the
// reference library does: the tree head names the receipt's log, the key
// signed the tree head, the leaf hashes to LeafHash, and the proof places
// that leaf at Index in the signed tree. It does not compare the log's ID
// with the key's: the tree head's signature already ties the head to the
// key.
func VerifyReceipt(r *Receipt, logPublicKey string) error {
	head := r.TreeHead
	if head.Log != r.Log {
		return unverified("the receipt is for %s, but its tree head names %s", r.Log, head.Log)
	}
	if err := VerifyTreeHead(head, logPublicKey); err != nil {
		return err
	}
	b, err := LeafBytes(r.Leaf)
	if err != nil {
		return err
	}
	if hash := LeafHash(b); hash != r.LeafHash {
		return unverified("the leaf hashes to %v, not to the receipt's leaf_hash %v", hash, r.LeafHash)
	}
	if err := VerifyInclusion(r.Index, head.Size, r.LeafHash, r.InclusionProof, head.Root); err != nil {
		return unverified("entry %d is not proven in the signed tree of %d: %w", r.Index, head.Size, err)
	}
	return nil
}

// ParseReceipt reads a receipt from JSON text, strictly: the text is
// I-JSON, the receipt and its tree head have exactly their members (copies
// optional), positions are safe integers and hashes 64 lowercase hex digits.
// The leaf must be an object with a string timestamp and an entry object
// with a string type; its other members are the log's to choose.
func ParseReceipt(data []byte) (*Receipt, error) {
	v, err := canonical.Parse(data)
	if err != nil {
		return nil, malformed("receipt: %w", err)
	}
	o, err := closedObject(v, "receipt", []string{"log", "index", "leaf", "leaf_hash", "tree_head", "inclusion_proof"}, "copies")
	if err != nil {
		return nil, err
	}
	r := &Receipt{}
	if r.Log, err = o.string("log"); err != nil {
		return nil, err
	}
	if r.Index, err = o.position("index"); err != nil {
		return nil, err
	}
	if r.Leaf, err = o.object("leaf"); err != nil {
		return nil, err
	}
	if err := checkLeaf(r.Leaf); err != nil {
		return nil, err
	}
	if r.LeafHash, err = o.hash("leaf_hash"); err != nil {
		return nil, err
	}
	if r.TreeHead, err = treeHeadFrom(o.m["tree_head"], "receipt: tree_head"); err != nil {
		return nil, err
	}
	proof, err := o.strings("inclusion_proof")
	if err != nil {
		return nil, err
	}
	if r.InclusionProof, err = ParseHashes(proof); err != nil {
		return nil, malformed("receipt: inclusion_proof: %w", err)
	}
	if o.has("copies") {
		if r.Copies, err = copiesFrom(o.m["copies"]); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func checkLeaf(leaf map[string]any) error {
	o := object{what: "receipt: leaf", m: leaf}
	if _, err := o.string("timestamp"); err != nil {
		return err
	}
	entry, err := o.object("entry")
	if err != nil {
		return err
	}
	if _, err := (object{what: "receipt: leaf: entry", m: entry}).string("type"); err != nil {
		return err
	}
	return nil
}

func copiesFrom(v any) ([]Copy, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, malformed("receipt: \"copies\" is not an array")
	}
	copies := make([]Copy, len(arr))
	for i, c := range arr {
		o, err := closedObject(c, fmt.Sprintf("receipt: copies[%d]", i), []string{"log", "index"})
		if err != nil {
			return nil, err
		}
		if copies[i].Log, err = o.string("log"); err != nil {
			return nil, err
		}
		if copies[i].Index, err = o.position("index"); err != nil {
			return nil, err
		}
	}
	return copies, nil
}

// Object returns r as the JSON object the protocol writes.
func (r *Receipt) Object() map[string]any {
	obj := map[string]any{
		"log":             r.Log,
		"index":           r.Index,
		"leaf":            r.Leaf,
		"leaf_hash":       r.LeafHash.String(),
		"tree_head":       r.TreeHead.Object(),
		"inclusion_proof": HashStrings(r.InclusionProof),
	}
	if r.Copies != nil {
		copies := make([]any, len(r.Copies))
		for i, c := range r.Copies {
			copies[i] = map[string]any{"log": c.Log, "index": c.Index}
		}
		obj["copies"] = copies
	}
	return obj
}

// MarshalJSON writes r as canonical JSON.
func (r *Receipt) MarshalJSON() ([]byte, error) { return canonical.Marshal(r.Object()) }
