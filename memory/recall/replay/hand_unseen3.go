package replay

import "fmt"

// handUnseen3 are the cases of the third unseen part: written after all
// the tuning, blind (by someone who had read neither the engine nor its
// misses, nor the other parts' notes), and only ever reported. They are
// about failures no other part has: Meson and its wraps, Conan 2,
// Buck2's cells and daemon, rebar3 and OTP versions, Crystal shards,
// Dart's SDK constraint and build_runner, Turborepo 2, nox on CI, mamba
// on Apple silicon, LuaRocks and OpenSSL, cpanm and mysql_config (this
// file); Pulumi secrets and pending operations, Argo CD, Nomad, Caddy,
// HAProxy and certbot, cloudflared, Cassandra, ClickHouse, k3s cgroups,
// rootless nerdctl (hand_unseen3_ops.go); Istio, Linkerd's issuer,
// Envoy, the OpenTelemetry collector, GitLab runners, Jenkins, CircleCI,
// Buildkite, Tekton, signing commits with GPG on three systems
// (hand_unseen3_ci.go); the notes that describe no failure, a Makefile
// wrapper, and the failures no note is about (hand_unseen3_never.go).
func handUnseen3() ([]Note, []Query) {
	h := &hand{split: Unseen3, prefix: "unseen3/"}
	unseen3Native(h)
	unseen3Langs(h)
	unseen3Infra(h)
	unseen3Data(h)
	unseen3Mesh(h)
	unseen3CI(h)
	unseen3Signing(h)
	unseen3Plain(h)
	unseen3NeverStored(h)
	return h.notes, h.qs
}

