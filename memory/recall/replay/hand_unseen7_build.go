package replay

// unseen7Build: Make, CMake, Ninja, Meson, Bazel, webpack, Vite, esbuild,
// Turborepo and Nx.
func unseen7Build(h *hand) {
	h.note(Note{ID: "make-missing-separator", Project: "mossgate", Scope: "global", OS: "linux", Lang: "make", At: day(2022, 4, 12),
		Title:   "Makefile: *** missing separator. Stop. — recipe indented with spaces",
		What:    "After editing the Makefile in an editor with expandtab on, `make` → Makefile:23: *** missing separator.  Stop.",
		Why:     "Recipe lines must start with a real tab; the editor turned it into four spaces.",
		Where:   "Makefile, .editorconfig",
		Learned: "`cat -A Makefile | sed -n 23p` shows ^I for a tab. Added an .editorconfig section [Makefile] indent_style = tab so it doesn't come back.",
		Fix:     "sed -i 's/^    /\\t/' Makefile"})
	h.ask("make-missing-separator/1", "bramble", "macos", "make fmt build", `
gofmt -l -w ./cmd ./internal
/Applications/Xcode.app/Contents/Developer/usr/bin/make -C deploy build
Makefile:41: *** missing separator.  Stop.
make: *** [build] Error 2
`, "make-missing-separator", "global note, another project")
	h.ask("make-test-failed/1", "bramble", "linux", "make test", `
go test ./... -count=1
ok  	github.com/bramble-dev/bramble/internal/api	0.311s
--- FAIL: TestParseCron (0.00s)
    cron_test.go:44: next run = 2025-03-30 03:00:00 +0200 CEST, want 2025-03-30 02:00:00 +0100 CET
FAIL
FAIL	github.com/bramble-dev/bramble/internal/sched	0.007s
FAIL
make: *** [Makefile:58: test] Error 1
`, "", "generic file name: Makefile")

	// CMake and OpenSSL: the same message, a note per system.
	h.note(Note{ID: "cmake-openssl-linux", Project: "mossgate", OS: "linux", Lang: "cpp", At: day(2023, 5, 9),
		Title:   "CMake: Could NOT find OpenSSL on Ubuntu — dev package missing",
		What:    "Configuring on a fresh Ubuntu 22.04 box: Could NOT find OpenSSL, try to set the path to OpenSSL root folder in the system variable OPENSSL_ROOT_DIR (missing: OPENSSL_CRYPTO_LIBRARY OPENSSL_INCLUDE_DIR).",
		Why:     "Only the runtime libssl3 was installed; the headers and the .so symlink come with libssl-dev.",
		Where:   "src/net/CMakeLists.txt (find_package(OpenSSL REQUIRED)), docs/BUILDING.md",
		Learned: "On Debian/Ubuntu it's always the -dev package; no need to set OPENSSL_ROOT_DIR there.",
		Fix:     "sudo apt-get install -y libssl-dev"})
	h.note(Note{ID: "cmake-openssl-macos", Project: "mossgate", OS: "macos", Lang: "cpp", At: day(2023, 5, 10),
		Title:   "CMake can't find OpenSSL on macOS — point it at Homebrew's openssl@3",
		What:    "Same 'Could NOT find OpenSSL ... (missing: OPENSSL_CRYPTO_LIBRARY OPENSSL_INCLUDE_DIR)' on my Mac although `brew install openssl@3` is done.",
		Why:     "Homebrew's openssl is keg-only (not linked into /opt/homebrew/include and lib), so FindOpenSSL's default search misses it; macOS itself ships only LibreSSL dylibs without headers.",
		Where:   "CMakePresets.json (macos preset)",
		Learned: "Pass OPENSSL_ROOT_DIR=$(brew --prefix openssl@3); put it in the macos configure preset so nobody has to remember.",
		Fix:     "cmake -S . -B build -DOPENSSL_ROOT_DIR=\"$(brew --prefix openssl@3)\""})
	h.ask("cmake-openssl-linux/1", "mossgate", "linux", "cmake -S . -B build -G Ninja", `
-- The CXX compiler identification is GNU 13.2.0
-- Detecting CXX compiler ABI info
-- Detecting CXX compiler ABI info - done
CMake Error at /usr/share/cmake-3.28/Modules/FindPackageHandleStandardArgs.cmake:230 (message):
  Could NOT find OpenSSL, try to set the path to OpenSSL root folder in the
  system variable OPENSSL_ROOT_DIR (missing: OPENSSL_CRYPTO_LIBRARY
  OPENSSL_INCLUDE_DIR)
Call Stack (most recent call first):
  /usr/share/cmake-3.28/Modules/FindPackageHandleStandardArgs.cmake:600 (_FPHSA_FAILURE_MESSAGE)
  /usr/share/cmake-3.28/Modules/FindOpenSSL.cmake:686 (find_package_handle_standard_args)
  src/net/CMakeLists.txt:4 (find_package)


-- Configuring incomplete, errors occurred!
`, "cmake-openssl-linux", "twin on another system")
	h.ask("cmake-openssl-macos/1", "mossgate", "macos", "cmake --preset default", `
Preset CMake variables:

  CMAKE_BUILD_TYPE="RelWithDebInfo"

-- The CXX compiler identification is AppleClang 16.0.0.16000026
CMake Error at /opt/homebrew/Cellar/cmake/3.30.2/share/cmake/Modules/FindPackageHandleStandardArgs.cmake:233 (message):
  Could NOT find OpenSSL, try to set the path to OpenSSL root folder in the
  system variable OPENSSL_ROOT_DIR (missing: OPENSSL_CRYPTO_LIBRARY
  OPENSSL_INCLUDE_DIR)
Call Stack (most recent call first):
  /opt/homebrew/Cellar/cmake/3.30.2/share/cmake/Modules/FindPackageHandleStandardArgs.cmake:603 (_FPHSA_FAILURE_MESSAGE)
  /opt/homebrew/Cellar/cmake/3.30.2/share/cmake/Modules/FindOpenSSL.cmake:689 (find_package_handle_standard_args)
  src/net/CMakeLists.txt:4 (find_package)


-- Configuring incomplete, errors occurred!
`, "cmake-openssl-macos", "twin on another system")
	h.ask("cmake-zlib/1", "mossgate", "linux", "cmake -S . -B build", `
CMake Error at /usr/share/cmake-3.28/Modules/FindPackageHandleStandardArgs.cmake:230 (message):
  Could NOT find ZLIB (missing: ZLIB_LIBRARY ZLIB_INCLUDE_DIR)
Call Stack (most recent call first):
  /usr/share/cmake-3.28/Modules/FindPackageHandleStandardArgs.cmake:600 (_FPHSA_FAILURE_MESSAGE)
  /usr/share/cmake-3.28/Modules/FindZLIB.cmake:199 (FIND_PACKAGE_HANDLE_STANDARD_ARGS)
  src/codec/CMakeLists.txt:9 (find_package)


-- Configuring incomplete, errors occurred!
`, "", "never stored: same kind, another object")

	// Ninja on Windows: two errors of one setup, and one of them on Linux
	// with another cause.
	h.note(Note{ID: "cmake-generator-mismatch", Project: "mossgate", OS: "windows", Lang: "cpp", At: day(2024, 1, 30),
		Title:   "CMake: generator Ninja does not match the generator used previously (Visual Studio 17 2022)",
		What:    "Switching the Windows build to Ninja: CMake Error: Error: generator : Ninja Does not match the generator used previously: Visual Studio 17 2022. Either remove the CMakeCache.txt file and CMakeFiles directory or choose a different binary directory.",
		Why:     "build/ was configured by the VS generator before; the cache pins the generator.",
		Where:   "build/CMakeCache.txt",
		Learned: "Use a separate binary dir per generator (build-ninja/) or wipe build/; `cmake --fresh` (3.24+) also works.",
		Fix:     "Remove-Item -Recurse -Force build; cmake -S . -B build -G Ninja"})
	h.note(Note{ID: "ninja-msvc-vcvars", Project: "mossgate", OS: "windows", Lang: "cpp", At: day(2024, 2, 1),
		Title:   "Ninja on Windows: No CMAKE_CXX_COMPILER could be found from a plain PowerShell",
		What:    "With the Ninja generator, configure fails: No CMAKE_CXX_COMPILER could be found. Tell CMake where to find the compiler by setting either the environment variable \"CXX\" or the CMake cache entry CMAKE_CXX_COMPILER.",
		Why:     "Unlike the VS generator, Ninja expects cl.exe on PATH, which only the Developer prompt (vcvars64.bat) sets up.",
		Where:   "Windows dev shell, CMakePresets.json",
		Learned: "Run from 'x64 Native Tools Command Prompt for VS 2022', or Enter-VsDevShell in PowerShell, or let the VS generator handle it.",
		Fix:     "cmd /c '\"C:\\Program Files\\Microsoft Visual Studio\\2022\\Community\\VC\\Auxiliary\\Build\\vcvars64.bat\" && cmake -S . -B build -G Ninja'"})
	h.ask("cmake-generator-mismatch/1", "mossgate", "windows", "cmake -S . -B build -G Ninja", u7crlf(`
CMake Error: Error: generator : Ninja
Does not match the generator used previously: Visual Studio 17 2022
Either remove the CMakeCache.txt file and CMakeFiles directory or choose a different binary directory.
`), "cmake-generator-mismatch", "windows console")
	h.ask("ninja-msvc-vcvars/1", "mossgate", "windows", "cmake --preset ninja-release", u7crlf(`
-- The C compiler identification is unknown
-- The CXX compiler identification is unknown
CMake Error at CMakeLists.txt:3 (project):
  No CMAKE_CXX_COMPILER could be found.

  Tell CMake where to find the compiler by setting either the environment
  variable "CXX" or the CMake cache entry CMAKE_CXX_COMPILER to the full path
  to the compiler, or to the compiler name if it is in the PATH.


-- Configuring incomplete, errors occurred!
`), "ninja-msvc-vcvars", "same tool, another error")
	h.ask("ninja-msvc-vcvars/2", "mossgate", "linux", "docker run --rm -v $PWD:/src mossgate-ci cmake -S /src -B /src/build -G Ninja", `
-- The C compiler identification is GNU 12.2.0
-- The CXX compiler identification is unknown
-- Detecting C compiler ABI info
-- Detecting C compiler ABI info - done
CMake Error at CMakeLists.txt:3 (project):
  No CMAKE_CXX_COMPILER could be found.

  Tell CMake where to find the compiler by setting either the environment
  variable "CXX" or the CMake cache entry CMAKE_CXX_COMPILER to the full path
  to the compiler, or to the compiler name if it is in the PATH.


-- Configuring incomplete, errors occurred!
See also "/src/build/CMakeFiles/CMakeOutput.log".
`, "", "same text, another cause")

	h.note(Note{ID: "meson-wrap-fmt", Project: "mossgate", OS: "linux", Lang: "cpp", At: day(2025, 5, 20),
		Title:   "meson: dependency fmt not found and no fmt.wrap to fall back on",
		What:    "The meson port of the codec lib: `meson setup build` → Run-time dependency fmt found: NO, then ERROR: Neither a subproject directory nor a fmt.wrap file was found.",
		Why:     "The CI image has no libfmt-dev, and we never added the wrap for the fallback(['fmt', 'fmt_dep']) in meson.build.",
		Where:   "meson.build, subprojects/",
		Learned: "`meson wrap install fmt` pulls the wrap from WrapDB; commit subprojects/fmt.wrap (not the extracted source, add subprojects/*/ to .gitignore).",
		Fix:     "meson wrap install fmt && meson setup --reconfigure build"})
	h.ask("meson-wrap-fmt/1", "mossgate", "linux", "meson setup build", `
The Meson build system
Version: 1.6.1
Source dir: /home/dev/mossgate
Build dir: /home/dev/mossgate/build
Build type: native build
Project name: mossgate
C++ compiler for the host machine: c++ (gcc 13.3.0 "c++ (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0")
Found pkg-config: YES (/usr/bin/pkg-config) 1.8.1
Found CMake: /usr/bin/cmake (3.28.3)
Run-time dependency fmt found: NO (tried pkgconfig and cmake)
Looking for a fallback subproject for the dependency fmt

meson.build:18:6: ERROR: Neither a subproject directory nor a fmt.wrap file was found.

A full log can be found at /home/dev/mossgate/build/meson-logs/meson-log.txt
`, "meson-wrap-fmt", "stored: the tool's own wording")
	h.ask("meson-no-compiler/1", "mossgate", "linux", "meson setup build", `
The Meson build system
Version: 1.6.1
Source dir: /src
Build dir: /src/build
Build type: native build
Project name: mossgate

meson.build:1:0: ERROR: Unknown compiler(s): [['c++'], ['g++'], ['clang++'], ['nvc++'], ['pgc++'], ['icpc'], ['icpx']]
The following exception(s) were encountered:
Running §c++ --version§ gave "[Errno 2] No such file or directory: 'c++'"
Running §g++ --version§ gave "[Errno 2] No such file or directory: 'g++'"
Running §clang++ --version§ gave "[Errno 2] No such file or directory: 'clang++'"
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "bazel-lockfile-mode", Project: "mossgate", OS: "macos", Lang: "cpp", At: day(2024, 11, 12),
		Title:   "bazel 7: MODULE.bazel.lock out of date, CI runs --lockfile_mode=error",
		What:    "CI after my rules_python bump: ERROR: MODULE.bazel.lock is no longer up-to-date because: the root MODULE.bazel has been modified. Please run `bazel mod deps --lockfile_mode=update` to update your lockfile.",
		Why:     "The lockfile must be regenerated and committed with every MODULE.bazel change; .bazelrc has common:ci --lockfile_mode=error.",
		Where:   "MODULE.bazel, MODULE.bazel.lock, .bazelrc",
		Learned: "Regenerate on the same Bazel version CI uses (.bazelversion); the lock format changes between 7.x minors and a different bazel rewrites the whole file.",
		Fix:     "bazel mod deps --lockfile_mode=update && git add MODULE.bazel.lock"})
	h.ask("bazel-lockfile-mode/1", "mossgate", "linux", "bazel test --config=ci //...", `
Starting local Bazel server and connecting to it...
INFO: Invocation ID: 3f6a1c2e-9b0d-4e57-a8f1-2c7d9e0b4a61
ERROR: MODULE.bazel.lock is no longer up-to-date because: the module extension '@@rules_python~//python/extensions:pip.bzl%pip' has changed its inputs. Please run §bazel mod deps --lockfile_mode=update§ to update your lockfile.
ERROR: Error computing the main repository mapping: error evaluating module extension pip in @@rules_python~//python/extensions:pip.bzl
Computing main repo mapping: 
`, "bazel-lockfile-mode", "another tool version's wording")
	h.ask("bazel-cc-failed/1", "mossgate", "linux", "bazel build //src:codec", `
INFO: Analyzed target //src:codec (0 packages loaded, 0 targets configured).
ERROR: /home/dev/mossgate/src/BUILD.bazel:12:11: Compiling src/codec.cc failed: (Exit 1): gcc failed: error executing CppCompile command (from target //src:codec) /usr/bin/gcc -U_FORTIFY_SOURCE -fstack-protector -Wall -Wunused-but-set-parameter -Wno-free-nonheap-object -fno-omit-frame-pointer '-std=c++0x' -MD -MF ... (remaining 23 arguments skipped)
src/codec.cc:41:10: fatal error: span: No such file or directory
   41 | #include <span>
      |          ^~~~~~
compilation terminated.
Target //src:codec failed to build
INFO: Elapsed time: 1.204s, Critical Path: 0.41s
ERROR: Build did NOT complete successfully
`, "", "never stored: same tool, another error; generic file name BUILD.bazel")

	// webpack on OpenSSL 3: the 2022 workaround, declared replaced.
	h.note(Note{ID: "webpack-openssl-legacy", Project: "cinderdocs", OS: "linux", Lang: "javascript", At: day(2022, 1, 24),
		Title:   "ERR_OSSL_EVP_UNSUPPORTED building the docs on Node 17",
		What:    "`npm run build` after switching to Node 17: Error: error:0308010C:digital envelope routines::unsupported ... code: 'ERR_OSSL_EVP_UNSUPPORTED'.",
		Why:     "Node 17 ships OpenSSL 3, which disables md4; webpack 4 hashes modules with md4.",
		Where:   "package.json build script",
		Learned: "Workaround until we upgrade webpack: allow the legacy provider.",
		Fix:     "export NODE_OPTIONS=--openssl-legacy-provider"})
	h.note(Note{ID: "webpack-openssl-upgrade", Project: "cinderdocs", OS: "linux", Lang: "javascript", At: day(2023, 6, 6), Supersedes: "webpack-openssl-legacy",
		Title:   "Drop --openssl-legacy-provider: webpack 5.61+ has its own md4",
		What:    "Hit 0308010C again on Node 20 in the new Netlify image; the NODE_OPTIONS legacy-provider setting from the old note isn't set there, and it's a security downgrade we shouldn't carry.",
		Why:     "webpack >= 5.61 ships a wasm md4, so no OpenSSL md4 is needed; we were still on webpack 4 through the old docs theme.",
		Where:   "package.json (webpack, webpack-cli, the theme), netlify.toml",
		Learned: "Upgraded webpack to 5.88 and the theme; removed NODE_OPTIONS everywhere. This replaces the legacy-provider workaround.",
		Fix:     "npm install -D webpack@^5.88.0 webpack-cli@^5.1.4 && npm pkg delete scripts.prebuild"})
	h.ask("webpack-openssl-upgrade/1", "cinderdocs", "linux", "npm run build", `
> cinderdocs@2.3.0 build
> webpack --mode production

node:internal/crypto/hash:79
  this[kHandle] = new _Hash(algorithm, xofLen, algorithmId, getHashCache());
                  ^

Error: error:0308010C:digital envelope routines::unsupported
    at new Hash (node:internal/crypto/hash:79:19)
    at Object.createHash (node:crypto:139:10)
    at module.exports (/home/dev/cinderdocs/node_modules/webpack/lib/util/createHash.js:135:53)
    at NormalModule._initBuildHash (/home/dev/cinderdocs/node_modules/webpack/lib/NormalModule.js:417:16)
    ...
  opensslErrorStack: [ 'error:03000086:digital envelope routines::initialization error' ],
  library: 'digital envelope routines',
  reason: 'unsupported',
  code: 'ERR_OSSL_EVP_UNSUPPORTED'
}

Node.js v20.11.0
`, "webpack-openssl-upgrade", "superseded, declared", "webpack-openssl-legacy")
	h.ask("webpack-openssl-upgrade/2", "sloeberry", "macos", "yarn storybook build", `
info => Building manager..
ERR! Error: error:0308010C:digital envelope routines::unsupported
ERR!     at new Hash (node:internal/crypto/hash:69:19)
ERR!     at Object.createHash (node:crypto:133:10)
ERR!     at BulkUpdateDecorator.hashFactory (/Users/maria/code/sloeberry/node_modules/webpack/lib/util/createHash.js:145:18)
ERR!  {
ERR!   opensslErrorStack: [ 'error:03000086:digital envelope routines::initialization error' ],
ERR!   library: 'digital envelope routines',
ERR!   reason: 'unsupported',
ERR!   code: 'ERR_OSSL_EVP_UNSUPPORTED'
ERR! }
`, "", "another project's project note")
	h.ask("webpack-fs-polyfill/1", "cinderdocs", "linux", "npm run build", `
ERROR in ./node_modules/gray-matter/lib/parse.js 3:11-24
Module not found: Error: Can't resolve 'fs' in '/home/dev/cinderdocs/node_modules/gray-matter/lib'

BREAKING CHANGE: webpack < 5 used to include polyfills for node.js core modules by default.
This is no longer the case. Verify if you need this module and configure a polyfill for it.

webpack compiled with 1 error
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "vite-rollup-optional", Project: "cinderdocs", OS: "linux", Lang: "javascript", At: day(2025, 3, 4),
		Title:   "vite build in Docker: Cannot find module @rollup/rollup-linux-x64-gnu",
		What:    "After the move to Vite, the Docker build fails: Error: Cannot find module @rollup/rollup-linux-x64-gnu. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828).",
		Why:     "package-lock.json was generated on a Mac; npm only recorded the darwin-arm64 optional binary for rollup, so `npm ci` on linux doesn't install the linux one.",
		Where:   "package-lock.json, Dockerfile",
		Learned: "Regenerate the lock from scratch (delete node_modules and the lock) so every platform's optional entry is in it; npm 10.9 writes them all.",
		Fix:     "rm -rf node_modules package-lock.json && npm install && git add package-lock.json"})
	h.ask("vite-rollup-optional/1", "cinderdocs", "linux", "docker build -t cinderdocs .", `
#12 [build 5/6] RUN npm run build
#12 0.412 > cinderdocs@3.0.2 build
#12 0.412 > vite build
#12 0.951 /app/node_modules/rollup/dist/native.js:59
#12 0.951 		throw new Error(
#12 0.951 		      ^
#12 0.951 
#12 0.951 Error: Cannot find module @rollup/rollup-linux-x64-gnu. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). Please try §npm i§ again after removing both package-lock.json and node_modules directory.
#12 0.951     at requireWithFriendlyError (/app/node_modules/rollup/dist/native.js:59:9)
#12 0.951     at Object.<anonymous> (/app/node_modules/rollup/dist/native.js:68:76)
#12 ERROR: process "/bin/sh -c npm run build" did not complete successfully: exit code: 1
`, "vite-rollup-optional", "stored: the tool's own wording")
	h.ask("vite-rollup-optional/2", "cinderdocs", "windows", "npm run dev", u7crlf(`
> cinderdocs@3.0.2 dev
> vite

C:\Users\dev\src\cinderdocs\node_modules\rollup\dist\native.js:59
		throw new Error(
		      ^

Error: Cannot find module @rollup/rollup-win32-x64-msvc. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). Please try §npm i§ again after removing both package-lock.json and node_modules directory.
    at requireWithFriendlyError (C:\Users\dev\src\cinderdocs\node_modules\rollup\dist\native.js:59:9)
`), "vite-rollup-optional", "stored: another platform's binary, windows console")

	h.note(Note{ID: "esbuild-wrong-platform", Project: "saltbox", OS: "linux", Lang: "php", At: day(2023, 10, 10),
		Title:   "esbuild: installed for another platform (node_modules bind-mounted from macOS)",
		What:    "`docker compose run node pnpm build` → You installed esbuild for another platform than the one you're currently using ... the \"@esbuild/darwin-arm64\" package is present but this platform needs the \"@esbuild/linux-arm64\" package instead.",
		Why:     "The compose file bind-mounts the whole project, including the node_modules I installed on the Mac host.",
		Where:   "docker-compose.yml (node service volumes)",
		Learned: "Give node_modules its own anonymous volume in the container so host and container installs never mix; install inside the container.",
		Fix:     "docker compose run --rm node sh -c 'rm -rf node_modules && pnpm install'"})
	h.ask("esbuild-wrong-platform/1", "saltbox", "linux", "docker compose run --rm node pnpm build", `
> saltbox@ build /var/www/html
> vite build

failed to load config from /var/www/html/vite.config.js
error during build:
Error: 
You installed esbuild for another platform than the one you're currently using.
This won't work because esbuild is written with native code and needs to
install a platform-specific binary executable.

Specifically the "@esbuild/darwin-arm64" package is present but this platform
needs the "@esbuild/linux-arm64" package instead. People often get into this
situation by installing esbuild on Windows or macOS and copying "node_modules"
into a Docker image that runs Linux, or by copying "node_modules" between
Windows and WSL environments.
`, "esbuild-wrong-platform", "stored: the tool's own wording")

	h.note(Note{ID: "turbo2-pipeline", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2024, 6, 17),
		Title:   "turbo 2: Found `pipeline` field instead of `tasks`",
		What:    "Renovate bumped turbo to 2.0.3 and every turbo run fails on the config: × Found `pipeline` field instead of `tasks`.",
		Why:     "Turborepo 2 renamed pipeline to tasks (and a few env-related keys).",
		Where:   "turbo.json",
		Learned: "The codemod migrates turbo.json and the package.json scripts in one go; check the new strict env mode afterwards, it hides vars not declared in env/globalEnv.",
		Fix:     "npx @turbo/codemod migrate"})
	h.ask("turbo2-pipeline/1", "quillmark", "linux", "pnpm turbo run build", `
  × Found §pipeline§ field instead of §tasks§.
   ╭─[turbo.json:3:1]
 3 │   "globalDependencies": ["tsconfig.base.json"],
 4 │ ╭─▶   "pipeline": {
 5 │ │       "build": {
 6 │ │         "dependsOn": ["^build"],
   · ╰──── Rename §pipeline§ field to §tasks§
   ╰────
  help: Changed in 2.0: §pipeline§ has been renamed to §tasks§.
 ELIFECYCLE  Command failed with exit code 1.
`, "turbo2-pipeline", "stored: the tool's own wording")
	h.ask("turbo-missing-task/1", "quillmark", "macos", "pnpm turbo run typecheck --filter=@quillmark/admin", `
  x Missing tasks in project
  §-> x Could not find task §typecheck§ in project
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "nx-daemon-terminated", Project: "sloeberry", OS: "macos", Lang: "typescript", At: day(2025, 10, 7),
		Title:   "Nx: Daemon process terminated and closed the connection",
		What:    "Every `nx run-many` on my Mac dies after a few seconds: NX Daemon process terminated and closed the connection. daemon.log shows the file watcher hitting ios/Pods.",
		Why:     "The Nx daemon's native watcher choked on the ~90k files under ios/Pods and android/.gradle after a pod install; its workspace-data cache was also from an older Nx.",
		Where:   ".nxignore, .nx/workspace-data/",
		Learned: "Add ios/Pods and **/.gradle to .nxignore, run `nx reset`. NX_DAEMON=false works as a stopgap in CI.",
		Fix:     "printf 'ios/Pods\\n**/.gradle\\n' >> .nxignore && npx nx reset"})
	h.ask("nx-daemon-terminated/1", "sloeberry", "macos", "yarn nx run-many -t lint test", `

 NX   Daemon process terminated and closed the connection

Please rerun the command, which will restart the daemon.
If you get this error again, check for any errors in the daemon process logs found in: /Users/maria/code/sloeberry/.nx/workspace-data/d/daemon.log

`, "nx-daemon-terminated", "stored: the tool's own wording")
	h.ask("nx-no-project/1", "sloeberry", "linux", "yarn nx run mobile-e2e:test", `

 NX   Cannot find project 'mobile-e2e'

Pass --verbose to see the stacktrace.

`, "", "never stored: same tool, another error")

	h.note(Note{ID: "mossgate-presets-decision", Project: "mossgate", OS: "linux", Lang: "cpp", At: day(2025, 6, 30), Type: "decision", NoFailure: true,
		Title:   "mossgate: CMake presets with Ninja on every system, one build dir per preset",
		What:    "Decided: all builds go through CMakePresets.json (configure presets linux-ninja, macos-ninja, windows-ninja-msvc), each with its own binaryDir build/<preset>. No hand-typed cmake -G lines in docs or CI anymore.",
		Why:     "Generator mix-ups in a shared build/ dir and per-machine OpenSSL flags kept costing time; presets put the flags in one reviewed place.",
		Where:   "CMakePresets.json, docs/BUILDING.md, .github/workflows/build.yml",
		Learned: "Personal tweaks go in CMakeUserPresets.json, which is gitignored.",
		Fix:     ""})
}
