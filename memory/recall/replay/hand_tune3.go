package replay

// handTune3 are hand cases of the tune part for ecosystems the older
// parts hardly touch: Go vet and staticcheck, private Go modules,
// vendoring, protoc and gRPC over TLS, pnpm workspaces and corepack,
// webpack 5, Vitest, Poetry, Django migrations and django-stubs, Redis,
// pytest fixture scopes, Bazel and bzlmod, Nix, shellcheck, make and
// submodules, GitHub Actions tokens, SSH agents, the AWS CLI with
// Docker's Windows credential store. Written without reading the engine.
func handTune3() ([]Note, []Query) {
	h := &hand{split: Tune, prefix: "tune3/"}
	tune3Go(h)
	tune3Node(h)
	tune3Python(h)
	tune3BuildInfra(h)
	tune3NeverStored(h)
	tune3Again(h)
	return h.notes, h.qs
}

func tune3Go(h *hand) {
	h.note(Note{ID: "vet-copylocks", Project: "marlin", OS: "linux", Lang: "go", At: day(2024, 5, 14),
		Title:   "go vet: copylocks in the rate limiter",
		What:    "`go vet ./...` fails: `internal/limit/bucket.go:58:9: Allow passes lock by value: marlin/internal/limit.Bucket contains sync.Mutex`",
		Why:     "Bucket methods had value receivers, so every call copied the mutex and the lock did nothing.",
		Where:   "internal/limit/bucket.go",
		Learned: "Pointer receivers on anything holding a sync.Mutex; vet's copylocks check catches it, the race detector only sometimes."})
	h.ask("vet-copylocks/1", "marlin", "linux", "go vet ./...",
		"# marlin/internal/limit\n# [marlin/internal/limit]\ninternal/limit/bucket.go:58:9: Allow passes lock by value: marlin/internal/limit.Bucket contains sync.Mutex\ninternal/limit/bucket.go:71:9: Refill passes lock by value: marlin/internal/limit.Bucket contains sync.Mutex\ninternal/limit/bucket_test.go:22:14: call of limit.Refill copies lock value: marlin/internal/limit.Bucket contains sync.Mutex\n",
		"vet-copylocks", "tune3: stored")
	h.ask("vet-printf", "marlin", "linux", "go vet ./...",
		"# marlin/internal/limit\n# [marlin/internal/limit]\ninternal/limit/report.go:19:24: fmt.Sprintf format %d has arg b.rate of wrong type float64\ninternal/limit/report.go:27:3: fmt.Errorf call needs 1 arg but has 2 args\n",
		"", "tune3: same tool, another error")

	h.note(Note{ID: "sa1019-grpc", Project: "marlin", OS: "darwin", Lang: "go", At: day(2024, 1, 30),
		Title:   "lint red after grpc-go bump",
		What:    "staticcheck complains SA1019 about grpc.WithInsecure (deprecated) in the client constructors.",
		Why:     "grpc-go 1.43+ deprecates WithInsecure; CI runs staticcheck with deprecation checks on.",
		Where:   "internal/rpc/dial.go, cmd/marlinctl",
		Learned: "Use grpc.WithTransportCredentials(insecure.NewCredentials()) from google.golang.org/grpc/credentials/insecure; don't add lint:ignore."})
	h.ask("sa1019-grpc/1", "marlin", "linux", "staticcheck ./...",
		"cmd/marlinctl/main.go:44:32: grpc.WithInsecure is deprecated: use WithTransportCredentials and insecure.NewCredentials() instead. Will be supported throughout 1.x.  (SA1019)\ninternal/rpc/dial.go:17:3: grpc.WithInsecure is deprecated: use WithTransportCredentials and insecure.NewCredentials() instead. Will be supported throughout 1.x.  (SA1019)\n",
		"sa1019-grpc", "tune3: stored")
	h.ask("sa1019-ioutil", "marlin", "linux", "staticcheck ./...",
		"internal/config/load.go:6:2: \"io/ioutil\" has been deprecated since Go 1.19: As of Go 1.16, the same functionality is now provided by package [io] or package [os], and those implementations should be preferred in new code. See the specific function documentation for details.  (SA1019)\n",
		"", "tune3: same message, another object")

	h.note(Note{ID: "go-private-https", Project: "marlin", Scope: "global", OS: "darwin", Lang: "go", At: day(2023, 11, 6),
		Title: "private modules on git.corp.io",
		What:  "go mod download stopped at our own modules with\n```\nfatal: could not read Username for 'https://git.corp.io': terminal prompts disabled\n```\nand before it a 410 Gone from proxy.golang.org.",
		Why:   "Two things: the proxy and sumdb can't see git.corp.io, and go runs git non-interactively over https, where I have no credentials — only an SSH key.",
		Learned: "Set GOPRIVATE=git.corp.io/* and make git rewrite https to ssh for that host:\n" +
			"git config --global url.\"git@git.corp.io:\".insteadOf \"https://git.corp.io/\"",
		Fix: "go env -w GOPRIVATE=git.corp.io/* && git config --global url.\"git@git.corp.io:\".insteadOf \"https://git.corp.io/\""})
	h.ask("go-private-https/ridgeline", "ridgeline", "linux", "go build ./...",
		"go: downloading git.corp.io/platform/authz v1.4.0\ngo: downloading git.corp.io/platform/featureflags v0.9.2\ngo: git.corp.io/platform/authz@v1.4.0: reading https://proxy.golang.org/git.corp.io/platform/authz/@v/v1.4.0.mod: 410 Gone\n\tserver response: not found: git.corp.io/platform/authz@v1.4.0: unrecognized import path \"git.corp.io/platform/authz\": https fetch: Get \"https://git.corp.io/platform/authz?go-get=1\": dial tcp: lookup git.corp.io on 8.8.8.8:53: no such host\n",
		"go-private-https", "tune3: global note, another project")
	h.ask("go-private-https/long", "marlin", "darwin", "go mod download -x",
		"# get https://proxy.golang.org/github.com/jackc/pgx/v5/@v/list\n# get https://proxy.golang.org/github.com/jackc/pgx/v5/@v/list: 200 OK (0.112s)\n# get https://proxy.golang.org/go.uber.org/zap/@v/v1.27.0.mod\n... 214 lines omitted ...\ncd /Users/kim/go/pkg/mod/cache/vcs/4b1c9e; git ls-remote -q origin\n0.021s # cd /Users/kim/go/pkg/mod/cache/vcs/4b1c9e; git ls-remote -q origin\ngo: git.corp.io/platform/featureflags@v0.9.2: invalid version: git ls-remote -q origin in /Users/kim/go/pkg/mod/cache/vcs/4b1c9e: exit status 128:\n\tfatal: could not read Username for 'https://git.corp.io': terminal prompts disabled\nConfirm the import path was typed correctly.\nIf this is a private repository, see https://golang.org/doc/faq#git_https for additional information.\n",
		"go-private-https", "tune3: stored, elided middle")

	h.note(Note{ID: "go-vendor", Project: "marlin", OS: "linux", Lang: "go", At: day(2024, 8, 2),
		Title: "inconsistent vendoring", What: "CI build broke right after the dependabot merge: go: inconsistent vendoring.", Why: "dependabot bumps go.mod, not vendor/", Learned: "vendor after every go.mod change",
		Fix: "go mod vendor"})
	h.ask("go-vendor/1", "marlin", "linux", "go test ./...",
		"\x1b[31mgo: inconsistent vendoring in /home/ci/build/marlin:\x1b[0m\n\tgithub.com/prometheus/client_golang@v1.20.2: is explicitly required in go.mod, but vendor/modules.txt indicates github.com/prometheus/client_golang@v1.19.1\n\tgolang.org/x/sys@v0.24.0: is explicitly required in go.mod, but vendor/modules.txt indicates golang.org/x/sys@v0.22.0\n\n\tTo ignore the vendor directory, use -mod=readonly or -mod=mod.\n\tTo sync the vendor directory, run:\n\t\tgo mod vendor\n",
		"go-vendor", "tune3: stored, a note with only what and fix")

	h.note(Note{ID: "protoc-gen-go-mac", Project: "marlin", OS: "darwin", Lang: "go", At: day(2024, 10, 21),
		Title:   "make proto: protoc-gen-go not found",
		What:    "protoc says \"protoc-gen-go: program not found or is not executable\" though I ran go install for it.",
		Why:     "go install puts it in $(go env GOPATH)/bin = ~/go/bin, and my zsh PATH only has Homebrew's bin.",
		Where:   "Makefile target proto, ~/.zshrc",
		Learned: "Add ~/go/bin to PATH in .zshrc; protoc finds plugins only via PATH (or --plugin=).",
		Fix:     "echo 'export PATH=\"$PATH:$(go env GOPATH)/bin\"' >> ~/.zshrc && exec zsh"})
	h.note(Note{ID: "protoc-gen-go-win", Project: "marlin", OS: "windows", Lang: "go", At: day(2024, 11, 4),
		Title:   "Same protoc plugin error on the Windows box",
		What:    "protoc-gen-go: program not found or is not executable — this time on Windows with protoc from winget.",
		Why:     "The binary is protoc-gen-go.exe in %USERPROFILE%\\go\\bin, which is not on the user PATH; PowerShell profile edits don't reach the make shell from Git Bash either.",
		Learned: "Put %USERPROFILE%\\go\\bin on the user PATH with setx and open a new terminal.",
		Fix:     "setx PATH \"%PATH%;%USERPROFILE%\\go\\bin\""})
	protoc := "protoc -I proto --go_out=gen --go_opt=paths=source_relative --go-grpc_out=gen --go-grpc_opt=paths=source_relative proto/marlin/v1/limits.proto\nprotoc-gen-go: program not found or is not executable\nPlease specify a program using absolute path or make sure the program is available in your PATH system variable\n--go_out: protoc-gen-go: Plugin failed with status code 1.\nmake: *** [Makefile:31: proto] Error 1\n"
	h.ask("protoc-gen-go/mac", "marlin", "darwin", "make proto", protoc, "protoc-gen-go-mac", "tune3: twin on another system")
	h.ask("protoc-gen-go/win", "marlin", "windows", "make proto",
		crlf(`protoc -I proto --go_out=gen --go_opt=paths=source_relative proto/marlin/v1/limits.proto
'protoc-gen-go' is not recognized as an internal or external command,
operable program or batch file.
protoc-gen-go: program not found or is not executable
Please specify a program using absolute path or make sure the program is available in your PATH system variable
--go_out: protoc-gen-go: Plugin failed with status code 1.
make: *** [Makefile:31: proto] Error 1
`), "protoc-gen-go-win", "tune3: twin on another system, CRLF")
	h.ask("protoc-import", "marlin", "darwin", "make proto",
		"protoc -I proto --go_out=gen --go_opt=paths=source_relative proto/marlin/v1/gateway.proto\ngoogle/api/annotations.proto: File not found.\nmarlin/v1/gateway.proto:5:1: Import \"google/api/annotations.proto\" was not found or had errors.\nmake: *** [Makefile:31: proto] Error 1\n",
		"", "tune3: same tool, another error")

	h.note(Note{ID: "grpc-corp-ca", Project: "marlin", OS: "linux", Lang: "go", At: day(2025, 3, 11),
		Title:   "marlin can't talk to staging limits-svc after the cert rotation",
		What:    "Every RPC to limits.staging.corp fails: rpc error: code = Unavailable desc = connection error: desc = \"transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate signed by unknown authority\"",
		Why:     "Platform re-issued the staging certs from the new internal CA (Corp Root G2). The dev VM image only trusts G1. Go reads the system pool, so the fix is on the machine, not in code — resist InsecureSkipVerify.",
		Learned: "Install corp-root-g2.crt into the system store. SSL_CERT_FILE also works for a one-off.",
		Fix:     "sudo cp corp-root-g2.crt /usr/local/share/ca-certificates/ && sudo update-ca-certificates"})
	h.ask("grpc-corp-ca/json", "marlin", "linux", "go run ./cmd/marlind --env staging",
		`{"level":"info","ts":"2025-04-02T08:14:51.207+0200","caller":"marlind/main.go:61","msg":"dialing limits","target":"limits.staging.corp:443"}
{"level":"warn","ts":"2025-04-02T08:14:51.311+0200","caller":"rpc/dial.go:40","msg":"limits check failed","attempt":3,"error":"rpc error: code = Unavailable desc = connection error: desc = \"transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate signed by unknown authority (possibly because of \\\"crypto/rsa: verification error\\\" while trying to verify candidate authority certificate \\\"Corp Root G2\\\")\""}
{"level":"fatal","ts":"2025-04-02T08:14:51.312+0200","caller":"marlind/main.go:70","msg":"startup check failed","error":"limits: retries exhausted"}
`, "grpc-corp-ca", "tune3: stored, JSON log lines")
	h.ask("grpc-hostname", "marlin", "linux", "go run ./cmd/marlind --env staging",
		"2025/04/09 10:02:13 limits check: rpc error: code = Unavailable desc = connection error: desc = \"transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate is valid for *.svc.staging.corp, svc.staging.corp, not limits.staging.corp\"\nexit status 1\n",
		"", "tune3: same tool, another error")

	h.note(Note{ID: "marlin-errors", Project: "marlin", OS: "linux", Lang: "go", At: day(2023, 4, 3), Type: "decision", NoFailure: true,
		Title:   "Errors: wrap with %w, no pkg/errors",
		What:    "All new code wraps errors with fmt.Errorf(\"...: %w\", err) and checks with errors.Is/As; github.com/pkg/errors is being removed.",
		Why:     "Stack traces from pkg/errors bloated logs and nobody read them.",
		Learned: "Sentinel errors live next to the code that returns them."})
	h.ask("marlin-errcheck", "marlin", "linux", "golangci-lint run",
		"internal/store/pg.go:140:12: Error return value of `tx.Rollback` is not checked (errcheck)\n\ttx.Rollback(ctx)\n\t          ^\ninternal/rpc/server.go:77:2: error returned from external package is unwrapped: sig: func github.com/jackc/pgx/v5.Connect(ctx context.Context, connString string) (*github.com/jackc/pgx/v5.Conn, error) (wrapcheck)\n",
		"", "tune3: a note that describes no failure")
	h.ask("marlin-gomod", "marlin", "linux", "go build ./...",
		"go: errors parsing go.mod:\n/home/ci/build/marlin/go.mod:9:2: unknown directive: github.com/jackc/pgx/v5\n",
		"", "tune3: generic names only (go.mod)")
}

