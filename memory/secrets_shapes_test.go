package memory

import (
	"errors"
	"strings"
	"testing"
)

// secretShape is one shape of credential the scan must catch: text that
// holds it, secret (the bytes that must not survive masking) and the kind
// it is named.
type secretShape struct {
	name, text, secret, kind string
}

// secretShapes lists every shape issue 12 names, and those ScanSecrets
// caught before. The values are assembled at run time (join) so that no
// scanner mistakes this file for a leak.
func secretShapes() []secretShape {
	pg := join("pg", "Pass", "w0rd")
	my := join("my", "Pass", "7")
	web := join("hunter", "2")
	amqp := join("guest", "Secret", "9")
	slack := join("https://hooks.slack.com/services/", "T0123ABCD/B0456EFGH/", "aBcDeFgHiJkLmNoPqRsTuVwX")
	discord := join("https://discord.com/api/webhooks/", "123456789012345678/", "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789")
	npm := join("npm_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")
	mysqlP := join("S3cr", "etDb")
	long := join("longFlag", "Secret1")
	curlPass := join("curl", "Pass99")
	sshPass := join("ssh", "Pass42")
	pypi := join("pypi-", "AgEIcHlwaS5vcmcCJGRhYzM4ZTk2LTY3NmEtNGI0My05ZGYyLTc4ZjFhZTc1OTk2MwACKlsz")
	gitlab := join("glpat-", "xY9zA8bC7dE6fG5hI4jK")
	docker := join("dckr_pat_", "AbCdEfGhIjKlMnOpQrStUvWx")
	heroku := join("01234567-89ab-", "cdef-0123-456789abcdef")
	azure := join("Zm9vYmFyYmF6cXV4", "cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8=")
	basic := join("YWxhZGRpbjpv", "cGVuc2VzYW1l")
	pem := join("MIIEowIBAAKCAQEA", "7bq9mZ3kLp0Q")
	dockerAuth := join("dXNlcjpw", "YXNzd29yZDEyMw==")
	env := join("hun", "ter22")
	ghp := join("ghp_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")
	aws := join("AKIA", "IOSFODNN7", "EXAMPLE")
	bearer := join("abcdefgh", "ijklmnop1234")
	return []secretShape{
		{"postgres url", "psql postgres://app:" + pg + "@db.internal:5432/shop", pg, "url_password"},
		{"mysql url", "DATABASE_URL=mysql://root:" + my + "@127.0.0.1/shop", my, "url_password"},
		{"https url", "git clone https://deploy:" + web + "@git.example.com/shop.git", web, "url_password"},
		{"any scheme url", "amqp://guest:" + amqp + "@mq:5672/", amqp, "url_password"},
		{"slack webhook", "curl -X POST " + slack + " -d @msg.json", slack, "slack_webhook"},
		{"discord webhook", "notify " + discord, discord, "discord_webhook"},
		{"npm token", "//registry.npmjs.org/:_authToken=" + npm, npm, "npm_token"},
		{"mysql -p", "mysql -u root -p" + mysqlP + " shop < dump.sql", mysqlP, "password_flag"},
		{"--password=", "deploy --password=" + long + " --yes", long, "password_flag"},
		{"curl -u", "curl -u admin:" + curlPass + " https://ci.example.com/api", curlPass, "password_flag"},
		{"sshpass -p", "sshpass -p " + sshPass + " ssh deploy@host", sshPass, "password_flag"},
		{"pypi token", "twine upload -u __token__ " + pypi, pypi, "pypi_token"},
		{"gitlab token", "GITLAB=" + gitlab, gitlab, "gitlab_token"},
		{"docker token", "docker login -u me --password-stdin <<< " + docker, docker, "docker_token"},
		{"heroku api key", "HEROKU_API_KEY=" + heroku, heroku, "heroku_api_key"},
		{"azure connection string", "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=" + azure + ";EndpointSuffix=core.windows.net", azure, "azure_key"},
		{"basic auth", "curl -H 'Authorization: Basic " + basic + "' https://x", basic, "basic_auth"},
		{"private key", "-----BEGIN " + "RSA PRIVATE KEY-----\n" + pem + "\n-----END RSA PRIVATE KEY-----", pem, "private_key"},
		{"docker config auth", `{"auths":{"ghcr.io":{"auth":"` + dockerAuth + `"}}}`, dockerAuth, "docker_auth"},
		{"password variable", "PGPASSWORD=" + env + " psql -h db", env, "password"},
		{"secret variable", "API_KEY=" + join("abc", "123") + " npm run deploy", join("abc", "123"), "env_secret"},
		{"github token", "git push https://x:" + ghp + "@github.com/o/r", ghp, "github_token"},
		{"aws key", "aws configure set aws_access_key_id " + aws, aws, "aws_access_key"},
		{"bearer header", "curl -H 'Authorization: Bearer " + bearer + "' https://x", bearer, "bearer_token"},
	}
}

func TestMaskSecretsEveryShape(t *testing.T) {
	for _, s := range secretShapes() {
		t.Run(s.name, func(t *testing.T) {
			found := ScanSecrets(s.text)
			if len(found) != 1 || found[0].Kind != s.kind {
				t.Fatalf("found %+v in %q, want one %s", found, s.text, s.kind)
			}
			masked, _ := MaskSecrets(s.text)
			if strings.Contains(masked, s.secret) || !strings.Contains(masked, "[redacted:"+s.kind+"]") {
				t.Errorf("masked %q", masked)
			}
			if again, f := MaskSecrets(masked); again != masked || len(f) != 0 {
				t.Errorf("masking is not idempotent: %q, %+v", again, f)
			}
			// What is not the secret stays, so the text is still useful; a
			// key block is masked whole, its header with it.
			if rest := strings.Replace(s.text, s.secret, "", 1); s.kind != "private_key" && !strings.Contains(masked, rest[:min(len(rest), 8)]) {
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
