package replay

// Languages, native toolchains and mobile and game engines of the fourth
// unseen part: mix, cabal, opam, Zig, SwiftPM, CocoaPods, Flutter, Unity,
// Godot, bundler and Rails, CMake presets, vcpkg, nvcc, sanitizers,
// protoc and buf, pre-commit with ruff, pyright.
func unseen4Native(h *hand) {
	// Elixir: two notes on mix, two errors.
	h.note(Note{ID: "mix-exqlite-alpine", Project: "marlin", OS: "linux", Lang: "elixir", At: day(2024, 4, 9),
		Title:   "release image build: exqlite won't compile",
		What:    "In the alpine builder stage mix deps.compile fails on exqlite: `** (Mix) Could not compile dependency :exqlite, \"mix compile\" failed.` — scrolling up, elixir_make could not find `make`/`cc`.",
		Why:     "hexpm/elixir:1.16-alpine has no toolchain; exqlite ships a NIF built from the sqlite amalgamation at compile time.",
		Where:   "Dockerfile (builder stage)",
		Learned: "Install build-base in the builder stage only; the runtime stage needs nothing extra.",
		Fix:     "apk add --no-cache build-base"})
	h.ask("mix-exqlite-alpine/1", "marlin", "linux", "docker build -t marlin:release .",
		`#14 [builder 7/11] RUN mix deps.compile
#14 3.104 ==> exqlite
#14 3.388 mkdir -p /app/_build/prod/lib/exqlite/priv
#14 3.391 cc -c -I"/usr/local/lib/erlang/erts-14.2.2/include" -Isqlite3 -Ic_src -fPIC -O2 -DNDEBUG=1 c_src/sqlite3_nif.c -o /app/_build/prod/exqlite/sqlite3_nif.o
#14 3.392 make: cc: No such file or directory
#14 3.393 make: *** [Makefile:127: /app/_build/prod/exqlite/sqlite3_nif.o] Error 127
#14 3.395 could not compile dependency :exqlite, "mix compile" failed. Errors may have been logged above. You can recompile this dependency with "mix deps.compile exqlite --force", update it with "mix deps.update exqlite" or clean it with "mix deps.clean exqlite"
#14 3.401 ** (Mix) Could not compile with "make" (exit status: 2).
#14 3.401 You need to have gcc and make installed. Try running the
#14 3.401 commands "gcc --version" and / or "make --version". If these programs
#14 3.401 are not installed, you will be prompted to install them.
#14 ERROR: process "/bin/sh -c mix deps.compile" did not complete successfully: exit code: 1
`, "mix-exqlite-alpine", "hand: stored, inside a docker build")
	h.note(Note{ID: "mix-ecto-create", Project: "marlin", OS: "darwin", Lang: "elixir", At: day(2023, 3, 21),
		Title: "phx.server: database marlin_dev does not exist",
		What:  "Fresh clone, `mix phx.server` spams (Postgrex.Error) FATAL 3D000 (invalid_catalog_name) database \"marlin_dev\" does not exist",
		Why:   "setup alias wasn't run; the db is never created implicitly",
		Where: "marlin dev setup", Learned: "create + migrate first (mix setup does both plus seeds)",
		Fix: "mix ecto.create && mix ecto.migrate"})
	h.ask("mix-ecto-create/1", "marlin", "darwin", "mix phx.server",
		`[info] Running MarlinWeb.Endpoint with Bandit 1.4.2 at 127.0.0.1:4000 (http)
[error] Postgrex.Protocol (#PID<0.412.0>) failed to connect: ** (Postgrex.Error) FATAL 3D000 (invalid_catalog_name) database "marlin_dev" does not exist
[error] Postgrex.Protocol (#PID<0.413.0>) failed to connect: ** (Postgrex.Error) FATAL 3D000 (invalid_catalog_name) database "marlin_dev" does not exist
[info] Access MarlinWeb.Endpoint at http://localhost:4000
[error] Could not create schema migrations table. This error usually happens due to the following:

  * The database does not exist
  * The "schema_migrations" table, which Ecto uses for managing
    migrations, was defined by another library
`, "mix-ecto-create", "hand: the other mix note")
	h.ask("mix-task-not-found", "marlin", "linux", "mix phx.server",
		`** (Mix) The task "phx.server" could not be found
Note no mix.exs was found in the current directory
`, "", "same tool, another error: run outside the project")

	h.note(Note{ID: "cabal-base-bounds", Project: "kelp", OS: "linux", Lang: "haskell", At: day(2024, 11, 19),
		Title:   "cabal build: could not resolve dependencies (base)",
		What:    "After `ghcup install ghc latest` cabal can't build kelp at all:\n```\nError: cabal: Could not resolve dependencies:\n[__0] trying: kelp-0.3.0 (user goal)\n[__1] next goal: base (dependency of kelp)\n[__1] rejecting: base-4.20.0.0/installed-4.20.0.0 (conflict: kelp => base>=4.14 && <4.20)\n```",
		Why:     "ghcup's `latest` is GHC 9.10 (base 4.20); kelp's upper bound and half our deps (aeson, lens) aren't there yet.",
		Where:   "kelp.cabal, ghcup",
		Learned: "Stay on the GHC the project's cabal.project says (with-compiler: ghc-9.6.6); `--allow-newer=base` gets further but then fails in lens.",
		Fix:     "ghcup install ghc 9.6.6 --set"})
	h.ask("cabal-base-bounds/1", "kelp", "linux", "cabal build all",
		`Resolving dependencies...
Error: cabal: Could not resolve dependencies:
[__0] trying: kelp-0.3.0 (user goal)
[__1] next goal: base (dependency of kelp)
[__1] rejecting: base-4.20.0.0/installed-4.20.0.0 (conflict: kelp => base>=4.14 && <4.20)
[__1] skipping: base-4.19.1.0, base-4.19.0.0, base-4.18.2.1, base-4.18.2.0,
base-4.18.1.0, base-4.18.0.0, base-4.17.2.1, base-4.17.2.0, base-4.17.1.0,
base-4.17.0.0, base-4.16.4.0 (has the same characteristics that caused the
previous version to fail: excluded by constraint '>=4.14 && <4.20' from
'kelp')
[__1] fail (backjumping, conflict set: base, kelp)
After searching the rest of the dependency tree exhaustively, these were the
goals I've had most trouble fulfilling: base, kelp
`, "cabal-base-bounds", "hand: stored, fenced quote")

	// opam conf-gmp: Linux and macOS, two fixes.
	h.note(Note{ID: "opam-gmp-linux", Project: "ocelot", OS: "linux", Lang: "ocaml", At: day(2022, 7, 11),
		Title:   "opam install zarith fails in conf-gmp",
		What:    "`opam install . --deps-only` stops at conf-gmp.4: `fatal error: gmp.h: No such file or directory`",
		Why:     "conf-gmp is a virtual package that only checks the system has GMP headers; Ubuntu runners don't.",
		Where:   "CI image",
		Learned: "On Debian/Ubuntu install the dev package (opam install would have suggested it with depext).",
		Fix:     "sudo apt-get install -y libgmp-dev pkg-config"})
	h.note(Note{ID: "opam-gmp-darwin", Project: "ocelot", OS: "darwin", Lang: "ocaml", At: day(2022, 8, 2),
		Title:   "conf-gmp on Apple Silicon: gmp.h not found though brew has gmp",
		What:    "Same conf-gmp failure on the M1 ('gmp.h' file not found), and `brew install gmp` says it's already installed.",
		Why:     "Homebrew on arm64 lives in /opt/homebrew, which clang doesn't search by default; conf-gmp's test only adds -I/usr/local/include.",
		Where:   "macOS shell env",
		Learned: "Export the Homebrew include/lib paths before opam install on arm Macs.",
		Fix:     "export C_INCLUDE_PATH=/opt/homebrew/include LIBRARY_PATH=/opt/homebrew/lib && opam install conf-gmp"})
	opamGmp := `The following actions will be performed:
=== install 3 packages
  ∗ conf-gmp 4       [required by zarith]
  ∗ zarith   1.13    [required by ocelot]

<><> Processing actions <><><><><><><><><><><><><><><><><><><><><><><><><><><><>
[ERROR] The compilation of conf-gmp.4 failed at "sh -exc cc -c $CFLAGS -I/usr/local/include test.c".

#=== ERROR while compiling conf-gmp.4 =========================================#
# context     2.1.5 | %s | ocaml-base-compiler.5.1.1 | https://opam.ocaml.org#a2b3c4d5
# path        ~/.opam/5.1.1/.opam-switch/build/conf-gmp.4
# command     ~/.opam/opam-init/hooks/sandbox.sh build sh -exc "cc -c $CFLAGS -I/usr/local/include test.c"
# exit-code   1
# env-file    ~/.opam/log/conf-gmp-28117-1e2f3a.env
# output-file ~/.opam/log/conf-gmp-28117-1e2f3a.out
### output ###
# + cc -c -I/usr/local/include test.c
# test.c:1:10: fatal error: %s
#     1 | #include <gmp.h>
#       |          ^~~~~~~
# compilation terminated.

<><> Error report <><><><><><><><><><><><><><><><><><><><><><><><><><><><><><><>
┌─ The following actions failed
│ λ build conf-gmp 4
└─
╶─ No changes have been performed
`
	h.ask("opam-gmp/linux", "ocelot", "linux", "opam install . --deps-only --with-test",
		sprintf(opamGmp, "ubuntu/x86_64", "gmp.h: No such file or directory"), "opam-gmp-linux", "twin on another system: Ubuntu")
	h.ask("opam-gmp/darwin", "ocelot", "darwin", "opam install . --deps-only --with-test",
		sprintf(opamGmp, "macos/arm64", "'gmp.h' file not found"), "opam-gmp-darwin", "twin on another system: Homebrew on arm64")

	h.note(Note{ID: "zig-lazypath", Project: "thimble", OS: "linux", Lang: "zig", At: day(2024, 6, 25),
		Title:   "build.zig broke on zig 0.13",
		What:    "zig build: build.zig:9:33: error: no field named 'path' in union 'Build.LazyPath'",
		Why:     "0.13 removed the `.{ .path = \"src/main.zig\" }` form of LazyPath.",
		Where:   "build.zig",
		Learned: "Use b.path(\"src/main.zig\") everywhere a LazyPath is wanted (root_source_file, addIncludePath, installFile). Code change."})
	h.ask("zig-lazypath/1", "thimble", "linux", "zig build -Doptimize=ReleaseSafe",
		`/home/ci/build/thimble/build.zig:9:33: error: no field named 'path' in union 'Build.LazyPath'
        .root_source_file = .{ .path = "src/main.zig" },
                               ~^~~~~~~~~~~~~~~~~~~~
/home/ci/.local/zig/0.13.0/lib/std/Build.zig:2171:22: note: union declared here
pub const LazyPath = union(enum) {
                     ^~~~~
`, "zig-lazypath", "hand: stored")

	h.note(Note{ID: "swiftpm-lsqlite3", Project: "swallow-server", OS: "linux", Lang: "swift", At: day(2023, 10, 30),
		Title:   "swift build on linux: cannot find -lsqlite3",
		What:    "Linking fails on the Linux CI only: `/usr/bin/ld.gold: error: cannot find -lsqlite3` then link command failed with exit code 1.",
		Why:     "On macOS libsqlite3 comes with the SDK; the swift:5.9-jammy image doesn't have the dev package for Fluent's SQLite driver.",
		Where:   "CI Dockerfile",
		Learned: "Install the dev package in the build image.",
		Fix:     "apt-get update && apt-get install -y libsqlite3-dev"})
	h.ask("swiftpm-lsqlite3/1", "swallow-server", "linux", "swift build -c release --static-swift-stdlib",
		`Building for production...
[412/418] Compiling App routes.swift
[416/418] Linking App
error: link command failed with exit code 1 (use -v to see invocation)
/usr/bin/ld.gold: error: cannot find -lsqlite3
clang: error: linker command failed with exit code 1 (use -v to see invocation)
[416/418] Linking App
`, "swiftpm-lsqlite3", "hand: stored")

	// CocoaPods: two notes, two errors.
	h.note(Note{ID: "pods-repo-update", Project: "quokka-app", OS: "darwin", Lang: "dart", At: day(2024, 5, 14),
		Title:   "pod install: could not find compatible versions for Firebase",
		What:    "After bumping firebase_core, `pod install` in ios/:\n[!] CocoaPods could not find compatible versions for pod \"Firebase/CoreOnly\"",
		Why:     "Podfile.lock pins the old Firebase and the local specs repo is out of date, so the new version doesn't exist as far as CocoaPods knows.",
		Where:   "ios/Podfile.lock",
		Learned: "Update the specs repo and the pod together.",
		Fix:     "cd ios && pod update Firebase/CoreOnly --repo-update"})
	h.ask("pods-repo-update/1", "quokka-app", "darwin", "flutter build ios --release --no-codesign",
		tty(`Running pod install...                                             2,104ms
CocoaPods' output:
↳
      Analyzing dependencies
      firebase_core: Using Firebase SDK version '10.25.0' defined in 'firebase_core'
      [!] CocoaPods could not find compatible versions for pod "Firebase/CoreOnly":
        In snapshot (Podfile.lock):
          Firebase/CoreOnly (= 10.18.0)

        In Podfile:
          firebase_core (from §.symlinks/plugins/firebase_core/ios§) was resolved to 2.31.0, which depends on
            Firebase/CoreOnly (= 10.25.0)

      You have either:
       * out-of-date source repos which you can update with §pod repo update§ or with §pod install --repo-update§.
       * changed the constraints of dependency §Firebase/CoreOnly§ inside your development pod §firebase_core§.
         You should run §pod update Firebase/CoreOnly§ to apply changes you've made.

Error running pod install
Error launching application on iPhone 15.
`), "pods-repo-update", "hand: stored, through flutter")
	h.note(Note{ID: "pods-ffi-arch", Project: "quokka-app", OS: "darwin", Lang: "ruby", At: day(2022, 2, 9),
		Title:   "pod install crashes in ffi on the M1",
		What:    "pod install died with a LoadError from ffi_c.bundle — incompatible architecture (have 'x86_64', need 'arm64e' or 'arm64')",
		Why:     "cocoapods was installed with the system ruby under Rosetta once, so the ffi native extension is x86_64.",
		Where:   "system gems",
		Learned: "Use Homebrew's cocoapods (arm64) instead of the system ruby gem.",
		Fix:     "sudo gem uninstall cocoapods ffi && brew install cocoapods"})
	h.ask("pods-ffi-arch/1", "quokka-app", "darwin", "cd ios && pod install",
		`――― MARKDOWN TEMPLATE ―――――――――――――――――――――――――――――――――――――――――――――――――――――――――――

### Command

§§§
/usr/local/bin/pod install
§§§

### Error

§§§
LoadError - dlopen(/Library/Ruby/Gems/2.6.0/gems/ffi-1.15.5/lib/ffi_c.bundle, 0x0009): tried: '/Library/Ruby/Gems/2.6.0/gems/ffi-1.15.5/lib/ffi_c.bundle' (mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64e' or 'arm64')) - /Library/Ruby/Gems/2.6.0/gems/ffi-1.15.5/lib/ffi_c.bundle
/System/Library/Frameworks/Ruby.framework/Versions/2.6/usr/lib/ruby/2.6.0/rubygems/core_ext/kernel_require.rb:54:in §require§
/Library/Ruby/Gems/2.6.0/gems/ffi-1.15.5/lib/ffi.rb:5:in §rescue in <top (required)>§
`, "pods-ffi-arch", "hand: the other CocoaPods note")

	h.note(Note{ID: "flutter-windows-vs", Project: "quokka-app", OS: "windows", Lang: "dart", At: day(2025, 1, 21),
		Title:   "flutter windows desktop build: no Visual Studio toolchain",
		What:    "flutter build windows → \"Unable to find suitable Visual Studio toolchain. Please run `flutter doctor` for more details.\" VS 2022 IS installed.",
		Why:     "Only the 'Desktop development with C++' workload counts; I had just the .NET one. flutter doctor says the same under [X] Visual Studio.",
		Where:   "Windows dev box",
		Learned: "Add the C++ workload with the installer CLI (or the GUI), then re-run doctor.",
		Fix:     `"C:\Program Files (x86)\Microsoft Visual Studio\Installer\vs_installer.exe" modify --installPath "C:\Program Files\Microsoft Visual Studio\2022\Community" --add Microsoft.VisualStudio.Workload.NativeDesktop --includeRecommended --passive`})
	h.ask("flutter-windows-vs/1", "quokka-app", "windows", "flutter build windows --release",
		crlf(tty(`Building Windows application...
Unable to find suitable Visual Studio toolchain. Please run §flutter doctor§ for more details.
`)), "flutter-windows-vs", "hand: stored")

	// Unity.
	h.note(Note{ID: "unity-asmdef-inputsystem", Project: "wren-games", OS: "windows", Lang: "csharp", At: day(2023, 8, 16),
		Title:   "CS0246 InputSystem after moving scripts into an asmdef",
		What:    "Console after I added Assets/Scripts/Wren.Gameplay.asmdef: error CS0246: The type or namespace name 'InputSystem' could not be found, everywhere we use UnityEngine.InputSystem.",
		Why:     "Scripts in an assembly definition only see assemblies it references; the default Assembly-CSharp referenced everything implicitly.",
		Where:   "Assets/Scripts/Wren.Gameplay.asmdef",
		Learned: "Add Unity.InputSystem (and Unity.TextMeshPro, Cinemachine) to the asmdef's Assembly Definition References. Editor change, nothing to run."})
	h.ask("unity-asmdef-inputsystem/1", "wren-games", "windows", `"C:\Program Files\Unity\Hub\Editor\2022.3.20f1\Editor\Unity.exe" -batchmode -quit -projectPath . -executeMethod Wren.Build.CI.Windows -logFile -`,
		crlf(`[Licensing::Client] Successfully resolved entitlements
Start importing Assets/Scripts/Player/PlayerController.cs using Guid(4f1e2d3c5b6a79800112233445566778) Importer(-1,00000000000000000000000000000000)
-----CompilerOutput:-stdout--exitcode: 1--compilationhadfailure: True--outfile: Library/Bee/artifacts/1900b0aE.dag/Wren.Gameplay.dll
Assets\Scripts\Player\PlayerController.cs(4,19): error CS0234: The type or namespace name 'InputSystem' does not exist in the namespace 'UnityEngine' (are you missing an assembly reference?)
Assets\Scripts\Player\PlayerController.cs(12,13): error CS0246: The type or namespace name 'PlayerInput' could not be found (are you missing a using directive or an assembly reference?)
Assets\Scripts\UI\PauseMenu.cs(3,19): error CS0234: The type or namespace name 'InputSystem' does not exist in the namespace 'UnityEngine' (are you missing an assembly reference?)
-----EndCompilerOutput---------------
Scripts have compiler errors.
Aborting batchmode due to failure:
Scripts have compiler errors.
`), "unity-asmdef-inputsystem", "hand: a paraphrase, another CS code in the output")
	h.note(Note{ID: "unity-license-ci", Project: "wren-games", OS: "linux", Lang: "csharp", At: day(2024, 2, 13),
		Title:   "Unity CI: No valid Unity Editor license found",
		What:    "Linux build container exits right after startup: No valid Unity Editor license found. Please activate your license.",
		Why:     "The personal .ulf we had in the UNITY_LICENSE secret is bound to the machine it was activated on; new runner image = new machine id. Personal licenses can't be activated headless anymore anyway.",
		Where:   "CI secrets, build job",
		Learned: "Use the Pro seat's serial with -serial in the container and return it in a post step.",
		Fix:     "unity-editor -batchmode -quit -nographics -serial \"$UNITY_SERIAL\" -username \"$UNITY_EMAIL\" -password \"$UNITY_PASSWORD\""})
	h.ask("unity-license-ci/1", "wren-games", "linux", "unity-editor -batchmode -nographics -quit -projectPath . -buildTarget StandaloneLinux64 -executeMethod Wren.Build.CI.Linux -logFile -",
		`[Licensing::Module] Trying to connect to existing licensing client channel...
[Licensing::IpcConnector] Successfully connected to: "LicenseClient-root" at "2024-06-03T08:12:44.5518921Z"
[Licensing::Client] Error: Code 404 while processing request (status: Not found)
[Licensing::Module] Error: Access token is unavailable; failed to update
[Licensing::Client] Successfully resolved entitlements
[Licensing::Module] License is not active (com.unity.editor.headless) for the current machine
No valid Unity Editor license found. Please activate your license.
Exiting without the bug reporter. Application will terminate with return code 1
`, "unity-license-ci", "hand: stored")

	// Godot export templates: Linux CI and the Windows box.
	h.note(Note{ID: "godot-templates-linux", Project: "wren-games", OS: "linux", Lang: "gdscript", At: day(2025, 11, 3),
		Title:   "godot --export-release: no export template found (CI)",
		What:    "Headless export in CI: `No export template found at the expected path: /home/ci/.local/share/godot/export_templates/4.2.2.stable/linux_release.x86_64`",
		Why:     "The barichello/godot-ci image puts templates under /root/.local/share, but our runner runs as ci.",
		Where:   "CI export job",
		Learned: "Linux CI: symlink the image's templates dir into the ci user's data dir.",
		Fix:     "mkdir -p ~/.local/share/godot && ln -sfn /root/.local/share/godot/export_templates ~/.local/share/godot/export_templates"})
	h.note(Note{ID: "godot-templates-windows", Project: "wren-games", OS: "windows", Lang: "gdscript", At: day(2026, 1, 12),
		Title:   "Windows: Godot export templates missing after editor update",
		What:    "Same no export template found error on Windows, for %APPDATA%\\Godot\\export_templates\\4.2.2.stable.",
		Why:     "Templates are per editor version; winget updated the editor to 4.2.2 but templates stayed at 4.2.1.",
		Where:   "%APPDATA%\\Godot\\export_templates",
		Learned: "On Windows unpack the matching .tpz's templates folder there (the editor's Manage Export Templates does the same).",
		Fix:     `tar -xf Godot_v4.2.2-stable_export_templates.tpz -C %TEMP% && move %TEMP%\templates %APPDATA%\Godot\export_templates\4.2.2.stable`})
	godotTail := `Godot Engine v4.2.2.stable.official.15073afe3 - https://godotengine.org

savepack: begin: Packing steps: 102
savepack: step 2: Storing File: res://.godot/imported/player.png-1c5e2f.ctex
savepack: end
ERROR: Cannot export project with preset "%s" due to configuration errors:
No export template found at the expected path:
%s

   at: _fs_changed (editor/editor_node.cpp:1032)
ERROR: Project export for preset "%s" failed.
   at: _fs_changed (editor/editor_node.cpp:1046)
`
	h.ask("godot-templates/linux", "wren-games", "linux", `godot --headless --export-release "Linux/X11" build/linux/wren.x86_64`,
		sprintf(godotTail, "Linux/X11", "/home/ci/.local/share/godot/export_templates/4.2.2.stable/linux_release.x86_64", "Linux/X11"),
		"godot-templates-linux", "twin on another system: Linux CI")
	h.ask("godot-templates/windows", "wren-games", "windows", `godot.exe --headless --export-release "Windows Desktop" build\windows\wren.exe`,
		crlf(sprintf(godotTail, "Windows Desktop", `C:\Users\dev\AppData\Roaming\Godot\export_templates\4.2.2.stable\windows_release_x86_64.exe`, "Windows Desktop")),
		"godot-templates-windows", "twin on another system: the Windows box")

	// Ruby: bundler's platform and the Rails master key.
	h.note(Note{ID: "bundler-add-platform", Project: "oakmoss", OS: "linux", Lang: "ruby", At: day(2023, 1, 31),
		Title:   "CI bundle install: lockfile only supports darwin",
		What:    "Your bundle only supports platforms [\"arm64-darwin-22\"] but your local platform is x86_64-linux.",
		Why:     "Gemfile.lock was regenerated on a Mac with bundler 2.4, which records only the current platform (nokogiri ships native gems per platform).",
		Where:   "Gemfile.lock PLATFORMS",
		Learned: "Add the linux platform to the lock and commit it.",
		Fix:     "bundle lock --add-platform x86_64-linux && git add Gemfile.lock"})
	h.ask("bundler-add-platform/1", "oakmoss", "linux", "bundle install --jobs 4",
		`Run bundle install --jobs 4
Your bundle only supports platforms ["arm64-darwin-23"] but your local platform is x86_64-linux. Add the current platform to the lockfile with
§bundle lock --add-platform x86_64-linux§ and try again.
Error: Process completed with exit code 16.
`, "bundler-add-platform", "hand: stored")
	h.note(Note{ID: "rails-master-key", Project: "oakmoss", OS: "linux", Lang: "ruby", At: day(2026, 2, 17),
		Title:   "assets:precompile in the image build: missing master key",
		What:    "Docker build fails at `bin/rails assets:precompile`: Missing encryption key to decrypt file with. Ask your team for your master key and write it to /rails/config/master.key or put it in the ENV['RAILS_MASTER_KEY'].",
		Why:     "Rails 7.1 loads credentials during precompile because an initializer reads Rails.application.credentials.stripe. The build stage has no key (correctly).",
		Where:   "Dockerfile, config/initializers/stripe.rb",
		Learned: "Don't pass the real key to the build; precompile with a dummy secret_key_base (SECRET_KEY_BASE_DUMMY=1) and make the initializer lazy.",
		Fix:     "SECRET_KEY_BASE_DUMMY=1 ./bin/rails assets:precompile"})
	h.ask("rails-master-key/1", "oakmoss", "linux", "docker build -t oakmoss .",
		`#18 [build 6/7] RUN ./bin/rails assets:precompile
#18 2.911 bin/rails aborted!
#18 2.912 ActiveSupport::EncryptedFile::MissingKeyError: Missing encryption key to decrypt file with. Ask your team for your master key and write it to /rails/config/master.key or put it in the ENV['RAILS_MASTER_KEY']. (ActiveSupport::EncryptedFile::MissingKeyError)
#18 2.913 /rails/config/initializers/stripe.rb:1:in §<main>§
#18 2.914 Tasks: TOP => environment
#18 2.914 (See full trace by running task with --trace)
#18 ERROR: process "/bin/sh -c ./bin/rails assets:precompile" did not complete successfully: exit code: 1
`, "rails-master-key", "hand: stored")

	// C, C++ and CUDA.
	h.note(Note{ID: "cmake-presets-version", Project: "ironbark", OS: "linux", Lang: "cpp", At: day(2022, 10, 18),
		Title:   "cmake --preset fails on the ubuntu 22.04 runners",
		What:    "`cmake --preset ci` → CMake Error: Could not read presets from /home/ci/build/ironbark: Unrecognized \"version\" field",
		Why:     "CMakePresets.json is version 6 (needs CMake 3.25), the runners have apt's 3.22.",
		Where:   "CMakePresets.json, runner image",
		Learned: "Get a newer cmake from pip in CI instead of lowering the preset version (we use workflow presets).",
		Fix:     "pipx install cmake==3.28.3 && hash -r && cmake --preset ci"})
	h.ask("cmake-presets-version/1", "ironbark", "linux", "cmake --preset ci-release",
		`CMake Error: Could not read presets from /home/ci/build/ironbark/native:
Unrecognized "version" field
`, "cmake-presets-version", "hand: stored")
	h.note(Note{ID: "vcpkg-baseline", Project: "thimble", OS: "windows", Lang: "cpp", At: day(2025, 7, 1),
		Title:   "vcpkg: no version database entry for fmt",
		What:    "Manifest mode install on Windows failed because fmt's version constraint isn't in the version database at our builtin-baseline.",
		Why:     "vcpkg.json asks for fmt >= 11.0.2 but builtin-baseline still points to a 2023 commit of the registry; versions newer than the baseline's database aren't known.",
		Where:   "vcpkg.json builtin-baseline",
		Learned: "Move the baseline forward (and git pull the vcpkg checkout first).",
		Fix:     `git -C C:\vcpkg pull && C:\vcpkg\vcpkg.exe x-update-baseline`})
	h.ask("vcpkg-baseline/1", "thimble", "windows", `cmake --preset windows-msvc`,
		crlf(`-- Running vcpkg install
Fetching registry information from https://github.com/microsoft/vcpkg (HEAD)...
error: version conflict on fmt:x64-windows: thimble@0.4.0 required fmt >= 11.0.2, which cannot be compared with the baseline version 10.1.1.
note: consider removing the version constraint or choosing a value declared here
C:\vcpkg\versions\f-\fmt.json:
note: or update the baseline: "builtin-baseline": "3508985146f1b1d248c67ead13f8f54be5b4f5da"
-- Running vcpkg install - failed
CMake Error at C:/vcpkg/scripts/buildsystems/vcpkg.cmake:904 (message):
  vcpkg install failed.  See logs for more information:
  C:\Users\dev\src\thimble\build\windows-msvc\vcpkg-manifest-install.log
`), "vcpkg-baseline", "hand: the note paraphrases, the output words it otherwise")

	h.note(Note{ID: "nvcc-sm90", Project: "halo-sim", OS: "linux", Lang: "cuda", At: day(2023, 4, 4),
		Title:   "nvcc: Unsupported gpu architecture 'compute_90'",
		What:    "configure passes, first .cu compile dies with nvcc fatal   : Unsupported gpu architecture 'compute_90'",
		Why:     "CMAKE_CUDA_ARCHITECTURES includes 90 for the H100 nodes, but the workstation image still has CUDA 11.7, which predates Hopper (11.8+).",
		Where:   "CMakePresets.json, workstation image",
		Learned: "On old-toolkit boxes configure with only the local arch; real fix is the 12.x image.",
		Fix:     "cmake --preset dev -DCMAKE_CUDA_ARCHITECTURES=86"})
	h.ask("nvcc-sm90/1", "halo-sim", "linux", "cmake --build build/dev -j16",
		`[  3%] Building CUDA object src/kernels/CMakeFiles/halo_kernels.dir/advect.cu.o
nvcc fatal   : Unsupported gpu architecture 'compute_90'
gmake[2]: *** [src/kernels/CMakeFiles/halo_kernels.dir/build.make:76: src/kernels/CMakeFiles/halo_kernels.dir/advect.cu.o] Error 1
gmake[1]: *** [CMakeFiles/Makefile2:212: src/kernels/CMakeFiles/halo_kernels.dir/all] Error 2
gmake: *** [Makefile:146: all] Error 2
`, "nvcc-sm90", "hand: stored")
	h.note(Note{ID: "nvcc-host-gcc", Project: "halo-sim", OS: "linux", Lang: "cuda", At: day(2024, 5, 28),
		Title:   "Fedora 40 box: nvcc rejects gcc 14",
		What:    "All CUDA objects fail inside host_config.h: #error -- unsupported GNU version! gcc versions later than 13 are not supported!",
		Why:     "CUDA 12.4 supports host gcc up to 13; Fedora 40 ships 14. -allow-unsupported-compiler builds but miscompiled thrust for us once, don't.",
		Where:   "workstation",
		Learned: "Install gcc13 and point CUDA's host compiler at it.",
		Fix:     "sudo dnf install -y gcc13-c++ && cmake --preset dev -DCMAKE_CUDA_HOST_COMPILER=/usr/bin/g++-13"})
	h.ask("nvcc-host-gcc/1", "halo-sim", "linux", "cmake --build build/dev -j16",
		`[  2%] Building CUDA object src/kernels/CMakeFiles/halo_kernels.dir/advect.cu.o
In file included from /usr/local/cuda-12.4/bin/../targets/x86_64-linux/include/cuda_runtime.h:82,
                 from <command-line>:
/usr/local/cuda-12.4/bin/../targets/x86_64-linux/include/crt/host_config.h:143:2: error: #error -- unsupported GNU version! gcc versions later than 13 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check; however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. Use at your own risk.
  143 | #error -- unsupported GNU version! gcc versions later than 13 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check; however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. Use at your own risk.
      |  ^~~~~
gmake[2]: *** [src/kernels/CMakeFiles/halo_kernels.dir/build.make:76: src/kernels/CMakeFiles/halo_kernels.dir/advect.cu.o] Error 1
`, "nvcc-host-gcc", "hand: the other nvcc note")

	h.note(Note{ID: "asan-mmap-rnd-bits", Project: "thimble", Scope: "global", OS: "linux", Lang: "c", At: day(2024, 3, 26),
		Title:   "ASan binaries abort instantly on new kernels",
		What:    "Every -fsanitize=address test binary dies before main, either looping on AddressSanitizer:DEADLYSIGNAL or with \"Shadow memory range interleaves with an existing memory mapping. ASan cannot proceed correctly. ABORTING.\" Same for TSan (unexpected memory mapping).",
		Why:     "Kernel 6.5+ on Ubuntu 24.04/Arch sets vm.mmap_rnd_bits=32, which older compiler-rt (clang < 18, gcc < 14) can't cope with. Not our code.",
		Where:   "any linux box with a recent kernel",
		Learned: "Lower the ASLR entropy until the toolchain is upgraded (resets on reboot; sysctl.d for permanent).",
		Fix:     "sudo sysctl vm.mmap_rnd_bits=28"})
	h.ask("asan-mmap-rnd-bits/1", "thimble", "linux", "ctest --test-dir build/asan --output-on-failure",
		`Test project /home/ci/build/thimble/build/asan
    Start 1: parse_test
1/6 Test #1: parse_test .......................***Failed    0.02 sec
==38112==Shadow memory range interleaves with an existing memory mapping. ASan cannot proceed correctly. ABORTING.
==38112==ASan shadow was supposed to be located in the [0x00007fff7000-0x10007fff7fff] range.
==38112==This might be related to ELF_ET_DYN_BASE change in Linux 4.12.
==38112==See https://github.com/google/sanitizers/issues/856 for possible workarounds.
==38112==Process memory map follows:
	0x5e4b91a00000-0x5e4b91a9f000	/home/ci/build/thimble/build/asan/tests/parse_test
	0x7ffd4c2e1000-0x7ffd4c302000	[stack]
==38112==End of process memory map.

0% tests passed, 6 tests failed out of 6
`, "asan-mmap-rnd-bits", "hand: stored")
	h.ask("asan-mmap-rnd-bits/elsewhere", "halo-sim", "linux", "./build/asan/tests/halo_tests",
		`AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLYSIGNAL
AddressSanitizer:DEADLY`, "asan-mmap-rnd-bits", "global note, another project: the DEADLYSIGNAL loop, cut mid-line")

	// protoc and buf.
	h.note(Note{ID: "protoc-gen-go-path", Project: "ridgeline", OS: "linux", Lang: "go", At: day(2022, 3, 15),
		Title:   "make proto: protoc-gen-go program not found",
		What:    "`protoc-gen-go: program not found or is not executable` from make proto on a fresh devcontainer",
		Why:     "go install puts the plugin in $(go env GOPATH)/bin, which isn't on PATH in the devcontainer's non-login shell.",
		Where:   "Makefile proto target, devcontainer",
		Learned: "Install the pinned plugin versions and add GOPATH/bin to PATH.",
		Fix:     "go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.28.1 && export PATH=\"$PATH:$(go env GOPATH)/bin\""})
	h.ask("protoc-gen-go-path/1", "ridgeline", "linux", "make proto",
		`protoc -I proto --go_out=gen/go --go_opt=paths=source_relative --go-grpc_out=gen/go --go-grpc_opt=paths=source_relative proto/ridgeline/v1/*.proto
protoc-gen-go: program not found or is not executable
Please specify a program using absolute path or make sure the program is available in your PATH system variable
--go_out: protoc-gen-go: Plugin failed with status code 1.
make: *** [Makefile:31: proto] Error 1
`, "protoc-gen-go-path", "hand: stored")
	h.note(Note{ID: "buf-breaking-type", Project: "ridgeline", OS: "darwin", Lang: "proto", At: day(2025, 6, 10),
		Title:   "buf breaking blocks changing Invoice.currency to an enum",
		What:    "buf breaking against main: Field \"4\" with name \"currency\" on message \"Invoice\" changed type from \"string\" to \"enum\".",
		Why:     "Wire-incompatible for existing clients; the check is right.",
		Where:   "proto/ridgeline/billing/v1/invoice.proto",
		Learned: "Don't change a field's type: add `CurrencyCode currency_code = 9;`, mark field 4 deprecated, migrate readers, reserve 4 later. No command, it's a schema change."})
	h.ask("buf-breaking-type/1", "ridgeline", "darwin", "buf breaking --against '.git#branch=main'",
		`proto/ridgeline/billing/v1/invoice.proto:23:3:Field "4" with name "currency" on message "Invoice" changed type from "string" to "enum".
`, "buf-breaking-type", "hand: stored, one line")

	// Python tooling.
	h.note(Note{ID: "precommit-ruff-lint-table", Project: "tern", OS: "linux", Lang: "python", At: day(2024, 9, 9),
		Title:   "pre-commit ruff hook can't parse pyproject after config move",
		What:    "ruff hook fails with TOML parse error at [tool.ruff.lint] — `unknown field lint`",
		Why:     "I moved our ruff settings under [tool.ruff.lint] (the new layout) but .pre-commit-config.yaml pins ruff-pre-commit v0.0.285, which predates the lint table. Local ruff is 0.6 so it worked outside pre-commit.",
		Where:   ".pre-commit-config.yaml",
		Learned: "pre-commit runs its own pinned ruff; bump the rev when changing config.",
		Fix:     "pre-commit autoupdate --repo https://github.com/astral-sh/ruff-pre-commit && pre-commit run ruff --all-files"})
	h.ask("precommit-ruff-lint-table/1", "tern", "linux", "pre-commit run --all-files",
		`check yaml...............................................................Passed
trim trailing whitespace.................................................Passed
ruff.....................................................................Failed
- hook id: ruff
- exit code: 2

ruff failed
  Cause: Failed to parse /home/ci/build/tern/pyproject.toml
  Cause: TOML parse error at line 48, column 1
   |
48 | [tool.ruff.lint]
   | ^^^^^^^^^^^^^^^^
unknown field §lint§, expected one of §allowed-confusables§, §builtins§, §cache-dir§, §dummy-variable-rgx§, §exclude§, §extend§, §extend-exclude§, ...

ruff-format..............................................................Passed
`, "precommit-ruff-lint-table", "hand: stored")
	h.note(Note{ID: "pyright-venv", Project: "tern", OS: "darwin", Lang: "python", At: day(2025, 5, 13),
		Title:   "pyright: every third-party import unresolved",
		What:    "pyright from the CLI (npx) reports `Import \"fastapi\" could not be resolved` for all deps, VS Code is fine",
		Why:     "the CLI doesn't know about the uv-managed .venv; VS Code gets it from the selected interpreter",
		Where:   "pyproject.toml [tool.pyright]",
		Learned: "set venvPath = \".\" and venv = \".venv\" under [tool.pyright]; or run `uv run pyright`. Code change."})
	h.ask("pyright-venv/1", "tern", "darwin", "npx pyright src",
		`/Users/kim/code/tern/src/tern/api.py
  /Users/kim/code/tern/src/tern/api.py:3:6 - error: Import "fastapi" could not be resolved (reportMissingImports)
  /Users/kim/code/tern/src/tern/api.py:4:6 - error: Import "pydantic" could not be resolved (reportMissingImports)
/Users/kim/code/tern/src/tern/db.py
  /Users/kim/code/tern/src/tern/db.py:1:6 - error: Import "sqlalchemy.ext.asyncio" could not be resolved (reportMissingImports)
3 errors, 0 warnings, 0 informations
`, "pyright-venv", "hand: stored")
}
