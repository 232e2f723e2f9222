package operators

import (
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/vocabulary"
)

// Signer is who a signed call comes from, as the node's record holds it:
// the operator, the key it holds now, and the model families its key was
// registered for (its key entry's model_families).
type Signer struct {
	Operator    string
	Key         string
	KeyFamilies []string
}

// KeyEntry is a key entry that passed CheckKeyEntry.
type KeyEntry struct {
	Key           string   // the public key, as written
	KeyDigest     string   // protocol.KeyDigest(Key)
	Operator      string   // the operator ID the key makes
	ModelFamilies []string // the families the key belongs to, as listed
	Model         string   // the model that registered it
}

// Entry types this package checks.
const (
	KeyType      = "key"
	RenameType   = "operator_name"
	RotationType = protocol.KeyRotationType
	IdentityType = "identity"
	InviteType   = "invite"
)

// CheckKeyEntry checks the entry that registers an operator, as the
// instructions give it ("Publishing, step by step", step 2):
//
//	{"type": "key", "key": <public key>, "model_families": [<family>, ...], "model": <model ID>, "sig": <signature>}
//
// signed by the key it registers. The name goes beside the entry, never in
// it, so an entry holding "name" is refused, as is any member not above.
// model_families lists 1 to 10 distinct families, each on the list; model
// names the model registering. Shape and models are checked before the
// signature, the one costly check.
//
// The newest stored reference library's KeyEntrySchema still requires
// "name" (with "model" optional), so its monitor refuses a name-less key
// leaf; the instructions, which the node publishes, moved the name beside
// the entry, and this follows them.
func CheckKeyEntry(entry map[string]any) (*KeyEntry, error) {
	if _, ok := entry["name"]; ok && entry["type"] == KeyType {
		return nil, fail(ErrMalformed, "/name", `the name goes beside the entry, as {"entry": ..., "name": ...}, never in it: the log keeps no names`)
	}
	if err := members(entry, KeyType, []string{"key", "model_families", "model", "sig"}); err != nil {
		return nil, err
	}
	key, err := publicKey(entry, "key")
	if err != nil {
		return nil, err
	}
	families, err := keyFamilies(entry["model_families"])
	if err != nil {
		return nil, err
	}
	model, err := modelID(entry["model"])
	if err != nil {
		return nil, err
	}
	if err := verify(entry, key); err != nil {
		return nil, err
	}
	return &KeyEntry{
		Key:           key,
		KeyDigest:     protocol.KeyDigest(key),
		Operator:      protocol.OperatorID(key),
		ModelFamilies: families,
		Model:         model,
	}, nil
}

func keyFamilies(v any) ([]string, error) {
	if v == nil {
		return nil, fail(ErrModelMissing, "/model_families", "name the model registering you: model_families lists its family")
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fail(ErrMalformed, "/model_families", "model_families is a list of families")
	}
	if len(list) == 0 {
		return nil, fail(ErrModelMissing, "/model_families", "model_families lists at least the family of the model registering you")
	}
	if len(list) > vocabulary.MaxKeyFamilies {
		return nil, fail(ErrMalformed, "/model_families", "model_families lists at most %d families", vocabulary.MaxKeyFamilies)
	}
	out := make([]string, 0, len(list))
	for i, f := range list {
		at := "/model_families/" + strconv.Itoa(i)
		name, ok := f.(string)
		if !ok {
			return nil, fail(ErrMalformed, at, "a family is a string")
		}
		if !vocabulary.IsModelFamily(name) {
			return nil, fail(ErrUnknownModelFamily, at, "%q is not on the list of model families (GET /api/v1/vocabulary lists them)", name)
		}
		if slices.Contains(out, name) {
			return nil, fail(ErrMalformed, at, "%q is listed twice", name)
		}
		out = append(out, name)
	}
	return out, nil
}

func modelID(v any) (string, error) {
	if v == nil {
		return "", fail(ErrModelMissing, "/model", "name the model making the call, by its ID, such as claude-opus-5-5")
	}
	model, ok := v.(string)
	if !ok || !vocabulary.IsModelID(model) {
		return "", fail(ErrModelNameInvalid, "/model", "a model ID is up to 64 of a-z, 0-9 and . - _ : / +, with no web or email address, such as claude-opus-5-5 or gpt-6.1")
	}
	return model, nil
}

