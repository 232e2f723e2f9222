package replay

// handFresh2 are more hand cases of the fresh part, written like
// handTune3 (same kinds of cases, same mix of writing styles) but about
// other projects and other failures: cgo and go-sqlite3, Go workspaces,
// MySQL grants, Google Cloud credentials, Testcontainers, corporate CAs
// for npm, Yarn Berry workspaces, esbuild, Deno, Bun, uv, ruff, pyright,
// pytest-asyncio, conda in CI, Flutter, cabal, dune, Zig, R and Julia,
// SSH key permissions. Written without reading the engine; its misses
// were read only after its figures had moved with tuning on the others.
func handFresh2() ([]Note, []Query) {
	h := &hand{split: Fresh, prefix: "fresh2/"}
	fresh2Go(h)
	fresh2JS(h)
	fresh2Python(h)
	fresh2Others(h)
	fresh2NeverStored(h)
	return h.notes, h.qs
}

func fresh2Go(h *hand) {
	h.note(Note{ID: "sqlite-cgo-win", Project: "osprey", OS: "windows", Lang: "go", At: day(2024, 3, 27),
		Title:   "go-sqlite3 is a stub on my Windows machine",
		What:    "osprey starts, then the first query fails: `Binary was compiled with 'CGO_ENABLED=0', go-sqlite3 requires cgo to work. This is a stub`",
		Why:     "No gcc on Windows, so go build silently turns cgo off and mattn/go-sqlite3 compiles to its stub.",
		Learned: "Installing MSYS2 gcc works but is fragile; the local store now uses the pure-Go driver modernc.org/sqlite behind a build tag.",
		Fix:     "go build -tags purego_sqlite ./cmd/osprey"})
	h.note(Note{ID: "sqlite-cgo-alpine", Project: "osprey", OS: "linux", Lang: "go", At: day(2024, 5, 2),
		Title: "container: go-sqlite3 requires cgo",
		What:  "Same \"requires cgo to work. This is a stub\" message, from the container this time.",
		Why: "The Dockerfile's builder stage sets CGO_ENABLED=0 for a static binary. Here we want the real cgo driver " +
			"(purego tag is for dev boxes only), so the builder needs cgo and a C toolchain.",
		Where:   "Dockerfile",
		Learned: "Builder: CGO_ENABLED=1 with build-base installed, and link statically with -ldflags '-extldflags=-static'.",
		Fix:     "apk add --no-cache build-base && CGO_ENABLED=1 go build -ldflags '-extldflags=-static' ./cmd/osprey"})
	stub := "2024/06/11 09:12:44 osprey 0.7.2 listening on :8080\n2024/06/11 09:12:45 open store: Binary was compiled with 'CGO_ENABLED=0', go-sqlite3 requires cgo to work. This is a stub\n"
	h.ask("sqlite-cgo/win", "osprey", "windows", "go run ./cmd/osprey", crlf(stub), "sqlite-cgo-win", "fresh2: twin on another system, CRLF")
	h.ask("sqlite-cgo/linux", "osprey", "linux", "docker run --rm osprey:dev",
		"#0 building with \"default\" instance using docker driver\n... 41 lines omitted ...\n"+stub, "sqlite-cgo-alpine", "fresh2: twin on another system, elided")
	h.ask("sqlite-cgo/win-test", "osprey", "windows", "go test ./internal/store/",
		crlf("--- FAIL: TestStoreRoundTrip (0.00s)\n    store_test.go:21: open: Binary was compiled with 'CGO_ENABLED=0', go-sqlite3 requires cgo to work. This is a stub\nFAIL\nFAIL\tosprey/internal/store\t0.412s\nFAIL\n"),
		"sqlite-cgo-win", "fresh2: twin on another system, another tool")

	h.note(Note{ID: "go-work", Project: "osprey", OS: "darwin", Lang: "go", At: day(2023, 10, 17),
		Title: "go build from the repo root",
		What:  "go: cannot find main module, but found .git/config in /Users/kim/code/osprey",
		Why:   "go.mod is in server/, not the root", Learned: "go.work at the root",
		Fix: "go work init ./server ./tools"})
	h.ask("go-work/1", "osprey", "darwin", "go test ./...",
		"go: cannot find main module, but found .git/config in /Users/kim/code/osprey\n\tto create a module there, run:\n\tgo mod init\n",
		"go-work", "fresh2: stored, a note with only what and fix")
	h.ask("go-tidy", "osprey", "linux", "go build ./...",
		"go: updates to go.mod needed; to update it:\n\tgo mod tidy\n",
		"", "fresh2: same tool, another error")

	h.note(Note{ID: "mysql-grant-host", Project: "osprey", OS: "linux", Lang: "sql", At: day(2024, 8, 20),
		Title:   "osprey can't log in to mysql in compose",
		What:    "ERROR 1045 (28000): Access denied for user 'osprey'@'172.18.0.5' (using password: YES) — the password is right, mysql -uosprey inside the db container works.",
		Why:     "The init script created 'osprey'@'localhost' only. From the app container the connection comes from the compose network, so it's another host and no grant matches.",
		Where:   "deploy/mysql/init.sql",
		Learned: "Create the user for '%' (or the network's range) in init.sql; recreate the volume so init runs again.",
		Fix:     "docker compose down -v && docker compose up -d db"})
	h.ask("mysql-grant-host/go", "osprey", "linux", "docker compose up app",
		"app-1  | 2024-09-02T07:41:10Z INF connecting to mysql addr=db:3306\napp-1  | 2024-09-02T07:41:10Z FTL store: Error 1045 (28000): Access denied for user 'osprey'@'172.19.0.4' (using password: YES)\napp-1 exited with code 1\n",
		"mysql-grant-host", "fresh2: stored, another address")
	h.ask("mysql-grant-host/cli", "osprey", "linux", "mysql -h 127.0.0.1 -P 3306 -uosprey -p osprey",
		"Enter password: \nERROR 1045 (28000): Access denied for user 'osprey'@'172.18.0.1' (using password: YES)\n",
		"mysql-grant-host", "fresh2: stored")
	h.ask("mysql-root-nopw", "osprey", "linux", "mysql -uroot",
		"ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: NO)\n",
		"", "fresh2: same message, another object")
	h.ask("mysql-grant-host/wren", "wren", "linux", "docker compose up api",
		"api-1  | Error 1045 (28000): Access denied for user 'wren'@'172.20.0.3' (using password: YES)\napi-1 exited with code 1\n",
		"", "fresh2: another project's project note")

	h.note(Note{ID: "gcp-keyfile", Project: "osprey", OS: "darwin", Lang: "go", At: day(2023, 2, 8),
		Title:   "local run: google: could not find default credentials",
		What:    "The GCS uploader fails at startup with google: could not find default credentials.",
		Why:     "Nothing tells the client library where credentials are on a dev laptop.",
		Learned: "Download a key for osprey-dev@ and point the env var at it.",
		Fix:     "export GOOGLE_APPLICATION_CREDENTIALS=$HOME/keys/osprey-dev.json"})
	h.note(Note{ID: "gcp-impersonate", Project: "osprey", OS: "darwin", Lang: "go", At: day(2025, 1, 21), ProseOver: "gcp-keyfile",
		Title: "default credentials on dev laptops (no more key files)",
		What:  "Back to `google: could not find default credentials` after my laptop was re-imaged.",
		Why: "The old way (a JSON key for osprey-dev@ in GOOGLE_APPLICATION_CREDENTIALS) is dead: the org policy iam.disableServiceAccountKeyCreation is now enforced and existing keys were revoked, " +
			"so downloading a key doesn't work any more.",
		Learned: "Use ADC from my own login and impersonate the service account; needs roles/iam.serviceAccountTokenCreator on it.",
		Fix:     "gcloud auth application-default login --impersonate-service-account=osprey-dev@osprey-dev.iam.gserviceaccount.com"})
	h.ask("gcp-adc/go", "osprey", "darwin", "go run ./cmd/uploader",
		"2025/03/14 11:20:31 storage.NewClient: dialing: google: could not find default credentials. See https://cloud.google.com/docs/authentication/external/set-up-adc for more information\nexit status 1\n",
		"gcp-impersonate", "fresh2: superseded in prose", "gcp-keyfile")
	h.ask("gcp-adc/python", "osprey", "darwin", "python scripts/backfill_gcs.py",
		"Traceback (most recent call last):\n  File \"/Users/kim/code/osprey/scripts/backfill_gcs.py\", line 9, in <module>\n    client = storage.Client()\n  File \"/Users/kim/code/osprey/.venv/lib/python3.12/site-packages/google/auth/_default.py\", line 691, in default\n    raise exceptions.DefaultCredentialsError(_CLOUD_SDK_MISSING_CREDENTIALS)\ngoogle.auth.exceptions.DefaultCredentialsError: Your default credentials were not found. To set up Application Default Credentials, see https://cloud.google.com/docs/authentication/external/set-up-adc for more information.\n",
		"gcp-impersonate", "fresh2: superseded in prose, another client library", "gcp-keyfile")

	h.note(Note{ID: "testcontainers-colima", Project: "osprey", Scope: "global", OS: "darwin", Lang: "go", At: day(2024, 11, 5),
		Title: "integration tests can't find Docker (Colima)",
		What: "go test ./internal/store/... -tags integration panics in testcontainers: " +
			"\"Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\" although `docker ps` works.",
		Why:     "I replaced Docker Desktop with Colima; its socket is ~/.colima/default/docker.sock and the docker CLI finds it through its context, but testcontainers reads DOCKER_HOST.",
		Learned: "Export DOCKER_HOST from the colima context and tell Ryuk the in-VM socket path.",
		Fix:     "export DOCKER_HOST=unix://$HOME/.colima/default/docker.sock TESTCONTAINERS_DOCKER_SOCKET_OVERRIDE=/var/run/docker.sock"})
	h.ask("testcontainers-colima/1", "osprey", "darwin", "go test -tags integration ./internal/store/...",
		"2024/11/19 10:02:11 github.com/testcontainers/testcontainers-go - Connected to docker: \n--- FAIL: TestMySQLStore (0.01s)\npanic: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?: failed to create container [recovered]\n\tpanic: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?: failed to create container\n\ngoroutine 7 [running]:\ntesting.tRunner.func1.2({0x1012a4e40, 0x14000296b40})\n\t/opt/homebrew/Cellar/go/1.23.2/libexec/src/testing/testing.go:1632 +0x1bc\nFAIL\tosprey/internal/store\t0.318s\n",
		"testcontainers-colima", "fresh2: stored, stack trace")
	h.ask("testcontainers-colima/node", "larkspur", "darwin", "yarn workspace @larkspur/core test:integration",
		" FAIL  test/db.int.test.ts > repository > saves a draft\nError: Could not find a working container runtime strategy\n ❯ getContainerRuntimeClient node_modules/testcontainers/src/container-runtime/clients/client.ts:62:9\n\n⎯⎯⎯⎯ Unhandled Rejection ⎯⎯⎯⎯\nError: connect ENOENT /var/run/docker.sock\n Test Files  1 failed (1)\n",
		"testcontainers-colima", "fresh2: global note, another project and library")
	h.ask("docker-daemon-linux", "osprey", "linux", "docker compose up -d",
		"Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n",
		"", "fresh2: same text, another cause")

	h.note(Note{ID: "osprey-sqlc", Project: "osprey", OS: "linux", Lang: "go", At: day(2024, 1, 9), Type: "decision", NoFailure: true,
		Title:   "SQL lives in queries/*.sql, code is generated by sqlc",
		What:    "No hand-written database/sql calls in internal/store any more; queries are in queries/*.sql and `sqlc generate` writes internal/store/db.",
		Why:     "Three production bugs were scan-order mistakes in hand-written Scan calls.",
		Where:   "sqlc.yaml",
		Learned: "Regenerate and commit internal/store/db with every query change."})
	h.ask("osprey-sqlc-gen", "osprey", "linux", "sqlc generate",
		"# package db\nqueries/orders.sql:14:8: column \"shipped_at\" does not exist\n",
		"", "fresh2: a note that describes no failure")
	h.ask("osprey-gomod", "osprey", "linux", "go mod tidy",
		"go: errors parsing go.mod:\n/home/ci/build/osprey/server/go.mod:3: invalid go version '1.22.x': must match format 1.23\n",
		"", "fresh2: generic names only (go.mod)")
}

