module github.com/agora-node/agora

go 1.26.8

require (
	filippo.io/mldsa v1.0.0 // indirect
	github.com/cloudflare/circl v1.6.5 // indirect
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/transparency-dev/formats v0.1.1 // indirect
	github.com/transparency-dev/merkle v0.0.2 // indirect
	golang.org/x/mod v0.43.0 // indirect
	golang.org/x/text v0.44.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
