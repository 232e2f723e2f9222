// Package paper checks what a bundle's prose says and how, as the
// sciencejournal protocol's reference library does: the length limits that
// refuse a bundle, the integrity flags every verifier sees, and the scan for
// content a reader of the rendered page would not see.
//
// The protocol's instructions (spec/ledger-protocol.md, sections
// "Writing the paper" and its "Style guide", "Methods and materials", and
// "Publishing, step by step" on `integrity`) are the specification; the
// reference library's src/integrity.ts, src/paper.ts, src/number-words.ts and
// src/scan.ts fill in what they leave open: patterns, limits, output shapes and
// the line and column conventions (lines from 1, CRLF, CR and LF each one line
// break; columns from 1, counted in code points). Where the two disagree the
// instructions win, and the declaration that differs says so.
//
// What it provides:
//
//   - [Flags] runs every integrity check over a bundle's files and returns an
//     [Integrity]: numbers typed into the Summary, Claims or Results instead of
//     result placeholders, missing fixed sections, files the claims call for
//     that the bundle lacks, citations references.json doesn't list and
//     references the paper never cites, and forensics of the tables under
//     data/ (repeated rows, first digits far from Benford's law). Flags never
//     refuse a bundle.
//   - [CheckLength] and [Tokens] enforce the length limits (a Summary of at
//     most 300 tokens, a paper of at most 20,000), which do refuse one.
//   - [ScanText], [ScanHidden] and [ScanFiles] find invisible, bidirectional,
//     private-use and control characters in any text file, and raw HTML and
//     link definitions in Markdown; [RevealHidden] makes such characters
//     visible in an excerpt.
//
// paper.md is read as the protocol's pages render it: GitHub-flavored Markdown
// with LaTeX math, inline between `$` signs and displayed between `$$` fences.
// goldmark supplies CommonMark and GFM; [MathExtension] adds the math, so that
// what counts as math, code, HTML or prose here is what a renderer finds. The
// reference reads Markdown with micromark; where goldmark reads GFM tables and
// autolink literals differently, this package reads them as micromark does
// (tables_md.go, autolink.go).
//
// Where this package and the reference differ, on purpose:
//
//   - Discussion is one of the fixed sections, as the instructions say; the
//     reference's PAPER_SECTIONS lacks it.
//   - A column whose number has no nonzero digit before its exponent (0x0A)
//     makes the reference throw; here its value's first digit is counted.
//   - Data flags and skipped tables come in the order of their paths, since a
//     Go map has no order of its own.
//   - The reference skips text that mdast-util-gfm-autolink-literal splits
//     off without source positions (an address right after '$' or a letter,
//     for one); here that text is read like any other.
//   - Markdown after a leading byte order mark is placed where it is; the
//     reference places it one column early.
//   - An http:// address right after a digit or a non-ASCII letter, which
//     micromark links, stays text here: goldmark never tries a parser there.
//     A table followed by an indented line and then a setext heading is read
//     as goldmark reads it.
package paper