func tune3Node(h *hand) {
	h.note(Note{ID: "pnpm-workspace-range", Project: "quill", OS: "darwin", Lang: "typescript", At: day(2024, 2, 26),
		Title:   "pnpm install: tokens package not found in workspace",
		What:    "After bumping @quill/tokens to 3.0.0 locally, pnpm install errors with ERR_PNPM_NO_MATCHING_VERSION_INSIDE_WORKSPACE for @quill/tokens@^2.0.0 in packages/web.",
		Why:     "packages/web pinned a semver range, and link-workspace-packages=deep with a range that the local version no longer satisfies is an error, not a fallback to the registry.",
		Where:   "packages/web/package.json",
		Learned: "Internal deps use the workspace: protocol (\"@quill/tokens\": \"workspace:^\"), then changesets rewrite it at publish.",
		Fix:     "pnpm --filter @quill/web add @quill/tokens@workspace:^"})
	h.ask("pnpm-workspace-range/1", "quill", "linux", "pnpm install --frozen-lockfile",
		"Scope: all 9 workspace projects\n\u2009ERR_PNPM_NO_MATCHING_VERSION_INSIDE_WORKSPACE\u2009 In packages/web: No matching version found for @quill/tokens@^2.0.0 inside the workspace\n\nThis error happened while installing a direct dependency of /home/ci/build/quill/packages/web\n",
		"pnpm-workspace-range", "tune3: stored")
	h.ask("pnpm-registry-version", "quill", "linux", "pnpm install",
		"Scope: all 9 workspace projects\nProgress: resolved 812, reused 790, downloaded 0, added 0\n ERR_PNPM_NO_MATCHING_VERSION  No matching version found for react-aria-components@^1.9.0\n\nThis error happened while installing a direct dependency of /home/ci/build/quill/packages/ui\n\nThe latest release of react-aria-components is \"1.5.0\".\n\nIf you need the full list of all 214 published versions run \"$ pnpm view react-aria-components versions\".\n",
		"", "tune3: same tool, another error")

	h.note(Note{ID: "corepack-keyid", Project: "quill", Scope: "global", OS: "linux", Lang: "javascript", At: day(2025, 2, 5),
		Title:   "corepack: Cannot find matching keyid",
		What:    "Every pnpm call in CI dies inside corepack with `Error: Cannot find matching keyid: {\"signatures\":[...],\"keys\":[...]}` before pnpm even starts.",
		Why:     "npm rotated its registry signing keys; the corepack bundled with our Node can't verify newer pnpm releases.",
		Learned: "Quick workaround: turn off the signature check.",
		Fix:     "export COREPACK_INTEGRITY_KEYS=0"})
	h.note(Note{ID: "corepack-upgrade", Project: "quill", Scope: "global", OS: "linux", Lang: "javascript", At: day(2025, 6, 17), ProseOver: "corepack-keyid",
		Title: "keyid error is back on the new runners",
		What:  "Same corepack \"Cannot find matching keyid\" crash on the ubuntu-24.04 runners, with COREPACK_INTEGRITY_KEYS=0 already set.",
		Why: "The env var workaround from February no longer does anything here: these images ship Node 18's corepack 0.18, which predates COREPACK_INTEGRITY_KEYS entirely (it was added in 0.27), " +
			"so the variable is silently ignored. The real fix is a corepack that knows the new keys.",
		Learned: "Upgrade corepack itself before enabling it; drop the env var.",
		Fix:     "npm install -g corepack@latest && corepack enable"})
	keyid := "/home/ci/.cache/node/corepack/v1/pnpm/9.15.4/dist/pnpm.cjs\n/opt/hostedtoolcache/node/18.20.4/x64/lib/node_modules/corepack/dist/lib/corepack.cjs:21535\n  if (key == null || signature == null) throw new Error(`Cannot find matching keyid: ${JSON.stringify({ signatures, keys })}`);\n                                              ^\n\nError: Cannot find matching keyid: {\"signatures\":[{\"sig\":\"MEUCIQDNb+XcBo9LZ1hv+qbDE9nR2ZnCaefw9TSx9Aoy5A4RFQIgXhEODXFbyK1TfnpYGE4rqk+nA6UEWk9Kk4bX8z9VDlQ=\",\"keyid\":\"SHA256:DhQ8wR5APBvFHLF/+Tc+AYvPOdTpcIDqOhxsBHRwC7U\"}],\"keys\":[{\"expires\":\"2025-01-29T00:00:00.000Z\",\"keyid\":\"SHA256:jl3bwswu80PjjokCgh0o2w5c2U4LhQAE57gj9cz1kzA\",\"keytype\":\"ecdsa-sha2-nistp256\",\"scheme\":\"ecdsa-sha2-nistp256\"}]}\n    at verifySignature (/opt/hostedtoolcache/node/18.20.4/x64/lib/node_modules/corepack/dist/lib/corepack.cjs:21535:47)\n    at fetchLatestStableVersion (/opt/hostedtoolcache/node/18.20.4/x64/lib/node_modules/corepack/dist/lib/corepack.cjs:21553:5)\n\nNode.js v18.20.4\n"
	h.ask("corepack/quill", "quill", "linux", "pnpm install --frozen-lockfile", keyid, "corepack-upgrade", "tune3: superseded in prose", "corepack-keyid")
	h.ask("corepack/ridgeline", "ridgeline", "linux", "corepack enable && pnpm -v", "\x1b[2K\r"+keyid[40:], "corepack-upgrade", "tune3: superseded in prose, global, cut at the start", "corepack-keyid")

	h.note(Note{ID: "webpack-crypto", Project: "quill", OS: "linux", Lang: "javascript", At: day(2023, 3, 20),
		Title:   "webpack 5 build of the admin app",
		What:    "Module not found: Error: Can't resolve 'crypto' in node_modules/jsonwebtoken, with the BREAKING CHANGE note about node core polyfills.",
		Why:     "webpack 5 stopped polyfilling node core modules; the admin app imported jsonwebtoken just to decode a token in the browser, which pulls crypto, stream and buffer.",
		Where:   "apps/admin/src/auth/session.ts",
		Learned: "Don't add crypto-browserify fallbacks: decode with jose's decodeJwt instead, it's browser-native. Verification happens server side anyway.",
		Fix:     "pnpm --filter admin remove jsonwebtoken && pnpm --filter admin add jose"})
	h.ask("webpack-crypto/1", "quill", "linux", "pnpm --filter admin build",
		"> admin@0.14.0 build /home/ci/build/quill/apps/admin\n> webpack --mode production\n\nassets by status 1.21 MiB [cached] 4 assets\norphan modules 2.9 MiB [orphan] 611 modules\n\nERROR in ./node_modules/.pnpm/jws@3.2.2/node_modules/jws/lib/sign-stream.js 3:13-37\nModule not found: Error: Can't resolve 'stream' in '/home/ci/build/quill/node_modules/.pnpm/jws@3.2.2/node_modules/jws/lib'\n\nERROR in ./node_modules/.pnpm/jsonwebtoken@9.0.2/node_modules/jsonwebtoken/sign.js 8:15-32\nModule not found: Error: Can't resolve 'crypto' in '/home/ci/build/quill/node_modules/.pnpm/jsonwebtoken@9.0.2/node_modules/jsonwebtoken'\n\nBREAKING CHANGE: webpack < 5 used to include polyfills for node.js core modules by default.\nThis is no longer the case. Verify if you need this module and configure a polyfill for it.\n\nIf you want to include a polyfill, you need to:\n\t- add a fallback 'resolve.fallback: { \"crypto\": require.resolve(\"crypto-browserify\") }'\n\t- install 'crypto-browserify'\nIf you don't want to include a polyfill, you can use an empty module like this:\n\tresolve.fallback: { \"crypto\": false }\n\nwebpack 5.89.0 compiled with 2 errors in 18342 ms\n ELIFECYCLE  Command failed with exit code 1.\n",
		"webpack-crypto", "tune3: stored, long build log")
	h.ask("webpack-case", "quill", "linux", "pnpm --filter admin build",
		"ERROR in ./src/pages/Dashboard.tsx 7:0-45\nModule not found: Error: Can't resolve './components/header' in '/home/ci/build/quill/apps/admin/src/pages'\nresolve './components/header' in '/home/ci/build/quill/apps/admin/src/pages'\n  using description file: /home/ci/build/quill/apps/admin/package.json (relative path: ./src/pages)\n    /home/ci/build/quill/apps/admin/src/pages/components/header doesn't exist\n    /home/ci/build/quill/apps/admin/src/pages/components/header.tsx doesn't exist\n\nwebpack 5.89.0 compiled with 1 error in 9120 ms\n",
		"", "tune3: same message, another cause")

	h.note(Note{ID: "vitest-jsdom", Project: "quill", OS: "darwin", Lang: "typescript", At: day(2024, 4, 8),
		Title:   "component tests: document is not defined",
		What:    "Moving the ui package from jest to vitest, every Testing Library test fails with ReferenceError: document is not defined.",
		Why:     "vitest's default environment is node; jest's preset had been jsdom.",
		Where:   "packages/ui/vitest.config.ts",
		Learned: "test: { environment: 'jsdom' } in vitest.config.ts (and add jsdom as a dev dependency). Per-file: // @vitest-environment jsdom."})
	h.ask("vitest-jsdom/1", "quill", "darwin", "pnpm --filter @quill/ui test",
		"\x1b[31m FAIL \x1b[39m src/Button/Button.test.tsx\x1b[2m > \x1b[22mButton\x1b[2m > \x1b[22mcalls onPress when clicked\n\x1b[31m\x1b[1mReferenceError\x1b[22m: document is not defined\x1b[39m\n\x1b[36m \x1b[2m❯\x1b[22m render ../../node_modules/.pnpm/@testing-library+react@14.2.1/node_modules/@testing-library/react/dist/pure.js:\x1b[2m257:5\x1b[22m\x1b[39m\n\x1b[36m \x1b[2m❯\x1b[22m src/Button/Button.test.tsx:\x1b[2m9:5\x1b[22m\x1b[39m\n\n\x1b[2m Test Files \x1b[22m \x1b[1m\x1b[31m14 failed\x1b[39m\x1b[22m\x1b[90m (14)\x1b[39m\n\x1b[2m      Tests \x1b[22m \x1b[1m\x1b[31m52 failed\x1b[39m\x1b[22m\x1b[90m (52)\x1b[39m\n",
		"vitest-jsdom", "tune3: stored, ANSI colours")
	h.ask("next-window", "quill", "linux", "pnpm --filter site build",
		"   Generating static pages (12/31)  [=   ]\nReferenceError: window is not defined\n    at useViewport (/home/ci/build/quill/apps/site/.next/server/chunks/611.js:1:2231)\n    at Hero (/home/ci/build/quill/apps/site/.next/server/app/page.js:1:9920)\n\nError occurred prerendering page \"/\". Read more: https://nextjs.org/docs/messages/prerender-error\n\n> Export encountered errors on following paths:\n\t/page: /\n",
		"", "tune3: same kind of error, another tool")

	h.note(Note{ID: "vi-hoisted", Project: "quill", OS: "darwin", Lang: "typescript", At: day(2025, 1, 13),
		Title: "vi.mock factory can't see my mock variable",
		What: "Wrote a test for the analytics client with `const track = vi.fn()` at the top and `vi.mock('../analytics', () => ({ track }))`. " +
			"Vitest blew up with an error about an error when mocking a module, caused by `ReferenceError: Cannot access '__vi_import_0__' before initialization` / sometimes `Cannot access 'track' before initialization`.",
		Why:     "vi.mock calls are hoisted above the imports and above everything else in the file, so the factory runs before `const track` exists.",
		Where:   "packages/ui/src/analytics/useTrack.test.ts",
		Learned: "Declare what the factory needs inside vi.hoisted(): const { track } = vi.hoisted(() => ({ track: vi.fn() })). That is hoisted too, in order."})
	h.ask("vi-hoisted/1", "quill", "darwin", "pnpm vitest run src/analytics",
		" FAIL  src/analytics/useTrack.test.ts [ src/analytics/useTrack.test.ts ]\nError: [vitest] There was an error when mocking a module. If you are using \"vi.mock\" factory, make sure there are no top level variables inside, since this call is hoisted to top of the file. Read more: https://vitest.dev/api/vi.html#vi-mock\n ❯ src/analytics/useTrack.ts:1:1\n      1| import { track } from './analytics'\n       | ^\n\nCaused by: ReferenceError: Cannot access 'track' before initialization\n ❯ src/analytics/useTrack.test.ts:5:42\n",
		"vi-hoisted", "tune3: stored")

	h.note(Note{ID: "pnpm-eperm-win", Project: "quill", OS: "windows", Lang: "javascript", At: day(2024, 9, 19),
		Title:   "pnpm on Windows: EPERM rename in node_modules/.pnpm",
		What:    "pnpm install fails halfway: ERR_PNPM_EPERM  EPERM: operation not permitted, rename 'C:\\Users\\dev\\src\\quill\\node_modules\\.pnpm\\esbuild@0.19.12\\node_modules\\esbuild_tmp_8412' -> '...\\esbuild'",
		Why:     "A node.exe left over from the VS Code ESLint server (and Defender scanning) holds files open under node_modules, so the rename fails.",
		Learned: "Kill stray node processes, then install again; excluding the repo from Defender real-time scanning stopped it coming back.",
		Fix:     "taskkill /F /IM node.exe & pnpm install"})
	h.ask("pnpm-eperm-win/1", "quill", "windows", "pnpm install",
		crlf(`Scope: all 9 workspace projects
Lockfile is up to date, resolution step is skipped
Progress: resolved 1, reused 0, downloaded 0, added 0
Packages: +846
++++++++++++++++++++++++++++++++++++++++++++++++++
Progress: resolved 846, reused 846, downloaded 0, added 412
 ERR_PNPM_EPERM  EPERM: operation not permitted, rename 'C:\Users\dev\src\quill\node_modules\.pnpm\@swc+core-win32-x64-msvc@1.4.2\node_modules\@swc\core-win32-x64-msvc_tmp_10288' -> 'C:\Users\dev\src\quill\node_modules\.pnpm\@swc+core-win32-x64-msvc@1.4.2\node_modules\@swc\core-win32-x64-msvc'
`), "pnpm-eperm-win", "tune3: stored, Windows paths and CRLF, another package")

	h.note(Note{ID: "quill-workspace", Project: "quill", OS: "darwin", Lang: "typescript", At: day(2024, 1, 10), Type: "decision", NoFailure: true,
		Title:   "Internal packages are consumed from source",
		What:    "Apps import @quill/* packages through workspace:^ and TypeScript project references; no package is built before an app's dev server starts.",
		Why:     "Two-step builds made dev start slow and the watch mode flaky.",
		Where:   "tsconfig.base.json, pnpm-workspace.yaml",
		Learned: "Each package's exports map points at src/ in dev and dist/ after publish."})
	h.ask("quill-ts6305", "quill", "linux", "pnpm tsc -b",
		"apps/web/src/main.tsx:3:20 - error TS6305: Output file '/home/ci/build/quill/packages/tokens/dist/index.d.ts' has not been built from source file '/home/ci/build/quill/packages/tokens/src/index.ts'.\n\n3 import { space } from '@quill/tokens'\n                     ~~~~~~~~~~~~~~~\n\nFound 1 error.\n",
		"", "tune3: a note that describes no failure")
}

