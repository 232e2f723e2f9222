package replay

// unseen7Env: shell and version managers (direnv, nvm, pyenv, asdf,
// mise), PATH and locales, dev containers and docker buildx.
func unseen7Env(h *hand) {
	h.note(Note{ID: "direnv-allow", Project: "ottertrack", Scope: "global", OS: "linux", Lang: "shell", At: day(2022, 2, 14),
		Title:   "direnv: .envrc is blocked — env vars silently missing",
		What:    "Tests failed with KeyError: 'OTTERTRACK_DSN'; scrolling up, the shell had printed direnv: error /home/dev/ottertrack/.envrc is blocked. Run `direnv allow` to approve its content.",
		Why:     "direnv re-blocks an .envrc every time its content changes (git pull brought a new line).",
		Where:   ".envrc",
		Learned: "Read the diff of .envrc, then direnv allow. Agents running commands in a non-interactive shell never see the hook's message, so check `direnv status` when env vars vanish.",
		Fix:     "direnv allow ."})
	h.ask("direnv-allow/1", "bramble", "macos", "go run ./cmd/api", `
direnv: error /Users/maria/code/bramble/.envrc is blocked. Run §direnv allow§ to approve its content
2025/06/03 11:02:44 config: BRAMBLE_DATABASE_URL is required
exit status 1
`, "direnv-allow", "global note, another project")

	h.note(Note{ID: "nvm-not-installed", Project: "cinderdocs", OS: "macos", Lang: "javascript", At: day(2022, 9, 13),
		Title:   "nvm use: version from .nvmrc is not yet installed",
		What:    "`nvm use` in the repo → N/A: version \"v18.12.1 -> N/A\" is not yet installed. You need to run \"nvm install 18.12.1\" to install it before using it.",
		Why:     ".nvmrc was bumped in the last merge.",
		Where:   ".nvmrc",
		Learned: "`nvm install` with no argument reads .nvmrc and switches to it; add `nvm use` to the shell's cd hook to avoid running the wrong node.",
		Fix:     "nvm install"})
	h.ask("nvm-not-installed/1", "cinderdocs", "macos", "nvm use", `
Found '/Users/maria/code/cinderdocs/.nvmrc' with version <20.15.1>
N/A: version "20.15.1 -> N/A" is not yet installed.

You need to run §nvm install 20.15.1§ to install and use it.
`, "nvm-not-installed", "another tool version's wording")

	h.note(Note{ID: "nvm-windows-symlink", Project: "cinderdocs", OS: "windows", Lang: "javascript", At: day(2024, 7, 25),
		Title:   "nvm-windows: 'node' is not recognized after nvm use",
		What:    "After installing nvm-windows and `nvm use 20.15.1` (\"Now using node v20.15.1\"), a new terminal says 'node' is not recognized as an internal or external command, operable program or batch file.",
		Why:     "The old MSI Node install left C:\\Program Files\\nodejs as a real folder, so nvm couldn't create its symlink at NVM_SYMLINK; without admin rights it fails silently too.",
		Where:   "C:\\Program Files\\nodejs, system PATH",
		Learned: "Uninstall the MSI Node, delete the leftover folder, run nvm use from an elevated terminal once.",
		Fix:     "winget uninstall OpenJS.NodeJS.LTS; Remove-Item -Recurse -Force 'C:\\Program Files\\nodejs'; nvm use 20.15.1"})
	h.ask("nvm-windows-symlink/1", "cinderdocs", "windows", "npm run dev", u7crlf(`
'node' is not recognized as an internal or external command,
operable program or batch file.
`), "nvm-windows-symlink", "windows console")
	h.ask("bun-not-on-path/1", "pebblecast", "linux", "curl -fsSL https://bun.sh/install | bash && bun test", `
######################################################################## 100.0%
bun was installed successfully to ~/.bun/bin/bun

Added "~/.bun/bin" to $PATH in "~/.bashrc"

To get started, run:

  exec /bin/bash
  bun --help
bash: line 1: bun: command not found
`, "", "never stored: another failure")

	// pyenv on macOS: the openssl@1.1 flags of 2022, said dead in 2025.
	h.note(Note{ID: "pyenv-ssl-flags", Project: "fernway", OS: "macos", Lang: "python", At: day(2022, 11, 2),
		Title:   "pyenv install 3.10.8: The Python ssl extension was not compiled",
		What:    "`pyenv install 3.10.8` ends with ModuleNotFoundError: No module named '_ssl' / ERROR: The Python ssl extension was not compiled. Missing the OpenSSL lib? BUILD FAILED.",
		Why:     "python-build didn't find Homebrew's keg-only openssl.",
		Where:   "local pyenv",
		Learned: "Pass the openssl@1.1 include and lib dirs explicitly.",
		Fix:     "CFLAGS=\"-I$(brew --prefix openssl@1.1)/include\" LDFLAGS=\"-L$(brew --prefix openssl@1.1)/lib\" pyenv install 3.10.8"})
	h.note(Note{ID: "pyenv-upgrade-openssl3", Project: "fernway", OS: "macos", Lang: "python", At: day(2025, 7, 8), ProseOver: "pyenv-ssl-flags",
		Title:   "pyenv _ssl build failure again: the openssl@1.1 flags no longer apply",
		What:    "'The Python ssl extension was not compiled' building 3.12.4. The CFLAGS/LDFLAGS trick for openssl@1.1 from my 2022 note is dead: Homebrew disabled openssl@1.1 (EOL), `brew --prefix openssl@1.1` points at nothing and the build fails the same way.",
		Why:     "The real cause this time was an ancient pyenv (python-build from 2022) that predates its openssl@3 detection. Current python-build finds Homebrew's openssl@3 by itself.",
		Where:   "Homebrew pyenv",
		Learned: "Upgrade pyenv first, make sure openssl@3 readline xz are installed, then plain `pyenv install` works with no flags. The old flags note is obsolete.",
		Fix:     "brew upgrade pyenv && brew install openssl@3 readline xz && pyenv install 3.12.4"})
	h.ask("pyenv-upgrade-openssl3/1", "fernway", "macos", "pyenv install 3.12.4", `
python-build: use readline from homebrew
Downloading Python-3.12.4.tar.xz...
-> https://www.python.org/ftp/python/3.12.4/Python-3.12.4.tar.xz
Installing Python-3.12.4...
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/Users/maria/.pyenv/versions/3.12.4/lib/python3.12/ssl.py", line 100, in <module>
    import _ssl             # if we can't import it, let the error propagate
    ^^^^^^^^^^^
ModuleNotFoundError: No module named '_ssl'
ERROR: The Python ssl extension was not compiled. Missing the OpenSSL lib?

Please consult to the Wiki page to fix the problem.
https://github.com/pyenv/pyenv/wiki/Common-build-problems


BUILD FAILED (OS X 15.5 using python-build 20180424)
`, "pyenv-upgrade-openssl3", "superseded in prose", "pyenv-ssl-flags")
	h.ask("pyenv-ctypes/1", "ottertrack", "linux", "pyenv install 3.12.7", `
Installing Python-3.12.7...
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/home/dev/.pyenv/versions/3.12.7/lib/python3.12/ctypes/__init__.py", line 8, in <module>
    from _ctypes import Union, Structure, Array
ModuleNotFoundError: No module named '_ctypes'
ERROR: The Python ctypes extension was not compiled. Missing the libffi lib?

Please consult to the Wiki page to fix the problem.
https://github.com/pyenv/pyenv/wiki/Common-build-problems


BUILD FAILED (Ubuntu 24.04 using python-build 2.4.17)
`, "", "never stored: same kind, another object")

	// asdf: the Go rewrite removed the old fix's command.
	h.note(Note{ID: "asdf-local", Project: "quillmark", OS: "macos", Lang: "typescript", At: day(2023, 3, 6),
		Title:   "asdf: No version is set for command node",
		What:    "Any node/pnpm command in the repo → No version is set for command node. Consider adding one of the following versions in your config file at /Users/maria/code/quillmark/.tool-versions: nodejs 18.15.0.",
		Why:     ".tool-versions was deleted in a cleanup PR; asdf shims refuse to guess.",
		Where:   ".tool-versions",
		Learned: "Restore it with asdf local (writes .tool-versions in the cwd).",
		Fix:     "asdf local nodejs 18.15.0"})
	h.note(Note{ID: "asdf-set", Project: "quillmark", OS: "macos", Lang: "typescript", At: day(2025, 3, 18), ProseOver: "asdf-local",
		Title:   "asdf 0.16 (Go rewrite): `asdf local` is gone, use `asdf set`",
		What:    "'No version is set for command node' again after brew upgraded asdf to 0.16.5, and my old fix `asdf local nodejs ...` now fails with invalid command provided: local.",
		Why:     "asdf 0.16 was rewritten in Go; local/global/shell were replaced by `asdf set` (set --home for the global one). The bash-era commands from the older note don't exist anymore.",
		Where:   ".tool-versions, ~/.zshrc (shims path)",
		Learned: "asdf set writes .tool-versions; also the shims dir must be on PATH explicitly now (the old asdf.sh sourcing is gone).",
		Fix:     "asdf set nodejs 20.18.3"})
	h.ask("asdf-set/1", "quillmark", "macos", "pnpm dev", `
No version is set for command node
Consider adding one of the following versions in your config file at /Users/maria/code/quillmark/.tool-versions
nodejs 20.18.3
nodejs 22.14.0
`, "asdf-set", "superseded in prose", "asdf-local")
	h.ask("asdf-set/2", "quillmark", "linux", "asdf local nodejs 22.14.0", `
invalid command provided: local

NAME:
   asdf - The multiple runtime version manager

USAGE:
   asdf [global options] command [command options]

COMMANDS:
   cmd        run external command
   current    Show the current version of the named plugin, or all installed plugins
   env        Prints or runs an executable under a command environment
   exec       Executes a command shim for the current version
...
`, "asdf-set", "superseded in prose: the old fix fails", "asdf-local")

	h.note(Note{ID: "mise-trust", Project: "pebblecast", OS: "linux", Lang: "typescript", At: day(2025, 11, 3),
		Title:   "mise: config files are not trusted",
		What:    "After cloning pebblecast, every bun command errors: mise ERROR Config files in ~/code/pebblecast/mise.toml are not trusted.",
		Why:     "mise won't load a project config that sets env vars or tasks until it's explicitly trusted.",
		Where:   "mise.toml",
		Learned: "mise trust once per clone; in CI set MISE_TRUSTED_CONFIG_PATHS to the checkout dir.",
		Fix:     "mise trust"})
	h.ask("mise-trust/1", "pebblecast", "linux", "bun install", `
mise ERROR Config files in ~/code/pebblecast/mise.toml are not trusted.
Trust them with §mise trust§. See https://mise.jdx.dev/cli/trust.html for more information.
mise ERROR Run with --verbose or MISE_VERBOSE=1 for more information
`, "mise-trust", "stored: the tool's own wording")
	h.ask("mise-trust/2", "quillmark", "linux", "pnpm install", `
mise ERROR Config files in ~/src/quillmark/.mise.toml are not trusted.
Trust them with §mise trust§. See https://mise.jdx.dev/cli/trust.html for more information.
mise ERROR Run with --verbose or MISE_VERBOSE=1 for more information
`, "", "another project's project note")
	h.ask("mise-install-fail/1", "pebblecast", "macos", "mise install", `
mise python@3.13.1     [1/3] install
mise ERROR Failed to install core:python@3.13.1: no precompiled python found for core:python@3.13.1 on aarch64-apple-darwin
mise ERROR Run with --verbose or MISE_VERBOSE=1 for more information
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "path-gopath-bin", Project: "bramble", Scope: "global", OS: "linux", Lang: "go", At: day(2022, 3, 1),
		Title:   "golangci-lint: command not found right after go install",
		What:    "`go install` of golangci-lint succeeded but the next command says golangci-lint: command not found.",
		Why:     "go install puts binaries in $(go env GOPATH)/bin (~/go/bin), which wasn't on PATH in this shell profile.",
		Where:   "~/.bashrc / ~/.zshrc",
		Learned: "Add $(go env GOPATH)/bin to PATH once; same for every Go-installed tool (staticcheck, gofumpt, mockgen).",
		Fix:     "echo 'export PATH=\"$PATH:$(go env GOPATH)/bin\"' >> ~/.bashrc && . ~/.bashrc"})
	h.ask("path-gopath-bin/1", "wrenfield", "macos", "go install honnef.co/go/tools/cmd/staticcheck@2024.1.1 && staticcheck ./...", `
go: downloading honnef.co/go/tools v0.5.1
go: downloading golang.org/x/tools v0.21.1-0.20240531212143-b6235391adb3
zsh: command not found: staticcheck
`, "path-gopath-bin", "global note, another project; another binary")

	h.note(Note{ID: "locale-container", Project: "lanternpay", Scope: "global", OS: "linux", Lang: "ruby", At: day(2022, 8, 30),
		Title:   "perl: warning: Setting locale failed in the dev container; rubocop chokes on UTF-8",
		What:    "In the debian-slim dev container every git command prints perl: warning: Setting locale failed ... Falling back to the standard locale (\"C\"), and rubocop fails on files with an em dash: invalid byte sequence in US-ASCII.",
		Why:     "LANG=en_US.UTF-8 is set by the devcontainer but the locale was never generated in the image, so everything falls back to C/ASCII.",
		Where:   ".devcontainer/Dockerfile",
		Learned: "Install locales and generate en_US.UTF-8 in the image (or just use C.UTF-8, which exists everywhere). Setting LANG alone is not enough.",
		Fix:     "apt-get install -y locales && sed -i 's/^# *en_US.UTF-8/en_US.UTF-8/' /etc/locale.gen && locale-gen"})
	h.ask("locale-container/1", "lanternpay", "linux", "bundle exec rubocop app/models", `
perl: warning: Setting locale failed.
perl: warning: Please check that your locale settings:
	LANGUAGE = (unset),
	LC_ALL = (unset),
	LANG = "en_US.UTF-8"
    are supported and installed on your system.
perl: warning: Falling back to the standard locale ("C").
Inspecting 214 files
.........................................................W..........
An error occurred while Style/AsciiComments cop was inspecting /srv/lanternpay/app/models/refund.rb.
invalid byte sequence in US-ASCII
`, "locale-container", "stored: paraphrased note")
	h.ask("locale-container/2", "mossgate", "linux", "git log --oneline -3", `
perl: warning: Setting locale failed.
perl: warning: Please check that your locale settings:
	LANGUAGE = (unset),
	LC_ALL = "de_DE.UTF-8",
	LANG = "C.UTF-8"
    are supported and installed on your system.
perl: warning: Falling back to a fallback locale ("C.UTF-8").
3f0a1b2 codec: SIMD path for 4:2:0
`, "locale-container", "global note, another project")

	h.note(Note{ID: "devcontainer-uid", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2024, 12, 9),
		Title:   "devcontainer: EACCES creating node_modules — container user uid doesn't match mine",
		What:    "In the dev container `pnpm install` fails: EACCES: permission denied, mkdir '/workspaces/quillmark/node_modules/.pnpm'.",
		Why:     "My host uid is 1001; the image's node user is 1000. With rootless podman the bind-mounted workspace shows up owned by another uid, and updateRemoteUserUID doesn't run under podman without userns keep-id.",
		Where:   ".devcontainer/devcontainer.json",
		Learned: "Add runArgs [\"--userns=keep-id\"] for podman (docker users are covered by updateRemoteUserUID: true, the default). Rebuild the container after changing it.",
		Fix:     "devcontainer up --workspace-folder . --remove-existing-container"})
	h.ask("devcontainer-uid/1", "quillmark", "linux", "pnpm install", `
Scope: all 7 workspace projects
 EACCES  EACCES: permission denied, mkdir '/workspaces/quillmark/node_modules/.pnpm'

pnpm: EACCES: permission denied, mkdir '/workspaces/quillmark/node_modules/.pnpm'
    at async Object.mkdir (node:internal/fs/promises:858:10)
`, "devcontainer-uid", "stored: the tool's own wording")
	h.ask("devcontainer-postcreate/1", "quillmark", "linux", "devcontainer up --workspace-folder .", `
[2025-01-15T10:12:03.441Z] Running the postCreateCommand from devcontainer.json...

[2025-01-15T10:12:03.902Z] /bin/sh: 1: pnpm: not found
[2025-01-15T10:12:03.910Z] postCreateCommand from devcontainer.json failed with exit code 127. Skipping any further user-provided commands.
Error: Command failed: /bin/sh -c pnpm install
{"outcome":"error","message":"Command failed: /bin/sh -c pnpm install","description":"postCreateCommand from devcontainer.json failed."}
`, "", "never stored: another failure")

	// buildx: a builder per 2023 note, the containerd store per 2025 note.
	h.note(Note{ID: "buildx-docker-container-driver", Project: "bramble", OS: "linux", Lang: "docker", At: day(2023, 6, 26),
		Title:   "docker buildx --platform linux/amd64,linux/arm64: not supported for the docker driver",
		What:    "`make image` with both platforms → ERROR: Multi-platform build is not supported for the docker driver. Switch to a different driver, or turn on the containerd image store, and try again.",
		Why:     "The default builder uses the docker driver, which can't produce multi-arch manifests with the classic image store.",
		Where:   "Makefile image target",
		Learned: "Create a docker-container builder and use it.",
		Fix:     "docker buildx create --name multi --driver docker-container --use --bootstrap"})
	h.note(Note{ID: "buildx-containerd-store", Project: "bramble", OS: "macos", Lang: "docker", At: day(2025, 5, 27), Supersedes: "buildx-docker-container-driver",
		Title:   "multi-platform builds: turn on the containerd image store instead of a separate builder",
		What:    "Same 'Multi-platform build is not supported for the docker driver' on a new machine. The docker-container builder from the 2023 note works but its images never show up in `docker images` (--load can't load multi-arch) and it keeps a second cache.",
		Why:     "With the containerd image store the default docker driver builds multi-platform images natively; Docker Desktop 4.34+ enables it by default, Linux engines need the feature flag.",
		Where:   "/etc/docker/daemon.json on Linux hosts, Docker Desktop settings",
		Learned: "Enable containerd-snapshotter and drop the extra builder (docker buildx rm multi). Replaces the old note.",
		Fix:     "echo '{\"features\":{\"containerd-snapshotter\":true}}' | sudo tee /etc/docker/daemon.json && sudo systemctl restart docker"})
	h.ask("buildx-containerd-store/1", "bramble", "linux", "make image", `
docker buildx build --platform linux/amd64,linux/arm64 -t registry.bramble.dev/api:0.19.0 .
[+] Building 0.0s (0/0)                                          docker:default
ERROR: Multi-platform build is not supported for the docker driver.
Switch to a different driver, or turn on the containerd image store, and try again.
Learn more at https://docs.docker.com/go/build-multi-platform/
make: *** [Makefile:77: image] Error 1
`, "buildx-containerd-store", "superseded, declared", "buildx-docker-container-driver")
	h.ask("buildx-containerd-store/2", "ottertrack", "linux", "docker buildx build --platform linux/amd64,linux/arm64 -t ottertrack:0.7.0 .", `
[+] Building 0.0s (0/0)                                          docker:default
ERROR: Multi-platform build is not supported for the docker driver.
Switch to a different driver, or turn on the containerd image store, and try again.
Learn more at https://docs.docker.com/go/build-multi-platform/
`, "", "another project's project note")

	// exec format error: one message, two causes.
	h.note(Note{ID: "buildx-binfmt-qemu", Project: "bramble", OS: "linux", Lang: "docker", At: day(2024, 8, 8),
		Title:   "buildx arm64 stage: exec /bin/sh: exec format error",
		What:    "Multi-arch build on the amd64 runner fails in the first RUN of the arm64 half: exec /bin/sh: exec format error.",
		Why:     "The runner had no QEMU binfmt handlers registered, so arm64 binaries can't execute during the build.",
		Where:   "CI runner setup (docker/setup-qemu-action is the workflow equivalent)",
		Learned: "Register binfmt once per host (it doesn't survive reboots on some distros); for Go, cross-compile with GOARCH in a --platform=$BUILDPLATFORM stage instead and skip emulation.",
		Fix:     "docker run --privileged --rm tonistiigi/binfmt --install arm64"})
	h.note(Note{ID: "docker-run-arm64-image", Project: "bramble", OS: "macos", Lang: "docker", At: day(2024, 2, 15),
		Title:   "container won't start on the VPS: exec format error — image built on the M2 is arm64",
		What:    "Pushed an image built on my Mac, the amd64 VPS's `docker compose up` → api-1 | exec /usr/local/bin/api: exec format error, api-1 exited with code 1.",
		Why:     "A plain docker build on Apple Silicon produces linux/arm64.",
		Where:   "Makefile push target, the VPS compose file",
		Learned: "Always pass --platform linux/amd64 (or both) when building images to push; check with docker image inspect --format '{{.Architecture}}'.",
		Fix:     "docker buildx build --platform linux/amd64 -t registry.bramble.dev/api:latest --push ."})
	h.ask("buildx-binfmt-qemu/1", "bramble", "linux", "docker buildx build --platform linux/amd64,linux/arm64 .", `
#12 [linux/arm64 builder 4/7] RUN go mod download
#12 0.098 exec /bin/sh: exec format error
#12 ERROR: process "/bin/sh -c go mod download" did not complete successfully: exit code: 1
------
 > [linux/arm64 builder 4/7] RUN go mod download:
0.098 exec /bin/sh: exec format error
------
Dockerfile:9
--------------------
   7 |     WORKDIR /src
   8 |     COPY go.mod go.sum ./
   9 | >>> RUN go mod download
  10 |     COPY . .
  11 |     RUN CGO_ENABLED=0 go build -o /out/api ./cmd/api
--------------------
ERROR: failed to solve: process "/bin/sh -c go mod download" did not complete successfully: exit code: 1
`, "buildx-binfmt-qemu", "same text, another cause")
	h.ask("docker-run-arm64-image/1", "bramble", "linux", "docker compose up api", `
[+] Running 2/2
 ✔ Container bramble-db-1   Running                                        0.0s
 ✔ Container bramble-api-1  Recreated                                      0.4s
Attaching to api-1
api-1  | exec /usr/local/bin/api: exec format error
api-1 exited with code 1
`, "docker-run-arm64-image", "same text, another cause")
	h.ask("exec-format-binary/1", "ferrule", "linux", "cargo build --release --target aarch64-unknown-linux-gnu && ./target/aarch64-unknown-linux-gnu/release/ferrule --version", `
   Compiling ferrule v0.10.0 (/home/dev/ferrule)
    Finished §release§ profile [optimized] target(s) in 38.12s
bash: ./target/aarch64-unknown-linux-gnu/release/ferrule: cannot execute binary file: Exec format error
`, "", "never stored: same text, another object")

	h.note(Note{ID: "tool-versions-source", Project: "pebblecast", OS: "linux", Lang: "typescript", At: day(2026, 2, 2), Type: "pattern", NoFailure: true,
		Title:   "pebblecast: mise.toml is the one place tool versions live",
		What:    "Convention: bun, node and python versions are pinned only in mise.toml; CI uses jdx/mise-action and reads the same file. No .nvmrc, .python-version or setup-bun version inputs.",
		Why:     "Three files with three node versions drifted twice in January.",
		Where:   "mise.toml, .github/workflows/*.yml",
		Learned: "Bump a tool with `mise use bun@x.y` so the file and the lock update together.",
		Fix:     ""})
}