func fresh2JS(h *hand) {
	h.note(Note{ID: "npm-corp-ca", Project: "larkspur", Scope: "global", OS: "windows", Lang: "javascript", At: day(2024, 4, 15),
		Title:   "npm install behind the office proxy",
		What:    "npm error code UNABLE_TO_GET_ISSUER_CERT_LOCALLY on every install from the office network; fine from home.",
		Why:     "The proxy re-signs TLS with the corporate root CA, which Windows trusts but Node does not (Node ships its own CA list).",
		Learned: "Give Node the corporate root as an extra CA. Never set strict-ssl=false.",
		Fix:     "setx NODE_EXTRA_CA_CERTS C:\\certs\\corp-root.pem"})
	h.ask("npm-corp-ca/linux", "larkspur", "linux", "npm ci",
		"npm error code UNABLE_TO_GET_ISSUER_CERT_LOCALLY\nnpm error errno UNABLE_TO_GET_ISSUER_CERT_LOCALLY\nnpm error request to https://registry.npmjs.org/esbuild failed, reason: unable to get local issuer certificate\nnpm error A complete log of this run can be found in: /home/dev/.npm/_logs/2024-10-03T08_12_55_201Z-debug-0.log\n",
		"npm-corp-ca", "fresh2: global note written on another system")
	h.ask("npm-corp-ca/tundra", "tundra", "windows", "npx firebase-tools login",
		crlf("Error: request to https://registry.npmjs.org/firebase-tools failed, reason: unable to get local issuer certificate\nnpm ERR! code UNABLE_TO_GET_ISSUER_CERT_LOCALLY\nnpm ERR! errno UNABLE_TO_GET_ISSUER_CERT_LOCALLY\n"),
		"npm-corp-ca", "fresh2: global note, another project, older npm wording")
	h.ask("npm-cert-expired", "larkspur", "linux", "npm install",
		"npm error code CERT_HAS_EXPIRED\nnpm error errno CERT_HAS_EXPIRED\nnpm error request to https://npm.larkspur.internal/@larkspur%2fui failed, reason: certificate has expired\n",
		"", "fresh2: same kind, another error")

	h.note(Note{ID: "yarn-immutable", Project: "larkspur", OS: "linux", Lang: "javascript", At: day(2024, 7, 23),
		Title:   "CI: YN0028 lockfile would have been modified",
		What:    "`yarn install --immutable` in CI fails with YN0028: The lockfile would have been modified by this install, which is explicitly forbidden.",
		Why:     "Renovate bumped a version in packages/ui/package.json but its yarn.lock update failed silently; the lockfile in the PR is stale.",
		Learned: "Run yarn install locally on the branch and commit yarn.lock; don't drop --immutable from CI.",
		Fix:     "yarn install && git add yarn.lock && git commit -m 'chore: refresh lockfile'"})
	h.ask("yarn-immutable/1", "larkspur", "linux", "yarn install --immutable",
		"➤ YN0000: · Yarn 4.1.1\n➤ YN0000: ┌ Resolution step\n➤ YN0085: │ + @larkspur/ui@workspace:packages/ui, react-aria@npm:3.33.1, and 4 more.\n➤ YN0000: └ Completed in 1s 212ms\n➤ YN0028: │ -react-aria@npm:^3.32.1:\n➤ YN0028: │ +react-aria@npm:^3.33.0:\n➤ YN0028: │ The lockfile would have been modified by this install, which is explicitly forbidden.\n➤ YN0000: · Failed with errors in 1s 390ms\n",
		"yarn-immutable", "fresh2: stored")
	h.ask("yarn-immutable/gha", "larkspur", "linux", "gh run view 9912003411 --log-failed",
		"build\tInstall\t2025-02-11T09:31:07.0021145Z ➤ YN0000: ┌ Resolution step\nbuild\tInstall\t2025-02-11T09:31:08.4410072Z ➤ YN0028: │ The lockfile would have been modified by this install, which is explicitly forbidden.\nbuild\tInstall\t2025-02-11T09:31:08.4415530Z ➤ YN0000: · Failed with errors in 1s 441ms\nbuild\tInstall\t2025-02-11T09:31:08.4620311Z ##[error]Process completed with exit code 1.\n",
		"yarn-immutable", "fresh2: stored, CI log with timestamps")

	h.note(Note{ID: "yarn-workspace-missing", Project: "larkspur", OS: "darwin", Lang: "javascript", At: day(2025, 1, 29),
		Title:   "new cli package: yarn says it's not part of the project",
		What:    "Created packages/cli and ran yarn add there:\n```\nUsage Error: The nearest package directory (/Users/kim/code/larkspur/packages/cli) doesn't seem to be part of the project declared in /Users/kim/code/larkspur.\n```\n",
		Why:     "The root package.json lists workspaces explicitly (apps/*, packages/ui, packages/core), not packages/*.",
		Where:   "package.json workspaces",
		Learned: "Add the new directory to workspaces, then yarn install at the root before adding deps."})
	h.ask("yarn-workspace-missing/1", "larkspur", "darwin", "yarn workspace @larkspur/cli add commander",
		"Usage Error: The nearest package directory (/Users/kim/code/larkspur/packages/cli) doesn't seem to be part of the project declared in /Users/kim/code/larkspur.\n\n- If /Users/kim/code/larkspur isn't intended to be a project, remove any yarn.lock and/or package.json file there.\n- If /Users/kim/code/larkspur is intended to be a project, it might be that you forgot to list packages/cli in its workspace configuration.\n- Finally, if /Users/kim/code/larkspur is fine and you intend packages/cli to be treated as a completely separate project (not even a workspace), create an empty yarn.lock file in it.\n\n$ yarn add [--json] [-F,--fixed] [-E,--exact] [-T,--tilde] [-C,--caret] [-D,--dev] [-P,--peer] [-O,--optional] [--prefer-dev] [-i,--interactive] [--cached] [--mode #0] ...\n",
		"yarn-workspace-missing", "fresh2: stored")
	h.ask("yarn-workspace-missing/wren", "wren", "darwin", "yarn add zod",
		"Usage Error: The nearest package directory (/Users/kim/code/wren/services/auth) doesn't seem to be part of the project declared in /Users/kim/code/wren.\n\n- If /Users/kim/code/wren is intended to be a project, it might be that you forgot to list services/auth in its workspace configuration.\n",
		"", "fresh2: another project's project note")

	h.note(Note{ID: "esbuild-node-builtin", Project: "larkspur", OS: "linux", Lang: "typescript", At: day(2024, 9, 10),
		Title:   "bundling the cli with esbuild",
		What:    "esbuild: ✘ [ERROR] Could not resolve \"node:fs\" — the package \"node:fs\" wasn't found on the file system but is built into node.",
		Why:     "scripts/build-cli.mjs didn't set platform, and esbuild's default is browser.",
		Where:   "scripts/build-cli.mjs",
		Learned: "platform: 'node' plus target: 'node20' for anything that runs in node; packages: 'external' keeps node_modules out of the bundle.",
		Fix:     "npx esbuild packages/cli/src/index.ts --bundle --platform=node --target=node20 --outfile=dist/cli.js"})
	h.ask("esbuild-node-builtin/1", "larkspur", "linux", "node scripts/build-cli.mjs",
		"\x1b[31m✘ \x1b[41;31m[\x1b[41;97mERROR\x1b[41;31m]\x1b[0m \x1b[1mCould not resolve \"node:child_process\"\x1b[0m\n\n    packages/cli/src/run.ts:1:22:\n\x1b[37m      1 │ import { spawn } from \x1b[32m\"node:child_process\"\x1b[37m;\n        ╵                       \x1b[32m~~~~~~~~~~~~~~~~~~~~\x1b[0m\n\n  The package \"node:child_process\" wasn't found on the file system but is built into node. Are you\n  trying to bundle for node? You can use \"platform: 'node'\" to do that, which will remove this\n  error.\n\n1 error\n",
		"esbuild-node-builtin", "fresh2: stored, another module, ANSI colours")
	h.ask("esbuild-node-builtin/path", "larkspur", "darwin", "yarn workspace @larkspur/cli build",
		"✘ [ERROR] Could not resolve \"path\"\n\n    ../../node_modules/dotenv/lib/main.js:2:21:\n      2 │ const path = require('path')\n        ╵                      ~~~~~~\n\n  The package \"path\" wasn't found on the file system but is built into node. Are you trying to\n  bundle for node? You can use \"platform: 'node'\" to do that, which will remove this error.\n\n✘ [ERROR] Could not resolve \"os\"\n\n... 24 lines omitted ...\n6 errors\n",
		"esbuild-node-builtin", "fresh2: stored, bare module names, elided")
	h.ask("esbuild-loader", "larkspur", "darwin", "node scripts/build-cli.mjs",
		"✘ [ERROR] No loader is configured for \".node\" files: node_modules/fsevents/fsevents.node\n\n    node_modules/fsevents/fsevents.js:13:23:\n      13 │ const Native = require(\"./fsevents.node\");\n         ╵                        ~~~~~~~~~~~~~~~~~\n\n1 error\n",
		"", "fresh2: same tool, another error")

	h.note(Note{ID: "esbuild-platform-pkg", Project: "larkspur", OS: "darwin", Lang: "javascript", At: day(2025, 3, 4),
		Title: "docker image build: esbuild installed for another platform",
		What: "The web image build fails in vite build: You installed esbuild for another platform than the one you're currently using. " +
			"Mentions @esbuild/darwin-arm64 being present but linux-x64 needed.",
		Why:     "COPY . . brought my Mac's node_modules into the image because .dockerignore didn't list it, overwriting what yarn installed inside.",
		Where:   ".dockerignore",
		Learned: "node_modules and **/node_modules in .dockerignore, always.",
		Fix:     "printf 'node_modules\\n**/node_modules\\n' >> .dockerignore"})
	h.ask("esbuild-platform-pkg/1", "larkspur", "darwin", "docker build -t larkspur-web -f apps/web/Dockerfile .",
		"#12 [build 6/6] RUN yarn workspace @larkspur/web build\n#12 1.204 failed to load config from /app/apps/web/vite.config.ts\n#12 1.206 error during build:\n#12 1.206 Error: \n#12 1.206 You installed esbuild for another platform than the one you're currently using.\n#12 1.206 This won't work because esbuild is written with native code and needs to\n#12 1.206 install a platform-specific binary executable.\n#12 1.206 \n#12 1.206 Specifically the \"@esbuild/darwin-arm64\" package is present but this platform\n#12 1.206 needs the \"@esbuild/linux-arm64\" package instead. People often get into this\n#12 1.206 situation by installing esbuild on Windows or macOS and copying \"node_modules\"\n#12 1.206 into a Docker image that runs Linux, or by copying \"node_modules\" between\n#12 1.206 Windows and WSL environments.\n#12 ERROR: process \"/bin/sh -c yarn workspace @larkspur/web build\" did not complete successfully: exit code: 1\n",
		"esbuild-platform-pkg", "fresh2: stored, docker build log")

	h.note(Note{ID: "deno-net", Project: "larkspur", OS: "linux", Lang: "typescript", At: day(2025, 2, 18),
		Title: "deno task sync: PermissionDenied", What: "Requires net access to \"api.larkspur.dev:443\"", Why: "deno sandbox",
		Learned: "the task in deno.json needs --allow-net=api.larkspur.dev (not a bare --allow-net)"})
	h.ask("deno-net/1", "larkspur", "linux", "deno task sync",
		"Task sync deno run --allow-read=./data --allow-env scripts/sync.ts\nerror: Uncaught (in promise) NotCapable: Requires net access to \"api.larkspur.dev:443\", run again with the --allow-net flag\n    at mainFetch (ext:deno_fetch/26_fetch.js:182:11)\n    at fetch (ext:deno_fetch/26_fetch.js:402:7)\n    at file:///home/ci/build/larkspur/scripts/sync.ts:12:21\n",
		"deno-net", "fresh2: stored, a terse note, newer error class")
	h.ask("deno-read", "larkspur", "linux", "deno task sync",
		"error: Uncaught (in promise) NotCapable: Requires read access to \"./.env\", run again with the --allow-read flag\n    at Object.readTextFileSync (ext:deno_fs/30_fs.js:770:10)\n    at file:///home/ci/build/larkspur/scripts/sync.ts:3:22\n",
		"", "fresh2: same message, another object")

	h.note(Note{ID: "bun-lockb", Project: "larkspur", OS: "darwin", Lang: "javascript", At: day(2024, 6, 6),
		Title:   "bun install --frozen-lockfile fails after merging",
		What:    "CI: error: lockfile had changes, but lockfile is frozen.",
		Why:     "bun.lockb is binary, so the merge of two dependency branches kept one side's lockfile whole.",
		Learned: "Delete bun.lockb on the merge commit and let bun install rebuild it.",
		Fix:     "rm bun.lockb && bun install"})
	h.note(Note{ID: "bun-lock-text", Project: "larkspur", OS: "darwin", Lang: "javascript", At: day(2025, 4, 1), ProseOver: "bun-lockb",
		Title: "frozen lockfile errors with Bun 1.2",
		What:  "lockfile had changes, but lockfile is frozen — again, on the edge-worker package.",
		Why: "Deleting bun.lockb (June note) no longer does anything: since the Bun 1.2 upgrade the project uses the text lockfile bun.lock, and bun.lockb is ignored. " +
			"The stale file is bun.lock, which can be merged and diffed like any text file.",
		Learned: "Resolve conflicts in bun.lock by hand or rerun bun install and commit bun.lock; delete any leftover bun.lockb.",
		Fix:     "bun install && git add bun.lock"})
	h.ask("bun-frozen/1", "larkspur", "linux", "bun install --frozen-lockfile",
		"bun install v1.2.8 (adab0f64)\nResolving dependencies\nResolved, downloaded and extracted [14]\nerror: lockfile had changes, but lockfile is frozen\nnote: try re-running without --frozen-lockfile and commit the updated lockfile\n",
		"bun-lock-text", "fresh2: superseded in prose", "bun-lockb")
	h.ask("bun-frozen/ci", "larkspur", "linux", "bun ci",
		"\x1b[0m\x1b[1mbun install \x1b[0m\x1b[2mv1.2.11 (cb6abd21)\x1b[0m\n\x1b[31merror\x1b[0m\x1b[2m:\x1b[0m lockfile had changes, but lockfile is frozen\n\x1b[2mnote\x1b[0m: try re-running without \x1b[1m--frozen-lockfile\x1b[0m and commit the updated lockfile\n",
		"bun-lock-text", "fresh2: superseded in prose, ANSI colours", "bun-lockb")

	h.note(Note{ID: "larkspur-bundlers", Project: "larkspur", OS: "linux", Lang: "typescript", At: day(2024, 2, 12), Type: "decision", NoFailure: true,
		Title:   "esbuild for libraries and the CLI, Vite for apps",
		What:    "Packages under packages/ are bundled by scripts/build-*.mjs with esbuild; apps/ use Vite. No webpack anywhere.",
		Why:     "One config per kind of output instead of one webpack config per package.",
		Learned: "New packages copy scripts/build-lib.mjs."})
	h.ask("larkspur-vite-chunk", "larkspur", "linux", "yarn workspace @larkspur/web build",
		"vite v5.4.2 building for production...\n✓ 1204 modules transformed.\nx Build failed in 6.21s\nerror during build:\n[vite:load-fallback] Could not load /home/ci/build/larkspur/apps/web/src/assets/logo.svg?react (imported by src/App.tsx): ENOENT: no such file or directory, open '/home/ci/build/larkspur/apps/web/src/assets/logo.svg'\n",
		"", "fresh2: a note that describes no failure")
	h.ask("larkspur-package-json", "larkspur", "linux", "yarn install",
		"Internal Error: Invalid package.json in /home/ci/build/larkspur/packages/core/package.json: Unexpected token } in JSON at position 488\n    at Ae.fromFile (/home/ci/build/larkspur/.yarn/releases/yarn-4.1.1.cjs:141:5223)\n",
		"", "fresh2: generic names only (package.json)")
}

