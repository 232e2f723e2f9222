package memory

import (
	"errors"
	"strings"
	"testing"

	"github.com/agora-node/agora/memory/memorytest"
)

func TestMaskSecretsEveryShape(t *testing.T) {
	for _, s := range memorytest.SecretShapes() {
		t.Run(s.Name, func(t *testing.T) {
			found := ScanSecrets(s.Text)
			if len(found) != 1 || found[0].Kind != s.Kind {
				t.Fatalf("found %+v in %q, want one %s", found, s.Text, s.Kind)
			}
			masked, _ := MaskSecrets(s.Text)
			if strings.Contains(masked, s.Secret) || !strings.Contains(masked, "[redacted:"+s.Kind+"]") {
				t.Errorf("masked %q", masked)
			}
			if again, f := MaskSecrets(masked); again != masked || len(f) != 0 {
				t.Errorf("masking is not idempotent: %q, %+v", again, f)
			}
			// What is not the secret stays, so the text is still useful; a
			// key block is masked whole, its header with it.
			if rest := strings.Replace(s.Text, s.Secret, "", 1); s.Kind != "private_key" && !strings.Contains(masked, rest[:min(len(rest), 8)]) {
				t.Errorf("masking lost the text around the secret: %q", masked)
			}
		})
	}
}

func TestMaskSecretsKeepsReferences(t *testing.T) {
	for _, text := range []string{
		"psql postgres://app:${PGPASSWORD}@db/shop",
		"mysql -u root -p shop",
		"deploy --password=$DEPLOY_PASSWORD",
		"curl -u admin:$TOKEN https://ci",
		"sshpass -p \"$SSHPASS\" ssh host",
		"PGPASSWORD=*** psql",
		"npm test -- --grep token-parser",
		"git clone https://github.com/o/r.git",
		"the header is Authorization: Basic <base64>",
		"MAX_TOKEN=4096 npm run generate",
		"GITHUB_TOKEN=${GITHUB_TOKEN} gh release create",
	} {
		if masked, found := MaskSecrets(text); len(found) > 0 {
			t.Errorf("masked a reference or no secret: %q -> %q", text, masked)
		}
	}
}

func TestMaskJSON(t *testing.T) {
	pg := join("pg", "Pass", "w0rd")
	v := map[string]any{"project": "shop postgres://a:" + pg + "@h", "list": []any{"x", "curl -u a:" + pg + " h"}, "n": 1.0}
	out, n := MaskJSON(v)
	m := out.(map[string]any)
	if n != 2 || strings.Contains(m["project"].(string), pg) || strings.Contains(m["list"].([]any)[1].(string), pg) || m["n"] != 1.0 {
		t.Errorf("MaskJSON: %d %v", n, out)
	}
}

func TestNoteProblemOnlySecret(t *testing.T) {
	ghp := join("ghp_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")
	masked := func(s string) string { m, _ := MaskSecrets(s); return m }
	useful := goodNote()
	useful.Content.Learned = masked("push with GITHUB_TOKEN=" + ghp + " exported, after npm ci finishes")
	if err := NoteProblem(useful); err != nil {
		t.Errorf("a useful note with a masked secret is refused: %v", err)
	}
	for name, change := range map[string]func(n *NotePayload){
		"learned only a secret": func(n *NotePayload) { n.Content.Learned = masked(ghp) },
		"title only a secret":   func(n *NotePayload) { n.Title = masked(ghp) },
		"fix only a secret":     func(n *NotePayload) { n.Fix = &Fix{Kind: FixCommand, Command: masked(ghp)} },
	} {
		n := goodNote()
		change(n)
		if err := NoteProblem(n); err == nil || !strings.Contains(err.Error(), "note_rejected") {
			t.Errorf("%s: %v, want note_rejected", name, err)
		}
	}
}

