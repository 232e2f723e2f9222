package replay

// handHeldOut are the hand cases of the held-out part: written before any
// tuning on the hand cases, and only ever reported.
func handHeldOut() ([]Note, []Query) {
	h := &hand{split: HeldOut}
	h.note(Note{ID: "vite-alias", Project: "atlas-web", OS: "linux", Lang: "typescript", At: day(2024, 5, 6),
		Title:   "vite can't resolve the @ alias",
		What:    "Dev server overlay: [vite] Internal server error: Failed to resolve import \"@/lib/api\" from \"src/pages/Home.tsx\". Does the file exist?",
		Why:     "tsconfig paths only tell tsc about @/*; vite needs its own resolve.alias.",
		Learned: "Add resolve.alias { '@': '/src' } to vite.config.ts whenever tsconfig paths change."})
	h.ask("vite-alias/new-wording", "atlas-web", "linux", "npm run dev",
		"  VITE v5.2.8  ready in 412 ms\n\n  ➜  Local:   http://localhost:5173/\n10:41:07 AM [vite] Pre-transform error: Failed to resolve import \"@/lib/api\" from \"src/pages/Home.tsx\". Does the file exist?\n10:41:07 AM [vite] Internal server error: Failed to resolve import \"@/lib/api\" from \"src/pages/Home.tsx\". Does the file exist?\n  Plugin: vite:import-analysis\n  File: /home/ci/build/atlas-web/src/pages/Home.tsx:3:20\n",
		"vite-alias", "hand: another tool version's wording")
	h.ask("vite-alias/lodash", "atlas-web", "linux", "npm run dev",
		"10:52:31 AM [vite] Internal server error: Failed to resolve import \"lodash-es\" from \"src/utils/debounce.ts\". Does the file exist?\n  Plugin: vite:import-analysis\n  File: /home/ci/build/atlas-web/src/utils/debounce.ts:1:26\n",
		"", "hand: same message, another object")

	h.note(Note{ID: "dpkg-lock", Project: "beacon", Scope: "global", OS: "linux", Lang: "shell", At: day(2023, 4, 11),
		Title:   "apt blocked right after boot",
		What:    "apt-get install failed: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1721 (unattended-upgr)",
		Why:     "unattended-upgrades runs on the first boot of the image and holds the dpkg lock for minutes.",
		Learned: "Stop unattended-upgrades in provisioning scripts before apt.", Fix: "sudo systemctl stop unattended-upgrades"})
	h.ask("dpkg-lock/other", "harbor", "linux", "sudo apt-get install -y jq",
		"Waiting for cache lock: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 2290 (unattended-upgr)... 30s\nE: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 2290 (unattended-upgr)\nE: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?\n",
		"dpkg-lock", "hand: global note, another project")

	h.note(Note{ID: "np-float", Project: "pipeline", OS: "linux", Lang: "python", At: day(2022, 12, 20),
		Title: "features job: numpy has no attribute float",
		What:  "AttributeError: module 'numpy' has no attribute 'float' in features/encode.py",
		Why:   "numpy 1.24 removed the np.float alias.", Learned: "Pin numpy below 1.24 for now.", Fix: "pip install 'numpy<1.24'"})
	h.note(Note{ID: "np-float-2", Project: "pipeline", OS: "linux", Lang: "python", At: day(2024, 8, 1), ProseOver: "np-float",
		Title:   "np.float AttributeError is back",
		What:    "The features job fails again with module 'numpy' has no attribute 'float'.",
		Why:     "Pinning numpy<1.24 is no longer an option: pandas 2.2 needs numpy>=1.26, so the old pin breaks the install instead.",
		Learned: "Replaced np.float with the builtin float everywhere.", Fix: "sed -i 's/np\\.float\\b/float/g' features/*.py"})
	h.ask("np-float/1", "pipeline", "linux", "python -m features.run --date 2025-01-02",
		"Traceback (most recent call last):\n  File \"/home/ci/build/pipeline/features/run.py\", line 12, in <module>\n    from features.encode import encode\n  File \"/home/ci/build/pipeline/features/encode.py\", line 31, in <module>\n    WEIGHT = np.float(0.5)\n  File \"/home/ci/build/pipeline/.venv/lib/python3.12/site-packages/numpy/__init__.py\", line 324, in __getattr__\n    raise AttributeError(__former_attrs__[attr])\nAttributeError: module 'numpy' has no attribute 'float'.\n`np.float` was a deprecated alias for the builtin `float`. To avoid this error in existing code, use `float` by itself.\n",
		"np-float-2", "hand: superseded in prose", "np-float")

	h.note(Note{ID: "pg-role-mac", Project: "atlas-api", OS: "darwin", Lang: "sql", At: day(2024, 2, 2),
		Title:   "psql: role postgres does not exist (Homebrew)",
		What:    "psql -U postgres → FATAL:  role \"postgres\" does not exist",
		Why:     "Homebrew's postgresql@16 creates a superuser named after your macOS account, not postgres.",
		Learned: "On macOS with Homebrew, create the postgres role once.", Fix: "createuser -s postgres"})
	h.note(Note{ID: "pg-role-linux", Project: "atlas-api", OS: "linux", Lang: "sql", At: day(2024, 3, 15),
		Title:   "role postgres does not exist in the CI container",
		What:    "Migrations in CI: FATAL:  role \"postgres\" does not exist",
		Why:     "the compose file sets POSTGRES_USER=atlas, so the image never creates the postgres role; our DATABASE_URL in CI still said postgres.",
		Learned: "DATABASE_URL must use the POSTGRES_USER of the compose file.", Fix: "export DATABASE_URL=postgres://atlas:atlas@localhost:5432/atlas"})
	roleTail := "psql: error: connection to server on socket \"/tmp/.s.PGSQL.5432\" failed: FATAL:  role \"postgres\" does not exist\n"
	h.ask("pg-role/mac", "atlas-api", "darwin", "psql -U postgres -c 'select 1'", roleTail, "pg-role-mac", "hand: twin on another system")
	h.ask("pg-role/linux", "atlas-api", "linux", "npm run migrate",
		"error: role \"postgres\" does not exist\n    at Parser.parseErrorMessage (/home/ci/build/atlas-api/node_modules/pg-protocol/dist/parser.js:283:98)\n    at Parser.handlePacket (/home/ci/build/atlas-api/node_modules/pg-protocol/dist/parser.js:122:29)\n  severity: 'FATAL',\n  code: '28000',\n",
		"pg-role-linux", "hand: twin on another system")

	h.note(Note{ID: "gotoolchain", Project: "kestrel", OS: "linux", Lang: "go", At: day(2024, 6, 3),
		Title:   "CI image too old for go.mod",
		What:    "go build: go: go.mod requires go >= 1.22.0 (running go 1.21.5; GOTOOLCHAIN=local)",
		Why:     "the CI image sets GOTOOLCHAIN=local, so go cannot fetch the newer toolchain the go.mod asks for.",
		Learned: "Let go fetch the toolchain in CI, or bump the image.", Fix: "go env -w GOTOOLCHAIN=auto"})
	h.ask("gotoolchain/1", "kestrel", "linux", "go test ./...",
		"go: go.mod requires go >= 1.22.0 (running go 1.21.5; GOTOOLCHAIN=local)\n", "gotoolchain", "hand: stored")
	h.ask("gotoolchain/tidy", "kestrel", "linux", "go build ./...",
		"go: updates to go.mod needed; to update it:\n\tgo mod tidy\n", "", "hand: generic names only (go.mod)")
	h.ask("gotoolchain/revision", "kestrel", "linux", "go mod download",
		"go: github.com/acme/telemetry@v1.2.0: reading github.com/acme/telemetry/go.mod at revision v1.2.0: unknown revision v1.2.0\n", "", "hand: generic names only (go.mod)")

	h.note(Note{ID: "playwright", Project: "atlas-web", OS: "linux", Lang: "typescript", At: day(2025, 1, 20),
		Title:   "e2e job: chromium missing",
		What:    "browserType.launch: Executable doesn't exist at /home/ci/.cache/ms-playwright/chromium-1097/chrome-linux/chrome",
		Why:     "the CI cache restored node_modules but not ~/.cache/ms-playwright after the playwright bump.",
		Learned: "Install browsers after every playwright upgrade.", Fix: "npx playwright install --with-deps chromium"})
	pw := "  1) [chromium] › tests/login.spec.ts:8:5 › logs in ───────────────────────────\n\n    Error: browserType.launch: Executable doesn't exist at /home/ci/.cache/ms-playwright/chromium-1105/chrome-linux/chrome\n    ╔═════════════════════════════════════════════════════════════════════════╗\n    ║ Looks like Playwright Test or Playwright was just installed or updated. ║\n    ║ Please run the following command to download new browsers:              ║\n    ║                                                                         ║\n    ║     npx playwright install                                              ║\n    ╚═════════════════════════════════════════════════════════════════════════╝\n"
	h.ask("playwright/1", "atlas-web", "linux", "npx playwright test", pw, "playwright", "hand: stored")
	h.ask("playwright/beacon", "beacon", "linux", "npx playwright test", pw, "", "hand: another project's project note")

	h.note(Note{ID: "dbt-column", Project: "pipeline", OS: "linux", Lang: "sql", At: day(2024, 11, 5),
		Title:   "dbt run fails in stg_orders",
		What:    "```\nDatabase Error in model stg_orders (models/staging/stg_orders.sql)\n  column \"order_ts\" does not exist\n```",
		Why:     "the upstream orders service renamed order_ts to ordered_at in its export.",
		Learned: "Select ordered_at as order_ts in the staging model so downstream models stay the same."})
	h.ask("dbt-column/cut", "pipeline", "linux", "dbt run --select staging",
		"ng.stg_orders ............ [\x1b[31mERROR\x1b[0m in 0.21s]\n\x1b[0m14:02:11  Finished running 6 view models in 0 hours 0 minutes and 2.10 seconds (2.10s).\n\x1b[0m14:02:11  \x1b[31mCompleted with 1 error and 0 warnings:\x1b[0m\n\x1b[0m14:02:11  \x1b[31mDatabase Error in model stg_orders (models/staging/stg_orders.sql)\x1b[0m\n\x1b[0m14:02:11    column \"order_ts\" does not exist\n\x1b[0m14:02:11    LINE 8:     order_ts,\n\x1b[0m14:02:11                ^\n",
		"dbt-column", "hand: cut at the start, ANSI colours")

	h.note(Note{ID: "branching", Project: "pipeline", OS: "linux", Lang: "python", At: day(2023, 3, 1), Type: "decision", NoFailure: true,
		Title:   "Integration tests run on Postgres, never SQLite",
		What:    "CI integration tests use a real Postgres service; SQLite is not used in any test.",
		Why:     "SQLite accepted queries Postgres rejects (type errors, constraint failures only surfaced in prod).",
		Learned: "Use the pg service container in every test job."})
	h.ask("sqlite-unique", "pipeline", "linux", "pytest -q tests/unit",
		"E   sqlite3.IntegrityError: UNIQUE constraint failed: users.email\n\ntests/unit/test_users.py:22: IntegrityError\n1 failed, 40 passed in 1.93s\n", "", "hand: a note that describes no failure")

	h.note(Note{ID: "crds", Project: "harbor", OS: "linux", Lang: "yaml", At: day(2024, 7, 8),
		Title:   "cert-manager resources unknown on the new cluster",
		What:    "kubectl apply -f certs/ → error: resource mapping not found for name: \"api-tls\" namespace: \"prod\" from \"certs/api.yaml\": no matches for kind \"Certificate\" in version \"cert-manager.io/v1\"",
		Why:     "the CRDs of cert-manager were not installed on the fresh cluster; the helm chart was installed with installCRDs=false.",
		Learned: "Install the CRDs before any Certificate.", Fix: "kubectl apply -f https://github.com/cert-manager/cert-manager/releases/download/v1.14.4/cert-manager.crds.yaml"})
	h.ask("crds/1", "harbor", "linux", "kubectl apply -f certs/",
		"error: resource mapping not found for name: \"web-tls\" namespace: \"prod\" from \"certs/web.yaml\": no matches for kind \"Certificate\" in version \"cert-manager.io/v1\"\nensure CRDs are installed first\n",
		"crds", "hand: stored")
	h.ask("crds/ns", "harbor", "linux", "kubectl get pods -n staging",
		"Error from server (NotFound): namespaces \"staging\" not found\n", "", "hand: same tool, another error")

	h.note(Note{ID: "hostkey", Project: "harbor", Scope: "global", OS: "darwin", Lang: "shell", At: day(2023, 10, 10),
		Title:   "bastion host key changed after the rebuild",
		What:    "ssh to the bastion kept refusing with the big REMOTE HOST IDENTIFICATION HAS CHANGED warning after infra rebuilt the box.",
		Why:     "the rebuilt bastion has a new host key; ours was in known_hosts.",
		Learned: "Check #infra for a rebuild notice, then drop the old key.", Fix: "ssh-keygen -R bastion.internal"})
	h.ask("hostkey/1", "iris", "darwin", "ssh bastion.internal",
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\nIT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!\nSomeone could be eavesdropping on you right now (man-in-the-middle attack)!\nHost key for bastion.internal has changed and you have requested strict checking.\nHost key verification failed.\n",
		"hostkey", "hand: paraphrased note, global")

	h.note(Note{ID: "ps-policy", Project: "desk", OS: "windows", Lang: "powershell", At: day(2024, 1, 29),
		Title:   "build.ps1 refuses to run",
		What:    "File C:\\Users\\dev\\src\\desk\\build.ps1 cannot be loaded because running scripts is disabled on this system.",
		Why:     "the default execution policy on the new laptop is Restricted.",
		Learned: "Set RemoteSigned for the current user.", Fix: "Set-ExecutionPolicy -Scope CurrentUser RemoteSigned"})
	h.ask("ps-policy/1", "desk", "windows", "./build.ps1 -Configuration Release",
		crlf(".\\build.ps1 : File C:\\agent\\_work\\7\\s\\build.ps1 cannot be loaded because running scripts is disabled on this system. For more information, see about_Execution_Policies at https:/go.microsoft.com/fwlink/?LinkID=135170.\nAt line:1 char:1\n+ .\\build.ps1 -Configuration Release\n+ ~~~~~~~~~~~\n    + CategoryInfo          : SecurityError: (:) [], PSSecurityException\n    + FullyQualifiedErrorId : UnauthorizedAccess\n"),
		"ps-policy", "hand: Windows paths and CRLF")

	h.note(Note{ID: "spark-oom", Project: "pipeline", OS: "linux", Lang: "scala", At: day(2023, 5, 9),
		Title: "Spark daily join runs out of heap",
		What:  "java.lang.OutOfMemoryError: Java heap space in the join stage of daily_join",
		Why:   "driver memory default of 1g.", Learned: "Give the driver 4g.", Fix: "spark-submit --driver-memory 4g jobs/daily_join.py"})
	h.note(Note{ID: "spark-oom-2", Project: "pipeline", OS: "linux", Lang: "scala", At: day(2025, 2, 11), Supersedes: "spark-oom",
		Title:   "daily_join heap OOM: broadcast join",
		What:    "OutOfMemoryError: Java heap space in daily_join again, with 8g driver memory.",
		Why:     "the dimension table outgrew the broadcast threshold estimate; Spark broadcasts it and the driver collects it.",
		Learned: "Turn off auto broadcast for that job.", Fix: "spark-submit --conf spark.sql.autoBroadcastJoinThreshold=-1 jobs/daily_join.py"})
	h.ask("spark-oom/1", "pipeline", "linux", "spark-submit jobs/daily_join.py",
		"25/03/02 03:14:07 ERROR Executor: Exception in task 0.0 in stage 4.0 (TID 212)\njava.lang.OutOfMemoryError: Java heap space\n\tat org.apache.spark.sql.execution.joins.UnsafeHashedRelation$.apply(HashedRelation.scala:456)\n\tat org.apache.spark.sql.execution.exchange.BroadcastExchangeExec.$anonfun$relationFuture$1(BroadcastExchangeExec.scala:140)\n",
		"spark-oom-2", "hand: superseded, declared", "spark-oom")

	// Failures no note is about.
	h.ask("not-a-repo", "iris", "linux", "git status", "fatal: not a git repository (or any of the parent directories): .git\n", "", "hand: never stored")
	h.ask("np-module", "pipeline", "linux", "python -m features.run", "Traceback (most recent call last):\n  File \"<frozen runpy>\", line 189, in _run_module_as_main\nModuleNotFoundError: No module named 'features.calendar'\n", "", "hand: never stored")
	h.ask("webpack-cli", "atlas-web", "linux", "npm run build:legacy", "Error: Cannot find module 'webpack-cli/bin/config-yargs'\nRequire stack:\n- /home/ci/build/atlas-web/node_modules/webpack-dev-server/bin/webpack-dev-server.js\n", "", "hand: never stored")
	h.ask("pnpm-lock", "atlas-web", "linux", "pnpm install --frozen-lockfile", " ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with \"frozen-lockfile\" because pnpm-lock.yaml is not up to date with package.json\n\nNote that in CI environments this setting is true by default.\n", "", "hand: never stored")
	h.ask("psql-db", "atlas-api", "linux", "psql -d atlas_test", "psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: FATAL:  database \"atlas_test\" does not exist\n", "", "hand: same tool, another error")
	return h.notes, h.qs
}
