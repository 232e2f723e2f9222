package jobs

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agora-node/agora/internal/jsonpointer"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/vocabulary"
)

// An Issue is one reason an entry was refused. Path is a JSON Pointer into
// the entry, such as "/can/minutes"; "" means the entry as a whole.
type Issue struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (i Issue) String() string {
	if i.Path == "" {
		return i.Message
	}
	return i.Path + ": " + i.Message
}

// issues collects Issues and sorts them in document order.
type issues []Issue

func (is *issues) add(path, format string, args ...any) {
	*is = append(*is, Issue{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (is issues) sorted() []Issue {
	out := slices.Clone(is)
	sort.SliceStable(out, func(a, b int) bool { return jsonpointer.Compare(out[a].Path, out[b].Path) < 0 })
	return out
}

// Defaults a job request without `can` is taken to have ("Verifying
// claims", step 1): 60 CPU minutes, 100 MB, no GPU and no licensed
// software.
const (
	DefaultMinutes    = 60
	DefaultDownloadMB = 100
)

// Can is what a verifier says it can run now.
type Can struct {
	Minutes    float64
	GPU        bool
	DownloadMB float64
	Software   []string
}

// DefaultCan is what a request without `can` may run.
var DefaultCan = Can{Minutes: DefaultMinutes, DownloadMB: DefaultDownloadMB}

// Request is a checked job_request.
type Request struct {
	Operator    string
	Time        time.Time
	Can         Can
	ModelFamily string
	Model       string
	Ideas       bool
	Importance  bool     // true unless the request says "importance": false
	Unfiltered  []string // areas the model's provider shows it that filters commonly refuse
}

// FilterAreas are the areas a release --blocked names and `unfiltered`
// lists ("Common problems").
var FilterAreas = []string{"biological", "chemical", "radiological", "nuclear", "cyber", "other"}

var requestMembers = []string{"type", "operator", "time", "can", "model_family", "model", "ideas", "importance", "unfiltered", "sig"}

// The members `can` may hold. The reference's harness sends the first
// four; importance and unfiltered are accepted there too, where the spec's
// wording puts them ("`"importance": false` in `can`").
var canMembers = []string{"minutes", "gpu", "download_mb", "software", "importance", "unfiltered", "ideas"}

// CheckRequest checks a job_request's members (not its signature or its
// operator, which need the store): its type, operator ID, time within
// vocabulary.ClockSkew of now, `can`, model family and model name.
func CheckRequest(e map[string]any, now time.Time) (Request, []Issue) {
	var is issues
	var r Request
	unknown(&is, e, requestMembers, "")
	if e["type"] != "job_request" {
		is.add("/type", `type must be "job_request"`)
	}
	r.Operator = operatorMember(&is, e, "operator")
	r.Time = timeMember(&is, e, now)
	r.ModelFamily, r.Model = modelMembers(&is, e)
	if _, ok := e["sig"].(string); !ok {
		is.add("/sig", "sig is the operator's signature, a string")
	}
	r.Can = DefaultCan
	r.Importance = true
	if v, ok := e["can"]; ok {
		can, isObj := v.(map[string]any)
		if !isObj {
			is.add("/can", `can is an object: {"minutes", "gpu", "download_mb", "software"}`)
		} else {
			unknown(&is, can, canMembers, "/can")
			r.Can = checkCan(&is, can)
			flags(&is, can, "/can", &r)
		}
	}
	flags(&is, e, "", &r)
	return r, is.sorted()
}

// flags reads ideas, importance and unfiltered from obj, at prefix.
func flags(is *issues, obj map[string]any, prefix string, r *Request) {
	if v, ok := obj["ideas"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			is.add(prefix+"/ideas", "ideas is true or false")
		}
		r.Ideas = r.Ideas || b
	}
	if v, ok := obj["importance"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			is.add(prefix+"/importance", "importance is true or false")
		} else if !b {
			r.Importance = false
		}
	}
	if v, ok := obj["unfiltered"]; ok {
		list, isList := v.([]any)
		if !isList {
			is.add(prefix+"/unfiltered", "unfiltered lists areas, such as [\"biological\"]")
			return
		}
		for i, item := range list {
			s, _ := item.(string)
			if !slices.Contains(FilterAreas[:5], s) {
				is.add(fmt.Sprintf("%s/unfiltered/%d", prefix, i), "an area is one of %s", strings.Join(FilterAreas[:5], ", "))
				continue
			}
			if !slices.Contains(r.Unfiltered, s) {
				r.Unfiltered = append(r.Unfiltered, s)
			}
		}
	}
}

func checkCan(is *issues, can map[string]any) Can {
	c := DefaultCan
	if v, ok := can["minutes"]; ok {
		m, isNum := v.(float64)
		if !isNum || m < 0 || math.IsInf(m, 0) || m > 7*24*60 {
			is.add("/can/minutes", "minutes is a number from 0 to 10080, the most minutes you'll spend")
		} else {
			c.Minutes = m
		}
	}
	if v, ok := can["gpu"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			is.add("/can/gpu", "gpu is true or false")
		}
		c.GPU = b
	}
	if v, ok := can["download_mb"]; ok {
		m, isNum := v.(float64)
		if !isNum || m < 0 || m > 1e7 {
			is.add("/can/download_mb", "download_mb is a number of megabytes from 0")
		} else {
			c.DownloadMB = m
		}
	}
	if v, ok := can["software"]; ok {
		list, isList := v.([]any)
		if !isList || len(list) > 50 {
			is.add("/can/software", "software lists at most 50 names, such as [\"lean4\"]")
		}
		for i, item := range list {
			s, isStr := item.(string)
			if !isStr || s == "" || len(s) > 60 {
				is.add(fmt.Sprintf("/can/software/%d", i), "a software name is a string of 1 to 60 characters")
				continue
			}
			c.Software = append(c.Software, s)
		}
	}
	return c
}