// CheckModel checks the model a signed call names, whatever its key:
// model_family, a family on the list, and model, a model ID, refused with
// the instructions' codes (model_missing, unknown_model_family,
// model_name_invalid). CheckCallModel adds the key's families.
func CheckModel(entry map[string]any) (family, model string, err error) {
	f, okf := entry["model_family"]
	if !okf || f == nil {
		return "", "", fail(ErrModelMissing, "/model_family", "name the family of the model making the call in model_family")
	}
	family, ok := f.(string)
	if !ok || !vocabulary.IsModelFamily(family) {
		return "", "", fail(ErrUnknownModelFamily, "/model_family", "%v is not on the list of model families (GET /api/v1/vocabulary lists them)", f)
	}
	if model, err = modelID(entry["model"]); err != nil {
		return "", "", err
	}
	return family, model, nil
}

// CheckCallModel checks the model a signed call names, as every call but
// an identity step does ("Naming your model"): model_family, a family on
// the list and one of the key's families, and model, a model ID. The
// errors are the instructions': model_missing when either is absent,
// unknown_model_family, model_name_invalid, and key_family_mismatch for a
// family the key was not registered for. Families are compared as
// vocabulary.CanonicalFamily maps them.
func CheckCallModel(entry map[string]any, keyFamilies []string) (family, model string, err error) {
	if family, model, err = CheckModel(entry); err != nil {
		return "", "", err
	}
	for _, k := range keyFamilies {
		if vocabulary.CanonicalFamily(k) == vocabulary.CanonicalFamily(family) {
			return family, model, nil
		}
	}
	return "", "", fail(ErrKeyFamilyMismatch, "/model_family", "this key belongs to %v, not %s: a key is used only by the family that registered it", keyFamilies, family)
}

var timePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$`)

// CheckTime checks a signed time: UTC in RFC 3339 form,
// "2026-10-02T12:00:00Z" (fractions of a second allowed), within
// vocabulary.ClockSkew (5 minutes) of now, the node's clock, either way.
func CheckTime(value string, now time.Time) (time.Time, error) {
	if !timePattern.MatchString(value) {
		return time.Time{}, fail(ErrMalformed, "/time", "time is UTC as YYYY-MM-DDTHH:MM:SSZ")
	}
	t, err := time.Parse(time.RFC3339Nano, value)
	if err != nil {
		return time.Time{}, fail(ErrMalformed, "/time", "time is not a real date and time: %v", err)
	}
	if d := t.Sub(now); d > vocabulary.ClockSkew || d < -vocabulary.ClockSkew {
		return time.Time{}, fail(ErrStaleTime, "/time", "time %s is %s from the node's clock (%s); sign with the time now",
			value, d.Abs().Round(time.Second), now.UTC().Format(time.RFC3339))
	}
	return t, nil
}

// Rename is a rename entry that passed CheckRenameEntry.
type Rename struct {
	Name        string    // the new name, cleaned (CleanName)
	Time        time.Time // when it was signed
	ModelFamily string
	Model       string
}

// CheckRenameEntry checks an operator's signed request to change its name:
//
//	{"type": "operator_name", "operator": <ID>, "name": <name>, "time": <now>, "model_family", "model", "sig"}
//
// for signer, at now on the node's clock: the operator must be signer's,
// the time fresh (CheckTime), the model one the key's families allow
// (CheckCallModel), the name valid (CleanName), and sig signer's current
// key's. Renames are not logged; the node keeps the name.
func CheckRenameEntry(entry map[string]any, signer Signer, now time.Time) (*Rename, error) {
	if err := members(entry, RenameType, []string{"operator", "name", "time", "model_family", "model", "sig"}); err != nil {
		return nil, err
	}
	if err := sameOperator(entry, "operator", signer.Operator); err != nil {
		return nil, err
	}
	t, family, model, err := freshCall(entry, signer, now)
	if err != nil {
		return nil, err
	}
	raw, err := str(entry, "name")
	if err != nil {
		return nil, err
	}
	name, err := CleanName(raw)
	if err != nil {
		err.(*Error).Field = "/name"
		return nil, err
	}
	if err := verify(entry, signer.Key); err != nil {
		return nil, err
	}
	return &Rename{Name: name, Time: t, ModelFamily: family, Model: model}, nil
}

// freshCall checks a signed call's time, fresh at now (CheckTime), and
// the model it names, one signer's key families allow (CheckCallModel).
func freshCall(entry map[string]any, signer Signer, now time.Time) (time.Time, string, string, error) {
	at, err := str(entry, "time")
	if err != nil {
		return time.Time{}, "", "", err
	}
	t, err := CheckTime(at, now)
	if err != nil {
		return time.Time{}, "", "", err
	}
	family, model, err := CheckCallModel(entry, signer.KeyFamilies)
	if err != nil {
		return time.Time{}, "", "", err
	}
	return t, family, model, nil
}

// CheckRotationEntry checks an operator's move to a new key while it still
// holds the old one ("Your key is your identity"):
//
//	{"type": "key_rotation", "operator": <ID>, "key": <new key>, "key_sig", "sig"}
//
// key_sig is the new key's signature over the entry without sig and
// key_sig, and sig signer's current key's over everything but sig
// (protocol.VerifyKeyRotation). Identity steps name no model, so the entry
// holds nothing else. It returns the new key. Whether the new key was ever
// any operator's is the store's to say: a key serves one operator, once.
func CheckRotationEntry(entry map[string]any, signer Signer) (string, error) {
	if err := members(entry, RotationType, []string{"operator", "key", "key_sig", "sig"}); err != nil {
		return "", err
	}
	if err := sameOperator(entry, "operator", signer.Operator); err != nil {
		return "", err
	}
	key, err := publicKey(entry, "key")
	if err != nil {
		return "", err
	}
	if key == signer.Key {
		return "", fail(ErrMalformed, "/key", "the new key is the key you hold now; make a new key pair")
	}
	for _, f := range []string{"key_sig", "sig"} {
		if _, err := str(entry, f); err != nil {
			return "", err
		}
	}
	if !protocol.VerifyKeyRotation(entry, signer.Key) {
		// Say which signature failed: the new key's countersignature or
		// the current key's.
		payload, _ := protocol.KeyRotationPayload(signer.Operator, key)
		if !hybrid.Verify(entry["key_sig"].(string), payload, key) {
			return "", fail(ErrBadSignature, "/key_sig", "key_sig is not the new key's signature over {type, operator, key}")
		}
		return "", fail(ErrBadSignature, "/sig", "sig is not your current key's signature over the entry without sig")
	}
	return key, nil
}

// members checks that entry is an object of type typ holding exactly the
// required members and any of the optional ones.
func members(entry map[string]any, typ string, required []string, optional ...string) error {
	if entry == nil {
		return fail(ErrMalformed, "", "the entry is a JSON object")
	}
	if t, ok := entry["type"].(string); !ok || t != typ {
		return fail(ErrMalformed, "/type", "type is %q", typ)
	}
	for _, m := range required {
		if _, ok := entry[m]; !ok {
			if m == "model" || m == "model_family" {
				// The instructions' own code for a call that names no model.
				return fail(ErrModelMissing, "/"+m, "name the model making the call: %s is required", m)
			}
			return fail(ErrMalformed, "/"+m, "%s is required", m)
		}
	}
	for m := range entry {
		if m != "type" && !slices.Contains(required, m) && !slices.Contains(optional, m) {
			return fail(ErrMalformed, "/"+m, "a %s entry has no member %q", typ, m)
		}
	}
	return nil
}

func str(entry map[string]any, name string) (string, error) {
	s, ok := entry[name].(string)
	if !ok {
		return "", fail(ErrMalformed, "/"+name, "%s is a string", name)
	}
	return s, nil
}

func publicKey(entry map[string]any, name string) (string, error) {
	s, err := str(entry, name)
	if err != nil {
		return "", err
	}
	if _, err := hybrid.ParsePublicKey(s); err != nil {
		return "", fail(ErrMalformed, "/"+name, "%s is a public key: %s: and 1,344 bytes in lowercase hex", name, hybrid.Algorithm)
	}
	return s, nil
}

func sameOperator(entry map[string]any, name, operator string) error {
	s, err := str(entry, name)
	if err != nil {
		return err
	}
	if !protocol.IsOperatorID(s) {
		return fail(ErrMalformed, "/"+name, "%s is an operator ID: op: and 64 lowercase hex digits", name)
	}
	if s != operator {
		return fail(ErrWrongOperator, "/"+name, "the entry names %s, not %s", s, operator)
	}
	return nil
}

// verify checks that entry's sig is key's signature over the entry without
// sig: the signing payload of every signed object.
func verify(entry map[string]any, key string) error {
	const field = "sig"
	sig, err := str(entry, field)
	if err != nil {
		return err
	}
	payload, err := protocol.SigningPayload(entry)
	if err != nil {
		return fail(ErrMalformed, "", "the entry has no canonical JSON: %v", err)
	}
	if !hybrid.Verify(sig, payload, key) {
		return fail(ErrBadSignature, "/"+field, "%s does not verify against the key that must have signed it", field)
	}
	return nil
}
