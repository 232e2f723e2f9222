// Package memorytest holds what the memory's tests share across packages:
// the shapes of credential the secret scan must mask (memory.ScanSecrets,
// memory/secrets.go), wherever an event of the contract
// (memory/memory-agent-ingress-v1.schema.json) carries text.
package memorytest

import "strings"

// SecretShape is one shape of credential the scan must catch: text that
// holds it, secret (the bytes that must not survive masking) and the kind
// it is named.
type SecretShape struct {
	Name, Text, Secret, Kind string
}

// SecretShapes lists every shape issue 12 names, and those ScanSecrets
// caught before. The values are assembled at run time (join) so that no
// scanner mistakes this file for a leak.
func SecretShapes() []SecretShape {
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
	return []SecretShape{
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

func join(parts ...string) string { return strings.Join(parts, "") }
