// Package jobs holds the rules of the verification loop that the protocol's
// instructions describe (spec/ledger-protocol.md, sections "Verifying
// claims", "Qualification", "Verify first", "Sealed rounds" and "The hazard
// screen"): the kinds of job and each kind's verdicts; the signed
// job_request, attestation and hazard_review entries, checked with JSON
// Pointer issues; which open job may go to which verifier, in the spec's
// order of urgency; the qualification test's items, scoring and timing; and
// the credit account, whose movements give the operator record's
// `verification` and `free_bundle` objects.
//
// It is pure: nothing here stores, sends or logs anything. The store keeps
// jobs, qualification state and credit movements (ledger.JobStore); the
// HTTP API (ledger/ledgerhttp) applies these rules to them.
//
// Where the spec leaves a byte-level shape open, the reference library
// (omerliran/sciencejournal-protocol, src/vocabulary.ts, src/entries.ts and
// src/harness) settles it: attestation verdicts are keyed by global claim
// ID, job IDs are "job:" and hex, and a job's `qualification` is {message,
// level, item, of}.
package jobs
