package schemas

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/agora-node/agora/ledger/claims"
)

// beyondSchema are the checks the reference library makes inside a file
// that its published JSON Schema cannot carry. Each reads the file as
// loosely as it must to say something about the parts it can: the schema
// reports what is malformed.
var beyondSchema = map[string]func(any) []Issue{
	"references.json": checkReferences,
	"external.json":   checkExternal,
}

// checkReferences: each ID appears once (the later listing is the one at
// fault, as the reference reports it), and a DOI holds no white space as
// JavaScript reads white space.
func checkReferences(v any) []Issue {
	list, _ := v.([]any)
	var issues []Issue
	first := make(map[string]int, len(list))
	for i, item := range list {
		obj, _ := item.(map[string]any)
		id, ok := obj["id"].(string)
		if !ok {
			continue
		}
		if j, twice := first[id]; twice {
			issues = append(issues, Issue{Path: claims.Pointer(i, "id"), Message: fmt.Sprintf("%s is listed twice, first as reference %d: list each reference once", shown(id), j)})
		} else {
			first[id] = i
		}
		if strings.HasPrefix(id, "doi:") {
			issues = append(issues, jsSpaceIssue(claims.Pointer(i, "id"), id)...)
		}
	}
	return issues
}

// MaxExternalBytes is the most a bundle may point at in data/external.json,
// all files together: 10 TB, as much as any verifier can say it downloads,
// so no more could ever be run.
const MaxExternalBytes = 10_000_000 * 1_000_000

// checkExternal: the pointed-at files together stay within
// MaxExternalBytes, each URL is one a browser could open, and a DOI holds
// no white space as JavaScript reads white space.
func checkExternal(v any) []Issue {
	list, _ := v.([]any)
	var issues []Issue
	total := 0.0
	for i, item := range list {
		obj, _ := item.(map[string]any)
		// Only sizes the schema accepts count, so one file too large is
		// reported once, where it is.
		if n, ok := obj["bytes"].(float64); ok && n >= 1 && n <= MaxExternalBytes && n == math.Trunc(n) {
			total += n
		}
		if u, ok := obj["url"].(string); ok && urlPattern().MatchString(u) {
			if problem := urlProblem(u); problem != "" {
				issues = append(issues, Issue{Path: claims.Pointer(i, "url"), Message: shown(u) + " " + problem})
			}
		}
		if doi, ok := obj["doi"].(string); ok {
			issues = append(issues, jsSpaceIssue(claims.Pointer(i, "doi"), doi)...)
		}
	}
	if total > MaxExternalBytes {
		issues = append(issues, Issue{Path: "", Message: fmt.Sprintf(
			"the files together are %s bytes, more than the 10 TB (%d bytes) any verifier can say it downloads",
			strconv.FormatFloat(total, 'f', -1, 64), int64(MaxExternalBytes))})
	}
	return issues
}

// urlPattern is the schema's own pattern for a url, so the check below
// reads only what the schema let through and never reports a URL twice.
var urlPattern = sync.OnceValue(func() *regexp.Regexp {
	node := compiled()["external.json"].node("#/items/properties/url")
	return regexp.MustCompile(node["pattern"].(string))
})

// urlProblem says why a browser (a WHATWG URL parser, as the reference
// uses) would refuse an https URL the schema's pattern accepted, or "".
func urlProblem(s string) string {
	if i := strings.IndexFunc(s, isJSOnlySpace); i >= 0 {
		r := []rune(s[i:])[0]
		return fmt.Sprintf("holds white space (U+%04X): write the URL with none", r)
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "is not a URL a browser could open: " + err.Error()
	}
	host := u.Hostname()
	if host == "" {
		return "names no host"
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n > 65535 {
			return fmt.Sprintf("has port %q; a port is a number up to 65535", port)
		}
	}
	// Characters a WHATWG parser forbids in a host that Go's parser lets by.
	if !strings.Contains(host, ":") && strings.ContainsAny(host, "<>^|%[]") {
		return fmt.Sprintf("has host %q, which holds a character no host may hold", host)
	}
	return ""
}

// jsSpaceIssue reports white space JavaScript's \s finds but Go's \s does
// not, in a string a pattern with \S accepted: the reference refuses it.
func jsSpaceIssue(path, s string) []Issue {
	i := strings.IndexFunc(s, isJSOnlySpace)
	if i < 0 {
		return nil
	}
	r := []rune(s[i:])[0]
	return []Issue{{Path: path, Message: fmt.Sprintf("%s holds white space (U+%04X), which no identifier may hold", shown(s), r)}}
}

// isJSOnlySpace reports the white space ECMAScript's \s matches beyond the
// ASCII space, tab, line feed, form feed and carriage return that Go's
// regexp \s matches.
func isJSOnlySpace(r rune) bool {
	switch r {
	case '\v', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}
