package replay

import "time"

// Go: modules and go.sum, private modules, the toolchain line, cgo and
// the race detector, go generate, go vet, golangci-lint, tests that hang.
func unseen5Go(h *hand) {
	h.note(Note{ID: "gosum", Project: "ledgerline", OS: "linux", Lang: "go", At: day(2022, time.March, 9),
		Title:   "go.sum out of date after I edited go.mod by hand",
		What:    "§go build ./...§ stopped with §missing go.sum entry for module providing package github.com/shopspring/decimal§ right after I bumped the require line.",
		Why:     "I changed the version in go.mod directly and never ran tidy, so go.sum had no hash for the new version. Since 1.16 the go command does not touch go.sum on its own (-mod=readonly).",
		Where:   "go.mod, go.sum",
		Learned: "After any hand edit of go.mod run go mod tidy and commit go.sum with it. CI fails the same way if only go.mod is committed.",
		Fix:     "go mod tidy"})
	h.ask("gosum/1", "ledgerline", "linux", "go test ./internal/...", `# ledgerline/internal/money
internal/money/round.go:6:2: missing go.sum entry for module providing package github.com/shopspring/decimal (imported by ledgerline/internal/money); to add:
	go get ledgerline/internal/money
ok  	ledgerline/internal/audit	0.214s
FAIL	ledgerline/internal/money [setup failed]
ok  	ledgerline/internal/store	1.087s
FAIL`, "gosum", u5Stored)
	h.ask("gosum/2", "ledgerline", "darwin", "go build -o bin/ledgerd ./cmd/ledgerd", `go: downloading github.com/jackc/pgx/v5 v5.5.4
go: github.com/jackc/pgx/v5@v5.5.4: missing go.sum entry for go.mod file; to add it:
	go mod download github.com/jackc/pgx/v5`, "gosum", u5Stored)
	h.ask("gosum/3", "tollgate", "linux", "go vet ./...", `internal/proxy/upstream.go:11:2: missing go.sum entry for module providing package golang.org/x/net/http2 (imported by tollgate/internal/proxy); to add:
	go get tollgate/internal/proxy`, "", u5Other)

	h.note(Note{ID: "goprivate", Project: "ledgerline", Scope: "global", OS: "darwin", Lang: "go", At: day(2023, time.February, 2),
		Title:   "Private Go modules (corvid-labs org) need GOPRIVATE and ssh",
		What:    "Fetching our internal authkit module:\n\n```\ngo: github.com/corvid-labs/authkit@v1.4.0: reading https://proxy.golang.org/github.com/corvid-labs/authkit/@v/v1.4.0.mod: 404 Not Found\n\tserver response: not found\n```\n\nand with GOPROXY=direct it got to `fatal: could not read Username for 'https://github.com': terminal prompts disabled`.",
		Why:     "proxy.golang.org and sum.golang.org cannot see private repos. Going direct, the go command clones over https and git cannot prompt for credentials.",
		Learned: "Set GOPRIVATE=github.com/corvid-labs/* (it implies GONOPROXY and GONOSUMDB) and make git use ssh for github.com with an insteadOf rule. In CI use a token in the url instead: git config url.\"https://x-access-token:${TOKEN}@github.com/\".insteadOf \"https://github.com/\".",
		Fix:     `go env -w GOPRIVATE='github.com/corvid-labs/*' && git config --global url."git@github.com:".insteadOf "https://github.com/"`})
	h.ask("goprivate/1", "gridwatch", "linux", "go mod download", `go: downloading github.com/corvid-labs/metrics-go v0.9.2
verifying github.com/corvid-labs/metrics-go@v0.9.2/go.mod: github.com/corvid-labs/metrics-go@v0.9.2/go.mod: reading https://sum.golang.org/lookup/github.com/corvid-labs/metrics-go@v0.9.2: 404 Not Found
	server response:
	not found: github.com/corvid-labs/metrics-go@v0.9.2: invalid version: git ls-remote -q origin in /tmp/gopath/pkg/mod/cache/vcs/5f0c2a7d41e9b8c3a6f1d2e0b7c94a18e6d3f5b2c1a0987654321fedcba01234: exit status 128:
		fatal: could not read Username for 'https://github.com': terminal prompts disabled
	Confirm the import path was entered correctly.
	If this is a private repository, see https://golang.org/doc/faq#git_https for additional information.`, "goprivate", u5Global)
	h.ask("goprivate/2", "ledgerline", "windows", "go get github.com/corvid-labs/authkit@v1.6.1", u5crlf(`go: downloading github.com/corvid-labs/authkit v1.6.1
go: github.com/corvid-labs/authkit@v1.6.1: reading https://proxy.golang.org/github.com/corvid-labs/authkit/@v/v1.6.1.info: 404 Not Found
	server response: not found: module github.com/corvid-labs/authkit: git ls-remote -q origin in /tmp/gopath/pkg/mod/cache/vcs/b1e4: exit status 128:
	fatal: could not read Username for 'https://github.com': terminal prompts disabled`), "goprivate", u5Stored)
	h.ask("goprivate-tag", "ledgerline", "linux", "go get github.com/corvid-labs/authkit@v1.7.0", `go: github.com/corvid-labs/authkit@v1.7.0: invalid version: unknown revision v1.7.0`, "", u5Tool)

	h.note(Note{ID: "race-win", Project: "tollgate", OS: "windows", Lang: "go", At: day(2024, time.May, 14),
		Title:   "race detector on the Windows box wants a C compiler",
		What:    "`go test -race ./...` → `go: -race requires cgo; enable cgo by setting CGO_ENABLED=1`, and after setting it: `cgo: C compiler \"gcc\" not found: exec: \"gcc\": executable file not found in %PATH%`",
		Why:     "Go for Windows has no C toolchain; without gcc cgo is off by default, and -race needs cgo.",
		Learned: "Installed MSYS2, then pacman -S mingw-w64-ucrt-x86_64-gcc, put C:\\msys64\\ucrt64\\bin on the user PATH, and set CGO_ENABLED=1 with go env -w. New terminal needed for the PATH change.",
		Fix:     ""})
	h.note(Note{ID: "race-alpine", Project: "tollgate", OS: "linux", Lang: "go", At: day(2024, time.July, 3),
		Title:   "CI: -race fails in the golang alpine image",
		What:    "test job: go: -race requires cgo; enable cgo by setting CGO_ENABLED=1",
		Why:     "golang:*-alpine has no gcc, so the go command turns cgo off; and even with build-base the race runtime on musl was flaky for us.",
		Learned: "Run the test job in golang:1.22-bookworm (gcc included, glibc), keep alpine only for the final image stage. Don't just export CGO_ENABLED=1 there, it then fails on the missing gcc.",
		Fix:     ""})
	h.ask("race-win/1", "tollgate", "windows", `go test -race ./internal/...`, u5crlf(`PS C:\src\tollgate> go test -race ./internal/...
go: -race requires cgo; enable cgo by setting CGO_ENABLED=1
PS C:\src\tollgate>`), "race-win", u5Twin)
	h.ask("race-alpine/1", "tollgate", "linux", "docker run --rm -v $PWD:/src -w /src golang:1.23-alpine go test -race -count=1 ./...", `Unable to find image 'golang:1.23-alpine' locally
1.23-alpine: Pulling from library/golang
Digest: sha256:8a1c9f3e2d7b6a5c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d
Status: Downloaded newer image for golang:1.23-alpine
go: downloading github.com/stretchr/testify v1.9.0
go: -race requires cgo; enable cgo by setting CGO_ENABLED=1`, "race-alpine", u5Twin)
	h.ask("race-win/2", "tollgate", "windows", "go build ./cmd/tollgate-local", u5crlf(`# runtime/cgo
cgo: C compiler "gcc" not found: exec: "gcc": executable file not found in %PATH%`), "race-win", u5Stored)

	h.note(Note{ID: "sqlite-stub", Project: "tollgate", OS: "darwin", Lang: "go", At: day(2023, time.September, 21),
		Title:   "release binary came out with a stub sqlite driver",
		What:    "The linux binary I cross-compiled on the mac died at start: Binary was compiled with 'CGO_ENABLED=0', go-sqlite3 requires cgo to work. This is a stub",
		Why:     "GOOS=linux from darwin means no cross C compiler, so cgo is off and mattn/go-sqlite3 builds its stub.",
		Learned: "Moved to modernc.org/sqlite (pure Go) so cross builds just work. The driver name is \"sqlite\", not \"sqlite3\" — sql.Open must change with the import.",
		Where:   "internal/store/open.go",
		Fix:     ""})
	h.ask("sqlite-stub/1", "tollgate", "linux", "./tollgate serve --config /etc/tollgate.yaml", `2025/01/14 09:12:44 tollgate 0.19.0 (linux/amd64) starting
2025/01/14 09:12:44 loading routes from /etc/tollgate.yaml: 42 routes
2025/01/14 09:12:44 open store /var/lib/tollgate/state.db: Binary was compiled with 'CGO_ENABLED=0', go-sqlite3 requires cgo to work. This is a stub`, "sqlite-stub", u5Stored)
	h.ask("sqlite-stub/2", "tollgate", "linux", "go test ./internal/store/", `--- FAIL: TestOpenMigrates (0.00s)
    open_test.go:19: open: sql: unknown driver "sqlite3" (forgotten import?)
FAIL
FAIL	tollgate/internal/store	0.011s
FAIL`, "sqlite-stub", u5Tool)

	h.note(Note{ID: "xcrun", Project: "ledgerline", Scope: "global", OS: "darwin", Lang: "go", At: day(2022, time.November, 7),
		Title:   "macOS upgrade broke every build (xcrun gone)",
		What:    "```\nxcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), missing xcrun at: /Library/Developer/CommandLineTools/usr/bin/xcrun\n```\nfrom the cgo part of go build, right after upgrading to Ventura. git and make said the same.",
		Why:     "A major macOS upgrade removes the Command Line Tools.",
		Learned: "Reinstall them with xcode-select --install. If it claims they are already installed: sudo rm -rf /Library/Developer/CommandLineTools and run it again. Affects anything that shells out to clang, git or make.",
		Fix:     "xcode-select --install"})
	h.ask("xcrun/1", "fernweh-app", "darwin", "git pull --rebase", `xcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), missing xcrun at: /Library/Developer/CommandLineTools/usr/bin/xcrun`, "xcrun", u5Global)
	h.ask("xcrun/2", "pacer-cli", "darwin", "cargo build --release", `   Compiling libc v0.2.155
   Compiling proc-macro2 v1.0.86
error: linking with §cc§ failed: exit status: 1
  |
  = note: LC_ALL="C" PATH="/Users/sam/.rustup/toolchains/stable-aarch64-apple-darwin/lib/rustlib/aarch64-apple-darwin/bin:..." "cc" "-arch" "arm64" "/var/folders/4k/x1/T/rustcQ2aZ/symbols.o" ... "-nodefaultlibs"
  = note: xcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), missing xcrun at: /Library/Developer/CommandLineTools/usr/bin/xcrun

error: could not compile §proc-macro2§ (build script) due to 1 previous error`, "xcrun", u5Global)

	h.note(Note{ID: "lint-deadline", Project: "gridwatch", OS: "linux", Lang: "go", At: day(2022, time.June, 28),
		Title:   "golangci-lint times out on the CI runner",
		What:    "lint step: level=error msg=\"Timeout exceeded: try increasing it by passing --timeout option\"",
		Why:     "default is 1m and the 2-core runner with a cold module cache needs ~3.",
		Learned: "put run: deadline: 5m in .golangci.yml",
		Where:   ".golangci.yml, .github/workflows/lint.yml"})
	h.note(Note{ID: "lint-timeout", Project: "gridwatch", OS: "linux", Lang: "go", At: day(2024, time.October, 15), Supersedes: "lint-deadline",
		Title:   "lint timeout again: run.deadline is no longer read",
		What:    "Back to `Timeout exceeded: try increasing it by passing --timeout option` after the golangci-lint bump to v1.61.",
		Why:     "run.deadline was deprecated for ages and is removed now; the old key is ignored and the 1m default applies again.",
		Learned: "Use run.timeout: 5m in .golangci.yml (or --timeout=5m), and cache ~/.cache/golangci-lint and the Go build cache between runs (the action does it if you let it), which brought it down to 70s anyway.",
		Where:   ".golangci.yml",
		Fix:     "golangci-lint run --timeout=5m ./..."})
	h.ask("lint-timeout/1", "gridwatch", "linux", "golangci-lint run ./...", `level=info msg="[config_reader] Config search paths: [./ /home/runner/work/gridwatch/gridwatch /home/runner/work/gridwatch /home/runner/work /home/runner /home /]"
level=info msg="[config_reader] Used config file .golangci.yml"
level=info msg="[lintersdb] Active 14 linters: [errcheck gocritic gofumpt gosec gosimple govet ineffassign misspell revive staticcheck stylecheck typecheck unconvert unused]"
level=info msg="[loader] Go packages loading at mode 575 (compiled_files|deps|exports_file|files|imports|name|types_sizes) took 48.71232s"
level=error msg="Timeout exceeded: try increasing it by passing --timeout option"
Error: golangci-lint exit with code 4
Ran golangci-lint in 60071ms`, "lint-timeout", u5Declared, "lint-deadline")

	h.note(Note{ID: "lint-gover", Project: "gridwatch", OS: "linux", Lang: "go", At: day(2024, time.September, 2),
		Title:   "golangci-lint binary older than our go directive",
		What:    "§can't load config: the Go language version (go1.22) used to build golangci-lint is lower than the targeted Go version (1.23.1)§",
		Why:     "go.mod went to 1.23.1; the golangci-lint the action downloaded (v1.59) was built with go1.22 and refuses.",
		Learned: "bump golangci-lint-action's version input to a release built with the newer Go (v1.61.0 here). Same thing will happen on every Go minor bump, do both in one PR.",
		Where:   ".github/workflows/lint.yml"})
	h.ask("lint-gover/1", "gridwatch", "linux", "golangci-lint run --out-format=github-actions", `Running [/home/runner/golangci-lint-1.60.3-linux-amd64/golangci-lint run --out-format=github-actions] in [/home/runner/work/gridwatch/gridwatch] ...
Error: can't load config: the Go language version (go1.23) used to build golangci-lint is lower than the targeted Go version (1.24.0)
Failed executing command with error: can't load config: the Go language version (go1.23) used to build golangci-lint is lower than the targeted Go version (1.24.0)
Error: golangci-lint exit with code 3`, "lint-gover", u5Stored)
	h.ask("lint-vendor", "gridwatch", "linux", "golangci-lint run ./...", `\e[31mERRO\e[0m Running error: context loading failed: failed to load packages: failed to load packages: failed to load with go/packages: err: exit status 1: stderr: go: inconsistent vendoring in /home/runner/work/gridwatch/gridwatch:
	sigs.k8s.io/controller-runtime@v0.19.1: is explicitly required in go.mod, but not marked as explicit in vendor/modules.txt

	To ignore the vendor directory, use -mod=readonly or -mod=mod.
	To sync the vendor directory, run:
		go mod vendor`, "", u5Tool)

	h.note(Note{ID: "stringer", Project: "ledgerline", OS: "darwin", Lang: "go", At: day(2023, time.April, 17),
		Title:   "go generate needs stringer, which nobody installs",
		What:    "internal/ledger/entrykind.go:3: running \"stringer\": exec: \"stringer\": executable file not found in $PATH",
		Why:     "New laptop. stringer was only ever installed by hand on the old one; nothing in the repo pins it.",
		Learned: "Changed the directives to §//go:generate go run golang.org/x/tools/cmd/stringer -type=EntryKind§ and added golang.org/x/tools to go.mod via a tools.go (blank import, build tag tools). Now it is versioned and needs nothing on PATH.",
		Where:   "internal/ledger/entrykind.go, tools.go"})
	h.ask("stringer/1", "ledgerline", "linux", "go generate ./...", `internal/audit/action.go:5: running "stringer": exec: "stringer": executable file not found in $PATH
exit status 1`, "stringer", u5Stored)
	h.ask("oapi-spec", "ledgerline", "linux", "go generate ./api/...", `api/gen.go:3: running "oapi-codegen": exit status 1
error loading swagger spec in api/openapi.yaml
: yaml: line 212: did not find expected key`, "", u5NeverObj)

	h.note(Note{ID: "toolchain", Project: "gridwatch", OS: "linux", Lang: "go", At: day(2024, time.February, 20),
		Title:   "CI image older than go.mod's go line",
		What:    "`go: go.mod requires go >= 1.22.0 (running go 1.21.5; GOTOOLCHAIN=local)`",
		Why:     "the golang:1.21 image sets GOTOOLCHAIN=local so it won't fetch a newer toolchain.",
		Learned: "We bump the builder image tag together with the go line (Dockerfile and workflow), rather than letting GOTOOLCHAIN=auto download toolchains in CI. Old Go (<1.21) chokes on the toolchain line too with 'unknown directive: toolchain'.",
		Where:   "Dockerfile, .github/workflows/ci.yml"})
	h.ask("toolchain/1", "gridwatch", "linux", "docker build -t gridwatch-operator:dev .", `#10 [builder 4/7] COPY go.mod go.sum ./
#10 DONE 0.0s
#11 [builder 5/7] RUN go mod download
#11 0.318 go: go.mod requires go >= 1.23.4 (running go 1.22.10; GOTOOLCHAIN=local)
#11 ERROR: process "/bin/sh -c go mod download" did not complete successfully: exit code: 1
------
 > [builder 5/7] RUN go mod download:
0.318 go: go.mod requires go >= 1.23.4 (running go 1.22.10; GOTOOLCHAIN=local)
------
Dockerfile:9
--------------------
   7 |     WORKDIR /workspace
   8 |     COPY go.mod go.sum ./
   9 | >>> RUN go mod download
  10 |     COPY . .
--------------------
ERROR: failed to solve: process "/bin/sh -c go mod download" did not complete successfully: exit code: 1`, "toolchain", u5Stored)
	h.ask("toolchain/2", "gridwatch", "linux", "go build ./...", `go: errors parsing go.mod:
/home/runner/work/gridwatch/gridwatch/go.mod:5: unknown directive: toolchain`, "toolchain", u5Stored)
	h.ask("toolchain-dl", "ledgerline", "windows", "go build ./...", u5crlf(`go: downloading go1.23.4 (windows/amd64)
go: download go1.23.4 for windows/amd64: toolchain not available`), "", u5Other)

	h.note(Note{ID: "pgx5", Project: "ledgerline", OS: "linux", Lang: "go", At: day(2023, time.August, 8),
		Title:   "pgx v4 -> v5 migration leftovers",
		What:    "After switching imports to github.com/jackc/pgx/v5: `internal/store/pool.go:31:15: undefined: pgxpool.ConnectConfig`, and in another package a `cannot use conn (variable of type *\"github.com/jackc/pgx/v4\".Conn) as *\"github.com/jackc/pgx/v5\".Conn value`.",
		Why:     "v5 renamed the pool constructors, and one package still imported v4, so both majors were in the build.",
		Learned: "pgxpool.NewWithConfig(ctx, cfg) replaces ConnectConfig; pgxpool.New replaces Connect. grep for \"jackc/pgx/v4\" until nothing is left, then go mod tidy drops v4.",
		Where:   "internal/store/"})
	h.ask("pgx5/1", "ledgerline", "linux", "go build ./...", `# ledgerline/internal/store
internal/store/pool.go:31:15: undefined: pgxpool.ConnectConfig
internal/store/pool.go:44:9: undefined: pgxpool.Connect`, "pgx5", u5Stored)
	h.ask("errjoin", "ledgerline", "linux", "go vet ./...", `# ledgerline/internal/batch
internal/batch/run.go:88:9: errors.Join requires go1.20 or later (-lang was set to go1.19; check go.mod)`, "", u5NeverObj)

	h.note(Note{ID: "copylock", Project: "tollgate", OS: "linux", Lang: "go", At: day(2025, time.March, 11),
		Title:   "vet: buckets copied with their mutex",
		What:    "go vet: range var b copies lock: tollgate/internal/ratelimit.bucket contains sync.Mutex",
		Why:     "map[string]bucket holds values; ranging (and every map read) copies the struct and its mutex, so the lock protected a copy. Real race, not just vet noise.",
		Learned: "map[string]*bucket. Never embed a sync.Mutex in something stored by value.",
		Where:   "internal/ratelimit/limiter.go"})
	h.ask("copylock/1", "tollgate", "linux", "go vet ./...", `# tollgate/internal/ratelimit
internal/ratelimit/limiter.go:57:9: range var b copies lock: tollgate/internal/ratelimit.bucket contains sync.Mutex
internal/ratelimit/limiter.go:73:12: assignment copies lock value to cur: tollgate/internal/ratelimit.bucket contains sync.Mutex`, "copylock", u5Stored)
	h.ask("copylock-ledger", "ledgerline", "darwin", "go vet ./...", `# ledgerline
./main.go:41:22: call of log.Printf copies lock value: ledgerline/internal/config.Config contains sync.RWMutex`, "", u5Other)

	h.note(Note{ID: "test-hang", Project: "ledgerline", OS: "linux", Lang: "go", At: day(2025, time.January, 27),
		Title:   "go test ./... hangs 10 minutes then panics",
		What:    "```\npanic: test timed out after 10m0s\nrunning tests:\n\tTestPostingRoundTrip (9m59s)\n```",
		Why:     "integration tests connect to postgres from LEDGER_PG_URL; unset it falls back to localhost and pgx keeps retrying under context.Background(), so the test never fails, it just waits.",
		Learned: "The store tests now skip under -short and when LEDGER_PG_URL is empty, and connect with a 5s context. Locally: go test -short ./... unless the compose db is up.",
		Where:   "internal/store/store_test.go",
		Fix:     "go test -short ./..."})
	h.ask("test-hang/1", "ledgerline", "linux", "go test ./...", `ok  	ledgerline/internal/audit	0.198s
ok  	ledgerline/internal/money	0.031s
panic: test timed out after 10m0s
running tests:
	TestLedgerBalanceAfterReversal (10m0s)

goroutine 41 [running]:
testing.(*M).startAlarm.func1()
	/usr/local/go/src/testing/testing.go:2373 +0x385
created by time.goFunc
	/usr/local/go/src/time/sleep.go:215 +0x2d

goroutine 1 [chan receive, 10 minutes]:
testing.(*T).Run(0xc000102b60, {0x8d2a1e, 0x1e}, 0x8f6c48)
	/usr/local/go/src/testing/testing.go:1751 +0x3ab
...
goroutine 23 [select]:
github.com/jackc/pgx/v5/pgconn.connectOne(...)
	/home/dev/go/pkg/mod/github.com/jackc/pgx/v5@v5.6.0/pgconn/pgconn.go:302 +0x1b4
FAIL	ledgerline/internal/store	600.112s
FAIL`, "test-hang", u5Stored)

	h.note(Note{ID: "envtest", Project: "gridwatch", OS: "linux", Lang: "go", At: day(2025, time.April, 9),
		Title:   "controller tests: envtest binaries missing",
		What:    "suite_test.go fails in BeforeSuite: unable to start control plane itself: failed to start the controlplane. retried 5 times: fork/exec /usr/local/kubebuilder/bin/etcd: no such file or directory",
		Why:     "envtest looks in /usr/local/kubebuilder/bin unless KUBEBUILDER_ASSETS says otherwise; nothing puts etcd/kube-apiserver there on a fresh machine.",
		Learned: "Use setup-envtest to fetch the binaries for the k8s version we test against and export KUBEBUILDER_ASSETS from its output; the Makefile's test target does it now.",
		Where:   "internal/controller/suite_test.go, Makefile",
		Fix:     `export KUBEBUILDER_ASSETS="$(setup-envtest use 1.30.x -p path)"`})
	h.ask("envtest/1", "gridwatch", "darwin", "go test ./internal/controller/...", `Running Suite: Controller Suite - /Users/lena/src/gridwatch/internal/controller
=============================================================================
Random Seed: 1744213377

Will run 9 of 9 specs
\e[38;5;9m[FAILED]\e[0m in [BeforeSuite] - /Users/lena/src/gridwatch/internal/controller/suite_test.go:71 @ 04/09/25 17:43:02.118
[BeforeSuite] [FAILED] [0.004 seconds]
  \e[38;5;9mUnexpected error:
      <*fmt.wrapError | 0x1400012c0a0>:
      unable to start control plane itself: failed to start the controlplane. retried 5 times: fork/exec /usr/local/kubebuilder/bin/kube-apiserver: no such file or directory
  occurred\e[0m
Ran 0 of 9 Specs in 0.005 seconds
FAIL! -- A BeforeSuite node failed so all tests were skipped.
--- FAIL: TestControllers (0.01s)
FAIL`, "envtest", u5Stored)

	h.note(Note{ID: "replace-ctx", Project: "ledgerline", OS: "linux", Lang: "go", At: day(2022, time.September, 30),
		Title:   "docker build can't see ../common (replace directive)",
		What:    "go mod download in the Dockerfile: replacement directory ../common does not exist",
		Why:     "go.mod has replace ledgerline/common => ../common, but the build context was ./svc, so nothing outside it is in the image.",
		Learned: "Build from the repo root: docker build -f svc/Dockerfile . and COPY common/ before go mod download.",
		Where:   "svc/Dockerfile, go.mod",
		Fix:     "docker build -f svc/Dockerfile -t ledgerline-svc ."})
	h.ask("replace-ctx/1", "ledgerline", "linux", "docker build -t ledgerline-svc svc/", `#12 [build 5/7] RUN go mod download
#12 0.412 go: ledgerline/common@v0.0.0-00010101000000-000000000000 (replaced by ../common): reading ../common/go.mod: open /common/go.mod: no such file or directory
#12 ERROR: process "/bin/sh -c go mod download" did not complete successfully: exit code: 1`, "replace-ctx", u5Stored)
	h.ask("gomod-usage", "ledgerline", "darwin", "go mod tidy", `go: errors parsing go.mod:
/Users/ana/src/ledgerline/go.mod:1: usage: module module/path`, "", u5Generic)
	h.ask("embed-dist", "tollgate", "linux", "go build ./cmd/tollgate", `cmd/tollgate/main.go:18:12: pattern web/dist/*: no matching files found`, "", u5NeverFail)
}