// TestParseEventMasks checks the node's side: every string of an event is
// masked before anything reads it, the digest is of the body as sent, and
// a schema refusal quoting a value quotes it masked, in its message and in
// the cause the node logs.
func TestParseEventMasks(t *testing.T) {
	pg := join("pg", "Pass", "w0rd")
	start := `{"project":"shop psql postgres://app:` + pg + `@db/shop","capabilities":["session_binding"]}`
	body := envelope("session.start", start)
	ev, err := ParseEvent("codex", "session.start", body)
	if err != nil {
		t.Fatal(err)
	}
	if p := ev.Payload.(*SessionStartPayload).Project; p != "shop psql postgres://app:[redacted:url_password]@db/shop" {
		t.Errorf("project %q", p)
	}
	unmasked, err := ParseEvent("codex", "session.start", envelope("session.start", `{"project":"shop","capabilities":["session_binding"]}`))
	if err != nil || unmasked.BodyDigest == ev.BodyDigest {
		t.Errorf("the digest is not of the body as sent: %v", err)
	}
	// profile_ref has a pattern; the schema's message quotes the value.
	bad := `{"project":"shop","profile_ref":"x postgres://app:` + pg + `@db","capabilities":["session_binding"]}`
	_, err = ParseEvent("codex", "session.start", envelope("session.start", bad))
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeSchemaInvalid {
		t.Fatalf("a bad profile_ref: %v", err)
	}
	if strings.Contains(e.Message, pg) || strings.Contains(err.Error(), pg) {
		t.Errorf("the refusal quotes the secret: %v", err)
	}
}

// TestParseEventMaskTooLong checks that a value its mask makes longer than
// the contract allows is refused, rather than kept too long to answer.
func TestParseEventMaskTooLong(t *testing.T) {
	pw := join("p", "w")
	project := "shop " + strings.Repeat("x", 220) + " postgres://a:" + pw + "@h"
	if len(project) > 256 {
		t.Fatalf("the project is %d bytes, over the contract's 256 before masking", len(project))
	}
	_, err := ParseEvent("codex", "session.start", envelope("session.start", `{"project":"`+project+`","capabilities":["session_binding"]}`))
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeSchemaInvalid || !strings.Contains(e.Message, "/payload/project") || !strings.Contains(e.Message, "masked") {
		t.Fatalf("a project its mask makes too long: %v", err)
	}
}

// TestParseEventMasksFixes checks a note's diff and config fixes, and its
// evidence, are masked like every other text.
func TestParseEventMasksFixes(t *testing.T) {
	npm := join("npm_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")
	note := func(fix string) []byte {
		return envelope("note", `{"session_handle":"sh_1","title":"Publishing needs the registry token","type":"config","scope":"project",
			"content":{"what":"npm publish failed with E401","why":"the token was missing from .npmrc","where":".npmrc","learned":"write the token line into .npmrc before npm publish"},
			"evidence_refs":["//registry.npmjs.org/:_authToken=`+npm+`"],"fix":`+fix+`}`)
	}
	for name, fix := range map[string]string{
		"config": `{"kind":"config","path":".npmrc","content":"//registry.npmjs.org/:_authToken=` + npm + `\n"}`,
		"diff":   `{"kind":"diff","diff":"--- a/.npmrc\n+++ b/.npmrc\n@@ -0,0 +1 @@\n+//registry.npmjs.org/:_authToken=` + npm + `\n"}`,
	} {
		ev, err := ParseEvent("codex", "note", note(fix))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n := ev.Payload.(*NotePayload)
		for _, text := range []string{n.Fix.Content, n.Fix.Diff, n.EvidenceRefs[0]} {
			if strings.Contains(text, npm) {
				t.Errorf("%s: %q kept the token", name, text)
			}
		}
		if !strings.Contains(n.Fix.Content+n.Fix.Diff, "[redacted:npm_token]") {
			t.Errorf("%s: fix %+v without the mask", name, n.Fix)
		}
		if err := NoteProblem(n); err != nil {
			t.Errorf("%s: a useful note with a masked fix is refused: %v", name, err)
		}
	}
}