func tune3Python(h *hand) {
	h.note(Note{ID: "poetry-lock-old", Project: "saltmarsh", OS: "darwin", Lang: "python", At: day(2023, 9, 12),
		Title:   "poetry install: lock file out of date",
		What:    "`poetry install` → \"pyproject.toml changed significantly since poetry.lock was last generated. Run `poetry lock [--no-update]` to fix the lock file.\"",
		Why:     "I'd added httpx to pyproject.toml by hand instead of with poetry add.",
		Learned: "Re-lock without upgrading everything else.",
		Fix:     "poetry lock --no-update"})
	h.note(Note{ID: "poetry-lock-2", Project: "saltmarsh", OS: "darwin", Lang: "python", At: day(2025, 2, 3), ProseOver: "poetry-lock-old",
		Title: "poetry lock after the Poetry 2 upgrade",
		What: "Lock file out of date again after editing pyproject.toml. The re-lock command from my 2023 note now fails: " +
			"`The option \"--no-update\" does not exist`.",
		Why:     "Poetry 2.0 removed --no-update: plain `poetry lock` keeps the locked versions now, and `poetry lock --regenerate` is the old default behaviour.",
		Learned: "On Poetry 2 just run poetry lock; use --regenerate only when you really want everything re-resolved.",
		Fix:     "poetry lock"})
	h.ask("poetry-lock/2", "saltmarsh", "darwin", "poetry install --sync",
		"Installing dependencies from lock file\n\npyproject.toml changed significantly since poetry.lock was last generated. Run `poetry lock` to fix the lock file.\n",
		"poetry-lock-2", "tune3: superseded in prose", "poetry-lock-old")
	h.ask("poetry-lock/no-update", "saltmarsh", "linux", "poetry lock --no-update",
		"\nThe option \"--no-update\" does not exist\n",
		"poetry-lock-2", "tune3: superseded in prose, the old fix's own error", "poetry-lock-old")

	h.note(Note{ID: "django-merge", Project: "saltmarsh", OS: "linux", Lang: "python", At: day(2024, 6, 25),
		Title:   "two 0014 migrations in billing after merging main",
		What:    "manage.py migrate: CommandError: Conflicting migrations detected; multiple leaf nodes in the migration graph: (0014_invoice_currency, 0014_invoice_due_date in billing).",
		Why:     "My branch and Priya's both added a billing migration on top of 0013.",
		Where:   "saltmarsh/billing/migrations/",
		Learned: "Let Django write the merge migration unless both touch the same field; commit it with the merge.",
		Fix:     "python manage.py makemigrations --merge --noinput"})
	h.ask("django-merge/1", "saltmarsh", "linux", "python manage.py migrate",
		"Traceback (most recent call last):\n  File \"/home/ci/build/saltmarsh/manage.py\", line 22, in <module>\n    main()\n  File \"/home/ci/build/saltmarsh/.venv/lib/python3.11/site-packages/django/core/management/commands/migrate.py\", line 152, in handle\n    raise CommandError(\ndjango.core.management.base.CommandError: Conflicting migrations detected; multiple leaf nodes in the migration graph: (0015_payment_method, 0015_refund_reason in payments).\nTo fix them run 'python manage.py makemigrations --merge'\n",
		"django-merge", "tune3: stored, another app")
	h.ask("django-inconsistent", "saltmarsh", "linux", "python manage.py migrate",
		"Traceback (most recent call last):\n  File \"/home/ci/build/saltmarsh/.venv/lib/python3.11/site-packages/django/db/migrations/loader.py\", line 327, in check_consistent_history\n    raise InconsistentMigrationHistory(\ndjango.db.migrations.exceptions.InconsistentMigrationHistory: Migration admin.0001_initial is applied before its dependency accounts.0001_initial on database 'default'.\n",
		"", "tune3: same tool, another error")

	h.note(Note{ID: "django-stubs-settings", Project: "saltmarsh", OS: "linux", Lang: "python", At: day(2024, 3, 1),
		Title: "mypy crashes with django-stubs",
		What:  "mypy wouldn't even start checking:\n\n    django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured.\n",
		Why:   "The django-stubs plugin imports Django and needs to know the settings module; DJANGO_SETTINGS_MODULE is set in manage.py, not in the pre-commit environment.",
		Where: "pyproject.toml",
		Learned: "Put it in the config so it works everywhere:\n[tool.django-stubs]\ndjango_settings_module = \"saltmarsh.settings.test\"\n" +
			"and list django-stubs[compatible-mypy] in the hook's additional_dependencies."})
	h.ask("django-stubs/1", "saltmarsh", "linux", "mypy saltmarsh",
		"Error constructing plugin instance of NewSemanalDjangoPlugin\n\nTraceback (most recent call last):\n  File \"/home/ci/build/saltmarsh/.venv/bin/mypy\", line 8, in <module>\n    sys.exit(console_entry())\n  File \"/home/ci/build/saltmarsh/.venv/lib/python3.11/site-packages/mypy_django_plugin/django/context.py\", line 99, in initialize_django\n    apps.populate(settings.INSTALLED_APPS)\n  File \"/home/ci/build/saltmarsh/.venv/lib/python3.11/site-packages/django/conf/__init__.py\", line 72, in _setup\n    raise ImproperlyConfigured(\ndjango.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured. You must either define the environment variable DJANGO_SETTINGS_MODULE or call settings.configure() before accessing settings.\n",
		"django-stubs-settings", "tune3: stored, stack trace")
	h.ask("mypy-return", "saltmarsh", "linux", "mypy saltmarsh",
		"saltmarsh/billing/services.py:41: error: Incompatible return value type (got \"str | None\", expected \"str\")  [return-value]\nsaltmarsh/billing/services.py:58: error: Item \"None\" of \"Invoice | None\" has no attribute \"total\"  [union-attr]\nFound 2 errors in 1 file (checked 212 source files)\n",
		"", "tune3: same tool, another error")

	h.note(Note{ID: "redis-misconf", Project: "saltmarsh", Scope: "global", OS: "linux", Lang: "python", At: day(2023, 7, 18),
		Title:   "Redis MISCONF",
		What:    "Celery tasks and the cache both started failing with the MISCONF error (redis can't persist RDB snapshots).",
		Why:     "Not a Redis problem: the docker VM's disk was at 100%, so BGSAVE failed and Redis refuses writes after a failed save.",
		Learned: "Free disk first. Don't just flip stop-writes-on-bgsave-error off, it hides the real problem.",
		Fix:     "docker system prune -af --volumes"})
	h.ask("redis-misconf/1", "saltmarsh", "linux", "celery -A saltmarsh worker -l info",
		"[2024-11-20 09:41:07,884: ERROR/MainProcess] Task handler raised error: ResponseError('MISCONF Redis is configured to save RDB snapshots, but it\\'s currently unable to persist to disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error.')\nTraceback (most recent call last):\n  File \"/home/ci/build/saltmarsh/.venv/lib/python3.11/site-packages/celery/app/trace.py\", line 453, in trace_task\n  File \"/home/ci/build/saltmarsh/.venv/lib/python3.11/site-packages/redis/connection.py\", line 535, in read_response\n    raise response\nredis.exceptions.ResponseError: MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk.\n",
		"redis-misconf", "tune3: stored")
	h.ask("redis-misconf/node", "quill", "darwin", "pnpm --filter api dev",
		"[api] 14:02:55 ERROR session store: ReplyError: MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error.\n[api]     at parseError (/Users/kim/code/quill/node_modules/.pnpm/redis-parser@3.0.0/node_modules/redis-parser/lib/parser.js:179:12)\n",
		"redis-misconf", "tune3: global note, another project and language")

	h.note(Note{ID: "pytest-scope", Project: "saltmarsh", OS: "linux", Lang: "python", At: day(2025, 4, 7),
		Title:   "session fixture can't use monkeypatch",
		What:    "Wanted the fake S3 env vars once per session; pytest refused with a ScopeMismatch about the function scoped monkeypatch fixture.",
		Why:     "monkeypatch is function-scoped, so a session fixture can't request it.",
		Where:   "tests/conftest.py::aws_env",
		Learned: "In wider-scoped fixtures use `with pytest.MonkeyPatch.context() as mp:` and yield inside it."})
	h.ask("pytest-scope/1", "saltmarsh", "linux", "pytest -q tests/storage",
		"==================================== ERRORS ====================================\n__________________ ERROR at setup of test_upload_roundtrip ___________________\nScopeMismatch: You tried to access the function scoped fixture monkeypatch with a session scoped request object, involved factories:\ntests/conftest.py:14:  def aws_env(monkeypatch)\n.venv/lib/python3.11/site-packages/_pytest/monkeypatch.py:30:  def monkeypatch() -> Generator[MonkeyPatch, None, None]\n=========================== short test summary info ============================\nERROR tests/storage/test_s3.py::test_upload_roundtrip - Failed: ScopeMismatch: You tried to access the function scoped fixture monkeypatch with a session scoped request object, involved factories:\n1 error in 0.41s\n",
		"pytest-scope", "tune3: stored")
	h.ask("pytest-scope-tmp", "saltmarsh", "linux", "pytest -q tests/exports",
		"__________________ ERROR at setup of test_csv_export ___________________\nScopeMismatch: You tried to access the function scoped fixture tmp_path with a module scoped request object, involved factories:\ntests/exports/conftest.py:9:  def export_dir(tmp_path)\n1 error in 0.33s\n",
		"", "tune3: same message, another object")

	h.note(Note{ID: "saltmarsh-squash", Project: "saltmarsh", OS: "linux", Lang: "python", At: day(2024, 1, 22), Type: "decision", NoFailure: true,
		Title:   "Migrations are squashed at every minor release",
		What:    "At each 1.x.0 release the release manager runs squashmigrations per app; the replaced files are deleted one release later.",
		Why:     "Test database setup was spending 40 s replaying ~300 migrations.",
		Where:   "RELEASING.md",
		Learned: "Never edit a squashed migration by hand; add a new one."})
	h.ask("saltmarsh-nodes", "saltmarsh", "linux", "python manage.py migrate",
		"django.db.migrations.exceptions.NodeNotFoundError: Migration billing.0016_invoice_notes dependencies reference nonexistent parent node ('billing', '0012_auto_20240110_0931')\n",
		"", "tune3: a note that describes no failure")
	h.ask("saltmarsh-pyproject", "saltmarsh", "linux", "poetry check",
		"Error: pyproject.toml is not a valid TOML file.\nTOML parse error at line 31, column 1\n   |\n31 | [tool.poetry.group.dev.dependencies\n   | ^\ninvalid table header\nexpected `.`, `]`\n",
		"", "tune3: generic names only (pyproject.toml)")
}