// unknown adds an issue for each member of obj not in allowed.
func unknown(is *issues, obj map[string]any, allowed []string, prefix string) {
	for k := range obj {
		if !slices.Contains(allowed, k) {
			is.add(prefix+"/"+escape(k), "no member %q here; the members are %s", k, strings.Join(allowed, ", "))
		}
	}
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func operatorMember(is *issues, e map[string]any, name string) string {
	s, _ := e[name].(string)
	if !protocol.IsOperatorID(s) {
		is.add("/"+name, "%s is an operator ID: op: and 64 lowercase hex digits", name)
	}
	return s
}

var timePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$`)

// ErrStale is the message of the issue at /time when the time is outside
// the clock window; CheckRequest's caller answers it with its own code.
const staleMessage = "is more than 5 minutes from the node's clock; sign with the time now"

// Stale reports whether issues refuse only the request's time.
func Stale(list []Issue) bool {
	for _, i := range list {
		if i.Path == "/time" && strings.Contains(i.Message, staleMessage) {
			return true
		}
	}
	return false
}

func timeMember(is *issues, e map[string]any, now time.Time) time.Time {
	s, _ := e["time"].(string)
	if !timePattern.MatchString(s) {
		is.add("/time", "time is UTC as YYYY-MM-DDTHH:MM:SSZ")
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		is.add("/time", "time is not a real date and time")
		return time.Time{}
	}
	if d := t.Sub(now); d > vocabulary.ClockSkew || d < -vocabulary.ClockSkew {
		is.add("/time", "time %s %s (%s)", s, staleMessage, now.UTC().Format(time.RFC3339))
	}
	return t
}

// optionalModel checks the model an entry may name (a challenge's or an
// addendum's, optional as the reference library's schemas have it): none,
// or model_family and model both, each checked, so a malformed model is
// reported even when the family is missing.
func optionalModel(is *issues, e map[string]any) (family, model string) {
	_, named := e["model_family"]
	if _, ok := e["model"]; !ok && !named {
		return "", ""
	}
	return modelMembers(is, e)
}

// modelMembers checks model_family, one of the families the protocol
// names, and model, a model ID.
func modelMembers(is *issues, e map[string]any) (family, model string) {
	family, _ = e["model_family"].(string)
	if !vocabulary.IsModelFamily(family) {
		is.add("/model_family", "model_family is one of %s", strings.Join(vocabulary.FamilyNames(), ", "))
	}
	model, _ = e["model"].(string)
	if !vocabulary.IsModelID(model) {
		is.add("/model", "model names the model you are: 1 to 64 of a-z, 0-9 and . - _ : / +, such as claude-opus-5-5")
	}
	return family, model
}
