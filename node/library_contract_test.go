package node

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"filippo.io/mldsa"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
)

// libraryPatterns reads the route patterns package libraryhttp mounts out
// of its source: every string literal given to a Handle call. It reads the
// source rather than asking the package, so a route mounted any way the
// package could mount one is found.
func libraryPatterns(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "library", "libraryhttp", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !strings.EqualFold(sel.Sel.Name, "handle") {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				p, _ := strconv.Unquote(lit.Value)
				out = append(out, p)
			}
			return true
		})
	}
	if len(out) < 10 {
		t.Fatalf("found only %d library routes in ../library/libraryhttp: %v", len(out), out)
	}
	return out
}

// TestLibraryContractRoutes checks that GET /api/contract lists every
// route the library serves, by method and path, and that every route it
// lists is one the node's mux serves with exactly that pattern.
func TestLibraryContractRoutes(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	doc := libGet(t, srv.URL, "/api/contract")
	listed := map[string]bool{}
	for _, r := range doc["routes"].([]any) {
		route := r.(map[string]any)
		method, _ := route["method"].(string)
		path, _ := route["path"].(string)
		if method == "" || path == "" {
			t.Errorf("a route without its method and path: %v", route)
			continue
		}
		pattern := method + " " + path
		listed[pattern] = true
		// The node serves it, with this very pattern.
		concrete := regexp.MustCompile(`\{[a-z]+\}`).ReplaceAllStringFunc(path, func(p string) string {
			if p == "{id}" {
				return "op:" + strings.Repeat("0", 64)
			}
			return strings.Repeat("0", 64)
		})
		if _, got := n.mux.Handler(httptest.NewRequest(method, concrete, nil)); got != pattern {
			t.Errorf("the contract lists %s, but %s %s is served as %q", pattern, method, concrete, got)
		}
	}
	for _, p := range libraryPatterns(t) {
		if !listed[p] {
			t.Errorf("the library serves %s, which the contract does not list", p)
		}
	}
}

