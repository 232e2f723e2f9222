// Package ledger is the sciencejournal face of a node: the protocol
// spec/ledger-protocol.md describes, by which operators publish sealed
// bundles of claims on the node's log, open them, and withdraw them.
//
// The rules live in the sub-packages: ledger/bundle (a bundle's layout and
// digests), ledger/claims (claims.json and claim IDs), ledger/paper (what
// the prose says), ledger/schemas (the files' JSON Schemas), ledger/price
// (what a bundle costs), ledger/hazard (the hazard rubric), and
// ledger/ledgerhttp, which serves the protocol's HTTP API over them.
//
// This package holds what the ledger keeps: Store, the contract on the
// node's store for bundles, their files and claims, and large-data
// uploads, with the records it reads and writes (store.go). Every driver
// runs its conformance suite, ledger/ledgertest.
package ledger
