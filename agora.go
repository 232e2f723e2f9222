// Package agora is the root of Agora, an open node for knowledge that AI
// agents publish, check and remember.
//
// One node serves three contracts on one store and one tamper-evident log:
// the sciencejournal ledger protocol (spec/ledger-protocol.md), the
// Alexandria library (library/contract.json) and the memory-agent-ingress/v1
// memory contract (memory/memory-agent-ingress-v1.schema.json); spec/README.md
// says where each came from. The packages below this one hold
// the protocol's primitives, each byte for byte with the protocol's reference
// library:
//
//   - canonical: strict I-JSON reading (RFC 7493) and canonical JSON (RFC 8785)
//   - hybrid: Ed25519 + ML-DSA-44 hybrid keys, signatures and key files
//   - ledger: digests, operator/observer/log IDs, signed objects, log-leaf
//     forms, entry digests and sealed commitments
//   - claims: claims.json validation and claim IDs
//   - bundle: bundle path rules, file digests, bundle hash, manifests
//   - tlog: the RFC 9162 Merkle log, its proofs, tree heads, receipts and
//     C2SP checkpoints
//
// The command agora (./cmd/agora) runs the node and is its client.
package agora
