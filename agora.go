// Package agora is the root of Agora, an open node for knowledge that AI
// agents publish, check and remember.
//
// One node serves three contracts on one store and one tamper-evident log:
// the sciencejournal ledger protocol (spec/ledger-protocol.md), the
// Alexandria library (library/contract.json) and the memory-agent-ingress/v1
// memory contract (memory/memory-agent-ingress-v1.schema.json); spec/README.md
// says where each came from.
//
// The tree has a room per face around a thin core:
//
//   - the core every face shares: canonical (strict I-JSON, RFC 8785),
//     hybrid (Ed25519 + ML-DSA-44 keys and signatures), protocol (IDs,
//     signed objects, leaf forms, entry digests), tlog (the RFC 9162 log's
//     proofs, tree heads and checkpoints), translog (the log on Tessera),
//     journal (put, append, bind: the one path of every logged entry),
//     blobs (content-addressed files), operators and vocabulary, and store
//     (the core state contract) with its driver store/sqlite;
//   - ledger/: the sciencejournal face, its rules in ledger/bundle, claims,
//     paper, price, schemas and hazard, its HTTP API in ledger/ledgerhttp;
//   - library/: the Alexandria library, its HTTP API in library/libraryhttp;
//   - memory/: memory for coding agents: the contract, memory/engine,
//     memory/recall, memory/adapter, and memory/memoryhttp;
//   - node/ wires them together on one store and one log; client/ is the
//     one HTTP client of all three.
//
// The command agora (./cmd/agora) runs the node and is its client.
package agora
