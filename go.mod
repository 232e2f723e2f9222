module github.com/agora-node/agora

go 1.26.8

require (
	filippo.io/mldsa v1.0.0
	github.com/go-json-experiment/json v1.27.2
	github.com/rogpeppe/go-internal v1.16.0
	github.com/transparency-dev/formats v0.1.1
	github.com/transparency-dev/merkle v0.0.2
	golang.org/x/mod v0.43.0
	golang.org/x/text v0.44.0
)

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