// jcs is RFC 8785 canonical JSON as a client in any language gets it from
// its standard library, for values of strings, lists and objects with ASCII
// member names: members sorted, no whitespace, no HTML escaping. It is not
// package canonical, so the test follows the contract's recipe, not the
// node's code.
func jcs(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// partSizes reads the byte sizes of a key or signature's parts, named
// ed25519 and ml-dsa-44, in the order the contract gives them.
func partSizes(t *testing.T, what map[string]any) (names []string, sizes []int) {
	t.Helper()
	for _, p := range what["parts"].([]any) {
		part := p.(map[string]any)
		names = append(names, part["name"].(string))
		sizes = append(sizes, int(part["bytes"].(float64)))
	}
	if !slices.Equal(names, []string{"ed25519", "ml-dsa-44"}) {
		t.Fatalf("parts %v, want ed25519 then ml-dsa-44", names)
	}
	return names, sizes
}

// TestLibraryContractSigning writes a contribution from the contract's
// signing description alone, as a client in another language would: it
// makes a key from the secret key's layout with the Ed25519 and ML-DSA-44
// primitives (not package hybrid), writes the public key and the operator
// ID as the description says, registers with a key entry signed over the
// bytes it names, and publishes a record signed over its canonical JSON.
// It also checks a signature the node's own code makes verifies under the
// recipe.
func TestLibraryContractSigning(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	doc := libGet(t, base, "/api/contract")
	sg, ok := doc["signing"].(map[string]any)
	if !ok {
		t.Fatalf("the contract says nothing of signing: %v", doc["signing"])
	}
	if sg["algorithm"] != hybrid.Algorithm {
		t.Fatalf("algorithm %v", sg["algorithm"])
	}

	// The secret key and its two halves.
	sk := sg["secret_key"].(map[string]any)
	_, skSizes := partSizes(t, sk)
	secret := make([]byte, int(sk["bytes"].(float64)))
	if len(secret) != skSizes[0]+skSizes[1] {
		t.Fatalf("secret_key is %d bytes, its parts %v", len(secret), skSizes)
	}
	rand.Read(secret)
	edKey := ed25519.NewKeyFromSeed(secret[:skSizes[0]])
	mlKey, err := mldsa.NewPrivateKey(mldsa.MLDSA44(), secret[skSizes[0]:])
	if err != nil {
		t.Fatal(err)
	}

	// The public key's text and the signature's, as described.
	pk := sg["public_key"].(map[string]any)
	_, pkSizes := partSizes(t, pk)
	edPub, mlPub := edKey.Public().(ed25519.PublicKey), mlKey.PublicKey().Bytes()
	if len(edPub) != pkSizes[0] || len(mlPub) != pkSizes[1] {
		t.Fatalf("public key parts are %d and %d bytes; the contract says %v", len(edPub), len(mlPub), pkSizes)
	}
	if pk["encoding"] != "lowercase hexadecimal" || sg["signature"].(map[string]any)["encoding"] != "lowercase hexadecimal" {
		t.Fatalf("encodings %v and %v", pk["encoding"], sg["signature"].(map[string]any)["encoding"])
	}
	keyText := pk["prefix"].(string) + hex.EncodeToString(append(slices.Clone([]byte(edPub)), mlPub...))
	sigDesc := sg["signature"].(map[string]any)
	_, sigSizes := partSizes(t, sigDesc)
	sign := func(msg []byte) string {
		ml, err := mlKey.Sign(nil, msg, nil)
		if err != nil {
			t.Fatal(err)
		}
		ed := ed25519.Sign(edKey, msg)
		if len(ed) != sigSizes[0] || len(ml) != sigSizes[1] {
			t.Fatalf("signature parts are %d and %d bytes; the contract says %v", len(ed), len(ml), sigSizes)
		}
		return sigDesc["prefix"].(string) + hex.EncodeToString(append(ed, ml...))
	}
	verify := func(sig, pub string, msg []byte) bool {
		rawSig, err1 := hex.DecodeString(strings.TrimPrefix(sig, sigDesc["prefix"].(string)))
		rawPub, err2 := hex.DecodeString(strings.TrimPrefix(pub, pk["prefix"].(string)))
		if err1 != nil || err2 != nil || len(rawSig) != sigSizes[0]+sigSizes[1] || len(rawPub) != pkSizes[0]+pkSizes[1] {
			return false
		}
		mp, err := mldsa.NewPublicKey(mldsa.MLDSA44(), rawPub[pkSizes[0]:])
		if err != nil {
			return false
		}
		return ed25519.Verify(rawPub[:pkSizes[0]], msg, rawSig[:sigSizes[0]]) && mldsa.Verify(mp, msg, rawSig[sigSizes[0]:], nil) == nil
	}

	// The operator ID.
	oid := sg["operator_id"].(map[string]any)
	if oid["digest"] != "sha256" || oid["encoding"] != "lowercase hexadecimal" {
		t.Fatalf("operator_id %v", oid)
	}
	sum := sha256.Sum256([]byte(keyText))
	operator := oid["prefix"].(string) + hex.EncodeToString(sum[:])

	// Register: a key entry of the members named, signed over its
	// canonical JSON without sig.
	reg := sg["registration"].(map[string]any)
	ke := reg["key_entry"].(map[string]any)
	var members []string
	for m := range ke["members"].(map[string]any) {
		members = append(members, m)
	}
	slices.Sort(members)
	if !slices.Equal(members, []string{"key", "model", "model_families", "sig", "type"}) {
		t.Fatalf("key entry members %v", members)
	}
	vocab := libGet(t, base, "/api/v1/vocabulary")
	family := vocab["model_families"].([]any)[0].(map[string]any)["family"].(string)
	entry := map[string]any{"type": "key", "key": keyText, "model_families": []any{family}, "model": "test-model-1"}
	entry["sig"] = sign(jcs(t, entry))
	status, v := call(t, reg["method"].(string), base+reg["path"].(string), jcs(t, map[string]any{"entry": entry, "name": "Follower of the contract"}))
	if status != http.StatusCreated || v.(map[string]any)["operator"] != operator {
		t.Fatalf("registering as the contract says: %d %v, want 201 for %s", status, v, operator)
	}

	// The library's scopes: here, the node's admin grants an identity.
	token, err := os.ReadFile(AdminTokenPath(n.cfg.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sg["authority"].(string), "POST /api/v1/admin/invitations") {
		t.Fatalf("authority does not say how a node's admin grants an identity: %v", sg["authority"])
	}
	if status, v := call(t, "POST", base+"/api/v1/admin/invitations", jcs(t, map[string]any{"operator": operator}), "Authorization", "Bearer "+string(token)); status != http.StatusCreated {
		t.Fatalf("invite: %d %v", status, v)
	}

	// A record of the members the write contract names, signed over its
	// canonical JSON, a structured body carried as its canonical JSON.
	wc := doc["write_contract"].(map[string]any)
	var recMembers []string
	for m := range wc["record"].(map[string]any)["members"].(map[string]any) {
		recMembers = append(recMembers, m)
	}
	slices.Sort(recMembers)
	if !slices.Equal(recMembers, []string{"author", "authored_at", "body", "format", "kind", "links", "previous", "title"}) {
		t.Fatalf("record members %v", recMembers)
	}
	method, path, _ := strings.Cut(wc["endpoint"].(string), " ")
	author := strings.TrimPrefix(operator, oid["prefix"].(string))
	at := time.Now().UTC().Format(time.RFC3339)
	space := map[string]any{
		"format": wc["record"].(map[string]any)["format"], "author": author, "authored_at": at,
		"kind": "space", "title": "Café / naïve", "body": string(jcs(t, map[string]any{"summary": "Où l'on écrit <é> et \"/\""})),
		"links": []any{}, "previous": "",
	}
	signed := jcs(t, space)
	status, v = call(t, method, base+path, jcs(t, map[string]any{"record": space, "signature": sign(signed)}))
	revision := sha256.Sum256(signed)
	if status != http.StatusCreated || v.(map[string]any)["id"] != hex.EncodeToString(revision[:]) {
		t.Fatalf("publishing as the contract says: %d %v, want 201 for revision %x", status, v, revision)
	}

	// The node's own signing makes what the recipe verifies, over the
	// bytes the recipe names.
	rec, err := library.NewRecord(library.Content{Kind: "thread", Title: "Signed by the node's code", Body: "b", Links: nil}, author, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	key, err := hybrid.NewPrivateKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	if key.Public().String() != keyText {
		t.Fatalf("the recipe's public key text is not the node's:\n%s\n%s", keyText, key.Public())
	}
	env, err := library.Sign(rec, key)
	if err != nil {
		t.Fatal(err)
	}
	canon, _ := rec.Canonical()
	recipeBytes := jcs(t, map[string]any{"format": rec.Format, "author": rec.Author, "authored_at": rec.AuthoredAt, "kind": rec.Kind,
		"title": rec.Title, "body": rec.Body, "links": []any{}, "previous": rec.Previous})
	if !bytes.Equal(canon, recipeBytes) {
		t.Fatalf("the record's canonical JSON:\n%s\nthe recipe's:\n%s", canon, recipeBytes)
	}
	if !verify(env.Signature, keyText, recipeBytes) {
		t.Error("the node's signature does not verify under the contract's recipe")
	}
}
