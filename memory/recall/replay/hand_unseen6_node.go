package replay

import "time"

// Node and TypeScript web: storefront-next (Next.js, macOS and Linux),
// tripmate (Express and Prisma, Linux and Windows), metricsboard (a pnpm
// monorepo with jest, later vitest).
func unseen6Node(h *hand) {
	h.note(Note{ID: "node-prisma-engine", Project: "tripmate", OS: "darwin", Lang: "typescript", At: day(2023, time.April, 26),
		Title:   "prisma client generated on the mac doesn't run in the alpine container",
		What:    "PrismaClientInitializationError: Prisma Client could not locate the Query Engine for runtime \"linux-musl-openssl-3.0.x\".",
		Why:     "node_modules (and the generated client) was copied into the image from my machine; only the darwin-arm64 engine was in it",
		Where:   "prisma/schema.prisma, Dockerfile, .dockerignore",
		Learned: "generator client { binaryTargets = [\"native\", \"linux-musl-openssl-3.0.x\"] } and run prisma generate inside the Dockerfile after npm ci; node_modules goes into .dockerignore.",
		Fix:     "npx prisma generate"})
	h.ask("node-prisma-engine/1", "tripmate", "linux", "docker compose up api", `tripmate-api-1  | > tripmate-api@2.3.0 start
tripmate-api-1  | > node dist/server.js
tripmate-api-1  | 
tripmate-api-1  | {"level":30,"time":1719834011223,"msg":"listening on :4000"}
tripmate-api-1  | PrismaClientInitializationError: Prisma Client could not locate the Query Engine for runtime "linux-musl-arm64-openssl-3.0.x".
tripmate-api-1  | 
tripmate-api-1  | This happened because Prisma Client was generated for "darwin-arm64", but the actual deployment required "linux-musl-arm64-openssl-3.0.x".
tripmate-api-1  | Add "linux-musl-arm64-openssl-3.0.x" to §binaryTargets§ in the "schema.prisma" file and run §prisma generate§ after saving it:
tripmate-api-1  | 
tripmate-api-1  | generator client {
tripmate-api-1  |   provider      = "prisma-client-js"
tripmate-api-1  |   binaryTargets = ["native", "linux-musl-arm64-openssl-3.0.x"]
tripmate-api-1  | }
tripmate-api-1  | 
tripmate-api-1  | The following locations have been searched:
tripmate-api-1  |   /app/node_modules/.prisma/client
tripmate-api-1  |   /app/node_modules/@prisma/client
tripmate-api-1  |     at yl (/app/node_modules/@prisma/client/runtime/library.js:64:805)
tripmate-api-1  |   clientVersion: '5.16.1',
tripmate-api-1  |   errorCode: undefined
tripmate-api-1 exited with code 1`, "node-prisma-engine", "hand: stored")
	h.ask("node-prisma-p1001/1", "tripmate", "linux", "npx prisma migrate deploy", `Environment variables loaded from .env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": PostgreSQL database "tripmate", schema "public" at "db:5432"

Error: P1001: Can't reach database server at §db§:§5432§

Please make sure your database server is running at §db§:§5432§.`, "", "same tool, another error")

	h.note(Note{ID: "node-prisma-drift", Project: "tripmate", OS: "linux", Lang: "typescript", At: day(2024, time.November, 4),
		Title:   "migrate dev: drift detected on the shared dev db",
		What:    "§Drift detected: Your database schema is not in sync with your migration history.§ and then it wants to reset the whole dev database",
		Why:     "someone used prisma db push against the shared dev database to try a column, so the schema has a column no migration created",
		Learned: "Do NOT accept the reset on the shared db. Find the drift with prisma migrate diff --from-migrations prisma/migrations --to-url $DATABASE_URL --shadow-database-url ..., drop the stray column by hand, then migrate dev works. db push only against your own local db.",
	})
	h.ask("node-prisma-drift/1", "tripmate", "linux", "npx prisma migrate dev --name add_trip_tags", `Environment variables loaded from .env
Prisma schema loaded from prisma/schema.prisma
Datasource "db": PostgreSQL database "tripmate_dev", schema "public" at "dev-db.tripmate.internal:5432"

Drift detected: Your database schema is not in sync with your migration history.

The following is a summary of the differences between the expected database schema given your migrations files, and the actual schema of the database.

It should be understood as the set of changes to get from the expected schema to the actual schema.

[*] Changed the §Trip§ table
  [+] Added column §coverUrl§

? We need to reset the "public" schema at "dev-db.tripmate.internal:5432"
Do you want to continue? All data will be lost. » (y/N)`, "node-prisma-drift", "hand: stored")

	h.note(Note{ID: "node-next-dynamic", Project: "storefront-next", OS: "linux", Lang: "typescript", At: day(2024, time.March, 12),
		Title:   "next build: route couldn't be rendered statically because it used cookies",
		What:    "Error: Dynamic server usage: Route /account couldn't be rendered statically because it used §cookies§.",
		Why:     "app router tries to prerender /account at build; the page reads cookies() through our getSession helper",
		Where:   "app/account/page.tsx",
		Learned: "mark the route dynamic: export const dynamic = 'force-dynamic' in the page (or layout). Don't wrap cookies() in try/catch to hide it, Next uses the thrown error to detect dynamic usage.",
	})
	h.ask("node-next-dynamic/1", "storefront-next", "linux", "pnpm build", `   ▲ Next.js 14.2.5
   - Environments: .env.production

   Creating an optimized production build ...
 ✓ Compiled successfully
   Linting and checking validity of types ...
   Collecting page data ...
   Generating static pages (0/23) ...
Error: Dynamic server usage: Route /orders/[id] couldn't be rendered statically because it used §cookies§. See more info here: https://nextjs.org/docs/messages/dynamic-server-error
    at l (/app/.next/server/chunks/8948.js:1:37220)
    at d (/app/.next/server/chunks/2251.js:4:1120)
    at getSession (/app/.next/server/app/orders/[id]/page.js:1:5012)

> Export encountered errors on following paths:
	/orders/[id]/page: /orders/[id]
 ELIFECYCLE  Command failed with exit code 1.`, "node-next-dynamic", "hand: stored")
	h.ask("node-next-image/1", "storefront-next", "darwin", "pnpm build", `   ▲ Next.js 14.2.5

   Creating an optimized production build ...
 ✓ Compiled successfully
   Generating static pages (14/23) ...
Error occurred prerendering page "/about". Read more: https://nextjs.org/docs/messages/prerender-error
Error: Image with src "/team/hero.jpg" is missing required "width" property.
    at getImgProps (/Users/ana/src/storefront-next/node_modules/.pnpm/next@14.2.5_react-dom@18.3.1_react@18.3.1/node_modules/next/dist/shared/lib/get-img-props.js:301:27)
 ✓ Generating static pages (23/23)

> Export encountered errors on following paths:
	/about/page: /about
 ELIFECYCLE  Command failed with exit code 1.`, "", "same tool, another error")

	h.note(Note{ID: "node-next-public-env", Project: "storefront-next", OS: "darwin", Lang: "typescript", At: day(2022, time.October, 18),
		Title:   "docker build of the storefront: NEXT_PUBLIC_API_BASE is not set",
		What:    "our next.config.js guard throws at build: Error: NEXT_PUBLIC_API_BASE is not set",
		Why:     "NEXT_PUBLIC_* are inlined at BUILD time; the compose file only provides them at runtime (environment:), which is too late",
		Where:   "next.config.js, Dockerfile",
		Learned: "Pass them as build args: ARG NEXT_PUBLIC_API_BASE + ENV NEXT_PUBLIC_API_BASE=$NEXT_PUBLIC_API_BASE before RUN pnpm build, and build: args: in compose. One image per environment as a consequence.",
	})
	h.ask("node-next-public-env/1", "storefront-next", "linux", "docker build -t storefront:staging .", `#14 [builder 5/5] RUN pnpm build
#14 1.204 
#14 1.204 > storefront-next@0.9.0 build /app
#14 1.204 > next build
#14 1.204 
#14 2.917 Error: NEXT_PUBLIC_API_BASE is not set
#14 2.917     at Object.<anonymous> (/app/next.config.js:4:9)
#14 2.917     at Module._compile (node:internal/modules/cjs/loader:1256:14)
#14 2.918 ELIFECYCLE Command failed with exit code 1.
#14 ERROR: process "/bin/sh -c pnpm build" did not complete successfully: exit code: 1`, "node-next-public-env", "hand: stored")

	h.note(Note{ID: "node-jest-esm", Project: "metricsboard", OS: "linux", Lang: "typescript", At: day(2022, time.December, 7),
		Title:   "jest: Cannot use import statement outside a module (nanoid)",
		What:    "§SyntaxError: Cannot use import statement outside a module§ from node_modules/nanoid/index.js when running jest",
		Why:     "nanoid 4 is ESM-only; jest doesn't transform node_modules by default",
		Where:   "packages/web/jest.config.js",
		Learned: "transformIgnorePatterns: ['node_modules/(?!(nanoid)/)'] so babel-jest transforms it. (Or pin nanoid 3.)",
	})
	h.note(Note{ID: "node-vitest-inline", Project: "metricsboard", OS: "linux", Lang: "typescript", At: day(2025, time.April, 15),
		Title:      "vitest: ESM syntax error from a dependency — inline it",
		Supersedes: "node-jest-esm",
		What:       "After the jest -> vitest move the web package fails with §SyntaxError: Cannot use import statement outside a module§ from a dep (@metricsboard/charts-kit ships .js with import but no \"type\": \"module\").",
		Why:        "vitest externalizes node_modules and lets node load them; node treats that file as CJS. The jest transformIgnorePatterns trick is gone with jest.",
		Where:      "packages/web/vitest.config.ts",
		Learned:    "test: { server: { deps: { inline: ['@metricsboard/charts-kit'] } } } makes vite transform it. Long term: fix the package's exports/type field.",
	})
	h.ask("node-vitest-inline/1", "metricsboard", "linux", "pnpm --filter web test", `
 RUN  v2.1.3 /srv/metricsboard/packages/web

 ❯ src/widgets/Sparkline.test.tsx (0 test)

⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/widgets/Sparkline.test.tsx [ src/widgets/Sparkline.test.tsx ]
/srv/metricsboard/node_modules/.pnpm/d3-scale-lite@1.2.0/node_modules/d3-scale-lite/src/index.js:1
import { linear } from "./linear.js";
^^^^^^

SyntaxError: Cannot use import statement outside a module
 ❯ Object.compileFunction node:vm:360:18
 ❯ wrapSafe node:internal/modules/cjs/loader:1088:15

Module /srv/metricsboard/node_modules/.pnpm/d3-scale-lite@1.2.0/node_modules/d3-scale-lite/src/index.js seems to be an ES Module but shipped in a CommonJS package. You might want to create an issue to the package "d3-scale-lite" asking them to ship the file in .mjs extension or add "type": "module" in their package.json.

As a temporary workaround you can try to inline the package by updating your config:

// vitest.config.js
export default {
  test: {
    server: {
      deps: {
        inline: [
          "d3-scale-lite"
        ]
      }
    }
  }
}

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 Test Files  1 failed | 31 passed (32)
      Tests  214 passed (214)`, "node-vitest-inline", "superseded, declared", "node-jest-esm")
	h.ask("node-vitest-jsdom/1", "metricsboard", "linux", "pnpm --filter web test", `
 RUN  v2.1.3 /srv/metricsboard/packages/web

 ❯ src/widgets/Legend.test.tsx (1 test | 1 failed) 4ms
   × Legend > renders series names
     → document is not defined

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/widgets/Legend.test.tsx > Legend > renders series names
ReferenceError: document is not defined
 ❯ render ../../node_modules/.pnpm/@testing-library+react@16.0.1/node_modules/@testing-library/react/dist/pure.js:257:5
 ❯ src/widgets/Legend.test.tsx:9:5

 Test Files  1 failed | 31 passed (32)`, "", "same tool, another error")

	h.note(Note{ID: "node-pnpm-frozen", Project: "metricsboard", OS: "linux", Lang: "typescript", At: day(2023, time.August, 22),
		Title:   "CI: pnpm install --frozen-lockfile, lockfile not up to date",
		What:    "ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with \"frozen-lockfile\" because pnpm-lock.yaml is not up to date with packages/api/package.json",
		Why:     "dependabot PR bumped packages/api/package.json but its lockfile update failed silently (different pnpm major locally vs the bot)",
		Where:   "pnpm-lock.yaml, packages/api/package.json",
		Learned: "pin pnpm via \"packageManager\": \"pnpm@8.6.12\" in the root package.json + corepack, run pnpm install locally and commit the lockfile.",
		Fix:     "corepack enable && pnpm install"})
	h.ask("node-pnpm-frozen/1", "metricsboard", "linux", "pnpm install --frozen-lockfile", `Scope: all 6 workspace projects
 ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/packages/ingest/package.json

Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"

    Failure reason:
    specifiers in the lockfile ({"zod":"^3.22.4","fastify":"^4.26.0"}) don't match specs in package.json ({"zod":"^3.23.8","fastify":"^4.26.0"})
Error: Process completed with exit code 1.`, "node-pnpm-frozen", "hand: stored")
	h.ask("node-pnpm-frozen/2", "storefront-next", "linux", "pnpm install --frozen-lockfile", `Lockfile is up to date, resolution step is skipped
 ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/package.json

Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm install --no-frozen-lockfile"

    Failure reason:
    specifiers in the lockfile ({"next":"14.2.5"}) don't match specs in package.json ({"next":"14.2.15"})`, "", "another project's project note")
	h.ask("node-pnpm-no-manifest/1", "metricsboard", "darwin", "pnpm --filter ./packages/web add recharts", ` ERR_PNPM_NO_IMPORTER_MANIFEST_FOUND  No package.json (or package.yaml, or package.json5) was found in "/Users/sol/work/metricsboard/packages/web".`, "", "generic file name")

	h.note(Note{ID: "node-eaddrinuse-win", Project: "tripmate", OS: "windows", Lang: "typescript", At: day(2023, time.November, 8),
		Title:   "EADDRINUSE :::4000 on windows after ts-node-dev crash",
		What:    "Error: listen EADDRINUSE: address already in use :::4000",
		Why:     "the previous node process survives the terminal being closed (ts-node-dev child)",
		Learned: "netstat -ano | findstr :4000 gives the PID, then taskkill /PID <pid> /F. Or npx kill-port 4000. lsof doesn't exist here.",
		Fix:     "netstat -ano | findstr :4000"})
	h.note(Note{ID: "node-eaddrinuse-unix", Project: "tripmate", OS: "darwin", Lang: "typescript", At: day(2024, time.January, 11),
		Title:   "port 4000 already taken (leftover nodemon)",
		What:    "§listen EADDRINUSE: address already in use :::4000§",
		Why:     "orphaned node from an earlier nodemon run",
		Learned: "lsof -ti tcp:4000 | xargs kill. On macOS also check it's not AirPlay (that one's 5000/7000).",
		Fix:     "lsof -ti tcp:4000 | xargs kill"})
	h.ask("node-eaddrinuse-win/1", "tripmate", "windows", "npm run dev", u6crlf(`
> tripmate-api@2.4.1 dev
> ts-node-dev --respawn src/server.ts

[INFO] 10:02:13 ts-node-dev ver. 2.0.0 (using ts-node ver. 10.9.2, typescript ver. 5.4.5)
node:events:497
      throw er; // Unhandled 'error' event
      ^

Error: listen EADDRINUSE: address already in use :::4000
    at Server.setupListenHandle [as _listen2] (node:net:1898:16)
    at listenInCluster (node:net:1946:12)
    at Server.listen (node:net:2044:7)
    at bootstrap (C:\Users\sam\tripmate\src\app.ts:27:10)
    at Object.<anonymous> (C:\Users\sam\tripmate\src\server.ts:41:5)
Emitted 'error' event on Server instance at:
    at emitErrorNT (node:net:1925:8)
  code: 'EADDRINUSE',
  errno: -4091,
  syscall: 'listen',
  address: '::',
  port: 4000
}
[ERROR] 10:02:14 Error: listen EADDRINUSE: address already in use :::4000
`), "node-eaddrinuse-win", "twin on another system")
	h.ask("node-eaddrinuse-unix/1", "tripmate", "darwin", "npm run dev", `
> tripmate-api@2.5.0 dev
> nodemon --watch src --exec tsx src/server.ts

\e[33m[nodemon] 3.1.0\e[39m
\e[33m[nodemon] watching path(s): src/**/*\e[39m
\e[32m[nodemon] starting §tsx src/server.ts§\e[39m
node:events:497
      throw er; // Unhandled 'error' event
      ^

Error: listen EADDRINUSE: address already in use :::4000
    at Server.setupListenHandle [as _listen2] (node:net:1898:16)
    at listenInCluster (node:net:1946:12)
    at Server.listen (node:net:2044:7)
    at Function.listen (/Users/sam/tripmate/node_modules/express/lib/application.js:635:24)
  code: 'EADDRINUSE',
  errno: -48,
  syscall: 'listen',
  address: '::',
  port: 4000
}

Node.js v20.12.2
\e[31m[nodemon] app crashed - waiting for file changes before starting...\e[39m`, "node-eaddrinuse-unix", "twin on another system")

	h.note(Note{ID: "node-yarn-home-project", Project: "storefront-next", OS: "darwin", Lang: "typescript", At: day(2023, time.July, 4),
		Title:   "yarn 4 thinks my home directory is the project",
		What:    "Usage Error: The nearest package directory (/Users/ana/src/storefront-next) doesn't seem to be part of the project declared in /Users/ana.",
		Why:     "a stray ~/package.json and ~/yarn.lock from some global install; yarn berry walks up and takes the topmost lockfile as the project root",
		Learned: "delete ~/package.json, ~/yarn.lock (and ~/.yarnrc.yml if it's not yours on purpose). touch yarn.lock in the repo also works but hides the problem.",
		Fix:     "rm ~/package.json ~/yarn.lock"})
	h.ask("node-yarn-home-project/1", "storefront-next", "darwin", "yarn install", `Usage Error: The nearest package directory (/Users/ana/src/storefront-next/packages/ui) doesn't seem to be part of the project declared in /Users/ana.

- If /Users/ana isn't intended to be a project, remove any yarn.lock and/or package.json file there.
- If /Users/ana is intended to be a project, it might be that you forgot to list packages/ui in its workspace configuration.
- Finally, if /Users/ana is fine and you intend packages/ui to be treated as a completely separate project (not even a workspace), create an empty yarn.lock file in it.

$ yarn install [--json] [--immutable] [--immutable-cache] [--refresh-lockfile] [--check-cache] [--check-resolutions] [--inline-builds] [--mode #0]`, "node-yarn-home-project", "hand: stored")

	h.note(Note{ID: "node-openssl-legacy", Project: "storefront-next", OS: "linux", Lang: "javascript", At: day(2022, time.January, 20),
		Title:   "next 11 build on node 17: digital envelope routines::unsupported",
		What:    "Error: error:0308010C:digital envelope routines::unsupported (webpack 4 hashing with md4)",
		Why:     "Node 17+ uses OpenSSL 3 which disables md4; webpack 4 in Next 11 uses it",
		Where:   "package.json, Dockerfile",
		Learned: "set NODE_OPTIONS=--openssl-legacy-provider for build and dev scripts until we get to Next 12",
		Fix:     "export NODE_OPTIONS=--openssl-legacy-provider"})
	h.note(Note{ID: "node-openssl-flag-gone", Project: "storefront-next", OS: "linux", Lang: "typescript", At: day(2024, time.June, 3),
		Title:     "node refuses --openssl-legacy-provider in NODE_OPTIONS",
		ProseOver: "node-openssl-legacy",
		What:      "CI build stopped at the very first step with §node: --openssl-legacy-provider is not allowed in NODE_OPTIONS§.",
		Why:       "That flag was a crutch for the Next 11/webpack 4 days; we are on Next 14 (webpack 5) and it hasn't been needed for a long time, but it lingered in the Dockerfile ENV and in package.json scripts. The new node:20 base image is built against a shared OpenSSL and rejects the option outright.",
		Where:     "Dockerfile, package.json",
		Learned:   "Removed NODE_OPTIONS=--openssl-legacy-provider everywhere (grep the repo, it was in three places). Nothing replaces it.",
	})
	h.ask("node-openssl-flag-gone/1", "storefront-next", "linux", "pnpm build", `
> storefront-next@1.4.2 build /home/runner/work/storefront-next/storefront-next
> NODE_OPTIONS=--openssl-legacy-provider next build

node: --openssl-legacy-provider is not allowed in NODE_OPTIONS
 ELIFECYCLE  Command failed with exit code 9.
Error: Process completed with exit code 9.`, "node-openssl-flag-gone", "superseded in prose", "node-openssl-legacy")
	h.ask("node-express-headers/1", "tripmate", "linux", "npm test", `
> tripmate-api@2.5.0 test
> jest --runInBand

 FAIL  src/routes/bookings.test.ts
  ● POST /bookings › rejects overlapping dates

    Error [ERR_HTTP_HEADERS_SENT]: Cannot set headers after they are sent to the client
        at ServerResponse.setHeader (node:_http_outgoing:659:11)
        at ServerResponse.header (/home/sam/tripmate/node_modules/express/lib/response.js:794:10)
        at ServerResponse.json (/home/sam/tripmate/node_modules/express/lib/response.js:275:10)
        at /home/sam/tripmate/src/routes/bookings.ts:58:21

Test Suites: 1 failed, 11 passed, 12 total
Tests:       1 failed, 87 passed, 88 total`, "", "never stored: another failure")
	h.ask("node-npm-ejsonparse/1", "tripmate", "windows", "npm install", u6crlf(`npm error code EJSONPARSE
npm error path C:\Users\sam\tripmate/package.json
npm error JSON.parse Unexpected token "}" (0x7D) in JSON at position 1187 while parsing near "...\"^29.7.0\",\r\n  },\r\n  \"engines\": {\r\n   ..."
npm error JSON.parse Failed to parse JSON data.
npm error JSON.parse Note: package.json must be actual JSON, not just JavaScript.
npm error A complete log of this run can be found in: C:\Users\sam\AppData\Local\npm-cache\_logs\2025-03-04T09_11_27_420Z-debug-0.log
`), "", "generic file name")
}