func tune3BuildInfra(h *hand) {
	h.note(Note{ID: "bazel-nobzlmod", Project: "cinder", OS: "linux", Lang: "cpp", At: day(2024, 3, 5),
		Title:   "bazel 7: @com_google_protobuf not visible",
		What:    "After the bazelisk bump to Bazel 7 the build fails with No repository visible as '@com_google_protobuf' from main repository.",
		Why:     "Bazel 7 turns bzlmod on by default and our deps are still declared in WORKSPACE.",
		Where:   ".bazelrc",
		Learned: "Turn bzlmod off until we migrate.",
		Fix:     "echo 'common --noenable_bzlmod' >> .bazelrc"})
	h.note(Note{ID: "bazel-module", Project: "cinder", OS: "linux", Lang: "cpp", At: day(2025, 3, 18), ProseOver: "bazel-nobzlmod",
		Title: "protobuf repo not visible again (Bazel 8)",
		What:  "bazel build //... → no such package '@@[unknown repo 'com_google_protobuf' requested from @@]//': No repository visible as '@com_google_protobuf' from main repository.",
		Why: "We upgraded .bazelversion to 8.1 and the `--noenable_bzlmod` line in .bazelrc stopped working: Bazel 8 also disables WORKSPACE by default, so with bzlmod off nothing is defined at all. " +
			"Time to do the migration for real.",
		Where:   "MODULE.bazel, BUILD files",
		Learned: "bazel_dep(name = \"protobuf\", version = \"29.3\") in MODULE.bazel and rename @com_google_protobuf to @protobuf in BUILD files; remove the .bazelrc line.",
		Fix:     "sed -i '/noenable_bzlmod/d' .bazelrc && echo 'bazel_dep(name = \"protobuf\", version = \"29.3\")' >> MODULE.bazel"})
	h.ask("bazel-bzlmod/1", "cinder", "linux", "bazel build //...",
		"\x1b[32mINFO: \x1b[0mInvocation ID: 5d4f1c0e-93a2-4b7e-8f1a-0c6e2b9d7a31\n\x1b[31m\x1b[1mERROR: \x1b[0m/home/ci/build/cinder/proto/BUILD.bazel:12:14: no such package '@@[unknown repo 'com_google_protobuf' requested from @@]//': The repository '@@[unknown repo 'com_google_protobuf' requested from @@]' could not be resolved: No repository visible as '@com_google_protobuf' from main repository and referenced by '//proto:cinder_proto'\n\x1b[31m\x1b[1mERROR: \x1b[0mAnalysis of target '//proto:cinder_proto' failed; build aborted: Analysis failed\n\x1b[32mINFO: \x1b[0mElapsed time: 2.318s, Critical Path: 0.02s\n\x1b[32mINFO: \x1b[0m1 process: 1 internal.\n\x1b[31m\x1b[1mERROR: \x1b[0mBuild did NOT complete successfully\n",
		"bazel-module", "tune3: superseded in prose, ANSI colours", "bazel-nobzlmod")
	h.ask("bazel-rules-go", "cinder", "linux", "bazel build //tools/...",
		"ERROR: /home/ci/build/cinder/tools/gen/BUILD.bazel:1:6: error loading package 'tools/gen': Unable to find package for @@[unknown repo 'io_bazel_rules_go' requested from @@]//go:def.bzl: The repository '@@[unknown repo 'io_bazel_rules_go' requested from @@]' could not be resolved: No repository visible as '@io_bazel_rules_go' from main repository.\nERROR: Build did NOT complete successfully\n",
		"", "tune3: same message, another object")

	h.note(Note{ID: "nix-features", Project: "cinder", Scope: "global", OS: "darwin", Lang: "nix", At: day(2024, 7, 9),
		Title:   "nix develop refuses to run",
		What:    "error: experimental Nix feature 'nix-command' is disabled; add '--extra-experimental-features nix-command' to enable it",
		Why:     "The official installer (not Determinate's) leaves flakes and the new CLI off.",
		Learned: "Enable both in the user config once; 'flakes' gives the same error otherwise.",
		Fix:     "mkdir -p ~/.config/nix && echo 'experimental-features = nix-command flakes' >> ~/.config/nix/nix.conf"})
	h.ask("nix-features/flakes", "cinder", "linux", "nix develop .#ci",
		"error: experimental Nix feature 'flakes' is disabled; add '--extra-experimental-features flakes' to enable it\n",
		"nix-features", "tune3: stored, the note's other feature, short tail")
	h.ask("nix-features/marlin", "marlin", "darwin", "nix run nixpkgs#protobuf -- --version",
		"error: experimental Nix feature 'nix-command' is disabled; add '--extra-experimental-features nix-command' to enable it\n",
		"nix-features", "tune3: global note, another project")
	h.ask("nix-hash", "cinder", "linux", "nix build .#cinder",
		"error: hash mismatch in fixed-output derivation '/nix/store/8r1f0q3k2c9w7m4x5z6y1b0a2d3e4f5g-source.drv':\n         specified: sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n            got:    sha256-q0rT1Yk4uZ9f1Wb6Z3o0x3sQqB4mJm9gKc7P2vA1e8E=\nerror: 1 dependencies of derivation '/nix/store/1k2j3h4g5f6d7s8a9p0o1i2u3y4t5r6e-cinder-0.8.0.drv' failed to build\n",
		"", "tune3: same tool, another error")

	h.note(Note{ID: "sc2086", Project: "cinder", OS: "linux", Lang: "bash", At: day(2022, 10, 4),
		Title: "shellcheck", What: "pre-commit shellcheck: SC2086 in scripts/release.sh.", Why: "unquoted vars",
		Learned: "quote \"$VERSION\" and \"${FILES[@]}\"; don't disable SC2086 globally"})
	h.ask("sc2086/1", "cinder", "linux", "pre-commit run shellcheck --all-files",
		"shellcheck...............................................................Failed\n- hook id: shellcheck\n- exit code: 1\n\nIn scripts/release.sh line 23:\ntar -czf cinder-$VERSION.tar.gz $FILES\n                ^------^ SC2086 (info): Double quote to prevent globbing and word splitting.\n                                ^----^ SC2086 (info): Double quote to prevent globbing and word splitting.\n\nDid you mean: \ntar -czf cinder-\"$VERSION\".tar.gz \"$FILES\"\n\nFor more information:\n  https://www.shellcheck.net/wiki/SC2086 -- Double quote to prevent globbing ...\n",
		"sc2086", "tune3: stored, a terse note")
	h.ask("sc2155", "cinder", "linux", "shellcheck scripts/*.sh",
		"\nIn scripts/ci-env.sh line 8:\nexport GIT_SHA=$(git rev-parse --short HEAD)\n       ^-----^ SC2155 (warning): Declare and assign separately to avoid masking return values.\n\nFor more information:\n  https://www.shellcheck.net/wiki/SC2155 -- Declare and assign separately to ...\n",
		"", "tune3: same tool, another error")

	h.note(Note{ID: "make-submodule", Project: "cinder", OS: "linux", Lang: "cpp", At: day(2023, 5, 16),
		Title:   "fresh clone won't build",
		What:    "make: *** No rule to make target 'third_party/abseil-cpp/CMakeLists.txt', needed by 'build/Makefile'.  Stop.",
		Why:     "third_party/ are git submodules and a plain git clone leaves them empty.",
		Learned: "Clone with --recurse-submodules, or init them after.",
		Fix:     "git submodule update --init --recursive"})
	h.ask("make-submodule/1", "cinder", "linux", "make -j4",
		"mkdir -p build\nmake: *** No rule to make target 'third_party/googletest/CMakeLists.txt', needed by 'build/Makefile'.  Stop.\n",
		"make-submodule", "tune3: stored, another submodule")
	h.ask("make-install", "cinder", "linux", "make install",
		"make: *** No rule to make target 'install'.  Stop.\n",
		"", "tune3: generic names only (make target)")

	h.note(Note{ID: "gha-token-perms", Project: "cinder", OS: "linux", Lang: "yaml", At: day(2024, 12, 9),
		Title:   "benchmark bot can't comment on PRs",
		What:    "The bench workflow's github-script step fails with HttpError: Resource not accessible by integration (403) when it posts the results comment.",
		Why:     "The org switched the default GITHUB_TOKEN to read-only; the workflow never asked for write.",
		Where:   ".github/workflows/bench.yml",
		Learned: "Add permissions: pull-requests: write (and contents: read) at the job level. For fork PRs it still won't work; those need pull_request_target or a separate workflow_run job."})
	h.ask("gha-token-perms/1", "cinder", "linux", "gh run view 8123456789 --log-failed",
		"bench\tPost results\t2024-12-10T11:02:14.5512234Z ##[group]Run actions/github-script@v7\nbench\tPost results\t2024-12-10T11:02:14.5514010Z ##[endgroup]\nbench\tPost results\t2024-12-10T11:02:15.2217791Z RequestError [HttpError]: Resource not accessible by integration\nbench\tPost results\t2024-12-10T11:02:15.2219430Z     at /home/runner/work/_actions/actions/github-script/v7/dist/index.js:9537:21\nbench\tPost results\t2024-12-10T11:02:15.2230119Z {\nbench\tPost results\t2024-12-10T11:02:15.2230402Z   status: 403,\nbench\tPost results\t2024-12-10T11:02:15.2236677Z   request: {\nbench\tPost results\t2024-12-10T11:02:15.2237010Z     method: 'POST',\nbench\tPost results\t2024-12-10T11:02:15.2237339Z     url: 'https://api.github.com/repos/cinder-build/cinder/issues/412/comments',\nbench\tPost results\t2024-12-10T11:02:15.2241173Z   response: { data: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment', status: '403' } }\nbench\tPost results\t2024-12-10T11:02:15.2290018Z ##[error]Unhandled error: HttpError: Resource not accessible by integration\n",
		"gha-token-perms", "tune3: stored, CI log with timestamps")
	h.ask("gha-token-perms/marlin", "marlin", "linux", "gh pr comment 77 --body-file bench.md",
		"GraphQL: Resource not accessible by integration (addComment)\n",
		"", "tune3: another project's project note")
	h.ask("gha-push-creds", "cinder", "linux", "git push origin HEAD:gh-pages",
		"fatal: could not read Username for 'https://github.com': terminal prompts disabled\nError: Process completed with exit code 128.\n",
		"", "tune3: same text, another cause")

	h.note(Note{ID: "ssh-agent-mac", Project: "cinder", OS: "darwin", Lang: "git", At: day(2024, 4, 22),
		Title:   "git fetch: Permission denied (publickey) after every reboot",
		What:    "git@github.com: Permission denied (publickey). fatal: Could not read from remote repository. — works again after ssh-add, until the next reboot.",
		Why:     "macOS's ssh-agent starts empty; the key has a passphrase and nothing re-adds it.",
		Learned: "Store the passphrase in the keychain and add `AddKeysToAgent yes` + `UseKeychain yes` to ~/.ssh/config under Host github.com.",
		Fix:     "ssh-add --apple-use-keychain ~/.ssh/id_ed25519"})
	h.note(Note{ID: "ssh-agent-win", Project: "cinder", OS: "windows", Lang: "git", At: day(2024, 6, 3),
		Title:   "publickey denied from Git for Windows although ssh-add -l lists the key",
		What:    "Permission denied (publickey) on git pull, while `ssh -T git@github.com` in PowerShell works.",
		Why:     "Git for Windows uses its bundled /usr/bin/ssh, which doesn't talk to the Windows OpenSSH agent service where the key is loaded.",
		Learned: "Point git at the Windows OpenSSH client.",
		Fix:     "git config --global core.sshCommand C:/Windows/System32/OpenSSH/ssh.exe"})
	pubkey := "git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n"
	h.ask("ssh-agent/mac", "cinder", "darwin", "git fetch origin", pubkey, "ssh-agent-mac", "tune3: twin on another system")
	h.ask("ssh-agent/win", "cinder", "windows", "git pull --rebase", crlf(pubkey), "ssh-agent-win", "tune3: twin on another system, CRLF")

	h.note(Note{ID: "ecr-wincred", Project: "cinder", OS: "windows", Lang: "powershell", At: day(2024, 2, 14),
		Title: "docker login to ECR fails on Windows",
		What: "Piping aws ecr get-login-password into docker login fails with an error storing credentials; " +
			"the message ends in `The stub received bad data.`",
		Why:     "The ECR token is longer than the Windows Credential Manager accepts through docker-credential-wincred.",
		Where:   "%USERPROFILE%\\.docker\\config.json",
		Learned: "Remove \"credsStore\": \"wincred\" (or use desktop) from the docker config; the token then goes into config.json, which is fine for a 12 h token."})
	h.ask("ecr-wincred/1", "cinder", "windows", "aws ecr get-login-password --region eu-west-1 | docker login --username AWS --password-stdin 123456789012.dkr.ecr.eu-west-1.amazonaws.com",
		crlf("Error saving credentials: error storing credentials - err: exit status 1, out: `The stub received bad data.`\n"),
		"ecr-wincred", "tune3: stored, paraphrased note, CRLF")
}

