package operators

import (
	"errors"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
)

var (
	keysOnce sync.Once
	testKeys []*hybrid.PrivateKey
)

// key returns the i-th of a few keys made once for all tests.
func key(t *testing.T, i int) *hybrid.PrivateKey {
	t.Helper()
	keysOnce.Do(func() {
		for range 4 {
			k, err := hybrid.GenerateKey()
			if err != nil {
				panic(err)
			}
			testKeys = append(testKeys, k)
		}
	})
	return testKeys[i]
}

func pub(k *hybrid.PrivateKey) string { return k.Public().String() }

func signed(t *testing.T, k *hybrid.PrivateKey, entry map[string]any) map[string]any {
	t.Helper()
	e := maps.Clone(entry)
	delete(e, "sig")
	if err := protocol.Sign(e, k); err != nil {
		t.Fatal(err)
	}
	return e
}

// wantErr checks that err is an *Error wrapping want, naming field.
func wantErr(t *testing.T, what string, err error, want *Sentinel, field string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, want) {
		t.Errorf("%s: error %v, want %s", what, err, want.Code())
		return
	}
	if field != "" && e.Field != field {
		t.Errorf("%s: error names %q, want %q (%v)", what, e.Field, field, err)
	}
	var s *Sentinel
	if !errors.As(err, &s) || s.Code() != want.Code() {
		t.Errorf("%s: errors.As(*Sentinel) gives %v", what, s)
	}
}

func keyEntry(k *hybrid.PrivateKey) map[string]any {
	return map[string]any{"type": "key", "key": pub(k), "model_families": []any{"claude"}, "model": "claude-opus-5-5"}
}

func TestCheckKeyEntry(t *testing.T) {
	k := key(t, 0)
	got, err := CheckKeyEntry(signed(t, k, keyEntry(k)))
	if err != nil {
		t.Fatal(err)
	}
	if got.Key != pub(k) || got.Operator != protocol.OperatorID(pub(k)) || got.KeyDigest != protocol.KeyDigest(pub(k)) ||
		len(got.ModelFamilies) != 1 || got.ModelFamilies[0] != "claude" || got.Model != "claude-opus-5-5" {
		t.Errorf("CheckKeyEntry = %+v", got)
	}
	two := keyEntry(k)
	two["model_families"] = []any{"gpt", "claude"}
	if got, err := CheckKeyEntry(signed(t, k, two)); err != nil || strings.Join(got.ModelFamilies, ",") != "gpt,claude" {
		t.Errorf("two families: %+v, %v", got, err)
	}
}

