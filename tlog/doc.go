// Package tlog is the sciencejournal protocol's transparency log: its Merkle
// tree, the proofs over it, and the signed objects and texts a log publishes
// about it, byte for byte as the protocol's reference library writes and
// checks them.
//
// The tree is the one RFC 9162 (Certificate Transparency 2.0), section 2.1,
// defines: a leaf hashes as SHA-256(0x00 ‖ leaf), an interior node as
// SHA-256(0x01 ‖ left ‖ right), and the empty tree as SHA-256 of nothing.
// InclusionProof and ConsistencyProof build the section 2.1.3 and 2.1.4
// proofs from the perfect subtrees a log stores (a [SubtreeReader]);
// VerifyInclusion and VerifyConsistency check them, refusing everything the
// protocol's conformance vectors refuse.
//
// A log's leaves are canonical JSON (see package canonical) of objects
// {timestamp, operator or observer, entry, ...} whose entry has its
// signatures already detached (package ledger does that). After each append
// the log signs a [TreeHead] with its hybrid key; a [Receipt] proves one
// entry is in a signed tree.
//
// The same tree heads are also published as checkpoints, so transparency-log
// witnesses can cosign them:
//
//   - c2sp.org/tlog-checkpoint: the checkpoint text, an origin, a size and a
//     base64 root ([Checkpoint]);
//   - c2sp.org/signed-note: the signed note that carries it, with an Ed25519
//     checkpoint key named by the origin ([CheckpointSigner]);
//   - c2sp.org/tlog-cosignature: witnesses' timestamped cosignature/v1
//     signatures on it ([Cosigner], [VerifyCosignature]).
//
// The log vouches for its checkpoint key with a [CheckpointKeys] object
// signed by its hybrid key, served beside its tree head.
//
// The spec: spec/ledger-protocol.md, "The log"; its vectors are in
// testdata/conformance.
package tlog
