package replay

import "time"

// Hand-written cases. The families (families_*.go) fill one template per
// kind of failure, so their notes share a title pattern and a quote, and
// their failures print exactly what the notes quote. Real notes do not:
// a title says what the writer thought mattered, the note quotes a
// fragment or paraphrases, and the failure met later is printed by
// another version of the tool. Each hand case is one note (or a pair)
// written on its own, with the failures met later.

// hand builds the notes and queries of one part's hand cases.
type hand struct {
	split Split
	// prefix starts every ID of the part; "hand/" when empty.
	prefix string
	notes  []Note
	qs     []Query
}

func (h *hand) ref(id string) string {
	if h.prefix == "" {
		return "hand/" + id
	}
	return h.prefix + id
}

func (h *hand) note(n Note) {
	n.ID = h.ref(n.ID)
	n.Split = h.split
	if n.Scope == "" {
		n.Scope = "project"
	}
	if n.Where == "" {
		// The contract wants a where; writers in a hurry name the repo.
		n.Where = n.Project
	}
	if n.Type == "" {
		n.Type = "bugfix"
	}
	if n.Supersedes != "" {
		n.Supersedes = h.ref(n.Supersedes)
	}
	if n.ProseOver != "" {
		n.ProseOver = h.ref(n.ProseOver)
	}
	h.notes = append(h.notes, n)
}

// ask adds a failure met later; want is the note to push first ("" for
// none), stale the notes it replaces.
func (h *hand) ask(id, project, os, cmd, tail, want, kind string, stale ...string) {
	q := Query{ID: h.ref(id), Split: h.split, Project: project, OS: os, Tool: "Bash", Command: cmd, Tail: tail, Kind: kind}
	if want != "" {
		q.Want = h.ref(want)
	}
	for _, s := range stale {
		q.Stale = append(q.Stale, h.ref(s))
	}
	h.qs = append(h.qs, q)
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 14, 30, 0, 0, time.UTC) }

