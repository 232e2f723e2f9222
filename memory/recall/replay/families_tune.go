package replay

// tuneFamilies are the failures the engine was tuned on.
func tuneFamilies() []*family {
	return []*family{
		{
			id: "py-nomodule", split: Tune, lang: "python", tool: "Bash", cmd: "pytest -q",
			tail: `==================================== ERRORS ====================================
_______________________ ERROR collecting tests/test_{obj}.py _______________________
ImportError while importing test module '{root}/tests/test_{obj}.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
/usr/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_{obj}.py:3: in <module>
    import {obj}
E   ModuleNotFoundError: No module named '{obj}'
=========================== short test summary info ============================
ERROR tests/test_{obj}.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!`,
			quote: "ModuleNotFoundError: No module named '{obj}'",
			title: "pytest collection fails: No module named {obj}",
			more:  []string{"numpy", "pandas", "boto3", "jwt", "redis", "celery", "attr", "google.protobuf", "sklearn", "cv2", "magic"},
			causes: []cause{
				{"{obj} was pinned in the poetry group 'ml' which `poetry install` skips without --with ml.", "poetry install --with ml", "Optional poetry groups are not installed by default."},
				{"the Dockerfile copied requirements.txt before the line adding {obj} was merged, so the cached layer lacked it.", "docker build --no-cache -t app .", "Bust the pip layer when requirements change."},
				{"tox created its env before {obj} was added to deps, and tox does not recreate envs on its own.", "tox -r", "Recreate tox envs after changing deps."},
			},
			objs: []*object{
				{name: "yaml", cause: "PyYAML was only in requirements-dev.txt, and the CI image installs requirements.txt only.", fix: "pip install -r requirements-dev.txt", learned: "Test-only deps go in the dev requirements and CI must install them.", stored: true, project: "billing"},
				{name: "requests", cause: "the venv was made with python3.12 but pytest resolved to the system python3.11 on PATH.", fix: "python -m pytest -q", learned: "Run pytest through the venv's interpreter.", stored: true, project: "scraper", year: 2023, elsewhere: "billing"},
				{name: "dateutil", cause: "the import name is dateutil but the package is python-dateutil.", fix: "pip install python-dateutil", learned: "PyPI names and import names differ.", stored: true, project: "reports", global: true, elsewhere: "scraper"},
				{name: "toml"}, {name: "psycopg2"},
			},
		},
		{
			id: "npm-eresolve", split: Tune, lang: "javascript", tool: "Bash", cmd: "npm install",
			tail: `npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR!
npm ERR! While resolving: web@0.1.0
npm ERR! Found: react@18.2.0
npm ERR! node_modules/react
npm ERR!   react@"^18.2.0" from the root project
npm ERR!
npm ERR! Could not resolve dependency:
npm ERR! peer react@"^17.0.0" from {obj}@4.1.2
npm ERR! Fix the upstream dependency conflict, or retry
npm ERR! this command with --force or --legacy-peer-deps`,
			quote: "npm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! peer react@\"^17.0.0\" from {obj}@4.1.2",
			title: "npm install ERESOLVE: {obj} wants react 17",
			more:  []string{"react-select", "@testing-library/react-hooks", "react-draggable", "react-quill", "mobx-react", "react-tooltip", "styled-components", "react-modal", "recharts", "formik"},
			causes: []cause{
				{"{obj} declares a react 17 peer range; the release with 18 support is a major ahead.", "npm install {obj}@latest", "Check for a newer major before forcing peers."},
				{"{obj} is only used in storybook; the peer conflict came from an old storybook preset.", "npm install --save-dev @storybook/react@latest", "Upgrade the preset that drags the old peer in."},
				{"{obj} was a transitive pin from our design-system package, which we bumped to the React 18 build.", "npm install @acme/design-system@^5", "Bump the package that pins the peer."},
			},
			objs: []*object{
				{name: "react-beautiful-dnd", cause: "react-beautiful-dnd is unmaintained and never declared React 18 support.", fix: "npm install @hello-pangea/dnd && npm uninstall react-beautiful-dnd", learned: "Swap to the maintained fork instead of forcing peers.", stored: true, project: "dashboard", os: "darwin",
					next: &object{name: "react-beautiful-dnd", cause: "the old advice of --legacy-peer-deps no longer works since npm 9 also fails at runtime; the fork is the fix.", fix: "npm install @hello-pangea/dnd", learned: "Use the @hello-pangea/dnd fork instead of forcing peer deps.", stored: true, year: 2025}},
				{name: "react-helmet", cause: "react-helmet pins React 16/17 peers; react-helmet-async is the drop-in.", fix: "npm install react-helmet-async", learned: "Use react-helmet-async with React 18.", stored: true, project: "dashboard", os: "darwin"},
				{name: "enzyme-adapter-react-16"},
			},
		},
		{
			id: "port-inuse", split: Tune, lang: "javascript", tool: "Bash", cmd: "npm run dev",
			tail: `> web@0.1.0 dev
> node server.js

{ctx}
node:events:497
      throw er; // Unhandled 'error' event
      ^

Error: listen EADDRINUSE: address already in use :::{obj}
    at Server.setupListenHandle [as _listen2] (node:net:1872:16)
    at listenInCluster (node:net:1920:12)
    at Server.listen (node:net:2008:7)
Emitted 'error' event on Server instance at:
    at emitErrorNT (node:net:1899:8) {
  code: 'EADDRINUSE',
  errno: -98,
  syscall: 'listen',
  port: {obj}
}`,
			quote: "Error: listen EADDRINUSE: address already in use :::{obj}",
			title: "dev server EADDRINUSE on port {obj}",
			more:  []string{"4000", "8000", "5000", "3001", "9229", "6006", "4200", "8787", "1234", "24678"},
			causes: []cause{
				{"a previous run of the dev server on {obj} was left as a zombie after the terminal crashed.", "npx kill-port {obj}", "Kill the stray process on the port."},
				{"another service in docker compose already publishes {obj}.", "docker compose ps", "Check compose ports before starting a local server."},
				{"a forgotten `python -m http.server {obj}` from a debugging session held the port.", "", "Turn off AirPlay Receiver or pick another port."},
			},
			objs: []*object{
				{name: "3000", cause: "a `next dev` from another terminal tab was still holding the port (the log shows the watcher restarting).", fix: "npx kill-port 3000", learned: "Check for a stray dev server before blaming the code.", stored: true, project: "storefront", context: "[watch] restarting after change in src/pages/index.tsx"},
				{name: "3000", cause: "the docker compose `web` service publishes 3000 too; docker-proxy owns the port.", fix: "docker compose stop web", learned: "docker-proxy on the port means a container publishes it.", stored: true, project: "storefront", context: "docker-proxy   4012 root    4u  IPv4  tcp *:3000 (LISTEN)"},
				{name: "5173", cause: "vite picked 5173 and a previous vite was left running after a crash.", fix: "pkill -f vite", learned: "vite dev servers survive terminal crashes.", stored: true, project: "admin-ui", os: "darwin"},
				{name: "8080"},
			},
		},
		{
			id: "go-checksum", split: Tune, lang: "go", tool: "Bash", cmd: "go build ./...",
			tail: `go: downloading {obj} v1.4.2
verifying {obj}@v1.4.2: checksum mismatch
	downloaded: h1:Zx8F9W6oT2aD3Vb7yq1mQ3o5vJ8Kc2W1rT6nXp0sLkE=
	go.sum:     h1:8R1qF3kX7mB2nV9cZ4tY6uW0pA5sD1fG2hJ3kL4mN5o=

SECURITY ERROR
This download does NOT match an earlier download recorded in go.sum.
The bits may have been replaced on the origin server, or an attacker may
have intercepted the download attempt.

For more information, see 'go help module-auth'.`,
			quote: "verifying {obj}@v1.4.2: checksum mismatch",
			title: "go build: checksum mismatch for {obj}",
			more:  []string{"github.com/gin-gonic/gin", "golang.org/x/net", "github.com/spf13/cobra", "go.uber.org/zap", "github.com/jackc/pgx/v5", "github.com/stretchr/testify", "google.golang.org/grpc", "github.com/acme/ratelimit", "github.com/redis/go-redis/v9", "k8s.io/client-go"},
			causes: []cause{
				{"a stale GOFLAGS=-mod=mod in the CI env pulled a proxy copy of {obj} that differs from go.sum.", "go mod download && go mod verify", "Unset GOFLAGS in CI and verify the module cache."},
				{"the corporate GOPROXY served a rebuilt zip of {obj}.", "GOPROXY=https://proxy.golang.org,direct go mod download", "Use the public proxy for public modules."},
				{"go.sum was hand-merged badly in a conflict around {obj}.", "go mod tidy", "Never hand-merge go.sum; tidy after the merge."},
			},
			objs: []*object{
				{name: "github.com/acme/flagkit", cause: "the maintainer force-pushed the v1.4.2 tag; our go.sum had the old hash.", fix: "go clean -modcache && go get github.com/acme/flagkit@v1.4.3", learned: "A retagged release never comes back; move to the next tag.", stored: true, project: "gateway", year: 2023},
				{name: "gitlab.internal/platform/authz", cause: "GONOSUMDB was unset, so the public sumdb was consulted for a private module.", fix: "go env -w GONOSUMDB=gitlab.internal GOPRIVATE=gitlab.internal", learned: "Private modules need GOPRIVATE.", stored: true, project: "gateway", global: true},
				{name: "github.com/sirupsen/logrus"},
			},
		},
		{
			id: "rust-unresolved", split: Tune, lang: "rust", tool: "Bash", cmd: "cargo build",
			tail: `   Compiling proto v0.3.0 ({root}/crates/proto)
error[E0432]: unresolved import ` + "`{obj}`" + `
 --> crates/proto/src/lib.rs:4:5
  |
4 | use {obj}::Message;
  |     ^^^^^ use of undeclared crate or module ` + "`{obj}`" + `

For more information about this error, try ` + "`rustc --explain E0432`" + `.
error: could not compile ` + "`proto`" + ` (lib) due to 1 previous error`,
			quote: "error[E0432]: unresolved import `{obj}`",
			title: "cargo build E0432 unresolved import {obj}",
			more:  []string{"clap", "reqwest", "chrono", "rand", "thiserror", "tracing", "uuid", "regex", "bytes", "futures"},
			causes: []cause{
				{"{obj} is a workspace dependency but this crate's Cargo.toml lacked `{obj}.workspace = true`.", "cargo add {obj} -p core", "List workspace deps per crate."},
				{"{obj} was behind a feature flag of our crate that the test build did not enable.", "cargo build --all-features", "Build with the feature that pulls {obj} in."},
				{"the import path changed when {obj} moved a module in its latest major.", "cargo update -p {obj} --precise 0.9.0", "Pin the major until the import is migrated."},
			},
			objs: []*object{
				{name: "prost", cause: "prost was a dependency of the workspace root only, not of crates/proto.", fix: "cargo add prost -p proto", learned: "Workspace deps must be listed per crate (or via workspace = true).", stored: true, project: "telemetry", os: "darwin"},
				{name: "tokio", cause: "tokio was behind an optional `rt` feature that the crate did not enable.", fix: "cargo add tokio -p proto --features rt-multi-thread,macros", learned: "Check features when a crate is listed but unresolved.", stored: true, project: "telemetry"},
				{name: "serde_json"}, {name: "anyhow"},
			},
		},
		{
			id: "docker-manifest", split: Tune, lang: "docker", tool: "Bash", cmd: "docker build -t api .",
			tail: `[+] Building 1.2s (3/3) FINISHED
 => [internal] load build definition from Dockerfile
 => => transferring dockerfile: 412B
 => ERROR [internal] load metadata for docker.io/library/{obj}
------
 > [internal] load metadata for docker.io/library/{obj}:
------
Dockerfile:1
--------------------
   1 | >>> FROM {obj}
--------------------
ERROR: failed to solve: {obj}: no match for platform in manifest: not found`,
			quote: "ERROR: failed to solve: {obj}: no match for platform in manifest: not found",
			title: "docker build: no match for platform in manifest ({obj})",
			more:  []string{"python:2.7-slim", "mongo:4.4", "mysql:5.7", "redis:5-alpine", "elasticsearch:6.8.23", "centos:7", "openjdk:8-jdk-alpine", "postgres:9.6", "ubuntu:16.04", "golang:1.12-alpine"},
			causes: []cause{
				{"{obj} has no arm64 variant and the build ran on an arm64 runner.", "docker build --platform linux/amd64 .", "Pass --platform linux/amd64 for old images on arm64."},
				{"the buildx builder defaulted to linux/arm64 on the Graviton runner and {obj} is amd64 only.", "docker buildx build --platform linux/amd64 .", "Set the platform on arm runners."},
				{"{obj} was removed from Docker Hub's multi-arch index after end of life.", "", "Move to a supported tag."},
			},
			objs: []*object{
				{name: "node:14-alpine", cause: "node:14-alpine has no linux/arm64 image and the build ran on an M2 Mac.", fix: "docker build --platform linux/amd64 -t api .", learned: "On Apple silicon old images need --platform linux/amd64.", stored: true, project: "api", os: "darwin",
					twin: &object{name: "node:14-alpine", cause: "on the Windows runner Docker was switched to Windows containers, so it looked for a windows/amd64 manifest.", fix: "& $Env:ProgramFiles\\Docker\\Docker\\DockerCli.exe -SwitchLinuxEngine", learned: "On Windows, switch Docker Desktop back to Linux containers.", os: "windows"}},
				{name: "mcr.microsoft.com/dotnet/framework/sdk:4.8"},
			},
		},
		{
			id: "tsc-2307", split: Tune, lang: "typescript", tool: "Bash", cmd: "npx tsc --noEmit",
			tail: `src/api/client.ts:2:23 - error TS2307: Cannot find module '{obj}' or its corresponding type declarations.

2 import { z } from '{obj}';
                        ~~~~~~~~~~~~

Found 1 error in src/api/client.ts:2`,
			quote: "error TS2307: Cannot find module '{obj}' or its corresponding type declarations.",
			title: "tsc TS2307 cannot find module {obj}",
			more:  []string{"@/components/Button", "date-fns/locale", "react-dom/client", "@aws-sdk/client-s3", "vitest/globals", "@acme/ui", "node:test", "express-serve-static-core", "graphql-tag", "@prisma/client", "@trpc/server", "msw/node", "@tanstack/react-query"},
			causes: []cause{
				{"{obj} resolves only with moduleResolution bundler; the package tsconfig still said node.", "", "Set moduleResolution to bundler for packages built by vite."},
				{"the types for {obj} come from a generated file that `npm run codegen` writes and CI did not run.", "npm run codegen", "Run codegen before tsc in CI."},
				{"the `paths` mapping for {obj} was in the root tsconfig but the project uses its own tsconfig.build.json.", "", "Mirror paths in every tsconfig that tsc is run with."},
			},
			objs: []*object{
				{name: "@shared/schema", cause: "the path alias @shared/* was in tsconfig.base.json but the app's tsconfig did not extend it.", fix: "", learned: "Aliases live in tsconfig paths; the app tsconfig must extend the base one.", stored: true, project: "portal"},
				{name: "zod", cause: "zod was installed in the workspace root node_modules but this package's moduleResolution was node16 with exports.", fix: "npm install zod -w portal", learned: "Install deps into the workspace that imports them.", stored: true, project: "portal", year: 2025, elsewhere: "dashboard"},
				{name: "lodash-es"},
			},
		},
		{
			id: "git-push", split: Tune, lang: "git", tool: "Bash", cmd: "git push origin main",
			tail: `To github.com:acme/{obj}.git
 ! [rejected]        main -> main (fetch first)
error: failed to push some refs to 'github.com:acme/{obj}.git'
hint: Updates were rejected because the remote contains work that you do not
hint: have locally. This is usually caused by another repository pushing
hint: to the same ref.`,
			quote: "! [rejected]        main -> main (fetch first)\nerror: failed to push some refs",
			title: "git push rejected (fetch first)",
			objs: []*object{
				{name: "infra", cause: "the release bot pushes version bumps to main after every merge.", fix: "git pull --rebase origin main && git push origin main", learned: "Rebase on the bot's commit, never force-push main.", stored: true, project: "infra", global: true},
			},
		},
		{
			id: "pip-externally", split: Tune, lang: "python", tool: "Bash", cmd: "pip install {obj}",
			tail: `error: externally-managed-environment

× This environment is externally managed
╰─> To install Python packages system-wide, try apt install
    python3-xyz, where xyz is the package you are trying to
    install.

    If you wish to install a non-Debian-packaged Python package,
    create a virtual environment using python3 -m venv path/to/venv.

note: If you believe this is a mistake, please contact your Python installation or OS distribution provider. You can override this, at the risk of breaking your Python installation or OS, by passing --break-system-packages.
hint: See PEP 668 for the detailed specification.`,
			quote: "error: externally-managed-environment",
			title: "pip install refused: externally-managed-environment (PEP 668)",
			objs: []*object{
				{name: "black", cause: "Debian 12 marks the system python as externally managed (PEP 668).", fix: "pipx install black", learned: "Use pipx for tools and a venv for projects on Debian 12 / Ubuntu 23.04+.", stored: true, project: "tooling", global: true,
					twin: &object{name: "black", cause: "on macOS the Homebrew python is externally managed since python@3.12.", fix: "brew install black", learned: "On macOS install CLI tools with brew or pipx, not pip into Homebrew's python.", os: "darwin"}},
			},
		},
		{
			id: "jest-timeout", split: Tune, lang: "javascript", tool: "Bash", cmd: "npx jest {obj}",
			tail: `FAIL src/{obj}.test.ts (6.2 s)
  ● {obj} › resolves the account

    thrown: "Exceeded timeout of 5000 ms for a test.
    Add a timeout value to this test to increase the timeout, if this is a long-running test. See https://jestjs.io/docs/api#testname-fn-timeout."

      12 |
      13 | describe('{obj}', () => {
    > 14 |   it('resolves the account', async () => {
         |   ^

Tests:       1 failed, 11 passed, 12 total`,
			quote: "thrown: \"Exceeded timeout of 5000 ms for a test.",
			title: "jest: {obj} test exceeds 5000 ms timeout",
			more:  []string{"paymentGateway", "userRepository", "cacheWarmup", "invoicePdf", "searchIndex", "webhookRelay", "sessionStore", "mailer", "exportCsv", "rateLimiter"},
			causes: []cause{
				{"{obj} opened a real Redis connection because the mock module path was wrong.", "", "Check jest.mock paths; a timeout often means a real socket."},
				{"fake timers were on and {obj} awaited a setTimeout that never advanced.", "", "Advance fake timers or use real timers for that test."},
				{"{obj} waited on a promise that rejected silently inside an event emitter.", "", "Await the emitter's error event in the test."},
			},
			objs: []*object{
				{name: "accountService", cause: "the test awaited a real HTTP call because msw was not started in setupTests.", fix: "", learned: "Start the msw server in jest.setup.ts; a timeout usually means a real network call.", stored: true, project: "banking"},
				{name: "ledgerSync"},
			},
		},
	}
}
