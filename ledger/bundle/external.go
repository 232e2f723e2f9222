package bundle

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agora-node/agora/ledger/claims"
)

// ExternalData is where a bundle lists the public files it points at
// instead of carrying them (see "Large data").
const ExternalData = "data/external.json"

// CheckExternal checks the paths data/external.json points at against the
// bundle's own files, as the reference's checkPointedPaths does: each
// pointed-at path is no file the bundle has (one at a path it points at
// would be in the bundle twice), is pointed at once, and keeps the rules a
// bundle's own paths keep beside them (normalized, NFC, no two differing
// only in letter case, no file that is also a directory), so a verifier can
// put every file where its path says. v is the parsed data/external.json;
// files holds every path of the bundle, sent or uploaded, as keys (the
// values are not read). Each issue points at the entry's path, the later
// entry when two clash.
//
// Everything about one entry alone (a path under data/, an https URL with no
// credentials, a digest, a size, a license, the total size) is the schema's
// to check: run schemas.Validate("external.json", v) as well. Entries whose
// path the schema refuses (not a string, or not under data/) are skipped
// here, so nothing is reported twice.
func CheckExternal[V any](v any, files map[string]V) []claims.Issue {
	list, _ := v.([]any)
	var issues []claims.Issue
	entry := make(map[string]int) // pointed-at path → the entry that points at it first
	var pointed []string
	for i, item := range list {
		obj, _ := item.(map[string]any)
		p, ok := obj["path"].(string)
		if !ok || !strings.HasPrefix(p, "data/") {
			continue
		}
		at := claims.Pointer(i, "path")
		if _, own := files[p]; own {
			issues = append(issues, claims.Issue{Path: at, Message: fmt.Sprintf(
				"%q is both in the bundle and pointed at: a file at a path the bundle points at would be in it twice, so keep the file out of the bundle or drop its pointer", p)})
			continue
		}
		if first, twice := entry[p]; twice {
			issues = append(issues, claims.Issue{Path: at, Message: fmt.Sprintf("%q is pointed at twice, first by entry %d", p, first)})
			continue
		}
		entry[p] = i
		pointed = append(pointed, p)
	}

	// The bundle's own paths, sorted so the same bundle is always told the
	// same thing, then the pointed-at ones in file order. CheckPaths stops
	// at the first path at fault; each pointed-at path at fault is reported
	// and set aside, and the rest checked again.
	own := make([]string, 0, len(files))
	for p := range files {
		own = append(own, p)
	}
	slices.Sort(own)
	for len(pointed) > 0 {
		err := CheckPaths(append(slices.Clip(own), pointed...))
		var pe *PathError
		if !errors.As(err, &pe) {
			break
		}
		// The later of two entries that clash is the one at fault.
		fault := -1
		for k := len(pointed) - 1; k >= 0; k-- {
			if pointed[k] == pe.Path || pointed[k] == pe.Other {
				fault = k
				break
			}
		}
		if fault < 0 {
			break // a fault among the bundle's own files, which its layout check reports
		}
		issues = append(issues, claims.Issue{Path: claims.Pointer(entry[pointed[fault]], "path"), Message: pe.Error()})
		pointed = slices.Delete(pointed, fault, fault+1)
	}
	slices.SortStableFunc(issues, func(a, b claims.Issue) int { return pathEntry(a.Path) - pathEntry(b.Path) })
	return issues
}

// pathEntry is the entry index of a pointer "/<i>/path".
func pathEntry(pointer string) int {
	n := 0
	for _, c := range strings.TrimPrefix(pointer, "/") {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}
