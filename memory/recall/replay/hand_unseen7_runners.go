package replay

// unseen7Runners: pytest, Jest, Vitest, go test, cargo test, RSpec,
// Playwright and Cypress.
func unseen7Runners(h *hand) {
	// pytest: one message, two causes; the traceback's paths tell which.
	h.note(Note{ID: "pytest-src-layout", Project: "ottertrack", OS: "linux", Lang: "python", At: day(2024, 7, 2),
		Title:   "pytest: No module named 'ottertrack' with the src/ layout",
		What:    "Fresh clone in the CI container, `pytest` fails collecting every test module: E   ModuleNotFoundError: No module named 'ottertrack'.",
		Why:     "With src/ layout the package is importable only once installed. The container step ran `uv sync --no-install-project` for layer caching and never installed the project itself; pytest's rootdir insertion only puts tests/ on sys.path.",
		Where:   "pyproject.toml [tool.pytest.ini_options], Dockerfile.ci",
		Learned: "Set `pythonpath = [\"src\"]` for pytest so a bare run works, and do the final `uv sync` (with the project) after COPY . in the CI image.",
		Fix:     "uv sync && uv run pytest"})
	h.note(Note{ID: "pytest-brew-interpreter", Project: "ottertrack", OS: "macos", Lang: "python", At: day(2024, 10, 15),
		Title:   "pytest ran Homebrew's python instead of the venv",
		What:    "`pytest -q` → ModuleNotFoundError: No module named 'ottertrack', although `uv sync` ran and `.venv/bin/python -c 'import ottertrack'` works.",
		Why:     "The `pytest` on PATH was /opt/homebrew/bin/pytest (brew-installed for another project), running Homebrew's python 3.13 with none of our deps. The traceback paths under /opt/homebrew/Cellar gave it away.",
		Where:   "local shell PATH",
		Learned: "Run tests with `uv run pytest` or `python -m pytest` from the venv; `which pytest` first when imports fail that work in python.",
		Fix:     "brew uninstall pytest && uv run pytest -q"})
	h.ask("pytest-src-layout/1", "ottertrack", "linux", "pytest", `
============================= test session starts ==============================
platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0
rootdir: /srv/ottertrack
configfile: pyproject.toml
collected 0 items / 3 errors

==================================== ERRORS ====================================
_________________ ERROR collecting tests/test_pipeline.py __________________
ImportError while importing test module '/srv/ottertrack/tests/test_pipeline.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
/root/.local/share/uv/python/cpython-3.12.4-linux-x86_64-gnu/lib/python3.12/importlib/__init__.py:90: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_pipeline.py:4: in <module>
    from ottertrack.pipeline import Pipeline
E   ModuleNotFoundError: No module named 'ottertrack'
...
=========================== short test summary info ============================
ERROR tests/test_pipeline.py
ERROR tests/test_sinks.py
ERROR tests/test_config.py
!!!!!!!!!!!!!!!!!!! Interrupted: 3 errors during collection !!!!!!!!!!!!!!!!!!!!
`, "pytest-src-layout", "same text, another cause")
	h.ask("pytest-brew-interpreter/1", "ottertrack", "macos", "pytest -q", `
==================================== ERRORS ====================================
_________________ ERROR collecting tests/test_sinks.py __________________
ImportError while importing test module '/Users/maria/code/ottertrack/tests/test_sinks.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
/opt/homebrew/Cellar/python@3.13/3.13.0_1/Frameworks/Python.framework/Versions/3.13/lib/python3.13/importlib/__init__.py:88: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_sinks.py:3: in <module>
    from ottertrack.sinks import S3Sink
E   ModuleNotFoundError: No module named 'ottertrack'
=========================== short test summary info ============================
ERROR tests/test_sinks.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
1 error in 0.09s
`, "pytest-brew-interpreter", "same text, another cause")
	h.ask("pytest-torch/1", "fernway", "linux", "pytest tests/unit", `
_________________ ERROR collecting tests/unit/test_loop.py __________________
ImportError while importing test module '/home/dev/fernway/tests/unit/test_loop.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
/home/dev/miniforge3/envs/fernway/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/unit/test_loop.py:2: in <module>
    import torch
E   ModuleNotFoundError: No module named 'torch'
=========================== short test summary info ============================
ERROR tests/unit/test_loop.py
`, "", "never stored: same kind, another object")
	h.ask("pytest-mocker/1", "ottertrack", "linux", "uv run pytest tests/test_http.py", `
==================================== ERRORS ====================================
____________________ ERROR at setup of test_retry_on_429 _____________________
file /home/dev/ottertrack/tests/test_http.py, line 18
  def test_retry_on_429(mocker):
E       fixture 'mocker' not found
>       available fixtures: anyio_backend, anyio_backend_name, anyio_backend_options, cache, capfd, capfdbinary, caplog, capsys, capsysbinary, doctest_namespace, monkeypatch, pytestconfig, record_property, record_testsuite_property, record_xml_attribute, recwarn, tmp_path, tmp_path_factory, tmpdir, tmpdir_factory
>       use 'pytest --fixtures [testpath]' for help on them.

/home/dev/ottertrack/tests/test_http.py:18
=========================== short test summary info ============================
ERROR tests/test_http.py::test_retry_on_429
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "pytest-asyncio-missing", Project: "ottertrack", OS: "linux", Lang: "python", At: day(2023, 4, 24),
		Title:   "async tests silently skipped — pytest-asyncio not installed",
		What:    "The new async sink tests 'passed' but never ran: pytest printed PytestUnhandledCoroutineWarning: async def functions are not natively supported and has been skipped.",
		Why:     "pytest itself can't run coroutines; pytest-asyncio was in my global env, not in requirements-dev.txt, so CI skipped them.",
		Where:   "requirements-dev.txt, pyproject.toml [tool.pytest.ini_options]",
		Learned: "Add pytest-asyncio and set asyncio_mode = \"auto\" so plain async def tests run without a marker; add -W error::pytest.PytestUnhandledCoroutineWarning so it can't be silent again.",
		Fix:     "pip install pytest-asyncio && echo 'pytest-asyncio==0.21.0' >> requirements-dev.txt"})
	h.ask("pytest-asyncio-missing/1", "ottertrack", "linux", "uv run pytest tests/test_sinks.py", `
============================= test session starts ==============================
platform linux -- Python 3.12.9, pytest-8.4.0, pluggy-1.6.0
rootdir: /home/dev/ottertrack
configfile: pyproject.toml
plugins: anyio-4.9.0
collected 6 items

tests/test_sinks.py FF....                                               [100%]

=================================== FAILURES ===================================
___________________________ test_s3_flush_batches ____________________________
async def functions are not natively supported.
You need to install a suitable plugin for your async framework, for example:
  - anyio
  - pytest-asyncio
  - pytest-tornasync
  - pytest-trio
  - pytest-twisted
=========================== short test summary info ============================
FAILED tests/test_sinks.py::test_s3_flush_batches - Failed: async def functions are not natively supported.
FAILED tests/test_sinks.py::test_kafka_retries - Failed: async def functions are not natively supported.
========================= 2 failed, 4 passed in 0.31s ==========================
`, "pytest-asyncio-missing", "another tool version's wording")

	// Jest: one message, two causes in two projects.
	h.note(Note{ID: "jest-esm-nanoid", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2023, 5, 30),
		Title:   "jest: Cannot use import statement outside a module — from nanoid in node_modules",
		What:    "After bumping nanoid to 5, jest fails every suite importing it: Jest encountered an unexpected token ... node_modules/.pnpm/nanoid@5.0.1/node_modules/nanoid/index.browser.js:1 import { urlAlphabet } ... SyntaxError: Cannot use import statement outside a module.",
		Why:     "nanoid 5 is ESM-only and jest doesn't transform node_modules. With pnpm the real path goes through node_modules/.pnpm/, so the usual transformIgnorePatterns exception never matches.",
		Where:   "packages/api/jest.config.ts",
		Learned: "transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm|nanoid))'] — the .pnpm part matters. Or stay on nanoid 3, which is still CJS.",
		Fix:     ""})
	h.note(Note{ID: "jest-ts-no-transform", Project: "cinderdocs", OS: "macos", Lang: "typescript", At: day(2024, 2, 12),
		Title:   "jest can't parse our own .ts tests after babel.config.js was deleted",
		What:    "Removed babel.config.js thinking it was only for the old build; every test now fails with SyntaxError: Cannot use import statement outside a module, pointing at line 1 of the test file itself.",
		Why:     "jest's default transform is babel-jest, which needs that babel config (preset-typescript) to handle .ts; without it the files go to node untransformed.",
		Where:   "jest.config.js, babel.config.js (deleted)",
		Learned: "Use the ts-jest preset explicitly so the test transform doesn't hang off an unrelated build config.",
		Fix:     "npm i -D ts-jest && npx ts-jest config:init"})
	h.ask("jest-esm-nanoid/1", "quillmark", "linux", "pnpm --filter @quillmark/api test", `
 FAIL  src/share/token.test.ts
  ● Test suite failed to run

    Jest encountered an unexpected token

    Jest failed to parse a file. This happens e.g. when your code or its dependencies use non-standard JavaScript syntax, or when Jest is not configured to support such syntax.

    Out of the box Jest supports Babel, which will be used to transform your files into valid JS based on your Babel configuration.

    By default "node_modules" folder is ignored by transformers.

    Details:

    /home/dev/quillmark/node_modules/.pnpm/nanoid@5.0.7/node_modules/nanoid/index.js:1
    ({"Object.<anonymous>":function(module,exports,require,__dirname,__filename,jest){import { webcrypto as crypto } from 'node:crypto'
                                                                                      ^^^^^^

    SyntaxError: Cannot use import statement outside a module

      1 | import { customAlphabet } from 'nanoid';
        | ^
`, "jest-esm-nanoid", "same text, another cause")
	h.ask("jest-ts-no-transform/1", "cinderdocs", "macos", "npx jest", `
 FAIL  src/lib/slug.test.ts
  ● Test suite failed to run

    Jest encountered an unexpected token

    By default "node_modules" folder is ignored by transformers.

    Details:

    /Users/maria/code/cinderdocs/src/lib/slug.test.ts:1
    ({"Object.<anonymous>":function(module,exports,require,__dirname,__filename,jest){import { slugify } from './slug';
                                                                                      ^^^^^^

    SyntaxError: Cannot use import statement outside a module

      at Runtime.createScriptFromCode (node_modules/jest-runtime/build/index.js:1505:14)

Test Suites: 14 failed, 14 total
`, "jest-ts-no-transform", "same text, another cause")
	h.ask("jest-ts-no-transform/2", "quillmark", "windows", "pnpm --filter @quillmark/api test", u7crlf(`
 FAIL  src/export/pdf.test.ts
  ● Test suite failed to run

    Jest encountered an unexpected token

    Details:

    C:\Users\maria\src\quillmark\packages\api\src\export\pdf.test.ts:1
    ({"Object.<anonymous>":function(module,exports,require,__dirname,__filename,jest){import { renderPdf } from './pdf';
                                                                                      ^^^^^^

    SyntaxError: Cannot use import statement outside a module

      at Runtime.createScriptFromCode (node_modules/.pnpm/jest-runtime@29.7.0/node_modules/jest-runtime/build/index.js:1505:14)
`), "", "same text, another cause; another project's project note")

	h.note(Note{ID: "vitest-globals", Project: "quillmark", OS: "macos", Lang: "typescript", At: day(2024, 9, 23),
		Title:   "vitest: ReferenceError: describe is not defined after the jest port",
		What:    "Moved the ui package's tests from jest to vitest; `pnpm vitest run` → ReferenceError: describe is not defined in every file.",
		Why:     "Vitest doesn't inject describe/it/expect as globals unless test.globals is true.",
		Where:   "packages/ui/vitest.config.ts, packages/ui/tsconfig.json",
		Learned: "globals: true in vitest.config plus \"types\": [\"vitest/globals\"] for tsc; or import them from 'vitest' explicitly, which we'll do in new files.",
		Fix:     ""})
	h.note(Note{ID: "vitest-jsdom", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2025, 3, 10),
		Title:   "vitest: Cannot find dependency 'jsdom' in CI",
		What:    "Switched packages/ui tests to environment jsdom; locally vitest offered to install it, in CI the run stops with MISSING DEPENDENCY Cannot find dependency 'jsdom'.",
		Why:     "Vitest doesn't bundle test environments; jsdom must be a devDependency of the package that runs the tests (hoisting from another workspace package doesn't count with pnpm).",
		Where:   "packages/ui/package.json",
		Learned: "Add jsdom to the same package as vitest. happy-dom is the lighter alternative but breaks our contenteditable tests.",
		Fix:     "pnpm --filter @quillmark/ui add -D jsdom"})
	h.ask("vitest-globals/1", "quillmark", "macos", "pnpm --filter @quillmark/ui test", `
 FAIL  src/lib/slug.test.ts [ src/lib/slug.test.ts ]
ReferenceError: describe is not defined
 ❯ src/lib/slug.test.ts:3:1
      1| import { slugify } from './slug';
      2| 
      3| describe('slugify', () => {
       | ^
      4|   it('lowercases', () => {
      5|     expect(slugify('Hello World')).toBe('hello-world');

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 Test Files  1 failed | 12 passed (13)
      Tests  41 passed (41)
   Start at  10:14:52
   Duration  2.31s
`, "vitest-globals", "stored: the tool's own wording")
	h.ask("vitest-jsdom/1", "quillmark", "linux", "pnpm --filter @quillmark/ui test --run", `

 RUN  v3.0.8 /home/dev/quillmark/packages/ui

\e[41m\e[1m MISSING DEPENDENCY \e[22m\e[49m  Cannot find dependency 'jsdom'

 ELIFECYCLE  Test failed. See above for more details.
Error: Process completed with exit code 1.
`, "vitest-jsdom", "same tool, another error")
	h.ask("vitest-coverage/1", "quillmark", "linux", "pnpm vitest run --coverage", `

 RUN  v3.1.1 /home/dev/quillmark/packages/ui
      Coverage enabled with v8

\e[41m\e[1m MISSING DEPENDENCY \e[22m\e[49m  Cannot find dependency '@vitest/coverage-v8'

 ELIFECYCLE  Command failed with exit code 1.
`, "", "never stored: same kind, another object")

	h.note(Note{ID: "gotest-race-cgo", Project: "bramble", OS: "linux", Lang: "go", At: day(2022, 11, 8),
		Title:   "go test -race in the alpine CI image: -race requires cgo",
		What:    "Added -race to the test job (golang:1.19-alpine image) and it fails immediately: go: -race requires cgo; enable cgo by setting CGO_ENABLED=1.",
		Why:     "The alpine images have CGO_ENABLED=0 effectively (no gcc), and the race detector needs cgo.",
		Where:   ".github/workflows/test.yml",
		Learned: "Install build-base and set CGO_ENABLED=1 for the race job only, or run it on the debian-based golang image.",
		Fix:     "apk add --no-cache build-base && CGO_ENABLED=1 go test -race ./..."})
	h.ask("gotest-race-cgo/1", "bramble", "linux", "go test -race ./...", `
go: -race requires cgo; enable cgo by setting CGO_ENABLED=1
Error: Process completed with exit code 2.
`, "gotest-race-cgo", "stored: the tool's own wording")

	h.note(Note{ID: "gotest-testcontainers-colima", Project: "bramble", OS: "macos", Lang: "go", At: day(2024, 5, 22),
		Title:   "testcontainers-go on colima: rootless Docker not found",
		What:    "Integration tests fail at container start on my Mac: failed to create Docker provider: rootless Docker not found. `docker ps` works fine.",
		Why:     "colima's socket is ~/.colima/default/docker.sock, not /var/run/docker.sock; testcontainers doesn't read the docker CLI context.",
		Where:   "internal/store/store_pg_test.go, ~/.testcontainers.properties",
		Learned: "Export DOCKER_HOST to colima's socket and TESTCONTAINERS_DOCKER_SOCKET_OVERRIDE=/var/run/docker.sock (the path inside the VM) for Ryuk.",
		Fix:     "export DOCKER_HOST=\"unix://$HOME/.colima/default/docker.sock\" TESTCONTAINERS_DOCKER_SOCKET_OVERRIDE=/var/run/docker.sock"})
	h.ask("gotest-testcontainers-colima/1", "bramble", "macos", "go test -tags integration ./internal/store/...", `
2025/02/11 09:41:07 github.com/testcontainers/testcontainers-go - Connected to docker: 
  Server Version: 
  API Version: 
--- FAIL: TestStore_Postgres (0.01s)
    store_pg_test.go:31: 
        	Error Trace:	/Users/maria/code/bramble/internal/store/store_pg_test.go:31
        	Error:      	Received unexpected error:
        	            	create container: failed to create Docker provider: rootless Docker not found
        	Test:       	TestStore_Postgres
FAIL
FAIL	github.com/bramble-dev/bramble/internal/store	0.412s
FAIL
`, "gotest-testcontainers-colima", "stored: paraphrased note")
	h.ask("gotest-timeout/1", "bramble", "linux", "go test ./internal/queue/...", `
panic: test timed out after 10m0s
	running tests:
		TestConsumer_Redelivery (10m0s)

goroutine 41 [running]:
testing.(*M).startAlarm.func1()
	/usr/local/go/src/testing/testing.go:2366 +0x385
created by time.goFunc
	/usr/local/go/src/time/sleep.go:177 +0x2d
...
FAIL	github.com/bramble-dev/bramble/internal/queue	600.112s
FAIL
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "cargo-msvc-linker", Project: "ferrule", Scope: "global", OS: "windows", Lang: "rust", At: day(2023, 8, 2),
		Title:   "cargo on Windows: linker `link.exe` not found",
		What:    "First `cargo test` on the Windows box after rustup-init: error: linker `link.exe` not found, note: the msvc targets depend on the msvc linker but `link.exe` was not found.",
		Why:     "rustup's default host is x86_64-pc-windows-msvc, which needs the Visual Studio C++ build tools; I'd skipped them in the installer.",
		Where:   "the Windows dev machine",
		Learned: "Install Build Tools for Visual Studio with the 'Desktop development with C++' workload (MSVC + Windows SDK). The gnu toolchain is an option but breaks crates with C deps.",
		Fix:     "winget install Microsoft.VisualStudio.2022.BuildTools --override \"--quiet --add Microsoft.VisualStudio.Workload.VCTools --includeRecommended\""})
	h.ask("cargo-msvc-linker/1", "ferrule", "windows", "cargo test", u7crlf(`
   Compiling proc-macro2 v1.0.86
   Compiling unicode-ident v1.0.12
error: linker §link.exe§ not found
  |
  = note: program not found

note: the msvc targets depend on the msvc linker but §link.exe§ was not found

note: please ensure that Visual Studio 2017 or later, or Build Tools for Visual Studio were installed with the Visual C++ option.

note: VS Code is a different product, and is not sufficient.

error: could not compile §proc-macro2§ (build script) due to 1 previous error
warning: build failed, waiting for other jobs to finish...
`), "cargo-msvc-linker", "windows console")

	h.note(Note{ID: "cargo-insta-ci", Project: "ferrule", OS: "linux", Lang: "rust", At: day(2024, 2, 6),
		Title:   "insta snapshot tests fail in CI but 'pass' locally",
		What:    "cargo test in CI: snapshot assertion for 'render_table' failed ... stored new snapshot. Locally the same run writes .snap.new files and I hadn't noticed them.",
		Why:     "insta in CI (CI=true) refuses to accept new snapshots; the .snap for the changed table output was never reviewed and committed.",
		Where:   "tests/snapshots/*.snap",
		Learned: "Run cargo insta test --review locally after changing output, commit the .snap files, and add *.snap.new to .gitignore.",
		Fix:     "cargo install cargo-insta && cargo insta test --review"})
	h.ask("cargo-insta-ci/1", "ferrule", "linux", "cargo test --all-features", `
     Running tests/render.rs (target/debug/deps/render-3f0c5b2a9d1e7c44)

running 7 tests
test render_table ... FAILED

---- render_table stdout ----
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
Snapshot: render_table
Source: tests/render.rs:41
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
-old snapshot
+new results
────────────┬───────────────────────────────────────────────────────────────────
    3     3 │ │ name    │ size │
    4       │-│ a.txt   │ 12 B │
          4 │+│ a.txt   │   12 B │
────────────┴───────────────────────────────────────────────────────────────────
stored new snapshot /home/dev/ferrule/tests/snapshots/render__render_table.snap.new
thread 'render_table' panicked at /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/insta-1.39.0/src/runtime.rs:563:9:
snapshot assertion for 'render_table' failed in line 41
test result: FAILED. 6 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.04s

error: test failed, to rerun pass §--test render§
`, "cargo-insta-ci", "stored: the tool's own wording")

	h.note(Note{ID: "rspec-pending-migration", Project: "lanternpay", OS: "linux", Lang: "ruby", At: day(2022, 10, 4),
		Title:   "rspec aborts with ActiveRecord::PendingMigrationError after pulling main",
		What:    "`bundle exec rspec` → Migrations are pending. To resolve this issue, run: bin/rails db:migrate RAILS_ENV=test — right after pulling main.",
		Why:     "rails_helper calls maintain_test_schema!, which loads db/schema.rb. Someone merged a migration without committing the regenerated schema.rb.",
		Where:   "db/schema.rb, spec/rails_helper.rb",
		Learned: "Run bin/rails db:migrate in development so schema.rb regenerates, and commit it; the test DB is then rebuilt from it. Migrating RAILS_ENV=test only papers over it for one machine.",
		Fix:     "bin/rails db:migrate && git add db/schema.rb"})
	h.ask("rspec-pending-migration/1", "lanternpay", "linux", "bundle exec rspec spec/models", `
An error occurred while loading ./spec/models/refund_spec.rb.
Failure/Error: ActiveRecord::Migration.maintain_test_schema!

ActiveRecord::PendingMigrationError:


  Migrations are pending. To resolve this issue, run:

          bin/rails db:migrate

  You have 1 pending migration:

  db/migrate/20240311093012_add_refunded_at_to_payments.rb

# ./spec/rails_helper.rb:28:in '<top (required)>'
No examples found.

Finished in 0.00003 seconds (files took 1.87 seconds to load)
0 examples, 0 failures, 1 error occurred outside of examples
`, "rspec-pending-migration", "another tool version's wording")
	h.ask("rspec-no-database/1", "lanternpay", "macos", "bundle exec rspec", `
An error occurred while loading ./spec/requests/payments_spec.rb.
Failure/Error: ActiveRecord::Migration.maintain_test_schema!

ActiveRecord::NoDatabaseError:
  We could not find your database: lanternpay_test. Available database configurations can be found in config/database.yml.

  To resolve this error:

  - Did you not create the database, or did you delete it? To create the database, run:

      bin/rails db:create
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "playwright-browser-cache", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2024, 6, 27),
		Title:   "playwright e2e: Executable doesn't exist after bumping @playwright/test",
		What:    "e2e job fails in every test: browserType.launch: Executable doesn't exist at /home/runner/.cache/ms-playwright/chromium-1117/chrome-linux/chrome, right after renovate bumped to 1.45.",
		Why:     "Browser builds are versioned per Playwright release. The workflow cached ~/.cache/ms-playwright keyed only on the OS, so it restored the old revision and skipped the install.",
		Where:   ".github/workflows/e2e.yml",
		Learned: "Key the cache on the @playwright/test version from the lockfile and always run the install step (it's a no-op when the revision is present).",
		Fix:     "pnpm exec playwright install --with-deps chromium"})
	h.ask("playwright-browser-cache/1", "quillmark", "linux", "pnpm --filter e2e exec playwright test", `
Running 38 tests using 2 workers

  1) [chromium] › tests/editor.spec.ts:12:3 › editor › saves a draft ───────────────────────────

    Error: browserType.launch: Executable doesn't exist at /home/runner/.cache/ms-playwright/chromium-1140/chrome-linux/chrome
    ╔═════════════════════════════════════════════════════════════════════════╗
    ║ Looks like Playwright Test or Playwright was just installed or updated. ║
    ║ Please run the following command to download new browsers:              ║
    ║                                                                         ║
    ║     pnpm exec playwright install                                        ║
    ║                                                                         ║
    ║ <3 Playwright Team                                                      ║
    ╚═════════════════════════════════════════════════════════════════════════╝

  38 failed
`, "playwright-browser-cache", "another tool version's wording")
	h.ask("playwright-browser-cache/2", "cinderdocs", "linux", "npx playwright test", `
  1) [chromium] › e2e/search.spec.ts:5:1 › search finds the install guide ─────────────────────

    Error: browserType.launch: Executable doesn't exist at /home/dev/.cache/ms-playwright/chromium-1148/chrome-linux/chrome
    ╔═════════════════════════════════════════════════════════════════════════╗
    ║ Looks like Playwright Test or Playwright was just installed or updated. ║
    ║ Please run the following command to download new browsers:              ║
    ║                                                                         ║
    ║     npx playwright install                                              ║
    ║                                                                         ║
    ║ <3 Playwright Team                                                      ║
    ╚═════════════════════════════════════════════════════════════════════════╝
`, "", "another project's project note")
	h.ask("playwright-timeout/1", "quillmark", "macos", "pnpm --filter e2e exec playwright test tests/share.spec.ts", `
  1) [webkit] › tests/share.spec.ts:20:3 › share › copies the link ─────────────────────────────

    Error: Timed out 5000ms waiting for expect(locator).toBeVisible()

    Locator: getByRole('status').filter({ hasText: 'Link copied' })
    Expected: visible
    Received: <element(s) not found>
    Call log:
      - expect.toBeVisible with timeout 5000ms
      - waiting for getByRole('status').filter({ hasText: 'Link copied' })

      24 |     await page.getByRole('button', { name: 'Copy link' }).click();
    > 25 |     await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();

  1 failed
`, "", "never stored: same tool, another error")

	// Cypress: a 2022 fix the 2024 note says stopped working.
	h.note(Note{ID: "cypress-binary-install", Project: "cinderdocs", OS: "linux", Lang: "javascript", At: day(2022, 3, 15),
		Title:   "Cypress binary missing in CI after npm ci with cached node_modules",
		What:    "`npx cypress run` → The cypress npm package is installed, but the Cypress binary is missing. We expected the binary to be installed here: /root/.cache/Cypress/9.5.1/Cypress/Cypress",
		Why:     "The workflow restores node_modules from cache, so npm ci's postinstall (which downloads the binary) doesn't run on a cache hit.",
		Where:   ".github/workflows/e2e.yml",
		Learned: "Added an explicit install step before cypress run.",
		Fix:     "npx cypress install"})
	h.note(Note{ID: "cypress-cache-folder", Project: "cinderdocs", OS: "linux", Lang: "javascript", At: day(2024, 4, 30), ProseOver: "cypress-binary-install",
		Title:   "Cypress binary missing again in the container job — set CYPRESS_CACHE_FOLDER",
		What:    "The new container-based e2e job says the Cypress binary is missing again. The `npx cypress install` step I added in 2022 doesn't do it anymore: the job runs as the node user with HOME on a throwaway layer, the binary lands there and the next step (different container) can't see it, and it downloads 500 MB per run.",
		Why:     "The binary location follows HOME unless CYPRESS_CACHE_FOLDER is set; caching node_modules never covered it.",
		Where:   ".github/workflows/e2e.yml",
		Learned: "Set CYPRESS_CACHE_FOLDER to a dir inside the workspace for every step, cache that dir keyed on the cypress version, and `npx cypress verify` in the install step. The old install-only step is obsolete.",
		Fix:     "export CYPRESS_CACHE_FOLDER=$PWD/.cache/Cypress && npx cypress install && npx cypress verify"})
	h.ask("cypress-cache-folder/1", "cinderdocs", "linux", "npx cypress run --browser chrome", `
The cypress npm package is installed, but the Cypress binary is missing.

We expected the binary to be installed here: /home/node/.cache/Cypress/13.8.1/Cypress/Cypress

Reasons it may be missing:

- You're caching 'node_modules' but are not caching this path: /home/node/.cache/Cypress
- You ran 'npm install' with an env var like: CYPRESS_INSTALL_BINARY=0

Properly caching the binary will fix this error and avoid downloading and unzipping Cypress.

Alternatively, you can run 'cypress install' to download the binary again.

https://on.cypress.io/not-installed-ci-error

----------

Platform: linux-x64 (Debian - 12.5)
Cypress Version: 13.8.1
`, "cypress-cache-folder", "superseded in prose", "cypress-binary-install")
	h.ask("cypress-libgbm/1", "cinderdocs", "linux", "npx cypress verify", `
✖  Verifying Cypress can run /home/node/.cache/Cypress/13.8.1/Cypress
→ Cypress Version: 13.8.1
Cypress failed to start.

This may be due to a missing library or dependency. https://on.cypress.io/required-dependencies

Please refer to the error below for more details.

----------

/home/node/.cache/Cypress/13.8.1/Cypress/Cypress: error while loading shared libraries: libgbm.so.1: cannot open shared object file: No such file or directory

----------

Platform: linux-x64 (Debian - 12.5)
`, "", "never stored: same tool, another error")
}
