package replay

// unseen7Never: failures met in the same repositories that no note is
// about, many naming the files every repository has (package.json,
// go.mod, pyproject.toml, Cargo.toml, Gemfile, Dockerfile, CMakeLists.txt,
// build.gradle); the memory should stay silent.
func unseen7Never(h *hand) {
	h.ask("never-package-json/1", "cinderdocs", "linux", "npm install", `
npm error code EJSONPARSE
npm error path /home/dev/cinderdocs/package.json
npm error JSON.parse Invalid package.json: JSONParseError: Expected ',' or '}' after property value in JSON at position 1123 (line 41 column 5) while parsing near "...ild\": \"vite build\"\n    \"preview\": \"vite pr..."
npm error JSON.parse Failed to parse JSON data.
npm error JSON.parse Note: package.json must be actual JSON, not just JavaScript.
npm error A complete log of this run can be found in: /home/dev/.npm/_logs/2025-04-01T07_55_12_004Z-debug-0.log
`, "", "generic file name: package.json")
	h.ask("never-go-mod/1", "bramble", "linux", "go build ./...", `
go: errors parsing go.mod:
/home/dev/bramble/go.mod:5: unknown directive: toolchian
`, "", "generic file name: go.mod")
	h.ask("never-go-mod/2", "wrenfield", "windows", "go env GOMOD GOWORK; go run .", u7crlf(`
NUL

go: go.mod file not found in current directory or any parent directory; see 'go help modules'
`), "", "generic file name: go.mod; windows console")
	h.ask("never-pyproject/1", "ottertrack", "macos", "uv sync", `
error: Failed to parse: §pyproject.toml§
  Caused by: TOML parse error at line 14, column 32
   |
14 | dependencies = ["httpx>=0.27" "pydantic>=2.7"]
   |                                ^
invalid array
expected §,§, §]§
`, "", "generic file name: pyproject.toml")
	h.ask("never-cargo-toml/1", "ferrule", "linux", "cargo build", `
error: failed to parse manifest at §/home/dev/ferrule/Cargo.toml§

Caused by:
  feature §edition2024§ is required

  The package requires the Cargo feature called §edition2024§, but that feature is not stabilized in this version of Cargo (1.82.0 (8f40fc59f 2024-08-21)).
  Consider trying a newer version of Cargo (this may require the nightly release).
  See https://doc.rust-lang.org/nightly/cargo/reference/unstable.html#edition-2024 for more information about the status of this feature.
`, "", "generic file name: Cargo.toml")
	h.ask("never-gemfile/1", "lanternpay", "macos", "bundle install", `
[!] There was an error parsing §Gemfile§: syntax error, unexpected end-of-input, expecting §end'. Bundler cannot continue.

 #  from /Users/maria/code/lanternpay/Gemfile:71
 #  -------------------------------------------
 #  group :test do
 >    gem "webmock"
 #  -------------------------------------------
`, "", "generic file name: Gemfile")
	h.ask("never-ruby-version/1", "lanternpay", "linux", "cat .ruby-version; ruby -v; bundle exec rails s", `
3.3.5
ruby 3.2.2 (2023-03-30 revision e51014f9c0) [x86_64-linux]
Your Ruby version is 3.2.2, but your Gemfile specified 3.3.5
`, "", "never stored: another failure; generic file name Gemfile")
	h.ask("never-dockerfile/1", "ottertrack", "linux", "docker build -t ottertrack:dev .", `
[+] Building 1.3s (9/12)                                         docker:default
 => [internal] load build definition from Dockerfile                       0.0s
 => => transferring dockerfile: 1.21kB                                     0.0s
 => ERROR [runtime 4/6] COPY config/settings.prod.yaml /etc/ottertrack/    0.0s
------
 > [runtime 4/6] COPY config/settings.prod.yaml /etc/ottertrack/:
------
Dockerfile:31
--------------------
  29 |     WORKDIR /app
  30 |     COPY --from=builder /app/.venv /app/.venv
  31 | >>> COPY config/settings.prod.yaml /etc/ottertrack/
--------------------
ERROR: failed to solve: failed to compute cache key: failed to calculate checksum of ref 6b2c1f3e-0d4a-4e8b-9c7f-1a2b3c4d5e6f::q0w9e8r7t6y5: "/config/settings.prod.yaml": not found
`, "", "generic file name: Dockerfile")
	h.ask("never-cmakelists/1", "mossgate", "macos", "cmake -S third_party/tinyxml -B build/tinyxml", `
CMake Error at CMakeLists.txt:1 (cmake_minimum_required):
  Compatibility with CMake < 3.5 has been removed from CMake.

  Update the VERSION argument <min> value.  Or, use the <min>...<max> syntax
  to tell CMake that the project requires at least <min> but has been updated
  to work with policies introduced by <max> or earlier.

  Or, add -DCMAKE_POLICY_VERSION_MINIMUM=3.5 to try configuring anyway.


-- Configuring incomplete, errors occurred!
`, "", "generic file name: CMakeLists.txt; never stored: another failure")
	h.ask("never-build-gradle/1", "sloeberry", "linux", "cd android && ./gradlew assembleRelease", `
FAILURE: Build failed with an exception.

* Where:
Build file '/home/dev/sloeberry/android/app/build.gradle' line: 142

* What went wrong:
A problem occurred evaluating project ':app'.
> Could not find method implementation() for arguments [androidx.core:core-ktx:1.13.1] on object of type org.gradle.api.internal.artifacts.dsl.dependencies.DefaultDependencyHandler.

* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 4s
`, "", "generic file name: build.gradle")
	h.ask("never-precommit-config/1", "fernway", "linux", "pre-commit run --all-files", `
An error has occurred: InvalidConfigError: 
==> File .pre-commit-config.yaml
==> At Config()
==> At key: repos
==> At Repository(repo='https://github.com/astral-sh/ruff-pre-commit')
==> At key: hooks
==> At Hook(id='ruff-format')
=====> Expected bool got str
Check the log at /home/dev/.cache/pre-commit/pre-commit.log
`, "", "generic file name: .pre-commit-config.yaml")
	h.ask("never-tsconfig/1", "quillmark", "linux", "pnpm --filter @quillmark/admin typecheck", `
error TS5083: Cannot read file '/home/dev/quillmark/tsconfig.base.json'.

 ELIFECYCLE  Command failed with exit code 1.
`, "", "generic file name: tsconfig.json")
	h.ask("never-jest-empty/1", "cinderdocs", "linux", "npx jest src/lib", `
 FAIL  src/lib/toc.test.ts
  ● Test suite failed to run

    Your test suite must contain at least one test.

      at onResult (node_modules/@jest/core/build/TestScheduler.js:133:18)

Test Suites: 1 failed, 6 passed, 7 total
Tests:       38 passed, 38 total
`, "", "never stored: another failure")
	h.ask("never-vitest-nofiles/1", "pebblecast", "linux", "bunx vitest run apps/worker", `
 RUN  v3.1.1 /home/dev/pebblecast

No test files found, exiting with code 1

filter: apps/worker
include: **/*.{test,spec}.?(c|m)[jt]s?(x)
exclude:  **/node_modules/**, **/dist/**
`, "", "never stored: another failure")
	h.ask("never-npm-404/1", "quillmark", "macos", "pnpm add -D @quillmark/eslint-config", `
 ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/@quillmark%2Feslint-config: Not Found - 404

This error happened while installing a direct dependency of /Users/maria/code/quillmark

@quillmark/eslint-config is not in the npm registry, or you have no permission to fetch it.

No authorization header was set for the request.
`, "", "never stored: another failure")
	h.ask("never-rustup-toolchain/1", "ferrule", "linux", "cargo +nightly-2024-05-01 fuzz run parse", `
error: toolchain 'nightly-2024-05-01-x86_64-unknown-linux-gnu' is not installed
help: run §rustup toolchain install nightly-2024-05-01-x86_64-unknown-linux-gnu§ to install it
`, "", "never stored: another failure")
	h.ask("never-make-windows/1", "mossgate", "windows", "make test", u7crlf(`
'make' is not recognized as an internal or external command,
operable program or batch file.
`), "", "never stored: another failure; windows console")
	h.ask("never-gradle-daemon/1", "kitehop", "linux", "flutter build apk", `
Running Gradle task 'assembleRelease'...
FAILURE: Build failed with an exception.

* What went wrong:
Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)

* Try:
> Run with --stacktrace option to get the stack trace.
> Run with --info or --debug option to get more log output.
> Get more help at https://help.gradle.org.
`, "", "never stored: another failure")
	h.ask("never-not-git/1", "bramble", "linux", "docker build .", `
#14 [builder 6/7] RUN git describe --tags --always > /out/VERSION
#14 0.211 fatal: not a git repository (or any of the parent directories): .git
#14 ERROR: process "/bin/sh -c git describe --tags --always > /out/VERSION" did not complete successfully: exit code: 128
`, "", "never stored: another failure; generic file name Dockerfile")
	h.ask("never-pytest-path/1", "ottertrack", "linux", "uv run pytest tests/e2e", `
============================= test session starts ==============================
platform linux -- Python 3.12.9, pytest-8.3.5, pluggy-1.5.0
rootdir: /home/dev/ottertrack
configfile: pyproject.toml
collected 0 items

============================ no tests ran in 0.01s =============================
ERROR: file or directory not found: tests/e2e

`, "", "never stored: another failure")
	h.ask("never-composer-json/1", "saltbox", "macos", "composer install", `

In JsonFile.php line 347:
                                                                  
  "./composer.json" does not contain valid JSON                   
  Parse error on line 23:                                         
  ...   }    },    "scripts": {        "post-aut                  
  ---------------------^                                          
  Expected one of: 'STRING', '}'
  It appears you have an extra trailing comma                     
                                                                  

install [--prefer-source] [--prefer-dist] [--prefer-install PREFER-INSTALL] [--dry-run] [--download-only] [--dev] [--no-suggest] [--no-dev] [--no-autoloader] [--no-progress] [--no-install] [--audit] [--audit-format AUDIT-FORMAT] [-v|vv|vvv|--verbose] [-o|--optimize-autoloader] [-a|--classmap-authoritative] [--apcu-autoloader] [--apcu-autoloader-prefix APCU-AUTOLOADER-PREFIX] [--ignore-platform-req IGNORE-PLATFORM-REQ] [--ignore-platform-reqs] [--] [<packages>...]
`, "", "generic file name: composer.json")
}
