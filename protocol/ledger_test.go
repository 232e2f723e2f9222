package protocol

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
)

// testKey makes a deterministic key from a name, so failures reproduce.
func testKey(t *testing.T, name string) *hybrid.PrivateKey {
	t.Helper()
	secret := sha512.Sum512([]byte("ledger test key " + name))
	k, err := hybrid.NewPrivateKey(secret[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// parseObject reads a JSON object as the protocol reads it.
func parseObject(t *testing.T, text string) map[string]any {
	t.Helper()
	v, err := canonical.Parse([]byte(text))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s is not an object", text)
	}
	return obj
}

func sha256Text(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// SHA-256("abc"), FIPS 180-2's first example.
const abcHex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

func TestKeyDerivedIDs(t *testing.T) {
	if got := KeyDigest("abc"); got != "sha256:"+abcHex {
		t.Errorf("KeyDigest = %s", got)
	}
	if got := OperatorID("abc"); got != "op:"+abcHex {
		t.Errorf("OperatorID = %s", got)
	}
	if got := LogID("abc"); got != "log:"+abcHex {
		t.Errorf("LogID = %s", got)
	}
	// The key's text is hashed as written: a key and its bytes differ.
	key := testKey(t, "operator").Public().String()
	if got, want := OperatorID(key), "op:"+sha256Text(key); got != want {
		t.Errorf("OperatorID = %s, want %s", got, want)
	}
	if got := strings.TrimPrefix(KeyDigest(key), "sha256:"); got != strings.TrimPrefix(OperatorID(key), "op:") {
		t.Errorf("an operator ID is its first key's digest without sha256:, got %s", got)
	}
}

func TestValidOperatorID(t *testing.T) {
	key := testKey(t, "operator").Public().String()
	other := testKey(t, "other").Public().String()
	id := OperatorID(key)
	if err := ValidOperatorID(id, key); err != nil {
		t.Fatalf("own ID refused: %v", err)
	}
	raw, _ := hex.DecodeString(strings.TrimPrefix(key, hybrid.Algorithm+":"))
	rawSum := sha256.Sum256(raw)
	for name, bad := range map[string]string{
		"log-assigned number": "op:1",
		"uppercase hex":       strings.ToUpper(id[:3]) + strings.ToUpper(id[3:]),
		"uppercase digits":    "op:" + strings.ToUpper(id[3:]),
		"digest prefix kept":  "op:" + KeyDigest(key),
		"another key's ID":    OperatorID(other),
		"hash of raw bytes":   "op:" + hex.EncodeToString(rawSum[:]),
		"volunteer prefix":    "obs:" + id[3:],
		"empty":               "",
		"trailing newline":    id + "\n",
		"short":               id[:len(id)-1],
	} {
		err := ValidOperatorID(bad, key)
		if err == nil {
			t.Errorf("%s: %q accepted", name, bad)
		} else if !errors.Is(err, ErrInvalidID) {
			t.Errorf("%s: error does not wrap ErrInvalidID: %v", name, err)
		}
	}
	if IsOperatorID("op:" + abcHex + "0") {
		t.Error("65 hex digits accepted as an operator ID")
	}
}

func TestObserverID(t *testing.T) {
	// From the protocol's id-vectors.json.
	for passkey, want := range map[string]string{
		"p256:030b41e0e2ca0ba8b38619da39a2c6769dbabb187420394f23d08a7512ceaf2a0a": "obs:e87d873b57a4445a6db2a9e3d53f154cbf81229f23b73117499e014b539fbb8c",
		"p256:02ec84db7400b7c03f612feab3c93a33d4ab69ace2ee812168fb65dda93665130d": "obs:caf558ccfce107ad681a2cf9ae8c7f021b7f9ec802a3dcbb35addbc8cc3e82ad",
	} {
		got, err := ObserverID(passkey)
		if err != nil || got != want {
			t.Errorf("ObserverID(%s) = %s, %v; want %s", passkey, got, err, want)
		}
		if !IsObserverID(got) || IsOperatorID(got) {
			t.Errorf("%s: wrong ID form", got)
		}
	}
	// x = 5 is on P-256; x = 1 is not (y² = x³ - 3x + b has no root).
	onCurve := "p256:02" + strings.Repeat("0", 63) + "5"
	if err := ValidPasskey(onCurve); err != nil {
		t.Errorf("x = 5 refused: %v", err)
	}
	if err := ValidPasskey("p256:03" + strings.Repeat("0", 63) + "5"); err != nil {
		t.Errorf("x = 5, odd y, refused: %v", err)
	}
	p := "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
	for name, bad := range map[string]string{
		"not on the curve":  "p256:02" + strings.Repeat("0", 63) + "1",
		"x is the prime":    "p256:02" + p,
		"uppercase":         strings.ToUpper(onCurve[:5]) + onCurve[5:],
		"uppercase hex":     "p256:02" + strings.Repeat("0", 62) + "0A",
		"uncompressed mark": "p256:04" + strings.Repeat("0", 63) + "5",
		"no prefix":         onCurve[5:],
		"short":             onCurve[:len(onCurve)-2],
		"long":              onCurve + "00",
		"not hex":           "p256:02" + strings.Repeat("g", 64),
		"empty":             "",
	} {
		if _, err := ObserverID(bad); !errors.Is(err, ErrInvalidPasskey) {
			t.Errorf("%s: %q: got %v, want ErrInvalidPasskey", name, bad, err)
		}
	}
}

func TestSignatureDigest(t *testing.T) {
	sig := hybrid.Algorithm + ":" + strings.Repeat("ab", hybrid.SignatureSize)
	got, err := SignatureDigest(sig)
	if err != nil {
		t.Fatal(err)
	}
	// The quoted JSON string is what is hashed, not the bare text.
	if want := "sha256:" + sha256Text(`"`+sig+`"`); got != want {
		t.Errorf("string signature digest = %s, want %s", got, want)
	}
	if got != "sha256:62d2168f7a4c3a1c7540e975ab32c7dd4f30e98222223627db796d82bfd20f8c" {
		t.Errorf("string signature digest = %s", got)
	}
	passkey := map[string]any{
		"signature":          "MEUCIQ",
		"client_data_json":   "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0",
		"authenticator_data": "SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ",
	}
	got, err = SignatureDigest(passkey)
	if err != nil {
		t.Fatal(err)
	}
	if want := "sha256:b9be001457636e4054e780d55c2e6ca36a50ec753fa7b3d6b6aa9873eb71c06b"; got != want {
		t.Errorf("passkey signature digest = %s, want %s", got, want)
	}
	if _, err := SignatureDigest(make(chan int)); err == nil {
		t.Error("a value JSON can't hold was digested")
	}
}

func TestDetach(t *testing.T) {
	entry := parseObject(t, `{"type":"identity","kind":"sponsored","operator":"op:`+abcHex+`",
		"sig":"s1","key_sig":"s2","voucher_sig":"s3","sponsor_sig":"s4",
		"consent_sig":{"signature":"x","client_data_json":"y","authenticator_data":"z"},"n":1.5}`)
	before := maps.Clone(entry)
	leaf, err := Detach(entry)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.EqualFunc(entry, before, func(a, b any) bool { return canonicalText(t, a) == canonicalText(t, b) }) {
		t.Error("Detach changed its argument")
	}
	for _, field := range SignatureFields {
		want, _ := SignatureDigest(entry[field])
		if leaf[field] != want {
			t.Errorf("%s = %v, want %s", field, leaf[field], want)
		}
	}
	for _, kept := range []string{"type", "kind", "operator", "n"} {
		if canonicalText(t, leaf[kept]) != canonicalText(t, entry[kept]) {
			t.Errorf("%s changed", kept)
		}
	}
	if len(leaf) != len(entry) {
		t.Errorf("leaf has %d members, entry %d", len(leaf), len(entry))
	}

	// Only the members present are replaced; none is added.
	bundle := parseObject(t, `{"type":"bundle","bundle":"sha256:`+abcHex+`","sig":"s"}`)
	leaf, _ = Detach(bundle)
	if _, ok := leaf["key_sig"]; ok || len(leaf) != 3 {
		t.Errorf("Detach added members: %v", leaf)
	}
	if !MatchesLeafEntry(bundle, leaf) {
		t.Error("an entry does not match its own leaf")
	}
	if MatchesLeafEntry(bundle, bundle) {
		t.Error("an entry with its signature matches as a leaf")
	}
	for _, mutate := range []func(m map[string]any){
		func(m map[string]any) { m["sig"] = "t" },
		func(m map[string]any) { m["bundle"] = "sha256:" + strings.Repeat("0", 64) },
		func(m map[string]any) { m["extra"] = true },
		func(m map[string]any) { delete(m, "type") },
	} {
		changed := maps.Clone(bundle)
		mutate(changed)
		if MatchesLeafEntry(changed, leaf) {
			t.Errorf("a changed entry matches the leaf: %v", changed)
		}
	}
	if MatchesLeafEntry(map[string]any{"type": "x", "sig": make(chan int)}, leaf) {
		t.Error("an entry that can't be canonicalized matched")
	}
}

func canonicalText(t *testing.T, v any) string {
	t.Helper()
	b, err := canonical.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEntryDigest(t *testing.T) {
	entry := parseObject(t, `{"type":"bundle","bundle":"sha256:`+abcHex+`","sig":"s"}`)
	got, err := EntryDigest(entry)
	if err != nil {
		t.Fatal(err)
	}
	want := "sha256:" + sha256Text(`{"bundle":"sha256:`+abcHex+`","sig":"s","type":"bundle"}`)
	if got != want {
		t.Errorf("EntryDigest = %s, want %s", got, want)
	}
	// Unlike an ID, the digest covers the signature.
	entry["sig"] = "t"
	if again, _ := EntryDigest(entry); again == got {
		t.Error("the entry digest ignores the signature")
	}
}

// entryIDCases are the ID rule's known answers: each entry's canonical JSON
// without sig, written out by hand, and the ID, computed from that text by
// another implementation (Python's hashlib).
var entryIDCases = []struct {
	id        func(map[string]any) (string, error)
	entry     string // with a sig, which the ID must ignore
	canonical string // the signing payload, byte for byte
	want      string
}{
	{ThreadID,
		`{"type":"thread","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","kind":"problem","fields":["mathematics"],"text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","model_family":"claude","model":"Modèle 1","sig":"s"}`,
		`{"fields":["mathematics"],"kind":"problem","model":"Modèle 1","model_family":"claude","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","type":"thread"}`,
		"thread:5c62eee89c3088ef6617802312ac0eae2f345f5450db9c423ed852583111af7d"},
	{PostID,
		`{"type":"post","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","thread":"thread:0202020202020202020202020202020202020202020202020202020202020202","kind":"finding","text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","sig":"s"}`,
		`{"kind":"finding","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","thread":"thread:0202020202020202020202020202020202020202020202020202020202020202","type":"post"}`,
		"post:11b58d9e35c73b10cf77de9121fea0d48d794a32d676d661f5afed512a60ad68"},
	{IdeaID,
		`{"type":"idea","text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","sig":{"authenticator_data":"a","client_data_json":"b","signature":"c"}}`,
		`{"text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","type":"idea"}`,
		"idea:9b4e1be3a3d071be81ce2b0147abb532d175af736a910f5cd7f366ddc8030e8e"},
	{PreregistrationID,
		`{"type":"preregistration","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","plan":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","report_by":"2026-12-31","sig":"s"}`,
		`{"operator":"op:0101010101010101010101010101010101010101010101010101010101010101","plan":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","report_by":"2026-12-31","type":"preregistration"}`,
		"prereg:e947feccbcb837ebc1080b8131ca46c3f80f8a1c67e2b11ef30eb41d9382bf07"},
	{TaskID,
		`{"type":"task","operator_key_digest":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","title":"Water temperature","replicas":3.0,"sig":"s"}`,
		`{"operator_key_digest":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","replicas":3,"title":"Water temperature","type":"task"}`,
		"task:c130a7806854fc7c8cb57c65117f1b217e59bfd295be6400ca0d8240e3c763a4"},
	{SwarmID,
		`{"type":"swarm","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","fields":["mathematics"],"needs":"proved","text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","sig":"s"}`,
		`{"fields":["mathematics"],"needs":"proved","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","type":"swarm"}`,
		"swarm:d51c6da682de1901fe653ec6a9b5c4a4ade1f06160d422c251c4efae45829567"},
	{GoalID,
		`{"type":"goal","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","swarm":"swarm:0303030303030303030303030303030303030303030303030303030303030303","parent":"swarm:0303030303030303030303030303030303030303030303030303030303030303","needs":"proved","text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","sig":"s"}`,
		`{"needs":"proved","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","parent":"swarm:0303030303030303030303030303030303030303030303030303030303030303","swarm":"swarm:0303030303030303030303030303030303030303030303030303030303030303","text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","type":"goal"}`,
		"goal:b2c33be2198a7bebeebcdde9f9c2378d30fa293d95cbc2197390f110e69c353e"},
	{GoalProofID,
		`{"type":"goal_proof","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","goal":"goal:0404040404040404040404040404040404040404040404040404040404040404","proves":"statement","theorem":"main","file":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","minutes":30,"sig":"s"}`,
		`{"file":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","goal":"goal:0404040404040404040404040404040404040404040404040404040404040404","minutes":30,"operator":"op:0101010101010101010101010101010101010101010101010101010101010101","proves":"statement","theorem":"main","type":"goal_proof"}`,
		"proof:62fc07016b303a96ffc2c325ca42a133df22c8c129beadd6c61c7493e908987b"},
	{AttemptID,
		`{"type":"goal_attempt","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","goal":"goal:0404040404040404040404040404040404040404040404040404040404040404","text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","sig":"s"}`,
		`{"goal":"goal:0404040404040404040404040404040404040404040404040404040404040404","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","text":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","type":"goal_attempt"}`,
		"attempt:52016420f53910d0227a2fbd9c20913c12d2b26e5477223b0b8f80569f33c7b5"},
	{NoteID,
		`{"type":"goal_note","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","goal":"goal:0404040404040404040404040404040404040404040404040404040404040404","kind":"question","time":"2026-10-02T12:00:00Z","body":"Why?","model_family":"claude","model":"m","sig":"s"}`,
		`{"body":"Why?","goal":"goal:0404040404040404040404040404040404040404040404040404040404040404","kind":"question","model":"m","model_family":"claude","operator":"op:0101010101010101010101010101010101010101010101010101010101010101","time":"2026-10-02T12:00:00Z","type":"goal_note"}`,
		"note:0266f536ff4fab49b37fe85e25dab6456bcd47ff252186dc321ae72e4741eb92"},
}

func TestEntryIDs(t *testing.T) {
	for _, c := range entryIDCases {
		entry := parseObject(t, c.entry)
		prefix, _, _ := strings.Cut(c.want, ":")
		t.Run(prefix, func(t *testing.T) {
			payload, err := SigningPayload(entry)
			if err != nil {
				t.Fatal(err)
			}
			if string(payload) != c.canonical {
				t.Fatalf("signing payload\n got %s\nwant %s", payload, c.canonical)
			}
			if want := prefix + ":" + sha256Text(c.canonical); want != c.want {
				t.Fatalf("the table's ID is not the SHA-256 of its canonical text: %s", want)
			}
			got, err := c.id(entry)
			if err != nil || got != c.want {
				t.Fatalf("ID = %s, %v; want %s", got, err, c.want)
			}

			// The signature is not part of the ID; every other member is.
			for _, sig := range []any{"another signature", nil} {
				resigned := maps.Clone(entry)
				if sig == nil {
					delete(resigned, "sig")
				} else {
					resigned["sig"] = sig
				}
				if again, _ := c.id(resigned); again != c.want {
					t.Errorf("ID depends on the signature (sig = %v): %s", sig, again)
				}
			}
			for member, v := range entry {
				if member == "sig" || member == "type" {
					continue
				}
				changed := maps.Clone(entry)
				changed[member] = mutated(v)
				if again, _ := c.id(changed); again == c.want {
					t.Errorf("ID ignores a change to %s", member)
				}
				delete(changed, member)
				if again, _ := c.id(changed); again == c.want {
					t.Errorf("ID ignores the removal of %s", member)
				}
			}
			added := maps.Clone(entry)
			added["extra"] = "x"
			if again, _ := c.id(added); again == c.want {
				t.Error("ID ignores an added member")
			}

			wrongType := maps.Clone(entry)
			wrongType["type"] = "bundle"
			if _, err := c.id(wrongType); !errors.Is(err, ErrInvalidID) {
				t.Errorf("an ID was made for a bundle entry: %v", err)
			}
		})
	}
}

// mutated returns v changed by as little as JSON allows.
func mutated(v any) any {
	switch v := v.(type) {
	case string:
		return v + "x"
	case float64:
		return v + 1
	case []any:
		return append(append([]any(nil), v...), "x")
	}
	return "x"
}

func TestSignAndVerify(t *testing.T) {
	key := testKey(t, "signer")
	obj := parseObject(t, `{"type":"bundle","bundle":"sha256:`+abcHex+`"}`)
	if err := Sign(obj, key); err != nil {
		t.Fatal(err)
	}
	pub := key.Public().String()
	if !Verify(obj, pub) {
		t.Fatal("a signed object does not verify")
	}
	payload, _ := SigningPayload(obj)
	if want := `{"bundle":"sha256:` + abcHex + `","type":"bundle"}`; string(payload) != want {
		t.Errorf("payload = %s", payload)
	}
	if Verify(obj, testKey(t, "other").Public().String()) {
		t.Error("verifies under another key")
	}
	moved := maps.Clone(obj)
	moved["type"] = "key"
	if Verify(moved, pub) {
		t.Error("a signature moved to another type verifies")
	}
	for _, sig := range []any{nil, 1.0, true, []any{obj["sig"]}, map[string]any{"sig": obj["sig"]}} {
		bad := maps.Clone(obj)
		bad["sig"] = sig
		if Verify(bad, pub) {
			t.Errorf("sig %T verifies", sig)
		}
	}
	if Verify(obj, "") || Verify(map[string]any{}, pub) {
		t.Error("malformed input verifies")
	}
}

func TestKeyRotation(t *testing.T) {
	first, next := testKey(t, "first"), testKey(t, "next")
	operator := OperatorID(first.Public().String())

	payload, err := KeyRotationPayload(operator, "K")
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"key":"K","operator":"` + operator + `","type":"key_rotation"}`; string(payload) != want {
		t.Errorf("rotation payload = %s", payload)
	}

	entry, err := SignKeyRotation(operator, next, first)
	if err != nil {
		t.Fatal(err)
	}
	if len(entry) != 5 || entry["type"] != KeyRotationType || entry["operator"] != operator || entry["key"] != next.Public().String() {
		t.Fatalf("rotation entry = %v", entry)
	}
	// key_sig is the new key's over {type, operator, key} alone.
	payload, _ = KeyRotationPayload(operator, next.Public().String())
	if !hybrid.Verify(entry["key_sig"].(string), payload, next.Public().String()) {
		t.Error("key_sig is not the new key's signature over {type, operator, key}")
	}
	// sig is the current key's over everything but sig, key_sig included.
	if !Verify(entry, first.Public().String()) {
		t.Error("sig is not the current key's")
	}
	if !VerifyKeyRotation(entry, first.Public().String()) {
		t.Fatal("a signed rotation does not verify")
	}
	if VerifyKeyRotation(entry, next.Public().String()) {
		t.Error("a rotation verifies with the new key as the current one")
	}
	// The operator keeps its ID: the entry names the first key's.
	if err := ValidOperatorID(entry["operator"].(string), first.Public().String()); err != nil {
		t.Error(err)
	}

	// A key_sig made by a key other than the one named fails, even when the
	// current key signs the result.
	third := testKey(t, "third")
	swapped := maps.Clone(entry)
	swapped["key"] = third.Public().String()
	delete(swapped, "sig")
	if err := Sign(swapped, first); err != nil {
		t.Fatal(err)
	}
	if VerifyKeyRotation(swapped, first.Public().String()) {
		t.Error("a rotation to a key that didn't countersign verifies")
	}
	for name, mutate := range map[string]func(m map[string]any){
		"key_sig dropped":   func(m map[string]any) { delete(m, "key_sig") },
		"key_sig not text":  func(m map[string]any) { m["key_sig"] = 1.0 },
		"key_sig replaced":  func(m map[string]any) { m["key_sig"] = entry["sig"] },
		"operator changed":  func(m map[string]any) { m["operator"] = "op:" + abcHex },
		"operator not text": func(m map[string]any) { m["operator"] = nil },
		"type changed":      func(m map[string]any) { m["type"] = "key" },
		"sig dropped":       func(m map[string]any) { delete(m, "sig") },
	} {
		bad := maps.Clone(entry)
		mutate(bad)
		if VerifyKeyRotation(bad, first.Public().String()) {
			t.Errorf("%s: verifies", name)
		}
	}
	if _, err := SignKeyRotation("op:1", next, first); !errors.Is(err, ErrInvalidID) {
		t.Errorf("rotation for a malformed operator ID: %v", err)
	}
}

// The reference library's own sealed-round example: a bundle entry as its
// leaf holds it, the salt cd…cd.
const (
	sealSalt       = "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
	sealBundle     = "sha256:efefefefefefefefefefefefefefefefefefefefefefefefefefefefefefefef"
	sealCommitText = `{"entry":{"bundle":"` + sealBundle + `","sig":"sha256:62d2168f7a4c3a1c7540e975ab32c7dd4f30e98222223627db796d82bfd20f8c","type":"bundle"},"salt":"` + sealSalt + `"}`
	sealCommitment = "sha256:e22376ba244c0a49bc421991e482682fca6d68641775bfc77c91c1b9b42a910d"
)

func TestSealCommitment(t *testing.T) {
	sig := hybrid.Algorithm + ":" + strings.Repeat("ab", hybrid.SignatureSize)
	signed := map[string]any{"type": "bundle", "bundle": sealBundle, "sig": sig}
	leafEntry, err := Detach(signed)
	if err != nil {
		t.Fatal(err)
	}
	if "sha256:"+sha256Text(sealCommitText) != sealCommitment {
		t.Fatal("the known commitment is not the digest of its text")
	}
	got, err := SealCommitment(leafEntry, sealSalt)
	if err != nil || got != sealCommitment {
		t.Fatalf("SealCommitment = %s, %v; want %s", got, err, sealCommitment)
	}
	if got, err := SealSigned(signed, sealSalt); err != nil || got != sealCommitment {
		t.Errorf("SealSigned = %s, %v; want the commitment to the leaf form", got, err)
	}
	// Committing to the signed form would be another commitment.
	if got, _ := SealCommitment(signed, sealSalt); got == sealCommitment {
		t.Error("the commitment does not depend on the entry's form")
	}
	other := strings.Repeat("00", SaltSize)
	if got, _ := SealCommitment(leafEntry, other); got == sealCommitment {
		t.Error("the commitment ignores the salt")
	}
	for _, bad := range []string{"", sealSalt[:62], sealSalt + "00", strings.ToUpper(sealSalt), "zz" + sealSalt[2:]} {
		if _, err := SealCommitment(leafEntry, bad); err == nil {
			t.Errorf("salt %q accepted", bad)
		}
	}
	if _, err := SealCommitment(nil, sealSalt); err == nil {
		t.Error("a commitment to no entry")
	}

	salt, err := NewSalt()
	if err != nil || ValidSalt(salt) != nil {
		t.Fatalf("NewSalt = %q, %v", salt, err)
	}
	if again, _ := NewSalt(); again == salt {
		t.Error("two salts are equal")
	}
}

func TestSealAndOpen(t *testing.T) {
	logKey, author := testKey(t, "log"), testKey(t, "author")
	signed := map[string]any{"type": "bundle", "bundle": sealBundle}
	if err := Sign(signed, author); err != nil {
		t.Fatal(err)
	}
	salt, _ := NewSalt()
	commitment, err := SealSigned(signed, salt)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := SignSealed(commitment, logKey)
	if err != nil {
		t.Fatal(err)
	}
	if len(sealed) != 3 || sealed["type"] != SealedType || sealed["commitment"] != commitment {
		t.Fatalf("sealed entry = %v", sealed)
	}
	if !Verify(sealed, logKey.Public().String()) {
		t.Error("the sealed entry is not signed by the log's key")
	}
	sealedLeaf := map[string]any{"timestamp": "2026-10-02T12:00:00.000Z", "entry": mustDetach(t, sealed)}

	leafEntry := mustDetach(t, signed)
	reveal := SealReveal{Index: 4, Salt: salt}
	revealed := map[string]any{
		"timestamp": "2026-10-03T12:00:00.000Z",
		"operator":  OperatorID(author.Public().String()),
		"entry":     leafEntry,
		"sealed":    reveal.Value(),
	}
	if err := Opens(revealed, sealedLeaf); err != nil {
		t.Fatalf("a revealed entry does not open its commitment: %v", err)
	}
	if want := `{"index":4,"salt":"` + salt + `"}`; canonicalText(t, reveal.Value()) != want {
		t.Errorf("sealed member = %s, want %s", canonicalText(t, reveal.Value()), want)
	}

	wrongSalt := maps.Clone(revealed)
	wrongSalt["sealed"] = SealReveal{Index: 4, Salt: strings.Repeat("00", SaltSize)}.Value()
	if err := Opens(wrongSalt, sealedLeaf); !errors.Is(err, ErrNotOpened) {
		t.Errorf("wrong salt: %v", err)
	}
	changed := maps.Clone(revealed)
	changedEntry := maps.Clone(leafEntry)
	changedEntry["bundle"] = "sha256:" + abcHex
	changed["entry"] = changedEntry
	if err := Opens(changed, sealedLeaf); !errors.Is(err, ErrNotOpened) {
		t.Errorf("changed entry: %v", err)
	}
	notSealed := map[string]any{"entry": leafEntry}
	if err := Opens(revealed, notSealed); !errors.Is(err, ErrNotOpened) {
		t.Errorf("a leaf that isn't a sealed entry: %v", err)
	}
	unrevealed := maps.Clone(revealed)
	delete(unrevealed, "sealed")
	if err := Opens(unrevealed, sealedLeaf); err == nil {
		t.Error("a leaf without sealed opened a commitment")
	}
	if _, err := SignSealed("sha256:short", logKey); err == nil {
		t.Error("a sealed entry with a malformed commitment")
	}
}

func mustDetach(t *testing.T, entry map[string]any) map[string]any {
	t.Helper()
	d, err := Detach(entry)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParseSealReveal(t *testing.T) {
	good := parseObject(t, `{"index":7,"salt":"`+sealSalt+`"}`)
	r, err := ParseSealReveal(good)
	if err != nil || r != (SealReveal{Index: 7, Salt: sealSalt}) {
		t.Fatalf("ParseSealReveal = %v, %v", r, err)
	}
	if r, err := ParseSealReveal(parseObject(t, `{"index":9007199254740991,"salt":"`+sealSalt+`"}`)); err != nil || r.Index != 1<<53-1 {
		t.Errorf("largest safe index: %v, %v", r, err)
	}
	for _, bad := range []string{
		`{"index":-1,"salt":"` + sealSalt + `"}`,
		`{"index":0.5,"salt":"` + sealSalt + `"}`,
		`{"index":9007199254740992,"salt":"` + sealSalt + `"}`,
		`{"index":"7","salt":"` + sealSalt + `"}`,
		`{"salt":"` + sealSalt + `"}`,
		`{"index":7}`,
		`{"index":7,"salt":"short"}`,
		`{"index":7,"salt":"` + sealSalt + `","entry":1}`,
		`[7]`,
	} {
		v, err := canonical.Parse([]byte(bad))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseSealReveal(v); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