func TestCheckKeyEntryRefuses(t *testing.T) {
	k, other := key(t, 0), key(t, 1)
	for _, tc := range []struct {
		why    string
		change func(e map[string]any)
		sign   *hybrid.PrivateKey // sign after the change; nil to change after signing
		want   *Sentinel
		field  string
	}{
		{"name in the entry", func(e map[string]any) { e["name"] = "Scout" }, k, ErrMalformed, "/name"},
		{"unknown member", func(e map[string]any) { e["note"] = "x" }, k, ErrMalformed, "/note"},
		{"wrong type", func(e map[string]any) { e["type"] = "key_rotation" }, k, ErrMalformed, "/type"},
		{"no key", func(e map[string]any) { delete(e, "key") }, k, ErrMalformed, "/key"},
		{"key not a key", func(e map[string]any) { e["key"] = "ed25519:abcd" }, k, ErrMalformed, "/key"},
		{"key a number", func(e map[string]any) { e["key"] = 7.0 }, k, ErrMalformed, "/key"},
		{"no families", func(e map[string]any) { delete(e, "model_families") }, k, ErrMalformed, "/model_families"},
		{"families null", func(e map[string]any) { e["model_families"] = nil }, k, ErrModelMissing, "/model_families"},
		{"families empty", func(e map[string]any) { e["model_families"] = []any{} }, k, ErrModelMissing, "/model_families"},
		{"families a string", func(e map[string]any) { e["model_families"] = "claude" }, k, ErrMalformed, "/model_families"},
		{"unknown family", func(e map[string]any) { e["model_families"] = []any{"claude", "hal"} }, k, ErrUnknownModelFamily, "/model_families/1"},
		{"family in capitals", func(e map[string]any) { e["model_families"] = []any{"Claude"} }, k, ErrUnknownModelFamily, "/model_families/0"},
		{"earlier family name", func(e map[string]any) { e["model_families"] = []any{"gpt-6"} }, k, ErrUnknownModelFamily, "/model_families/0"},
		{"family twice", func(e map[string]any) { e["model_families"] = []any{"gpt", "gpt"} }, k, ErrMalformed, "/model_families/1"},
		{"eleven families", func(e map[string]any) {
			e["model_families"] = []any{"claude", "gpt", "gemini", "grok", "llama", "muse", "mistral", "qwen", "deepseek", "kimi", "glm"}
		}, k, ErrMalformed, "/model_families"},
		{"family a number", func(e map[string]any) { e["model_families"] = []any{1.0} }, k, ErrMalformed, "/model_families/0"},
		{"no model", func(e map[string]any) { delete(e, "model") }, k, ErrModelMissing, "/model"},
		{"model null", func(e map[string]any) { e["model"] = nil }, k, ErrModelMissing, "/model"},
		{"model a sentence", func(e map[string]any) { e["model"] = "Claude Opus, the latest" }, k, ErrModelNameInvalid, "/model"},
		{"model a URL", func(e map[string]any) { e["model"] = "https://claude.ai" }, k, ErrModelNameInvalid, "/model"},
		{"model too long", func(e map[string]any) { e["model"] = strings.Repeat("m", 65) }, k, ErrModelNameInvalid, "/model"},
		{"no sig", func(e map[string]any) { delete(e, "sig") }, nil, ErrMalformed, "/sig"},
		{"sig a number", func(e map[string]any) { e["sig"] = 1.0 }, nil, ErrMalformed, "/sig"},
		{"changed after signing", func(e map[string]any) { e["model"] = "claude-opus-5-6" }, nil, ErrBadSignature, "/sig"},
		{"signed by another key", func(map[string]any) {}, other, ErrBadSignature, "/sig"},
		{"sig of another object", func(e map[string]any) { e["sig"] = other.Sign([]byte("x")) }, nil, ErrBadSignature, "/sig"},
	} {
		e := keyEntry(k)
		if tc.sign != nil {
			tc.change(e)
			e = signed(t, tc.sign, e)
		} else {
			e = signed(t, k, e)
			tc.change(e)
		}
		_, err := CheckKeyEntry(e)
		wantErr(t, tc.why, err, tc.want, tc.field)
	}
	_, err := CheckKeyEntry(nil)
	wantErr(t, "nil entry", err, ErrMalformed, "")
}

func TestCheckCallModel(t *testing.T) {
	for _, tc := range []struct {
		why      string
		entry    map[string]any
		families []string
		want     *Sentinel
	}{
		{"fine", map[string]any{"model_family": "claude", "model": "claude-opus-5-5"}, []string{"claude"}, nil},
		{"one of two", map[string]any{"model_family": "gpt", "model": "gpt-6.1"}, []string{"claude", "gpt"}, nil},
		{"key of an earlier name", map[string]any{"model_family": "gpt", "model": "gpt-6.1"}, []string{"gpt-6"}, nil},
		{"no family", map[string]any{"model": "gpt-6.1"}, []string{"gpt"}, ErrModelMissing},
		{"family null", map[string]any{"model_family": nil, "model": "gpt-6.1"}, []string{"gpt"}, ErrModelMissing},
		{"no model", map[string]any{"model_family": "gpt"}, []string{"gpt"}, ErrModelMissing},
		{"family off the list", map[string]any{"model_family": "hal", "model": "hal-9000"}, []string{"gpt"}, ErrUnknownModelFamily},
		{"family not a string", map[string]any{"model_family": 3.0, "model": "x"}, []string{"gpt"}, ErrUnknownModelFamily},
		{"model not an ID", map[string]any{"model_family": "gpt", "model": "GPT 6"}, []string{"gpt"}, ErrModelNameInvalid},
		{"another family's key", map[string]any{"model_family": "gemini", "model": "gemini-3"}, []string{"claude"}, ErrKeyFamilyMismatch},
	} {
		family, model, err := CheckCallModel(tc.entry, tc.families)
		if tc.want == nil {
			if err != nil || family != tc.entry["model_family"] || model != tc.entry["model"] {
				t.Errorf("%s: %q, %q, %v", tc.why, family, model, err)
			}
			continue
		}
		wantErr(t, tc.why, err, tc.want, "")
	}
}

