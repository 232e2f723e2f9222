package node

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The memory's secret scan (issue 12, Build 7), over HTTP: every shape of
// credential, sent in a project name, a failing tool result's command and
// error tail, a note's fields and fix, and a query, is masked before the
// node reads it. The record read back shows the mask; no answer quotes the
// secret; and no file of the node's data folder holds its bytes.

// memorySecretShape is one credential: text holding it, and the secret
// bytes that must never be stored or answered.
type memorySecretShape struct{ name, text, secret, kind string }

// memorySecretShapes are the shapes issue 12 lists (memory's own unit
// test, secrets_shapes_test.go, holds the same list). The values are
// assembled at run time so no scanner takes this file for a leak.
func memorySecretShapes() []memorySecretShape {
	j := func(p ...string) string { return strings.Join(p, "") }
	pg, my, web, amqp := j("pg", "Pass", "w0rd"), j("my", "Pass", "7"), j("hunter", "2"), j("guest", "Secret", "9")
	slack := j("https://hooks.slack.com/services/", "T0123ABCD/B0456EFGH/", "aBcDeFgHiJkLmNoPqRsTuVwX")
	discord := j("https://discord.com/api/webhooks/", "123456789012345678/", "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789")
	npm := j("npm_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")
	mysqlP, long, curlPass, sshPass := j("S3cr", "etDb"), j("longFlag", "Secret1"), j("curl", "Pass99"), j("ssh", "Pass42")
	pypi := j("pypi-", "AgEIcHlwaS5vcmcCJGRhYzM4ZTk2LTY3NmEtNGI0My05ZGYyLTc4ZjFhZTc1OTk2MwACKlsz")
	gitlab, docker := j("glpat-", "xY9zA8bC7dE6fG5hI4jK"), j("dckr_pat_", "AbCdEfGhIjKlMnOpQrStUvWx")
	heroku := j("01234567-89ab-", "cdef-0123-456789abcdef")
	azure := j("Zm9vYmFyYmF6cXV4", "cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8=")
	basic, pem := j("YWxhZGRpbjpv", "cGVuc2VzYW1l"), j("MIIEowIBAAKCAQEA", "7bq9mZ3kLp0Q")
	ghp, aws := j("ghp_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"), j("AKIA", "IOSFODNN7", "EXAMPLE")
	return []memorySecretShape{
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
		{"azure connection string", "AccountName=shop;AccountKey=" + azure + ";EndpointSuffix=core.windows.net", azure, "azure_key"},
		{"basic auth", "curl -H 'Authorization: Basic " + basic + "' https://x", basic, "basic_auth"},
		{"private key", "-----BEGIN " + "RSA PRIVATE KEY-----\n" + pem + "\n-----END RSA PRIVATE KEY-----", pem, "private_key"},
		{"github token", "git push https://x:" + ghp + "@github.com/o/r", ghp, "github_token"},
		{"aws key", "aws configure set aws_access_key_id " + aws, aws, "aws_access_key"},
	}
}

func TestMemorySecretsNeverStored(t *testing.T) {
	n, srv, admin := startMemoryNode(t)
	a := &agent{t: t, url: srv.URL, id: "alpha", token: issueAdapter(t, srv.URL, admin, "alpha")}
	shapes := memorySecretShapes()
	// quiet fails the test if an answer quotes a secret of any shape.
	quiet := func(what string, body []byte) {
		t.Helper()
		for _, s := range shapes {
			if bytes.Contains(body, []byte(s.secret)) {
				t.Errorf("%s answered the %s secret: %s", what, s.name, body)
			}
		}
	}
	send := func(kind string, payload map[string]any) reply {
		t.Helper()
		r := a.send(kind, payload)
		quiet(kind, r.body)
		if !r.ok {
			t.Fatalf("%s refused: %s", kind, r.body)
		}
		return r
	}
	refs := make([]string, len(shapes))
	for i, s := range shapes {
		start := send("session.start", map[string]any{"project": "shop " + s.text, "capabilities": []any{"session_binding", "tool_capture", "note_tool", "query_tools"}})
		h := start.result["session_handle"].(string)
		send("step.before", map[string]any{"session_handle": h, "step": 1, "query_text": "make the deploy work: " + s.text})
		send("tool.result", map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1,
			"command": s.text, "error_tail": npmFailure + "\n" + s.text})
		note := projectNote(h, "deploy "+s.text)
		note["title"] = fmt.Sprintf("Deploy step %d (%s) needs its credential from the vault", i, s.name)
		content := note["content"].(map[string]any)
		content["where"] = "CI settings: " + s.text
		content["what"] = "npm test failed after " + s.text
		refs[i] = send("note", note).result["record_ref"].(string)
		send("query", map[string]any{"session_handle": h, "op": "search", "query": "deploy " + s.text})
		send("session.end", map[string]any{"session_handle": h, "reason": "exit"})
	}

	// Read back, by the admin and by a later session's query read: masked,
	// with the rest of the text kept.
	later := a.start("shop", nil)
	for i, s := range shapes {
		v := adminRecord(t, srv.URL, admin, refs[i])
		b, _ := json.Marshal(v)
		quiet("GET record", b)
		rec := v["record"].(map[string]any)
		mask := "[redacted:" + s.kind + "]"
		if p := rec["project"].(string); !strings.HasPrefix(p, "shop ") || !strings.Contains(p, mask) {
			t.Errorf("%s: project stored as %q, want it masked with %s", s.name, p, mask)
		}
		if w := rec["content"].(map[string]any)["where"].(string); !strings.HasPrefix(w, "CI settings: ") || !strings.Contains(w, mask) {
			t.Errorf("%s: where stored as %q", s.name, w)
		}
		if c := v["fix"].(map[string]any)["command"].(string); !strings.HasPrefix(c, "deploy ") || !strings.Contains(c, mask) {
			t.Errorf("%s: fix stored as %q", s.name, c)
		}
		read := send("query", map[string]any{"session_handle": later, "op": "read", "ref": refs[i]})
		if text := read.result["record"].(map[string]any)["text"].(string); !strings.Contains(text, mask) {
			t.Errorf("%s: query read text without the mask: %q", s.name, text)
		}
	}

	// A lesson that is only a secret is refused, without quoting it.
	only := goodNote(later)
	only["content"].(map[string]any)["learned"] = shapes[len(shapes)-2].secret
	if r := a.send("note", only); r.ok || r.code != "note_rejected" {
		t.Errorf("a lesson that is only a secret: %d %s", r.status, r.body)
	} else {
		quiet("note refusal", r.body)
	}

	// Nothing of any secret is in any file the node keeps: state.db, its
	// WAL, the keys, the log.
	files := 0
	err := filepath.WalkDir(n.cfg.DataDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for _, s := range shapes {
			if bytes.Contains(b, []byte(s.secret)) {
				t.Errorf("%s holds the %s secret", path, s.name)
			}
		}
		return nil
	})
	if err != nil || files == 0 {
		t.Fatalf("reading the data folder: %d files, %v", files, err)
	}
	if db, err := os.ReadFile(filepath.Join(n.cfg.DataDir, "state.db")); err != nil || !bytes.Contains(db, []byte("[redacted:")) {
		if wal, _ := os.ReadFile(filepath.Join(n.cfg.DataDir, "state.db-wal")); !bytes.Contains(wal, []byte("[redacted:")) {
			t.Errorf("neither state.db nor its WAL holds a mask: the grep above looked at the wrong files (%v)", err)
		}
	}
}
