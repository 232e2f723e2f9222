// Package translog is the node's append-only log: the sciencejournal
// protocol's RFC 9162 Merkle log (see package tlog), kept on disk by Tessera
// (github.com/transparency-dev/tessera) with its POSIX driver, and served as
// the spec's log endpoints need it and as C2SP tlog-tiles
// (https://c2sp.org/tlog-tiles).
//
// # What a caller gets
//
// [Open] starts the log in a folder; [Log.Append] adds one leaf, the
// canonical JSON of a log leaf the caller built, and returns its index only
// once the entry is
//
//   - durably sequenced and integrated into the tree by Tessera (its entry
//     bundle, tiles and tree state written and fsynced),
//   - covered by a published checkpoint: a C2SP checkpoint signed with the
//     Ed25519 checkpoint key and a protocol tree head signed with the
//     hybrid log key, both written and fsynced to the tree-head file, and
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
// and appends the pair to the tree-head file with an fsync. Only then does
// Tessera write its own checkpoint file. So every checkpoint Tessera ever
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
// The spec: spec/ledger-protocol.md, "The log".
package translog
