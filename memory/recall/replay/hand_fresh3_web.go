package replay

// The web front end of the unseen part (see handFresh3), and its
// failures no note is about.

func unseenWeb(h *hand) {
	h.note(Note{ID: "rollup-optional-deps", Project: "nettle", OS: "linux", Lang: "javascript", At: day(2024, 3, 19),
		Title:   "vite build in CI: Cannot find module @rollup/rollup-linux-x64-gnu",
		What:    "CI's vite build died at startup: Error: Cannot find module @rollup/rollup-linux-x64-gnu. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828).",
		Why:     "package-lock.json had been regenerated on a Mac after deleting node_modules, and that npm bug drops the other platforms' optional native packages from the lock.",
		Learned: "Regenerate the lockfile from scratch (delete both node_modules and the lock) and commit it; check the lock diff still lists @rollup/rollup-* for every platform.",
		Fix:     "rm -rf node_modules package-lock.json && npm install && git add package-lock.json"})
	rollup := func(root, pkg string) string {
		return "\n> nettle@0.9.0 build\n> vite build\n\n" + root + "/node_modules/rollup/dist/native.js:59\n\t\tthrow new Error(\n\t\t      ^\n\nError: Cannot find module @rollup/rollup-" + pkg + ". npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). Please try `npm i` again after removing both package-lock.json and node_modules directory.\n    at requireWithFriendlyError (" + root + "/node_modules/rollup/dist/native.js:59:9)\n    at Object.<anonymous> (" + root + "/node_modules/rollup/dist/native.js:68:76)\n    ... 3 lines matching cause stack trace ...\n    at Module._load (node:internal/modules/cjs/loader:1023:12) {\n  [cause]: Error: Cannot find module '@rollup/rollup-" + pkg + "'\n  Require stack:\n  - " + root + "/node_modules/rollup/dist/native.js\n      at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)\n    code: 'MODULE_NOT_FOUND',\n}\n\nNode.js v20.11.1\n"
	}
	h.ask("rollup-optional/linux", "nettle", "linux", "npm run build", rollup("/home/ci/build/nettle", "linux-x64-gnu"), "rollup-optional-deps", "unseen: stored")
	h.ask("rollup-optional/mac", "nettle", "darwin", "npm run build", rollup("/Users/kim/code/nettle", "darwin-arm64"), "rollup-optional-deps", "unseen: stored, another platform's package")
	h.ask("rollup-optional/windows", "nettle", "windows", "npm run build",
		crlf(rollup(`C:\Users\dev\src\nettle`, "win32-x64-msvc")), "rollup-optional-deps", "unseen: stored, another platform's package, CRLF")

	h.note(Note{ID: "inotify-watches", Project: "nettle", Scope: "global", OS: "linux", Lang: "javascript", At: day(2023, 6, 6),
		Title:   "ENOSPC: System limit for number of file watchers reached",
		What:    "vite dev on my Linux box crashed with Error: ENOSPC: System limit for number of file watchers reached, watch '…'",
		Why:     "Not disk space: fs.inotify.max_user_watches is 8192 by default on Ubuntu 20.04, and VS Code plus the dev server watching the tree use them up.",
		Learned: "Raise the limit persistently with a sysctl.d file.",
		Fix:     "echo fs.inotify.max_user_watches=524288 | sudo tee /etc/sysctl.d/40-max-user-watches.conf && sudo sysctl --system"})
	h.ask("inotify/vite", "nettle", "linux", "npm run dev",
		"\n  VITE v4.3.9  ready in 612 ms\n\n  ➜  Local:   http://localhost:5173/\n  ➜  Network: use --host to expose\nnode:internal/fs/watchers:247\n    const error = new UVException({\n                  ^\n\nError: ENOSPC: System limit for number of file watchers reached, watch '/home/dev/src/nettle/src/components/forms'\n    at FSWatcher.<computed> (node:internal/fs/watchers:247:19)\n    at Object.watch (node:fs:2343:36)\n  errno: -28,\n  syscall: 'watch',\n  code: 'ENOSPC',\n  path: '/home/dev/src/nettle/src/components/forms',\n  filename: '/home/dev/src/nettle/src/components/forms'\n}\n",
		"inotify-watches", "unseen: stored")
	h.ask("inotify/phoenix", "gossamer", "linux", "mix phx.server",
		"[info] Running GossamerWeb.Endpoint with cowboy 2.10.0 at 127.0.0.1:4000 (http)\nFailed to watch /home/dev/src/gossamer; upper limit on inotify watches reached!\nPlease increase the amount of inotify watches allowed per user via `/proc/sys/fs/inotify/max_user_watches'.\n[error] `inotify-tools` is needed to run `file_system` for your system, check https://github.com/rvoicilas/inotify-tools/wiki for more information about how to install it. If it's already installed but not be found, appoint executable file with `config.exs` or `FILESYSTEM_FSINOTIFY_EXECUTABLE_FILE` env.\n[warning] Could not start Phoenix live-reload because we cannot listen to the file system.\n",
		"inotify-watches", "unseen: global note, another project and tool")
	h.ask("enospc-disk", "nettle", "linux", "npm ci",
		"npm error code ENOSPC\nnpm error syscall write\nnpm error errno -28\nnpm error nospc ENOSPC: no space left on device, write\nnpm error nospc There appears to be insufficient space on your system to finish.\nnpm error nospc Clear up some disk space and try again.\nnpm error A complete log of this run can be found in: /home/dev/.npm/_logs/2024-09-10T07_41_22_019Z-debug-0.log\n",
		"", "unseen: same text, another cause")

	h.note(Note{ID: "husky-rc", Project: "nettle", OS: "darwin", Lang: "javascript", At: day(2021, 11, 30),
		Title:   "commits from GitHub Desktop fail the husky hook",
		What:    "Committing from GitHub Desktop (the terminal is fine): `.husky/pre-commit: line 4: npx: command not found`, then husky - pre-commit hook exited with code 127 (error).",
		Why:     "GUI apps don't load my shell profile, so nvm's node isn't on the hooks' PATH.",
		Learned: "husky sources ~/.huskyrc before each hook: load nvm there.",
		Fix:     "echo 'export NVM_DIR=\"$HOME/.nvm\"; . \"$NVM_DIR/nvm.sh\"' >> ~/.huskyrc"})
	h.note(Note{ID: "husky-init-sh", Project: "nettle", OS: "darwin", Lang: "javascript", At: day(2024, 4, 16), ProseOver: "husky-rc",
		Title:   "husky 9: ~/.huskyrc is ignored, use ~/.config/husky/init.sh",
		What:    "The `npx: command not found` hook failure from GUI git clients is back since the upgrade to husky 9.",
		Why:     "husky 9 doesn't read ~/.huskyrc any more (deprecated in v8, gone in v9), so the old fix silently stopped working.",
		Learned: "Move the nvm lines to ~/.config/husky/init.sh, which husky 9 sources before every hook.",
		Fix:     "mkdir -p ~/.config/husky && printf 'export NVM_DIR=\"$HOME/.nvm\"\\n. \"$NVM_DIR/nvm.sh\"\\n' > ~/.config/husky/init.sh"})
	h.ask("husky/desktop", "nettle", "darwin", "git commit -m 'forms: inline errors'",
		".husky/pre-commit: line 1: npx: command not found\nhusky - pre-commit script failed (code 127)\n",
		"husky-init-sh", "unseen: superseded in prose", "husky-rc")
	h.ask("husky/sourcetree", "nettle", "darwin", "git -c diff.mnemonicprefix=false -c core.quotepath=false --no-optional-locks commit -q -F /var/folders/7x/k2m1_9qs3bd0r4l8y6t0000gn/T/SourceTreeTemp.vdXr2K",
		".husky/pre-commit: line 1: pnpm: command not found\nhusky - pre-commit script failed (code 127)\nCompleted with errors, see above\n",
		"husky-init-sh", "unseen: superseded in prose, another binary", "husky-rc")
	h.ask("husky-no-git", "nettle", "linux", "npm ci",
		"\n> nettle@0.9.0 prepare\n> husky\n\nhusky - .git can't be found\nnpm error code 1\nnpm error path /app\nnpm error command failed\nnpm error command sh -c husky\n",
		"", "unseen: same tool, another error")

	h.note(Note{ID: "pw-snapshots-platform", Project: "nettle", OS: "linux", Lang: "typescript", At: day(2025, 8, 12),
		Title:   "visual tests red in CI: snapshot doesn't exist (-linux.png)",
		What:    "Every toHaveScreenshot test in CI: `A snapshot doesn't exist at …/home.spec.ts-snapshots/hero-chromium-linux.png, writing actual.`",
		Why:     "The baselines were recorded on Macs, so only *-chromium-darwin.png files were committed. Playwright keys snapshots by platform, and font rendering differs anyway.",
		Learned: "Record baselines in the Playwright Docker image (same as CI) and commit the -linux files; never update them on a Mac.",
		Fix:     "docker run --rm -v $PWD:/work -w /work mcr.microsoft.com/playwright:v1.46.0-jammy npx playwright test --update-snapshots"})
	h.ask("pw-snapshots/ci", "nettle", "linux", "npx playwright test tests/visual",
		"Running 18 tests using 2 workers\n\n  1) [chromium] › tests/visual/home.spec.ts:5:7 › home › hero renders ─────────────────────────────\n\n    Error: A snapshot doesn't exist at /home/ci/build/nettle/tests/visual/home.spec.ts-snapshots/hero-chromium-linux.png, writing actual.\n\n       5 |   test('hero renders', async ({ page }) => {\n       6 |     await page.goto('/');\n    >  7 |     await expect(page.locator('.hero')).toHaveScreenshot('hero.png');\n         |                                         ^\n       8 |   });\n\n  2) [chromium] › tests/visual/pricing.spec.ts:9:7 › pricing › table ───────────────────────────\n\n    Error: A snapshot doesn't exist at /home/ci/build/nettle/tests/visual/pricing.spec.ts-snapshots/table-chromium-linux.png, writing actual.\n\n  6 failed\n    [chromium] › tests/visual/home.spec.ts:5:7 › home › hero renders\n    [chromium] › tests/visual/pricing.spec.ts:9:7 › pricing › table\n  12 passed (41.3s)\n",
		"pw-snapshots-platform", "unseen: stored")

	h.note(Note{ID: "webpack-md4", Project: "nettle", OS: "darwin", Lang: "javascript", At: day(2022, 1, 11),
		Title:   "admin build: error:0308010C digital envelope routines unsupported",
		What:    "After installing Node 17 the admin app (webpack 4) won't build: Error: error:0308010C:digital envelope routines::unsupported",
		Why:     "Node 17 ships OpenSSL 3, which disables md4, and webpack 4 hashes modules with md4.",
		Learned: "Enable the legacy OpenSSL provider for the build.",
		Fix:     "export NODE_OPTIONS=--openssl-legacy-provider"})
	h.note(Note{ID: "webpack5-hash", Project: "nettle", OS: "darwin", Lang: "javascript", At: day(2024, 9, 3), ProseOver: "webpack-md4",
		Title: "0308010C in the admin build: webpack 5 with xxhash64, no legacy provider",
		What:  "The admin build fails with error:0308010C:digital envelope routines::unsupported again after the Node 20 image switch.",
		Why: "The NODE_OPTIONS=--openssl-legacy-provider workaround is banned now: the security review flagged it (it re-enables MD4 and other legacy algorithms for the " +
			"whole process) and the build image no longer sets it. webpack 5.61+ has its own md4, and output.hashFunction 'xxhash64' avoids it altogether.",
		Learned: "Admin app moved to webpack 5 with output.hashFunction = 'xxhash64'; NODE_OPTIONS removed everywhere.",
		Fix:     "npm install -D webpack@^5.94.0 webpack-cli@^5 && npm run build:admin"})
	h.ask("webpack-md4/1", "nettle", "darwin", "npm run build:admin",
		"\n> nettle-admin@1.8.2 build\n> webpack --mode production\n\nnode:internal/crypto/hash:79\n  this[kHandle] = new _Hash(algorithm, xofLen, algorithmId, getHashCache());\n                  ^\n\nError: error:0308010C:digital envelope routines::unsupported\n    at new Hash (node:internal/crypto/hash:79:19)\n    at Object.createHash (node:crypto:139:10)\n    at module.exports (/Users/kim/code/nettle/admin/node_modules/webpack/lib/util/createHash.js:135:53)\n    at NormalModule._initBuildHash (/Users/kim/code/nettle/admin/node_modules/webpack/lib/NormalModule.js:417:16)\n    at handleParseError (/Users/kim/code/nettle/admin/node_modules/webpack/lib/NormalModule.js:471:10)\n  opensslErrorStack: [ 'error:03000086:digital envelope routines::initialization error' ],\n  library: 'digital envelope routines',\n  reason: 'unsupported',\n  code: 'ERR_OSSL_EVP_UNSUPPORTED'\n}\n\nNode.js v20.17.0\n",
		"webpack5-hash", "unseen: superseded in prose, stack trace", "webpack-md4")
	h.ask("webpack-md4/docker", "nettle", "linux", "docker build -f admin/Dockerfile -t nettle-admin:ci .",
		"#12 [build 5/5] RUN npm run build\n#12 0.802 > nettle-admin@1.8.2 build\n#12 0.802 > webpack --mode production\n#12 4.211 Error: error:0308010C:digital envelope routines::unsupported\n#12 4.211     at new Hash (node:internal/crypto/hash:79:19)\n#12 4.211     at Object.createHash (node:crypto:139:10)\n#12 4.211     at module.exports (/app/admin/node_modules/webpack/lib/util/createHash.js:135:53)\n#12 4.213   code: 'ERR_OSSL_EVP_UNSUPPORTED'\n#12 ERROR: process \"/bin/sh -c npm run build\" did not complete successfully: exit code: 1\n",
		"webpack5-hash", "unseen: superseded in prose, docker build log", "webpack-md4")
	h.ask("webpack-md4/rookery", "rookery", "linux", "npm run build:web",
		"\n> rookery@2.2.0 build:web\n> react-scripts build\n\nCreating an optimized production build...\nError: error:0308010C:digital envelope routines::unsupported\n    at new Hash (node:internal/crypto/hash:69:19)\n    at Object.createHash (node:crypto:133:10)\n    at module.exports (/home/ci/build/rookery/node_modules/webpack/lib/util/createHash.js:135:53)\n  opensslErrorStack: [ 'error:03000086:digital envelope routines::initialization error' ],\n  code: 'ERR_OSSL_EVP_UNSUPPORTED'\n}\n\nNode.js v18.19.0\n",
		"", "unseen: another project's project note")

	h.note(Note{ID: "runner-root-files", Project: "nettle", OS: "linux", Lang: "yaml", At: day(2024, 11, 19),
		Title:   "checkout fails on the self-hosted runner: EACCES on dist/",
		What:    "actions/checkout on runner-03 can't clean the workspace: EACCES: permission denied, unlink '/home/runner/actions-runner/_work/nettle/nettle/dist/assets/index-4f2a9c.js'",
		Why:     "The e2e job builds inside a docker container as root and writes dist/ into the mounted workspace; the next job's runner user can't delete root-owned files.",
		Where:   ".github/workflows/e2e.yml",
		Learned: "Run the container with --user $(id -u):$(id -g); chown once to clean up the runners already affected.",
		Fix:     "sudo chown -R runner:runner /home/runner/actions-runner/_work/nettle"})
	h.ask("runner-root-files/1", "nettle", "linux", "gh run view 11988230114 --log-failed",
		"build\tRun actions/checkout@v4\t2024-12-02T10:20:14.5510231Z Syncing repository: nettle-web/nettle\nbuild\tRun actions/checkout@v4\t2024-12-02T10:20:14.5521011Z ##[group]Getting Git version info\nbuild\tRun actions/checkout@v4\t2024-12-02T10:20:14.5588120Z ##[endgroup]\nbuild\tRun actions/checkout@v4\t2024-12-02T10:20:14.5601203Z Deleting the contents of '/home/runner/actions-runner/_work/nettle/nettle'\nbuild\tRun actions/checkout@v4\t2024-12-02T10:20:14.5790442Z ##[error]File was unable to be removed Error: EACCES: permission denied, rmdir '/home/runner/actions-runner/_work/nettle/nettle/dist/assets'\n",
		"runner-root-files", "unseen: stored, another file")
	h.ask("npm-global-eacces", "nettle", "linux", "npm install -g pnpm@9",
		"npm error code EACCES\nnpm error syscall mkdir\nnpm error path /usr/lib/node_modules/pnpm\nnpm error errno -13\nnpm error Error: EACCES: permission denied, mkdir '/usr/lib/node_modules/pnpm'\nnpm error     at async mkdir (node:internal/fs/promises:858:10)\nnpm error  {\nnpm error   errno: -13,\nnpm error   code: 'EACCES',\nnpm error   syscall: 'mkdir',\nnpm error   path: '/usr/lib/node_modules/pnpm'\nnpm error }\nnpm error\nnpm error The operation was rejected by your operating system.\n",
		"", "unseen: same text, another cause")

	h.note(Note{ID: "lfs-not-pointers", Project: "nettle", OS: "darwin", Lang: "git", At: day(2025, 6, 3),
		Title:   "pushing: files that should have been pointers",
		What:    "git lfs complained that two PNGs under docs/img \"should have been pointers, but weren't\" and the pre-push check failed.",
		Why:     "They were committed from a GUI client without LFS, so .gitattributes matched but the files went in as plain blobs.",
		Learned: "Convert just those files in place; --no-rewrite adds a commit instead of rewriting history.",
		Fix:     "git lfs migrate import --no-rewrite docs/img/architecture.png docs/img/flows.png"})
	h.ask("lfs-not-pointers/fsck", "nettle", "darwin", "git lfs fsck --pointers",
		"pointer: unexpectedGitObject: \"docs/img/flows.png\" (treeish 4d1f0a2) should have been a pointer but was not\npointer: unexpectedGitObject: \"docs/img/architecture.png\" (treeish 4d1f0a2) should have been a pointer but was not\n",
		"lfs-not-pointers", "unseen: stored, paraphrased note")
	h.ask("lfs-not-pointers/checkout", "nettle", "linux", "git checkout release/0.9",
		"Encountered 1 file(s) that should have been pointers, but weren't:\n\tdocs/img/flows.png\nerror: Your local changes to the following files would be overwritten by checkout:\n\tdocs/img/flows.png\nPlease commit your changes or stash them before you switch branches.\nAborting\n",
		"lfs-not-pointers", "unseen: stored, another system")

	h.note(Note{ID: "nettle-e2e-preview", Project: "nettle", OS: "linux", Lang: "typescript", At: day(2025, 3, 10), Type: "decision", NoFailure: true,
		Title:   "E2E runs against the preview deployment",
		What:    "Playwright's baseURL comes from PREVIEW_URL in CI; the e2e job waits for the Vercel preview instead of starting a local server.",
		Why:     "The local webServer in CI kept diverging from what users get (env, edge middleware).",
		Learned: "Locally, npm run e2e:local still uses localhost:4173."})
	h.ask("pw-conn-refused", "nettle", "linux", "npx playwright test",
		"Running 42 tests using 4 workers\n\n  1) [chromium] › tests/checkout.spec.ts:12:5 › checkout › pays with card ───────────────────────\n\n    Error: page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:4173/\n    Call log:\n      - navigating to \"http://localhost:4173/\", waiting until \"load\"\n\n      12 |   test('pays with card', async ({ page }) => {\n    > 13 |     await page.goto('/');\n         |                ^\n\n  42 failed\n",
		"", "unseen: a note that describes no failure")
}

