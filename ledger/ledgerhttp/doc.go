// Package ledgerhttp serves the ledger, the sciencejournal protocol's HTTP
// API (spec/ledger-protocol.md): the log and its proofs, operators, names, keys and
// identities, bundles from check to seal to open, their files and claims,
// uploads, and the node admin's invitations. It takes the node's store, its
// journal (every entry it logs goes through journal.Journal) and its log for
// reads; package node mounts it.
//
// # Several processes on one store
//
// Several node processes may share one store (store/postgres) and one log,
// each with its own Server. What a Server keeps in memory then answers as
// the store does, whichever process wrote:
//
//   - The statuses' Deriver and the standing Book (statuses.go) are fed
//     every leaf the store binds, in index order, stopping at the first
//     index not bound yet, and a leaf never changes once bound; the
//     transparency report's counts (reportBook) go on the same way, so an
//     index another process binds after a higher one is counted once it
//     is, never skipped (TestReportCountWaitsForLowerIndex).
//   - The standing sheet (standingBook) is fresh while the log size, the
//     store's RatingCount (bumped in each rating's commit, whichever
//     process took it) and the habits' moment are those it was made at.
//     Ratings are kept, not logged, so the log's size alone misses one
//     another process took.
//   - Rating habits are kept in the store for their moment by the first
//     process to measure them (ledger.CheckStore's KeepHabits), and every
//     process scores by those; habitBook caches what the store kept, which
//     never changes.
//   - A snapshot (snapshots.go) goes stale on every withdrawal the
//     statuses' catch-up reads, which runs before a snapshot is served, so
//     a process reissues its snapshots after another logged the
//     withdrawal.
//   - Bundles' integrity flags for job views (jobFlags) are keyed by the
//     bundle's hash, whose files never change.
//
// TestLedgerCachesAcrossProcesses and TestSnapshotsWithdrawnAcrossProcesses,
// in package node, run a second Server over one PostgreSQL state beside a
// node's and check each of these against the node's answers.
//
// Kept per process on purpose: the address limiters of checks and
// submissions and the check pool (admission.go), the long polls' count by
// address (waits.go) and the recovery routes' wait after a failure
// (recovery.go) bound what one process takes on, so each process has its
// own; limits the spec sets per operator or address over a day are the
// store's (Take). The settled maps of challenges, appeals and addenda only
// spare a process settling again what moves nothing the second time.
//
// Across processes too: the mutexes that make a check of the log and the
// entry it allows one step (challenges.opening, addenda.opening, seedMu,
// settleMu, the verification loop's operator and round stripes) are each
// taken with the lock of the same name across the processes sharing the
// node's log (acrossProcesses, journal.Lock), and one submission of an
// operator at a time (submitting) with journal.TryLock.
package ledgerhttp
