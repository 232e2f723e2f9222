package replay

// unseen7Again: failures the other files' notes are about, met again
// later and printed another way — cut at the start, coloured, elided,
// through another wrapper, on Windows.
func unseen7Again(h *hand) {
	h.ask("again-eslint9-cut/1", "quillmark", "macos", "pnpm -r lint", `
ng went wrong! :(

ESLint: 9.17.0

ESLint couldn't find an eslint.config.(js|mjs|cjs) file.

From ESLint v9.0.0, the default configuration file is now eslint.config.js.
...
/Users/maria/code/quillmark/packages/ui:
 ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @quillmark/ui@0.7.0 lint: §eslint src§
Exit status 2
`, "eslint9-flat-config", "truncated tail")
	h.ask("again-ruff-colour/1", "ottertrack", "macos", "uv run ruff check src/ottertrack/__init__.py", `
\e[1msrc/ottertrack/__init__.py\e[0m\e[36m:\e[0m2\e[36m:\e[0m19\e[36m:\e[0m \e[1m\e[31mF401\e[0m \e[36m[*]\e[0m §.config.Settings§ imported but unused; consider removing, adding to §__all__§, or using a redundant alias
Found 1 error.
\e[36m[*]\e[0m 1 fixable with the §--fix§ option.
`, "ruff-f401-init", "stored: ANSI colours")
	h.ask("again-mypy-windows/1", "fernway", "windows", "uv run mypy fernway tests", u7crlf(`
tests\integration\conftest.py: error: Duplicate module named "conftest" (also at "tests\unit\conftest.py")
tests\integration\conftest.py: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#mapping-file-paths-to-modules for more info
tests\integration\conftest.py: note: Common resolutions include: a) using §--exclude§ to avoid checking one of them, b) adding §__init__.py§ somewhere, c) using §--explicit-package-bases§ or adjusting MYPYPATH
Found 1 error in 1 file (errors prevented further checking)
`), "mypy-duplicate-conftest", "windows console")
	h.ask("again-golangci-migrate-cut/1", "bramble", "linux", "make lint", `
ation: "" See https://golangci-lint.run/product/migration-guide for migration instructions
The command is terminated due to an error: can't load config: unsupported version of the configuration: "" See https://golangci-lint.run/product/migration-guide for migration instructions
make: *** [Makefile:31: lint] Error 3
`, "golangci-v2-migrate", "truncated tail")
	h.ask("again-pnpm9-lock/1", "quillmark", "linux", "pnpm install --frozen-lockfile", `
Scope: all 8 workspace projects
 ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/packages/ui/package.json

Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"

  Failure reason:
  specifiers in the lockfile don't match specifiers in package.json:
* 1 dependencies were added: zod@^3.23.8
* 1 dependencies are mismatched:
  - @radix-ui/react-dialog (lockfile: ^1.0.5, manifest: ^1.1.1)
`, "pnpm-lock-corepack", "superseded, declared; another tool version's wording", "pnpm-no-frozen")
	h.ask("again-cmake-openssl-elided/1", "mossgate", "linux", "cmake --preset linux-ninja", `
Preset CMake variables:

  CMAKE_BUILD_TYPE="Release"
  CMAKE_EXPORT_COMPILE_COMMANDS="ON"

-- The CXX compiler identification is GNU 14.2.0
...
CMake Error at /usr/share/cmake-3.31/Modules/FindPackageHandleStandardArgs.cmake:233 (message):
  Could NOT find OpenSSL, try to set the path to OpenSSL root folder in the
  system variable OPENSSL_ROOT_DIR (missing: OPENSSL_CRYPTO_LIBRARY
  OPENSSL_INCLUDE_DIR)
...
-- Configuring incomplete, errors occurred!
`, "cmake-openssl-linux", "twin on another system: elided")
	h.ask("again-gpg-macos-cut/1", "quillmark", "macos", "git commit --amend --no-edit", `
ning failed: Inappropriate ioctl for device

fatal: failed to write commit object
`, "gpg-sign-macos", "twin on another system: truncated tail")
	h.ask("again-uv-tls-short/1", "ottertrack", "macos", "uv add pydantic-settings", `
  × Failed to download and build §pydantic-settings==2.6.1§
  ├─▶ Request failed after 3 retries
  ├─▶ error sending request for url (https://files.pythonhosted.org/packages/5e/f9/ff95fd7d760af42f647ea87f9b8a383d891cdb5e5dbd4613edaeb094252a/pydantic_settings-2.6.1-py3-none-any.whl)
  ├─▶ client error (Connect)
  ╰─▶ invalid peer certificate: UnknownIssuer
`, "uv-tls-macos", "twin on another system: another uv version's wording")
	h.ask("again-webpack-cut/1", "cinderdocs", "linux", "npm run build -- --profile", `
Hash (node:internal/crypto/hash:79:19)
    at Object.createHash (node:crypto:139:10)
    at module.exports (/home/dev/cinderdocs/node_modules/webpack/lib/util/createHash.js:135:53)
  library: 'digital envelope routines',
  reason: 'unsupported',
  code: 'ERR_OSSL_EVP_UNSUPPORTED'
}

Node.js v22.3.0
`, "webpack-openssl-upgrade", "superseded, declared: truncated tail", "webpack-openssl-legacy")
	h.ask("again-vitest-windows/1", "quillmark", "windows", "pnpm --filter @quillmark/ui test", u7crlf(`
 FAIL  src\components\Menu.test.tsx [ src/components/Menu.test.tsx ]
ReferenceError: describe is not defined
 ❯ src/components/Menu.test.tsx:5:1

 Test Files  1 failed | 14 passed (15)
      Tests  52 passed (52)
`), "vitest-globals", "windows console")
	h.ask("again-playwright-colour/1", "quillmark", "linux", "pnpm --filter e2e exec playwright test --project=firefox", `
Running 38 tests using 4 workers

  1) [firefox] › tests/login.spec.ts:8:3 › login › magic link ──────────────────────────────────

    \e[31mError: browserType.launch: Executable doesn't exist at /home/runner/.cache/ms-playwright/firefox-1466/firefox/firefox\e[39m
    ╔═════════════════════════════════════════════════════════════════════════╗
    ║ Looks like Playwright Test or Playwright was just installed or updated. ║
    ║ Please run the following command to download new browsers:              ║
    ║                                                                         ║
    ║     pnpm exec playwright install                                        ║
    ╚═════════════════════════════════════════════════════════════════════════╝
`, "playwright-browser-cache", "stored: ANSI colours, another browser")
	h.ask("again-cocoapods-cut/1", "sloeberry", "macos", "npx pod-install", `
ible architecture (have 'x86_64', need 'arm64e' or 'arm64')) - /Library/Ruby/Gems/2.6.0/gems/ffi-1.17.0/lib/ffi_c.bundle
/System/Library/Frameworks/Ruby.framework/Versions/2.6/usr/lib/ruby/2.6.0/rubygems/core_ext/kernel_require.rb:54:in §require'
/Library/Ruby/Gems/2.6.0/gems/ffi-1.17.0/lib/ffi.rb:5:in §rescue in <top (required)>'
/Library/Ruby/Gems/2.6.0/gems/ffi-1.17.0/lib/ffi.rb:2:in §<top (required)>'
/Library/Ruby/Gems/2.6.0/gems/ethon-0.16.0/lib/ethon.rb:2:in §require'
`, "cocoapods-brew", "superseded in prose: truncated tail", "cocoapods-ffi-rosetta")
	h.ask("again-composer-colour/1", "saltbox", "linux", "composer install --no-dev", `
\e[32mInstalling dependencies from lock file\e[39m
\e[32mVerifying lock file contents can be installed on current platform.\e[39m
\e[37;41mYour lock file does not contain a compatible set of packages. Please run composer update.\e[39;49m

  Problem 1
    - symfony/http-foundation is locked to version \e[32mv7.2.0\e[39m and an update of this package was not requested.
    - symfony/http-foundation v7.2.0 requires php >=8.2 -> your php version (8.1.31) does not satisfy that requirement.
`, "composer-platform-php", "stored: ANSI colours")
	h.ask("again-poetry-colour/1", "fernway", "linux", "poetry install", `
\e[39;1mInstalling dependencies from lock file\e[39;22m

\e[31;1mpyproject.toml changed significantly since poetry.lock was last generated. Run §poetry lock§ to fix the lock file.\e[39;22m
`, "poetry2-lock", "superseded, declared: ANSI colours", "poetry-lock-no-update")
	h.ask("again-bundler-ci/1", "lanternpay", "linux", "bundle install --jobs 4 --retry 3", `
Run bundle install --jobs 4 --retry 3
2025-01-09T14:02:11.4412345Z Your bundle only supports platforms ["arm64-darwin-24"] but your local platform is x86_64-linux. Add the current platform to the lockfile with
2025-01-09T14:02:11.4412901Z §bundle lock --add-platform x86_64-linux§ and try again.
2025-01-09T14:02:11.4520034Z ##[error]Process completed with exit code 16.
`, "bundler-add-platform", "stored: CI log with timestamps")
	h.ask("again-husky-gui-npx/1", "quillmark", "macos", "git commit -m 'fix(ui): focus ring'", `
.husky/pre-commit: line 4: npx: command not found
husky - pre-commit script failed (code 127)
`, "husky-gui-path", "stored: the note's own words")
}
