package replay

// unseen7LintJS: ESLint, Prettier and tsc in TypeScript repositories.
func unseen7LintJS(h *hand) {
	// ESLint: two notes on one tool, two errors, and a third error no one
	// wrote down.
	h.note(Note{ID: "eslint9-flat-config", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2024, 5, 2),
		Title:   "ESLint 9 ignores .eslintrc.cjs, wants eslint.config.js",
		What:    "Renovate bumped eslint to 9.2.0 and `pnpm lint` in packages/web fails before linting anything: \"ESLint couldn't find an eslint.config.(js|mjs|cjs) file.\" Our config is still the old .eslintrc.cjs.",
		Why:     "ESLint 9 made flat config the default; it no longer looks for .eslintrc.* unless ESLINT_USE_FLAT_CONFIG=false is set (and that escape hatch goes away in v10).",
		Where:   "packages/web/.eslintrc.cjs, packages/web/package.json lint script",
		Learned: "Ran the official migrator, which writes eslint.config.mjs and wraps the plugins that aren't flat-ready in FlatCompat. It needs @eslint/js and @eslint/eslintrc as devDeps. Delete .eslintrc.cjs afterwards or people keep editing the dead file.",
		Fix:     "npx @eslint/migrate-config .eslintrc.cjs && pnpm add -D @eslint/js @eslint/eslintrc globals"})
	h.note(Note{ID: "eslint-tsconfig-include", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2024, 8, 19),
		Title:   "typescript-eslint: file not included in parserOptions.project",
		What:    "After turning on the type-aware rules, lint breaks on files outside src: `Parsing error: ESLint was configured to run on <tsconfigRootDir>/vite.config.ts using parserOptions.project ... However, that TSConfig does not include this file`.",
		Why:     "Typed linting needs every linted file to belong to a TS program; tsconfig.json only includes src/**, so root config files and scripts/ aren't in any project.",
		Where:   "packages/*/eslint.config.mjs (languageOptions.parserOptions)",
		Learned: "Switched to `parserOptions.projectService: true` (typescript-eslint v8) with allowDefaultProject for the stray *.config.ts files. The older alternative is a tsconfig.eslint.json that includes everything.",
		Fix:     ""})
	h.ask("eslint9-flat-config/1", "quillmark", "linux", "pnpm --filter @quillmark/web lint", `
> @quillmark/web@0.14.0 lint /home/dev/quillmark/packages/web
> eslint . --max-warnings 0


Oops! Something went wrong! :(

ESLint: 9.4.0

ESLint couldn't find an eslint.config.(js|mjs|cjs) file.

From ESLint v9.0.0, the default configuration file is now eslint.config.js.
If you are using a .eslintrc.* file, please follow the migration guide
to update your configuration file to the new format:

https://eslint.org/docs/latest/use/configure/migration-guide

If you still have problems after following the migration guide, please stop by
https://eslint.org/chat/help to chat with the team.

/home/dev/quillmark/packages/web:
 ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @quillmark/web@0.14.0 lint: §eslint . --max-warnings 0§
Exit status 2
`, "eslint9-flat-config", "stored: the tool's own wording")
	h.ask("eslint9-flat-config/2", "cinderdocs", "macos", "npm run lint", `
> cinderdocs@2.3.0 lint
> eslint "src/**/*.{js,jsx}"


Oops! Something went wrong! :(

ESLint: 9.9.1

ESLint couldn't find an eslint.config.(js|mjs|cjs) file.

From ESLint v9.0.0, the default configuration file is now eslint.config.js.
If you are using a .eslintrc.* file, please follow the migration guide
to update your configuration file to the new format:

https://eslint.org/docs/latest/use/configure/migration-guide
`, "", "another project's project note")
	h.ask("eslint-tsconfig-include/1", "quillmark", "linux", "pnpm --filter @quillmark/api lint", `
/home/dev/quillmark/packages/api/scripts/seed-db.ts
  0:0  error  Parsing error: ESLint was configured to run on §<tsconfigRootDir>/scripts/seed-db.ts§ using §parserOptions.project§: <tsconfigRootDir>/tsconfig.json
However, that TSConfig does not include this file. Either:
- Change ESLint's list of included files to not include this file
- Change that TSConfig to include this file
- Create a new TSConfig that includes this file and include it in your parserOptions.project
See the typescript-eslint docs for more info: https://typescript-eslint.io/troubleshooting/typed-linting#i-get-errors-telling-me-eslint-was-configured-to-run--however-that-tsconfig-does-not--none-of-those-tsconfigs-include-this-file

✖ 1 problem (1 error, 0 warnings)

/home/dev/quillmark/packages/api:
 ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @quillmark/api@0.9.1 lint: §eslint .§
Exit status 1
`, "eslint-tsconfig-include", "same tool, another error")
	h.ask("eslint-react-hooks/1", "quillmark", "linux", "pnpm lint", `
/home/dev/quillmark/packages/web/src/hooks/useDraft.ts
  41:6  error  Definition for rule 'react-hooks/exhaustive-deps' was not found  react-hooks/exhaustive-deps

/home/dev/quillmark/packages/web/src/routes/Editor.tsx
  88:5  error  Definition for rule 'react-hooks/exhaustive-deps' was not found  react-hooks/exhaustive-deps

✖ 2 problems (2 errors, 0 warnings)

 ELIFECYCLE  Command failed with exit code 1.
`, "", "never stored: same tool, another error")

	// Prettier: one message, two causes on two systems.
	h.note(Note{ID: "prettier-crlf-windows", Project: "quillmark", OS: "windows", Lang: "typescript", At: day(2023, 3, 14),
		Title:   "prettier --check flags every file on Windows (CRLF checkout)",
		What:    "On the Windows laptop `pnpm format:check` reports \"Code style issues found in 311 files\" straight after a fresh clone, nothing edited. `--write` then 'fixes' them and git shows the whole repo modified.",
		Why:     "Git for Windows installs with core.autocrlf=true, so the working tree gets CRLF; Prettier's endOfLine is lf and every line differs.",
		Where:   ".gitattributes, global git config on the Windows machine",
		Learned: "Added .gitattributes with `* text=auto eol=lf` and renormalized. On the machine itself set autocrlf false and check out again. Nothing to do with prettier config.",
		Fix:     "git config --global core.autocrlf false && git rm -r --cached . && git reset --hard"})
	h.note(Note{ID: "prettier-npx-v3", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2024, 1, 9),
		Title:   "CI format check fails: npx fetched prettier 3, the repo pins 2.8",
		What:    "The lint workflow's `npx prettier --check .` started warning on ~40 files while `pnpm format:check` is clean locally. Diff on one file: only trailing commas added in function params.",
		Why:     "The job ran npx before installing the workspace, so npx downloaded the latest prettier (3.x), whose trailingComma default changed from es5 to all.",
		Where:   ".github/workflows/lint.yml, .prettierrc",
		Learned: "Use the locked binary (`pnpm exec prettier`) after install in CI, never bare npx. Pin trailingComma explicitly in .prettierrc so the next major doesn't reformat under us.",
		Fix:     "pnpm install --frozen-lockfile && pnpm exec prettier --check ."})
	h.ask("prettier-crlf-windows/1", "quillmark", "windows", "pnpm format:check", u7crlf(`
> quillmark@ format:check C:\Users\maria\src\quillmark
> prettier --check "**/*.{ts,tsx,json,md}"

Checking formatting...
[warn] .changeset\config.json
[warn] apps\web\src\main.tsx
[warn] apps\web\src\routes\editor.tsx
[warn] apps\web\vite.config.ts
...
[warn] packages\ui\src\Button.tsx
[warn] packages\ui\src\Dialog.tsx
[warn] Code style issues found in 298 files. Run Prettier with --write to fix.
 ELIFECYCLE  Command failed with exit code 1.
`), "prettier-crlf-windows", "twin on another system: windows console")
	h.ask("prettier-npx-v3/1", "quillmark", "linux", "npx prettier --check .", `
npm WARN exec The following package was not found and will be installed: prettier@3.2.4
Checking formatting...
[warn] apps/web/src/lib/api.ts
[warn] apps/web/vite.config.ts
[warn] packages/ui/src/Dialog.tsx
[warn] packages/ui/src/Tooltip.tsx
[warn] Code style issues found in 41 files. Run Prettier with --write to fix.
Error: Process completed with exit code 1.
`, "prettier-npx-v3", "same text, another cause: twin on another system")
	h.ask("prettier-mdx/1", "cinderdocs", "linux", "npx prettier --check content", `
Checking formatting...
[error] No parser could be inferred for file "/home/dev/cinderdocs/content/changelog.mdx.orig".
[warn] content/guides/install.mdx
[warn] Code style issues found in the above file. Run Prettier with --write to fix.
Error occurred when checking code style in the above file.
`, "", "never stored: same tool, another error")

	// tsc: one code, two causes; and another code.
	h.note(Note{ID: "tsc-workspace-exports", Project: "quillmark", OS: "macos", Lang: "typescript", At: day(2023, 11, 20),
		Title:   "TS2307 for @quillmark/ui after the package moved to an exports map",
		What:    "`pnpm typecheck` in apps/web: error TS2307: Cannot find module '@quillmark/ui' or its corresponding type declarations. The package is symlinked in node_modules and Vite builds and runs fine.",
		Why:     "packages/ui dropped `main`/`types` for an `exports` map. apps/web's tsconfig still had `moduleResolution: node` (node10), which doesn't read exports at all.",
		Where:   "tsconfig.base.json, packages/ui/package.json",
		Learned: "moduleResolution `bundler` (TS >= 5.0) reads exports and the types condition; set it once in tsconfig.base.json. Put the `types` condition first in each exports entry.",
		Fix:     ""})
	h.note(Note{ID: "tsc-css-modules-decl", Project: "quillmark", OS: "linux", Lang: "typescript", At: day(2024, 3, 5),
		Title:   "tsc can't type *.module.css imports after vite-env.d.ts moved",
		What:    "Only tsc complains, Vite is happy: `error TS2307: Cannot find module './Toolbar.module.css' or its corresponding type declarations.`",
		Why:     "src/vite-env.d.ts (the `/// <reference types=\"vite/client\" />` file) was moved to types/ during a cleanup, outside tsconfig's include, so the ambient `*.module.css` declarations disappeared.",
		Where:   "apps/web/src/vite-env.d.ts, apps/web/tsconfig.json",
		Learned: "Keep vite-env.d.ts inside an included dir, or put \"types\": [\"vite/client\"] in compilerOptions so it can't get lost again.",
		Fix:     "git mv apps/web/types/vite-env.d.ts apps/web/src/vite-env.d.ts"})
	h.note(Note{ID: "tsc-ts5110-nodenext", Project: "cinderdocs", OS: "linux", Lang: "typescript", At: day(2023, 9, 1),
		Title:   "TypeScript 5.2 upgrade: TS5110, module must be NodeNext",
		What:    "`npx tsc -p scripts` fails after bumping typescript to 5.2.2: error TS5110: Option 'module' must be set to 'NodeNext' when option 'moduleResolution' is set to 'NodeNext'.",
		Why:     "TS 5.2 made the pairing strict; scripts/tsconfig.json had module es2022 with moduleResolution nodenext, which 5.1 tolerated.",
		Where:   "scripts/tsconfig.json",
		Learned: "Set both to NodeNext (and keep \"type\": \"module\" in package.json so .ts files are ESM). For bundled code use module esnext + moduleResolution bundler instead.",
		Fix:     ""})
	h.ask("tsc-workspace-exports/1", "quillmark", "linux", "pnpm -r typecheck", `
apps/admin typecheck$ tsc --noEmit
│ src/pages/Users.tsx(3,30): error TS2307: Cannot find module '@quillmark/ui' or its corresponding type declarations.
│ src/pages/Billing.tsx(5,24): error TS2307: Cannot find module '@quillmark/ui' or its corresponding type declarations.
└─ Failed in 3.1s at /home/dev/quillmark/apps/admin
/home/dev/quillmark/apps/admin:
 ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @quillmark/admin@0.3.0 typecheck: §tsc --noEmit§
Exit status 2
`, "tsc-workspace-exports", "same text, another cause")
	h.ask("tsc-css-modules-decl/1", "quillmark", "macos", "pnpm --filter web exec tsc --noEmit", `
\e[96msrc/components/Sidebar.tsx\e[0m:\e[93m4\e[0m:\e[93m20\e[0m - \e[91merror\e[0m\e[90m TS2307: \e[0mCannot find module './Sidebar.module.css' or its corresponding type declarations.

\e[7m4\e[0m import styles from './Sidebar.module.css';
\e[7m \e[0m \e[91m                   ~~~~~~~~~~~~~~~~~~~~~~\e[0m


Found 1 error in src/components/Sidebar.tsx\e[90m:4\e[0m

`, "tsc-css-modules-decl", "same text, another cause")
	h.ask("tsc-ts5110-nodenext/1", "cinderdocs", "linux", "npx tsc -p scripts", `
scripts/tsconfig.json:4:15 - error TS5110: Option 'module' must be set to 'NodeNext' when option 'moduleResolution' is set to 'NodeNext'.

4     "module": "ES2022",
                ~~~~~~~~


Found 1 error in scripts/tsconfig.json:4
`, "tsc-ts5110-nodenext", "stored: a later TypeScript, pretty output")
	h.ask("tsc-ts2345/1", "quillmark", "linux", "pnpm typecheck", `
src/lib/share.ts:27:31 - error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.
  Type 'undefined' is not assignable to type 'string'.

27   const url = buildShareUrl(doc.slug, token);
                                 ~~~~~~~~


Found 1 error in src/lib/share.ts:27
 ELIFECYCLE  Command failed with exit code 2.
`, "", "never stored: same tool, another error")
	h.ask("tsc-ts7016/1", "cinderdocs", "macos", "npx tsc --noEmit", `
src/plugins/remark-toc.ts:2:22 - error TS7016: Could not find a declaration file for module 'mdast-util-toc-legacy'. '/Users/maria/code/cinderdocs/node_modules/mdast-util-toc-legacy/index.js' implicitly has an 'any' type.
  Try §npm i --save-dev @types/mdast-util-toc-legacy§ if it exists or add a new declaration (.d.ts) file containing §declare module 'mdast-util-toc-legacy';§

2 import tocLegacy from 'mdast-util-toc-legacy';
                       ~~~~~~~~~~~~~~~~~~~~~~~


Found 1 error in src/plugins/remark-toc.ts:2
`, "", "never stored: same kind, another object")

	// A convention, no failure.
	h.note(Note{ID: "quillmark-lint-order", Project: "quillmark", OS: "macos", Lang: "typescript", At: day(2025, 2, 11), Type: "pattern", NoFailure: true,
		Title:   "quillmark: eslint owns correctness, prettier owns formatting",
		What:    "Agreed in review: `pnpm lint --fix` runs before `pnpm format`, eslint-config-prettier stays last in the config array, and nobody adds stylistic ESLint rules (indent, quotes, comma-dangle) again.",
		Why:     "The two kept fighting over trailing commas and each PR had churn from whichever ran last.",
		Where:   "packages/*/eslint.config.mjs, .prettierrc, CONTRIBUTING.md",
		Learned: "If a rule is about how code looks, it belongs in .prettierrc or nowhere.",
		Fix:     ""})
}