func fresh2Python(h *hand) {
	h.note(Note{ID: "uv-locked", Project: "pumice", OS: "linux", Lang: "python", At: day(2025, 3, 26),
		Title:   "uv sync --locked red in CI",
		What:    "error: The lockfile at `uv.lock` needs to be updated, but `--locked` was provided. To update the lockfile, run `uv lock`.",
		Why:     "I bumped requires-python to >=3.11 in pyproject.toml and pushed without re-locking; uv.lock records requires-python too.",
		Learned: "Any pyproject.toml edit → uv lock, commit uv.lock. The pre-commit hook uv-lock does it.",
		Fix:     "uv lock && git add uv.lock"})
	h.ask("uv-locked/1", "pumice", "linux", "uv sync --locked --all-extras",
		"Using CPython 3.12.7 interpreter at: /usr/bin/python3.12\nCreating virtual environment at: .venv\nResolved 84 packages in 412ms\nerror: The lockfile at `uv.lock` needs to be updated, but `--locked` was provided. To update the lockfile, run `uv lock`.\n",
		"uv-locked", "fresh2: stored")
	h.ask("uv-locked/run", "pumice", "darwin", "uv run --locked pytest",
		"warning: `VIRTUAL_ENV=/Users/kim/code/pumice/venv` does not match the project environment path `.venv` and will be ignored; use `--active` to target the active environment instead\nerror: The lockfile at `uv.lock` needs to be updated, but `--locked` was provided. To update the lockfile, run `uv lock`.\n",
		"uv-locked", "fresh2: stored, another command and system")
	h.ask("uv-no-solution", "pumice", "linux", "uv lock",
		"  × No solution found when resolving dependencies for split (python_full_version >= '3.13'):\n  ╰─▶ Because only numba<=0.60.0 is available and numba==0.60.0 depends on numpy>=1.22,<2.1, we can conclude that numba>=0.60.0 depends on numpy>=1.22,<2.1.\n      And because your project depends on numba>=0.60 and numpy>=2.1, we can conclude that your project's requirements are unsatisfiable.\n",
		"", "fresh2: same tool, another error")

	h.note(Note{ID: "ruff-py313", Project: "pumice", OS: "linux", Lang: "python", At: day(2024, 10, 30),
		Title:   "pre-commit: ruff can't parse pyproject.toml",
		What:    "The ruff hook dies reading the config: unknown variant `py313` for target-version.",
		Why:     "We set target-version = \"py313\" but .pre-commit-config.yaml still pins ruff-pre-commit v0.1.9, which predates 3.13.",
		Where:   ".pre-commit-config.yaml",
		Learned: "Bump hook revs when bumping Python; the locally installed ruff was newer, which is why it only failed in the hook.",
		Fix:     "pre-commit autoupdate --repo https://github.com/astral-sh/ruff-pre-commit"})
	h.ask("ruff-py313/1", "pumice", "linux", "pre-commit run --all-files",
		"ruff.....................................................................Failed\n- hook id: ruff\n- exit code: 2\n\nruff failed\n  Cause: Failed to parse /home/ci/build/pumice/pyproject.toml\n  Cause: TOML parse error at line 58, column 19\n   |\n58 | target-version = \"py313\"\n   |                  ^^^^^^^\nunknown variant `py313`, expected one of `py37`, `py38`, `py39`, `py310`, `py311`, `py312`\n\nruff-format..............................................................Failed\n",
		"ruff-py313", "fresh2: stored")
	h.ask("ruff-f841", "pumice", "linux", "ruff check .",
		"pumice/ingest/reader.py:41:5: F841 Local variable `resp` is assigned to but never used\n   |\n39 |     async with session.get(url) as r:\n40 |         ...\n41 |     resp = await r.json()\n   |     ^^^^ F841\n   |\n   = help: Remove assignment to unused variable `resp`\n\nFound 1 error.\nNo fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n",
		"", "fresh2: same tool, another error")

	h.note(Note{ID: "pyright-venv", Project: "pumice", OS: "darwin", Lang: "python", At: day(2024, 5, 21),
		Title:   "pyright: every third-party import unresolved",
		What:    "pyright reports `Import \"numpy\" could not be resolved (reportMissingImports)` for every installed package, in the terminal and in Neovim.",
		Why:     "pyright looks for the interpreter on PATH, which is Homebrew's python; the project's packages are in .venv.",
		Where:   "pyproject.toml [tool.pyright]",
		Learned: "venvPath = \".\" and venv = \".venv\" under [tool.pyright]; CI activates the venv so it never saw it."})
	h.ask("pyright-venv/1", "pumice", "darwin", "pyright pumice",
		"/Users/kim/code/pumice/pumice/features/windows.py\n  /Users/kim/code/pumice/pumice/features/windows.py:3:8 - error: Import \"pandas\" could not be resolved (reportMissingImports)\n  /Users/kim/code/pumice/pumice/features/windows.py:4:6 - error: Import \"scipy.signal\" could not be resolved (reportMissingImports)\n/Users/kim/code/pumice/pumice/ingest/reader.py\n  /Users/kim/code/pumice/pumice/ingest/reader.py:1:8 - error: Import \"aiohttp\" could not be resolved (reportMissingImports)\n3 errors, 0 warnings, 0 informations \n",
		"pyright-venv", "fresh2: stored, other packages")
	h.ask("pyright-venv/npx", "pumice", "darwin", "npx pyright",
		"No configuration file found.\npyproject.toml file found at /Users/kim/code/pumice.\nLoading pyproject.toml file at /Users/kim/code/pumice/pyproject.toml\nNo include entries specified; assuming /Users/kim/code/pumice\nSearching for source files\nFound 61 source files\n... 44 lines omitted ...\n  /Users/kim/code/pumice/tests/test_reader.py:2:8 - error: Import \"pytest_asyncio\" could not be resolved (reportMissingImports)\n41 errors, 2 warnings, 0 informations \n",
		"pyright-venv", "fresh2: stored, elided")
	h.ask("pyright-stub-source", "pumice", "linux", "pyright",
		"/home/ci/build/pumice/pumice/config.py\n  /home/ci/build/pumice/pumice/config.py:2:8 - warning: Import \"yaml\" could not be resolved from source (reportMissingModuleSource)\n  /home/ci/build/pumice/pumice/config.py:30:12 - error: Argument of type \"str | None\" cannot be assigned to parameter \"path\" of type \"str\" (reportArgumentType)\n1 error, 1 warning, 0 informations \n",
		"", "fresh2: same tool, another error")

	h.note(Note{ID: "pytest-asyncio-mode", Project: "pumice", Scope: "global", OS: "linux", Lang: "python", At: day(2023, 8, 8),
		Title:   "async tests skipped / failing: not natively supported",
		What:    "All async def tests in tests/ingest fail with \"async def functions are not natively supported\" plus PytestUnhandledCoroutineWarning.",
		Why:     "pytest-asyncio 0.21 runs in strict mode: tests need @pytest.mark.asyncio, and ours had none after the move from asynctest.",
		Learned: "Set asyncio_mode = \"auto\" in [tool.pytest.ini_options] instead of marking every test."})
	h.ask("pytest-asyncio-mode/1", "pumice", "linux", "pytest tests/ingest -q",
		"sss\n=============================== warnings summary ===============================\ntests/ingest/test_reader.py::test_reads_pages\n  /home/ci/build/pumice/.venv/lib/python3.11/site-packages/_pytest/python.py:183: PytestUnhandledCoroutineWarning: async def functions are not natively supported and have been skipped.\n  You need to install a suitable plugin for your async framework, for example:\n    - anyio\n    - pytest-asyncio\n    - pytest-tornasync\n    - pytest-trio\n    - pytest-twisted\n    warnings.warn(PytestUnhandledCoroutineWarning(msg.format(nodeid)))\n3 skipped, 3 warnings in 0.12s\n",
		"pytest-asyncio-mode", "fresh2: stored, older pytest wording")
	h.ask("pytest-asyncio-mode/2", "pumice", "linux", "pytest -x",
		"FAILED tests/ingest/test_pool.py::test_pool_drains - Failed: async def functions are not natively supported.\nYou need to install a suitable plugin for your async framework, for example:\n  - anyio\n  - pytest-asyncio\n!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!\n1 failed, 12 passed in 0.88s\n",
		"pytest-asyncio-mode", "fresh2: stored, newer pytest wording")
	h.ask("pytest-asyncio-mode/osprey", "osprey", "linux", "pytest scripts/tests",
		"scripts/tests/test_backfill.py::test_backfill_batches SKIPPED (async def function and no async plugin installed (see warnings))\nPytestUnhandledCoroutineWarning: async def functions are not natively supported and have been skipped.\n1 skipped, 1 warning in 0.05s\n",
		"pytest-asyncio-mode", "fresh2: global note, another project")

	h.note(Note{ID: "conda-source", Project: "pumice", OS: "linux", Lang: "python", At: day(2023, 4, 11),
		Title:   "conda activate in the CI job",
		What:    "CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.",
		Why:     "The job's shell never ran conda init.",
		Learned: "Source conda's profile script in the step before activating.",
		Fix:     "source $CONDA/etc/profile.d/conda.sh && conda activate pumice"})
	h.note(Note{ID: "conda-login-shell", Project: "pumice", OS: "linux", Lang: "python", At: day(2024, 9, 24), ProseOver: "conda-source",
		Title: "conda activate broken in CI again (setup-miniconda v3)",
		What:  "The geo job fails at conda activate with CommandNotFoundError, shell not properly configured.",
		Why: "Since we moved the workflow to conda-incubator/setup-miniconda@v3, sourcing profile.d/conda.sh as in the 2023 note no longer works: $CONDA points at the runner's bundled miniconda, not the one setup-miniconda installed, " +
			"and every step is a fresh non-login shell.",
		Where:   ".github/workflows/geo.yml",
		Learned: "Set defaults: run: shell: bash -el {0} for the job; setup-miniconda then activates the env in each step itself. No conda activate lines needed."})
	h.ask("conda-activate/1", "pumice", "linux", "gh run view 10022331 --log-failed",
		"geo\tTest\t2024-10-01T06:14:22.9911210Z \ngeo\tTest\t2024-10-01T06:14:22.9930042Z CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.\ngeo\tTest\t2024-10-01T06:14:22.9930455Z To initialize your shell, run\ngeo\tTest\t2024-10-01T06:14:22.9930833Z \ngeo\tTest\t2024-10-01T06:14:22.9931101Z     $ conda init <SHELL_NAME>\ngeo\tTest\t2024-10-01T06:14:22.9931507Z \ngeo\tTest\t2024-10-01T06:14:22.9931784Z Currently supported shells are:\ngeo\tTest\t2024-10-01T06:14:22.9932110Z   - bash\ngeo\tTest\t2024-10-01T06:14:22.9932401Z   - fish\ngeo\tTest\t2024-10-01T06:14:22.9935512Z IMPORTANT: You may need to close and restart your shell after running 'conda init'.\ngeo\tTest\t2024-10-01T06:14:23.0012201Z ##[error]Process completed with exit code 1.\n",
		"conda-login-shell", "fresh2: superseded in prose, CI log with timestamps", "conda-source")
	h.ask("conda-activate/2", "pumice", "linux", "bash ci/run-geo-tests.sh",
		"\nCommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.\nTo initialize your shell, run\n\n    $ conda init <SHELL_NAME>\n\nCurrently supported shells are:\n  - bash\n  - fish\n  - tcsh\n  - xonsh\n  - zsh\n  - powershell\n\nSee 'conda init --help' for more information and options.\n\nIMPORTANT: You may need to close and restart your shell after running 'conda init'.\n",
		"conda-login-shell", "fresh2: superseded in prose", "conda-source")

	h.note(Note{ID: "pumice-uv", Project: "pumice", OS: "linux", Lang: "python", At: day(2024, 11, 18), Type: "decision", NoFailure: true,
		Title:   "uv replaces pip-tools",
		What:    "requirements/*.in and pip-compile are gone; dependencies are in pyproject.toml groups and uv.lock is the single lock.",
		Why:     "pip-compile per platform produced three lock files that drifted.",
		Where:   "pyproject.toml, uv.lock",
		Learned: "uv add / uv remove, never edit uv.lock by hand."})
	h.ask("pumice-pip-compile", "pumice", "linux", "pip-compile requirements/dev.in",
		"Traceback (most recent call last):\n  File \"/home/ci/build/pumice/.venv/bin/pip-compile\", line 5, in <module>\n    from piptools.scripts.compile import cli\nModuleNotFoundError: No module named 'piptools'\n",
		"", "fresh2: a note that describes no failure")
}

