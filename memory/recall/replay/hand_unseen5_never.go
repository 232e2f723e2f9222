package replay

import "time"

// The notes that describe no failure (conventions, decisions), and the
// failures met later that no note is about: the same kind of failure
// about another object, or another failure of a tool the part knows.
func unseen5Never(h *hand) {
	h.note(Note{ID: "money-cents", Project: "ledgerline", OS: "linux", Lang: "go", At: day(2023, time.January, 17), NoFailure: true, Type: "pattern",
		Title:   "Amounts are int64 minor units, everywhere",
		What:    "Convention for ledgerline: every amount is an int64 count of minor units (cents) plus an ISO 4217 currency code. No float64, no decimal strings in the store.",
		Why:     "rounding drift in the old reports came from float sums.",
		Learned: "money.Amount wraps it; conversions to decimal happen only at the API edge (shopspring/decimal there). Column names end in _minor.",
		Where:   "internal/money/"})
	h.note(Note{ID: "uv-for-new", Project: "quillmate", OS: "darwin", Lang: "python", At: day(2025, time.March, 20), NoFailure: true, Type: "decision",
		Title:   "New Python services use uv, quillmate moves when convenient",
		What:    "Decision: uv (uv.lock, uv sync) for dependency management in new services; quillmate keeps poetry until the next dependency overhaul, then migrates.",
		Why:     "resolution in seconds instead of minutes in CI, one tool for pythons and venvs.",
		Learned: "Don't mix: a repo has either poetry.lock or uv.lock, never both."})
	h.note(Note{ID: "tf-state-layout", Project: "saltmarsh-infra", OS: "linux", Lang: "hcl", At: day(2022, time.November, 22), NoFailure: true, Type: "decision",
		Title:   "one state file per environment and stack, no workspaces",
		What:    "We keep Terraform state at s3://saltmarsh-tfstate/<env>/<stack>.tfstate with a DynamoDB lock table; terraform workspaces are not used.",
		Why:     "workspaces made it too easy to apply prod with dev variables.",
		Learned: "Each env dir has its own backend.hcl; terraform init -backend-config=backend.hcl."})
	h.note(Note{ID: "conv-commits", Project: "tinsel-ui", OS: "darwin", Lang: "typescript", At: day(2026, time.January, 8), NoFailure: true, Type: "pattern",
		Title:   "commit style for tinsel-ui",
		What:    "Conventional commits (feat:, fix:, chore:), PRs squash-merged, the PR title becomes the commit message.",
		Why:     "release-please builds the changelog from them.",
		Learned: "Scope is the top-level folder: feat(cart): ..."})
	h.note(Note{ID: "autocrlf", Project: "harborview", Scope: "global", OS: "windows", Lang: "shell", At: day(2024, time.July, 16), NoFailure: true, Type: "pattern",
		Title:   "Windows clones: core.autocrlf false, .gitattributes decides",
		What:    "On every Windows machine: git config --global core.autocrlf false. Line endings are fixed per repo in .gitattributes (* text=auto eol=lf, *.ps1 and *.bat eol=crlf).",
		Why:     "autocrlf=true plus editors that normalise produced whole-file diffs and shell scripts with CRLF in containers.",
		Learned: "After changing .gitattributes: git add --renormalize ."})

	h.ask("nil-deref", "ledgerline", "linux", "go test ./internal/posting/", `--- FAIL: TestReverseTwice (0.00s)
panic: runtime error: invalid memory address or nil pointer dereference [recovered]
	panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6a1f2c]

goroutine 7 [running]:
testing.tRunner.func1.2({0x6e9a40, 0x9a1b20})
	/usr/local/go/src/testing/testing.go:1632 +0x230
ledgerline/internal/posting.(*Journal).Reverse(0x0, {0xc00001c0a8, 0x8})
	/home/dev/ledgerline/internal/posting/journal.go:88 +0x2c
ledgerline/internal/posting.TestReverseTwice(0xc000007860)
	/home/dev/ledgerline/internal/posting/journal_test.go:41 +0x96
FAIL	ledgerline/internal/posting	0.012s`, "", u5NeverFail)
	h.ask("django-dbhost", "harborview", "linux", "python manage.py migrate", `Traceback (most recent call last):
  File "/app/.venv/lib/python3.12/site-packages/django/db/backends/base/base.py", line 279, in ensure_connection
    self.connect()
  ...
  File "/app/.venv/lib/python3.12/site-packages/psycopg2/__init__.py", line 122, in connect
    conn = _connect(dsn, connection_factory=connection_factory, **kwasync)
psycopg2.OperationalError: could not translate host name "db" to address: Name or service not known

The above exception was the direct cause of the following exception:
...
django.db.utils.OperationalError: could not translate host name "db" to address: Name or service not known`, "", u5NeverFail)
	h.ask("next-prerender", "tinsel-ui", "linux", "npm run build", `   Generating static pages (14/22)  [=   ] 
Error occurred prerendering page "/collections/summer". Read more: https://nextjs.org/docs/messages/prerender-error
TypeError: Cannot read properties of undefined (reading 'map')
    at Collection (/home/runner/work/tinsel-ui/tinsel-ui/.next/server/app/collections/[handle]/page.js:1:5121)
    at nj (/home/runner/work/tinsel-ui/tinsel-ui/node_modules/next/dist/compiled/next-server/app-page.runtime.prod.js:12:46251)
 ✓ Generating static pages (22/22)

> Export encountered errors on following paths:
	/collections/[handle]/page: /collections/summer`, "", u5NeverFail)
	h.ask("rollup-native", "fernweh-app", "linux", "npx vite build", `file:///home/runner/work/fernweh-app/fernweh-app/node_modules/rollup/dist/native.js:64
		throw new Error(
		      ^

Error: Cannot find module @rollup/rollup-linux-x64-gnu. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). Please try §npm i§ again after removing both package-lock.json and node_modules directory.
    at requireWithFriendlyError (file:///home/runner/work/fernweh-app/fernweh-app/node_modules/rollup/dist/native.js:64:9)
    at file:///home/runner/work/fernweh-app/fernweh-app/node_modules/rollup/dist/native.js:73:76
    ... 3 lines matching cause stack trace ...
  [cause]: Error: Cannot find module '@rollup/rollup-linux-x64-gnu'
  code: 'MODULE_NOT_FOUND',

Node.js v20.18.0`, "", u5NeverFail)
	h.ask("pyarrow-wheel", "nimbus-etl", "linux", "pip install -r requirements.txt", `Collecting pyarrow==14.0.2 (from -r requirements.txt (line 9))
  Downloading pyarrow-14.0.2.tar.gz (1.1 MB)
  Installing build dependencies ... done
  Getting requirements to build wheel ... done
  Preparing metadata (pyproject.toml) ... done
Building wheels for collected packages: pyarrow
  Building wheel for pyarrow (pyproject.toml) ... error
  error: subprocess-exited-with-error
  
  × Building wheel for pyarrow (pyproject.toml) did not run successfully.
  │ exit code: 1
  ╰─> [287 lines of output]
      ...
      -- Could NOT find Arrow (missing: Arrow_DIR)
      CMake Error at CMakeLists.txt:268 (find_package):
        By not providing "FindArrow.cmake" in CMAKE_MODULE_PATH this project has
        asked CMake to find a package configuration file provided by "Arrow", but
        CMake did not find one.
      [end of output]
  
  note: This error originates from a subprocess, and is likely not a problem with pip.
  ERROR: Failed building wheel for pyarrow
Failed to build pyarrow
ERROR: ERROR: Failed to build installable wheels for some pyproject.toml based projects (pyarrow)`, "", u5NeverObj)
	h.ask("unrelated-histories", "bramble-docs", "darwin", "git pull origin main", `From github.com:bramble-docs/bramble-docs
 * branch            main       -> FETCH_HEAD
fatal: refusing to merge unrelated histories`, "", u5NeverFail)
	h.ask("ssh-timeout", "kiln-deploy", "linux", "ssh -o ConnectTimeout=10 deploy@10.20.0.31 uptime", `ssh: connect to host 10.20.0.31 port 22: Connection timed out`, "", u5NeverFail)
	h.ask("compose-undefined-svc", "quillmate", "darwin", "docker compose up", `service "worker" depends on undefined service "rabbitmq": invalid compose project`, "", u5NeverFail)
	h.ask("tsc-ts2307", "orchard-api", "darwin", "npx tsc --noEmit", `src/payments/stripe.ts:1:20 - error TS2307: Cannot find module 'stripe' or its corresponding type declarations.

1 import Stripe from "stripe";
                     ~~~~~~~~

Found 1 error in src/payments/stripe.ts:1`, "", u5NeverObj)
	h.ask("go-work-dup", "gridwatch", "linux", "go build ./...", `go: module ../collector appears multiple times in workspace`, "", u5NeverFail)
	h.ask("mypy-union-attr", "harborview", "windows", "mypy bookings", u5crlf(`bookings\services.py:118: error: Item "None" of "Guest | None" has no attribute "email"  [union-attr]
Found 1 error in 1 file (checked 37 source files)`), "", u5NeverFail)
	h.ask("k8s-pending", "gridwatch", "linux", "kubectl -n gridwatch describe pod ingester-0", `Events:
  Type     Reason            Age   From               Message
  ----     ------            ----  ----               -------
  Warning  FailedScheduling  41s   default-scheduler  0/6 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.`, "", u5NeverFail)
	h.ask("cargo-yanked", "copperkettle", "linux", "cargo update -p tokio --precise 1.38.0", `    Updating crates.io index
error: failed to select a version for the requirement §tokio = "=1.38.0"§
candidate versions found which didn't match: 1.43.0, 1.42.0, 1.41.1, ...
location searched: crates.io index
required by package §copperkettle v0.4.0 (/home/dev/copperkettle)§
if you are looking for the prerelease package it needs to be specified explicitly
    tokio = { version = "1.38.1-alpha.1" }
perhaps a crate was updated and forgotten to be re-vendored?`, "", u5NeverFail)
	h.ask("ruff-e501", "quillmate", "linux", "ruff check .", `quillmate/api/search.py:77:89: E501 Line too long (112 > 88)
quillmate/api/search.py:80:5: F841 [*] Local variable §page§ is assigned to but never used
Found 2 errors.
[*] 1 fixable with the §--fix§ option.`, "", u5NeverFail)
	h.ask("npm-404", "tinsel-ui", "darwin", "npm install @tinsel/design-tokens@2.1.0", `npm ERR! code E404
npm ERR! 404 Not Found - GET https://registry.npmjs.org/@tinsel%2fdesign-tokens - Not found
npm ERR! 404 
npm ERR! 404  '@tinsel/design-tokens@2.1.0' is not in this registry.
npm ERR! 404 
npm ERR! 404 Note that you can also install from a
npm ERR! 404 tarball, folder, http url, or git url.`, "", u5NeverObj)
	h.ask("tf-cycle", "saltmarsh-infra", "darwin", "terraform validate", `╷
│ Error: Cycle: module.network.aws_security_group.app, module.network.aws_security_group.db
│ 
╵`, "", u5NeverFail)
	h.ask("gomod-main-generic", "tollgate", "windows", "go run main.go", u5crlf(`main.go:9:2: package tollgate/internal/gateway is not in std (C:\Program Files\Go\src\tollgate\internal\gateway)`), "", u5Generic)
	h.ask("pytest-xdist-flag", "harborview", "linux", "pytest -n auto", `ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]
pytest: error: unrecognized arguments: -n
  inifile: /home/runner/work/harborview/harborview/pytest.ini
  rootdir: /home/runner/work/harborview/harborview`, "", u5NeverObj)
}
