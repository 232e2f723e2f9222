package replay

// unseen7PkgSys: cargo, go modules, Bundler and Composer.
func unseen7PkgSys(h *hand) {
	h.note(Note{ID: "cargo-lockfile-v4", Project: "ferrule", OS: "linux", Lang: "rust", At: day(2024, 10, 2),
		Title:   "MSRV job: lock file version 4 requires `-Znext-lockfile-bump`",
		What:    "The MSRV CI job (Rust 1.74) fails before building: error: failed to parse lock file at: .../Cargo.lock, Caused by: lock file version 4 requires `-Znext-lockfile-bump`.",
		Why:     "I ran `cargo update` with a 1.83 toolchain, which writes lockfile v4 when package.rust-version allows it; we had no rust-version set, so it did. Old cargo can't read v4.",
		Where:   "Cargo.lock, Cargo.toml [package] rust-version",
		Learned: "Set rust-version = \"1.74\" in Cargo.toml; newer cargo then keeps writing v3 for us. For the existing lock, edit the version line back to 3 and rerun cargo update -w.",
		Fix:     "sed -i 's/^version = 4$/version = 3/' Cargo.lock && cargo +1.74 update -w"})
	h.ask("cargo-lockfile-v4/1", "ferrule", "linux", "cargo +1.74 build --locked", `
error: failed to parse lock file at: /home/dev/ferrule/Cargo.lock

Caused by:
  lock file version 4 requires §-Znext-lockfile-bump§
Error: Process completed with exit code 101.
`, "cargo-lockfile-v4", "stored: the tool's own wording")
	h.ask("cargo-select-version/1", "ferrule", "linux", "cargo build --offline", `
    Updating crates.io index
error: failed to select a version for the requirement §tokio = "^1.43"§
candidate versions found which didn't match: 1.38.0, 1.37.0, 1.36.0, ...
location searched: crates.io index
required by package §ferrule v0.10.0 (/home/dev/ferrule)§
As a reminder, you're using offline mode (--offline) which can sometimes cause surprising resolution failures, if this error is too confusing you may wish to retry without the offline flag.
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "gomod-goprivate", Project: "bramble", OS: "linux", Lang: "go", At: day(2023, 8, 14),
		Title:   "go mod download: private authkit module goes to sum.golang.org and fails",
		What:    "Adding github.com/bramble-dev/authkit: `go mod tidy` → verifying module: reading https://sum.golang.org/lookup/github.com/bramble-dev/authkit@v0.3.1: 404 Not Found ... fatal: could not read Username for 'https://github.com': terminal prompts disabled.",
		Why:     "Go treats every module as public by default: it asks the proxy and the checksum DB, which can't see a private repo; then the direct git fetch over https has no credentials.",
		Where:   "go env (GOPRIVATE), ~/.gitconfig",
		Learned: "GOPRIVATE for the org, and rewrite https to ssh for github.com so git uses the deploy key. In CI use a token in .netrc instead of ssh.",
		Fix:     "go env -w GOPRIVATE='github.com/bramble-dev/*' && git config --global url.\"git@github.com:\".insteadOf \"https://github.com/\""})
	h.ask("gomod-goprivate/1", "bramble", "macos", "go mod tidy", `
go: finding module for package github.com/bramble-dev/authkit/session
go: github.com/bramble-dev/bramble/internal/api imports
	github.com/bramble-dev/authkit/session: github.com/bramble-dev/authkit@v0.4.0: verifying module: github.com/bramble-dev/authkit@v0.4.0: reading https://sum.golang.org/lookup/github.com/bramble-dev/authkit@v0.4.0: 404 Not Found
	server response:
	not found: github.com/bramble-dev/authkit@v0.4.0: invalid version: git ls-remote -q origin in /tmp/gopath/pkg/mod/cache/vcs/4b1c0e2f8d: exit status 128:
		fatal: could not read Username for 'https://github.com': terminal prompts disabled
	Confirm the import path was typed correctly.
	If this is a private repository, see https://golang.org/doc/faq#git_https for additional information.
`, "gomod-goprivate", "stored: the tool's own wording")
	h.ask("gomod-goprivate/2", "wrenfield", "linux", "go mod download", `
go: github.com/wrenfield-labs/wire@v1.2.0: verifying module: github.com/wrenfield-labs/wire@v1.2.0: reading https://sum.golang.org/lookup/github.com/wrenfield-labs/wire@v1.2.0: 404 Not Found
	server response:
	not found: github.com/wrenfield-labs/wire@v1.2.0: invalid version: git ls-remote -q origin in /home/dev/go/pkg/mod/cache/vcs/91ae0c33b7: exit status 128:
		fatal: could not read Username for 'https://github.com': terminal prompts disabled
`, "", "another project's project note")

	h.note(Note{ID: "gomod-gotoolchain-local", Project: "wrenfield", OS: "windows", Lang: "go", At: day(2024, 2, 26),
		Title:   "go.mod requires go >= 1.22.0 (running go 1.21.5; GOTOOLCHAIN=local)",
		What:    "After the go 1.22 bump, every go command on the Windows box fails: go: go.mod requires go >= 1.22.0 (running go 1.21.5; GOTOOLCHAIN=local). Other machines just download the toolchain.",
		Why:     "The old Chocolatey Go install had set GOTOOLCHAIN=local as a machine-wide environment variable, which disables automatic toolchain switching.",
		Where:   "Windows system environment variables, go env",
		Learned: "Remove the env var (or `go env -w GOTOOLCHAIN=auto`; an env var beats go env, so removing it is the real fix). `go env GOTOOLCHAIN` shows which one wins.",
		Fix:     "[Environment]::SetEnvironmentVariable('GOTOOLCHAIN', $null, 'Machine'); go env -w GOTOOLCHAIN=auto"})
	h.ask("gomod-gotoolchain-local/1", "wrenfield", "windows", "go build ./...", u7crlf(`
PS C:\Users\dev\src\wrenfield> go build ./...
go: go.mod requires go >= 1.23.2 (running go 1.22.7; GOTOOLCHAIN=local)
PS C:\Users\dev\src\wrenfield> go version
go version go1.22.7 windows/amd64
`), "gomod-gotoolchain-local", "windows console; another tool version's wording")
	h.ask("gomod-toolchain-download/1", "bramble", "linux", "go test ./...", `
go: downloading go1.24.1 (linux/amd64)
go: download go1.24.1 for linux/amd64: toolchain not available
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "bundler-add-platform", Project: "lanternpay", OS: "macos", Lang: "ruby", At: day(2023, 1, 17),
		Title:   "bundle install in Docker: the bundle only supports arm64-darwin",
		What:    "After `bundle update` on my M1, the Linux image build fails: Your bundle only supports platforms [\"arm64-darwin-22\"] but your local platform is x86_64-linux.",
		Why:     "Bundler 2.2+ records platforms in Gemfile.lock; the lock was regenerated on macOS only, so it has no linux variant of nokogiri and friends.",
		Where:   "Gemfile.lock (PLATFORMS)",
		Learned: "Add every platform we deploy or run CI on to the lock once; future updates keep them.",
		Fix:     "bundle lock --add-platform x86_64-linux aarch64-linux && git add Gemfile.lock"})
	h.ask("bundler-add-platform/1", "lanternpay", "linux", "docker compose build web", `
#11 [web 5/9] RUN bundle install --jobs 4
#11 0.981 Your bundle only supports platforms ["arm64-darwin-23"] but your local platform is x86_64-linux. Add the current platform to the lockfile with
#11 0.981 §bundle lock --add-platform x86_64-linux§ and try again.
#11 ERROR: process "/bin/sh -c bundle install --jobs 4" did not complete successfully: exit code: 16
------
 > [web 5/9] RUN bundle install --jobs 4:
0.981 Your bundle only supports platforms ["arm64-darwin-23"] but your local platform is x86_64-linux. Add the current platform to the lockfile with
0.981 §bundle lock --add-platform x86_64-linux§ and try again.
------
`, "bundler-add-platform", "stored: the tool's own wording")
	h.ask("bundler-pg-native/1", "lanternpay", "linux", "bundle install", `
Installing pg 1.5.4 with native extensions
Gem::Ext::BuildError: ERROR: Failed to build gem native extension.

    current directory: /usr/local/bundle/gems/pg-1.5.4/ext
/usr/local/bin/ruby extconf.rb
Calling libpq with GVL unlocked
checking for pg_config... no
checking for libpq per pkg-config... no
Using libpq from 
checking for libpq-fe.h... no
Can't find the 'libpq-fe.h header
*****************************************************************************

Unable to find PostgreSQL client library.
...
An error occurred while installing pg (1.5.4), and Bundler cannot continue.

In Gemfile:
  pg
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "composer-memory-limit", Project: "saltbox", OS: "windows", Lang: "php", At: day(2022, 6, 8),
		Title:   "composer update dies: Allowed memory size exhausted",
		What:    "`composer update` on the Windows machine: PHP Fatal error: Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes) in phar://.../Composer/DependencyResolver/Solver.php.",
		Why:     "Composer resolves the whole graph in memory; the XAMPP php.ini has memory_limit=128M and composer's own bump to 1.5G isn't enough with all the laravel/framework versions in play.",
		Where:   "C:\\xampp\\php\\php.ini, shell env",
		Learned: "COMPOSER_MEMORY_LIMIT=-1 for the run; narrowing the update (composer update vendor/package -W) is faster anyway.",
		Fix:     "set COMPOSER_MEMORY_LIMIT=-1 && composer update"})
	h.note(Note{ID: "composer-platform-php", Project: "saltbox", OS: "linux", Lang: "php", At: day(2024, 12, 2),
		Title:   "composer install in CI: lock needs php 8.2, image is 8.1",
		What:    "CI's composer install: Your lock file does not contain a compatible set of packages. Please run composer update. Problem 1 - symfony/console v7.2.1 requires php >=8.2 -> your php version (8.1.27) does not satisfy that requirement.",
		Why:     "My laptop has PHP 8.3, so `composer update` happily locked Symfony 7 components; production and CI still run 8.1.",
		Where:   "composer.json (config.platform), composer.lock",
		Learned: "Set config.platform.php to the production version so the lock always resolves for it, whatever PHP the developer runs.",
		Fix:     "composer config platform.php 8.1.27 && composer update --lock"})
	h.ask("composer-memory-limit/1", "saltbox", "windows", "composer update", u7crlf(`
Loading composer repositories with package information
Updating dependencies
PHP Fatal error:  Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes) in phar://C:/ProgramData/ComposerSetup/bin/composer.phar/src/Composer/DependencyResolver/Solver.php on line 223