// unseenNeverStored are failures of these projects no note is about.
func unseenNeverStored(h *hand) {
	h.ask("compose-unresolved", "anvil", "darwin", "./gradlew :app:compileDebugKotlin",
		"e: file:///Users/kim/code/anvil/app/src/main/java/com/anvil/ui/HomeScreen.kt:48:13 Unresolved reference: collectAsStateWithLifecycle\ne: file:///Users/kim/code/anvil/app/src/main/java/com/anvil/ui/HomeScreen.kt:52:9 Unresolved reference: LaunchedEffect\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:compileDebugKotlin'.\n> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction\n   > Compilation error. See log for more details\n",
		"", "unseen: never stored")
	h.ask("java-kyiv", "lodestar", "linux", "java -jar build/libs/lodestar-0.14.0.jar",
		"Exception in thread \"main\" java.time.zone.ZoneRulesException: Unknown time-zone ID: Europe/Kyiv\n\tat java.base/java.time.zone.ZoneRulesProvider.getProvider(ZoneRulesProvider.java:279)\n\tat java.base/java.time.zone.ZoneRulesProvider.getRules(ZoneRulesProvider.java:234)\n\tat java.base/java.time.ZoneRegion.ofId(ZoneRegion.java:120)\n\tat java.base/java.time.ZoneId.of(ZoneId.java:408)\n\tat io.lodestar.billing.Calendars.<clinit>(Calendars.java:17)\n",
		"", "unseen: never stored")
	h.ask("kafka-group-auth", "lodestar", "linux", "kubectl logs deploy/lodestar-invoices -n lodestar --tail=15",
		"2024-08-19T12:01:33.904Z ERROR 1 --- [ntainer#0-0-C-1] o.s.k.l.KafkaMessageListenerContainer    : Authorization Exception and no authorizationExceptionRetryInterval set\n\norg.apache.kafka.common.errors.GroupAuthorizationException: Not authorized to access group: lodestar-invoices\n",
		"", "unseen: never stored")
	h.ask("xcode-destination", "bellwether", "darwin", "xcodebuild test -scheme Bellwether -destination 'platform=iOS Simulator,OS=17.0,name=iPhone 15'",
		"xcodebuild: error: Unable to find a destination matching the provided destination specifier:\n\t\t{ platform:iOS Simulator, OS:17.0, name:iPhone 15 }\n\n\tThe requested device could not be found because no available devices matched the request.\n\n\tAvailable destinations for the \"Bellwether\" scheme:\n\t\t{ platform:macOS, arch:arm64, variant:Designed for [iPad,iPhone], id:00006000-001A2C3E0E42801E, name:My Mac }\n\t\t{ platform:iOS Simulator, id:7D1F4C2B-8E3A-4B6C-9D1E-2F3A4B5C6D7E, OS:17.5, name:iPhone 15 }\n",
		"", "unseen: never stored")
	h.ask("cs1061", "cairn", "windows", "dotnet build -c Release",
		crlf("C:\\Users\\dev\\src\\cairn\\src\\Cairn.Api\\Endpoints\\Invoices.cs(27,39): error CS1061: 'HttpContext' does not contain a definition for 'GetTenantId' and no accessible extension method 'GetTenantId' accepting a first argument of type 'HttpContext' could be found (are you missing a using directive or an assembly reference?) [C:\\Users\\dev\\src\\cairn\\src\\Cairn.Api\\Cairn.Api.csproj]\n\nBuild FAILED.\n    0 Warning(s)\n    1 Error(s)\n"),
		"", "unseen: never stored")
	h.ask("laravel-db-refused", "driftwood", "darwin", "php artisan migrate",
		"\n   Illuminate\\Database\\QueryException \n\n  SQLSTATE[HY000] [2002] Connection refused (Connection: mysql, SQL: select table_name as `name`, (data_length + index_length) as `size` from information_schema.tables where table_schema = 'driftwood')\n\n  at vendor/laravel/framework/src/Illuminate/Database/Connection.php:825\n",
		"", "unseen: never stored")
	h.ask("nginx-cert", "driftwood", "linux", "sudo nginx -t",
		"nginx: [emerg] cannot load certificate \"/etc/letsencrypt/live/driftwood.example/fullchain.pem\": BIO_new_file() failed (SSL: error:80000002:system library::No such file or directory:calling fopen(/etc/letsencrypt/live/driftwood.example/fullchain.pem, r) error:10000080:BIO routines::no such file)\nnginx: configuration file /etc/nginx/nginx.conf test failed\n",
		"", "unseen: never stored")
	h.ask("redis-wrongtype", "fenwick", "linux", "bin/rails runner 'Leaderboard.rebuild!'",
		"/usr/local/bundle/gems/redis-client-0.22.1/lib/redis_client/connection_mixin.rb:33:in `call': WRONGTYPE Operation against a key holding the wrong kind of value (RedisClient::CommandError)\n\tfrom /app/app/models/leaderboard.rb:14:in `rebuild!'\n",
		"", "unseen: never stored")
	h.ask("gemfile-syntax", "fenwick", "darwin", "bundle install",
		"[!] There was an error parsing `Gemfile`: syntax error, unexpected end-of-input, expecting `end'. Bundler cannot continue.\n\n #  from /Users/kim/code/fenwick/Gemfile:48\n #  -------------------------------------------\n #  group :development, :test do\n >    gem \"rspec-rails\", \"~> 6.1\"\n #  -------------------------------------------\n",
		"", "unseen: generic names only (Gemfile)")
	h.ask("dialyzer", "gossamer", "linux", "mix dialyzer",
		"Finding suitable PLTs\nChecking PLT...\nStarting Dialyzer\nTotal errors: 1, Skipped: 0, Unnecessary Skips: 0\ndone in 0m7.41s\nlib/gossamer/billing.ex:42:pattern_match\nThe pattern can never match the type.\n\nPattern:\n{:ok, _invoice}\n\nType:\n{:error, :not_found}\n\n________________________________________________________________________________\ndone (warnings were emitted)\nHalting VM with exit status 2\n",
		"", "unseen: never stored")
	h.ask("k8s-ingress-field", "hollow", "linux", "kubectl apply -f k8s/ingress.yaml",
		"error: error validating \"k8s/ingress.yaml\": error validating data: ValidationError(Ingress.spec.rules[0].http.paths[0].backend): unknown field \"serviceName\" in io.k8s.api.networking.v1.IngressBackend; if you choose to ignore these errors, turn validation off with --validate=false\n",
		"", "unseen: never stored")
	h.ask("systemd-bad-setting", "oxbow", "linux", "sudo systemctl start oxbow-backup.service",
		"Failed to start oxbow-backup.service: Unit oxbow-backup.service has a bad unit file setting.\nSee system logs and 'systemctl status oxbow-backup.service' for details.\n",
		"", "unseen: never stored")
	h.ask("dockerfile-missing", "inkwell", "linux", "docker build -t inkwell-daemon -f daemon/Dockerfile .",
		"[+] Building 0.1s (1/1) FINISHED                                 docker:default\n => [internal] load build definition from Dockerfile              0.0s\n => => transferring dockerfile: 2B                                0.0s\nERROR: failed to solve: failed to read dockerfile: open Dockerfile: no such file or directory\n",
		"", "unseen: generic names only (Dockerfile)")
	h.ask("pandas-keyerror", "meadow", "linux", "python -m meadow.reports.daily",
		"Traceback (most recent call last):\n  File \"/app/meadow/reports/daily.py\", line 52, in build\n    df[\"net_revenue\"] = df[\"gross\"] - df[\"refunds\"]\n  File \"/usr/local/lib/python3.11/site-packages/pandas/core/frame.py\", line 4102, in __getitem__\n    indexer = self.columns.get_loc(key)\n  File \"/usr/local/lib/python3.11/site-packages/pandas/core/indexes/base.py\", line 3812, in get_loc\n    raise KeyError(key) from err\nKeyError: 'refunds'\n",
		"", "unseen: never stored")
	h.ask("vite-virtual-pwa", "nettle", "linux", "npm run build",
		"vite v5.2.8 building for production...\n✓ 412 modules transformed.\nx Build failed in 2.81s\nerror during build:\n[vite]: Rollup failed to resolve import \"virtual:pwa-register\" from \"/home/ci/build/nettle/src/main.ts\".\nThis is most likely unintended because it can break your application at runtime.\nIf you do want to externalize this module explicitly add it to\n`build.rollupOptions.external`\n",
		"", "unseen: never stored")
	h.ask("pw-browser-closed", "nettle", "darwin", "npx playwright test tests/upload.spec.ts --headed",
		"  1) [webkit] › tests/upload.spec.ts:18:5 › upload › large csv ─────────────────────────────────\n\n    Error: page.setInputFiles: Target page, context or browser has been closed\n\n      20 |     await page.setInputFiles('input[type=file]', 'fixtures/suppliers-big.csv');\n         |                ^\n\n  1 failed\n",
		"", "unseen: never stored")
	h.ask("rust-cfg-windows", "inkwell", "windows", "cargo test -p inkwell-core",
		crlf("   Compiling inkwell-core v0.8.2 (C:\\Users\\dev\\src\\inkwell\\core)\nerror[E0433]: failed to resolve: could not find `unix` in `os`\n --> core\\src\\ipc.rs:3:14\n  |\n3 | use std::os::unix::net::UnixStream;\n  |              ^^^^ could not find `unix` in `os`\n\nerror: could not compile `inkwell-core` (lib) due to 1 previous error\n"),
		"", "unseen: never stored")
}
