package replay

import "time"

// git and GitHub Actions: divergent pulls, LFS pointers, hooks run from
// GUI clients, submodules, dubious ownership on each system, SSH keys
// and host keys, step outputs, workflow permissions.
func unseen5Git(h *hand) {
	h.note(Note{ID: "pull-divergent", Project: "bramble-docs", Scope: "global", OS: "linux", Lang: "shell", At: day(2022, time.March, 29),
		Title:   "git pull refuses: divergent branches",
		What:    "`fatal: Need to specify how to reconcile divergent branches.`",
		Why:     "git 2.27+ wants pull.rebase or pull.ff set when local and remote both have new commits.",
		Learned: "git config --global pull.rebase true (what I want everywhere); per pull: git pull --rebase.",
		Fix:     "git config --global pull.rebase true"})
	h.ask("pull-divergent/1", "ledgerline", "darwin", "git pull", `hint: You have divergent branches and need to specify how to reconcile them.
hint: You can do so by running one of the following commands sometime before
hint: your next pull:
hint:
hint:   git config pull.rebase false  # merge
hint:   git config pull.rebase true   # rebase
hint:   git config pull.ff only       # fast-forward only
hint:
hint: You can replace "git config" with "git config --global" to set a default
hint: preference for all repositories. You can also pass --rebase, --no-rebase,
hint: or --ff-only on the command line to override the configured default per
hint: invocation.
fatal: Need to specify how to reconcile divergent branches.`, "pull-divergent", u5Global)

	h.note(Note{ID: "lfs-pointers", Project: "nimbus-etl", OS: "linux", Lang: "shell", At: day(2023, time.May, 9),
		Title:   "parquet fixtures committed without LFS",
		What:    "after clone: Encountered 3 file(s) that should have been pointers, but weren't: tests/fixtures/orders_2023.parquet …",
		Why:     "someone committed fixtures from a machine without git-lfs installed, so the .gitattributes rule didn't apply and the blobs went in raw.",
		Learned: "git lfs migrate import --no-rewrite <paths> makes a new commit that turns them into pointers (no history rewrite). Everyone needs git lfs install once.",
		Fix:     "git lfs migrate import --no-rewrite tests/fixtures/*.parquet"})
	h.ask("lfs-pointers/1", "nimbus-etl", "linux", "git status", `On branch main
Your branch is up to date with 'origin/main'.

Encountered 2 file(s) that should have been pointers, but weren't:
	tests/fixtures/customers_small.parquet
	tests/fixtures/events_2024q1.parquet

nothing to commit, working tree clean`, "lfs-pointers", u5Stored)
	h.ask("lfs-quota", "nimbus-etl", "linux", "git lfs pull", `batch response: This repository is over its data quota. Account responsible for LFS bandwidth should purchase more data packs to restore access.
error: failed to fetch some objects from 'https://github.com/nimbus-data/nimbus-etl.git/info/lfs'`, "", u5Tool)

	h.note(Note{ID: "husky-npx", Project: "tinsel-ui", OS: "darwin", Lang: "shell", At: day(2024, time.October, 22),
		Title:   "commits from Fork/GitHub Desktop fail the husky hook",
		What:    ".husky/pre-commit: line 4: npx: command not found — only from the GUI client, fine in the terminal",
		Why:     "GUI apps don't read .zshrc, so nvm's node isn't on PATH when the hook runs.",
		Learned: "husky 9 sources ~/.config/husky/init.sh before each hook; put the nvm loading lines there (export NVM_DIR=...; . \"$NVM_DIR/nvm.sh\"). Don't hardcode node paths in the hook itself.",
		Where:   ".husky/pre-commit, ~/.config/husky/init.sh"})
	h.ask("husky-npx/1", "tinsel-ui", "darwin", "git commit -m \"cart: keep quantity on reload\"", `.husky/pre-commit: line 2: npx: command not found
husky - pre-commit script failed (code 127)`, "husky-npx", u5Stored)

	h.note(Note{ID: "submodule-url", Project: "bramble-docs", OS: "linux", Lang: "shell", At: day(2023, time.October, 31),
		Title:   "theme submodule half-removed: no url in .gitmodules",
		What:    "checkout in CI: fatal: No url found for submodule path 'themes/hugo-book' in .gitmodules",
		Why:     "the theme was removed from .gitmodules but the gitlink (mode 160000) stayed in the index.",
		Learned: "git rm --cached themes/hugo-book and commit (we vendor the theme now). git ls-files -s | grep 160000 shows leftover gitlinks.",
		Fix:     "git rm --cached themes/hugo-book"})
	h.ask("submodule-url/1", "bramble-docs", "linux", "git submodule update --init --recursive", `Submodule 'vendor/mermaid-lite' (https://github.com/bramble-docs/mermaid-lite.git) registered for path 'vendor/mermaid-lite'
fatal: No url found for submodule path 'themes/hugo-book' in .gitmodules
Error: The process '/usr/bin/git' failed with exit code 128`, "submodule-url", u5Stored)
	h.ask("submodule-ssh", "bramble-docs", "linux", "git submodule update --init", `Cloning into '/home/runner/work/bramble-docs/bramble-docs/assets/brand'...
git@github.com: Permission denied (publickey).
fatal: Could not read from remote repository.

Please make sure you have the correct access rights
and the repository exists.
fatal: clone of 'git@github.com:bramble-docs/brand-assets.git' into submodule path '/home/runner/work/bramble-docs/bramble-docs/assets/brand' failed
Failed to clone 'assets/brand'. Retry scheduled`, "", u5NeverObj)

	h.note(Note{ID: "rebase-autostash", Project: "fernweh-app", Scope: "global", OS: "darwin", Lang: "shell", At: day(2025, time.April, 15),
		Title:   "rebase refuses with a dirty tree",
		What:    "error: cannot pull with rebase: You have unstaged changes. / error: cannot rebase: You have unstaged changes.",
		Why:     "rebase needs a clean worktree",
		Learned: "git config --global rebase.autoStash true — stashes and re-applies around every rebase. One-off: git pull --rebase --autostash.",
		Fix:     "git config --global rebase.autoStash true"})
	h.ask("rebase-autostash/1", "orchard-api", "linux", "git rebase origin/main", `error: cannot rebase: You have unstaged changes.
error: Please commit or stash them.`, "rebase-autostash", u5Global)

	h.note(Note{ID: "dubious-container", Project: "gridwatch", Scope: "global", OS: "linux", Lang: "shell", At: day(2022, time.April, 20),
		Title:   "git in a container: detected dubious ownership",
		What:    "fatal: detected dubious ownership in repository at '/workspace' (since git 2.35.2)",
		Why:     "the repo is bind-mounted with the host user's uid while git in the container runs as root (or another uid).",
		Learned: "Run the container as the host user (docker run --user $(id -u):$(id -g)); where that's not possible, git config --global --add safe.directory /workspace in the image. In GitHub Actions containers set safe.directory to $GITHUB_WORKSPACE.",
		Fix:     "git config --global --add safe.directory /workspace"})
	h.note(Note{ID: "dubious-windows", Project: "harborview", Scope: "global", OS: "windows", Lang: "shell", At: day(2024, time.June, 4),
		Title:   "Windows: dubious ownership on D: drive repos",
		What:    "fatal: detected dubious ownership in repository at 'D:/src/harborview' — 'D:/src/harborview' is owned by: 'BUILTIN/Administrators' but the current user is: ...",
		Why:     "cloned from an elevated terminal once, so the folder belongs to Administrators; also happens for repos on FAT32/exFAT USB drives which have no owner at all.",
		Learned: "takeown /f D:\\src\\harborview /r /d y fixes ownership for the NTFS case. For exFAT there is nothing to take: add the path to safe.directory (forward slashes, exactly as git prints it). Stop cloning from admin shells.",
		Fix:     `takeown /f D:\src\harborview /r /d y`})
	h.ask("dubious-container/1", "pacer-cli", "linux", "docker run --rm -v $PWD:/src -w /src rust:1.82 cargo build", `error: failed to load source for dependency §pacer-core§

Caused by:
  Unable to update /src/crates/pacer-core

Caused by:
  failed to get git revision: fatal: detected dubious ownership in repository at '/src'
  To add an exception for this directory, call:

  	git config --global --add safe.directory /src`, "dubious-container", u5Twin)
	h.ask("dubious-windows/1", "tinsel-ui", "windows", "git status", u5crlf(`fatal: detected dubious ownership in repository at 'E:/src/tinsel-ui'
'E:/src/tinsel-ui' is owned by:
	'S-1-5-32-544'
but the current user is:
	'DESKTOP-7QF2K1L/nora' 'S-1-5-21-1004336348-1177238915-682003330-1001'
To add an exception for this directory, call:

	git config --global --add safe.directory E:/src/tinsel-ui`), "dubious-windows", u5Twin)

	h.note(Note{ID: "ssh-keychain", Project: "ledgerline", Scope: "global", OS: "darwin", Lang: "shell", At: day(2023, time.November, 2),
		Title:   "macOS forgets my ssh key after reboot",
		What:    "git push → git@github.com: Permission denied (publickey). ssh-add -l says The agent has no identities.",
		Why:     "the key has a passphrase and macOS's agent doesn't load keys at login by itself.",
		Learned: "ssh-add --apple-use-keychain ~/.ssh/id_ed25519 once, and in ~/.ssh/config under Host *: AddKeysToAgent yes, UseKeychain yes, IdentityFile ~/.ssh/id_ed25519.",
		Fix:     "ssh-add --apple-use-keychain ~/.ssh/id_ed25519"})
	h.note(Note{ID: "deploy-key", Project: "kiln-deploy", OS: "linux", Lang: "yaml", At: day(2024, time.January, 23),
		Title:   "deploy workflow can't clone the config repo over ssh",
		What:    "Actions step 'fetch env config': git@github.com: Permission denied (publickey).",
		Why:     "the deploy key's public half was added to kiln-deploy instead of kiln-env-config (deploy keys are per repo), and the private key is loaded by webfactory/ssh-agent from secrets.ENV_CONFIG_KEY.",
		Learned: "Public key → Settings → Deploy keys of the repo being cloned, read-only. One key per repo; GitHub refuses the same key on two repos.",
		Where:   ".github/workflows/deploy.yml"})
	h.ask("ssh-keychain/1", "copperkettle", "darwin", "git push -u origin feat/refunds", `git@github.com: Permission denied (publickey).
fatal: Could not read from remote repository.

Please make sure you have the correct access rights
and the repository exists.`, "ssh-keychain", u5Cause)
	h.ask("deploy-key/1", "kiln-deploy", "linux", "git clone git@github.com:kiln-labs/kiln-env-config.git env", `Run git clone git@github.com:kiln-labs/kiln-env-config.git env
Cloning into 'env'...
Warning: Permanently added 'github.com' (ED25519) to the list of known hosts.
git@github.com: Permission denied (publickey).
fatal: Could not read from remote repository.

Please make sure you have the correct access rights
and the repository exists.
Error: Process completed with exit code 128.`, "deploy-key", u5Cause)

	h.note(Note{ID: "gh-hostkey", Project: "orchard-api", Scope: "global", OS: "linux", Lang: "shell", At: day(2023, time.March, 24),
		Title:   "github.com RSA host key changed (GitHub rotated it)",
		What:    "```\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n```\nfor github.com, then Host key verification failed.",
		Why:     "GitHub replaced its RSA host key on 2023-03-24 after it leaked; nothing wrong on our side.",
		Learned: "ssh-keygen -R github.com, then add the new keys from GitHub's published list (or the api.github.com/meta endpoint) rather than accepting whatever the first connection says. Baked-in known_hosts in CI images need the same fix.",
		Fix:     "ssh-keygen -R github.com && curl -fsSL https://api.github.com/meta | jq -r '.ssh_keys[]' | sed 's/^/github.com /' >> ~/.ssh/known_hosts"})
	h.ask("gh-hostkey/1", "quillmate", "linux", "git fetch origin", `@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @
@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!
Someone could be eavesdropping on you right now (man-in-the-middle attack)!
It is also possible that a host key has just been changed.
The fingerprint for the RSA key sent by the remote host is
SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s.
Please contact your system administrator.
Add correct host key in /home/ci/.ssh/known_hosts to get rid of this message.
Offending RSA key in /home/ci/.ssh/known_hosts:3
  remove with:
  ssh-keygen -f "/home/ci/.ssh/known_hosts" -R "github.com"
Host key for github.com has changed and you have requested strict checking.
Host key verification failed.
fatal: Could not read from remote repository.`, "gh-hostkey", u5Global)
	h.ask("hostkey-deploybox", "kiln-deploy", "linux", "ssh deploy@10.20.0.14 'systemctl restart kiln-web'", `@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @
@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!
...
The fingerprint for the ED25519 key sent by the remote host is
SHA256:8c1Jm7f2QwXyZ0aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT.
Offending ED25519 key in /home/runner/.ssh/known_hosts:1
Host key for 10.20.0.14 has changed and you have requested strict checking.
Host key verification failed.`, "", u5NeverObj)

	h.note(Note{ID: "set-output", Project: "kiln-deploy", OS: "linux", Lang: "yaml", At: day(2022, time.March, 8),
		Title:   "image tag empty in the push step",
		What:    "push step: invalid reference format — the tag after ghcr.io/kiln-labs/deploy: was empty",
		Why:     "the meta step did echo \"tag=$TAG\", which is just a log line; outputs need the workflow command.",
		Learned: "echo \"::set-output name=tag::$TAG\" in the meta step, then ${{ steps.meta.outputs.tag }} works.",
		Where:   ".github/workflows/release.yml"})
	h.note(Note{ID: "github-output", Project: "kiln-deploy", OS: "linux", Lang: "yaml", At: day(2023, time.July, 18), ProseOver: "set-output",
		Title:   "step outputs: write to $GITHUB_OUTPUT",
		What:    "Empty tag again → `invalid reference format` in the docker push, and the annotations say The `set-output` command is deprecated.",
		Why:     "GitHub has switched the ::set-output workflow command off; it only warns and sets nothing now.",
		Learned: "What I wrote down last year (::set-output) is dead. The way now is echo \"tag=$TAG\" >> \"$GITHUB_OUTPUT\" (same for save-state → $GITHUB_STATE). Grepped all workflows for set-output.",
		Where:   ".github/workflows/*.yml"})
	h.ask("github-output/1", "kiln-deploy", "linux", "docker push ghcr.io/kiln-labs/deploy:${{ steps.meta.outputs.tag }}", `Warning: The §set-output§ command is deprecated and will be disabled soon. Please upgrade to using Environment Files. For more information see: https://github.blog/changelog/2022-10-11-github-actions-deprecating-save-state-and-set-output-commands/
Run docker push ghcr.io/kiln-labs/deploy:
invalid reference format
Error: Process completed with exit code 1.`, "github-output", u5Prose, "set-output")

	h.note(Note{ID: "gh-perms", Project: "kiln-deploy", OS: "linux", Lang: "yaml", At: day(2024, time.May, 28),
		Title:   "plan-comment step: Resource not accessible by integration",
		What:    "actions/github-script posting the terraform plan as a PR comment → HttpError: Resource not accessible by integration (403)",
		Why:     "the org default GITHUB_TOKEN permission went read-only; the job never asked for write.",
		Learned: "permissions: { contents: read, pull-requests: write } on that job. PRs from forks get a read-only token regardless — those need pull_request_target, which we don't want.",
		Where:   ".github/workflows/plan.yml"})
	h.ask("gh-perms/1", "kiln-deploy", "linux", "node .github/scripts/comment-plan.js", `RequestError [HttpError]: Resource not accessible by integration
    at /home/runner/work/_actions/actions/github-script/v7/dist/index.js:9537:21
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    at async eval (eval at callAsyncFunction (/home/runner/work/_actions/actions/github-script/v7/dist/index.js:35424:16), <anonymous>:12:1) {
  status: 403,
  response: {
    url: 'https://api.github.com/repos/kiln-labs/kiln-deploy/issues/412/comments',
    status: 403,
    data: {
      message: 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
      status: '403'
    }
  }
}
Error: Unhandled error: HttpError: Resource not accessible by integration`, "gh-perms", u5Stored)
	h.ask("gh-perms-bramble", "bramble-docs", "linux", "gh pr comment 88 --body-file preview.md", `GraphQL: Resource not accessible by integration (addComment)
Error: Process completed with exit code 1.`, "", u5Other)
	h.ask("gh-action-typo", "quillmate", "linux", "uses: actions/setup-pyhton@v5", `Error: Unable to resolve action §actions/setup-pyhton@v5§, repository not found`, "", u5NeverFail)
	h.ask("refspec-main", "kiln-deploy", "linux", "git push origin main", `error: src refspec main does not match any
error: failed to push some refs to 'github.com:kiln-labs/kiln-hooks.git'`, "", u5NeverFail)
}