// handTune are the hand cases of the tune part.
func handTune() ([]Note, []Query) {
	h := &hand{split: Tune}
	h.note(Note{ID: "celery-redis", Project: "ledger", OS: "linux", Lang: "python", At: day(2024, 3, 4),
		Title: "Celery worker won't start locally",
		What:  "Worker died right at boot with `kombu.exceptions.OperationalError: [Errno 111] Connection refused`.",
		Why:   "Redis lives in the compose profile `queue`, which plain `docker compose up` does not start.",
		Where: "ledger dev setup", Learned: "Bring the queue profile up before the worker.", Fix: "docker compose --profile queue up -d redis"})
	h.ask("celery-redis/1", "ledger", "linux", "celery -A ledger worker -l info",
		"[2025-01-10 10:22:01,442: ERROR/MainProcess] consumer: Cannot connect to redis://localhost:6379/0: Error 111 connecting to localhost:6379. Connection refused..\nTrying again in 2.00 seconds... (1/100)\n\n[2025-01-10 10:22:03,451: ERROR/MainProcess] consumer: Cannot connect to redis://localhost:6379/0: Error 111 connecting to localhost:6379. Connection refused..\nTrying again in 4.00 seconds... (2/100)\n",
		"celery-redis", "hand: another tool version's wording")

	h.note(Note{ID: "mypy-stubs", Project: "ledger", OS: "linux", Lang: "python", At: day(2023, 6, 12),
		Title: "pre-commit mypy hook red after adding the HTTP client",
		What:  "mypy in pre-commit: error: Library stubs not installed for \"requests\"",
		Why:   "pre-commit runs mypy in its own venv; the stubs must be listed in the hook's additional_dependencies, pip installing them locally does nothing.",
		Where: ".pre-commit-config.yaml", Learned: "Add types-requests to additional_dependencies of the mypy hook.", Fix: "pre-commit clean && pre-commit run mypy --all-files"})
	h.ask("mypy-stubs/1", "ledger", "linux", "pre-commit run --all-files",
		"mypy.....................................................................Failed\n- hook id: mypy\n- exit code: 1\n\nsrc/ledger/client.py:3: error: Library stubs not installed for \"requests\"  [import-untyped]\nsrc/ledger/client.py:3: note: Hint: \"python3 -m pip install types-requests\"\nsrc/ledger/client.py:3: note: (or run \"mypy --install-types\" to install all missing stub packages)\nFound 1 error in 1 file (checked 14 source files)\n",
		"mypy-stubs", "hand: stored")
	h.ask("mypy-stubs/yaml", "ledger", "linux", "pre-commit run --all-files",
		"mypy.....................................................................Failed\n- hook id: mypy\n- exit code: 1\n\nsrc/ledger/config.py:1: error: Library stubs not installed for \"yaml\"  [import-untyped]\nsrc/ledger/config.py:1: note: Hint: \"python3 -m pip install types-PyYAML\"\nFound 1 error in 1 file (checked 14 source files)\n",
		"", "hand: same message, another object")

	h.note(Note{ID: "unrelated-histories", Project: "notes-api", Scope: "global", OS: "darwin", Lang: "git", At: day(2024, 9, 2),
		Title:   "Pulling the upstream template into a fork",
		What:    "git pull template main → fatal: refusing to merge unrelated histories",
		Why:     "the repo was created from the template with 'Use this template', which squashes history, so there is no common ancestor.",
		Learned: "Pass --allow-unrelated-histories once; later pulls merge normally.", Fix: "git pull template main --allow-unrelated-histories"})
	h.ask("unrelated-histories/other", "ledger", "linux", "git pull upstream main",
		"From github.com:acme/service-template\n * branch            main       -> FETCH_HEAD\nfatal: refusing to merge unrelated histories\n",
		"unrelated-histories", "hand: global note, another project")

	h.note(Note{ID: "node-sass", Project: "webapp", OS: "darwin", Lang: "javascript", At: day(2023, 2, 20),
		Title:   "node-sass won't build on the M1",
		What:    "npm install died inside node-gyp while building node-sass: `gyp ERR! stack Error: `make` failed with exit code: 2`",
		Why:     "no prebuilt arm64 binding for our node-sass version, so it compiles from source and the old libsass does not build for arm64.",
		Learned: "Rebuild it for the arch.", Fix: "npm rebuild node-sass --arch=arm64"})
	h.note(Note{ID: "node-sass-2", Project: "webapp", OS: "darwin", Lang: "javascript", At: day(2025, 1, 14), ProseOver: "node-sass",
		Title:   "node-sass build error again after Node 20",
		What:    "Same gyp ERR! `make` failed with exit code: 2 from node-sass after moving to Node 20.",
		Why:     "The rebuild trick from the old note doesn't work anymore: node-sass is deprecated and has no binding for Node 20 at all.",
		Learned: "Replaced node-sass with sass (dart-sass); the API is the same for our webpack config.", Fix: "npm uninstall node-sass && npm install -D sass"})
	h.ask("node-sass/1", "webapp", "darwin", "npm install",
		"npm ERR! code 1\nnpm ERR! path /Users/kim/code/webapp/node_modules/node-sass\nnpm ERR! command failed\nnpm ERR! command sh -c node scripts/build.js\nnpm ERR! Building: /usr/local/bin/node /Users/kim/code/webapp/node_modules/node-gyp/bin/node-gyp.js rebuild --verbose --libsass_ext= --libsass_cflags=\nnpm ERR! gyp info it worked if it ends with ok\nnpm ERR! gyp ERR! build error\nnpm ERR! gyp ERR! stack Error: `make` failed with exit code: 2\nnpm ERR! gyp ERR! stack     at ChildProcess.onExit (/Users/kim/code/webapp/node_modules/node-gyp/lib/build.js:194:23)\nnpm ERR! gyp ERR! System Darwin 23.4.0\nnpm ERR! gyp ERR! node -v v20.11.1\nnpm ERR! Build failed with error code: 1\n",
		"node-sass-2", "hand: superseded in prose", "node-sass")

	h.note(Note{ID: "longpaths-win", Project: "monorepo", OS: "windows", Lang: "git", At: day(2024, 4, 8),
		Title:   "Clone fails on the Windows agent: Filename too long",
		What:    "Checkout on the Windows build agent failed with `error: unable to create file packages/ui/src/components/DataTable/__snapshots__/DataTableWithPaginationAndFilters.test.tsx.snap: Filename too long`",
		Why:     "Windows MAX_PATH is 260 characters and Git for Windows does not use long paths unless told to.",
		Learned: "Enable core.longpaths on Windows agents.", Fix: "git config --system core.longpaths true"})
	h.note(Note{ID: "longpaths-ecryptfs", Project: "monorepo", OS: "linux", Lang: "git", At: day(2024, 7, 19),
		Title:   "git clone: Filename too long on my Ubuntu laptop",
		What:    "Same `Filename too long` from git clone, but on Ubuntu, not Windows.",
		Why:     "My home directory is encrypted with eCryptfs, which caps file names at 143 characters; core.longpaths has no effect on Linux.",
		Learned: "Clone outside the encrypted home.", Fix: "git clone git@github.com:acme/monorepo.git /srv/src/monorepo"})
	tooLong := "Cloning into 'monorepo'...\nremote: Enumerating objects: 48211, done.\nReceiving objects: 100% (48211/48211), 61.20 MiB | 9.10 MiB/s, done.\nerror: unable to create file packages/ui/src/components/DataTable/__snapshots__/DataTableWithPaginationAndFilters.test.tsx.snap: Filename too long\nfatal: unable to checkout working tree\nwarning: Clone succeeded, but checkout failed.\n"
	h.ask("longpaths/win", "monorepo", "windows", "git clone git@github.com:acme/monorepo.git", crlf(tooLong), "longpaths-win", "hand: twin on another system")
	h.ask("longpaths/linux", "monorepo", "linux", "git clone git@github.com:acme/monorepo.git", tooLong, "longpaths-ecryptfs", "hand: twin on another system")

	h.note(Note{ID: "node-env-win", Project: "webapp", OS: "windows", Lang: "javascript", At: day(2024, 5, 30),
		Title: "npm run build broken on Windows (package.json script)",
		What:  "'NODE_ENV' is not recognized as an internal or external command, operable program or batch file.",
		Why:   "The build script in package.json sets NODE_ENV=production inline, which is sh syntax; cmd.exe does not understand it.",
		Where: "package.json scripts", Learned: "Prefix env assignments in package.json scripts with cross-env.", Fix: "npm install -D cross-env"})
	h.ask("node-env/win", "webapp", "windows", "npm run build",
		crlf("\n> webapp@2.3.0 build\n> NODE_ENV=production webpack --config webpack.prod.js\n\n'NODE_ENV' is not recognized as an internal or external command,\noperable program or batch file.\n"),
		"node-env-win", "hand: stored")
	h.ask("node-env/missing-script", "webapp", "linux", "npm run build:prod",
		"npm ERR! Missing script: \"build:prod\"\nnpm ERR!\nnpm ERR! To see a list of scripts, run:\nnpm ERR!   npm run\n\nnpm ERR! A complete log of this run can be found in: /home/ci/.npm/_logs/2025-02-01T10_11_12_345Z-debug-0.log\n",
		"", "hand: generic names only (package.json, npm run)")
	h.ask("node-env/jsonparse", "webapp", "darwin", "npm install",
		"npm ERR! code EJSONPARSE\nnpm ERR! path /Users/kim/code/webapp/package.json\nnpm ERR! JSON.parse Unexpected token \"}\" (0x7D) in JSON at position 412 while parsing near \"...\\\"^1.2.0\\\",\\n  },\\n  \\\"devDep...\"\nnpm ERR! JSON.parse Failed to parse JSON data.\nnpm ERR! JSON.parse Note: package.json must be actual JSON, not just JavaScript.\n",
		"", "hand: generic names only (package.json)")

	h.note(Note{ID: "accounts-table", Project: "ledger", OS: "linux", Lang: "python", At: day(2025, 2, 3),
		Title:   "make test: relation accounts does not exist",
		What:    "All DB tests error with psycopg2.errors.UndefinedTable: relation \"accounts\" does not exist",
		Why:     "the test database is created empty; migrations for it are a separate make target.",
		Learned: "Run the test migrations after recreating the test DB.", Fix: "make migrate-test"})
	undefined := "E   psycopg2.errors.UndefinedTable: relation \"accounts\" does not exist\nE   LINE 1: SELECT accounts.id, accounts.owner FROM accounts WHERE accou...\nE                                                    ^\n\n=========================== short test summary info ============================\nERROR tests/test_accounts.py::test_open_account - psycopg2.errors.UndefinedTable: relation \"accounts\" does not exist\n"
	h.ask("accounts-table/1", "ledger", "linux", "make test", undefined, "accounts-table", "hand: stored")
	h.ask("accounts-table/crm", "crm", "linux", "make test", undefined, "", "hand: another project's project note")

	h.note(Note{ID: "lint-policy", Project: "webapp", OS: "linux", Lang: "javascript", At: day(2024, 1, 9), Type: "decision", NoFailure: true,
		Title:   "Lint policy: errors block, warnings don't",
		What:    "We agreed that eslint errors block a merge and warnings never do; no-console is a warning in development and an error in the production config.",
		Why:     "Warnings were ignored anyway and errors were being disabled inline.",
		Learned: "Promote a rule to error only when the codebase is clean of it."})
	h.ask("lint/unused", "webapp", "linux", "npx eslint src",
		"\n/home/ci/build/webapp/src/cart/total.ts\n  12:5  error  'discount' is assigned a value but never used  @typescript-eslint/no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)\n",
		"", "hand: a note that describes no failure")

	h.note(Note{ID: "tf-proxy", Project: "infra", OS: "linux", Lang: "hcl", At: day(2023, 11, 21),
		Title:   "terraform init can't reach the registry from the office network",
		What:    "terraform init: Error: Failed to query available provider packages ... could not connect to registry.terraform.io: failed to request discovery document",
		Why:     "outbound HTTPS goes through the corporate proxy and terraform does not read the system proxy settings.",
		Learned: "Export HTTPS_PROXY before terraform init in the office.", Fix: "export HTTPS_PROXY=http://proxy.corp.internal:3128"})
	h.ask("tf-proxy/ansi", "infra", "linux", "terraform init",
		"Initializing provider plugins...\n- Finding hashicorp/aws versions matching \"~> 5.0\"...\n\x1b[31m╷\x1b[0m\x1b[0m\n\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mFailed to query available provider packages\x1b[0m\n\x1b[31m│\x1b[0m \x1b[0m\n\x1b[31m│\x1b[0m \x1b[0m\x1b[0mCould not retrieve the list of available versions for provider hashicorp/aws: could not connect to registry.terraform.io: failed to request discovery document: Get \"https://registry.terraform.io/.well-known/terraform.json\": dial tcp 10.20.0.1:443: i/o timeout\n\x1b[31m╵\x1b[0m\x1b[0m\n",
		"tf-proxy", "hand: ANSI colours")
	h.ask("tf-proxy/argument", "infra", "linux", "terraform plan",
		"\x1b[31m╷\x1b[0m\x1b[0m\n\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mUnsupported argument\x1b[0m\n\x1b[31m│\x1b[0m \x1b[0m\n\x1b[31m│\x1b[0m \x1b[0m\x1b[0m  on s3.tf line 4, in resource \"aws_s3_bucket\" \"logs\":\n\x1b[31m│\x1b[0m \x1b[0m   4:   acl    = \"private\"\n\x1b[31m│\x1b[0m \x1b[0m\n\x1b[31m│\x1b[0m \x1b[0mAn argument named \"acl\" is not expected here.\n\x1b[31m╵\x1b[0m\x1b[0m\n",
		"", "hand: same tool, another error")

	h.note(Note{ID: "race-limit", Project: "gateway", OS: "linux", Lang: "go", At: day(2024, 10, 7),
		Title:   "go test -race dies in the fanout package",
		What:    "`race: limit on 8128 simultaneously alive goroutines is exceeded, dying` when the whole suite runs with -race.",
		Why:     "the fanout integration test starts one goroutine per fake client (10k); the race detector caps live goroutines at 8128.",
		Learned: "Keep race-enabled tests under 8k goroutines; the fanout test now uses 2k clients under -race.", Fix: "go test -race -p 1 ./..."})
	h.ask("race-limit/1", "gateway", "linux", "go test -race ./...",
		"ok  \tgithub.com/acme/gateway/internal/auth\t1.204s\nrace: limit on 8128 simultaneously alive goroutines is exceeded, dying\nFAIL\tgithub.com/acme/gateway/internal/fanout\t12.041s\nFAIL\n",
		"race-limit", "hand: stored")
	h.ask("race-limit/nil", "gateway", "linux", "go run ./cmd/gw",
		"panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6b2f1a]\n\ngoroutine 1 [running]:\nmain.main()\n\t/home/ci/build/gateway/cmd/gw/main.go:42 +0x3a\nexit status 2\n",
		"", "hand: same language, another error")

	h.note(Note{ID: "pod-firebase", Project: "mobile", OS: "darwin", Lang: "swift", At: day(2024, 2, 26),
		Title: "pod install: Firebase versions",
		What:  "pod install → [!] CocoaPods could not find compatible versions for pod \"Firebase/Core\"",
		Why:   "the local specs repo was stale.", Learned: "Update the specs repo first.", Fix: "pod repo update && pod install"})
	h.note(Note{ID: "pod-firebase-2", Project: "mobile", OS: "darwin", Lang: "swift", At: day(2025, 3, 3), Supersedes: "pod-firebase",
		Title:   "pod install: Firebase versions (the real fix)",
		What:    "CocoaPods could not find compatible versions for pod \"Firebase/Core\" again after bumping the app's deployment target.",
		Why:     "Podfile.lock pins the old Firebase, and with the CDN source `pod repo update` changes nothing.",
		Learned: "Update the pod itself, not the repo.", Fix: "pod update Firebase"})
	h.ask("pod-firebase/1", "mobile", "darwin", "pod install",
		"Analyzing dependencies\n[!] CocoaPods could not find compatible versions for pod \"Firebase/Core\":\n  In snapshot (Podfile.lock):\n    Firebase/Core (= 10.3.0)\n\n  In Podfile:\n    FirebaseAnalytics (~> 10.22) was resolved to 10.22.0, which depends on\n      Firebase/Core (= 10.22.0)\n\nYou have either:\n * changed the constraints of dependency `Firebase/Core` inside your development pod.\n * run `pod update` with a changed constraint.\n",
		"pod-firebase-2", "hand: superseded, declared", "pod-firebase")

	h.note(Note{ID: "docker-sock", Project: "devbox", Scope: "global", OS: "linux", Lang: "docker", At: day(2023, 8, 15),
		Title:   "Docker permission problem on a fresh dev VM",
		What:    "docker ps gave me permission denied on /var/run/docker.sock (connect: permission denied). sudo docker worked.",
		Why:     "my user was not in the docker group on the new VM.",
		Learned: "Add the user to the docker group and start a new login shell.", Fix: "sudo usermod -aG docker $USER && newgrp docker"})
	h.ask("docker-sock/1", "ledger", "linux", "docker compose up -d",
		"permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get \"http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/json?all=1&filters=%7B%22label%22%3A%7B%22com.docker.compose.project%3Dledger%22%3Atrue%7D%7D\": dial unix /var/run/docker.sock: connect: permission denied\n",
		"docker-sock", "hand: paraphrased note, global")

	h.note(Note{ID: "msb4019", Project: "desk", OS: "windows", Lang: "csharp", At: day(2024, 6, 18),
		Title:   "dotnet build on the new agent: WebApplication.targets missing",
		What:    "error MSB4019: The imported project \"C:\\Program Files\\dotnet\\sdk\\8.0.100\\Microsoft\\VisualStudio\\v17.0\\WebApplications\\Microsoft.WebApplication.targets\" was not found.",
		Why:     "the legacy web project imports targets that only Visual Studio Build Tools' web workload installs; the plain SDK lacks them.",
		Learned: "Install the 'ASP.NET and web development' workload of VS Build Tools on the agent."})
	h.ask("msb4019/1", "desk", "windows", "dotnet build Desk.sln",
		crlf("  Determining projects to restore...\n  All projects are up-to-date for restore.\nC:\\agent\\_work\\3\\s\\src\\Desk.Web\\Desk.Web.csproj(212,3): error MSB4019: The imported project \"C:\\Program Files\\dotnet\\sdk\\8.0.204\\Microsoft\\VisualStudio\\v17.0\\WebApplications\\Microsoft.WebApplication.targets\" was not found. Confirm that the expression in the Import declaration \"C:\\Program Files\\dotnet\\sdk\\8.0.204\\Microsoft\\VisualStudio\\v17.0\\WebApplications\\Microsoft.WebApplication.targets\" is correct, and that the file exists on disk.\n\nBuild FAILED.\n"),
		"msb4019", "hand: Windows paths and CRLF")

	h.note(Note{ID: "db-locked-parallel", Project: "shop", OS: "linux", Lang: "python", At: day(2024, 4, 2),
		Title:   "Django tests: database is locked with --parallel",
		What:    "Running `python manage.py test --parallel 4` fails with django.db.utils.OperationalError: database is locked, right after 'Cloning test database for alias default'.",
		Why:     "the test settings still use SQLite, whose clones share one file lock under the parallel runner.",
		Learned: "Tests run on Postgres like production.", Fix: "DJANGO_SETTINGS_MODULE=shop.settings.test_pg python manage.py test --parallel 4"})
	h.note(Note{ID: "db-locked-import", Project: "shop", OS: "linux", Lang: "python", At: day(2024, 9, 27),
		Title:   "import_orders crashes: database is locked",
		What:    "The nightly import_orders command died with `sqlite3.OperationalError: database is locked` at management/commands/import_orders.py line 40.",
		Why:     "someone had a `manage.py shell` open holding a write transaction on the dev DB.",
		Learned: "Close shells before running the import; the command now sets timeout=30 on the connection."})
	h.ask("db-locked/parallel", "shop", "linux", "python manage.py test --parallel 4",
		"Found 212 test(s).\nCreating test database for alias 'default'...\nCloning test database for alias 'default'...\nCloning test database for alias 'default'...\nTraceback (most recent call last):\n  File \"/home/ci/build/shop/.venv/lib/python3.11/site-packages/django/db/backends/sqlite3/base.py\", line 328, in execute\n    return super().execute(query, params)\nsqlite3.OperationalError: database is locked\n\nThe above exception was the direct cause of the following exception:\n\ndjango.db.utils.OperationalError: database is locked\n",
		"db-locked-parallel", "hand: same text, another cause")
	h.ask("db-locked/import", "shop", "linux", "python manage.py import_orders",
		"Traceback (most recent call last):\n  File \"/home/ci/build/shop/shop/management/commands/import_orders.py\", line 40, in handle\n    Order.objects.bulk_create(batch)\n  File \"/home/ci/build/shop/.venv/lib/python3.11/site-packages/django/db/backends/sqlite3/base.py\", line 328, in execute\n    return super().execute(query, params)\nsqlite3.OperationalError: database is locked\n",
		"db-locked-import", "hand: same text, another cause")

	h.note(Note{ID: "pg-gem", Project: "crm", OS: "linux", Lang: "ruby", At: day(2023, 5, 17),
		Title: "bundle install dies on the pg gem",
		What:  "An error occurred while installing pg (1.5.4), and Bundler cannot continue.",
		Why:   "the pg gem builds a native extension and needs the libpq headers.", Learned: "Install libpq-dev first.", Fix: "sudo apt-get install -y libpq-dev"})
	h.note(Note{ID: "pg-gem-2", Project: "crm", OS: "linux", Lang: "ruby", At: day(2025, 4, 2), ProseOver: "pg-gem",
		Title:   "pg gem native build on the 24.04 runners",
		What:    "Bundler stops at pg again: Failed to build gem native extension, checking for pg_config... no",
		Why:     "Update: ignore my earlier note about apt-get install libpq-dev. The new runners have libpq but pg_config is not on PATH; the real fix is telling bundler where it is.",
		Learned: "Point the pg build at pg_config.", Fix: "bundle config build.pg --with-pg-config=/usr/lib/postgresql/16/bin/pg_config"})
	h.ask("pg-gem/1", "crm", "linux", "bundle install",
		"Installing pg 1.5.6 with native extensions\nGem::Ext::BuildError: ERROR: Failed to build gem native extension.\n\n    current directory: /home/ci/build/crm/vendor/bundle/ruby/3.3.0/gems/pg-1.5.6/ext\n/usr/bin/ruby3.3 extconf.rb\nchecking for pg_config... no\nchecking for libpq-fe.h... no\n\nAn error occurred while installing pg (1.5.6), and Bundler cannot continue.\n\nIn Gemfile:\n  pg\n",
		"pg-gem-2", "hand: superseded in prose", "pg-gem")

	h.note(Note{ID: "lint-nogo", Project: "gateway", OS: "darwin", Lang: "go", At: day(2023, 9, 12),
		Title: "golangci-lint finds no go files",
		What:  "golangci-lint run → level=error msg=\"Running error: context loading failed: no go files to analyze\"",
		Why:   "VCS stamping failed inside the worktree.", Learned: "Turn off VCS stamping for the linter.", Fix: "GOFLAGS=-buildvcs=false golangci-lint run"})
	h.note(Note{ID: "lint-nogo-2", Project: "gateway", OS: "darwin", Lang: "go", At: day(2024, 11, 20), ProseOver: "lint-nogo",
		Title:   "golangci-lint: no go files to analyze (build tags)",
		What:    "Same `no go files to analyze` from golangci-lint in the integration folder.",
		Why:     "GOFLAGS=-buildvcs=false isn't needed anymore since golangci-lint 1.55; every file in that folder has the integration build tag, which the linter excludes.",
		Learned: "Pass the build tags the package needs.", Fix: "golangci-lint run --build-tags integration ./..."})
	h.ask("lint-nogo/1", "gateway", "darwin", "golangci-lint run ./...",
		"level=error msg=\"Running error: context loading failed: no go files to analyze: running `go list -e -json -compiled=true -test=true -export=false -deps=true -find=false -tags= -- ./...`: exit status 1\"\n",
		"lint-nogo-2", "hand: superseded in prose", "lint-nogo")

	// Failures no note is about, near the notes' tools.
	h.ask("pip-torch", "ledger", "linux", "pip install -r requirements.txt",
		"ERROR: Could not find a version that satisfies the requirement torch==2.3.0+cu121 (from versions: none)\nERROR: No matching distribution found for torch==2.3.0+cu121\n", "", "hand: never stored")
	h.ask("docker-pull", "devbox", "linux", "docker pull acme/api:latest",
		"Error response from daemon: pull access denied for acme/api, repository does not exist or may require 'docker login': denied: requested access to the resource is denied\n", "", "hand: never stored")
	h.ask("make-typo", "ledger", "linux", "make migrate-tset", "make: *** No rule to make target 'migrate-tset'.  Stop.\n", "", "hand: never stored")
	h.ask("pytest-assert", "ledger", "linux", "pytest -q tests/test_fx.py",
		"F\n=================================== FAILURES ===================================\n_________________________________ test_convert _________________________________\n\n    def test_convert():\n>       assert convert(10, 'EUR').currency == 'USD'\nE       AssertionError: assert 'EUR' == 'USD'\n\ntests/test_fx.py:9: AssertionError\n1 failed in 0.21s\n", "", "hand: never stored")
	h.ask("pod-signing", "mobile", "darwin", "pod install",
		"[!] Unable to find a specification for `AcmeAnalytics` depended upon by `Wallet`\n\nYou have either:\n * out-of-date source repos which you can update with `pod repo update` or with `pod install --repo-update`.\n * mistyped the name or version.\n", "", "hand: same tool, another error")
	return h.notes, h.qs
}

// crlf writes s with Windows line ends.
func crlf(s string) string {
	out := make([]byte, 0, len(s)+len(s)/20)
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, '\r')
		}
		out = append(out, s[i])
	}
	return string(out)
}