func TestCheckTime(t *testing.T) {
	now := time.Date(2026, 10, 2, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		value string
		want  *Sentinel
	}{
		{"2026-10-02T12:00:00Z", nil},
		{"2026-10-02T12:04:59Z", nil},
		{"2026-10-02T12:05:00Z", nil},
		{"2026-10-02T11:55:00Z", nil},
		{"2026-10-02T11:59:59.123Z", nil},
		{"2026-10-02T12:05:01Z", ErrStaleTime},
		{"2026-10-02T11:54:59Z", ErrStaleTime},
		{"2025-10-02T12:00:00Z", ErrStaleTime},
		{"2026-10-02T12:00:00+00:00", ErrMalformed},
		{"2026-10-02 12:00:00Z", ErrMalformed},
		{"2026-10-02T12:00Z", ErrMalformed},
		{"2026-13-02T12:00:00Z", ErrMalformed},
		{"2026-10-02T12:00:00.Z", ErrMalformed},
		{"", ErrMalformed},
	} {
		got, err := CheckTime(tc.value, now)
		if tc.want == nil {
			if err != nil || got.IsZero() {
				t.Errorf("CheckTime(%q) = %v, %v", tc.value, got, err)
			}
			continue
		}
		wantErr(t, "CheckTime("+tc.value+")", err, tc.want, "/time")
	}
}

func renameEntry(op string) map[string]any {
	return map[string]any{
		"type": "operator_name", "operator": op, "name": "Ranger", "time": "2026-10-02T12:00:00Z",
		"model_family": "claude", "model": "claude-opus-5-5",
	}
}

func TestCheckRenameEntry(t *testing.T) {
	k, other := key(t, 0), key(t, 1)
	now := time.Date(2026, 10, 2, 12, 1, 0, 0, time.UTC)
	op := protocol.OperatorID(pub(k))
	signer := Signer{Operator: op, Key: pub(k), KeyFamilies: []string{"claude"}}

	e := renameEntry(op)
	e["name"] = "  Ranger  "
	got, err := CheckRenameEntry(signed(t, k, e), signer, now)
	if err != nil || got.Name != "Ranger" || got.ModelFamily != "claude" || got.Model != "claude-opus-5-5" || !got.Time.Equal(now.Add(-time.Minute)) {
		t.Fatalf("CheckRenameEntry = %+v, %v", got, err)
	}
	for _, tc := range []struct {
		why    string
		change func(e map[string]any)
		sign   *hybrid.PrivateKey
		want   *Sentinel
		field  string
	}{
		{"another operator", func(e map[string]any) { e["operator"] = protocol.OperatorID(pub(other)) }, k, ErrWrongOperator, "/operator"},
		{"not an operator ID", func(e map[string]any) { e["operator"] = "op:12" }, k, ErrMalformed, "/operator"},
		{"stale", func(e map[string]any) { e["time"] = "2026-10-02T11:50:00Z" }, k, ErrStaleTime, "/time"},
		{"no time", func(e map[string]any) { delete(e, "time") }, k, ErrMalformed, "/time"},
		{"no model", func(e map[string]any) { delete(e, "model") }, k, ErrModelMissing, "/model"},
		{"another family", func(e map[string]any) { e["model_family"] = "gpt"; e["model"] = "gpt-6.1" }, k, ErrKeyFamilyMismatch, "/model_family"},
		{"name numbered", func(e map[string]any) { e["name"] = "Ranger #2" }, k, ErrInvalidName, "/name"},
		{"name an address", func(e map[string]any) { e["name"] = "ranger.ai" }, k, ErrInvalidName, "/name"},
		{"name blank", func(e map[string]any) { e["name"] = " " }, k, ErrInvalidName, "/name"},
		{"name not a string", func(e map[string]any) { e["name"] = []any{} }, k, ErrMalformed, "/name"},
		{"extra member", func(e map[string]any) { e["hidden"] = true }, k, ErrMalformed, "/hidden"},
		{"signed by another key", func(map[string]any) {}, other, ErrBadSignature, "/sig"},
		{"changed after signing", func(e map[string]any) { e["name"] = "Rover" }, nil, ErrBadSignature, "/sig"},
	} {
		e := renameEntry(op)
		if tc.sign != nil {
			tc.change(e)
			e = signed(t, tc.sign, e)
		} else {
			e = signed(t, k, e)
			tc.change(e)
		}
		_, err := CheckRenameEntry(e, signer, now)
		wantErr(t, tc.why, err, tc.want, tc.field)
	}
}