// tune3NeverStored are failures of these ecosystems no note is about.
func tune3NeverStored(h *hand) {
	h.ask("go-unknown-rev", "marlin", "linux", "go get github.com/marlin-io/ratelimit@v0.3.0",
		"go: github.com/marlin-io/ratelimit@v0.3.0: invalid version: unknown revision v0.3.0\n", "", "tune3: never stored")
	h.ask("django-no-table", "saltmarsh", "linux", "pytest -q tests/billing",
		"E   django.db.utils.OperationalError: no such table: billing_invoice\n\n=========================== short test summary info ============================\nERROR tests/billing/test_invoice.py::test_total - django.db.utils.OperationalError: no such table: billing_invoice\n1 error in 1.02s\n", "", "tune3: never stored")
	h.ask("ssh-hostkey-win", "cinder", "windows", "git fetch origin",
		crlf("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\nIT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!\nThe fingerprint for the ED25519 key sent by the remote host is\nSHA256:+DiY3wvvV6TuJJhbpZisF/zLDA0zPMSvHdkr4UvCOqU.\nOffending ECDSA key in /c/Users/dev/.ssh/known_hosts:3\nHost key verification failed.\nfatal: Could not read from remote repository.\n"), "", "tune3: never stored")
}

// tune3Again are the stored failures of this part met again later,
// printed by another tool or version, cut, or on another machine.
func tune3Again(h *hand) {
	h.ask("vet-copylocks/range", "marlin", "darwin", "go vet ./internal/...",
		"# marlin/internal/limit\ninternal/limit/registry.go:30:9: range var b copies lock: marlin/internal/limit.Bucket contains sync.Mutex\ninternal/limit/registry.go:44:12: assignment copies lock value to cur: marlin/internal/limit.Bucket contains sync.Mutex\n",
		"vet-copylocks", "tune3: stored, another vet wording")
	h.ask("sa1019-grpc/golangci", "marlin", "linux", "golangci-lint run ./...",
		"internal/health/probe.go:22:41: SA1019: grpc.WithInsecure is deprecated: use WithTransportCredentials and insecure.NewCredentials() instead. Will be supported throughout 1.x. (staticcheck)\n\tconn, err := grpc.DialContext(ctx, addr, grpc.WithInsecure(), grpc.WithBlock())\n\t                                       ^\n",
		"sa1019-grpc", "tune3: stored, another tool")
	h.ask("go-vendor/cut", "marlin", "linux", "go build -o bin/marlind ./cmd/marlind",
		"v1.20.2: is explicitly required in go.mod, but vendor/modules.txt indicates github.com/prometheus/client_golang@v1.19.1\n\tgoogle.golang.org/grpc@v1.66.0: is explicitly required in go.mod, but not marked as explicit in vendor/modules.txt\n\n\tTo ignore the vendor directory, use -mod=readonly or -mod=mod.\n\tTo sync the vendor directory, run:\n\t\tgo mod vendor\n",
		"go-vendor", "tune3: stored, cut at the start")
	h.ask("grpc-corp-ca/grpcurl", "marlin", "linux", "grpcurl limits.staging.corp:443 list",
		"Failed to dial target host \"limits.staging.corp:443\": tls: failed to verify certificate: x509: certificate signed by unknown authority\n",
		"grpc-corp-ca", "tune3: stored, another tool, short tail")
	h.ask("pnpm-workspace-range/win", "quill", "windows", "pnpm install",
		crlf("Scope: all 9 workspace projects\n ERR_PNPM_NO_MATCHING_VERSION_INSIDE_WORKSPACE  In packages\\docs: No matching version found for @quill/tokens@^2.1.0 inside the workspace\n\nThis error happened while installing a direct dependency of C:\\Users\\dev\\src\\quill\\packages\\docs\n"),
		"pnpm-workspace-range", "tune3: stored, Windows paths and CRLF")
	h.ask("webpack-crypto/cut", "quill", "linux", "pnpm --filter admin build",
		"ules/jsonwebtoken'\n\nBREAKING CHANGE: webpack < 5 used to include polyfills for node.js core modules by default.\nThis is no longer the case. Verify if you need this module and configure a polyfill for it.\n... 38 lines omitted ...\nwebpack 5.90.3 compiled with 3 errors in 20117 ms\n",
		"webpack-crypto", "tune3: stored, cut at the start and elided")
	h.ask("vitest-jsdom/ci", "quill", "linux", "pnpm -r test",
		"packages/ui test:  FAIL  src/Dialog/Dialog.test.tsx > Dialog > traps focus\npackages/ui test: ReferenceError: document is not defined\npackages/ui test:  ❯ getDocument ../../node_modules/.pnpm/@testing-library+dom@9.3.4/node_modules/@testing-library/dom/dist/helpers.js:45:11\npackages/ui test:  Test Files  9 failed (9)\npackages/ui test: Failed\n/home/ci/build/quill/packages/ui:\n ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @quill/ui@2.3.0 test: `vitest run`\nExit status 1\n",
		"vitest-jsdom", "tune3: stored, recursive run prefixes")
	h.ask("vi-hoisted/import", "quill", "linux", "pnpm vitest run",
		" FAIL  src/analytics/usePageView.test.ts [ src/analytics/usePageView.test.ts ]\nError: [vitest] There was an error when mocking a module. If you are using \"vi.mock\" factory, make sure there are no top level variables inside, since this call is hoisted to top of the file. Read more: https://vitest.dev/api/vi.html#vi-mock\nCaused by: ReferenceError: Cannot access '__vi_import_0__' before initialization\n",
		"vi-hoisted", "tune3: stored, the note's other wording")
	h.ask("django-merge/check", "saltmarsh", "linux", "python manage.py makemigrations --check --dry-run",
		"CommandError: Conflicting migrations detected; multiple leaf nodes in the migration graph: (0014_invoice_currency, 0014_invoice_due_date in billing).\nTo fix them run 'python manage.py makemigrations --merge'\n",
		"django-merge", "tune3: stored")
	h.ask("django-stubs/precommit", "saltmarsh", "linux", "pre-commit run mypy --all-files",
		"mypy.....................................................................Failed\n- hook id: mypy\n- exit code: 2\n\nError constructing plugin instance of NewSemanalDjangoPlugin\n\nTraceback (most recent call last):\n... 17 lines omitted ...\ndjango.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured. You must either define the environment variable DJANGO_SETTINGS_MODULE or call settings.configure() before accessing settings.\n",
		"django-stubs-settings", "tune3: stored, another runner, elided")
	h.ask("make-submodule/cmake", "cinder", "linux", "cmake -S . -B build",
		"-- The CXX compiler identification is GNU 12.2.0\nCMake Error at CMakeLists.txt:41 (add_subdirectory):\n  The source directory\n\n    /home/ci/build/cinder/third_party/abseil-cpp\n\n  does not contain a CMakeLists.txt file.\n\n\n-- Configuring incomplete, errors occurred!\n",
		"make-submodule", "tune3: same cause, another message")
	h.ask("sc2086/direct", "cinder", "darwin", "shellcheck scripts/bump.sh",
		"\nIn scripts/bump.sh line 11:\nsed -i '' \"s/^version = .*/version = $NEW/\" $MANIFEST\n                                            ^-------^ SC2086 (info): Double quote to prevent globbing and word splitting.\n\nDid you mean:\nsed -i '' \"s/^version = .*/version = $NEW/\" \"$MANIFEST\"\n\nFor more information:\n  https://www.shellcheck.net/wiki/SC2086 -- Double quote to prevent globbing ...\n",
		"sc2086", "tune3: stored, another script")
	h.ask("gha-token-perms/raw", "cinder", "linux", "gh run view --log-failed --job 22219870000",
		"2025-01-08T16:40:02.1180033Z Error: Unhandled error: HttpError: Resource not accessible by integration\n2025-01-08T16:40:02.1350011Z ##[error]Process completed with exit code 1.\n",
		"gha-token-perms", "tune3: stored, short CI tail")
}