func unseen3Native(h *hand) {
	h.note(Note{ID: "meson-zlib-linux", Project: "anneal", OS: "linux", Lang: "c++", At: day(2023, 5, 16),
		Title:   "meson setup: zlib not found on the CI image",
		What:    "`meson setup build` on the new runner image: ERROR: Dependency \"zlib\" not found, tried pkgconfig and cmake",
		Why:     "ubuntu-22.04 slim image has the zlib runtime but not zlib1g-dev, so no zlib.pc for pkg-config to find.",
		Learned: "Install the -dev package in the image (ci/Dockerfile). Don't reach for a wrap on linux, the system one is what we ship against.",
		Fix:     "sudo apt-get install -y zlib1g-dev pkg-config"})
	h.note(Note{ID: "meson-zlib-windows", Project: "anneal", OS: "windows", Lang: "c++", At: day(2023, 6, 2),
		Title: "Windows: meson can't find zlib (no pkg-config there at all) -> use the wrap",
		What: "Same `Dependency \"zlib\" not found, tried pkgconfig and cmake` as on linux but on the Windows runner there is nothing to apt-get. " +
			"Meson also prints `Found pkg-config: NO`.",
		Why:     "No pkg-config and no zlib install on Windows; the linux fix does not apply. The subprojects/zlib.wrap from wrapdb builds it from source.",
		Where:   "subprojects/zlib.wrap, meson.build",
		Learned: "On Windows always force the fallback for zlib; keep the wrap file committed.",
		Fix:     "meson wrap install zlib && meson setup build --force-fallback-for=zlib"})
	zlib := "The Meson build system\nVersion: 1.2.3\nSource dir: %s\nBuild dir: %s\nBuild type: native build\nProject name: anneal\nProject version: 0.9.1\nC++ compiler for the host machine: %s\nHost machine cpu family: x86_64\nHost machine cpu: x86_64\nFound pkg-config: %s\nFound CMake: %s\nRun-time dependency zlib found: NO (tried pkgconfig and cmake)\n\nmeson.build:27:7: ERROR: Dependency \"zlib\" not found, tried pkgconfig and cmake\n\nA full log can be found at %s\n"
	h.ask("meson-zlib/linux", "anneal", "linux", "meson setup build --buildtype=release",
		sprintf(zlib, "/home/ci/build/anneal", "/home/ci/build/anneal/build", "c++ (gcc 11.4.0 \"c++ (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0\")", "YES (/usr/bin/pkg-config) 0.29.2", "/usr/bin/cmake (3.22.1)", "/home/ci/build/anneal/build/meson-logs/meson-log.txt"),
		"meson-zlib-linux", "unseen3: twin on another system")
	h.ask("meson-zlib/windows", "anneal", "windows", "meson setup build --buildtype=release",
		crlf(sprintf(zlib, `C:\Users\dev\src\anneal`, `C:\Users\dev\src\anneal\build`, "cl (msvc 19.38.33133 \"Microsoft (R) C/C++ Optimizing Compiler Version 19.38.33133 for x64\")", "NO", `C:\Program Files\CMake\bin\cmake.EXE (3.28.1)`, `C:\Users\dev\src\anneal\build\meson-logs\meson-log.txt`)),
		"meson-zlib-windows", "unseen3: twin on another system, CRLF")
	h.ask("meson-zlib/reconfigure", "anneal", "linux", "ninja -C build reconfigure",
		"[0/1] Regenerating build files.\n\x1b[1mRun-time dependency \x1b[0mzlib found: \x1b[1;31mNO\x1b[0m (tried pkgconfig and cmake)\n\n\x1b[1m../meson.build:27:7:\x1b[0m \x1b[1;31mERROR:\x1b[0m Dependency \"zlib\" not found, tried pkgconfig and cmake\n\nA full log can be found at /home/ci/build/anneal/build/meson-logs/meson-log.txt\nFAILED: build.ninja\n/usr/bin/meson --internal regenerate /home/ci/build/anneal /home/ci/build/anneal/build\nninja: error: rebuilding 'build.ninja': subcommand failed\n",
		"meson-zlib-linux", "unseen3: stored, ANSI colours, another tool")

	h.note(Note{ID: "meson-vsenv", Project: "anneal", OS: "windows", Lang: "c++", At: day(2024, 1, 22),
		Title:   "meson on plain PowerShell finds no compiler",
		What:    "meson setup from a normal pwsh window dies with Unknown compiler(s) and lists icl, cl, cc, gcc, clang, clang-cl, pgcc.",
		Why:     "cl.exe is only on PATH inside a VS Developer prompt. Meson can load the VS environment itself since 0.59.",
		Learned: "pass --vsenv (or run from 'x64 Native Tools Command Prompt'). CI uses ilammy/msvc-dev-cmd so it never showed there.",
		Fix:     "meson setup build --vsenv"})
	h.ask("meson-vsenv/pwsh", "anneal", "windows", "meson setup build",
		crlf("The Meson build system\nVersion: 1.3.1\nSource dir: C:\\Users\\dev\\src\\anneal\nBuild dir: C:\\Users\\dev\\src\\anneal\\build\nBuild type: native build\nProject name: anneal\nProject version: 0.9.2\n\n..\\meson.build:1:0: ERROR: Unknown compiler(s): [['icl'], ['cl'], ['cc'], ['gcc'], ['clang'], ['clang-cl'], ['pgcc']]\nThe following exception(s) were encountered:\nRunning `icl \"\"` gave \"[WinError 2] The system cannot find the file specified\"\nRunning `cl /?` gave \"[WinError 2] The system cannot find the file specified\"\nRunning `cc --version` gave \"[WinError 2] The system cannot find the file specified\"\nRunning `gcc --version` gave \"[WinError 2] The system cannot find the file specified\"\nRunning `clang --version` gave \"[WinError 2] The system cannot find the file specified\"\nRunning `clang-cl /?` gave \"[WinError 2] The system cannot find the file specified\"\nRunning `pgcc --version` gave \"[WinError 2] The system cannot find the file specified\"\n\nA full log can be found at C:\\Users\\dev\\src\\anneal\\build\\meson-logs\\meson-log.txt\n"),
		"meson-vsenv", "unseen3: stored, Windows paths and CRLF")
	h.ask("meson-unknown-option", "anneal", "linux", "meson setup build -Db_sanitizer=address",
		"The Meson build system\nVersion: 1.2.3\nSource dir: /home/ci/build/anneal\nBuild dir: /home/ci/build/anneal/build\nBuild type: native build\n\nmeson.build:1:0: ERROR: Unknown options: \"b_sanitizer\"\n\nA full log can be found at /home/ci/build/anneal/build/meson-logs/meson-log.txt\n",
		"", "unseen3: same tool, another error")

	h.note(Note{ID: "conan-profile-detect", Project: "anneal", Scope: "global", OS: "darwin", Lang: "c++", At: day(2023, 11, 7),
		Title:   "conan 2 fresh machine: no default profile",
		What:    "first `conan install` on a new laptop → ERROR: The default build profile '/Users/kim/.conan2/profiles/default' doesn't exist.",
		Why:     "Conan 2 no longer auto-creates a profile on first run (1.x did).",
		Learned: "conan profile detect once per machine/CI image; check the compiler.cppstd it guessed (it said gnu17, we build with 20).",
		Fix:     "conan profile detect --force"})
	h.ask("conan-profile/anneal", "anneal", "darwin", "conan install . --output-folder=build --build=missing",
		"ERROR: The default build profile '/Users/kim/.conan2/profiles/default' doesn't exist.\nYou need to create a default profile (type 'conan profile detect' command)\nor specify your own profile with '--profile:build=<myprofile>'\n",
		"conan-profile-detect", "unseen3: stored, short tail")
	h.ask("conan-profile/burrow-ci", "burrow", "linux", "conan create . --build=missing -s build_type=Release",
		"$ conan --version\nConan version 2.0.17\n$ conan create . --build=missing -s build_type=Release\nERROR: The default host profile '/root/.conan2/profiles/default' doesn't exist.\nYou need to create a default profile (type 'conan profile detect' command)\nor specify your own profile with '--profile:host=<myprofile>'\nCleaning up project directory and file based variables\nERROR: Job failed: exit code 1\n",
		"conan-profile-detect", "unseen3: global note, another project and OS")

	h.note(Note{ID: "conan-pin-1x", Project: "anneal", OS: "linux", Lang: "python", At: day(2023, 2, 28),
		Title:   "pin conan<2 until the recipes are ported",
		What:    "CI picked up conan 2.0 from pip and every recipe fails to load: `ImportError: cannot import name 'ConanFile' from 'conans'`.",
		Why:     "Our recipes in recipes/*/conanfile.py are 1.x style (from conans import ConanFile, tools.cmake etc).",
		Learned: "Pinned conan in ci/requirements.txt.",
		Fix:     "pip install 'conan<2'"})
	h.note(Note{ID: "conan-ported", Project: "anneal", OS: "linux", Lang: "python", At: day(2024, 4, 11), ProseOver: "conan-pin-1x",
		Title: "recipes ported to Conan 2, conan<2 pin removed",
		What: "The conan<2 pin from last year doesn't hold any more: conancenter stopped publishing 1.x-compatible revisions for half our deps " +
			"and the pinned client now fails with the same `cannot import name 'ConanFile' from 'conans'` on recipes pulled from upstream. So I ported everything.",
		Why:     "`conans` is the 1.x package; Conan 2 exposes `from conan import ConanFile` and the tools moved to conan.tools.*.",
		Where:   "recipes/*/conanfile.py, ci/requirements.txt",
		Learned: "If you see that ImportError again it's a recipe somebody copied from an old branch: change the import, don't pin the client.",
		Fix:     "sed -i 's/from conans import ConanFile/from conan import ConanFile/' recipes/*/conanfile.py"})
	conan := "======== Exporting recipe to the cache ========\nERROR: Error loading conanfile at '/home/ci/build/anneal/recipes/%[1]s/conanfile.py': Unable to load conanfile in /home/ci/build/anneal/recipes/%[1]s/conanfile.py\n  File \"<frozen importlib._bootstrap_external>\", line 940, in exec_module\n  File \"<frozen importlib._bootstrap>\", line 241, in _call_with_frames_removed\n  File \"/home/ci/build/anneal/recipes/%[1]s/conanfile.py\", line 1, in <module>\n    from conans import ConanFile, CMake, tools\nImportError: cannot import name 'ConanFile' from 'conans' (/home/ci/build/anneal/.venv/lib/python3.11/site-packages/conans/__init__.py)\n"
	h.ask("conan-ported/libpng", "anneal", "linux", "conan export recipes/libpng --version 1.6.40", sprintf(conan, "libpng"),
		"conan-ported", "unseen3: superseded in prose", "conan-pin-1x")
	h.ask("conan-ported/harfbuzz", "anneal", "linux", "conan create recipes/harfbuzz --build=missing", "..."+sprintf(conan, "harfbuzz")[60:],
		"conan-ported", "unseen3: superseded in prose, cut at the start", "conan-pin-1x")
	h.ask("conan-ported/burrow", "burrow", "linux", "conan create . --build=missing",
		"======== Exporting recipe to the cache ========\nERROR: Error loading conanfile at '/home/ci/build/burrow/conanfile.py': Unable to load conanfile in /home/ci/build/burrow/conanfile.py\n  File \"/home/ci/build/burrow/conanfile.py\", line 2, in <module>\n    from conans import ConanFile\nImportError: cannot import name 'ConanFile' from 'conans' (/usr/local/lib/python3.10/dist-packages/conans/__init__.py)\n",
		"", "unseen3: another project's project note")

	h.note(Note{ID: "buck2-prelude-cell", Project: "burrow", OS: "linux", Lang: "c++", At: day(2025, 2, 19),
		Title:   "buck2: unknown cell alias prelude",
		What:    "after cloning, `buck2 build //...` → Error ... unknown cell alias: `prelude`. Worked on the machine where I ran buck2 init.",
		Why:     "prelude is a git submodule (buck2 init --git adds it) and a fresh clone doesn't fetch submodules. .buckconfig names the cell, the directory is empty.",
		Learned: "clone with --recurse-submodules, or init it after the fact. Added to the README's setup section.",
		Fix:     "git submodule update --init prelude"})
	h.ask("buck2-prelude/build", "burrow", "linux", "buck2 build //...",
		"File changed: root//.buckconfig\nBuild ID: 0d2c3e6a-58f1-4b7e-9b0e-3a1f2c4d5e6f\nLoading targets.   Remaining     0/1                                                   0 dirs read, 0 targets declared\nCommand failed: \nError evaluating build file: `root//:BUCK`\n\nCaused by:\n    0: From load at implicit location\n    1: Error loading `load` of `prelude//prelude.bzl` from `root//:BUCK`\n    2: Error resolving cell alias: `prelude`\n    3: unknown cell alias: `prelude`. In cell `root`, known aliases are: `none`, `root`, `toolchains`\n",
		"buck2-prelude-cell", "unseen3: stored")
	h.ask("buck2-prelude/ci", "burrow", "linux", "buck2 test //lib/...",
		"\x1b[33mBuild ID: 7a1b9c22-0e4d-4a4f-8a35-b2c1d0e9f8a7\x1b[0m\n\x1b[31mCommand failed: \x1b[0m\nError evaluating build file: `root//lib/codec:BUCK`\n\nCaused by:\n    0: From load at implicit location\n    1: Error loading `load` of `prelude//prelude.bzl` from `root//lib/codec:BUCK`\n    2: Error resolving cell alias: `prelude`\n    3: unknown cell alias: `prelude`. In cell `root`, known aliases are: `none`, `root`, `toolchains`\n\x1b[31mBUILD FAILED\x1b[0m\n",
		"buck2-prelude-cell", "unseen3: stored, ANSI colours")

	h.note(Note{ID: "buck2-killall", Project: "burrow", OS: "darwin", Lang: "c++", At: day(2025, 6, 3),
		Title: "buck2 hangs / daemon refuses after brew upgrade",
		What: "After `brew upgrade buck2` every command printed `buck2 daemon constraint mismatch: Version mismatch; restarting daemon` then sat there and eventually " +
			"`Error: Timed out waiting for daemon to start`.",
		Why:     "old buckd still holding ~/.buck/buckd/<repo>/ and the lock; the new client can't take over. Happens on every upgrade, not just this one.",
		Learned: "buck2 killall, then build again. Terse, but it's always the answer.",
		Fix:     "buck2 killall"})
	h.ask("buck2-killall/mac", "burrow", "darwin", "buck2 build //app:burrow",
		"buck2 daemon constraint mismatch: Version mismatch; restarting daemon\nStarting new buck2 daemon...\nbuck2 daemon constraint mismatch: Version mismatch; restarting daemon\nStarting new buck2 daemon...\nCommand failed: \nError: Timed out waiting for daemon to start\n\nCaused by:\n    0: Error connecting to buck2 daemon at /Users/kim/.buck/buckd/Users-kim-code-burrow/v2\n    1: timed out after 60s\n",
		"buck2-killall", "unseen3: stored")
	h.ask("buck2-action-failed", "burrow", "linux", "buck2 build //app:burrow",
		"Action failed: root//app:burrow (cxx_compile src/main.cpp)\nLocal command returned non-zero exit code 1\nReproduce locally: `clang++ -o buck-out/v2/gen/root/904931f735703749/app/__burrow__/__objects__/src/main.cpp.o -c -std=c++20 ...<omitted>... ck-out/v2/gen/root/904931f735703749/app/__burrow__/.argsfiles/cxx_compile.argsfile (run `buck2 log what-failed` to get the full command)`\nstdout:\nstderr:\napp/src/main.cpp:4:10: fatal error: 'fmt/core.h' file not found\n#include <fmt/core.h>\n         ^~~~~~~~~~~~\n1 error generated.\nBuild ID: c1f0e2a4-9b3d-4e7c-8a61-0f2e3d4c5b6a\nJobs completed: 14. Time elapsed: 2.3s.\nBUILD FAILED\nFailed to build 'root//app:burrow (prelude//platforms:default#904931f735703749)'\n",
		"", "unseen3: same tool, another error")
}

