package replay

import "time"

// Node and TypeScript: ESM against CommonJS, node-gyp and its Python,
// Vite aliases, Next.js app router and images, npm ci and peer
// dependencies, tsc's module settings, ESLint's typed linting, Vitest.
func unseen5Node(h *hand) {
	h.note(Note{ID: "esm-fetch", Project: "orchard-api", OS: "linux", Lang: "typescript", At: day(2022, time.July, 12),
		Title:   "node-fetch 3 can't be required",
		What:    "Server crashed on boot after npm update:\n\n```\nError [ERR_REQUIRE_ESM]: require() of ES Module /srv/orchard-api/node_modules/node-fetch/src/index.js from /srv/orchard-api/dist/clients/http.js not supported.\n```",
		Why:     "node-fetch 3 is ESM only; our tsc output is CommonJS.",
		Learned: "pinned node-fetch@^2 (and @types/node-fetch@2). Watch renovate PRs for it.",
		Where:   "package.json, src/clients/http.ts",
		Fix:     "npm install node-fetch@2"})
	h.note(Note{ID: "esm-move", Project: "orchard-api", OS: "linux", Lang: "typescript", At: day(2024, time.October, 2), ProseOver: "esm-fetch",
		Title:   "orchard-api is an ES module now",
		What:    "ERR_REQUIRE_ESM again, now from nanoid 5 and p-limit 6.",
		Why:     "More and more deps publish ESM only; every one of them breaks our CommonJS build the same way.",
		Learned: "Pinning each package to its last CommonJS major (what I did for node-fetch two years ago) doesn't scale and node-fetch isn't needed at all since Node 18 has fetch. Did the real move instead: \"type\": \"module\" in package.json, module and moduleResolution NodeNext in tsconfig, .js extensions on relative imports, __dirname replaced by import.meta.dirname. The old pins are gone.",
		Where:   "package.json, tsconfig.json"})
	h.ask("esm-move/1", "orchard-api", "linux", "node dist/server.js", `node:internal/modules/cjs/loader:1327
      throw new ERR_REQUIRE_ESM(filename, true);
      ^

Error [ERR_REQUIRE_ESM]: require() of ES Module /srv/orchard-api/node_modules/nanoid/index.js from /srv/orchard-api/dist/lib/ids.js not supported.
Instead change the require of index.js in /srv/orchard-api/dist/lib/ids.js to a dynamic import() which is available in all CommonJS modules.
    at Object.<anonymous> (/srv/orchard-api/dist/lib/ids.js:4:18)
    at Module._compile (node:internal/modules/cjs/loader:1469:14) {
  code: 'ERR_REQUIRE_ESM'
}

Node.js v20.17.0`, "esm-move", u5Prose, "esm-fetch")
	h.ask("esm-move/2", "orchard-api", "darwin", "npm test", `> orchard-api@3.4.0 test
> node --test dist/

/Users/jo/orchard-api/dist/queue/worker.js:7
const p_limit_1 = __importDefault(require("p-limit"));
                                  ^
Error [ERR_REQUIRE_ESM]: require() of ES Module /Users/jo/orchard-api/node_modules/p-limit/index.js from /Users/jo/orchard-api/dist/queue/worker.js not supported.
Instead change the require of index.js in /Users/jo/orchard-api/dist/queue/worker.js to a dynamic import() which is available in all CommonJS modules.`, "esm-move", u5Prose, "esm-fetch")

	h.note(Note{ID: "import-outside", Project: "bramble-docs", OS: "linux", Lang: "javascript", At: day(2023, time.February, 13),
		Title:   "build-index.js: import statement outside a module",
		What:    "SyntaxError: Cannot use import statement outside a module (scripts/build-index.js)",
		Why:     "package.json has no \"type\": \"module\" and the script is .js, so node reads it as CommonJS.",
		Learned: "renamed the scripts to .mjs — can't flip the whole package to ESM because the docusaurus config is CJS.",
		Where:   "scripts/build-index.mjs"})
	h.note(Note{ID: "import-tsnode", Project: "bramble-docs", OS: "linux", Lang: "typescript", At: day(2024, time.May, 21),
		Title:   "ts-node seed script: Cannot use import statement",
		What:    "npx ts-node scripts/seed-search.ts → SyntaxError: Cannot use import statement outside a module",
		Why:     "tsconfig.json says module: ESNext (for the site), so ts-node emits import statements and node loads them as CJS.",
		Learned: "Stopped using ts-node: tsx runs it without any tsconfig juggling (npx tsx scripts/seed-search.ts). Alternative was a ts-node override block in tsconfig with module commonjs.",
		Where:   "tsconfig.json, package.json scripts",
		Fix:     "npx tsx scripts/seed-search.ts"})
	h.ask("import-outside/1", "bramble-docs", "linux", "node scripts/check-links.js", `/home/runner/work/bramble-docs/bramble-docs/scripts/check-links.js:1
import { readFile } from "node:fs/promises";
^^^^^^

SyntaxError: Cannot use import statement outside a module
    at internalCompileFunction (node:internal/vm:76:18)
    at wrapSafe (node:internal/modules/cjs/loader:1283:20)
    at Module._compile (node:internal/modules/cjs/loader:1328:27)
    at Module._extensions..js (node:internal/modules/cjs/loader:1422:10)
    at Module.load (node:internal/modules/cjs/loader:1203:32)
    at Module._load (node:internal/modules/cjs/loader:1019:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:128:12)
    at node:internal/main/run_main_module:28:49

Node.js v20.11.1`, "import-outside", u5Cause)
	h.ask("import-tsnode/1", "bramble-docs", "darwin", "npx ts-node scripts/build-sitemap.ts", `(node:52114) Warning: To load an ES module, set "type": "module" in the package.json or use the .mjs extension.
/Users/mia/bramble-docs/scripts/build-sitemap.ts:1
import { globby } from "globby";
^^^^^^

SyntaxError: Cannot use import statement outside a module
    at internalCompileFunction (node:internal/vm:73:18)
    at wrapSafe (node:internal/modules/cjs/loader:1274:20)
    at Module._compile (node:internal/modules/cjs/loader:1320:27)
    at Module.m._compile (/Users/mia/bramble-docs/node_modules/ts-node/src/index.ts:1618:23)
    at Module._extensions..js (node:internal/modules/cjs/loader:1414:10)
    at Object.require.extensions.<computed> [as .ts] (/Users/mia/bramble-docs/node_modules/ts-node/src/index.ts:1621:12)
    at Module.load (node:internal/modules/cjs/loader:1197:32)`, "import-tsnode", u5Cause)

	h.note(Note{ID: "gyp-distutils", Project: "orchard-api", OS: "darwin", Lang: "javascript", At: day(2023, time.November, 20),
		Title:   "bcrypt rebuild fails: python has no distutils",
		What:    "npm install → node-gyp → `ModuleNotFoundError: No module named 'distutils'`",
		Why:     "brew moved python3 to 3.12 which removed distutils; the node-gyp bundled with npm 9 still imports it.",
		Learned: "python3 -m pip install setuptools (it ships a distutils shim) — needs --break-system-packages on brew python, so I did it in pyenv's 3.11 and pointed npm at it with npm_config_python.",
		Fix:     "brew install python-setuptools"})
	h.note(Note{ID: "gyp-upgrade", Project: "orchard-api", OS: "darwin", Lang: "javascript", At: day(2025, time.March, 4), ProseOver: "gyp-distutils",
		Title:   "distutils error from node-gyp: upgrade node-gyp instead",
		What:    "`No module named 'distutils'` during npm install on the new M3, python 3.13.",
		Why:     "old node-gyp again (npm 9 bundled with node 18).",
		Learned: "The setuptools shim workaround from 2023 doesn't hold on 3.13 + brew any more, forget it. node-gyp 10 no longer needs distutils at all: use node 20+ (npm 10 bundles node-gyp 10), or npm i -g node-gyp@latest and npm_config_node_gyp. Also replaced bcrypt with bcryptjs so there's nothing native left to build.",
		Fix:     "npm install -g node-gyp@latest"})
	h.ask("gyp-upgrade/1", "orchard-api", "darwin", "npm ci", `npm ERR! code 1
npm ERR! path /Users/jo/orchard-api/node_modules/bcrypt
npm ERR! command failed
npm ERR! command sh -c node-pre-gyp install --fallback-to-build
npm ERR! Failed to execute '/usr/local/bin/node /usr/local/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js configure --fallback-to-build --module=/Users/jo/orchard-api/node_modules/bcrypt/lib/binding/napi-v3/bcrypt_lib.node' (1)
npm ERR! node-pre-gyp info it worked if it ends with ok
npm ERR! node-pre-gyp WARN Pre-built binaries not installable for bcrypt@5.1.1 and node@18.20.4 (node-v108 ABI, unknown) (falling back to source compile with node-gyp)
npm ERR! gyp info using node-gyp@9.4.1
npm ERR! gyp info using node@18.20.4 | darwin | arm64
npm ERR! gyp info find Python using Python version 3.13.1 found at "/opt/homebrew/opt/python@3.13/bin/python3.13"
npm ERR! Traceback (most recent call last):
npm ERR!   File "/usr/local/lib/node_modules/npm/node_modules/node-gyp/gyp/gyp_main.py", line 42, in <module>
npm ERR!     import gyp  # noqa: E402
npm ERR!   File "/usr/local/lib/node_modules/npm/node_modules/node-gyp/gyp/pylib/gyp/__init__.py", line 9, in <module>
npm ERR!     import gyp.input
npm ERR!   File "/usr/local/lib/node_modules/npm/node_modules/node-gyp/gyp/pylib/gyp/input.py", line 19, in <module>
npm ERR!     from distutils.version import StrictVersion
npm ERR! ModuleNotFoundError: No module named 'distutils'
npm ERR! gyp ERR! configure error 
npm ERR! gyp ERR! stack Error: §gyp§ failed with exit code: 1`, "gyp-upgrade", u5Prose, "gyp-distutils")

	h.note(Note{ID: "gyp-python-win", Project: "fernweh-app", OS: "windows", Lang: "javascript", At: day(2024, time.February, 6),
		Title:   "better-sqlite3 install on Windows: no Python",
		What:    "gyp ERR! find Python — Could not find any Python installation to use",
		Why:     "only the Microsoft Store alias python.exe was on PATH, which node-gyp rejects (it opens the store).",
		Learned: "winget install Python.Python.3.12, turn off the python.exe/python3.exe App execution aliases in Settings, and npm config set python to the real path. VS Build Tools with the C++ workload was already there.",
		Fix:     "winget install -e --id Python.Python.3.12"})
	h.note(Note{ID: "gyp-python-alpine", Project: "fernweh-app", OS: "linux", Lang: "javascript", At: day(2024, time.April, 29),
		Title:   "node:20-alpine image can't build better-sqlite3",
		What:    "docker build: Could not find any Python installation to use (node-gyp)",
		Why:     "no prebuilt binary for musl + this node ABI, so it compiles, and alpine has no python/make/g++",
		Learned: "apk add --no-cache --virtual .gyp python3 make g++ before npm ci, apk del .gyp after. Or node:20-bookworm-slim where the prebuilds match.",
		Where:   "Dockerfile"})
	const gypNoPython = `gyp ERR! find Python 
gyp ERR! find Python Python is not set from command line or npm configuration
gyp ERR! find Python Python is not set from environment variable PYTHON
gyp ERR! find Python checking if "python3" can be used
gyp ERR! find Python - "python3" is not in PATH or produced an error
gyp ERR! find Python checking if "python" can be used
gyp ERR! find Python - "python" is not in PATH or produced an error
gyp ERR! find Python 
gyp ERR! find Python **********************************************************
gyp ERR! find Python You need to install the latest version of Python.
gyp ERR! find Python Node-gyp should be able to find and use Python. If not,
gyp ERR! find Python you can try one of the following options:
gyp ERR! find Python - Use the switch --python="/path/to/pythonexecutable"
gyp ERR! find Python   (accepted by both node-gyp and npm)
gyp ERR! find Python - Set the environment variable PYTHON
gyp ERR! find Python - Set the npm configuration variable python:
gyp ERR! find Python   npm config set python "/path/to/pythonexecutable"
gyp ERR! find Python For more information consult the documentation at:
gyp ERR! find Python https://github.com/nodejs/node-gyp#installation
gyp ERR! find Python **********************************************************
gyp ERR! find Python 
gyp ERR! configure error 
gyp ERR! stack Error: Could not find any Python installation to use`
	h.ask("gyp-python-win/1", "fernweh-app", "windows", "npm install better-sqlite3", u5crlf(`npm ERR! code 1
npm ERR! path C:\Users\lukas\fernweh-app\node_modules\better-sqlite3
npm ERR! command failed
npm ERR! command C:\WINDOWS\system32\cmd.exe /d /s /c prebuild-install || node-gyp rebuild --release
npm ERR! prebuild-install warn install No prebuilt binaries found (target=22.11.0 runtime=node arch=x64 libc= platform=win32)
npm ERR! gyp info it worked if it ends with ok
npm ERR! gyp info using node-gyp@10.2.0
npm ERR! gyp info using node@22.11.0 | win32 | x64
`+gypNoPython+`
npm ERR! gyp ERR! System Windows_NT 10.0.22631
npm ERR! gyp ERR! cwd C:\Users\lukas\fernweh-app\node_modules\better-sqlite3`), "gyp-python-win", u5Twin)
	h.ask("gyp-python-alpine/1", "fernweh-app", "linux", "docker build -t fernweh-mock-api -f api.Dockerfile .", `#7 [3/5] RUN npm ci --omit=dev
#7 9.114 npm error code 1
#7 9.114 npm error path /app/node_modules/better-sqlite3
#7 9.115 npm error command failed
#7 9.115 npm error command sh -c prebuild-install || node-gyp rebuild --release
#7 9.116 npm error prebuild-install warn install No prebuilt binaries found (target=20.18.0 runtime=node arch=x64 libc=musl platform=linux)
`+gypNoPython+`
#7 9.120 npm error gyp ERR! System Linux 6.8.0-1017-azure
#7 ERROR: process "/bin/sh -c npm ci --omit=dev" did not complete successfully: exit code: 1`, "gyp-python-alpine", u5Twin)

	h.note(Note{ID: "vite-alias", Project: "fernweh-app", OS: "darwin", Lang: "typescript", At: day(2023, time.July, 25),
		Title:   "@/ imports: tsc fine, vite can't resolve",
		What:    "[vite] Internal server error: Failed to resolve import \"@/components/Map\" from \"src/pages/Trip.tsx\". Does the file exist?",
		Why:     "paths in tsconfig.json only tell the type checker; vite does its own resolution.",
		Learned: "resolve.alias { '@': fileURLToPath(new URL('./src', import.meta.url)) } in vite.config.ts (vite-tsconfig-paths plugin also works). vitest reads the same config, so tests are fixed too.",
		Where:   "vite.config.ts"})
	h.ask("vite-alias/1", "fernweh-app", "linux", "npx vite build", `vite v5.4.10 building for production...
transforming (31) src/pages/Settings.tsx
\e[31m✗\e[39m Build failed in 812ms
\e[31merror during build:
\e[31m[vite]: Rollup failed to resolve import "@/hooks/useTrips" from "/home/runner/work/fernweh-app/fernweh-app/src/pages/Settings.tsx".
This is most likely unintended because it can break your application at runtime.
If you do want to externalize this module explicitly add it to
§build.rollupOptions.external§\e[31m
    at viteWarn (file:///home/runner/work/fernweh-app/fernweh-app/node_modules/vite/dist/node/chunks/dep-BWSbWtLw.js:65589:17)\e[39m`, "vite-alias", u5Stored)
	h.ask("vite-leaflet", "fernweh-app", "darwin", "npm run dev", `  \e[32m\e[1mVITE\e[22m v5.4.10\e[39m  \e[2mready in \e[0m\e[1m384\e[22m\e[2m\e[0m ms\e[22m

  \e[32m➜\e[39m  \e[1mLocal\e[22m:   \e[36mhttp://localhost:\e[1m5173\e[22m/\e[39m
\e[2m10:42:17\e[22m \e[31m\e[1m[vite]\e[22m\e[39m \e[31mInternal server error: Failed to resolve import "leaflet/dist/leaflet.css" from "src/main.tsx". Does the file exist?\e[39m
  Plugin: \e[35mvite:import-analysis\e[39m
  File: \e[36m/Users/mia/fernweh-app/src/main.tsx\e[39m:4:7
\e[33m  2  |  import ReactDOM from "react-dom/client";
  3  |  import App from "./App";
  4  |  import "leaflet/dist/leaflet.css";
     |          ^\e[39m`, "", u5NeverObj)
	h.ask("vite-config-plugin", "fernweh-app", "windows", "npx vite", u5crlf(`failed to load config from C:\Users\lukas\fernweh-app\vite.config.ts
error when starting dev server:
Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@vitejs/plugin-react' imported from C:\Users\lukas\fernweh-app\vite.config.ts.timestamp-1718031234567-5a1f0c2e9d4b.mjs
    at packageResolve (node:internal/modules/esm/resolve:854:9)
    at moduleResolve (node:internal/modules/esm/resolve:927:18)`), "", u5Generic)

	h.note(Note{ID: "use-client", Project: "tinsel-ui", OS: "darwin", Lang: "typescript", At: day(2024, time.April, 8),
		Title:   "app router: hooks in a server component",
		What:    "next build: `Error: useState only works in Client Components. Add the \"use client\" directive at the top of the file to use it.`",
		Why:     "components under app/ are server components unless marked; the date picker uses useState.",
		Learned: "\"use client\" at the top of the interactive leaf (components/DateRangePicker.tsx), not the page — the page can stay a server component and import it.",
		Where:   "components/DateRangePicker.tsx"})
	h.ask("use-client/1", "tinsel-ui", "linux", "npm run build", `> tinsel-ui@0.9.0 build
> next build

  ▲ Next.js 14.2.15

   Creating an optimized production build ...
Failed to compile.

./components/CartDrawer.tsx
Error: 
  \e[31mx\e[0m You're importing a component that needs useEffect. It only works in a Client Component but none of its parents are marked with "use client", so they're Server Components by default.
  │ Learn more: https://nextjs.org/docs/getting-started/react-essentials
  │ 
  │ 
   ╭─[/home/runner/work/tinsel-ui/tinsel-ui/components/CartDrawer.tsx:1:1]
 1 │ import { useEffect, useState } from "react";
   · \e[35;1m         ─────────\e[0m
 2 │ import { useCart } from "@/lib/cart";

Import trace for requested module:
./components/CartDrawer.tsx
./app/(shop)/layout.tsx


> Build failed because of webpack errors`, "use-client", u5Stored)
	h.ask("next-params", "tinsel-ui", "darwin", "npm run dev", ` ⚠ ./app/blog/[slug]/page.tsx
Error: Route "/blog/[slug]" used §params.slug§. §params§ should be awaited before using its properties. Learn more: https://nextjs.org/docs/messages/sync-dynamic-apis
    at slug (app/blog/[slug]/page.tsx:14:31)
  12 | export default async function Post({ params }: Props) {
  13 |   const post = await getPost(
> 14 |     params.slug
     |            ^
 GET /blog/hello-world 500 in 612ms`, "", u5Tool)

	h.note(Note{ID: "next-image-host", Project: "tinsel-ui", OS: "linux", Lang: "typescript", At: day(2023, time.January, 18),
		Title:   "next/image refuses the CDN host",
		What:    "Invalid src prop on next/image, hostname \"cdn.tinsel.example\" is not configured under images in your next.config.js",
		Why:     "remote images must be allow-listed",
		Learned: "images.remotePatterns in next.config.js with protocol https and the hostname (domains is deprecated). Needs a dev server restart.",
		Where:   "next.config.js"})
	h.ask("next-image-host/1", "tinsel-ui", "darwin", "npm run dev", ` ⨯ Error: Invalid src prop (https://images.ctfassets.net/9x2k/hero-summer.jpg) on §next/image§, hostname "images.ctfassets.net" is not configured under images in your §next.config.js§
See more info: https://nextjs.org/docs/messages/next-image-unconfigured-host
    at defaultLoader (webpack-internal:///(ssr)/./node_modules/next/dist/shared/lib/image-loader.js:41:23)
    at eval (webpack-internal:///(ssr)/./node_modules/next/dist/shared/lib/get-img-props.js:102:36)
digest: "2881923047"
 GET /summer 500 in 241ms`, "next-image-host", u5Stored)

	h.note(Note{ID: "eresolve-react", Project: "tinsel-ui", OS: "darwin", Lang: "typescript", At: day(2023, time.June, 14),
		Title:   "npm ERESOLVE: react-beautiful-dnd wants react 17",
		What:    "npm install after the react 18 bump → npm ERR! code ERESOLVE unable to resolve dependency tree; peer react@\"^16.8.5 || ^17.0.0\" from react-beautiful-dnd",
		Why:     "react-beautiful-dnd is unmaintained and never declared react 18.",
		Learned: "Replaced it with @hello-pangea/dnd (a maintained fork, same API). --legacy-peer-deps would have hidden it, we don't use that.",
		Where:   "package.json"})
	h.note(Note{ID: "eresolve-eslint", Project: "tinsel-ui", OS: "linux", Lang: "typescript", At: day(2025, time.May, 6),
		Title:   "ESLint 9 vs typescript-eslint 6 peer conflict",
		What:    "npm ci in CI: ERESOLVE could not resolve — peer eslint@\"^7.0.0 || ^8.0.0\" from @typescript-eslint/parser@6.21.0",
		Why:     "renovate bumped eslint to 9 alone; typescript-eslint 6 only accepts eslint 8.",
		Learned: "Upgrade to typescript-eslint v8 (the single 'typescript-eslint' package with flat config); group eslint + typescript-eslint in renovate so they move together.",
		Where:   "package.json, renovate.json"})
	h.ask("eresolve-react/1", "tinsel-ui", "darwin", "npm install react-dnd-kit-wrapper", `npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR! 
npm ERR! While resolving: tinsel-ui@0.6.2
npm ERR! Found: react@18.2.0
npm ERR! node_modules/react
npm ERR!   react@"^18.2.0" from the root project
npm ERR! 
npm ERR! Could not resolve dependency:
npm ERR! peer react@"^16.8.5 || ^17.0.0" from react-beautiful-dnd@13.1.1
npm ERR! node_modules/react-beautiful-dnd
npm ERR!   react-beautiful-dnd@"^13.1.1" from the root project
npm ERR! 
npm ERR! Fix the upstream dependency conflict, or retry
npm ERR! this command with --force or --legacy-peer-deps
npm ERR! to accept an incorrect (and potentially broken) dependency resolution.`, "eresolve-react", u5Cause)
	h.ask("eresolve-eslint/1", "tinsel-ui", "linux", "npm ci", `npm error code ERESOLVE
npm error ERESOLVE could not resolve
npm error
npm error While resolving: @typescript-eslint/eslint-plugin@6.21.0
npm error Found: eslint@9.14.0
npm error node_modules/eslint
npm error   dev eslint@"^9.14.0" from the root project
npm error
npm error Could not resolve dependency:
npm error peer eslint@"^7.0.0 || ^8.0.0" from @typescript-eslint/eslint-plugin@6.21.0
npm error node_modules/@typescript-eslint/eslint-plugin
npm error   dev @typescript-eslint/eslint-plugin@"^6.21.0" from the root project
npm error
npm error Fix the upstream dependency conflict, or retry
npm error this command with --force or --legacy-peer-deps
npm error to accept an incorrect (and potentially broken) dependency resolution.
npm error
npm error A complete log of this run can be found in: /home/runner/.npm/_logs/2025-05-06T09_12_44_118Z-debug-0.log`, "eresolve-eslint", u5Cause)

	h.note(Note{ID: "ts-nodenext", Project: "orchard-api", OS: "linux", Lang: "typescript", At: day(2024, time.June, 11),
		Title:   "TS 5.2 made module and moduleResolution go together",
		What:    "tsc: error TS5110: Option 'module' must be set to 'NodeNext' when option 'moduleResolution' is set to 'NodeNext'.",
		Why:     "tsconfig had module commonjs + moduleResolution nodenext, which TS now rejects.",
		Learned: "set both to NodeNext (then package.json type decides CJS vs ESM output).",
		Where:   "tsconfig.json"})
	h.ask("ts-nodenext/1", "orchard-api", "linux", "npx tsc -p tsconfig.build.json", `\e[96mtsconfig.build.json\e[0m:\e[93m5\e[0m:\e[93m5\e[0m - \e[91merror\e[0m\e[90m TS5110: \e[0mOption 'module' must be set to 'NodeNext' when option 'moduleResolution' is set to 'NodeNext'.

\e[7m5\e[0m     "module": "ES2022",
\e[7m \e[0m \e[91m    ~~~~~~~~\e[0m


Found 1 error in tsconfig.build.json\e[90m:5\e[0m`, "ts-nodenext", u5Stored)
	h.ask("ts-undefined", "orchard-api", "linux", "npx tsc --noEmit", `src/routes/orders.ts(44,7): error TS2322: Type 'string | undefined' is not assignable to type 'string'.
  Type 'undefined' is not assignable to type 'string'.`, "", u5Tool)

	h.note(Note{ID: "eslint-project", Project: "fernweh-app", OS: "darwin", Lang: "typescript", At: day(2023, time.October, 3),
		Title:   "typed lint rules choke on vite.config.ts",
		What:    "Parsing error: \"parserOptions.project\" has been provided for @typescript-eslint/parser.\nThe file does not match your project config: vite.config.ts.",
		Why:     "tsconfig.json only includes src/; config files at the root are in no project.",
		Learned: "add them to tsconfig.node.json's include and list both tsconfigs in parserOptions.project. Newer typescript-eslint: parserOptions.projectService: true with allowDefaultProject for loose files.",
		Where:   ".eslintrc.cjs, tsconfig.node.json"})
	h.ask("eslint-project/1", "fernweh-app", "darwin", "npx eslint .", `
/Users/mia/fernweh-app/playwright.config.ts
  0:0  \e[31merror\e[39m  Parsing error: ESLint was configured to run on §<tsconfigRootDir>/playwright.config.ts§ using §parserOptions.project§: <tsconfigRootDir>/tsconfig.json, <tsconfigRootDir>/tsconfig.node.json
However, none of those TSConfigs include this file. Either:
- Change ESLint's list of included files to not include this file
- Change one of those TSConfigs to include this file
- Create a new TSConfig that includes this file and include it in your parserOptions.project
See the typescript-eslint docs for more info: https://typescript-eslint.io/troubleshooting/typed-linting#i-get-errors-telling-me-eslint-was-configured-to-run--however-that-tsconfig-does-not--none-of-those-tsconfigs-include-this-file

\e[31m\e[1m✖ 1 problem (1 error, 0 warnings)\e[22m\e[39m`, "eslint-project", u5Stored)

	h.note(Note{ID: "vitest-jsdom", Project: "fernweh-app", OS: "linux", Lang: "typescript", At: day(2024, time.September, 17),
		Title:   "vitest: document is not defined",
		What:    "component tests fail with ReferenceError: document is not defined",
		Why:     "vitest's default environment is node.",
		Learned: "test.environment = 'jsdom' in vite.config.ts + npm i -D jsdom. (happy-dom is faster but broke our leaflet tests.)",
		Where:   "vite.config.ts",
		Fix:     "npm install -D jsdom"})
	h.ask("vitest-jsdom/1", "fernweh-app", "linux", "npx vitest run", ` \e[31m❯\e[39m src/components/TripCard.test.tsx \e[2m(2 tests | \e[22m\e[31m2 failed\e[39m\e[2m)\e[22m\e[33m 14\e[2mms\e[22m\e[39m
\e[31m   \e[31m×\e[31m TripCard\e[2m > \e[22mrenders the title\e[39m
\e[31m     → document is not defined\e[39m

\e[31m⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯\e[39m

\e[31m\e[1mReferenceError\e[22m: document is not defined\e[39m
\e[36m \e[2m❯\e[22m render node_modules/@testing-library/react/dist/pure.js:\e[2m257:5\e[22m\e[39m
\e[36m \e[2m❯\e[22m src/components/TripCard.test.tsx:\e[2m9:5\e[22m\e[39m`, "vitest-jsdom", u5Stored)
	h.ask("vitest-window-tinsel", "tinsel-ui", "linux", "npx vitest run", `FAIL  lib/__tests__/storage.test.ts > readCart > returns [] when empty
ReferenceError: window is not defined
 ❯ readCart lib/storage.ts:3:10
 ❯ lib/__tests__/storage.test.ts:6:12

 Test Files  1 failed | 11 passed (12)
      Tests  1 failed | 64 passed (65)`, "", u5Other)

	h.note(Note{ID: "npm-ci-sync", Project: "bramble-docs", Scope: "global", OS: "linux", Lang: "javascript", At: day(2023, time.August, 22),
		Title:   "npm ci: lock file out of sync with package.json",
		What:    "`npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync.",
		Why:     "package.json edited (or a dep added with another npm major) without regenerating the lock; npm 7+ also checks nested peer entries.",
		Learned: "Run npm install locally with the same npm major as CI, commit package-lock.json. Don't delete the lock to 'fix' it. Check npm -v first when it only fails in CI.",
		Fix:     "npm install && git add package-lock.json"})
	h.ask("npm-ci-sync/1", "orchard-api", "linux", "npm ci", `npm ERR! code EUSAGE
npm ERR! 
npm ERR! §npm ci§ can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with §npm install§ before continuing.
npm ERR! 
npm ERR! Missing: zod@3.23.8 from lock file
npm ERR! Missing: @types/express@4.17.21 from lock file
npm ERR! 
npm ERR! Clean install a project
npm ERR! 
npm ERR! Usage:
npm ERR! npm ci
npm ERR! 
npm ERR! Options:
npm ERR! [--install-strategy <hoisted|nested|shallow|linked>] [--legacy-bundling]
...
npm ERR! aliases: clean-install, ic, install-clean, isntall-clean`, "npm-ci-sync", u5Global)
	h.ask("npm-jsonparse", "tinsel-ui", "darwin", "npm install", `npm ERR! code EJSONPARSE
npm ERR! path /Users/nora/tinsel-ui/package.json
npm ERR! JSON.parse Unexpected token "}" (0x7D) in JSON at position 812 while parsing near "...\"^5.4.5\",\n  },\n  \"engines\": {..."
npm ERR! JSON.parse Failed to parse JSON data.
npm ERR! JSON.parse Note: package.json must be actual JSON, not just JavaScript.`, "", u5Generic)
	h.ask("npm-enoent-pkg", "kiln-deploy", "linux", "docker build -t kiln-hooks ./hooks", `#8 [4/6] RUN npm ci
#8 0.612 npm error code ENOENT
#8 0.612 npm error syscall open
#8 0.612 npm error path /app/package.json
#8 0.613 npm error errno -2
#8 0.613 npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/app/package.json'
#8 0.613 npm error enoent This is related to npm not being able to find a file.`, "", u5Generic)

	h.note(Note{ID: "npm-g-eacces", Project: "tinsel-ui", Scope: "global", OS: "darwin", Lang: "javascript", At: day(2022, time.January, 25),
		Title:   "npm -g wants root",
		What:    "npm install -g pnpm → EACCES: permission denied, mkdir '/usr/local/lib/node_modules/pnpm'",
		Why:     "node from the pkg installer; the global prefix is root-owned",
		Learned: "don't sudo npm. Either a node version manager (fnm/nvm, prefix in $HOME) or npm config set prefix ~/.npm-global and add ~/.npm-global/bin to PATH.",
		Fix:     "npm config set prefix ~/.npm-global"})
	h.ask("npm-g-eacces/1", "copperkettle", "linux", "npm install -g @redocly/cli", `npm ERR! code EACCES
npm ERR! syscall mkdir
npm ERR! path /usr/lib/node_modules/@redocly
npm ERR! errno -13
npm ERR! Error: EACCES: permission denied, mkdir '/usr/lib/node_modules/@redocly'
npm ERR!  [Error: EACCES: permission denied, mkdir '/usr/lib/node_modules/@redocly'] {
npm ERR!   errno: -13,
npm ERR!   code: 'EACCES',
npm ERR!   syscall: 'mkdir',
npm ERR!   path: '/usr/lib/node_modules/@redocly'
npm ERR! }
npm ERR! 
npm ERR! The operation was rejected by your operating system.
npm ERR! It is likely you do not have the permissions to access this file as the current user`, "npm-g-eacces", u5Global)

	h.note(Note{ID: "node-engine", Project: "bramble-docs", OS: "linux", Lang: "javascript", At: day(2024, time.December, 9),
		Title:   "docs build: runner node too old for docusaurus 3",
		What:    "yarn install on the deploy workflow: error @docusaurus/core@3.6.3: The engine \"node\" is incompatible with this module. Expected version \">=18.0\". Got \"16.20.2\"",
		Why:     "the workflow never set a node version and the self-hosted runner has 16.",
		Learned: "actions/setup-node with node-version-file: .nvmrc (20) in every workflow that runs node.",
		Where:   ".github/workflows/deploy.yml, .nvmrc"})
	h.ask("node-engine/1", "bramble-docs", "linux", "yarn install --frozen-lockfile", `yarn install v1.22.22
[1/4] Resolving packages...
[2/4] Fetching packages...
error @docusaurus/plugin-content-docs@3.7.0: The engine "node" is incompatible with this module. Expected version ">=18.0". Got "16.20.2"
error Found incompatible module.
info Visit https://yarnpkg.com/en/docs/cli/install for documentation about this command.
Error: Process completed with exit code 1.`, "node-engine", u5Stored)
}
