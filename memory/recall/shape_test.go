package recall_test

import (
	"fmt"
	"testing"

	"github.com/agora-node/agora/memory/recall"
)

// shapeIndex holds one kind of failure about several modules, and another
// kind about one of the same modules.
func shapeIndex(t *testing.T) *recall.Index {
	t.Helper()
	ix := recall.NewIndex()
	for i, mod := range []string{"chalk", "nanoid", "got", "execa"} {
		err := ix.Add(recall.Doc{
			ID:        fmt.Sprintf("esm-%d", i),
			Title:     "ERR_REQUIRE_ESM: require() of ES module " + mod,
			Content:   "Pin the last CommonJS major of " + mod + " or switch to import().",
			ErrorText: "Error [ERR_REQUIRE_ESM]: require() of ES Module /srv/app/node_modules/" + mod + "/index.js not supported.",
			Project:   "shop",
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, mod := range []string{"express", "lodash", "react"} {
		err := ix.Add(recall.Doc{
			ID:        fmt.Sprintf("ts-%d", i),
			Title:     "TS2307 cannot find module '" + mod + "'",
			Content:   "Install @types for " + mod + " or map the path alias.",
			ErrorText: "src/app.ts(3,1): error TS2307: Cannot find module '" + mod + "' or its corresponding type declarations.",
			Project:   "shop",
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, mod := range []string{"dotenv", "sharp", "bcrypt"} {
		err := ix.Add(recall.Doc{
			ID:        fmt.Sprintf("node-%d", i),
			Title:     "node: Error: Cannot find module '" + mod + "'",
			Content:   "Run npm ci after the lockfile change.",
			ErrorText: "Error: Cannot find module '" + mod + "'\nRequire stack:\n- /srv/app/src/server.js",
			Project:   "shop",
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return ix
}

func TestShapeKeyTellsObjectsApart(t *testing.T) {
	ix := shapeIndex(t)
	w := recall.DefaultWeights()
	q := recall.Query{ErrorText: "Error [ERR_REQUIRE_ESM]: require() of ES Module /home/bob/x/node_modules/nanoid/index.js not supported.", Now: now}
	hits := ix.Search(q, w, 3)
	if len(hits) == 0 || hits[0].ID != "esm-1" {
		t.Fatalf("nanoid query: hits = %v, want esm-1 first", ids(hits))
	}
	if len(hits) > 1 {
		t.Errorf("nanoid query: hits = %v, want only esm-1: the others are about another module", ids(hits))
	}
	q.ErrorText = "Error [ERR_REQUIRE_ESM]: require() of ES Module /home/bob/x/node_modules/p-limit/index.js not supported."
	if hits := ix.Search(q, w, 3); len(hits) > 0 {
		t.Errorf("p-limit is not stored, got %v", ids(hits))
	}
}

func TestShapeKindSilencesAnotherKindAboutTheSameObject(t *testing.T) {
	ix := shapeIndex(t)
	w := recall.DefaultWeights()
	// node cannot find express at run time: a TS2307 record about
	// express is another root cause.
	q := recall.Query{ErrorText: "Error: Cannot find module 'express'\nRequire stack:\n- /home/bob/app/src/index.js", Now: now}
	for _, h := range ix.Search(q, w, 5) {
		if h.ID == "ts-0" {
			t.Errorf("runtime query found the TS2307 record: %+v", h.Reasons)
		}
	}
	// The TS2307 output itself still finds it.
	q = recall.Query{ErrorText: "lib/x.ts(9,4): error TS2307: Cannot find module 'express' or its corresponding type declarations.", Now: now}
	if hits := ix.Search(q, w, 3); len(hits) == 0 || hits[0].ID != "ts-0" {
		t.Errorf("TS2307 query: hits = %v, want ts-0 first", ids(hits))
	}
}

func ids(hits []recall.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func TestNamedKindSilencesPromptAboutAnotherKind(t *testing.T) {
	ix := shapeIndex(t)
	w := recall.DefaultWeights()
	// The prompt names the node kind (its title wording), not TS2307.
	q := recall.Query{Text: "node error cannot find module express require stack", Now: now}
	for _, h := range ix.Search(q, w, 5) {
		if h.ID == "ts-0" {
			t.Errorf("node prompt found the TS2307 record: %+v", h.Reasons)
		}
	}
	q.Text = "typescript cannot find module express or its corresponding type declarations"
	if hits := ix.Search(q, w, 3); len(hits) == 0 || hits[0].ID != "ts-0" {
		t.Errorf("TS2307 prompt: hits = %v, want ts-0 first", ids(hits))
	}
}

// forbidden prints the RBAC failure of kubectl in one of two ways.
func forbidden(variant int, resource, namespace string) string {
	if variant == 0 {
		return fmt.Sprintf(`Error from server (Forbidden): %s is forbidden: User "system:serviceaccount:%s:default" cannot list resource "%s" in API group "" in the namespace "%s"`, resource, namespace, resource, namespace)
	}
	return fmt.Sprintf(`failed to list *v1.%s: %s is forbidden: User "system:serviceaccount:%s:%s" cannot list resource "%s"`, resource, resource, namespace, namespace, resource)
}

func TestQueryKeySilencesRecordNamedOnlyByNoise(t *testing.T) {
	ix := recall.NewIndex()
	docs := []struct {
		variant            int
		resource, namespce string
	}{
		{0, "pods", "shop"}, {0, "secrets", "billing"}, {0, "tenants", "infra"},
		{1, "configmaps", "web"}, {1, "nodes", "batch"}, {1, "events", "ops"},
	}
	for i, d := range docs {
		err := ix.Add(recall.Doc{
			ID:        fmt.Sprintf("rbac-%d", i),
			Title:     "kubectl forbidden: serviceaccount cannot list " + d.resource,
			Content:   "Add a Role with list on " + d.resource + " and bind it.",
			ErrorText: forbidden(d.variant, d.resource, d.namespce),
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	w := recall.DefaultWeights()
	// deployments is stored nowhere; the namespace happens to be called
	// like the resource of rbac-2, which is printed the other way.
	q := recall.Query{ErrorText: forbidden(1, "deployments", "tenants"), Now: now}
	if hits := ix.Search(q, w, 3); len(hits) > 0 {
		t.Errorf("deployments in namespace tenants: hits = %v, want none", ids(hits))
		for _, h := range hits {
			t.Logf("%s: %+v", h.ID, h.Reasons)
		}
	}
	q = recall.Query{ErrorText: forbidden(1, "tenants", "prod"), Now: now}
	if hits := ix.Search(q, w, 3); len(hits) == 0 || hits[0].ID != "rbac-2" {
		t.Errorf("tenants printed the other way: hits = %v, want rbac-2 first", ids(hits))
	}
}

func TestMaskedNumberIsPartOfTheKey(t *testing.T) {
	ix := recall.NewIndex()
	for i, key := range []string{"B7B3B788A8D3785C", "871920D1991BC93C", "8861178121701254"} {
		err := ix.Add(recall.Doc{
			ID:        fmt.Sprintf("gpg-%d", i),
			Title:     "apt GPG error NO_PUBKEY " + key,
			Content:   "Fetch the key " + key + " into /etc/apt/keyrings and reference it with signed-by.",
			ErrorText: "W: GPG error: https://repo.acme.io stable InRelease: The following signatures couldn't be verified because the public key is not available: NO_PUBKEY " + key,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Records about other things, so the apt wording is rare.
	for i := range 40 {
		err := ix.Add(recall.Doc{
			ID:        fmt.Sprintf("other-%d", i),
			Title:     fmt.Sprintf("build step %d fails in the linker", i),
			Content:   "Clean the cache and rebuild.",
			ErrorText: fmt.Sprintf("error: linking target %d failed", i),
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	w := recall.DefaultWeights()
	q := recall.Query{Text: "apt update NO_PUBKEY 4EB27DB2A3B88B8B signatures couldn't be verified", Now: now}
	if hits := ix.Search(q, w, 3); len(hits) > 0 {
		t.Errorf("unknown key: hits = %v, want none", ids(hits))
		for _, h := range hits {
			t.Logf("%s %.3f: %+v", h.ID, h.Score, h.Reasons)
		}
	}
	q.Text = "apt update NO_PUBKEY 8861178121701254 signatures couldn't be verified"
	if hits := ix.Search(q, w, 3); len(hits) == 0 || hits[0].ID != "gpg-2" {
		t.Errorf("key of digits: hits = %v, want gpg-2 first", ids(hits))
	}
}
