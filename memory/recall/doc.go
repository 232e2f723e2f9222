// Package recall is the recall engine of Agora memory: given what a coding
// agent is doing (a failing tool result, a prompt, a search), it finds the
// past memory records that help, says why, and says nothing when nothing
// fits. Its vocabulary is that of the memory-agent-ingress/v1 contract,
// whose schema is memory/memory-agent-ingress-v1.schema.json in this
// repository: a Reason is the schema's match_reason ($defs/match_reason)
// and a Signal one of its signal_name values; a Hit is the schema's hit
// ($defs/hit) without provenance_label, summary and excerpt, which the
// caller renders from the record.
//
// # Normalization
//
// NormalizeError rewrites tool output so the same failure reads the same on
// every machine (paths, positions, addresses, times, durations, temp dirs,
// PIDs, UUIDs and versions become placeholders; dependency names survive).
// Ports (localhost:5432, :::3000, port=443) and docker tag variants
// (3.13-slim-buster) survive: they name what failed.
// ErrorSignature hashes the lines that carry the error into a
// "sha256:<hex>" digest; CodeSymbols and Tokenize extract the other search
// inputs.
//
// NoteErrorText finds the failure a note's words quote (fenced blocks,
// code spans, quoted messages, lines shaped like output); a note that
// quotes nothing that reads like a failure, and shares no run of words
// with an output, is never pushed after a failure.
//
// # Signals
//
// Every signal is normalized to 0..1 and multiplied by its weight (see
// Weights); a hit's score is the sum of its reasons' contributions.
//
// Content signals say what a record is about and are the only ones that can
// make a match:
//
//   - error_signature: 1 for the same normalized key lines, discounted when
//     the signature is shared by many records (then it names a kind of
//     failure, not a cause), or the idf-weighted cosine overlap of the
//     normalized output tokens, capped at 0.8, when that is more; or
//     the share of the record's quoted output the query prints (up to
//     0.95), counted half over the whole output and half line by line:
//     each quoted line against the one or two output lines that print
//     most of it (align.go), so that the words of one quoted line found
//     scattered over lines about other things count for less.
//   - the note's words (reported as error_signature): a note quotes the
//     output it was written about however its writer likes (a code span
//     without an error word, a line pasted after a colon, a fragment run
//     into a sentence), and rules that find quoted output miss the ways
//     no rule foresaw. Whatever the way, a quote is words in the order
//     the tool printed them: a sentence or line of the note that shares
//     a run of three words or more with the output quotes it (runs.go).
//     The quote is what the sentence marks as quoted, when a run goes
//     through a code span or quoted message, or the whole sentence; it
//     counts by the share of its words (idf-weighted) that the output
//     prints anywhere, and the note's other error-shaped sentences that
//     the output does not quote count against it (the note's failure
//     printed more than this output). A quoted name on the quote's line
//     that the output does not print ('Save', "@/lib/api") says the
//     output is the same message about another thing: that sentence
//     counts for nothing. The shared words must weigh enough of the
//     rarest words (in idf²) to count in full, so a short quote of a
//     kind's wording does not match every failure of the kind. Up to
//     0.9 of an exact signature; the best of this and the output
//     signal above is the record's error_signature.
//   - the error code (reported as error_signature): a code the note names
//     only in its prose (ERR_PNPM_OUTDATED_LOCKFILE, ENOENT, TS2307,
//     CrashLoopBackOff; codes.go) that the output prints, worth up to 0.7
//     of an exact signature by how few records name it. A code inside a
//     line the note quotes counts with the rest of that line instead.
//   - lexical: BM25 over title (boosted), content and the recorded output,
//     divided by its bound for the query so scores compare across queries.
//   - code_symbol: idf-weighted cosine of symbols (pkg.Func, 'module',
//     import paths, headers).
//   - key agreement (reported as code_symbol): a record is about what its
//     title names. The share of the title's terms the query holds, each
//     weighted by its idf among titles, so the object (config, tokio,
//     TestWatchReload) outweighs the wording every record of that failure
//     kind shares. The record's key comes from output shapes (shape.go):
//     the index groups records whose normalized output has the same
//     tokens but for a few positions (the way log template miners group
//     log lines) and marks those positions slots; the key is the title
//     terms the record prints in a slot (its module, port, test), not
//     the kind's wording every member prints. Without a shape of two or
//     more records, the key is the code symbols its output names that its
//     title names too, less the name of the tool that failed (a title
//     names its tool to say which tool failed; git is not what "git push
//     rejected" is about). When the query lacks part of the key, a negative
//     code_symbol reason takes back Weights.KeyMiss of the content score
//     in proportion; all of Weights.KeyMiss when the query lacks the whole
//     key, when it prints the record's shape with another value in a key
//     slot, or when it names an object of its own: the same message about
//     another module, test or crate is another root cause. With the
//     default KeyMiss of 1 that is the whole score, and the record is
//     silenced (see below).
//   - masked numbers: a number the record's title names and its output
//     prints but normalization masked (a key id of digits only) is part of
//     its key: a query that does not print it lacks that part. So is a
//     version the title names and the output quotes ("The version '3.7'
//     ... was not found"), which the message is about, as a quoted name,
//     and a port of two digits the title names and the output prints
//     ("port 80 in use"), which says which service is in the way.
//   - the object (reported as code_symbol): the rare title words (held
//     by three titles or fewer) that the note writes as code (its code
//     symbols, its code-like words, those of its quoted error lines,
//     the title's own code names; not a title's hyphenated words, which
//     are the writer's: self-hosted, long-running) are what the record
//     is about, and so is a dotted name the title writes and the note
//     says (auth.acme.test). A query that names less than half of them
//     (idf-weighted), or none of the dotted names, takes back 0.8 of
//     the record's content score: the same message about another
//     module, port or host is another failure. Only 0.4 when no other
//     record looked at matches the query's output 0.7 as well: with one
//     note of a message in the store, nothing says its fix is for its
//     object rather than for the message. A title's code words count
//     as its object only when the note's quoted failure prints them or
//     they are a name (a host, a package path): a title also says when
//     and where (500s after deploy, on ubuntu-latest).
//   - kind agreement (reported as code_symbol): when the query's output
//     has a shape whose records all name their kind the same way in
//     their titles (TS2307, node, EADDRINUSE), a record of another shape
//     whose title lacks a third or more of that wording (idf-weighted)
//     loses all its content score: the same object in another kind of
//     failure is another root cause.
//   - the query's own key (reported as code_symbol): where the query's
//     output shape has key slots (most members print a name of their own
//     there), what the query prints in them, less the frame every key of
//     the slot shares (github, com), is its object; a record whose title
//     names none of it loses all its content score, even when its own key
//     turns up elsewhere in the query (a namespace spelled like a
//     resource).
//   - the key alone: a query that shares no term with a record but the
//     key terms it names (express, 8080) is about another failure of the
//     same thing; the record has nothing to say to it.
//   - named kinds (reported as code_symbol): a query without output (a
//     prompt) names a kind when it holds nearly all the title
//     wording (three terms or more) that every record of some candidate's
//     shape shares; a record of none of the kinds it names loses all its
//     content score ("node cannot find module" is not TS2307). Failing
//     output is not read this way: its words are the tool's, and a
//     message about one failure often holds another kind's wording.
//
// The checks that take all of a record's content score ask what the
// record is about, not how well its words match, so they run before it
// is scored. Search scores records best content estimate first and
// passes over the ones the checks silence until it has scored a fixed
// number: at 100k records a kind of failure has hundreds of records about
// other objects whose wording matches a query better than that of the
// record about its own object, printed by another tool version, does.
//
// The weight of content signals a query cannot feed (a prompt has no
// output) is spread over those it can, so a prompt and a failing tool
// result reach the same range.
//
// Context signals (tool_name, same_project, environment, phase, dimension,
// recency, trust, evidence) are scaled by the content match (0..1), so they
// reorder matches but never create one. environment counts the OS double,
// and a record written on another OS than the query's loses half the
// environment weight: the same message on another OS often has another
// fix. When a hit written on the query's OS matches too (half as well or
// better), a hit written on another loses 0.15 of its content score
// (reported as environment): of two notes on one output, the one
// written where the failure happens now is the one that applies.
//
// negative subtracts up to its full weight for superseded records and in
// part for contradicted, failed or conflicting ones, so they sink below
// their successors. Which records are superseded, declared or said in a
// note's words, and which note restates another's failure on another
// system, the caller decides (memory/engine) and says in Doc.
//
// # The floor
//
// Weights.MinScore drops every hit below it, with one exception, the
// lead rule (Weights.Lead): when nothing reaches the floor for a failing
// tool result, its best record is still returned if it scores at least
// Weights.LeadFloor and Weights.Lead times the next record, shares output
// with the query and passes the key and kind checks. A next record
// written on another system than the query's is no rival of a best one
// written on the query's: the same output on two systems has two fixes. A failure stored
// once and printed in other words by another tool version shares little
// with its record, but nothing with any other. Because signals are bounded
// and context is gated by content, one floor serves every query: silence
// beats noise. The key and kind checks are what make the floor meaningful:
// a never-stored failure usually shares its wording with stored records
// about other things, or its object with records of another kind, and
// without them those score like answers.
//
// # Evaluation
//
// Evaluate measures recall@1, recall@3, MRR (over the first 10 hits), the
// share of never-stored queries that still get a hit (false injection)
// and per-query latency, overall and for tool results and prompts apart.
// Package memory/recall/internal/gen builds the corpora it runs on; the
// tests hold the engine to its goals on a corpus the weights were not
// tuned on.
//
// # Files
//
// types.go holds the public types and the weights; normalize.go reads
// tool output (normalization, signatures, symbols, tokens); index.go
// builds the index; shape.go groups outputs into shapes; search.go finds
// and pools the candidates and applies the floor and the lead rule;
// score.go scores one record, content and context; runs.go is the
// signal of the note's own words; silence.go holds the key and kind
// checks; quoted.go reads quoted names; notes.go reads what a note's
// words quote; eval.go is Evaluate.
package recall
