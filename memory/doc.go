// Package memory is the memory-agent-ingress/v1 contract written as Go: what
// a coding-agent adapter may send to a node's memory, what the node may
// answer, and the pure rules the node applies in between.
//
// The contract is the JSON Schema memory/memory-agent-ingress-v1.schema.json
// (draft 2020-12), embedded here byte for byte as it was published in
// @fuxi-ailabs/crowdmemory-codex-plugin 0.1.1. Its x-* members list the event
// kinds, the error codes and which $defs describe each kind's payload, result
// and response; this package reads them from the embedded document, so the
// code and the contract cannot drift apart. An adapter POSTs one event to
// /v1/agent-ingress/{adapter_id}/events/{kind}; ParseEvent reads it, and
// ValidateResponse checks what the node sends back.
//
// Beside the contract the package holds the node's own pure pieces of the
// memory feature:
//
//   - memory-profile/v1 (profile.md): relevance weights, push policies,
//     dimensions, budgets and opt-in kinds, with DefaultProfile and a digest
//     to pin a session to one revision;
//   - ScanSecrets and MaskSecrets, the one rule set for credentials that
//     the node (ParseEvent masks every string of an event before anything
//     reads it) and the adapter (which masks every payload it sends) share,
//     and NoteProblem, the checks a note passes before it is kept;
//   - ReadScope, a profile's reads: whose records a session may read;
//   - TopicKey and record refs (lr_…);
//   - RenderInjection, the text a push folds into the agent's next request,
//     written as quoted data and never as instructions;
//   - AppliedBy and NextMark, which decide from what a session ran whether a
//     recalled fix was applied and what mark its record earns.
//
// What the package is not: it serves no HTTP, stores nothing, ranks nothing
// and keeps no session state. Whether a session handle is bound, whether an
// event_id was seen before, whether a budget is spent and whether a
// capability-disabled kind is enabled for a session are the node's questions;
// this package gives it the words (error codes, statuses, profiles) to answer
// them with. Nothing here does I/O, and every function is safe for
// concurrent use.
package memory
