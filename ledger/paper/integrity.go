package paper

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/ledger/claims"
)

// Integrity is what a bundle check reports as `integrity`: deterministic
// checks that each flag something for verifiers to look at. None refuses a
// bundle, since a flag can be innocent and only a reader can tell; every
// verifier sees them. Every list is empty rather than absent when nothing is
// flagged.
type Integrity struct {
	// OrphanNumbers are numbers typed into the Summary, Claims or Results
	// instead of placeholders, at most MaxOrphanNumbers of them.
	OrphanNumbers []OrphanNumber `json:"orphan_numbers"`
	// MissingSections are paper.md's fixed sections that it lacks, in order.
	MissingSections []string `json:"missing_sections"`
	// MissingFiles are files the bundle's claims call for that it lacks.
	MissingFiles []string `json:"missing_files"`
	// UncitedReferences are IDs references.json lists that paper.md never
	// cites, in references.json's order.
	UncitedReferences []string `json:"uncited_references"`
	// UnlistedCitations are reference IDs paper.md cites that
	// references.json doesn't list, in the paper's order.
	UnlistedCitations []string `json:"unlisted_citations"`
	// Data are findings in the tables under data/.
	Data []DataFlag `json:"data"`
	// Skipped are tables too large to check, which a verifier checks itself
	// if it matters.
	Skipped []SkippedFile `json:"skipped"`
}

// SkippedFile is a file too large for the checks to read.
type SkippedFile struct {
	Path  string `json:"path"`
	Bytes int    `json:"bytes"`
}

// MissingFileReasons are the files a bundle's claims call for, and why each
// is flagged when the bundle lacks it. A bundle may say there is nothing to
// list with an empty list; saying nothing is what's flagged.
var MissingFileReasons = map[string]string{
	"materials.json":  "a claim rests on a measurement, and repeating it takes the same materials",
	"deviations.json": "the work follows a claim it replicates or a plan it pre-registered, and doesn't say how it departed from it",
}

// ReadByFlags reports whether Flags reads a file: paper.md, claims.json,
// references.json and the tables under data/. A caller need not load others.
func ReadByFlags(path string) bool {
	return readWhole(path) || IsCheckedTable(path)
}

func readWhole(path string) bool {
	return path == "paper.md" || path == "claims.json" || path == "references.json"
}

// Flags runs every integrity check over a bundle's files: paper.md for orphan
// numbers, missing sections and citations, claims.json and references.json
// for the files the claims call for, and the tables under data/ for
// forensics. files maps bundle paths to contents and may hold only what
// ReadByFlags reads; paths names every file the bundle has, read or not, and
// when nil the files given are all it has.
//
// A file that isn't UTF-8 is not read (a table too large to read is listed
// as skipped first); a leading byte order mark is dropped. claims.json or
// references.json that isn't valid calls for nothing and cites nothing here:
// the bundle check refuses it before any flag matters. Without
// references.json every citation is unlisted.
//
// The reference lists data flags and skipped tables in the order the files
// come; a Go map has none, so here they come in the order of their paths.
func Flags(files map[string][]byte, paths []string) Integrity {
	flags := Integrity{
		OrphanNumbers:     []OrphanNumber{},
		MissingSections:   []string{},
		MissingFiles:      []string{},
		UncitedReferences: []string{},
		UnlistedCitations: []string{},
		Data:              []DataFlag{},
		Skipped:           []SkippedFile{},
	}
	texts := map[string]string{}
	for _, path := range sortedKeys(files) {
		data := files[path]
		if !ReadByFlags(path) {
			continue
		}
		delimiter := tableDelimiter(path)
		if delimiter != 0 && len(data) > MaxTableBytes {
			flags.Skipped = append(flags.Skipped, SkippedFile{Path: path, Bytes: len(data)})
			continue
		}
		if !utf8.Valid(data) {
			continue
		}
		text := string(bytes.TrimPrefix(data, []byte("\uFEFF")))
		if readWhole(path) {
			texts[path] = text
			continue
		}
		flags.Data = append(flags.Data, TableFlags(path, ParseDelimited(text, delimiter))...)
	}

	references, hasReferences := texts["references.json"]
	listed, listedOK := []string{}, true
	if hasReferences {
		listed, listedOK = parseReferences(references)
	}
	if paper, ok := texts["paper.md"]; ok {
		doc := parseMarkdown(paper)
		flags.OrphanNumbers = append(flags.OrphanNumbers, orphanNumbers(doc, MaxOrphanNumbers)...)
		flags.MissingSections = missingSections(doc)
		if listedOK {
			// Sets, not slices.Contains: thousands of references against
			// thousands of citations must not take their product.
			cited := citations(doc)
			citedSet, listedSet := setOf(cited), setOf(listed)
			for _, id := range listed {
				if !citedSet[id] {
					flags.UncitedReferences = append(flags.UncitedReferences, id)
				}
			}
			for _, id := range cited {
				if !listedSet[id] {
					flags.UnlistedCitations = append(flags.UnlistedCitations, id)
				}
			}
		}
	}

	if paths == nil {
		paths = sortedKeys(files)
	}
	if claimsText, ok := texts["claims.json"]; ok {
		if !listedOK {
			listed = nil
		}
		flags.MissingFiles = missingFiles(claimsText, listed, paths)
	}
	return flags
}

// FlagsUnread runs Flags over files when the bundle also has files that
// are not read here, by path with their sizes: an upload sent ahead of a
// check, or a file a job sends as a download. Each unread table is listed
// as skipped, as one over MaxTableBytes is, since a verifier checks it;
// paths names every file the bundle has, read or not.
func FlagsUnread(files map[string][]byte, unread map[string]int64, paths []string) Integrity {
	flags := Flags(files, paths)
	for p, size := range unread {
		if IsCheckedTable(p) {
			flags.Skipped = append(flags.Skipped, SkippedFile{Path: p, Bytes: int(size)})
		}
	}
	slices.SortFunc(flags.Skipped, func(a, b SkippedFile) int { return strings.Compare(a.Path, b.Path) })
	return flags
}

// missingFiles returns the files the claims call for that the bundle lacks:
// materials.json when a claim's evidence includes a measurement, which only
// measuring again with the same materials can check, and deviations.json
// when the work follows something, a claim on the ledger that one of its
// replication claims depends on or a pre-registration its references cite.
func missingFiles(claimsText string, references []string, paths []string) []string {
	missing := []string{}
	parsed, issues, err := claims.ParseFile([]byte(claimsText))
	if err != nil || len(issues) > 0 {
		return missing
	}
	measures, follows := false, false
	for _, c := range parsed {
		for _, e := range c.Evidence {
			measures = measures || e.Kind() == claims.Measurement
		}
		if c.Type == claims.Replication {
			for _, dependency := range c.DependsOn {
				follows = follows || claims.IsClaimID(dependency)
			}
		}
	}
	for _, id := range references {
		follows = follows || isPreregistrationID(id)
	}
	if measures && !slices.Contains(paths, "materials.json") {
		missing = append(missing, "materials.json")
	}
	if follows && !slices.Contains(paths, "deviations.json") {
		missing = append(missing, "deviations.json")
	}
	return missing
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func setOf(list []string) map[string]bool {
	set := make(map[string]bool, len(list))
	for _, s := range list {
		set[s] = true
	}
	return set
}
