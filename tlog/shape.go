package tlog

import (
	"slices"
	"strings"
)

// object reads a JSON object (as canonical.Parse returns it) of a closed
// shape, naming what it is in every error.
type object struct {
	what string
	m    map[string]any
}

// closedObject checks that v is an object holding every member of required,
// any of optional, and nothing else.
func closedObject(v any, what string, required []string, optional ...string) (object, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return object{}, malformed("%s is not a JSON object", what)
	}
	for _, name := range required {
		if _, ok := m[name]; !ok {
			return object{}, malformed("%s has no %q", what, name)
		}
	}
	var unknown []string
	for name := range m {
		if !slices.Contains(required, name) && !slices.Contains(optional, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return object{}, malformed("%s has members it may not have: %.200q", what, strings.Join(unknown, ", "))
	}
	return object{what: what, m: m}, nil
}

func (o object) has(name string) bool {
	_, ok := o.m[name]
	return ok
}

func (o object) string(name string) (string, error) {
	s, ok := o.m[name].(string)
	if !ok {
		return "", malformed("%s: %q is not a string", o.what, name)
	}
	return s, nil
}

func (o object) literal(name, want string) error {
	s, err := o.string(name)
	if err != nil {
		return err
	}
	if s != want {
		return malformed("%s: %q is %.80q, not %q", o.what, name, s, want)
	}
	return nil
}

func (o object) position(name string) (uint64, error) {
	n, ok := o.m[name].(float64)
	if !ok {
		return 0, malformed("%s: %q is not a number", o.what, name)
	}
	p, err := Position(n)
	if err != nil {
		return 0, malformed("%s: %q: %w", o.what, name, err)
	}
	return p, nil
}

func (o object) hash(name string) (Hash, error) {
	s, err := o.string(name)
	if err != nil {
		return Hash{}, err
	}
	h, err := ParseHash(s)
	if err != nil {
		return Hash{}, malformed("%s: %q: %w", o.what, name, err)
	}
	return h, nil
}

func (o object) strings(name string) ([]string, error) {
	arr, ok := o.m[name].([]any)
	if !ok {
		return nil, malformed("%s: %q is not an array", o.what, name)
	}
	out := make([]string, len(arr))
	for i, v := range arr {
		s, ok := v.(string)
		if !ok {
			return nil, malformed("%s: %q[%d] is not a string", o.what, name, i)
		}
		out[i] = s
	}
	return out, nil
}

func (o object) object(name string) (map[string]any, error) {
	m, ok := o.m[name].(map[string]any)
	if !ok {
		return nil, malformed("%s: %q is not a JSON object", o.what, name)
	}
	return m, nil
}
