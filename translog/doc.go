// Package translog is the node's append-only log: the sciencejournal
// protocol's RFC 9162 Merkle log (see package tlog), kept by Tessera
// (github.com/transparency-dev/tessera) with its POSIX driver on disk
// (Config.Dir) or its MySQL driver in a MySQL or MariaDB database
// (Config.MySQL), and served the same from either as the spec's log
// endpoints need it and as C2SP tlog-tiles (https://c2sp.org/tlog-tiles).
//
// # What a caller gets
//
// [Open] starts the log in a folder or a database; [Log.Append] adds one leaf, the
// canonical JSON of a log leaf the caller built, and returns its index only
// once the entry is
//
//   - durably sequenced and integrated into the tree by Tessera (its entry
//     bundle, tiles and tree state written and fsynced),
//   - covered by a published checkpoint: a C2SP checkpoint signed with the
//     Ed25519 checkpoint key and a protocol tree head signed with the
//     hybrid log key, both written and fsynced to the tree-head file (or
//     committed to the tree-head table), and
//   - provable: the log has rebuilt the inclusion proof of the new index
//     from its stored tiles and checked it against that tree head's root
//     with tlog.VerifyInclusion.
//
// Reads are gated by the latest published tree head: [Log.Size],
// [Log.Leaves], the proofs, [Log.ReadSubtrees] and the tiles
// [Log.TileHandler] serves never reach past it, so nothing integrated but not
// yet signed, and nothing half-written by a crash, is ever served.
//
// # Publication
//
// Tessera integrates batches of entries and, at most once per
// Config.CheckpointInterval, signs a checkpoint of its integrated tree
// through the note.Signer it was given. This package gives it a signer that
// publishes: before it returns the checkpoint key's signature to Tessera it
// checks that the root Tessera computed is the root of the stored tiles, that
// the new tree extends the last published one (a consistency proof it
// verifies), signs the tree head with the log key, verifies both signatures,
// and appends the pair to the tree-head file with an fsync (in MySQL,
// commits it to the tree-head table, in a transaction of its own inside
// Tessera's publishing one). Only then does Tessera write its own
// checkpoint file (or row). So every checkpoint Tessera ever
// published has its tree head stored first, and the stored tree heads are
// exactly the published tree sizes, each with its checkpoint text, in order.
// A checkpoint Tessera republishes for an unchanged tree signs nothing new.
//
// Tree-head timestamps never go backwards, across restarts too: a head is
// stamped with Config.Now, or with the previous head's time if the clock is
// behind it, so the reference monitor's timestamp check holds.
//
// # Witnesses
//
// With Config.Witnesses, a goroutine asks each witness to cosign the latest
// published checkpoint (c2sp.org/tlog-witness: "old <size>", the
// consistency proof from the size it last cosigned, the checkpoint; a 409
// naming its size makes the log ask again from that size), verifies each
// cosignature with tlog.VerifyCosignature, and appends the cosigned
// checkpoint to the cosignature file with an fsync, as the tree-head file
// is kept (a torn tail is cut on Open). It runs after publication, so
// appends never wait for a witness; a witness that fails is asked again
// after a backoff, doubling up to five minutes. [Log.Checkpoint] serves a
// size's checkpoint with the cosignatures of the configured witnesses
// (checked again as they are read) after the log's signature;
// [Log.LatestCheckpoint] serves the newest checkpoint Config.WitnessQuorum
// witnesses cosigned, or the newest if there is none. The tlog-tiles
// checkpoint stays the newest, whose partial tiles are still stored.
//
// # On disk
//
//	Dir/          0700
//	  LOCK        flock(2)ed while a process has the log open
//	  tiles/      Tessera's POSIX log: checkpoint, tile/<L>/<N>[.p/<W>],
//	              tile/entries/<N>[.p/<W>], and its private .state/
//	  treeheads   one line per published tree size, in order of size:
//	              {"checkpoint": <C2SP note text>, "tree_head": <tree head>}
//	              as canonical JSON
//	  cosignatures  with Config.Witnesses: one line per round of
//	              cosigning, in order of size, {"checkpoint": the log's
//	              checkpoint and the witnesses' cosignature lines,
//	              "size": its size}; a later line of a size replaces an
//	              earlier one
//
// # In MySQL
//
// With Config.MySQL the database holds it all, and nothing is on disk:
//
//	Tessera, Checkpoint,    Tessera's own tables (its storage/mysql/schema.sql,
//	TreeState, Subtree,     kept here as tessera_mysql_schema.sql, unchanged):
//	TiledLeaves             one row per tile and entry bundle, rewritten as
//	                        it grows, its checkpoint and its tree state
//	agora_tree_heads        (size, stamp, record): the tree-head file's lines,
//	                        size the primary key, stamp the head's time in
//	                        Unix milliseconds
//	agora_cosignatures      the same for the cosignature file (a later round
//	                        of a size replaces the row)
//
// A tree head is written in one transaction that locks the table's last
// row and checks, against whatever wrote it, that the new size follows it
// and the stamp is not before its stamp; the primary key refuses a size
// twice. Durability is the server's: Open refuses one whose
// innodb_flush_log_at_trx_commit is not 1, and tables that are not InnoDB.
// A named lock (GET_LOCK on a connection held while the Log is open, which
// the server drops when the process dies) stands in for the folder's
// flock: ErrLocked. The server drops it too when it restarts or the
// connection is killed, so the Log checks it every few seconds and takes
// it again; if another process took it first, the Log stops publishing
// for good, as on ErrCorrupt, with errors wrapping ErrLocked.
//
// Tessera's MySQL driver publishes at most once a second
// (MinMySQLCheckpointInterval), and since it measures the interval from
// the end of the last publication, under a steady load a checkpoint comes
// about every one to two seconds. Tessera's driver keeps one row per
// tile, so the tile endpoint serves a partial tile as that prefix of the
// row, and MariaDB 10.11 (Debian 12's) runs Tessera's schema unchanged.
// What MariaDB's defaults do not take is a full entry bundle of leaves of
// MaxLeafSize: Tessera writes a bundle as one value, and 256 such leaves
// with their lengths are 256 bytes over MariaDB's max_allowed_packet of
// 16 MiB, so the server would refuse every batch completing that bundle
// (Error 1153). Open reads the setting, refuses one under 16 MiB, and
// bounds leaves to fit (65,518 bytes on MariaDB's default, MaxLeafSize on
// MySQL 8's 64 MiB); TestLargestLeaves fills a bundle at the bound.
//
// [Import] moves a folder's log into an empty database (agora migrate):
// the entry bundles through Tessera's own migration target on its MySQL
// driver, which rebuilds the tree and checks the latest tree head's root;
// then the folder's tree-head and cosignature records, each tree head
// only once the copied tiles give its size its root; then Tessera's
// checkpoint row, the latest tree head's checkpoint. Nothing is signed
// anew, so the database serves the very tree heads and checkpoints the
// folder did. Tessera v1.0.4's migration stores a full entry bundle's
// size as 0, which its reads take for empty; Import stores 256, as its
// appender does. [VerifyImport] compares the two again, leaf by leaf and
// record by record, and proves each entry a node's state records.
//
// The tree-head file is an append-only file rather than a SQLite table
// because its access pattern is the simplest there is: one writer appending
// immutable records in strictly increasing order of size, at most a few per
// second, each fsynced before it is acknowledged; readers want the latest
// (kept in memory) or one by size (a binary search over byte offsets, since
// records are sorted and newline-delimited, so nothing is loaded at startup
// however long the log). A torn tail after a crash is an unterminated last
// line, which was never acknowledged and is cut off on [Open]. The file sits
// beside the Tessera files it describes and shares their fate, needs no
// dependency, and does not tie the log's durability to the node's state
// database.
//
// Each tree head carries a hybrid signature, about 5 KB as text, so a record
// is about 5.5 KB, written for each checkpoint that moved the tree: at the
// default interval of 500 ms under constant load, about 950 MB a day; an
// idle log adds nothing.
//
// # Contracts for callers
//
//   - Append is safe for concurrent use; Tessera batches concurrent appends.
//     An error after the index was assigned wraps [ErrUnpublished] and comes
//     with the index: the entry is in the log and will be published.
//   - [Log.Queue] is Append or Sequence cut where the entry's place is
//     fixed: a leaf queued after Queue returned gets a larger index, so a
//     caller orders its leaves (by their timestamps) by queueing them in
//     turn, and waits for them together.
//   - [ErrNotFound] (which wraps fs.ErrNotExist) is the one not-found error:
//     an index, size or tree head beyond the published tree. Map it to 404 in
//     one place.
//   - [ErrPushback] means too many appends are in flight: answer 503 with a
//     retry hint. [ErrInvalidLeaf] and [ErrInvalidRange] are the caller's
//     mistakes.
//   - [ErrCorrupt] means the stored log contradicts itself, or the
//     tree-head file can take no more (a failed write that could not be
//     undone). The log then stops publishing for good rather than sign
//     anything doubtful: waiting and new appends fail with it, Close
//     returns it, and an operator must look (Config.Logger is told).
//   - When [Open] returns, everything Tessera ever sequenced in the
//     directory is published, a crash's unpublished tail included, so
//     Size covers the whole log and the caller can reconcile its own
//     records against it.
//   - [Log.Close] waits for every Append in flight, has Tessera publish a
//     checkpoint covering every index it assigned, then stops Tessera's
//     goroutines and this package's. An acknowledged index is never lost.
//     Tessera's goroutines are stopped by cancelling their context; they
//     return within moments, though Tessera gives no way to wait for them.
//
// # Several processes on one MySQL log: the design, and what is left
//
// Several node processes appending to one MySQL log need sequencing,
// integration, publication and tree-head timestamps coordinated through
// the database, never one process's memory. Where that stands:
//
//   - Done by Tessera's MySQL driver: sequencing and integration are one
//     transaction holding the TreeState row FOR UPDATE, so every index is
//     given once whichever process adds; publication holds the Checkpoint
//     and TreeState rows FOR UPDATE while it calls this package's signer,
//     and checks the interval against the row's time, so one process at a
//     time publishes, at most once an interval.
//   - Done here: the tree head is committed, under those locks, before
//     Tessera's checkpoint; each publication reads the table's last row
//     as the head it must extend and not stamp before, whoever wrote it;
//     agora_tree_heads refuses a repeated size and a stamp before the
//     last from any writer, and a writer whose view is behind catches up
//     from the table (TestMySQLRecords). A lost commit answer heals the
//     same way: the next publication finds the head and serves it.
//   - Done here, with Config.Shared: several Logs, in one process or
//     many, open one database, each holding one of sixteen slot locks
//     (named locks; a Log that does not share the database takes the
//     database's own lock and checks no slot is held, so the two kinds
//     never mix). Each shared Log follows agora_tree_heads (follow.go):
//     every quarter interval, and soon after a caller starts waiting for a
//     size, it reads the last row, checks it as publish checks the head it
//     signs (both signatures, the tiles give its root, it extends the head
//     this Log had, stamped no earlier) and makes it Log.latest, so Size,
//     WaitForSize, the entries endpoint's wait, the proofs and Append's
//     confirmation see another Log's publication; the newest cosignatures
//     with a quorum likewise become LatestCheckpoint
//     (TestMySQLShared). The witnesses are asked by one Log at a time, the
//     one holding a second named lock, which the others try to take every
//     cosignLeadRetry (TestMySQLCosignLock); the taker first reads which
//     size each witness last cosigned from the table. The tile cache needs
//     nothing: a tile at a width never changes.
//   - Done, with package journal: a leaf is never stamped before the leaf
//     ahead of it, whichever process appended either. Tessera's MySQL
//     driver fixes a leaf's bytes, stamp included, before its sequencing
//     transaction gives the index (appendEntries marshals the bundle from
//     the entries as queued; there is no hook inside the transaction), so
//     no stamp can be taken from the database there. Instead a shared log
//     has an append turn (Log.Turn), a third named lock, held from
//     stamping a group of leaves until Tessera's sequencing of them
//     commits (QueueNotify says when: Tessera's future resolves after the
//     commit). Taking it reads the last sequenced leaf (TreeState's size
//     and the leaf before it in TiledLeaves, both written by that same
//     committed transaction, so no publication is needed); the journal
//     stamps every leaf of its turn no earlier, keeps it, queues it in its
//     own order and lets go once all are sequenced, keeping a turn at most
//     200ms while more leaves come so the other processes get theirs. Any
//     leaf sequenced after one of a turn was stamped under a later turn,
//     which read a last leaf at least as late, so the order holds across
//     processes and clocks (TestLeafTimesAcrossProcesses, in package
//     journal, with clocks an hour apart; it fails without the turn). It
//     costs a lock and two reads per turn and serializes the processes'
//     sequencing, not their store writes or reads. Forwarding appends to
//     one process was rejected as needing peer addresses, an
//     authenticated internal endpoint and a failover, for the same order.
//   - Done, with packages journal and node: an entry is logged once
//     across processes. A process claims an entry by digest ([Log.Claim],
//     claims.go: a row of agora_claims naming its slot, live while the
//     slot's named lock is held) from before its leaf is queued until it is
//     bound; another asked to log it waits for the binding, and one
//     finding the holder gone takes the claim over and first looks for the
//     leaf the gone process may have appended. Crash recovery on a shared
//     log settles only entries kept unbound past a grace whose claims it
//     can take, at the start and every few seconds, so a killed process's
//     leftovers are settled by the others (node's TestSharedCrash). agora
//     serve sets Shared when its state is in PostgreSQL.
//   - Caches that would go stale when several node processes share one
//     PostgreSQL state and one log (package ledgerhttp, whose values are
//     one process's): the standing sheet (standingBook) is reused as fresh
//     at one log size while no rating was taken in this process, so
//     another process's rating is missed until the log grows or
//     RefreshStanding passes; rating habits (habitBook) are measured once
//     an hour in each process, so two processes may measure an hour from
//     different ratings (one stamped before the hour committed between
//     their measurements) and score a claim differently; the
//     transparency report's counts (reportBook) advance over bound
//     indices, and another process may bind a lower index after the count
//     passed it. These need nothing: parsed public keys (package hybrid's
//     LRU, a key's parse never changes), bundles' integrity flags (by
//     digest), store/postgres's rebound statements (program constants),
//     and the tile cache. The operator cache (store/sqlite/opcache.go) is
//     SQLite's, one process's by construction; store/postgres has no
//     operator cache.
//
// The spec: spec/ledger-protocol.md, "The log".
package translog