func fresh2Others(h *hand) {
	h.note(Note{ID: "flutter-ndk", Project: "tundra", OS: "darwin", Lang: "dart", At: day(2024, 8, 6),
		Title:   "flutter build apk: plugins want a newer NDK",
		What:    "Build prints 'Your project is configured with Android NDK 23.1.7779620, but the following plugin(s) depend on a different Android NDK version' and then fails in a plugin's compile task.",
		Why:     "path_provider_android and sqflite_android were bumped and need NDK 25; the app still had Flutter's default.",
		Where:   "android/app/build.gradle",
		Learned: "Pin android { ndkVersion = \"25.1.8937393\" } (the highest any plugin asks for; NDKs are backward compatible)."})
	ndk := func(path string) string {
		return "Your project is configured with Android NDK 23.1.7779620, but the following plugin(s) depend on a different Android NDK version:\n- path_provider_android requires Android NDK 25.1.8937393\n- sqflite_android requires Android NDK 25.1.8937393\nFix this issue by using the highest Android NDK version (they are backward compatible).\nAdd the following to " + path + ":\n\n    android {\n        ndkVersion = \"25.1.8937393\"\n        ...\n    }\n\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':sqflite_android:compileReleaseJavaWithJavac'.\n> Could not resolve all files for configuration ':sqflite_android:androidJdkImage'.\n\nBUILD FAILED in 41s\nGradle task assembleRelease failed with exit code 1\n"
	}
	h.ask("flutter-ndk/mac", "tundra", "darwin", "flutter build apk --release", ndk("/Users/kim/code/tundra/android/app/build.gradle"), "flutter-ndk", "fresh2: stored")
	h.ask("flutter-ndk/win", "tundra", "windows", "flutter build apk --release", crlf(ndk(`C:\Users\dev\src\tundra\android\app\build.gradle`)), "flutter-ndk", "fresh2: stored, Windows paths and CRLF")

	h.note(Note{ID: "flutter-intl", Project: "tundra", OS: "darwin", Lang: "dart", At: day(2024, 10, 14),
		Title:   "pub get: intl version solving failed after the Flutter upgrade",
		What:    "Because tundra depends on flutter_localizations from sdk which depends on intl 0.19.0, intl ^0.18.1 is forbidden.",
		Why:     "Flutter 3.22 pins intl 0.19.0 through flutter_localizations; pubspec.yaml still asked for ^0.18.1.",
		Where:   "pubspec.yaml",
		Learned: "Follow the SDK's pin for intl, don't use dependency_overrides for it.",
		Fix:     "flutter pub add intl:^0.19.0"})
	h.ask("flutter-intl/1", "tundra", "darwin", "flutter pub get",
		"Resolving dependencies... \nNote: intl is pinned to version 0.19.0 by flutter_localizations from the flutter SDK.\nSee https://dart.dev/go/sdk-version-pinning for details.\n\n\nBecause tundra depends on flutter_localizations from sdk which depends on intl 0.19.0, intl 0.19.0 is required.\nSo, because tundra depends on intl ^0.18.1, version solving failed.\n\n\nYou can try the following suggestion to make the pubspec resolve:\n* Try upgrading your constraint on intl: flutter pub add intl:^0.19.0\nFailed to update packages.\n",
		"flutter-intl", "fresh2: stored, another tool version's wording")
	h.ask("flutter-http", "tundra", "darwin", "flutter pub get",
		"Resolving dependencies... \nBecause firebase_storage >=12.0.0 depends on firebase_core ^3.0.0 and tundra depends on firebase_core ^2.24.2, firebase_storage >=12.0.0 is forbidden.\nSo, because tundra depends on firebase_storage ^12.1.0, version solving failed.\n\n\nYou can try the following suggestion to make the pubspec resolve:\n* Consider downgrading your constraint on firebase_storage: flutter pub add firebase_storage:^11.6.9\nFailed to update packages.\n",
		"", "fresh2: same message, another object")
	h.ask("tundra-pubspec", "tundra", "darwin", "flutter pub get",
		"Error on line 23, column 5 of pubspec.yaml: Expected a key while parsing a block mapping.\n   ╷\n23 │     sdk: flutter\n   │     ^\n   ╵\n",
		"", "fresh2: generic names only (pubspec.yaml)")

	h.note(Note{ID: "cabal-update", Project: "basalt", Scope: "global", OS: "linux", Lang: "haskell", At: day(2023, 6, 5),
		Title:   "cabal build on a new machine: unknown package",
		What:    "cabal: Could not resolve dependencies: unknown package: servant (user goal), preceded by a warning that the package list for hackage.haskell.org does not exist.",
		Why:     "A fresh ghcup install has no Hackage index yet.",
		Learned: "Always cabal update first on new machines / CI images (and cache ~/.cabal/packages).",
		Fix:     "cabal update"})
	h.ask("cabal-update/ledgerhs", "ledgerhs", "darwin", "cabal build all",
		"Warning: The package list for 'hackage.haskell.org' does not exist. Run 'cabal\nupdate' to download it.\nResolving dependencies...\nError: cabal: Could not resolve dependencies:\n[__0] trying: ledgerhs-0.1.0.0 (user goal)\n[__1] unknown package: megaparsec (dependency of ledgerhs)\n[__1] fail (backjumping, conflict set: ledgerhs, megaparsec)\nAfter searching the rest of the dependency tree exhaustively, these were the\ngoals I've had most trouble fulfilling: ledgerhs, megaparsec\n\n",
		"cabal-update", "fresh2: global note, another project and system")
	h.ask("cabal-update/1", "basalt", "linux", "cabal test",
		"Warning: The package list for 'hackage.haskell.org' does not exist. Run 'cabal\nupdate' to download it.\nResolving dependencies...\nError: cabal: Could not resolve dependencies:\n[__0] next goal: servant (user goal)\n[__0] unknown package: servant\n",
		"cabal-update", "fresh2: stored")
	h.ask("cabal-base", "basalt", "linux", "cabal build",
		"Resolving dependencies...\nError: cabal: Could not resolve dependencies:\n[__0] trying: basalt-0.3.0 (user goal)\n[__1] next goal: base (dependency of basalt)\n[__1] rejecting: base-4.17.2.1/installed-4.17.2.1 (conflict: basalt => base>=4.18 && <5)\n[__1] skipping: base-4.20.0.0, base-4.19.1.0, base-4.18.2.1 (has the same characteristics that caused the previous version to fail: excluded by constraint '>=4.18 && <5' from 'basalt')\n[__1] fail (backjumping, conflict set: base, basalt)\n",
		"", "fresh2: same tool, another error")

	h.note(Note{ID: "dune-yojson", Project: "basalt", OS: "darwin", Lang: "ocaml", At: day(2024, 4, 30),
		Title:   "dune: Unbound module Yojson",
		What:    "`Error: Unbound module Yojson` in bin/export.ml, though opam list shows yojson installed.",
		Why:     "Installed isn't enough: the library must be in the stanza's (libraries ...) in bin/dune.",
		Where:   "bin/dune",
		Learned: "(libraries basalt yojson) — and add yojson to depends in basalt.opam / dune-project."})
	h.ask("dune-yojson/1", "basalt", "darwin", "dune build",
		"File \"bin/export.ml\", line 12, characters 12-33:\n12 |   let json = Yojson.Safe.to_string doc in\n                 ^^^^^^^^^^^^^^^^^^^^^\nError: Unbound module Yojson\n",
		"dune-yojson", "fresh2: stored")
	h.ask("dune-lwt", "basalt", "darwin", "dune build",
		"File \"bin/serve.ml\", line 4, characters 2-16:\n4 |   Lwt_unix.sleep 0.5\n      ^^^^^^^^^^^^^^\nError: Unbound module Lwt_unix\nHint: Did you mean Unix?\n",
		"", "fresh2: same message, another object")

	h.note(Note{ID: "zig-lazypath", Project: "basalt", OS: "linux", Lang: "zig", At: day(2024, 6, 12),
		Title:   "build.zig after the Zig 0.12 upgrade",
		What:    "zig build stopped at build.zig: no field named 'path' in union 'Build.LazyPath' on .root_source_file = .{ .path = \"src/main.zig\" }.",
		Why:     "0.12 removed LazyPath.path; paths relative to the build root go through b.path().",
		Where:   "build.zig",
		Learned: "Write .root_source_file = b.path(\"src/main.zig\") (same for addIncludePath etc.)."})
	h.ask("zig-lazypath/1", "basalt", "linux", "zig build test",
		"/home/ci/build/basalt/zig/build.zig:18:35: error: no field named 'path' in union 'Build.LazyPath'\n        .root_source_file = .{ .path = \"src/tests.zig\" },\n                                  ^~~~\n/home/ci/.cache/zig/p/zig-0.12.0/lib/std/Build.zig:2171:22: note: union declared here\npub const LazyPath = union(enum) {\n                     ^~~~~\n",
		"zig-lazypath", "fresh2: stored")
	h.ask("zig-usize", "basalt", "linux", "zig build",
		"src/rle.zig:22:30: error: expected type 'u32', found 'usize'\n        const n: u32 = run.len;\n                       ~~~^~~~\nsrc/rle.zig:22:30: note: unsigned 32-bit int cannot represent all possible unsigned 64-bit values\n",
		"", "fresh2: same tool, another error")

	h.note(Note{ID: "r-sf-gdal", Project: "quokka", OS: "linux", Lang: "r", At: day(2023, 11, 21),
		Title:   "install.packages('sf') fails on the Ubuntu server",
		What:    "configure: error: gdal-config not found or not executable.",
		Why:     "sf compiles against GDAL, GEOS and PROJ and the server only had R.",
		Learned: "Install the dev packages first (or use r2u / Posit binaries to skip compiling).",
		Fix:     "sudo apt-get install -y libgdal-dev libgeos-dev libproj-dev libudunits2-dev"})
	h.ask("r-sf-gdal/1", "quokka", "linux", "Rscript -e 'install.packages(\"sf\")'",
		"* installing *source* package ‘sf’ ...\n** package ‘sf’ successfully unpacked and MD5 sums checked\n** using staged installation\nconfigure: CC: gcc\nconfigure: CXX: g++ -std=gnu++17\nchecking for gdal-config... no\nno\nconfigure: error: gdal-config not found or not executable.\nERROR: configuration failed for package ‘sf’\n* removing ‘/usr/local/lib/R/site-library/sf’\n\nThe downloaded source packages are in\n\t‘/tmp/RtmpX1b2c3/downloaded_packages’\nWarning message:\nIn install.packages(\"sf\") :\n  installation of package ‘sf’ had non-zero exit status\n",
		"r-sf-gdal", "fresh2: stored")
	h.ask("r-datatable", "quokka", "linux", "Rscript analysis/weekly.R",
		"Error in library(data.table) : there is no package called ‘data.table’\nExecution halted\n",
		"", "fresh2: same kind, another package")

	h.note(Note{ID: "julia-project", Project: "quokka", OS: "darwin", Lang: "julia", At: day(2025, 2, 25),
		Title: "julia scripts can't see the project's packages",
		What: "`ERROR: LoadError: ArgumentError: Package CSV not found in current path.` when running scripts/fit.jl, but the package is in Project.toml. " +
			"Same for any package of the project.",
		Why:     "Without --project the script runs in the default @v1.x environment, not quokka's.",
		Learned: "Run scripts with julia --project=. (or set JULIA_PROJECT=@.); instantiate once after cloning.",
		Fix:     "julia --project=. -e 'using Pkg; Pkg.instantiate()'"})
	h.ask("julia-project/1", "quokka", "darwin", "julia scripts/fit.jl",
		"ERROR: LoadError: ArgumentError: Package CSV not found in current path.\n- Run `import Pkg; Pkg.add(\"CSV\")` to install the CSV package.\nStacktrace:\n [1] macro expansion\n   @ ./loading.jl:1842 [inlined]\n [2] macro expansion\n   @ ./lock.jl:267 [inlined]\n [3] __require(into::Module, mod::Symbol)\n   @ Base ./loading.jl:1823\nin expression starting at /Users/kim/code/quokka/scripts/fit.jl:1\n",
		"julia-project", "fresh2: stored")
	h.ask("julia-project/other-pkg", "quokka", "linux", "julia scripts/report.jl",
		"ERROR: LoadError: ArgumentError: Package DataFrames not found in current path.\n- Run `import Pkg; Pkg.add(\"DataFrames\")` to install the DataFrames package.\nStacktrace:\n [1] macro expansion\n   @ ./loading.jl:1842 [inlined]\nin expression starting at /home/ci/build/quokka/scripts/report.jl:2\n",
		"julia-project", "fresh2: stored, the note's 'any package', another system")

	h.note(Note{ID: "ssh-key-perms-linux", Project: "osprey", OS: "linux", Lang: "bash", At: day(2024, 2, 27),
		Title:   "deploy key rejected: UNPROTECTED PRIVATE KEY FILE",
		What:    "ssh -i deploy/osprey_deploy says the permissions 0644 are too open and ignores the key, then Permission denied.",
		Why:     "The key came out of the secrets tarball with 0644.",
		Learned: "ssh refuses keys readable by others.",
		Fix:     "chmod 600 deploy/osprey_deploy"})
	h.note(Note{ID: "ssh-key-perms-win", Project: "osprey", OS: "windows", Lang: "powershell", At: day(2024, 3, 4),
		Title:   "same unprotected key warning on Windows",
		What:    "WARNING: UNPROTECTED PRIVATE KEY FILE! from Windows OpenSSH for the deploy key.",
		Why:     "chmod does nothing on NTFS; Windows OpenSSH checks the ACL, and the file inherited read access for Users.",
		Learned: "Strip inherited ACLs and grant only the current user.",
		Fix:     "icacls deploy\\osprey_deploy /inheritance:r /grant:r \"%USERNAME%:R\""})
	h.ask("ssh-key-perms/linux", "osprey", "linux", "ssh -i deploy/osprey_deploy deploy@osprey-prod-1",
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\nPermissions 0644 for 'deploy/osprey_deploy' are too open.\nIt is required that your private key files are NOT accessible by others.\nThis private key will be ignored.\nLoad key \"deploy/osprey_deploy\": bad permissions\ndeploy@osprey-prod-1: Permission denied (publickey).\n",
		"ssh-key-perms-linux", "fresh2: twin on another system")
	h.ask("ssh-key-perms/win", "osprey", "windows", "ssh -i deploy\\osprey_deploy deploy@osprey-prod-1",
		crlf("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\nPermissions for 'deploy\\\\osprey_deploy' are too open.\nIt is required that your private key files are NOT accessible by others.\nThis private key will be ignored.\nLoad key \"deploy\\\\osprey_deploy\": bad permissions\ndeploy@osprey-prod-1: Permission denied (publickey).\n"),
		"ssh-key-perms-win", "fresh2: twin on another system, CRLF")
}