func TestCheckRotationEntry(t *testing.T) {
	current, next, other := key(t, 0), key(t, 1), key(t, 2)
	op := protocol.OperatorID(pub(current))
	signer := Signer{Operator: op, Key: pub(current), KeyFamilies: []string{"claude"}}

	good, err := protocol.SignKeyRotation(op, next, current)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := CheckRotationEntry(good, signer); err != nil || got != pub(next) {
		t.Fatalf("CheckRotationEntry = %q, %v", got, err)
	}
	// An operator that rotated before: its current key is not the one
	// that makes its ID.
	later, _ := protocol.SignKeyRotation(op, other, next)
	if got, err := CheckRotationEntry(later, Signer{Operator: op, Key: pub(next)}); err != nil || got != pub(other) {
		t.Errorf("second rotation: %q, %v", got, err)
	}

	resign := func(e map[string]any, k *hybrid.PrivateKey) map[string]any { return signed(t, k, e) }
	for _, tc := range []struct {
		why   string
		entry func() map[string]any
		want  *Sentinel
		field string
	}{
		{"another operator", func() map[string]any {
			e, _ := protocol.SignKeyRotation(protocol.OperatorID(pub(other)), next, current)
			return e
		}, ErrWrongOperator, "/operator"},
		{"to the current key", func() map[string]any {
			e, _ := protocol.SignKeyRotation(op, current, current)
			return e
		}, ErrMalformed, "/key"},
		{"signed by the new key only", func() map[string]any {
			e, _ := protocol.SignKeyRotation(op, next, next)
			return e
		}, ErrBadSignature, "/sig"},
		{"signed by the old key only", func() map[string]any {
			e, _ := protocol.SignKeyRotation(op, next, current)
			e["key_sig"] = current.Sign([]byte("x"))
			return resign(e, current)
		}, ErrBadSignature, "/key_sig"},
		{"key_sig of another key", func() map[string]any {
			e, _ := protocol.SignKeyRotation(op, next, current)
			e["key"] = pub(other)
			return resign(e, current)
		}, ErrBadSignature, "/key_sig"},
		{"names a model", func() map[string]any {
			e, _ := protocol.SignKeyRotation(op, next, current)
			e["model_family"] = "claude"
			return resign(e, current)
		}, ErrMalformed, "/model_family"},
		{"no key_sig", func() map[string]any {
			e, _ := protocol.SignKeyRotation(op, next, current)
			delete(e, "key_sig")
			return resign(e, current)
		}, ErrMalformed, "/key_sig"},
		{"key_sig not a string", func() map[string]any {
			e, _ := protocol.SignKeyRotation(op, next, current)
			e["key_sig"] = 5.0
			return resign(e, current)
		}, ErrMalformed, "/key_sig"},
		{"wrong type", func() map[string]any {
			e, _ := protocol.SignKeyRotation(op, next, current)
			e["type"] = "key_recovery"
			return resign(e, current)
		}, ErrMalformed, "/type"},
	} {
		_, err := CheckRotationEntry(tc.entry(), signer)
		wantErr(t, tc.why, err, tc.want, tc.field)
	}
}

func TestErrorText(t *testing.T) {
	err := fail(ErrModelMissing, "/model", "name the model")
	if got := err.Error(); got != "the call does not name its model: /model: name the model" {
		t.Errorf("Error() = %q", got)
	}
	if got := fail(ErrInvalidName, "", "too long").Error(); got != "invalid name: too long" {
		t.Errorf("Error() = %q", got)
	}
}
