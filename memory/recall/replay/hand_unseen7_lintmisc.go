package replay

// unseen7LintMisc: golangci-lint, staticcheck, clippy, RuboCop, ShellCheck
// and hadolint.
func unseen7LintMisc(h *hand) {
	// golangci-lint: a global fix, replaced in prose a year later; and
	// another error of the new major.
	h.note(Note{ID: "golangci-go-version", Project: "bramble", Scope: "global", OS: "linux", Lang: "go", At: day(2024, 3, 18),
		Title:   "golangci-lint: Go version used to build it is lower than the targeted one",
		What:    "Bumped go.mod to `go 1.22.1` and `golangci-lint run` dies before linting: can't load config: the Go language version (go1.21) used to build golangci-lint is lower than the targeted Go version (1.22.1).",
		Why:     "The binary (from the install script, months old) was built with go1.21; golangci-lint refuses to analyze a module that targets a newer Go than its own build.",
		Where:   "Makefile lint target, CI lint job",
		Learned: "Install a release built with the new Go and pin it in the Makefile instead of 'latest' from the install script.",
		Fix:     "go install github.com/golangci/golangci-lint/cmd/golangci-lint@v1.57.2"})
	h.note(Note{ID: "golangci-v2-install", Project: "bramble", Scope: "global", OS: "linux", Lang: "go", At: day(2025, 4, 7), ProseOver: "golangci-go-version",
		Title:   "golangci-lint on go 1.24: install v2 from the /v2 module path",
		What:    "Same 'Go language version (go1.23) used to build golangci-lint is lower than the targeted Go version (1.24.1)' after moving to go 1.24. Reinstalling with the go install line from my note of last year no longer helps: it pins a v1 tag built with an older Go, and bumping the tag isn't the answer either, the v1 line is frozen (v1.64.8 is the last).",
		Why:     "golangci-lint v2 is a new major module, github.com/golangci/golangci-lint/v2, and new releases come only from there; the old command installs a frozen v1, so it isn't the fix anymore.",
		Where:   "Makefile (GOLANGCI_VERSION), .github/workflows/lint.yml",
		Learned: "Use the /v2 path (or golangci-lint-action@v7 with version v2.x). v2 also rejects v1 configs, migrate that too.",
		Fix:     "go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.1.2"})
	h.note(Note{ID: "golangci-v2-migrate", Project: "bramble", OS: "macos", Lang: "go", At: day(2025, 4, 8),
		Title:   "golangci-lint v2 refuses our old .golangci.yml",
		What:    "With v2.1 installed: Error: can't load config: unsupported version of the configuration: \"\" See https://golangci-lint.run/product/migration-guide for migration instructions",
		Why:     "v2 needs `version: \"2\"` and a new layout: linters.default instead of disable-all/enable-all, gofmt/goimports moved to a formatters section, issues.exclude-rules became linters.exclusions.",
		Where:   ".golangci.yml",
		Learned: "`golangci-lint migrate` rewrites the file and keeps a .bck copy; comments are dropped, so re-add the ones that explained exclusions.",
		Fix:     "golangci-lint migrate"})
	h.ask("golangci-v2-install/1", "bramble", "linux", "make lint", `
golangci-lint run ./...
Error: can't load config: the Go language version (go1.23) used to build golangci-lint is lower than the targeted Go version (1.24.1)
Failed executing command with error: can't load config: the Go language version (go1.23) used to build golangci-lint is lower than the targeted Go version (1.24.1)
make: *** [Makefile:31: lint] Error 3
`, "golangci-v2-install", "superseded in prose", "golangci-go-version")
	h.ask("golangci-v2-install/2", "wrenfield", "windows", "golangci-lint run", u7crlf(`
Error: can't load config: the Go language version (go1.23) used to build golangci-lint is lower than the targeted Go version (1.24.2)
Failed executing command with error: can't load config: the Go language version (go1.23) used to build golangci-lint is lower than the targeted Go version (1.24.2)
`), "golangci-v2-install", "global note, another project; superseded in prose", "golangci-go-version")
	h.ask("golangci-v2-migrate/1", "bramble", "macos", "golangci-lint run", `
Error: can't load config: unsupported version of the configuration: "" See https://golangci-lint.run/product/migration-guide for migration instructions
The command is terminated due to an error: can't load config: unsupported version of the configuration: "" See https://golangci-lint.run/product/migration-guide for migration instructions
`, "golangci-v2-migrate", "same tool, another error")
	h.ask("golangci-errcheck/1", "bramble", "linux", "golangci-lint run ./...", `
internal/store/pg.go:88:12: Error return value of §rows.Close§ is not checked (errcheck)
	defer rows.Close()
	           ^
internal/api/handler.go:142:2: ineffectual assignment to err (ineffassign)
	err = json.NewDecoder(r.Body).Decode(&req)
	^
2 issues:
* errcheck: 1
* ineffassign: 1
make: *** [Makefile:31: lint] Error 1
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "staticcheck-rand-seed", Project: "bramble", OS: "linux", Lang: "go", At: day(2023, 2, 27),
		Title:   "staticcheck SA1019 on rand.Seed after go 1.20",
		What:    "The lint job fails on `SA1019: rand.Seed has been deprecated since Go 1.20` in the retry/jitter helper.",
		Why:     "Go 1.20 seeds the global math/rand source randomly; calling Seed is deprecated.",
		Where:   "internal/backoff/jitter.go",
		Learned: "Just delete the rand.Seed(time.Now().UnixNano()) call. Tests that want a fixed sequence use rand.New(rand.NewSource(seed)) locally.",
		Fix:     ""})
	h.ask("staticcheck-rand-seed/1", "bramble", "linux", "staticcheck ./...", `
Run staticcheck ./...
internal/backoff/jitter.go:19:2: rand.Seed has been deprecated since Go 1.20 and an alternative has been available since Go 1.0: As of Go 1.20 there is no reason to call Seed with a random value. Programs that call Seed with a known value to get a specific sequence of results should use New(NewSource(seed)) to obtain a local random generator. (SA1019)
Error: Process completed with exit code 1.
`, "staticcheck-rand-seed", "stored: the tool's own wording")
	h.ask("staticcheck-ioutil/1", "wrenfield", "macos", "staticcheck ./...", `
cmd/wrenfield/main.go:9:2: "io/ioutil" has been deprecated since Go 1.19: As of Go 1.16, the same functionality is now provided by package [io] or package [os], and those implementations should be preferred in new code. See the specific function documentation for details. (SA1019)
internal/sync/walk.go:7:2: "io/ioutil" has been deprecated since Go 1.19: As of Go 1.16, the same functionality is now provided by package [io] or package [os], and those implementations should be preferred in new code. See the specific function documentation for details. (SA1019)
`, "", "never stored: same kind, another object")

	h.note(Note{ID: "clippy-needless-lifetimes", Project: "ferrule", OS: "linux", Lang: "rust", At: day(2025, 1, 13),
		Title:   "clippy -D warnings broke when stable moved to 1.84 (needless_lifetimes)",
		What:    "CI uses dtolnay/rust-toolchain@stable; the day 1.84 landed, `cargo clippy --all-targets -- -D warnings` failed with `error: the following explicit lifetimes could be elided: 'a` on several impl blocks in src/parse/.",
		Why:     "Clippy extended needless_lifetimes to impl headers. A floating stable toolchain in CI picks up new lints before anyone runs them locally.",
		Where:   "src/parse/token.rs, src/parse/span.rs, rust-toolchain.toml",
		Learned: "`cargo clippy --fix` rewrites them to '_. Pinned the toolchain in rust-toolchain.toml so lint bumps are a deliberate PR.",
		Fix:     "cargo clippy --fix --allow-dirty --all-targets -- -D warnings"})
	h.ask("clippy-needless-lifetimes/1", "ferrule", "linux", "cargo clippy --all-targets -- -D warnings", `
    Checking ferrule v0.9.2 (/home/dev/ferrule)
error: the following explicit lifetimes could be elided: 'a
  --> src/parse/token.rs:44:6
   |
44 | impl<'a> Iterator for Tokens<'a> {
   |      ^^                      ^^
   |
   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_lifetimes
   = note: §-D clippy::needless-lifetimes§ implied by §-D warnings§
   = help: to override §-D warnings§ add §#[allow(clippy::needless_lifetimes)]§
help: elide the lifetimes
   |
44 - impl<'a> Iterator for Tokens<'a> {
44 + impl Iterator for Tokens<'_> {
   |

error: could not compile §ferrule§ (lib) due to 3 previous errors
`, "clippy-needless-lifetimes", "stored: the tool's own wording")
	h.ask("clippy-format-args/1", "ferrule", "macos", "cargo clippy -- -D warnings", `
    Checking ferrule v0.10.0 (/Users/maria/code/ferrule)
error: variables can be used directly in the §format!§ string
  --> src/report.rs:88:9
   |
88 |         eprintln!("warning: {} skipped ({})", path.display(), reason);
   |         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   |
   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#uninlined_format_args
   = note: §-D clippy::uninlined-format-args§ implied by §-D warnings§

error: could not compile §ferrule§ (bin "ferrule") due to 1 previous error
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "rubocop-rails-extracted", Project: "lanternpay", OS: "macos", Lang: "ruby", At: day(2022, 7, 21),
		Title:   "rubocop: Rails cops extracted to the rubocop-rails gem",
		What:    "`bundle exec rubocop` after the Gemfile cleanup stops on the config: the Rails cops 'have been extracted to the rubocop-rails gem', obsolete configuration found in .rubocop.yml.",
		Why:     "The cleanup removed rubocop-rails from the Gemfile as 'unused', but .rubocop.yml still configures Rails/* cops.",
		Where:   "Gemfile (development group), .rubocop.yml",
		Learned: "Put rubocop-rails back with require: false and `require: rubocop-rails` at the top of .rubocop.yml. The gem looks unused to tools that only grep Ruby code.",
		Fix:     "bundle add rubocop-rails --group development --require false"})
	h.ask("rubocop-rails-extracted/1", "lanternpay", "linux", "bundle exec rubocop --parallel", `
Error: §Rails§ cops have been extracted to the §rubocop-rails§ gem.
(obsolete configuration found in .rubocop.yml, please update it)
Error: Process completed with exit code 2.
`, "rubocop-rails-extracted", "stored: the tool's own wording")
	h.ask("rubocop-renamed/1", "lanternpay", "macos", "bundle exec rubocop", `
Error: The §Naming/PredicateName§ cop has been renamed to §Naming/PredicatePrefix§.
(obsolete configuration found in .rubocop.yml, please update it)
`, "", "never stored: same kind, another object")

	h.note(Note{ID: "shellcheck-sc1091", Project: "bramble", Scope: "global", OS: "linux", Lang: "shell", At: day(2023, 10, 4),
		Title:   "shellcheck SC1091: not following sourced file",
		What:    "The shellcheck pre-commit hook fails scripts/release.sh with SC1091 (info): Not following: ./lib/common.sh was not specified as input (see shellcheck -x).",
		Why:     "shellcheck doesn't open sourced files unless told to, and with -x alone it resolves the path against the cwd, not the script's directory.",
		Where:   ".shellcheckrc, scripts/",
		Learned: "A .shellcheckrc with external-sources=true and source-path=SCRIPTDIR fixes it for the hook, editors and CI at once. Don't silence SC1091, the sourced vars then trip SC2154 instead.",
		Fix:     "printf 'external-sources=true\\nsource-path=SCRIPTDIR\\n' > .shellcheckrc"})
	h.ask("shellcheck-sc1091/1", "ferrule", "macos", "shellcheck scripts/*.sh", `

In scripts/package.sh line 4:
source ./lib/env.sh
       ^----------^ SC1091 (info): Not following: ./lib/env.sh was not specified as input (see shellcheck -x).

For more information:
  https://www.shellcheck.net/wiki/SC1091 -- Not following: ./lib/env.sh was...
`, "shellcheck-sc1091", "global note, another project")
	h.ask("shellcheck-sc2086/1", "bramble", "linux", "pre-commit run shellcheck --all-files", `
shellcheck...............................................................Failed
- hook id: shellcheck
- exit code: 1

In scripts/deploy.sh line 22:
scp $ARTIFACT "$HOST":/srv/bramble/releases/
    ^-------^ SC2086 (info): Double quote to prevent globbing and word splitting.

Did you mean:
scp "$ARTIFACT" "$HOST":/srv/bramble/releases/

For more information:
  https://www.shellcheck.net/wiki/SC2086 -- Double quote to prevent globbing ...
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "hadolint-dl3006-arg", Project: "bramble", OS: "linux", Lang: "docker", At: day(2024, 6, 11),
		Title:   "hadolint DL3006 on FROM ${BASE_IMAGE} although the ARG has a tag",
		What:    "hadolint in CI flags `DL3006 warning: Always tag the version of an image explicitly` on `FROM ${BASE_IMAGE} AS runtime`; the ARG default is distroless/static-debian12:nonroot.",
		Why:     "hadolint doesn't resolve ARG defaults, so any FROM with a variable looks untagged.",
		Where:   "Dockerfile (runtime stage), .hadolint.yaml",
		Learned: "Put `# hadolint ignore=DL3006` on the line above that one FROM instead of raising --failure-threshold, which would also let real DL3008/DL3018 through.",
		Fix:     ""})
	h.ask("hadolint-dl3006-arg/1", "bramble", "linux", "hadolint Dockerfile", `
Dockerfile:14 DL3006 warning: Always tag the version of an image explicitly
Error: Process completed with exit code 1.
`, "hadolint-dl3006-arg", "stored: the tool's own wording")
	h.ask("hadolint-dl4006/1", "bramble", "linux", "hadolint Dockerfile", `
Dockerfile:22 DL4006 warning: Set the SHELL option -o pipefail before RUN with a pipe in it. If you are using /bin/sh in an alpine image or if your shell is symlinked to busybox then consider explicitly setting your SHELL to /bin/ash, or disable this check
Error: Process completed with exit code 1.
`, "", "never stored: same tool, another error; generic file name Dockerfile")
}
