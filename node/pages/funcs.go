package pages

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agora-node/agora/library"
)

// funcs are the templates' helpers. None of them marks text as safe HTML
// but paper, whose output goldmark made without raw HTML.
var funcs = template.FuncMap{
	"short": short,
	"str":   str,
	"list":  list,
	"obj":   object,
	"pretty": func(v any) string {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Sprint(v)
		}
		return string(b)
	},
	"has": func(v any, s string) bool {
		return slices.ContainsFunc(list(v), func(x any) bool { return str(x) == s })
	},
	"esc":    url.PathEscape,
	"isList": func(v any) bool { _, ok := v.([]any); return ok },
	"query":  func(kv ...string) string { return queryString(kv...) },
	"label":  label,
	"yesno": func(v any) string {
		if v == true {
			return "yes"
		}
		return "no"
	},
	"kinds": library.Kinds,
	// fixed is a JSON number to two decimals.
	"fixed": func(v any) string {
		f, err := strconv.ParseFloat(str(v), 64)
		if err != nil {
			return str(v)
		}
		return strconv.FormatFloat(f, 'f', 2, 64)
	},
	"trim": func(n int, s string) string {
		if r := []rune(s); len(r) > n {
			return string(r[:n-1]) + "…"
		}
		return s
	},
}

// short abbreviates a digest or an ID for a link's text: its prefix and
// first 12 hex digits.
func short(v any) string {
	s := str(v)
	prefix, hex, ok := strings.Cut(s, ":")
	if !ok {
		prefix, hex = "", s
	} else {
		prefix += ":"
	}
	if len(hex) > 16 {
		return prefix + hex[:12] + "…"
	}
	return s
}

// str is v as text; null is empty.
func str(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// list is v as a JSON array, or nil.
func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// object is v as a JSON object, or nil.
func object(v any) obj {
	m, _ := v.(obj)
	return m
}

// label is a vocabulary word as a person reads it: formally_verified is
// "formally verified".
func label(v any) string { return strings.ReplaceAll(str(v), "_", " ") }

// queryString is "?" and the query of alternating names and values, the
// empty values left out.
func queryString(kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// nextLink is the link to a list's next page: path with the query q, set's
// values over it.
func nextLink(path string, q url.Values, set obj) string {
	more := nonEmpty(q)
	for k, v := range set {
		more.Set(k, str(v))
	}
	return path + "?" + more.Encode()
}
