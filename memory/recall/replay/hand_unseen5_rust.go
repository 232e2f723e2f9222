package replay

import (
	"strings"
	"time"
)

// Rust: openssl-sys on each system, linkers, rustup targets, new lints
// under -D warnings, lock file versions, sqlx's offline cache, bindgen.
func unseen5Rust(h *hand) {
	h.note(Note{ID: "openssl-linux", Project: "copperkettle", Scope: "global", OS: "linux", Lang: "rust", At: day(2022, time.April, 5),
		Title:   "openssl-sys: Could not find directory of OpenSSL installation",
		What:    "cargo build on a fresh Debian/Ubuntu (and in rust:slim images):\n\n```\nCould not find directory of OpenSSL installation, and this `-sys` crate cannot\nproceed without this knowledge.\n```",
		Why:     "openssl-sys links the system libssl and finds it through pkg-config; neither the headers nor pkg-config are installed by default.",
		Learned: "apt install pkg-config libssl-dev (Fedora: openssl-devel). In a multi-stage Dockerfile the runtime stage needs libssl3 too.",
		Fix:     "sudo apt-get install -y pkg-config libssl-dev"})
	h.note(Note{ID: "openssl-mac", Project: "pacer-cli", Scope: "global", OS: "darwin", Lang: "rust", At: day(2023, time.March, 14),
		Title:   "openssl-sys on macOS: point it at brew's openssl@3",
		What:    "same openssl-sys build script failure (could not find directory of OpenSSL installation) on the mac",
		Why:     "macOS ships LibreSSL without headers; Homebrew's openssl@3 is keg-only so pkg-config doesn't see it.",
		Learned: "brew install openssl@3 and export OPENSSL_DIR=$(brew --prefix openssl@3). No apt equivalent obviously.",
		Fix:     `brew install openssl@3 && export OPENSSL_DIR="$(brew --prefix openssl@3)"`})
	h.note(Note{ID: "openssl-rustls", Project: "copperkettle", OS: "linux", Lang: "rust", At: day(2024, time.August, 27), ProseOver: "openssl-linux",
		Title:   "static musl build: dropped OpenSSL for rustls",
		What:    "cargo build --target x86_64-unknown-linux-musl → openssl-sys again, even with libssl-dev installed",
		Why:     "libssl-dev is a glibc library; for the musl target there is no OpenSSL to link unless you cross-build one.",
		Learned: "Installing libssl-dev, my old answer to this error, is no use for the static musl binary, so I stopped fighting it: reqwest with default-features = false, features = [\"rustls-tls\", \"json\"], sqlx with runtime-tokio-rustls. cargo tree -i openssl-sys must print nothing now.",
		Where:   "Cargo.toml"})
	const opensslFail = `error: failed to run custom build command for §openssl-sys v0.9.103§

Caused by:
  process didn't exit successfully: §%s/target/release/build/openssl-sys-3b1f0c7d2e9a8b64/build-script-main§ (exit status: 101)
  --- stdout
  cargo:rerun-if-env-changed=X86_64_UNKNOWN_LINUX_GNU_OPENSSL_LIB_DIR
  X86_64_UNKNOWN_LINUX_GNU_OPENSSL_LIB_DIR unset
  cargo:rerun-if-env-changed=OPENSSL_LIB_DIR
  OPENSSL_LIB_DIR unset
  ...
  cargo:rerun-if-env-changed=PKG_CONFIG_SYSROOT_DIR
  run pkg_config fail: Could not run §PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 pkg-config --libs --cflags openssl§
  The pkg-config command could not be found.

  --- stderr
  thread 'main' panicked at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/openssl-sys-0.9.103/build/find_normal.rs:190:5:

  Could not find directory of OpenSSL installation, and this §-sys§ crate cannot
  proceed without this knowledge. If OpenSSL is installed and this crate had
  trouble finding it,  you can set the §OPENSSL_DIR§ environment variable for the
  compilation process.`
	h.ask("openssl-linux/1", "pacer-cli", "linux", "cargo build --release", `   Compiling cc v1.1.6
   Compiling pkg-config v0.3.30
   Compiling openssl-sys v0.9.103
   Compiling serde_json v1.0.120
`+sprintfU5(opensslFail, "/home/sam/pacer-cli"), "openssl-linux", u5Twin)
	h.ask("openssl-mac/1", "ledgerline", "darwin", "cargo install sqlx-cli", `  Installing sqlx-cli v0.8.2
    Updating crates.io index
   Compiling openssl-sys v0.9.103
error: failed to run custom build command for §openssl-sys v0.9.103§

Caused by:
  process didn't exit successfully: §/var/folders/7q/zz/T/cargo-installAbc123/release/build/openssl-sys-9c2d1e0f3a4b5c6d/build-script-main§ (exit status: 101)
  --- stdout
  cargo:rerun-if-env-changed=AARCH64_APPLE_DARWIN_OPENSSL_LIB_DIR
  AARCH64_APPLE_DARWIN_OPENSSL_LIB_DIR unset
  ...
  --- stderr
  thread 'main' panicked at /Users/ana/.cargo/registry/src/index.crates.io-6f17d22bba15001f/openssl-sys-0.9.103/build/find_normal.rs:190:5:

  Could not find directory of OpenSSL installation, and this §-sys§ crate cannot
  proceed without this knowledge.
  $HOST = aarch64-apple-darwin
  $TARGET = aarch64-apple-darwin
  openssl-sys = 0.9.103

warning: build failed, waiting for other jobs to finish...
error: failed to compile §sqlx-cli v0.8.2§, intermediate artifacts can be found at §/var/folders/7q/zz/T/cargo-installAbc123§.`, "openssl-mac", u5Twin)
	h.ask("openssl-rustls/1", "copperkettle", "linux", "cargo build --release --target x86_64-unknown-linux-musl", `   Compiling openssl-sys v0.9.103
error: failed to run custom build command for §openssl-sys v0.9.103§

Caused by:
  --- stderr
  thread 'main' panicked at /usr/local/cargo/registry/src/index.crates.io-6f17d22bba15001f/openssl-sys-0.9.103/build/find_normal.rs:190:5:

  Could not find directory of OpenSSL installation, and this §-sys§ crate cannot
  proceed without this knowledge.
  $HOST = x86_64-unknown-linux-gnu
  $TARGET = x86_64-unknown-linux-musl
  openssl-sys = 0.9.103`, "openssl-rustls", u5Prose, "openssl-linux")

	h.note(Note{ID: "linker-cc", Project: "pacer-cli", OS: "linux", Lang: "rust", At: day(2022, time.July, 19),
		Title:   "fresh WSL: cargo can't link",
		What:    "error: linker `cc` not found",
		Why:     "rustup doesn't bring a C toolchain; new Ubuntu on WSL has none.",
		Learned: "sudo apt install build-essential",
		Fix:     "sudo apt install -y build-essential"})
	h.ask("linker-cc/1", "pacer-cli", "linux", "cargo run -- --help", `   Compiling proc-macro2 v1.0.86
   Compiling unicode-ident v1.0.12
error: linker §cc§ not found
  |
  = note: No such file or directory (os error 2)

error: could not compile §proc-macro2§ (build script) due to 1 previous error
warning: build failed, waiting for other jobs to finish...`, "linker-cc", u5Stored)
	h.ask("linker-cc-kettle", "copperkettle", "linux", "cargo build", `   Compiling libc v0.2.158
error: linker §cc§ not found
  |
  = note: No such file or directory (os error 2)

error: could not compile §libc§ (build script) due to 1 previous error`, "", u5Other)

	h.note(Note{ID: "rustup-target", Project: "pacer-cli", OS: "darwin", Lang: "rust", At: day(2023, time.September, 5),
		Title:   "cross build for the Pi: target not installed",
		What:    "cargo build --target aarch64-unknown-linux-gnu → `error[E0463]: can't find crate for core` … `the aarch64-unknown-linux-gnu target may not be installed`",
		Why:     "rustup only installs the host target's std.",
		Learned: "rustup target add <triple> fixes the std part; for a linux target from the mac you then also need a linker, so I use cross (docker) for the release builds instead.",
		Fix:     "rustup target add aarch64-unknown-linux-gnu"})
	h.ask("rustup-target/1", "pacer-cli", "darwin", "cargo build --release --target x86_64-pc-windows-gnu", `   Compiling pacer-cli v0.7.0 (/Users/sam/pacer-cli)
error[E0463]: can't find crate for §std§
  |
  = note: the §x86_64-pc-windows-gnu§ target may not be installed
  = help: consider downloading the target with §rustup target add x86_64-pc-windows-gnu§

For more information about this error, try §rustc --explain E0463§.
error: could not compile §cfg-if§ (lib) due to 1 previous error
warning: build failed, waiting for other jobs to finish...`, "rustup-target", u5Stored)

	h.note(Note{ID: "check-cfg", Project: "pacer-cli", OS: "linux", Lang: "rust", At: day(2024, time.July, 30),
		Title:   "Rust 1.80: unexpected cfg breaks clippy -D warnings",
		What:    "CI clippy job: error: unexpected `cfg` condition name: `tokio_unstable`",
		Why:     "1.80 checks cfg names (unexpected_cfgs lint); with -D warnings every unknown cfg is an error.",
		Learned: "[lints.rust] unexpected_cfgs = { level = \"warn\", check-cfg = ['cfg(tokio_unstable)', 'cfg(coverage_nightly)'] } in Cargo.toml. Don't allow() the lint wholesale.",
		Where:   "Cargo.toml"})
	h.ask("check-cfg/1", "pacer-cli", "linux", "cargo clippy --all-targets -- -D warnings", `    Checking pacer-cli v0.8.1 (/home/runner/work/pacer-cli/pacer-cli)
error: unexpected §cfg§ condition name: §coverage_nightly§
 --> src/report.rs:3:13
  |
3 | #![cfg_attr(coverage_nightly, feature(coverage_attribute))]
  |             ^^^^^^^^^^^^^^^^
  |
  = help: expected names are: §clippy§, §debug_assertions§, §doc§, §docsrs§, §doctest§, §feature§, §miri§, §overflow_checks§, §panic§, §proc_macro§, §relocation_model§, §rustfmt§, §sanitize§, §sanitizer_cfi_generalize_pointers§, §sanitizer_cfi_normalize_integers§, §target_abi§, §target_arch§, §target_endian§, §target_env§, §target_family§, §target_feature§, §target_has_atomic§, §target_has_atomic_equal_alignment§, §target_has_atomic_load_store§, §target_os§, §target_pointer_width§, §target_thread_local§, §target_vendor§, §test§, §ub_checks§, §unix§, and §windows§
  = help: consider using a Cargo feature instead
  = help: or consider adding in §Cargo.toml§ the §check-cfg§ lint config for the lint:
           [lints.rust]
           unexpected_cfgs = { level = "warn", check-cfg = ['cfg(coverage_nightly)'] }
  = note: see <https://doc.rust-lang.org/nightly/rustc/check-cfg/cargo-specifics.html> for more information about checking conditional configuration
  = note: §-D unexpected-cfgs§ implied by §-D warnings§

error: could not compile §pacer-cli§ (lib) due to 1 previous error`, "check-cfg", u5Stored)
	h.ask("clippy-unwrap", "pacer-cli", "linux", "cargo clippy -- -D warnings -W clippy::unwrap_used", `    Checking pacer-cli v0.8.1 (/home/sam/pacer-cli)
error: used §unwrap()§ on a §Result§ value
  --> src/config.rs:41:20
   |
41 |     let raw = fs::read_to_string(&path).unwrap();
   |               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
   |
   = note: if this value is an §Err§, it will panic
   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#unwrap_used
   = note: requested on the command line with §-W clippy::unwrap-used§`, "", u5Tool)

	h.note(Note{ID: "lockfile-v4", Project: "copperkettle", OS: "linux", Lang: "rust", At: day(2024, time.March, 19),
		Title:   "Docker rust image older than the Cargo.lock",
		What:    "lock file version 4 requires `-Znext-lockfile-bump`",
		Why:     "local cargo 1.78 wrote a v4 Cargo.lock; Dockerfile was FROM rust:1.76.",
		Learned: "added rust-toolchain.toml (channel 1.78) and the Dockerfile uses the same version; bump both together.",
		Where:   "Dockerfile, rust-toolchain.toml"})
	h.ask("lockfile-v4/1", "copperkettle", "linux", "docker build -t copperkettle .", `#11 [builder 5/6] RUN cargo build --release --locked
#11 0.402 error: failed to parse lock file at: /usr/src/copperkettle/Cargo.lock
#11 0.402 
#11 0.402 Caused by:
#11 0.402   lock file version 4 requires §-Znext-lockfile-bump§
#11 ERROR: process "/bin/sh -c cargo build --release --locked" did not complete successfully: exit code: 101`, "lockfile-v4", u5Stored)
	h.ask("edition2024", "pacer-cli", "linux", "cargo build", `error: failed to parse manifest at §/home/sam/pacer-cli/Cargo.toml§

Caused by:
  feature §edition2024§ is required

  The package requires the Cargo feature called §edition2024§, but that feature is not stabilized in this version of Cargo (1.82.0 (8f40fc59f 2024-08-21)).
  Consider trying a newer version of Cargo (this may require the nightly release).
  See https://doc.rust-lang.org/nightly/cargo/reference/unstable.html#edition-2024 for more information about the status of this feature.`, "", u5Generic)

	h.note(Note{ID: "link-exe", Project: "pacer-cli", OS: "windows", Lang: "rust", At: day(2022, time.December, 12),
		Title:   "Windows: link.exe not found",
		What:    "error: linker `link.exe` not found — note: the msvc targets depend on the msvc linker",
		Why:     "rustup installed the msvc toolchain but there were no VS build tools on this laptop",
		Learned: "Installed Build Tools for Visual Studio 2022 with the 'Desktop development with C++' workload (MSVC + Windows SDK). Restart the shell. The gnu toolchain is the other way but crates with C deps are a pain there.",
		Fix:     "winget install Microsoft.VisualStudio.2022.BuildTools --override \"--add Microsoft.VisualStudio.Workload.VCTools --includeRecommended --passive\""})
	h.ask("link-exe/1", "pacer-cli", "windows", "cargo build", u5crlf(`   Compiling windows_x86_64_msvc v0.52.6
error: linker §link.exe§ not found
  |
  = note: program not found

note: the msvc targets depend on the msvc linker but §link.exe§ was not found

note: please ensure that Visual Studio 2017 or later, or Build Tools for Visual Studio were installed with the Visual C++ option.

note: VS Code is a different product, and is not sufficient.

error: could not compile §windows_x86_64_msvc§ (build script) due to 1 previous error`), "link-exe", u5Stored)

	h.note(Note{ID: "sqlx-offline", Project: "copperkettle", OS: "linux", Lang: "rust", At: day(2025, time.May, 13),
		Title:   "sqlx macros in CI without a database",
		What:    "error: set `DATABASE_URL` to use query macros online, or run `cargo sqlx prepare` to update the query cache",
		Why:     "query! checks against a live db at compile time; CI has none, and the .sqlx cache wasn't committed.",
		Learned: "cargo sqlx prepare --workspace locally, commit .sqlx/, SQLX_OFFLINE=true in CI. Re-run prepare whenever a query changes (CI has a check job: cargo sqlx prepare --check).",
		Where:   ".sqlx/, .github/workflows/ci.yml",
		Fix:     "cargo sqlx prepare --workspace"})
	h.ask("sqlx-offline/1", "copperkettle", "linux", "cargo build --locked", `   Compiling copperkettle v0.4.0 (/home/runner/work/copperkettle/copperkettle)
error: set §DATABASE_URL§ to use query macros online, or run §cargo sqlx prepare§ to update the query cache
  --> src/orders/repo.rs:28:19
   |
28 |         let row = sqlx::query_as!(
   |  _________________^
29 | |             OrderRow,
30 | |             "SELECT id, status, total_cents FROM orders WHERE id = $1",
31 | |             id
32 | |         )
   | |_________^
   |
   = note: this error originates in the macro §$crate::sqlx_macros::expand_query§ which comes from the expansion of the macro §sqlx::query_as§ (in Nightly builds, run with -Z macro-backtrace for more info)`, "sqlx-offline", u5Stored)
	h.ask("sqlx-relation", "copperkettle", "linux", "cargo check", `error: error returned from database: relation "refunds" does not exist
  --> src/refunds/repo.rs:17:9
   |
17 |         sqlx::query!("INSERT INTO refunds (order_id, amount_cents) VALUES ($1, $2)", id, amount)
   |         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^`, "", u5Tool)

	h.note(Note{ID: "cargo-revoke", Project: "pacer-cli", Scope: "global", OS: "windows", Lang: "rust", At: day(2022, time.March, 2),
		Title:   "cargo on the corporate laptop: schannel revocation check fails",
		What:    "fetching the index: [35] SSL connect error (schannel: next InitializeSecurityContext failed: Unknown error (0x80092012) - The revocation function was unable to check revocation for the certificate.)",
		Why:     "the TLS-inspecting proxy's certs have CRL endpoints schannel can't reach",
		Learned: "CARGO_HTTP_CHECK_REVOKE=false (or [http] check-revoke = false in ~/.cargo/config.toml). Only on that network.",
		Fix:     "setx CARGO_HTTP_CHECK_REVOKE false"})
	h.ask("cargo-revoke/1", "copperkettle", "windows", "cargo fetch", u5crlf(`    Updating crates.io index
warning: spurious network error (3 tries remaining): [35] SSL connect error (schannel: next InitializeSecurityContext failed: Unknown error (0x80092012) - The revocation function was unable to check revocation for the certificate.)
warning: spurious network error (2 tries remaining): [35] SSL connect error (schannel: next InitializeSecurityContext failed: Unknown error (0x80092012) - The revocation function was unable to check revocation for the certificate.)
warning: spurious network error (1 tries remaining): [35] SSL connect error (schannel: next InitializeSecurityContext failed: Unknown error (0x80092012) - The revocation function was unable to check revocation for the certificate.)
error: failed to get §axum§ as a dependency of package §copperkettle v0.4.0 (C:\src\copperkettle)§

Caused by:
  download of config.json failed

Caused by:
  failed to download from §https://index.crates.io/config.json§

Caused by:
  [35] SSL connect error (schannel: next InitializeSecurityContext failed: Unknown error (0x80092012) - The revocation function was unable to check revocation for the certificate.)`), "cargo-revoke", u5Global)

	h.note(Note{ID: "libclang", Project: "pacer-cli", OS: "linux", Lang: "rust", At: day(2026, time.February, 3),
		Title:   "bindgen can't find libclang",
		What:    "build script of pacer-sys panics: Unable to find libclang: \"couldn't find any valid shared libraries matching: ['libclang.so', ...]\"",
		Why:     "bindgen loads libclang at build time; not installed on the runner image",
		Learned: "apt install libclang-dev (clang itself not needed). On other distros set LIBCLANG_PATH to the dir with libclang.so.",
		Fix:     "sudo apt-get install -y libclang-dev"})
	h.ask("libclang/1", "pacer-cli", "linux", "cargo build -p pacer-sys", `   Compiling pacer-sys v0.2.0 (/home/runner/work/pacer-cli/pacer-cli/crates/pacer-sys)
error: failed to run custom build command for §pacer-sys v0.2.0 (/home/runner/work/pacer-cli/pacer-cli/crates/pacer-sys)§

Caused by:
  process didn't exit successfully: §/home/runner/work/pacer-cli/pacer-cli/target/debug/build/pacer-sys-41c0a9e7f2b3d815/build-script-build§ (exit status: 101)
  --- stderr
  thread 'main' panicked at /home/runner/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/bindgen-0.71.1/lib.rs:604:27:
  Unable to find libclang: "couldn't find any valid shared libraries matching: ['libclang.so', 'libclang-*.so', 'libclang.so.*', 'libclang-*.so.*'], set the §LIBCLANG_PATH§ environment variable to a path where one of these files can be found (invalid: [])"
  note: run with §RUST_BACKTRACE=1§ environment variable to display a backtrace`, "libclang", u5Stored)
	h.ask("borrow-live", "pacer-cli", "darwin", "cargo build", `error[E0597]: §line§ does not live long enough
  --> src/parse.rs:58:28
   |
55 |     let mut fields: Vec<&str> = Vec::new();
   |         ---------- lifetime §'1§ appears in the type of §fields§
...
58 |         let line = buf.trim_end().to_owned();
   |             ---- binding §line§ declared here
59 |         fields.extend(line.split(','));
   |                       ^^^^ borrowed value does not live long enough
60 |     }
   |     - §line§ dropped here while still borrowed`, "", u5NeverFail)
	h.ask("msrv-clap", "pacer-cli", "linux", "cargo +1.70 build", `error: package §clap_lex v0.7.4§ cannot be built because it requires rustc 1.74 or newer, while the currently active rustc version is 1.70.0
Either upgrade to rustc 1.74 or newer, or use
cargo update clap_lex@0.7.4 --precise ver
where §ver§ is the latest version of §clap_lex§ supporting rustc 1.70.0`, "", u5NeverObj)
}

// sprintfU5 fills the one %s of a shared tail.
func sprintfU5(format, s string) string { return strings.Replace(format, "%s", s, 1) }
