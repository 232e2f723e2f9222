package replay

// JavaScript and TypeScript tooling of the fourth unseen part: pnpm
// workspaces, Yarn PnP, webpack, esbuild, Jest, Cypress, Storybook,
// Prisma, tsc project references, Deno, Bun, ESLint, Stripe webhooks.
func unseen4Web(h *hand) {
	h.note(Note{ID: "pnpm-frozen-lockfile", Project: "pebble-web", OS: "linux", Lang: "typescript", At: day(2024, 7, 9),
		Title:   "CI: pnpm frozen lockfile",
		What:    "ERR_PNPM_OUTDATED_LOCKFILE on the install step, right after I added @floating-ui/react to packages/ui",
		Why:     "I ran npm install inside packages/ui by mistake: that writes a package-lock.json there and never touches pnpm-lock.yaml, and CI installs with --frozen-lockfile.",
		Where:   "pebble-web workspace root",
		Learned: "In this repo deps go in with `pnpm add --filter <pkg>` from the root, and the lockfile change is committed with the package.json change.",
		Fix:     "rm -f packages/*/package-lock.json && pnpm install && git add pnpm-lock.yaml"})
	h.ask("pnpm-frozen-lockfile/1", "pebble-web", "linux", "pnpm install --frozen-lockfile",
		`##[group]Run pnpm install --frozen-lockfile
pnpm install --frozen-lockfile
shell: /usr/bin/bash -e {0}
##[endgroup]
Scope: all 7 workspace projects
 ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/packages/ui/package.json

Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"

    Failure reason:
    specifiers in the lockfile ({"clsx":"^2.0.0","react":"^18.2.0"}) don't match specs in package ({"@floating-ui/react":"^0.26.9","clsx":"^2.0.0","react":"^18.2.0"})
##[error]Process completed with exit code 1.
`, "pnpm-frozen-lockfile", "hand: stored")
	h.ask("pnpm-frozen-lockfile/2", "pebble-web", "linux", "pnpm install --frozen-lockfile",
		tty(`Lockfile is up to date, resolution step is skipped
\e[31m ERR_PNPM_OUTDATED_LOCKFILE \e[39m Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/apps/docs/package.json

Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"

    Failure reason:
    specifiers in the lockfile ({"next":"14.1.0"}) don't match specs in package ({"next":"14.2.3"})
`), "pnpm-frozen-lockfile", "hand: another workspace package, coloured")
	h.ask("pnpm-frozen-lockfile/elsewhere", "kiln", "linux", "pnpm install --frozen-lockfile",
		`Scope: all 3 workspace projects
 ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/services/render/package.json

Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"
`, "", "another project's project note: pebble-web's pnpm note, met in kiln")
	h.ask("pnpm-json-parse", "pebble-web", "linux", "pnpm -r build",
		` ERR_PNPM_JSON_PARSE  Unexpected token } in JSON at position 388 while parsing near '..."^5.4.2",
  },
  "engines...' in /home/ci/build/pebble-web/packages/ui/package.json

pnpm: Unexpected token } in JSON at position 388 while parsing near '..."^5.4.2",
  },
  "engines...'
    at parseJson (/home/ci/.local/share/pnpm/.tools/pnpm/9.1.0/node_modules/pnpm/dist/pnpm.cjs:91241:15)
`, "", "generic file name: package.json of the same workspace package, a JSON typo")

	h.note(Note{ID: "yarn-pnp-react-is", Project: "mosaic", OS: "darwin", Lang: "typescript", At: day(2023, 10, 12),
		Title:   "PnP: styled-components can't reach react-is",
		What:    "Dev server crashed on first import of a styled component:\n\n```\nError: styled-components tried to access react-is (a peer dependency) but it isn't provided by your application; this makes the require call ambiguous and unsound.\n\nRequired package: react-is\nRequired by: styled-components@virtual:...#npm:5.3.11\n```",
		Why:     "styled-components 5 lists react-is as a peer dependency; node_modules hoisting hid that, PnP doesn't. We never depended on react-is ourselves.",
		Where:   ".yarnrc.yml",
		Learned: "Give the app the peer it needs instead of packageExtensions hacks; react-is at the same major as react.",
		Fix:     "yarn add react-is@^18.2.0"})
	h.ask("yarn-pnp-react-is/1", "mosaic", "darwin", "yarn dev",
		`  VITE v5.0.12  ready in 612 ms

  ➜  Local:   http://localhost:5173/
3:14:07 PM [vite] Error when evaluating SSR module /src/entry-server.tsx:
|- Error: styled-components tried to access react-is (a peer dependency) but it isn't provided by your application; this makes the require call ambiguous and unsound.

Required package: react-is
Required by: styled-components@virtual:2b1a7c9e0d4f#npm:5.3.11 (via /Users/kim/code/mosaic/.yarn/__virtual__/styled-components-virtual-8d2c1e9f4a/0/cache/styled-components-npm-5.3.11-1c1a3b2d9e-10c0.zip/node_modules/styled-components/dist/)
Ancestor breaking the chain: mosaic@workspace:.

    at require$$0.makeError (/Users/kim/code/mosaic/.pnp.cjs:9151:34)
    at resolveToUnqualified (/Users/kim/code/mosaic/.pnp.cjs:10791:21)
    at Object.resolveRequest (/Users/kim/code/mosaic/.pnp.cjs:10903:26)
`, "yarn-pnp-react-is", "hand: stored")
	h.ask("yarn-pnp-mdx", "mosaic", "darwin", "yarn build-storybook",
		`info => Building manager..
info => Building preview..
ERR! Error: @storybook/addon-docs tried to access @mdx-js/react, but it isn't declared in its dependencies; this makes the require call ambiguous and unsound.
ERR!
ERR! Required package: @mdx-js/react
ERR! Required by: @storybook/addon-docs@npm:7.6.17 (via /Users/kim/code/mosaic/.yarn/cache/@storybook-addon-docs-npm-7.6.17-3e9b1d0c2a-10c0.zip/node_modules/@storybook/addon-docs/dist/)
ERR!
ERR!     at require$$0.makeError (/Users/kim/code/mosaic/.pnp.cjs:9151:34)
`, "", "never stored: the same PnP error, another package and another requirer")

	h.note(Note{ID: "webpack-crypto-fallback", Project: "foxglove", OS: "linux", Lang: "typescript", At: day(2022, 11, 21),
		Title:   "webpack 5 upgrade: jsonwebtoken breaks the bundle",
		What:    "After the webpack 4 -> 5 upgrade the build can't resolve 'crypto' from inside jsonwebtoken (plus the long BREAKING CHANGE blurb about node core polyfills).",
		Why:     "jsonwebtoken is a Node library that only got into the browser bundle via @foxglove/api-client's token helper. webpack 4 silently polyfilled crypto; 5 doesn't.",
		Where:   "packages/api-client/src/token.ts",
		Learned: "Don't add crypto-browserify. The browser never needs to verify a JWT: decode it with jwt-decode and leave verification to the API.",
		Fix:     "yarn workspace @foxglove/api-client remove jsonwebtoken && yarn workspace @foxglove/api-client add jwt-decode"})
	h.ask("webpack-crypto-fallback/1", "foxglove", "linux", "yarn build",
		`tus 1.92 MiB [cached] 14 assets
orphan modules 2.1 MiB [orphan] 611 modules
runtime modules 3.4 KiB 8 modules
cacheable modules 5.62 MiB
  modules by path ./node_modules/ 4.87 MiB 702 modules
  modules by path ./src/ 771 KiB 214 modules

ERROR in ./node_modules/jsonwebtoken/lib/sign.js 8:15-32
Module not found: Error: Can't resolve 'crypto' in '/home/ci/build/foxglove/node_modules/jsonwebtoken/lib'

BREAKING CHANGE: webpack < 5 used to include polyfills for node.js core modules by default.
This is no longer the case. Verify if you need this module and configure a polyfill for it.

If you want to include a polyfill, you need to:
	- add a fallback 'resolve.fallback: { "crypto": require.resolve("crypto-browserify") }'
	- install 'crypto-browserify'
If you don't want to include a polyfill, you can use an empty module like this:
	resolve.fallback: { "crypto": false }

webpack 5.89.0 compiled with 1 error in 8423 ms
error Command failed with exit code 1.
`, "webpack-crypto-fallback", "hand: stored")
	h.ask("webpack-missing-component", "foxglove", "linux", "yarn build",
		`modules by path ./src/ 772 KiB 215 modules

ERROR in ./src/layout/Shell.tsx 6:0-45
Module not found: Error: Can't resolve './components/NavBar' in '/home/ci/build/foxglove/src/layout'
resolve './components/NavBar' in '/home/ci/build/foxglove/src/layout'
  using description file: /home/ci/build/foxglove/package.json (relative path: ./src/layout)
    Field 'browser' doesn't contain a valid alias configuration
    using description file: /home/ci/build/foxglove/package.json (relative path: ./src/layout/components/NavBar)
      no extension
        /home/ci/build/foxglove/src/layout/components/NavBar doesn't exist
      .tsx
        /home/ci/build/foxglove/src/layout/components/NavBar.tsx doesn't exist

webpack 5.89.0 compiled with 1 error in 7911 ms
`, "", "never stored: webpack can't resolve a file no note is about")

	h.note(Note{ID: "esbuild-platform-node", Project: "lumen-cli", Scope: "global", OS: "darwin", Lang: "typescript", At: day(2024, 4, 2),
		Title:   "esbuild: Could not resolve \"path\"",
		What:    "esbuild bundle of a CLI fails on every node builtin (path, fs, child_process)",
		Why:     "esbuild's default platform is browser; it says so in the hint under the error but it's easy to miss",
		Where:   "build script",
		Learned: "For anything that runs under node pass --platform=node (and a --target=node18 or so).",
		Fix:     "npx esbuild src/cli.ts --bundle --platform=node --target=node18 --outfile=dist/cli.js"})
	esbuildPath := `✘ [ERROR] Could not resolve "%s"

    src/%s:2:%d:
      2 │ import %s
        ╵ %s

  The package "%s" wasn't found on the file system but is built into node. Are you trying to bundle for node? You can use "--platform=node" to do that, which will remove this error.

1 error
`
	h.ask("esbuild-platform-node/1", "lumen-cli", "darwin", "npx esbuild src/cli.ts --bundle --outfile=dist/cli.js",
		sprintf(esbuildPath, "path", "config.ts", 22, `{ resolve } from "path";`, "                      ~~~~~~", "path"),
		"esbuild-platform-node", "hand: stored")
	h.ask("esbuild-platform-node/elsewhere", "pebble-api", "linux", "node scripts/build.mjs",
		sprintf(esbuildPath, "node:child_process", "jobs/export.ts", 22, `{ spawn } from "node:child_process";`, "                      ~~~~~~~~~~~~~~~~~~~~", "node:child_process"),
		"esbuild-platform-node", "global note, another project: esbuild's platform in pebble-api")
	h.ask("esbuild-no-export", "lumen-cli", "darwin", "npx esbuild src/cli.ts --bundle --platform=node --outfile=dist/cli.js",
		`✘ [ERROR] No matching export in "src/config.ts" for import "loadConfig"

    src/commands/init.ts:3:9:
      3 │ import { loadConfig } from "../config";
        ╵          ~~~~~~~~~~

1 error
`, "", "same tool, another error: a missing export")

	// Jest: one message, two causes, told apart by the Details path.
	jestTail := `yarn run v1.22.19
$ jest --ci
 PASS  src/lib/format.test.ts
 FAIL  %s
  ● Test suite failed to run

    Jest encountered an unexpected token

    Jest failed to parse a file. This happens e.g. when your code or its dependencies use non-standard JavaScript syntax, or when Jest is not configured to support such syntax.

    Out of the box Jest supports Babel, which will be used to transform your files into valid JS based on your Babel configuration.

    By default "node_modules" folder is ignored by transformers.

    Here's what you can do:
     • If you are trying to use ECMAScript Modules, see https://jestjs.io/docs/ecmascript-modules for how to enable it.
     • If you are trying to use TypeScript, see https://jestjs.io/docs/getting-started#using-typescript
     • To have some of your "node_modules" files transformed, you can specify a custom "transformIgnorePatterns" in your config.
     • If you need a custom transformation specify a "transform" option in your config.
     • If you simply want to mock your non-JS modules (e.g. binary assets) you can stub them out with the "moduleNameMapper" config option.

    You'll find more details and examples of these config options in the docs:
    https://jestjs.io/docs/configuration
    For information about custom transformations, see:
    https://jestjs.io/docs/code-transformation

    Details:

    %s
    %s
    ^^^^^^

    SyntaxError: Cannot use import statement outside a module

Test Suites: 1 failed, 1 passed, 2 total
Tests:       4 passed, 4 total
error Command failed with exit code 1.
`
	h.note(Note{ID: "jest-esm-nanoid", Project: "foxglove", OS: "linux", Lang: "typescript", At: day(2023, 5, 16),
		Title:   "jest chokes on nanoid 5",
		What:    "Suites importing anything that uses nanoid fail with `SyntaxError: Cannot use import statement outside a module`; the Details path points into node_modules/nanoid.",
		Why:     "nanoid 5 ships ESM only, and Jest doesn't transform node_modules by default.",
		Where:   "jest.config.js",
		Learned: "Let babel-jest transform it: transformIgnorePatterns: ['/node_modules/(?!(nanoid)/)']. Pinning nanoid@3 also works but we want 5."})
	h.note(Note{ID: "jest-ts-preset-lost", Project: "foxglove", OS: "linux", Lang: "typescript", At: day(2024, 8, 7),
		Title:   "all ts tests in packages/charts fail to parse after moving to monorepo",
		What:    "Same 'Jest encountered an unexpected token' / Cannot use import statement outside a module, but this time the file under Details is OUR test file (packages/charts/src/*.test.ts), nothing in node_modules.",
		Why:     "The root jest.config.js uses `projects`, and packages/charts/jest.config.js had no preset; the ts-jest preset only lived in the old standalone config. So .ts files went through nothing.",
		Where:   "packages/charts/jest.config.js",
		Learned: "Each project in `projects` needs its own preset: 'ts-jest' (or a transform). Not the transformIgnorePatterns fix; that one's for ESM deps."})
	h.ask("jest-esm-nanoid/1", "foxglove", "linux", "yarn test --ci",
		sprintf(jestTail, "src/hooks/useToast.test.tsx", "/home/ci/build/foxglove/node_modules/nanoid/index.browser.js:1",
			`({"Object.<anonymous>":function(module,exports,require,__dirname,__filename,jest){import { urlAlphabet as scopedUrlAlphabet } from './url-alphabet/index.js'`),
		"jest-esm-nanoid", "same text, another cause: an ESM dependency in node_modules")
	h.ask("jest-ts-preset-lost/1", "foxglove", "linux", "yarn test --ci",
		sprintf(jestTail, "packages/charts/src/scale.test.ts", "/home/ci/build/foxglove/packages/charts/src/scale.test.ts:1",
			`({"Object.<anonymous>":function(module,exports,require,__dirname,__filename,jest){import { linearScale } from './scale';`),
		"jest-ts-preset-lost", "same text, another cause: our own TypeScript test untransformed")

	// Cypress: the same missing binary on Linux CI and on the Windows runner.
	h.note(Note{ID: "cypress-binary-linux", Project: "foxglove", OS: "linux", Lang: "typescript", At: day(2024, 1, 23),
		Title:   "e2e job: Cypress binary missing",
		What:    "e2e job fails before any spec: `The cypress npm package is installed, but the Cypress binary is missing.`",
		Why:     "The workflow caches node_modules (keyed on yarn.lock) but not ~/.cache/Cypress, so on a cache hit postinstall never runs and the binary was never downloaded on that runner.",
		Where:   ".github/workflows/e2e.yml",
		Learned: "Add ~/.cache/Cypress to the cache paths; as a stopgap, install the binary explicitly before running.",
		Fix:     "npx cypress install && npx cypress verify"})
	h.note(Note{ID: "cypress-binary-windows", Project: "foxglove", OS: "windows", Lang: "typescript", At: day(2024, 2, 6),
		Title:   "Cypress binary missing on the Windows runner (different from the Linux one)",
		What:    "Windows e2e leg: Cypress binary is missing, expected in C:\\Users\\dev\\AppData\\Local\\Cypress\\Cache\\13.6.4.",
		Why:     "The self-hosted Windows runners use ephemeral user profiles, %LOCALAPPDATA% is wiped after every job; caching doesn't help there.",
		Where:   "Windows runner, e2e workflow",
		Learned: "On Windows keep the Cypress cache inside the workspace via CYPRESS_CACHE_FOLDER.",
		Fix:     `set CYPRESS_CACHE_FOLDER=%CD%\.cypress-cache && npx cypress install`})
	cypressTail := `$ cypress run --browser electron
The cypress npm package is installed, but the Cypress binary is missing.

We expected the binary to be installed here: %s

Reasons it may be missing:

- You're caching 'node_modules' but are not caching this path: %s
- You ran 'npm install' with an env var like: CYPRESS_INSTALL_BINARY=0

Properly caching the binary will fix this error and avoid downloading and unzipping Cypress.

Alternatively, you can run 'cypress install' to download the binary again.

https://on.cypress.io/not-installed-ci-error

----------

Platform: %s
Cypress Version: 13.6.4
error Command failed with exit code 1.
`
	h.ask("cypress-binary/linux", "foxglove", "linux", "yarn e2e",
		sprintf(cypressTail, "/home/runner/.cache/Cypress/13.6.4/Cypress/Cypress", "/home/runner/.cache/Cypress", "linux-x64 (Ubuntu - 22.04)"),
		"cypress-binary-linux", "twin on another system: Linux CI")
	h.ask("cypress-binary/windows", "foxglove", "windows", "yarn e2e",
		crlf(sprintf(cypressTail, `C:\Users\dev\AppData\Local\Cypress\Cache\13.6.4\Cypress\Cypress.exe`, `C:\Users\dev\AppData\Local\Cypress\Cache`, "win32-x64 (Microsoft Windows - 10.0.20348)")),
		"cypress-binary-windows", "twin on another system: the Windows runner")

	h.note(Note{ID: "storybook-addon-styling", Project: "foxglove", OS: "darwin", Lang: "typescript", At: day(2024, 4, 15),
		Title:   "storybook 8 won't start",
		What:    "So after the storybook 7 -> 8 upgrade (`npx storybook@latest upgrade`) `yarn storybook` died right after 'Starting manager..' with a SB_CORE-SERVER_0002 CriticalPresetLoadError about the @storybook/addon-styling preset. I first thought the upgrade had half-failed and reinstalled node_modules twice, which did nothing. The automigrate step had printed a warning I scrolled past.",
		Why:     "@storybook/addon-styling is deprecated and not compatible with 8; the upgrade removed it from package.json but left it in .storybook/main.ts addons.",
		Where:   ".storybook/main.ts",
		Learned: "Replace it with @storybook/addon-themes (withThemeFromJSXProvider decorator in preview.tsx) and drop it from main.ts.",
		Fix:     "yarn add -D @storybook/addon-themes@^8"})
	h.ask("storybook-addon-styling/1", "foxglove", "darwin", "yarn storybook",
		tty(`@storybook/cli v8.0.4

\e[32minfo\e[39m => Starting manager..
\e[32minfo\e[39m => Starting preview..
\e[31mSB_CORE-SERVER_0002 (CriticalPresetLoadError): Storybook failed to load the following preset: @storybook/addon-styling.\e[39m

Please check whether your setup is correct, the Storybook dependencies (and their peer dependencies) are installed correctly and there are no package version clashes.

If you believe this is a bug, please open an issue on Github.

Error: Cannot find module '@storybook/addon-styling/package.json'
Require stack:
- /Users/kim/code/foxglove/node_modules/@storybook/core-common/dist/index.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)
    at Function.resolve (node:internal/modules/cjs/helpers:190:19)

\e[33mWARN\e[39m Broken build, fix the error above.
\e[33mWARN\e[39m You may need to refresh the browser.
`), "storybook-addon-styling", "hand: stored, long rambling note")

	// Prisma: two notes on one tool, two errors.
	h.note(Note{ID: "prisma-binary-targets", Project: "pebble-api", OS: "darwin", Lang: "typescript", At: day(2024, 1, 30),
		Title:   "prisma query engine missing in the container",
		What:    "Container crashes on boot: PrismaClientInitializationError: Prisma Client could not locate the Query Engine for runtime \"linux-musl-openssl-3.0.x\" (generated for darwin-arm64).",
		Why:     "No .dockerignore, so COPY . . brought my mac's node_modules/.prisma into the alpine image and `prisma generate` in the Dockerfile ran before the copy, then got overwritten.",
		Where:   "Dockerfile, .dockerignore",
		Learned: "node_modules in .dockerignore and generate after the copy; binaryTargets = [\"native\", \"linux-musl-openssl-3.0.x\"] for people building on macs anyway.",
		Fix:     "echo node_modules >> .dockerignore && docker build -t pebble-api ."})
	h.ask("prisma-binary-targets/1", "pebble-api", "darwin", "docker run --rm --env-file .env pebble-api",
		`> pebble-api@1.8.0 start
> node dist/server.js

PrismaClientInitializationError: Prisma Client could not locate the Query Engine for runtime "linux-musl-openssl-3.0.x".

This happened because Prisma Client was generated for "darwin-arm64", but the actual deployment required "linux-musl-openssl-3.0.x".
Add "linux-musl-openssl-3.0.x" to §binaryTargets§ in the "schema.prisma" file and run §prisma generate§ after saving it:

generator client {
  provider      = "prisma-client-js"
  binaryTargets = ["native", "linux-musl-openssl-3.0.x"]
}

The following locations have been searched:
  /app/node_modules/.prisma/client
  /app/node_modules/@prisma/client
  /Users/kim/code/pebble-api/node_modules/@prisma/client
  /tmp/prisma-engines
  /app/prisma
    at yr (/app/node_modules/@prisma/client/runtime/library.js:123:1207)
    at async Object.loadLibrary (/app/node_modules/@prisma/client/runtime/library.js:124:10296) {
  clientVersion: '5.8.1',
  errorCode: undefined
}
`, "prisma-binary-targets", "hand: stored")
	h.note(Note{ID: "prisma-drift", Project: "pebble-api", OS: "linux", Lang: "typescript", At: day(2025, 2, 11),
		Title:   "migrate dev: drift detected on local db",
		What:    "prisma migrate dev said the database schema is not in sync with the migration history (`Drift detected`, Invoice.legacy_ref added) and then refused because the agent shell is non-interactive.",
		Why:     "scripts/import-legacy.ts adds legacy_ref with raw SQL for the one-off import. It's only ever in local DBs.",
		Where:   "local postgres, scripts/import-legacy.ts",
		Learned: "Local DB only: reset it. Never on staging. The import script should run after migrations, on a throwaway DB.",
		Fix:     "npx prisma migrate reset --force --skip-seed"})
	h.ask("prisma-drift/1", "pebble-api", "linux", "npx prisma migrate dev --name add_invoice_notes",
		`Environment variables loaded from .env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": PostgreSQL database "pebble", schema "public" at "localhost:5432"

Drift detected: Your database schema is not in sync with your migration history.

The following is a summary of the differences between the expected database schema given your migrations files, and the actual schema of the database.

It should be understood as the set of changes to get from the expected schema to the actual schema.

[*] Changed the §Invoice§ table
  [+] Added column §legacy_ref§

Error: Prisma Migrate has detected that the environment is non-interactive, which is not supported.

§prisma migrate dev§ is an interactive command designed to create new migrations and evolve the database in development.
To apply existing migrations in deployments, use prisma migrate deploy.
See https://www.prisma.io/docs/reference/api-reference/command-reference#migrate-deploy
`, "prisma-drift", "hand: the other Prisma note, not the engine one")
	h.ask("prisma-p1001", "pebble-api", "linux", "npx prisma migrate deploy",
		`Environment variables loaded from .env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": PostgreSQL database "pebble", schema "public" at "db.internal:5432"

Error: P1001: Can't reach database server at §db.internal§:§5432§

Please make sure your database server is running at §db.internal§:§5432§.
`, "", "same tool, another error: database unreachable")

	h.note(Note{ID: "tsc-build-mode", Project: "pebble-web", OS: "windows", Lang: "typescript", At: day(2025, 3, 4),
		Title:   "typecheck: TS6305 output file has not been built",
		What:    "pnpm typecheck on apps/dashboard: error TS6305: Output file '.../packages/core/dist/index.d.ts' has not been built from source file '.../packages/core/src/index.ts'.",
		Why:     "dashboard's tsconfig has `references` to packages/core; `tsc -p` only checks the one project and expects the referenced ones to be built already. A fresh clone has no dist/.",
		Where:   "apps/dashboard/package.json typecheck script",
		Learned: "With project references use build mode, which builds the references first.",
		Fix:     "pnpm exec tsc -b apps/dashboard"})
	h.ask("tsc-build-mode/1", "pebble-web", "windows", "pnpm --filter dashboard typecheck",
		crlf(`
> dashboard@0.0.0 typecheck C:\Users\dev\src\pebble-web\apps\dashboard
> tsc -p .

src/api.ts:3:30 - error TS6305: Output file 'C:/Users/dev/src/pebble-web/packages/core/dist/index.d.ts' has not been built from source file 'C:/Users/dev/src/pebble-web/packages/core/src/index.ts'.

3 import { createClient } from '@pebble/core';
                               ~~~~~~~~~~~~~~

src/hooks/useSession.ts:1:29 - error TS6305: Output file 'C:/Users/dev/src/pebble-web/packages/core/dist/session.d.ts' has not been built from source file 'C:/Users/dev/src/pebble-web/packages/core/src/session.ts'.

1 import type { Session } from '@pebble/core/session';
                              ~~~~~~~~~~~~~~~~~~~~~~~

Found 2 errors in 2 files.

Errors  Files
     1  src/api.ts:3
     1  src/hooks/useSession.ts:1
C:\Users\dev\src\pebble-web\apps\dashboard:
 ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  dashboard@0.0.0 typecheck: §tsc -p .§
Exit status 2
`), "tsc-build-mode", "hand: stored, Windows")
	h.ask("tsc-composite", "pebble-web", "windows", "pnpm exec tsc -b apps/dashboard",
		crlf(`apps/dashboard/tsconfig.json:14:5 - error TS6306: Referenced project 'C:/Users/dev/src/pebble-web/packages/icons' must have setting "composite": true.

14     { "path": "../../packages/icons" }
       ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~


Found 1 error.
`), "", "same tool, another error: TS6306 not TS6305")

	// Deno: the permission error, renamed by Deno 2 and declared replaced.
	h.note(Note{ID: "deno-allow-net", Project: "driftwood", OS: "darwin", Lang: "typescript", At: day(2023, 7, 19),
		Title: "deno: PermissionDenied net access",
		What:  "checkout function: error: Uncaught (in promise) PermissionDenied: Requires net access to \"api.stripe.com:443\", run again with the --allow-net flag",
		Why:   "deno run is deny-by-default; I ran the file directly instead of via the task.",
		Where: "functions/checkout.ts", Learned: "Pass the narrow allow list, not bare --allow-net.",
		Fix: "deno run --allow-net=api.stripe.com --allow-env=STRIPE_SECRET_KEY functions/checkout.ts"})
	h.note(Note{ID: "deno2-notcapable", Project: "driftwood", OS: "darwin", Lang: "typescript", At: day(2024, 11, 5),
		Title: "Deno 2: NotCapable instead of PermissionDenied", Supersedes: "deno-allow-net",
		What:    "After upgrading to Deno 2 the same missing permission shows up as `NotCapable: Requires net access to \"api.stripe.com:443\"`. And the old `deno run --allow-net=...` one-liner from memory is out of date for this repo.",
		Why:     "Deno 2 renamed the error class. We also moved every permission into the tasks in deno.json so all functions run with one reviewed allow list (esm.sh and api.stripe.com).",
		Where:   "deno.json tasks",
		Learned: "Run functions through the task, and add hosts to the task's --allow-net when a new one is needed.",
		Fix:     "deno task dev"})
	h.ask("deno2-notcapable/1", "driftwood", "darwin", "deno run functions/checkout.ts",
		tty(`Listening on http://0.0.0.0:8000/
\e[0m\e[1m\e[31merror\e[0m: Uncaught (in promise) NotCapable: Requires net access to "api.stripe.com:443", run again with the --allow-net flag
    at mainFetch (ext:deno_fetch/26_fetch.js:182:43)
    at eventLoopTick (ext:core/01_core.js:175:7)
    at async fetch (ext:deno_fetch/26_fetch.js:391:7)
    at async createSession (file:///Users/kim/code/driftwood/functions/checkout.ts:21:15)
`), "deno2-notcapable", "superseded, declared: Deno 2's wording", "deno-allow-net")
	h.ask("deno-bare-import", "driftwood", "darwin", "deno task dev",
		tty(`Task dev deno run --allow-net=api.stripe.com,esm.sh --allow-env --watch functions/main.ts
Watcher Process started.
\e[0m\e[1m\e[31merror\e[0m: Relative import path "zod" not prefixed with / or ./ or ../ and not in import map from "file:///Users/kim/code/driftwood/functions/checkout.ts"
  hint: If you want to use a JSR or npm package, try running §deno add jsr:zod§ or §deno add npm:zod§
    at file:///Users/kim/code/driftwood/functions/checkout.ts:3:19
Watcher Process failed. Restarting on file change...
`), "", "same tool, another error: a bare import, not a permission")

	h.note(Note{ID: "bun-frozen-lockfile", Project: "pebble-api", OS: "linux", Lang: "typescript", At: day(2025, 5, 27),
		Title: "bun install --frozen-lockfile red in CI",
		What:  "`error: lockfile had changes, but lockfile is frozen` — hono bumped in package.json by renovate's grouped PR without the lockfile",
		Why:   "renovate's bun manager didn't update bun.lock for the grouped update",
		Where: "pebble-api CI", Learned: "regenerate and commit; renovate's postUpgradeTasks now run bun install",
		Fix: "bun install && git add bun.lock && git commit -m 'chore: refresh bun.lock'"})
	h.ask("bun-frozen-lockfile/1", "pebble-api", "linux", "bun install --frozen-lockfile",
		`2025-08-12T09:14:51.2043112Z ##[group]Run bun install --frozen-lockfile
2025-08-12T09:14:51.2044381Z ##[endgroup]
2025-08-12T09:14:51.3011027Z bun install v1.2.4 (fd9a5ea6)
2025-08-12T09:14:51.9875520Z
2025-08-12T09:14:51.9877734Z error: lockfile had changes, but lockfile is frozen
2025-08-12T09:14:51.9878011Z note: try re-running without --frozen-lockfile and commit the updated lockfile
2025-08-12T09:14:52.0012941Z ##[error]Process completed with exit code 1.
`, "bun-frozen-lockfile", "hand: stored, CI timestamps")

	// ESLint 9's flat config: pinning 8 said obsolete in prose.
	h.note(Note{ID: "eslint-pin-8", Project: "foxglove", OS: "linux", Lang: "typescript", At: day(2024, 4, 24),
		Title: "eslint 9 landed via renovate, lint broken",
		What:  "ESLint couldn't find an eslint.config.(js|mjs|cjs) file — renovate bumped eslint to 9 and we still have .eslintrc.cjs",
		Why:   "v9 only reads flat config by default",
		Where: "package.json devDependencies", Learned: "pinned 8 for now and told renovate to hold eslint majors",
		Fix: "yarn add -D eslint@8.57.0"})
	h.note(Note{ID: "eslint-flat-config", Project: "foxglove", OS: "linux", Lang: "typescript", At: day(2025, 3, 18),
		Title: "migrated to eslint.config.mjs — the eslint@8 pin is dead", ProseOver: "eslint-pin-8",
		What:    "The 'ESLint couldn't find an eslint.config' failure came back on a branch. Don't pin eslint 8 anymore: that stopped working once typescript-eslint 8 and eslint-plugin-react-hooks 5 required eslint 9 (peer deps conflict on install).",
		Why:     "main has been on flat config since March; old branches still carry .eslintrc.cjs and the 8 pin.",
		Where:   "eslint.config.mjs",
		Learned: "Rebase the branch or run the migrator on its .eslintrc; and drop --ext from the lint script (flat config has no --ext).",
		Fix:     "npx @eslint/migrate-config .eslintrc.cjs"})
	h.ask("eslint-flat-config/1", "foxglove", "linux", "yarn lint",
		`yarn run v1.22.19
$ eslint .

Oops! Something went wrong! :(

ESLint: 9.21.0

ESLint couldn't find an eslint.config.(js|mjs|cjs) file.

From ESLint v9.0.0, the default configuration file is now eslint.config.js.
If you are using a .eslintrc.* file, please follow the migration guide
to update your configuration file to the new format:

https://eslint.org/docs/latest/use/configure/migration-guide

If you still have problems after following the migration guide, please stop by
https://eslint.org/chat/help to chat with the team.

error Command failed with exit code 2.
`, "eslint-flat-config", "superseded in prose: the pin to 8 said dead", "eslint-pin-8")
	h.ask("eslint-ext-flag", "foxglove", "linux", "yarn lint",
		`yarn run v1.22.19
$ eslint . --ext .ts,.tsx

Oops! Something went wrong! :(

ESLint: 9.21.0

Invalid option '--ext' - perhaps you meant '-c'?
You're using eslint.config.js, some command line flags are no longer available. Please see https://eslint.org/docs/latest/use/command-line-interface for details.
error Command failed with exit code 2.
`, "", "same tool, another error: a removed flag")

	// Stripe webhooks: one message, two causes.
	h.note(Note{ID: "stripe-raw-body", Project: "pebble-api", OS: "linux", Lang: "typescript", At: day(2024, 3, 12),
		Title:   "stripe webhook 400s in staging",
		What:    "Every webhook gets 400: StripeSignatureVerificationError \"No signatures found matching the expected signature for payload. Are you passing the raw request body you received from Stripe?\" — and the stack goes through body-parser's jsonParser.",
		Why:     "app.use(express.json()) was moved above the router, so the webhook route gets a re-serialized object and the HMAC can't match.",
		Where:   "src/app.ts, src/routes/webhooks.ts",
		Learned: "Mount the webhook route with express.raw({ type: 'application/json' }) before the global json parser. Code change."})
	h.note(Note{ID: "stripe-listen-secret", Project: "pebble-api", OS: "darwin", Lang: "typescript", At: day(2025, 6, 30),
		Title:   "local webhooks fail signature check with stripe listen",
		What:    "Locally with `stripe listen --forward-to localhost:4000/webhooks/stripe` every event comes back [400] with the same No signatures found matching the expected signature error; body parsing is fine this time.",
		Why:     "stripe listen signs with its own per-session secret (printed as 'Your webhook signing secret is whsec_...'), not the dashboard endpoint's secret that's in .env.",
		Where:   ".env STRIPE_WEBHOOK_SECRET",
		Learned: "Use the secret stripe listen prints when forwarding locally.",
		Fix:     "export STRIPE_WEBHOOK_SECRET=$(stripe listen --print-secret)"})
	h.ask("stripe-raw-body/1", "pebble-api", "linux", "npm run test:integration",
		`[api] POST /webhooks/stripe 400 12.403 ms - 161
[api] Webhook Error: No signatures found matching the expected signature for payload. Are you passing the raw request body you received from Stripe?
[api]  Learn more about webhook signing and explore webhook integration examples for various frameworks at https://github.com/stripe/stripe-node#webhook-signing
[api] StripeSignatureVerificationError: No signatures found matching the expected signature for payload. Are you passing the raw request body you received from Stripe?
    at Object.verifyHeader (/home/ci/build/pebble-api/node_modules/stripe/cjs/Webhooks.js:107:19)
    at Object.constructEvent (/home/ci/build/pebble-api/node_modules/stripe/cjs/Webhooks.js:12:24)
    at /home/ci/build/pebble-api/src/routes/webhooks.ts:18:33
    at Layer.handle [as handle_request] (/home/ci/build/pebble-api/node_modules/express/lib/router/layer.js:95:5)
    at jsonParser (/home/ci/build/pebble-api/node_modules/body-parser/lib/types/json.js:113:7)
  ✕ checkout.session.completed marks the order paid (214 ms)
`, "stripe-raw-body", "same text, another cause: the body went through jsonParser")
	h.ask("stripe-listen-secret/1", "pebble-api", "darwin", "npm run dev:webhooks",
		`[stripe] > Ready! You are using Stripe API Version [2024-06-20]. Your webhook signing secret is whsec_3f9a0c1e7b2d4a6f8e0c1b3d5f7a9c2e (^C to quit)
[stripe] 2025-07-01 10:12:44   --> checkout.session.completed [evt_1PqXk2Lk9s0aB3cD]
[api] Webhook Error: No signatures found matching the expected signature for payload. Are you passing the raw request body you received from Stripe?
[api]  Learn more about webhook signing and explore webhook integration examples for various frameworks at https://github.com/stripe/stripe-node#webhook-signing
[stripe] 2025-07-01 10:12:44  <--  [400] POST http://localhost:4000/webhooks/stripe [evt_1PqXk2Lk9s0aB3cD]
[stripe] 2025-07-01 10:12:45   --> payment_intent.succeeded [evt_3PqXk3Lk9s0aB3cD0u1V]
[stripe] 2025-07-01 10:12:45  <--  [400] POST http://localhost:4000/webhooks/stripe [evt_3PqXk3Lk9s0aB3cD0u1V]
`, "stripe-listen-secret", "same text, another cause: forwarded by stripe listen")
	h.ask("stripe-cli-expired-key", "pebble-api", "darwin", "stripe trigger checkout.session.completed",
		`Setting up fixture for: checkout_session
Running fixture for: checkout_session
Trigger failed: Request failed, status=401, body={
  "error": {
    "message": "Expired API Key provided: rk_test_*********************************************Xk2p",
    "type": "invalid_request_error"
  }
}
`, "", "never stored: the Stripe CLI's own key expired, no note")
}