Check https://getcomposer.org/doc/articles/troubleshooting.md#memory-limit-errors for more info on how to handle out of memory errors.
`), "composer-memory-limit", "windows console")
	h.ask("composer-platform-php/1", "saltbox", "linux", "composer install --no-interaction --prefer-dist", `
Installing dependencies from lock file (including require-dev)
Verifying lock file contents can be installed on current platform.
Your lock file does not contain a compatible set of packages. Please run composer update.

  Problem 1
    - symfony/console is locked to version v7.2.1 and an update of this package was not requested.
    - symfony/console v7.2.1 requires php >=8.2 -> your php version (8.1.27) does not satisfy that requirement.
  Problem 2
    - symfony/string is locked to version v7.2.0 and an update of this package was not requested.
    - symfony/string v7.2.0 requires php >=8.2 -> your php version (8.1.27) does not satisfy that requirement.
  Problem 3
    - laravel/framework is locked to version v10.48.25 and an update of this package was not requested.
    - symfony/console v7.2.1 requires php >=8.2 -> your php version (8.1.27) does not satisfy that requirement.
Error: Process completed with exit code 2.
`, "composer-platform-php", "stored: the tool's own wording")
	h.ask("composer-ext-missing/1", "saltbox", "linux", "composer install", `
Installing dependencies from lock file (including require-dev)
Verifying lock file contents can be installed on current platform.
Your lock file does not contain a compatible set of packages. Please run composer update.

  Problem 1
    - laravel/horizon is locked to version v5.29.4 and an update of this package was not requested.
    - laravel/horizon v5.29.4 requires ext-pcntl * -> it is missing from your system. Install or enable PHP's pcntl extension.

To enable extensions, verify that they are enabled in your .ini files:
    - /etc/php/8.1/cli/php.ini
    - /etc/php/8.1/cli/conf.d/10-opcache.ini
You can also run §php --ini§ in a terminal to see which files are used by PHP in CLI mode.
Alternatively, you can run Composer with §--ignore-platform-req=ext-pcntl§ to temporarily ignore these required extensions.
`, "", "same text, another cause")
}
