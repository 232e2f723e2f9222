package replay

// unseen7PkgJS: npm, pnpm, Yarn Berry and Bun, and their lockfiles.
func unseen7PkgJS(h *hand) {
	h.note(Note{ID: "npm-eresolve-docusaurus", Project: "cinderdocs", OS: "linux", Lang: "javascript", At: day(2022, 8, 9),
		Title:   "npm ERESOLVE: docusaurus beta wants react 17, we're on 18",
		What:    "`npm install` fails with code ERESOLVE, unable to resolve dependency tree: Could not resolve dependency: peer react@\"^16.8.4 || ^17.0.0\" from @docusaurus/core@2.0.0-beta.21.",
		Why:     "npm 7+ enforces peer deps. The docusaurus beta we were pinned to declares react 16/17 peers; the react 18 bump came in a separate PR.",
		Where:   "package.json",
		Learned: "Upgraded docusaurus to 2.0.1, which supports react 18, instead of --legacy-peer-deps (that just hides the next conflict and the lockfile drifts).",
		Fix:     "npm install @docusaurus/core@2.0.1 @docusaurus/preset-classic@2.0.1"})
	h.ask("npm-eresolve-docusaurus/1", "cinderdocs", "linux", "npm install", `
npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR! 
npm ERR! While resolving: cinderdocs@2.1.0
npm ERR! Found: react@18.2.0
npm ERR! node_modules/react
npm ERR!   react@"^18.2.0" from the root project
npm ERR! 
npm ERR! Could not resolve dependency:
npm ERR! peer react@"^16.8.4 || ^17.0.0" from @docusaurus/core@2.0.0-beta.21
npm ERR! node_modules/@docusaurus/core
npm ERR!   @docusaurus/core@"2.0.0-beta.21" from the root project
npm ERR! 
npm ERR! Fix the upstream dependency conflict, or retry
npm ERR! this command with --force, or --legacy-peer-deps
npm ERR! to accept an incorrect (and potentially broken) dependency resolution.
npm ERR! 
npm ERR! See /home/dev/.npm/eresolve-report.txt for a full report.
`, "npm-eresolve-docusaurus", "stored: the tool's own wording")
	h.ask("npm-eresolve-hooks/1", "cinderdocs", "macos", "npm install -D @testing-library/react-hooks", `
npm error code ERESOLVE
npm error ERESOLVE unable to resolve dependency tree
npm error
npm error While resolving: cinderdocs@3.0.2
npm error Found: react@18.3.1
npm error node_modules/react
npm error   react@"^18.3.1" from the root project
npm error
npm error Could not resolve dependency:
npm error peer react@"^16.9.0 || ^17.0.0" from @testing-library/react-hooks@8.0.1
npm error node_modules/@testing-library/react-hooks
npm error   dev @testing-library/react-hooks@"*" from the root project
npm error
npm error Fix the upstream dependency conflict, or retry
npm error this command with --force or --legacy-peer-deps
npm error to accept an incorrect (and potentially broken) dependency resolution.
`, "", "never stored: same kind, another object")

	h.note(Note{ID: "npm-ci-out-of-sync", Project: "cinderdocs", OS: "windows", Lang: "javascript", At: day(2023, 5, 4),
		Title:   "npm ci: package.json and package-lock.json are not in sync",
		What:    "CI's `npm ci` refused: `npm ci` can only install packages when your package.json and package-lock.json are in sync ... Missing: @algolia/client-search@4.17.0 from lock file.",
		Why:     "I bumped @docsearch/react by editing package.json on the Windows box and committed without running npm install, so the lock never got the new transitive deps.",
		Where:   "package.json, package-lock.json",
		Learned: "Always let npm write the lock. Also check `npm -v` against engines: npm 8 and 9+ write different lockfileVersion and the diff looks like this too.",
		Fix:     "npm install && git add package-lock.json"})
	h.ask("npm-ci-out-of-sync/1", "cinderdocs", "linux", "npm ci", `
npm error code EUSAGE
npm error
npm error §npm ci§ can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with §npm install§ before continuing.
npm error
npm error Missing: typescript@5.4.5 from lock file
npm error Invalid: lock file's @types/node@20.12.7 does not satisfy @types/node@22.5.0
npm error
npm error Clean install a project
npm error
npm error Usage:
npm error npm ci
npm error
npm error Options:
npm error [--install-strategy <hoisted|nested|shallow|linked>] [--legacy-bundling]
...
npm error A complete log of this run can be found in: /home/dev/.npm/_logs/2024-09-02T08_11_40_118Z-debug-0.log
`, "npm-ci-out-of-sync", "another tool version's wording")

	// pnpm: a bad fix declared replaced; the same failure in another
	// project; another error of the tool, and that error about another
	// package.
	h.note(Note{ID: "pnpm-no-frozen", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2023, 2, 6),
		Title:   "ERR_PNPM_OUTDATED_LOCKFILE blocks CI",
		What:    "`pnpm install --frozen-lockfile` fails on PRs: ERR_PNPM_OUTDATED_LOCKFILE Cannot install with \"frozen-lockfile\" because pnpm-lock.yaml is not up to date with packages/ui/package.json.",
		Why:     "People edit package.json ranges and push without reinstalling.",
		Where:   ".github/workflows/ci.yml",
		Learned: "CI now installs without the frozen flag so a stale lock doesn't block merges.",
		Fix:     "pnpm install --no-frozen-lockfile"})
	h.note(Note{ID: "pnpm-lock-corepack", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2024, 1, 22), Supersedes: "pnpm-no-frozen",
		Title:   "Stop using --no-frozen-lockfile: regenerate the lock with the pinned pnpm",
		What:    "ERR_PNPM_OUTDATED_LOCKFILE again on a renovate PR. The --no-frozen-lockfile workaround from last year let CI resolve versions nobody had tested, and hid that half the team was on pnpm 7 writing lockfileVersion 5.4 while CI ran pnpm 8.",
		Why:     "A lock written by another pnpm major doesn't match the specifiers the CI pnpm computes, so frozen install fails even when nobody touched package.json.",
		Where:   "package.json (packageManager), .github/workflows/ci.yml",
		Learned: "packageManager: pnpm@8.14.1 plus `corepack enable` everywhere; regenerate the lock with that pnpm and keep --frozen-lockfile in CI. Replaces the old workaround.",
		Fix:     "corepack enable && corepack prepare pnpm@8.14.1 --activate && pnpm install && git add pnpm-lock.yaml"})
	h.ask("pnpm-lock-corepack/1", "quillmark", "linux", "pnpm install --frozen-lockfile", `
Scope: all 7 workspace projects
 ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/apps/web/package.json

Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"

    Failure reason:
    specifiers in the lockfile ({"@tanstack/react-query":"^5.17.9","react":"^18.2.0"}) don't match specs in package.json ({"@tanstack/react-query":"^5.18.0","react":"^18.2.0"})
Error: Process completed with exit code 1.
`, "pnpm-lock-corepack", "superseded, declared", "pnpm-no-frozen")
	h.ask("pnpm-lock-corepack/2", "quillmark", "macos", "pnpm install --frozen-lockfile", `
 WARN  Ignoring not compatible lockfile at /Users/maria/code/quillmark/pnpm-lock.yaml
 ERR_PNPM_LOCKFILE_CONFIG_MISMATCH  Cannot proceed with the frozen installation. The current "settings.autoInstallPeers" configuration doesn't match the value found in the lockfile

Update your lockfile using "pnpm install --no-frozen-lockfile"
`, "", "never stored: same tool, another error")
	h.ask("pnpm-lock-corepack/3", "saltbox", "linux", "pnpm install --frozen-lockfile", `
Lockfile is up to date, resolution step is skipped
 ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/package.json

Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"

    Failure reason:
    specifiers in the lockfile ({"vite":"^5.4.0","laravel-vite-plugin":"^1.0.5"}) don't match specs in package.json ({"vite":"^6.0.3","laravel-vite-plugin":"^1.1.1"})
`, "", "another project's project note")

	h.note(Note{ID: "pnpm-workspace-protocol", Project: "quillmark", OS: "macos", Lang: "typescript", At: day(2024, 6, 3),
		Title:   "pnpm 9 fetches our own @quillmark/ui from the registry — use workspace:*",
		What:    "After upgrading to pnpm 9, install in apps/admin fails: ERR_PNPM_NO_MATCHING_VERSION No matching version found for @quillmark/ui@^0.5.0 while fetching it from https://registry.npmjs.org/.",
		Why:     "link-workspace-packages defaults to false since pnpm 9, so a plain semver range no longer links the local package; it goes to npm, where a squatter holds 0.0.1.",
		Where:   "apps/admin/package.json, apps/web/package.json",
		Learned: "Reference workspace packages with the workspace: protocol, always. pnpm rewrites it to the real version on publish.",
		Fix:     "pnpm --filter @quillmark/admin add @quillmark/ui@workspace:*"})
	h.ask("pnpm-workspace-protocol/1", "quillmark", "linux", "pnpm install", `
Scope: all 7 workspace projects
Progress: resolved 412, reused 398, downloaded 0, added 0
 ERR_PNPM_NO_MATCHING_VERSION  No matching version found for @quillmark/ui@^0.6.1 while fetching it from https://registry.npmjs.org/

This error happened while installing a direct dependency of /home/dev/quillmark/apps/web

The latest release of @quillmark/ui is "0.0.1".

If you need the full list of all 1 published versions run "$ pnpm view @quillmark/ui versions".
`, "pnpm-workspace-protocol", "stored: the tool's own wording")
	h.ask("pnpm-no-matching/1", "quillmark", "linux", "pnpm add -D @types/react@19.3.0", `
 ERR_PNPM_NO_MATCHING_VERSION  No matching version found for @types/react@19.3.0 while fetching it from https://registry.npmjs.org/

This error happened while installing a direct dependency of /home/dev/quillmark/apps/web

The latest release of @types/react is "19.1.2".

Other releases are:
  * ts5.0: 19.1.2
  * ts5.1: 19.1.2
`, "", "never stored: same kind, another object")

	h.note(Note{ID: "yarn-immutable-classic", Project: "sloeberry", OS: "macos", Lang: "typescript", At: day(2023, 7, 11),
		Title:   "yarn 3 YN0028 in CI: the lockfile would have been modified",
		What:    "`yarn install --immutable` → YN0028: The lockfile would have been modified by this install, which is explicitly forbidden.",
		Why:     "A teammate's global yarn 1 ignored .yarnrc.yml's yarnPath and wrote the new dependency into yarn.lock in classic format; berry then wants to rewrite those entries.",
		Where:   "yarn.lock, .yarnrc.yml, package.json (packageManager)",
		Learned: "Check `yarn --version` prints 3.x in the repo; corepack enable fixes it for everyone. Rerun yarn install to rewrite the lock and commit it.",
		Fix:     "corepack enable && yarn install && git add yarn.lock"})
	h.ask("yarn-immutable-classic/1", "sloeberry", "linux", "yarn install --immutable", `
➤ YN0000: · Yarn 4.1.1
➤ YN0000: ┌ Resolution step
➤ YN0085: │ + react-native-mmkv@npm:2.12.2
➤ YN0000: └ Completed in 1s 204ms
➤ YN0000: ┌ Post-resolution validation
➤ YN0028: │ -react-native-mmkv@npm:2.11.0:
➤ YN0028: │ +react-native-mmkv@npm:2.12.2:
➤ YN0028: │ The lockfile would have been modified by this install, which is explicitly forbidden.
➤ YN0000: └ Completed
➤ YN0000: · Failed with errors in 1s 260ms
Error: Process completed with exit code 1.
`, "yarn-immutable-classic", "another tool version's wording")

	h.note(Note{ID: "yarn-patch-hunk", Project: "sloeberry", OS: "linux", Lang: "typescript", At: day(2024, 5, 14),
		Title:   "yarn patch for react-native no longer applies after the RN upgrade",
		What:    "Upgraded react-native 0.73 → 0.74; install fails at link step: YN0001: Error: react-native@patch:...: Cannot apply hunk #1 (set enableInlineHunks for details).",
		Why:     "Our .yarn/patches/react-native-npm-0.73.4 patch targets lines that moved in 0.74; the resolution in package.json still points at the old patch file.",
		Where:   ".yarn/patches/, package.json resolutions",
		Learned: "Check whether the patch is still needed (the Android ScrollView fix landed upstream in 0.74). If it is, recreate it with yarn patch on the new version and patch-commit.",
		Fix:     "yarn patch react-native@0.74.1 && yarn patch-commit -s <printed-folder>"})
	h.ask("yarn-patch-hunk/1", "sloeberry", "macos", "yarn install", `
➤ YN0000: ┌ Fetch step
➤ YN0001: │ Error: react-native@patch:react-native@npm%3A0.74.3#~/.yarn/patches/react-native-npm-0.73.4-8f2b1c9e0a.patch::version=0.74.3&hash=1d4c2e&locator=sloeberry%40workspace%3A.: Cannot apply hunk #1 (set enableInlineHunks for details)
    at Jt (/Users/maria/code/sloeberry/.yarn/releases/yarn-4.1.1.cjs:210:8321)
    at async Promise.allSettled (index 0)
➤ YN0000: └ Completed in 3s 91ms
➤ YN0000: · Failed with errors in 4s 17ms
`, "yarn-patch-hunk", "same tool, another error")

	h.note(Note{ID: "bun-text-lockfile", Project: "pebblecast", OS: "linux", Lang: "typescript", At: day(2025, 2, 18),
		Title:   "bun install --frozen-lockfile: lockfile had changes, but lockfile is frozen",
		What:    "CI: error: lockfile had changes, but lockfile is frozen. Locally fine. The repo had both bun.lockb and a new bun.lock.",
		Why:     "Bun 1.2 writes the text lockfile bun.lock; my local 1.2 install created it, while CI (setup-bun pinned to 1.1.38) still read bun.lockb, which was stale.",
		Where:   "bun.lockb, bun.lock, .github/workflows/ci.yml (bun-version)",
		Learned: "Migrate once: save the text lockfile, delete bun.lockb, bump setup-bun to 1.2.x so CI and laptops agree.",
		Fix:     "bun install --save-text-lockfile && git rm bun.lockb && git add bun.lock"})
	h.ask("bun-text-lockfile/1", "pebblecast", "linux", "bun install --frozen-lockfile", `
bun install v1.1.38 (bf2f153f)
Resolving dependencies
Resolved, downloaded and extracted [12]
error: lockfile had changes, but lockfile is frozen
note: try re-running without --frozen-lockfile and commit the updated lockfile
Error: Process completed with exit code 1.
`, "bun-text-lockfile", "stored: the tool's own wording")
	h.ask("bun-workspace-module/1", "pebblecast", "macos", "bun run apps/api/src/index.ts", `
error: Cannot find module "@pebblecast/shared" from "/Users/maria/code/pebblecast/apps/api/src/index.ts"

Bun v1.2.4 (macOS arm64)
`, "", "never stored: same tool, another error")
}