// fresh2NeverStored are failures of these ecosystems no note is about.
func fresh2NeverStored(h *hand) {
	h.ask("gcloud-run-perm", "osprey", "linux", "gcloud run deploy osprey-api --source . --region europe-west1",
		"ERROR: (gcloud.run.deploy) PERMISSION_DENIED: Permission 'run.services.update' denied on resource 'namespaces/osprey-prod/services/osprey-api' (or resource may not exist). This command is authenticated as ci-deployer@osprey-prod.iam.gserviceaccount.com which is the active account specified by the [core/account] property.\n", "", "fresh2: never stored")
	h.ask("flutter-namespace", "tundra", "darwin", "flutter run",
		"FAILURE: Build failed with an exception.\n\n* What went wrong:\nA problem occurred configuring project ':flutter_barcode_scanner'.\n> Could not create an instance of type com.android.build.api.variant.impl.LibraryVariantBuilderImpl.\n   > Namespace not specified. Specify a namespace in the module's build file. See https://d.android.com/r/tools/upgrade-assistant/set-namespace for information about setting the namespace.\n\nBUILD FAILED in 3s\nError: Gradle task assembleDebug failed with exit code 1\n", "", "fresh2: never stored")
	h.ask("uv-python-missing", "pumice", "windows", "uv sync",
		crlf("error: No interpreter found for Python >=3.13 in virtual environments, managed installations, search path, or registry\n"), "", "fresh2: never stored")
}
