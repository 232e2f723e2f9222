package replay

// unseen7Git: git itself and its hooks — signing, LFS, submodules,
// rebase conflicts, ownership, pre-commit, husky and lint-staged.
func unseen7Git(h *hand) {
	// Commit signing: one message, a global note per system.
	h.note(Note{ID: "gpg-sign-macos", Project: "quillmark", Scope: "global", OS: "macos", Lang: "shell", At: day(2023, 8, 21),
		Title:   "git commit: gpg failed to sign the data (macOS, no pinentry)",
		What:    "With commit.gpgsign=true, `git commit` → error: gpg failed to sign the data / fatal: failed to write commit object. `echo test | gpg --clearsign` says gpg: signing failed: Inappropriate ioctl for device.",
		Why:     "gpg-agent had no pinentry that can ask for the passphrase when git runs gpg from an editor or agent without a tty; GPG_TTY unset too.",
		Where:   "~/.gnupg/gpg-agent.conf, ~/.zshrc",
		Learned: "pinentry-mac gives a GUI prompt (and keychain caching); export GPG_TTY=$(tty) in .zshrc for terminal use. Restart the agent after changing the conf.",
		Fix:     "brew install pinentry-mac && echo \"pinentry-program $(brew --prefix)/bin/pinentry-mac\" >> ~/.gnupg/gpg-agent.conf && gpgconf --kill gpg-agent"})
	h.note(Note{ID: "gpg-sign-windows", Project: "saltbox", Scope: "global", OS: "windows", Lang: "shell", At: day(2024, 3, 12),
		Title:   "gpg failed to sign the data on Windows — git uses its bundled gpg, not Gpg4win",
		What:    "error: gpg failed to sign the data, with gpg: skipped \"<keyid>\": No secret key, although Kleopatra lists the key.",
		Why:     "Git for Windows ships its own gpg.exe with a separate keyring under the MSYS home; the key was imported into Gpg4win's keyring in %APPDATA%\\gnupg.",
		Where:   "global git config (gpg.program)",
		Learned: "Point git at Gpg4win's gpg.exe instead of importing the key twice.",
		Fix:     "git config --global gpg.program \"C:\\Program Files (x86)\\GnuPG\\bin\\gpg.exe\""})
	h.ask("gpg-sign-macos/1", "lanternpay", "macos", "git commit -m 'refunds: partial refund endpoint'", `
error: gpg failed to sign the data:
[GNUPG:] KEY_CONSIDERED 3AA5C34371567BD2 2
[GNUPG:] BEGIN_SIGNING H10
gpg: signing failed: Inappropriate ioctl for device
[GNUPG:] FAILURE sign 83918950
gpg: signing failed: Inappropriate ioctl for device

fatal: failed to write commit object
`, "gpg-sign-macos", "twin on another system; global note, another project")
	h.ask("gpg-sign-windows/1", "saltbox", "windows", "git commit -m \"fix: invoice rounding\"", u7crlf(`
gpg: skipped "4F1D8E2A9C0B7E31": No secret key
[GNUPG:] INV_SGNR 9 4F1D8E2A9C0B7E31
[GNUPG:] FAILURE sign 17
gpg: signing failed: No secret key
error: gpg failed to sign the data
fatal: failed to write commit object
`), "gpg-sign-windows", "twin on another system")
	h.ask("ssh-sign-format/1", "bramble", "linux", "git commit -S -m 'api: paginate'", `
error: Load key "/tmp/.git_signing_key_tmpkArhA3": invalid format?

fatal: failed to write commit object
`, "", "never stored: same text, another signer (ssh)")
	h.note(Note{ID: "signing-ssh-convention", Project: "bramble", OS: "linux", Lang: "shell", At: day(2025, 8, 4), Type: "pattern", NoFailure: true,
		Title:   "bramble signs commits with SSH keys, not GPG, from now on",
		What:    "Team decision: commits to main must be signed; we use SSH signing (gpg.format ssh, user.signingkey = the .pub path) and register the key on GitHub as a signing key. allowed_signers lives in .github/allowed_signers for local verification.",
		Why:     "GPG setup cost every new laptop an afternoon; everyone already has an ed25519 key.",
		Where:   "CONTRIBUTING.md, .github/allowed_signers",
		Learned: "git config gpg.ssh.allowedSignersFile .github/allowed_signers makes `git log --show-signature` useful locally.",
		Fix:     ""})

	// LFS: skipping smudge was the 2023 answer; the 2025 note says why not.
	h.note(Note{ID: "lfs-skip-smudge", Project: "kitehop", OS: "linux", Lang: "dart", At: day(2023, 4, 5),
		Title:   "clone fails: smudge filter lfs failed (LFS quota)",
		What:    "`git clone` of kitehop dies at checkout: Smudge error: Error downloading assets/fonts/Inter.ttf ... batch response: This repository is over its data quota. error: external filter 'git-lfs filter-process' failed / fatal: assets/fonts/Inter.ttf: smudge filter lfs failed.",
		Why:     "The org's LFS bandwidth quota ran out for the month.",
		Where:   "git clone, CI checkout step",
		Learned: "Clone without downloading LFS objects; the fonts aren't needed to build and test.",
		Fix:     "GIT_LFS_SKIP_SMUDGE=1 git clone git@github.com:kitehop/kitehop.git"})
	h.note(Note{ID: "lfs-mirror-pull", Project: "kitehop", OS: "macos", Lang: "dart", At: day(2025, 1, 14), ProseOver: "lfs-skip-smudge",
		Title:   "LFS smudge failures: don't skip smudge anymore, pull from our LFS mirror",
		What:    "'smudge filter lfs failed' on a fresh clone again. Skipping smudge the way I wrote in 2023 isn't a fix now: the golden tests read the PNGs under test/goldens, and with pointer files checked out they fail with 'Invalid image data'.",
		Why:     "LFS storage moved to the self-hosted mirror after the quota trouble, but clones made from the GitHub URL still ask GitHub's LFS, which is over budget.",
		Where:   ".lfsconfig, test/goldens/",
		Learned: ".lfsconfig now points at the mirror for everyone; on an existing broken clone set it and `git lfs pull`. GIT_LFS_SKIP_SMUDGE is obsolete for this repo.",
		Fix:     "git config -f .lfsconfig lfs.url https://lfs.kitehop.dev/kitehop.git/info/lfs && git lfs pull"})
	h.ask("lfs-mirror-pull/1", "kitehop", "linux", "git clone git@github.com:kitehop/kitehop.git", `
Cloning into 'kitehop'...
remote: Enumerating objects: 18422, done.
remote: Counting objects: 100% (2211/2211), done.
Receiving objects: 100% (18422/18422), 9.81 MiB | 6.02 MiB/s, done.
Resolving deltas: 100% (11108/11108), done.
Downloading test/goldens/home_screen.png (212 KB)
Error downloading object: test/goldens/home_screen.png (9f2c1e0): Smudge error: Error downloading test/goldens/home_screen.png (9f2c1e07d4b3a8e6f1c0b2d5e4a7f9c8b1d0e3f2a5c4b7d6e9f8a1c0b3d2e5f4): batch response: This repository exceeded its LFS budget. The account responsible for the budget should increase it to restore access.

Errors logged to '/home/dev/kitehop/.git/lfs/logs/20250302T101455.123456789.log'.
Use §git lfs logs last§ to view the log.
error: external filter 'git-lfs filter-process' failed
fatal: test/goldens/home_screen.png: smudge filter lfs failed
warning: Clone succeeded, but checkout failed.
You can inspect what was checked out with 'git status'
and retry with 'git restore --source=HEAD :/'
`, "lfs-mirror-pull", "superseded in prose", "lfs-skip-smudge")
	h.ask("lfs-not-installed/1", "kitehop", "macos", "git push origin feat/onboarding", `
This repository is configured for Git LFS but 'git-lfs' was not found on your path. If you no longer wish to use Git LFS, remove this hook by deleting the 'pre-push' file in the hooks directory (set by 'core.hookspath'; usually '.git/hooks').

error: failed to push some refs to 'github.com:kitehop/kitehop.git'
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "submodule-ssh-url", Project: "mossgate", OS: "linux", Lang: "cpp", At: day(2022, 10, 19),
		Title:   "CI checkout: submodule clone fails with Permission denied (publickey)",
		What:    "`git submodule update --init --recursive` in CI: git@github.com: Permission denied (publickey). fatal: clone of 'git@github.com:mossgate/libcodec.git' into submodule path ... failed.",
		Why:     ".gitmodules has the ssh URL; the CI job only has an https token (actions/checkout), no ssh key.",
		Where:   ".gitmodules, .github/workflows/build.yml",
		Learned: "Rewrite ssh to https for the job (insteadOf), or better make the .gitmodules URL relative (../libcodec.git) so it follows whatever the superproject was cloned with.",
		Fix:     "git config --global url.\"https://github.com/\".insteadOf git@github.com: && git submodule update --init --recursive"})
	h.ask("submodule-ssh-url/1", "mossgate", "linux", "git submodule update --init --recursive", `
Submodule 'third_party/libcodec' (git@github.com:mossgate/libcodec.git) registered for path 'third_party/libcodec'
Cloning into '/home/dev/mossgate/third_party/libcodec'...
git@github.com: Permission denied (publickey).
fatal: Could not read from remote repository.

Please make sure you have the correct access rights
and the repository exists.
fatal: clone of 'git@github.com:mossgate/libcodec.git' into submodule path '/home/dev/mossgate/third_party/libcodec' failed
Failed to clone 'third_party/libcodec'. Retry scheduled
`, "submodule-ssh-url", "stored: the tool's own wording")
	h.ask("submodule-not-our-ref/1", "mossgate", "linux", "git submodule update --init", `
Submodule path 'third_party/libcodec': checked out '2b7e9c1a4d0f3e8b5c6a7d9e0f1b2c3d4e5f6a7b'
error: Server does not allow request for unadvertised object 4e1f0c2d9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e
Fetched in submodule path 'third_party/zstd', but it did not contain 4e1f0c2d9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e. Direct fetching of that commit failed.
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "rebase-pnpm-lock", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2025, 9, 9),
		Title:   "rebase conflict in pnpm-lock.yaml — don't hand-merge, regenerate",
		What:    "`git rebase origin/main` stops with CONFLICT (content): Merge conflict in pnpm-lock.yaml on almost every long-lived branch.",
		Why:     "Both sides changed the lock; the YAML merge is meaningless to resolve by hand.",
		Where:   "pnpm-lock.yaml",
		Learned: "During a rebase 'ours' is main (the branch being rebased onto). Take main's lock, rerun pnpm install so this branch's package.json changes get re-resolved, add, continue.",
		Fix:     "git checkout --ours pnpm-lock.yaml && pnpm install && git add pnpm-lock.yaml && git rebase --continue"})
	h.ask("rebase-pnpm-lock/1", "quillmark", "macos", "git rebase origin/main", `
Auto-merging apps/web/package.json
Auto-merging pnpm-lock.yaml
CONFLICT (content): Merge conflict in pnpm-lock.yaml
error: could not apply 7c1d2e9... feat(web): add tiptap tables
hint: Resolve all conflicts manually, mark them as resolved with
hint: "git add/rm <conflicted_files>", then run "git rebase --continue".
hint: You can instead skip this commit: run "git rebase --skip".
hint: To abort and get back to the original state, run "git rebase --abort".
hint: Disable this message with "git config set advice.mergeConflict false"
Could not apply 7c1d2e9... feat(web): add tiptap tables
`, "rebase-pnpm-lock", "stored: the tool's own wording")
	h.ask("rebase-code-conflict/1", "quillmark", "linux", "git rebase origin/main", `
Auto-merging apps/web/src/routes/editor.tsx
CONFLICT (content): Merge conflict in apps/web/src/routes/editor.tsx
error: could not apply 91ab3f0... fix(editor): keep selection on undo
hint: Resolve all conflicts manually, mark them as resolved with
hint: "git add/rm <conflicted_files>", then run "git rebase --continue".
hint: You can instead skip this commit: run "git rebase --skip".
hint: To abort and get back to the original state, run "git rebase --abort".
Could not apply 91ab3f0... fix(editor): keep selection on undo
`, "", "never stored: same kind, another object")

	// husky: the v8 note declared replaced by the v9 one; a third note on
	// PATH in GUI clients; the same exit code from another cause.
	h.note(Note{ID: "husky8-install", Project: "sloeberry", OS: "macos", Lang: "typescript", At: day(2022, 6, 28),
		Title:   "husky hooks don't run after a fresh clone",
		What:    "Commits go through without lint-staged. `.husky/pre-commit` is there but git prints hint: The '.husky/pre-commit' hook was ignored because it's not set as executable.",
		Why:     "husky v8 needs `husky install` to set core.hooksPath, and the hook file lost its +x bit when it was added from Windows.",
		Where:   ".husky/pre-commit, package.json (prepare)",
		Learned: "\"prepare\": \"husky install\" in package.json, and `git update-index --chmod=+x .husky/pre-commit` so the bit is in the repo.",
		Fix:     "npx husky install && chmod +x .husky/pre-commit && git update-index --chmod=+x .husky/pre-commit"})
	h.note(Note{ID: "husky9-prepare", Project: "sloeberry", OS: "linux", Lang: "typescript", At: day(2024, 4, 8), Supersedes: "husky8-install",
		Title:   "husky 9: `husky install` is deprecated, the prepare script is just `husky`",
		What:    "After upgrading to husky 9 the prepare step prints `husky - install command is DEPRECATED` and on a fresh clone hooks were ignored again ('not set as executable').",
		Why:     "husky 9 replaced `husky install` with plain `husky`, and hook files no longer source _/husky.sh (9.1 warns those two lines will fail in v10).",
		Where:   "package.json (prepare), .husky/pre-commit",
		Learned: "Replaces the v8 note: prepare = \"husky\", drop the shebang and husky.sh lines from the hooks, keep the +x bit committed.",
		Fix:     "npm pkg set scripts.prepare=husky && yarn install && git update-index --chmod=+x .husky/pre-commit"})
	h.ask("husky9-prepare/1", "sloeberry", "linux", "yarn install", `
➤ YN0000: ┌ Link step
➤ YN0007: │ sloeberry@workspace:. must be built because it never has been before or the last one failed
➤ YN0000: │ sloeberry@workspace:. STDOUT husky - install command is DEPRECATED
➤ YN0000: └ Completed in 4s 102ms
➤ YN0000: · Done with warnings in 9s 881ms
$ git commit -m "chore: bump deps"
hint: The '.husky/pre-commit' hook was ignored because it's not set as executable.
hint: You can disable this warning with §git config advice.ignoredHook false§.
`, "husky9-prepare", "superseded, declared", "husky8-install")
	h.ask("husky9-prepare/2", "sloeberry", "macos", "git commit -m 'feat: offline queue'", `
hint: The '.husky/pre-commit' hook was ignored because it's not set as executable.
hint: You can disable this warning with §git config advice.ignoredHook false§.
[feat/offline-queue 3e1a9c0] feat: offline queue
 4 files changed, 88 insertions(+), 12 deletions(-)
`, "husky9-prepare", "superseded, declared: the old note's own symptom", "husky8-install")

	h.note(Note{ID: "husky-gui-path", Project: "quillmark", OS: "macos", Lang: "typescript", At: day(2024, 10, 29),
		Title:   "pre-commit hook fails from the IDE: npx: command not found (nvm PATH)",
		What:    "Committing from the IDE's git panel fails: .husky/pre-commit: line 1: npx: command not found / husky - pre-commit script failed (code 127). From the terminal it works.",
		Why:     "GUI apps don't read ~/.zshrc, so nvm's node isn't on PATH when git runs the hook.",
		Where:   "~/.config/husky/init.sh",
		Learned: "husky 9 sources ~/.config/husky/init.sh before every hook; load nvm there. Applies to pnpm and lint-staged the same way.",
		Fix:     "mkdir -p ~/.config/husky && printf 'export NVM_DIR=\"$HOME/.nvm\"\\n. \"$NVM_DIR/nvm.sh\"\\n' > ~/.config/husky/init.sh"})
	h.ask("husky-gui-path/1", "quillmark", "macos", "git commit -m 'docs: share dialog'", `
.husky/pre-commit: line 1: pnpm: command not found
husky - pre-commit script failed (code 127)
`, "husky-gui-path", "paraphrased note")
	h.ask("husky-gui-path/2", "quillmark", "linux", "docker compose run --rm dev git commit -m 'wip'", `
.husky/pre-commit: 1: lint-staged: not found
husky - pre-commit script failed (code 127)
`, "", "same text, another cause")
	h.ask("lint-staged-eslint/1", "quillmark", "linux", "git commit -m 'feat(api): export csv'", `
✔ Preparing lint-staged...
❯ Running tasks for staged files...
  ❯ packages/api/**/*.ts — 3 files
    ✖ eslint --fix [FAILED]
    ◼ prettier --write
↓ Skipped because of errors from tasks.
✔ Reverting to original state because of errors...
✔ Cleaning up temporary files...

✖ eslint --fix:

/home/dev/quillmark/packages/api/src/export/csv.ts
  12:7  error  'header' is assigned a value but never used  @typescript-eslint/no-unused-vars

✖ 1 problem (1 error, 0 warnings)

husky - pre-commit script failed (code 1)
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "precommit-python39", Project: "ottertrack", OS: "linux", Lang: "python", At: day(2022, 12, 13),
		Title:   "pre-commit: failed to find interpreter for python_spec='python3.9'",
		What:    "`pre-commit run --all-files` on the new box: An unexpected error has occurred: RuntimeError: failed to find interpreter for Builtin discover of python_spec='python3.9'.",
		Why:     ".pre-commit-config.yaml pins default_language_version: python: python3.9, and the machine only has 3.11.",
		Where:   ".pre-commit-config.yaml",
		Learned: "Use `python: python3` there; hooks don't need a specific minor. Then `pre-commit clean` so stale envs go away.",
		Fix:     "sed -i 's/python: python3.9/python: python3/' .pre-commit-config.yaml && pre-commit clean && pre-commit run --all-files"})
	h.ask("precommit-python39/1", "ottertrack", "macos", "pre-commit run --all-files", `
[INFO] Initializing environment for https://github.com/psf/black.
[INFO] Installing environment for https://github.com/psf/black.
[INFO] Once installed this environment will be reused.
[INFO] This may take a few minutes...
An unexpected error has occurred: CalledProcessError: command: ('/opt/homebrew/opt/pre-commit/libexec/bin/python', '-mvirtualenv', '/Users/maria/.cache/pre-commit/repoq3x8l2ab/py_env-python3.9', '-p', 'python3.9')
return code: 1
stdout:
    RuntimeError: failed to find interpreter for Builtin discover of python_spec='python3.9'
stderr: (none)
Check the log at /Users/maria/.cache/pre-commit/pre-commit.log
`, "precommit-python39", "another tool version's wording")
	h.ask("precommit-modified/1", "ottertrack", "linux", "pre-commit run --all-files", `
check yaml...............................................................Passed
ruff.....................................................................Passed
black....................................................................Failed
- hook id: black
- files were modified by this hook

reformatted src/ottertrack/cli.py

All done! ✨ 🍰 ✨
1 file reformatted, 51 files left unchanged.
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "git-dubious-ownership", Project: "wrenfield", Scope: "global", OS: "windows", Lang: "shell", At: day(2022, 5, 2),
		Title:   "git: detected dubious ownership in repository",
		What:    "After the git 2.36 update every command in D:/src/wrenfield fails: fatal: detected dubious ownership in repository at 'D:/src/wrenfield' ... is owned by 'S-1-5-32-544' but the current user is ...",
		Why:     "CVE-2022-24765 fix: git refuses repos owned by another user. The folder was created from an elevated (Administrators-owned) shell.",
		Where:   "global git config (safe.directory)",
		Learned: "Add the path to safe.directory, or take ownership of the folder. Containers hit the same when the mounted repo's uid differs from the user running git.",
		Fix:     "git config --global --add safe.directory D:/src/wrenfield"})
	h.ask("git-dubious-ownership/1", "bramble", "linux", "docker run --rm -v $PWD:/srv/bramble -w /srv/bramble golang:1.23 go build ./...", `
error obtaining VCS status: exit status 128
	Use -buildvcs=false to disable VCS stamping.
fatal: detected dubious ownership in repository at '/srv/bramble'
To add an exception for this directory, call:

	git config --global --add safe.directory /srv/bramble
`, "git-dubious-ownership", "global note, another project")

	h.note(Note{ID: "git-push-large-file", Project: "fernway", OS: "linux", Lang: "python", At: day(2026, 1, 20),
		Title:   "push rejected: model.onnx exceeds GitHub's 100 MB limit",
		What:    "`git push` → remote: error: File models/ranker.onnx is 142.00 MB; this exceeds GitHub's file size limit of 100.00 MB ... ! [remote rejected] main -> main (pre-receive hook declined).",
		Why:     "The exported model was committed as a normal blob three commits back; deleting it in a new commit doesn't help, it's still in history.",
		Where:   "models/, .gitattributes",
		Learned: "git lfs migrate import rewrites the unpushed commits to store *.onnx in LFS; afterwards .gitattributes tracks it for the future.",
		Fix:     "git lfs migrate import --include='*.onnx' --include-ref=refs/heads/main && git push"})
	h.ask("git-push-large-file/1", "fernway", "linux", "git push origin main", `
Enumerating objects: 31, done.
Counting objects: 100% (31/31), done.
Writing objects: 100% (22/22), 131.88 MiB | 11.20 MiB/s, done.
Total 22 (delta 9), reused 0 (delta 0), pack-reused 0
remote: error: Trace: 2f4c7e3b8d1a09b6f5e2c4d7a8b9c0d1
remote: error: See https://gh.io/lfs for more information.
remote: error: File models/reranker-v2.onnx is 188.31 MB; this exceeds GitHub's file size limit of 100.00 MB
remote: error: GH001: Large files detected. You may want to try Git Large File Storage - https://git-lfs.github.com.
To github.com:fernway/fernway.git
 ! [remote rejected] main -> main (pre-receive hook declined)
error: failed to push some refs to 'github.com:fernway/fernway.git'
`, "git-push-large-file", "stored: the tool's own wording")
	h.ask("git-push-rpc/1", "fernway", "linux", "git push origin main", `
Enumerating objects: 4821, done.
Writing objects: 100% (4821/4821), 1.12 GiB | 38.00 MiB/s, done.
error: RPC failed; HTTP 400 curl 22 The requested URL returned error: 400
send-pack: unexpected disconnect while reading sideband packet
fatal: the remote end hung up unexpectedly
Everything up-to-date
`, "", "never stored: another failure")
}
