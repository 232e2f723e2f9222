package memory

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agora-node/agora/internal/jsonpointer"
	"github.com/agora-node/agora/internal/runes"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ContractID names the contract this package implements.
const ContractID = "memory-agent-ingress/v1"

// The contract, byte for byte as published.
//
//go:embed memory-agent-ingress-v1.schema.json
var schemaText []byte

// Schema returns the text of the memory-agent-ingress/v1 JSON Schema, for a
// node to serve to adapter authors. The caller owns the bytes.
func Schema() []byte { return bytes.Clone(schemaText) }

// schemaURL names the document inside the compiler; nothing is fetched.
const schemaURL = "https://crowdmemory.local/schemas/agent/memory-agent-ingress-v1.schema.json"

// A contract is the embedded schema read once: its x-* lists and the
// compiled schemas an event or a response is checked against. It is never
// changed after loadContract builds it, so it is shared without a lock.
type contract struct {
	l0Kinds       []string
	disabledKinds []string
	kinds         []string // every kind of x-payloads, L0 first, in the contract's order
	errorCodes    []string
	envelope      *jsonschema.Schema
	responses     map[string]*jsonschema.Schema // by kind
}

// loadContract compiles the embedded schema. A schema that does not compile
// is a defect of this package, which its tests catch, so it panics.
var loadContract = sync.OnceValue(func() *contract {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaText))
	if err != nil {
		panic(fmt.Sprintf("memory: contract schema: %v", err))
	}
	root := doc.(map[string]any)
	c := &contract{
		l0Kinds:       stringList(root["x-l0-kinds"]),
		disabledKinds: stringList(root["x-capability-disabled-kinds"]),
		errorCodes:    stringList(root["x-error-codes"]),
		responses:     map[string]*jsonschema.Schema{},
	}
	c.kinds = append(slices.Clone(c.l0Kinds), c.disabledKinds...)
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	if err := comp.AddResource(schemaURL, doc); err != nil {
		panic(fmt.Sprintf("memory: contract schema: %v", err))
	}
	if c.envelope, err = comp.Compile(schemaURL); err != nil {
		panic(fmt.Sprintf("memory: contract schema: %v", err))
	}
	responses, _ := root["x-responses"].(map[string]any)
	for _, kind := range c.kinds {
		ref, _ := responses[kind].(string)
		s, err := comp.Compile(schemaURL + ref)
		if err != nil {
			panic(fmt.Sprintf("memory: contract schema: response of %s: %v", kind, err))
		}
		c.responses[kind] = s
	}
	return c
})

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, item := range list {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Kinds lists every event kind of the contract: the L0 kinds, then the
// capability-disabled ones, each group in the contract's order.
func Kinds() []string { return slices.Clone(loadContract().kinds) }

// L0Kinds lists the kinds every node serves (x-l0-kinds).
func L0Kinds() []string { return slices.Clone(loadContract().l0Kinds) }

// CapabilityDisabledKinds lists the kinds a node serves only when the
// session's profile enables them (x-capability-disabled-kinds).
func CapabilityDisabledKinds() []string { return slices.Clone(loadContract().disabledKinds) }

// IsKind reports whether kind is a kind of the contract.
func IsKind(kind string) bool { return slices.Contains(loadContract().kinds, kind) }

// IsCapabilityDisabled reports whether kind is off unless a profile enables
// it. ParseEvent reads such kinds like any other; refusing them with
// capability_disabled is the caller's decision, made with the session's
// profile (Profile.KindEnabled).
func IsCapabilityDisabled(kind string) bool {
	return slices.Contains(loadContract().disabledKinds, kind)
}

// printer words validation errors; the schema's own messages are English.
var printer = message.NewPrinter(language.English)

// maxIssues bounds how many schema issues one message lists: the first few
// say what to fix, and the message must stay within 2000 characters.
const maxIssues = 4

// schemaError turns a validation failure into a schema_invalid *Error whose
// message names the JSON Pointer of each failing value. prefix is prepended
// to every pointer, for a document validated below the one the adapter sent.
func schemaError(err error, prefix string) *Error {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &Error{Code: CodeSchemaInvalid, Message: "the body does not match the contract", Err: err}
	}
	var leaves []*jsonschema.ValidationError
	collectLeaves(ve, &leaves)
	type issue struct{ at, what string }
	var issues []issue
	seen := map[string]bool{}
	for _, l := range leaves {
		at := prefix + pointer(l.InstanceLocation)
		what := l.ErrorKind.LocalizedString(printer)
		if seen[at+"\x00"+what] {
			continue
		}
		seen[at+"\x00"+what] = true
		issues = append(issues, issue{at, what})
	}
	// Deeper pointers first: of the branches of a oneOf, the one that got
	// furthest is the one the sender meant.
	sort.SliceStable(issues, func(i, j int) bool {
		di, dj := strings.Count(issues[i].at, "/"), strings.Count(issues[j].at, "/")
		if di != dj {
			return di > dj
		}
		return jsonpointer.Compare(issues[i].at, issues[j].at) < 0
	})
	var b strings.Builder
	for i, is := range issues {
		if i == maxIssues {
			fmt.Fprintf(&b, "; and %d more", len(issues)-maxIssues)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		at := is.at
		if at == "" {
			at = "/"
		}
		fmt.Fprintf(&b, "at %s: %s", at, is.what)
	}
	return &Error{Code: CodeSchemaInvalid, Message: runes.Prefix(b.String(), maxMessageChars), Err: err}
}

// collectLeaves gathers the failed keywords of a validation error's tree;
// inner nodes ($ref, allOf, if/then) only group them.
func collectLeaves(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	if len(e.Causes) == 0 {
		*out = append(*out, e)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, out)
	}
}

// pointer writes tokens as an RFC 6901 JSON Pointer.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}
