package memory

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// Test credentials are assembled at run time so that no scanner, ours or a
// code host's, mistakes this file for a leak.
func join(parts ...string) string { return strings.Join(parts, "") }

func TestScanSecretsFinds(t *testing.T) {
	tests := []struct {
		name, text, kind string
	}{
		{"aws", "export AWS_ACCESS_KEY_ID=" + join("AKIA", "IOSFODNN7", "EXAMPLE"), "aws_access_key"},
		{"github classic", "token " + join("ghp_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"), "github_token"},
		{"github oauth", join("gho_", "16C7e42F292c6912E7710c838347Ae178B4a"), "github_token"},
		{"github fine-grained", join("github_pat_", "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH"), "github_token"},
		{"slack", "SLACK=" + join("xoxb-", "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"), "slack_token"},
		{"openai", "key " + join("sk-", "proj-", "Ab3dEf6hIj9lMn2pQr5tUv8xYz1B4"), "openai_key"},
		{"openai legacy", join("sk-", "Ab3dEf6hIj9lMn2pQr5tUv8xYz1B4cD7"), "openai_key"},
		{"anthropic", join("sk-ant-", "api03-", "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe"), "anthropic_key"},
		{"google", join("AIza", "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"), "google_api_key"},
		{"stripe", join("sk_", "live_", "4eC39HqLyjWDarjtT1zdp7dc"), "stripe_key"},
		{"pem", "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEow...", "private_key"},
		{"openssh", "-----BEGIN " + "OPENSSH PRIVATE KEY-----", "private_key"},
		{"jwt", "Authorization: " + join("eyJhbGciOiJIUzI1NiJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", ".", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"), "jwt"},
		{"bearer", "curl -H 'Authorization: Bearer " + join("Zq8R2vL0x", "Tn4WbY7kPe") + "'", "bearer_token"},
		{"password assignment", "DB_PASSWORD=" + join("hQ7#kz", "P2m!Lw9xRt"), "assigned_secret"},
		{"json api_key", `{"api_key": "` + join("Xk29fLq0", "ZpR7mWn4Tb") + `"}`, "assigned_secret"},
		{"yaml secret", "client_secret: " + join("9fQ2-xL7p", "ZkW3_rT8bM"), "assigned_secret"},
		{"hex api key", "api_key=" + join("8b1a9953c4611296", "a827abf8c47804d7"), "assigned_secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found := ScanSecrets(tt.text)
			if len(found) != 1 {
				t.Fatalf("found %+v in %q, want one %s", found, tt.text, tt.kind)
			}
			f := found[0]
			if f.Kind != tt.kind {
				t.Errorf("kind %s, want %s", f.Kind, tt.kind)
			}
			if f.Offset < 0 || f.Offset+f.Length > len(tt.text) || f.Length < 8 {
				t.Errorf("bad location %+v", f)
			}
		})
	}
}

func TestScanSecretsIgnores(t *testing.T) {
	texts := map[string]string{
		"sha256 digest":     "the event_id is sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"bare digest":       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"uuid":              "request 123e4567-e89b-12d3-a456-426614174000 failed",
		"git sha":           "fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
		"base64 prose":      base64.StdEncoding.EncodeToString([]byte("the quick brown fox jumps over the lazy dog, twice")),
		"token placeholder": "token=${GITHUB_TOKEN}",
		"password word":     "password: changeme",
		"password prose":    "the password field must be at least 12 characters",
		"token count":       "max_tokens = 4096",
		"token digest":      "token_sha = 9fceb02d0ae598e95dc970b74767f19372d61af8",
		"token uuid":        "token: 123e4567-e89b-12d3-a456-426614174000",
		"sk hyphenated":     "use sk-learn-compatible-estimators here",
		"go code":           `secret := os.Getenv("API_SECRET")`,
		"ordinary note":     "go test ./ledger fails with a cgo linker error; run it with CGO_ENABLED=0",
		"bearer word":       "the header is Authorization: Bearer <token>",
		"pem public":        "-----BEGIN PUBLIC KEY-----",
	}
	for name, text := range texts {
		if found := ScanSecrets(text); len(found) > 0 {
			t.Errorf("%s: found %+v in %q", name, found, text)
		}
	}
}

func TestScanSecretsNeverReturnsTheSecret(t *testing.T) {
	secret := join("ghp_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")
	found := ScanSecrets("first " + secret + " then AKIA" + "IOSFODNN7EXAMPLE")
	if len(found) != 2 || found[0].Offset != 6 || found[0].Length != len(secret) || found[1].Kind != "aws_access_key" {
		t.Fatalf("%+v", found)
	}
}

func goodNote() *NotePayload {
	return &NotePayload{
		SessionHandle: "sh_1", Title: "Ledger tests need CGO off", Type: "pitfall", Scope: "project",
		Content: NoteContent{
			What:    "go test ./ledger fails with a cgo linker error",
			Why:     "cgo pulls a stale toolchain",
			Where:   "ledger/store_test.go",
			Learned: "run the ledger tests with CGO_ENABLED=0",
		},
	}
}

func TestNoteProblem(t *testing.T) {
	if err := NoteProblem(goodNote()); err != nil {
		t.Fatalf("a good note is refused: %v", err)
	}
	cjk := goodNote()
	cjk.Content.What, cjk.Content.Learned = "账本测试因为链接错误失败", "运行账本测试时关闭 CGO"
	if err := NoteProblem(cjk); err != nil {
		t.Errorf("a Chinese note is refused: %v", err)
	}
	tests := map[string]func(n *NotePayload){
		"placeholder title":   func(n *NotePayload) { n.Title = "TODO" },
		"n/a why":             func(n *NotePayload) { n.Content.Why = "n/a" },
		"test where":          func(n *NotePayload) { n.Content.Where = " Test. " },
		"empty what":          func(n *NotePayload) { n.Content.What = "..." },
		"short learned":       func(n *NotePayload) { n.Content.Learned = "fixed it" },
		"placeholder learned": func(n *NotePayload) { n.Content.Learned = "todo todo todo todo todo" },
		"repeated letters":    func(n *NotePayload) { n.Content.What = "aaaaaaaaaaaaaaaaaaaa" },
		"learned repeats":     func(n *NotePayload) { n.Content.Learned = "Go test ./ledger fails with a CGO linker error." },
		"secret in learned": func(n *NotePayload) {
			n.Content.Learned = "set GITHUB_TOKEN=" + join("ghp_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")
		},
		"secret in fix": func(n *NotePayload) {
			n.Fix = &Fix{Kind: FixCommand, Command: "curl -H 'Authorization: Bearer " + join("Zq8R2vL0x", "Tn4WbY7kPe") + "' https://x"}
		},
	}
	for name, change := range tests {
		n := goodNote()
		change(n)
		err := NoteProblem(n)
		if !errors.Is(err, &Error{Code: CodeNoteRejected}) {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if strings.Contains(err.Error(), "ghp_") || strings.Contains(err.Error(), "Zq8R") {
			t.Errorf("%s: the message quotes the secret: %v", name, err)
		}
	}
}