func unseen3Langs(h *hand) {
	h.note(Note{ID: "rebar3-update", Project: "bivalve", OS: "linux", Lang: "erlang", At: day(2022, 9, 6),
		Title:   "rebar3: Package not found in any repo",
		What:    "`rebar3 compile` after bumping cowboy: ===> Package not found in any repo: cowboy 2.10.0",
		Why:     "rebar3's local hex registry cache (~/.cache/rebar3/hex) was from before 2.10.0 was published. It doesn't refresh on its own.",
		Learned: "rebar3 update refreshes the registry index; then get-deps works.",
		Fix:     "rebar3 update && rebar3 get-deps"})
	h.ask("rebar3-update/compile", "bivalve", "linux", "rebar3 compile",
		"===> Verifying dependencies...\n===> Package not found in any repo: cowboy 2.10.0\n",
		"rebar3-update", "unseen3: stored, short tail")
	h.ask("rebar3-update/mac", "bivalve", "darwin", "rebar3 as test ct",
		"===> Verifying dependencies...\n===> Fetching ranch v2.1.0\n===> Package not found in any repo: gun 2.1.0\n",
		"rebar3-update", "unseen3: stored, another package")
	h.ask("rebar3-macro", "bivalve", "linux", "rebar3 compile",
		"===> Verifying dependencies...\n===> Analyzing applications...\n===> Compiling bivalve\n===> Compiling src/bivalve_sup.erl failed\nsrc/bivalve_sup.erl:14:5: undefined macro 'CHILD/2'\n\nsrc/bivalve_sup.erl:3:2: function init/1 undefined\n",
		"", "unseen3: same tool, another error")

	h.note(Note{ID: "rebar3-otp-asdf", Project: "bivalve", OS: "darwin", Lang: "erlang", At: day(2023, 8, 14),
		Title:   "OTP release 25 does not match required regex",
		What:    "rebar3 refuses to do anything: `===> OTP release 25 does not match required regex 26`",
		Why:     "rebar.config has {minimum_otp_vsn, \"26\"} since the json module change; Homebrew's erlang on my mac was still 25.",
		Learned: "use asdf for erlang in this repo, .tool-versions pins 26.0.2",
		Fix:     "asdf install erlang 26.0.2 && asdf local erlang 26.0.2"})
	h.note(Note{ID: "rebar3-otp-mise", Project: "bivalve", OS: "darwin", Lang: "erlang", At: day(2025, 3, 10), Supersedes: "rebar3-otp-asdf",
		Title: "OTP version mismatch: use mise, `asdf local` is gone",
		What: "Got `OTP release 25 does not match required regex 26` again on a fresh mac and the old note's `asdf local erlang` fails: " +
			"asdf 0.16 (the Go rewrite) removed `local`/`global` (`unknown command: local`).",
		Why:     "We moved the repo to mise anyway (mise.toml, reads .tool-versions too).",
		Learned: "mise use erlang@26 writes mise.toml and activates it. Whoever still has asdf: `asdf set erlang 26.2.5`.",
		Fix:     "mise use erlang@26.2.5"})
	h.ask("rebar3-otp/mac", "bivalve", "darwin", "rebar3 shell",
		"===> OTP release 25 does not match required regex 26\n",
		"rebar3-otp-mise", "unseen3: superseded, declared", "rebar3-otp-asdf")
	h.ask("rebar3-otp/old-fix", "bivalve", "darwin", "asdf local erlang 26.0.2 && rebar3 compile",
		"unknown command: local\nusage: asdf [--help] <command> [<args>]\n\nAvailable commands:\n  current   Display current version\n  install   Install a version\n  set       Set a tool version in a .tool-versions file\n...\n===> OTP release 25 does not match required regex 26\n",
		"rebar3-otp-mise", "unseen3: superseded, declared, the old fix's own error", "rebar3-otp-asdf")

	h.note(Note{ID: "crystal-shards", Project: "bivalve", OS: "linux", Lang: "crystal", At: day(2023, 1, 30),
		Title:   "crystal build: can't find file 'kemal'",
		What:    "crystal build src/relay.cr → Error: can't find file 'kemal'. shard.yml lists it.",
		Why:     "lib/ is gitignored and the Dockerfile ran crystal build before shards install (layer order).",
		Learned: "COPY shard.yml shard.lock, shards install, then COPY src.",
		Fix:     "shards install --production"})
	h.ask("crystal-shards/docker", "bivalve", "linux", "docker build -f relay/Dockerfile relay",
		"#10 [builder 5/6] RUN crystal build src/relay.cr --release --static -o bin/relay\n#10 0.912 Showing last frame. Use --error-trace for full trace.\n#10 0.912 \n#10 0.912 In src/relay.cr:1:1\n#10 0.912 \n#10 0.912  1 | require \"kemal\"\n#10 0.912      ^\n#10 0.912 Error: can't find file 'kemal'\n#10 0.912 \n#10 0.912 If you're trying to require a shard:\n#10 0.912 - Did you remember to run `shards install`?\n#10 0.912 - Did you make sure you're running the compiler in the same directory as your shard.yml?\n#10 ERROR: process \"/bin/sh -c crystal build src/relay.cr --release --static -o bin/relay\" did not complete successfully: exit code: 1\n",
		"crystal-shards", "unseen3: stored, docker build log")

	h.note(Note{ID: "dart-sdk-freezed", Project: "gannet", OS: "windows", Lang: "dart", At: day(2024, 3, 18),
		Title:   "pub get: freezed needs SDK >=3.3.0, version solving failed",
		What:    "On my Windows box: The current Dart SDK version is 3.2.3. Because gannet depends on freezed >=2.5.0 which requires SDK version >=3.3.0 <4.0.0, version solving failed.",
		Why:     "the repo's pubspec.yaml moved to freezed 2.5 but my local Flutter was 3.16; CI had 3.19 already. Nothing wrong with pubspec.yaml.",
		Learned: "flutter upgrade (we're on stable); `flutter --version` must match .fvmrc.",
		Fix:     "flutter upgrade"})
	h.ask("dart-sdk/win", "gannet", "windows", "flutter pub get",
		crlf("Resolving dependencies...\nThe current Dart SDK version is 3.2.3.\n\nBecause gannet depends on freezed >=2.5.0 which requires SDK version >=3.3.0 <4.0.0, version solving failed.\n\n\nYou can try the following suggestion to make the pubspec resolve:\n* Try using the Flutter SDK version: 3.19.3. \nFailed to update packages.\n"),
		"dart-sdk-freezed", "unseen3: stored, CRLF")
	h.ask("dart-sdk/riverpod", "gannet", "darwin", "dart pub get",
		"Resolving dependencies... \nThe current Dart SDK version is 3.1.5.\n\nBecause gannet depends on riverpod_generator >=2.4.0 which requires SDK version >=3.2.0 <4.0.0, version solving failed.\n",
		"dart-sdk-freezed", "unseen3: stored, another package")

	h.note(Note{ID: "dart-build-runner", Project: "gannet", OS: "darwin", Lang: "dart", At: day(2024, 5, 2),
		Title:   "build_runner: Conflicting outputs",
		What:    "`dart run build_runner build` → [SEVERE] Conflicting outputs were detected and the build is unable to prompt for permission to remove them. (lib/models/*.g.dart checked in from another branch)",
		Why:     "the generated .g.dart/.freezed.dart files came in with a merge; build_runner won't overwrite files it didn't write in this build's asset graph.",
		Learned: "Always run it with --delete-conflicting-outputs; it's in the Makefile's `gen` target now.",
		Fix:     "dart run build_runner build --delete-conflicting-outputs"})
	h.ask("dart-build-runner/gen", "gannet", "darwin", "dart run build_runner build",
		"[INFO] Generating build script completed, took 281ms\n[INFO] Reading cached asset graph completed, took 96ms\n[INFO] Checking for updates since last build completed, took 612ms\n[WARNING] Conflicting outputs were detected and the build is unable to prompt for permission to remove them. These outputs must be removed manually or the build can be run with `--delete-conflicting-outputs`. The outputs are: lib/models/user.g.dart\nlib/models/user.freezed.dart\nlib/models/order.g.dart\n[SEVERE] Conflicting outputs were detected and the build is unable to prompt for permission to remove them. These outputs must be removed manually or the build can be run with `--delete-conflicting-outputs`. The outputs are: lib/models/user.g.dart\n",
		"dart-build-runner", "unseen3: stored")
	h.ask("dart-build-runner/skerry", "skerry", "darwin", "flutter pub run build_runner build",
		"[INFO] Reading cached asset graph completed, took 88ms\n[SEVERE] Conflicting outputs were detected and the build is unable to prompt for permission to remove them. These outputs must be removed manually or the build can be run with `--delete-conflicting-outputs`. The outputs are: lib/api/client.g.dart\n",
		"", "unseen3: another project's project note")

	h.note(Note{ID: "turbo-tasks", Project: "gannet", OS: "linux", Lang: "typescript", At: day(2024, 6, 26),
		Title: "turbo 2: pipeline -> tasks",
		What: "Renovate bumped turbo to 2.0.4 and `turbo run build` fails straight away:\n```\n  x Found `pipeline` field instead of `tasks`.\n   ,-[turbo.json:3:1]\n```\n" +
			"plus some warning about `outputMode`.",
		Why:     "Turborepo 2 renamed pipeline to tasks and outputMode to outputLogs; 1.x turbo.json is rejected, not migrated.",
		Learned: "The codemod does both renames (and the env var stuff). Ran it in web/ and in the root turbo.json.",
		Fix:     "npx @turbo/codemod@latest migrate"})
	h.ask("turbo-tasks/build", "gannet", "linux", "pnpm turbo run build --filter=web",
		"\x1b[2m\x1b[0m\x1b[31m  x\x1b[0m Found `pipeline` field instead of `tasks`.\n   ,-[\x1b[36;1;4m/home/ci/build/gannet/turbo.json\x1b[0m:3:1]\n \x1b[2m3\x1b[0m |   \"$schema\": \"https://turbo.build/schema.json\",\n \x1b[2m4\x1b[0m |   \"pipeline\": {\n   : \x1b[35;1m  ^^^^^^^^^^\x1b[0m\n   :       \x1b[35;1m`-- Rename `pipeline` field to `tasks`\x1b[0m\n \x1b[2m5\x1b[0m |     \"build\": {\n   `----\n\x1b[36m  help: \x1b[0mChanged in 2.0: `pipeline` has been renamed to `tasks`.\n\x1b[41;30m ELIFECYCLE \x1b[0m Command failed with exit code 1.\n",
		"turbo-tasks", "unseen3: stored, ANSI colours")

	h.note(Note{ID: "turbo-packagemanager", Project: "gannet", OS: "darwin", Lang: "typescript", At: day(2024, 7, 9),
		Title:   "turbo: Could not resolve workspaces / missing packageManager",
		What:    "turbo run dev: Could not resolve workspaces. `-> Missing `packageManager` field in package.json",
		Why:     "turbo 2 refuses to guess the package manager; the root package.json had none (pnpm was implied by the lockfile).",
		Learned: "corepack pins it and writes the field with the hash.",
		Fix:     "corepack use pnpm@9.4.0"})
	h.ask("turbo-packagemanager/dev", "gannet", "darwin", "pnpm turbo dev",
		"  x Could not resolve workspaces.\n  `-> Missing `packageManager` field in package.json\n\n ELIFECYCLE  Command failed with exit code 1.\n",
		"turbo-packagemanager", "unseen3: stored, short tail")
	h.ask("package-json-parse", "gannet", "linux", "pnpm install --frozen-lockfile",
		"\u2009ERR_PNPM_JSON_PARSE\u2009 Unexpected token } in JSON at position 812 while parsing near '...\"^5.4.5\",\n    },\n  \"packageManager\":...' in /home/ci/build/gannet/apps/web/package.json\n\nThis error happened while installing a direct dependency of /home/ci/build/gannet/apps/web\n",
		"", "unseen3: generic file name, another error")
	h.ask("turbo-missing-task", "gannet", "linux", "pnpm turbo run lint",
		"  x Missing tasks in project\n  `-> x Could not find task `lint` in project\n\n ELIFECYCLE  Command failed with exit code 1.\n",
		"", "unseen3: same tool, another error")

	h.note(Note{ID: "luarocks-openssl-linux", Project: "bivalve", OS: "linux", Lang: "lua", At: day(2022, 4, 12),
		Title:   "luarocks: Could not find header file for OPENSSL (openresty image)",
		What:    "luarocks install lua-resty-openssl in the openresty image → Error: Could not find header file for OPENSSL / No file openssl/evp.h in /usr/local/include",
		Why:     "OpenResty ships its own OpenSSL under /usr/local/openresty/openssl3 and luarocks only looks in /usr and /usr/local.",
		Learned: "pass OPENSSL_DIR pointing at openresty's copy. Don't apt-get libssl-dev, that builds against the wrong openssl and segfaults at runtime.",
		Fix:     "luarocks install lua-resty-openssl OPENSSL_DIR=/usr/local/openresty/openssl3"})
	h.note(Note{ID: "luarocks-openssl-mac", Project: "bivalve", OS: "darwin", Lang: "lua", At: day(2022, 5, 3),
		Title:   "mac: luarocks can't find openssl headers either, different fix",
		What:    "same `No file openssl/evp.h in /usr/local/include` on the M1. There's no openresty openssl here.",
		Why:     "Homebrew on arm64 lives in /opt/homebrew, not /usr/local, and openssl@3 is keg-only anyway.",
		Learned: "point OPENSSL_DIR at brew --prefix openssl@3.",
		Fix:     "luarocks install lua-resty-openssl OPENSSL_DIR=$(brew --prefix openssl@3)"})
	rocks := "Installing https://luarocks.org/lua-resty-openssl-1.2.0-1.src.rock\n\nError: Failed installing dependency: https://luarocks.org/lua-resty-openssl-1.2.0-1.src.rock - Could not find header file for OPENSSL\n  No file openssl/evp.h in /usr/local/include\n  No file openssl/evp.h in /usr/include\n  No file openssl/evp.h in /include\nYou may have to install OPENSSL in your system and/or pass OPENSSL_DIR or OPENSSL_INCDIR to the luarocks command.\nExample: luarocks install lua-resty-openssl OPENSSL_DIR=/usr/local\n"
	h.ask("luarocks-openssl/linux", "bivalve", "linux", "luarocks install lua-resty-jwt", rocks,
		"luarocks-openssl-linux", "unseen3: twin on another system")
	h.ask("luarocks-openssl/mac", "bivalve", "darwin", "luarocks install lua-resty-jwt", rocks,
		"luarocks-openssl-mac", "unseen3: twin on another system")

	h.note(Note{ID: "cpanm-mysql-config", Project: "bivalve", OS: "linux", Lang: "perl", At: day(2022, 7, 25),
		Title: "cpanm DBD::mysql fails: Can't exec mysql_config",
		What: "The old billing exporter (perl) needs DBD::mysql; cpanm dies with `! Installing DBD::mysql failed.` and build.log has " +
			"Can't exec \"mysql_config\": No such file or directory at Makefile.PL line 89.",
		Why:     "no MySQL client dev headers on the box. Makefile.PL shells out to mysql_config to get cflags/libs.",
		Learned: "install libmysqlclient-dev (default-libmysqlclient-dev on Debian) and retry; took me an hour to look at build.log instead of the summary.",
		Fix:     "sudo apt-get install -y default-libmysqlclient-dev && cpanm DBD::mysql"})
	h.ask("cpanm-mysql/build", "bivalve", "linux", "cpanm --installdeps .",
		"--> Working on DBD::mysql\nFetching http://www.cpan.org/authors/id/D/DV/DVEEDEN/DBD-mysql-4.050.tar.gz ... OK\nConfiguring DBD-mysql-4.050 ... N/A\n! Configure failed for DBD-mysql-4.050. See /home/ci/.cpanm/work/1658742011.2214/build.log for details.\n! Installing the dependencies failed: Module 'DBD::mysql' is not installed\n! Bailing out the installation for Bivalve-Billing-0.31.\n$ tail -5 /home/ci/.cpanm/work/1658742011.2214/build.log\nCan't exec \"mysql_config\": No such file or directory at Makefile.PL line 89.\n\nCannot find the file 'mysql_config'! Your execution PATH doesn't seem\nnot contain the path to mysql_config. Resorting to guessed values!\nCan't link/include C library 'ssl', 'crypto', aborting.\n",
		"cpanm-mysql-config", "unseen3: stored, generic file name in the tail")

	h.note(Note{ID: "nox-ci-interpreters", Project: "sluice", Scope: "global", OS: "linux", Lang: "python", At: day(2022, 11, 21),
		Title: "nox on CI fails (not skips) when a python is missing",
		What: "Locally `nox` just skips tests-3.8 if I don't have 3.8. On GitHub Actions the same session fails: " +
			"nox > Session tests-3.8 failed: Python interpreter 3.8 not found.",
		Why:     "nox turns error_on_missing_interpreters on when CI is set. The workflow only installed 3.11.",
		Learned: "list every version in setup-python's python-version (multi-line), or run nox -p 3.11 on CI.",
		Fix:     ""})
	h.ask("nox-ci/sluice", "sluice", "linux", "nox -s tests",
		"nox > Running session tests-3.8\nnox > Session tests-3.8 failed: Python interpreter 3.8 not found.\nnox > Running session tests-3.11\nnox > Creating virtual environment (virtualenv) using python3.11 in .nox/tests-3-11\nnox > python -m pip install -e '.[test]'\nnox > pytest -q\n........................................................ [100%]\n56 passed in 3.41s\nnox > Session tests-3.11 was successful in 19 seconds.\nnox > Ran multiple sessions:\nnox > * tests-3.8: failed\nnox > * tests-3.11: success\nError: Process completed with exit code 1.\n",
		"nox-ci-interpreters", "unseen3: stored, error in the middle")
	h.ask("nox-ci/palisade", "palisade", "linux", "nox -s lint typecheck",
		"nox > Running session typecheck-3.9\nnox > Session typecheck-3.9 failed: Python interpreter 3.9 not found.\nnox > Ran multiple sessions:\nnox > * lint: success\nnox > * typecheck-3.9: failed\n",
		"nox-ci-interpreters", "unseen3: global note, another project")
}

// sprintf is fmt.Sprintf, kept short for the long tails above.
func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
