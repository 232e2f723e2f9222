package replay

func unseen2Web(h *hand) {
	h.note(Note{ID: "next-hydration-date", Project: "paperkite", OS: "darwin", Lang: "typescript", At: day(2024, 3, 26),
		Title: "hydration error on /orders: dates rendered in the server's time zone",
		What:  "Next 14 dev overlay on /orders: `Error: Text content does not match server-rendered HTML.` Warning: Text content did not match. Server: \"26/03/2024, 08:00\" Client: \"26/03/2024, 09:00\"",
		Why: "<OrderDate> called toLocaleString() during render; the server renders in UTC, the browser in Europe/Paris, so the first client render differs. " +
			"Only shows for orders near midnight/DST in prod, always in dev.",
		Where:   "app/orders/OrderDate.tsx",
		Learned: "Format dates with an explicit timeZone from the user's profile on both sides (Intl.DateTimeFormat(locale, {timeZone})), or render them only after mount. suppressHydrationWarning only hides it."})
	h.ask("next-hydration-date/e2e", "paperkite", "linux", "npx playwright test tests/orders.spec.ts",
		"Running 3 tests using 1 worker\n\n  1) [chromium] › orders.spec.ts:12:7 › orders list › has no console errors ─────────────────────────\n\n    Error: expect(received).toEqual(expected) // deep equality\n\n    - Expected  - 1\n    + Received  + 4\n\n    - Array []\n    + Array [\n    +   \"Warning: Text content did not match. Server: \\\"03/11/2024, 23:30\\\" Client: \\\"04/11/2024, 00:30\\\"%s\",\n    +   \"Error: Text content does not match server-rendered HTML.\",\n    +   \"Error: There was an error while hydrating. Because the error happened outside of a Suspense boundary, the entire root will switch to client rendering.\",\n    + ]\n\n      18 |     await page.goto('/orders');\n      19 |     await page.waitForLoadState('networkidle');\n    > 20 |     expect(errors).toEqual([]);\n         |                    ^\n\n  1 failed\n    [chromium] › orders.spec.ts:12:7 › orders list › has no console errors ──────────────────────────\n  2 passed (14.2s)\n",
		"next-hydration-date", "unseen2: stored")
	h.ask("next-hydration-nesting", "paperkite", "darwin", "npm run dev",
		"  ▲ Next.js 14.1.4\n  - Local:        http://localhost:3000\n\n ✓ Ready in 2.1s\n ○ Compiling /invoices/[id] ...\n ✓ Compiled /invoices/[id] in 3.4s (1204 modules)\nWarning: In HTML, <div> cannot be a descendant of <p>.\nThis will cause a hydration error.\n    at div\n    at p\n    at InvoiceHeader (webpack-internal:///./app/invoices/[id]/InvoiceHeader.tsx:14:11)\nError: Hydration failed because the initial UI does not match what was rendered on the server.\nError: There was an error while hydrating. Because the error happened outside of a Suspense boundary, the entire root will switch to client rendering.\n",
		"", "unseen2: same text, another cause")

	h.note(Note{ID: "wrangler-nodejs-compat", Project: "paperkite", OS: "linux", Lang: "typescript", At: day(2024, 10, 15),
		Title:   "wrangler deploy: Could not resolve \"crypto\"",
		What:    "worker bundle fails: ✘ [ERROR] Could not resolve \"crypto\" — from jsonwebtoken, which the new auth middleware imports.",
		Why:     "Workers don't expose Node built-ins unless the nodejs_compat flag is on (and the compatibility_date is recent enough for the v2 polyfills).",
		Where:   "workers/edge-auth/wrangler.toml",
		Learned: "compatibility_flags = [\"nodejs_compat\"] and compatibility_date >= 2024-09-23. Better still, jose instead of jsonwebtoken: it uses WebCrypto.",
		Fix:     "printf 'compatibility_flags = [\"nodejs_compat\"]\\n' >> workers/edge-auth/wrangler.toml"})
	h.ask("wrangler-nodejs-compat/deploy", "paperkite", "linux", "npx wrangler deploy",
		"\n ⛅️ wrangler 3.80.4\n-------------------\n\n✘ [ERROR] Could not resolve \"crypto\"\n\n    node_modules/jsonwebtoken/sign.js:8:35:\n      8 │ const { KeyObject, createSecretKey, createPrivateKey } = require('crypto')\n        ╵                                                                    ~~~~~~~~\n\n  The package \"crypto\" wasn't found on the file system but is built into node.\n  - Add the \"nodejs_compat\" compatibility flag to your project.\n\n\n✘ [ERROR] Could not resolve \"util\"\n\n    node_modules/jws/lib/data-stream.js:3:19:\n      3 │ var util = require('util');\n        ╵                    ~~~~~~\n\n  The package \"util\" wasn't found on the file system but is built into node.\n  - Add the \"nodejs_compat\" compatibility flag to your project.\n\n\n✘ [ERROR] Build failed with 2 errors:\n\n",
		"wrangler-nodejs-compat", "unseen2: stored, another module")
	h.ask("wrangler-kv-binding", "paperkite", "linux", "npx wrangler deploy",
		"\n ⛅️ wrangler 3.80.4\n-------------------\n\nTotal Upload: 48.21 KiB / gzip: 11.02 KiB\n\n✘ [ERROR] A request to the Cloudflare API (/accounts/9f8e7d6c5b4a39281706f5e4d3c2b1a0/workers/scripts/edge-auth) failed.\n\n  KV namespace 'b1a2c3d4e5f60718293a4b5c6d7e8f90' is not valid. [code: 10041]\n\n  If you think this is a bug, please open an issue at:\n  https://github.com/cloudflare/workers-sdk/issues/new/choose\n\n",
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "metro-reset-cache", Project: "mosswood", OS: "darwin", Lang: "typescript", At: day(2023, 5, 9),
		Title:   "Metro: Unable to resolve module after switching branches",
		What:    "iOS sim red screen: Unable to resolve module @mosswood/ui from src/screens/Home.tsx — the package is there, it's a workspace.",
		Why:     "Metro's haste map/transform cache still had the layout from before the monorepo move; watchman also had stale state.",
		Learned: "Stop metro, clear watchman, start with --reset-cache. If it's a new workspace package, also check watchFolders in metro.config.js.",
		Fix:     "watchman watch-del-all && npx react-native start --reset-cache"})
	h.ask("metro-reset-cache/ios", "mosswood", "darwin", "npx react-native run-ios --simulator 'iPhone 15'",
		"info Found Xcode workspace \"Mosswood.xcworkspace\"\ninfo Building (using \"xcodebuild -workspace Mosswood.xcworkspace -configuration Debug -scheme Mosswood -destination id=5C1B2A3D-4E5F-6A7B-8C9D-0E1F2A3B4C5D\")\nsuccess Successfully built the app\ninfo Installing and launching your app on iPhone 15\nsuccess Successfully launched the app\n BUNDLE  ./index.js \n\nerror: Error: Unable to resolve module @mosswood/ui from /Users/kim/code/mosswood/apps/mobile/src/screens/Home.tsx: @mosswood/ui could not be found within the project or in these directories:\n  node_modules\n  ../../node_modules\n\nIf you are sure the module exists, try these steps:\n 1. Clear watchman watches: watchman watch-del-all\n 2. Delete node_modules and run yarn install\n 3. Reset Metro's cache: yarn start --reset-cache\n 4. Remove the cache: rm -rf /tmp/metro-*\n   4 | import { View } from 'react-native';\n>  5 | import { Card, Heading } from '@mosswood/ui';\n     |                                ^\n",
		"metro-reset-cache", "unseen2: stored")
	h.ask("metro-port-in-use", "mosswood", "windows", "npx react-native start",
		crlf("info Welcome to React Native v0.73\ninfo Starting dev server on port 8081...\nerror listen EADDRINUSE: address already in use :::8081.\nError: listen EADDRINUSE: address already in use :::8081\n    at Server.setupListenHandle [as _listen2] (node:net:1872:16)\n    at listenInCluster (node:net:1920:12)\n    at Server.listen (node:net:2008:7)\n    at C:\\Users\\dev\\src\\mosswood\\node_modules\\@react-native\\community-cli-plugin\\dist\\commands\\start\\runServer.js:204:12\n"),
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "electron-rebuild-sqlite", Project: "mosswood", OS: "windows", Lang: "typescript", At: day(2024, 4, 23),
		Title: "desktop app: better-sqlite3 NODE_MODULE_VERSION mismatch in Electron",
		What: "Electron main process throws on start:\n```\nError: The module '\\\\?\\C:\\Users\\dev\\src\\mosswood\\apps\\desktop\\node_modules\\better-sqlite3\\build\\Release\\better_sqlite3.node'\n" +
			"was compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 119.\n```",
		Why:     "npm install builds native modules for the system Node (20 → ABI 115); Electron 28 embeds its own Node with ABI 119.",
		Learned: "Rebuild native deps for Electron after every install; added it as postinstall in apps/desktop.",
		Fix:     "npx @electron/rebuild -f -w better-sqlite3"})
	h.ask("electron-rebuild/start", "mosswood", "windows", "npm run start -w apps/desktop",
		crlf("> desktop@0.9.0 start\n> electron-forge start\n\n✔ Checking your system\n✔ Locating application\n✔ Loading configuration\n✔ Preparing native dependencies [0.1s]\n✔ Running generateAssets hook\n\nApp threw an error during load\nError: The module '\\\\?\\C:\\Users\\dev\\src\\mosswood\\apps\\desktop\\node_modules\\better-sqlite3\\build\\Release\\better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 119. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).\n    at process.func [as dlopen] (node:electron/js2c/asar_bundle:2:1869)\n    at Module._extensions..node (node:internal/modules/cjs/loader:1470:18)\n    at Object.func [as .node] (node:electron/js2c/asar_bundle:2:1869)\n"),
		"electron-rebuild-sqlite", "unseen2: stored, Windows paths and CRLF")
	h.ask("electron-rebuild/jest", "mosswood", "linux", "npx jest apps/desktop",
		" FAIL  apps/desktop/src/db/store.test.ts\n  ● Test suite failed to run\n\n    The module '/home/ci/build/mosswood/apps/desktop/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n    was compiled against a different Node.js version using\n    NODE_MODULE_VERSION 119. This version of Node.js requires\n    NODE_MODULE_VERSION 115. Please try re-compiling or re-installing\n    the module (for instance, using `npm rebuild` or `npm install`).\n\n      at Object.<anonymous> (node_modules/better-sqlite3/lib/database.js:48:64)\n\nTest Suites: 1 failed, 1 total\nTests:       0 total\n",
		"", "unseen2: same text, another cause")

	h.note(Note{ID: "sentry-org-slug", Project: "paperkite", OS: "linux", Lang: "typescript", At: day(2023, 8, 29),
		Title:   "sentry-cli sourcemaps upload: Project not found",
		What:    "CI step `sentry-cli sourcemaps upload` → error: Project not found. Ensure that you configured the correct project and organization.",
		Why:     "SENTRY_ORG was set to the display name (\"Paper Kite\") instead of the slug; token was fine.",
		Learned: "Org and project are slugs, as in the URL: paper-kite / web. `sentry-cli info` prints what it resolved.",
		Fix:     "export SENTRY_ORG=paper-kite SENTRY_PROJECT=web"})
	h.ask("sentry-org-slug/ci", "paperkite", "linux", "npx sentry-cli sourcemaps upload --release $GITHUB_SHA .next/static",
		"2023-09-12T10:41:17.5512830Z > Found 214 files\n2023-09-12T10:41:17.5519001Z > Analyzing 214 sources\n2023-09-12T10:41:17.8801227Z > Analyzing completed in 0.331s\n2023-09-12T10:41:18.2214419Z error: Project not found. Ensure that you configured the correct project and organization.\n2023-09-12T10:41:18.2220033Z \n2023-09-12T10:41:18.2220551Z Add --log-level=[info|debug] or export SENTRY_LOG_LEVEL=[info|debug] to see more output.\n2023-09-12T10:41:18.2221002Z Please attach the full debug log to all bug reports.\n2023-09-12T10:41:18.2301776Z ##[error]Process completed with exit code 1.\n",
		"sentry-org-slug", "unseen2: stored, CI log with timestamps")

	h.note(Note{ID: "openapi-31-generator", Project: "paperkite", OS: "linux", Lang: "typescript", At: day(2025, 2, 18),
		Title: "openapi-generator chokes on the 3.1 spec (type arrays)",
		What:  "`npm run gen:client` fails: SpecValidationException ... attribute components.schemas.Order.properties.note.type is not of type `string`",
		Why: "The spec moved to OpenAPI 3.1 and uses type: [string, \"null\"]; openapitools.json still pins generator 6.6.0, which only understands 3.0. " +
			"Passing --skip-validate-spec makes it generate, but nullable fields come out as `any`.",
		Learned: "Bump generator-cli's version in openapitools.json to 7.x (3.1 support), don't skip validation.",
		Fix:     "npx @openapitools/openapi-generator-cli version-manager set 7.10.0"})
	h.ask("openapi-31/gen", "paperkite", "linux", "npm run gen:client",
		"> paperkite@2.4.0 gen:client\n> openapi-generator-cli generate -i api/openapi.yaml -g typescript-fetch -o src/gen/api\n\nDid set selected version to 6.6.0\n[main] INFO  o.o.codegen.DefaultGenerator - Generating with dryRun=false\nException in thread \"main\" org.openapitools.codegen.SpecValidationException: There were issues with the specification. The option can be disabled via validateSpec (Maven/Gradle) or --skip-validate-spec (CLI).\n | Error count: 2, Warning count: 0\nErrors: \n\t-attribute components.schemas.Order.properties.note.type is not of type `string`\n\t-attribute components.schemas.Refund.properties.reason.type is not of type `string`\n\n\tat org.openapitools.codegen.config.CodegenConfigurator.toContext(CodegenConfigurator.java:717)\n\tat org.openapitools.codegen.config.CodegenConfigurator.toClientOptInput(CodegenConfigurator.java:744)\n\tat org.openapitools.codegen.cmd.Generate.execute(Generate.java:527)\n",
		"openapi-31-generator", "unseen2: stored, stack trace")
	h.ask("openapi-missing-ref", "paperkite", "linux", "npm run gen:client",
		"> paperkite@2.4.0 gen:client\n> openapi-generator-cli generate -i api/openapi.yaml -g typescript-fetch -o src/gen/api\n\nDid set selected version to 7.10.0\n[main] WARN  o.o.codegen.utils.ModelUtils - Failed to get the schema name: #/components/schemas/RefundLine\n[main] ERROR o.o.codegen.DefaultCodegen - Unknown type found in the schema: null\nException in thread \"main\" java.lang.RuntimeException: Could not process model 'Refund'.Please make sure that your schema is correct!\n\tat org.openapitools.codegen.DefaultGenerator.generateModels(DefaultGenerator.java:551)\n",
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "paperkite-previews", Project: "paperkite", OS: "linux", Lang: "typescript", At: day(2025, 4, 1), Type: "decision", NoFailure: true,
		Title:   "preview deploys: Pages for the site, wrangler versions for workers",
		What:    "Every PR gets a Cloudflare Pages preview of the site and `wrangler versions upload` (not deploy) for each worker; the PR bot comments both URLs. Production deploys only from main through the release workflow.",
		Why:     "Two people deployed workers from laptops in the same week and overwrote each other's routes.",
		Learned: "Nobody runs `wrangler deploy` locally against production; the API token on laptops is preview-only."})
}

func unseen2Docs(h *hand) {
	h.note(Note{ID: "tinytex-missing-sty", Project: "quillmark", OS: "linux", Lang: "tex", At: day(2022, 9, 6),
		Title:   "CI LaTeX: fontawesome5.sty not found (TinyTeX)",
		What:    "! LaTeX Error: File `fontawesome5.sty' not found. — the CI image uses TinyTeX, which only has a minimal package set.",
		Why:     "The new CV template \\usepackage{fontawesome5}; locally I have full TeX Live so it never failed there.",
		Learned: "tlmgr install the package in the CI setup step (and keep the list in ci/tex-packages.txt). `tlmgr search --global --file fontawesome5.sty` finds the package when the names differ.",
		Fix:     "tlmgr install $(cat ci/tex-packages.txt)"})
	h.note(Note{ID: "miktex-autoinstall", Project: "quillmark", OS: "windows", Lang: "tex", At: day(2023, 1, 17),
		Title:   "MiKTeX on Windows: missing .sty not installed on the fly",
		What:    "On the Windows build box the same `File 'fontawesome5.sty' not found` — MiKTeX should install it on the fly but doesn't.",
		Why:     "MiKTeX was installed for all users with AutoInstall=0 (\"never\") and the build runs non-interactively, so it can't ask.",
		Learned: "Turn on automatic installation for the admin config and refresh the FNDB; no tlmgr on MiKTeX.",
		Fix:     "initexmf --admin --set-config-value [MPM]AutoInstall=1; miktex --admin fndb refresh"})
	tex := "This is pdfTeX, Version 3.141592653-2.6-1.40.24 (TeX Live 2022) (preloaded format=pdflatex)\n restricted \\write18 enabled.\nentering extended mode\n(./cv.tex\nLaTeX2e <2022-06-01> patch level 5\nL3 programming layer <2022-08-30>\n(/opt/TinyTeX/texmf-dist/tex/latex/base/article.cls\nDocument Class: article 2022/07/02 v1.4n Standard LaTeX document class\n(/opt/TinyTeX/texmf-dist/tex/latex/base/size11.clo))\n\n! LaTeX Error: File `fontawesome5.sty' not found.\n\nType X to quit or <RETURN> to proceed,\nor enter new name. (Default extension: sty)\n\nEnter file name: \n! Emergency stop.\n<read *> \n         \nl.7 \\usepackage\n               {xcolor}^^M\nNo pages of output.\nTranscript written on cv.log.\n"
	h.ask("latex-sty/linux", "quillmark", "linux", "pdflatex -interaction=nonstopmode cv.tex", tex, "tinytex-missing-sty", "unseen2: twin on another system")
	h.ask("latex-sty/windows", "quillmark", "windows", "pdflatex -interaction=nonstopmode cv.tex",
		crlf("This is pdfTeX, Version 3.141592653-2.6-1.40.25 (MiKTeX 23.1)\nentering extended mode\n(cv.tex\nLaTeX2e <2022-11-01> patch level 1\n(C:\\Program Files\\MiKTeX\\tex/latex/base\\article.cls\nDocument Class: article 2022/07/02 v1.4n Standard LaTeX document class\n(C:\\Program Files\\MiKTeX\\tex/latex/base\\size11.clo))\n\n! LaTeX Error: File `fontawesome5.sty' not found.\n\nType X to quit or <RETURN> to proceed,\nor enter new name. (Default extension: sty)\n\n! Emergency stop.\n<read *> \n\nl.7 \\usepackage\n               {xcolor}^^M\nNo pages of output.\nTranscript written on cv.log.\n"),
		"miktex-autoinstall", "unseen2: twin on another system, Windows paths and CRLF")
	h.ask("latex-minted-shell-escape", "quillmark", "linux", "latexmk -pdf handbook.tex",
		"Latexmk: applying rule 'pdflatex'...\nRule 'pdflatex': File changes, etc:\n   Changed files, or newly in use since previous run(s):\n      'handbook.tex'\n------------\nRun number 1 of rule 'pdflatex'\n------------\n(/opt/TinyTeX/texmf-dist/tex/latex/minted/minted.sty\n\n! Package minted Error: You must invoke LaTeX with the -shell-escape flag.\n\nSee the minted package documentation for explanation.\nType  H <return>  for immediate help.\n ...                                              \n                                                  \nl.12 \\begin{document}\n",
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "pandoc-pdf-engine", Project: "quillmark", OS: "darwin", Lang: "markdown", At: day(2023, 4, 27),
		Title:   "pandoc → PDF on the Mac: pdflatex not found",
		What:    "make pdf: `pdflatex not found. Please select a different --pdf-engine or install pdflatex`",
		Why:     "Fresh Mac, pandoc from brew but no TeX at all. Didn't want 5 GB of MacTeX for one handbook.",
		Learned: "Use tectonic as the engine (brew install tectonic, fetches packages on demand) and set it in the Makefile so everyone gets the same thing.",
		Fix:     "brew install tectonic && pandoc handbook.md -o handbook.pdf --pdf-engine=tectonic"})
	h.ask("pandoc-pdf-engine/make", "quillmark", "darwin", "make pdf",
		"pandoc --from=markdown+smart --toc -V geometry:margin=2.5cm -o build/handbook.pdf handbook.md\npdflatex not found. Please select a different --pdf-engine or install pdflatex\nmake: *** [pdf] Error 47\n",
		"pandoc-pdf-engine", "unseen2: stored, short tail")
	h.ask("pandoc-pdf-engine/inkwell", "inkwell", "darwin", "pandoc notes.md -o notes.pdf",
		"pdflatex not found. Please select a different --pdf-engine or install pdflatex\n",
		"", "unseen2: another project's project note")

	h.note(Note{ID: "ffmpeg-conda-x264", Project: "quillmark", OS: "linux", Lang: "python", At: day(2024, 5, 14),
		Title: "ffmpeg: Unknown encoder 'libx264' inside the conda env",
		What:  "the screencast renderer fails at the encode step with `Unknown encoder 'libx264'` — but only in the conda env, /usr/bin/ffmpeg has it.",
		Why: "conda-forge's ffmpeg build in our env is the LGPL variant (no x264, which is GPL); the env's bin/ffmpeg shadows the system one on PATH. " +
			"ffmpeg -encoders | grep 264 shows only libopenh264 there.",
		Learned: "Pin the GPL build from conda-forge (ffmpeg=*=gpl*) in environment.yml; or pass -c:v libopenh264 if licence matters.",
		Fix:     "conda install -y -c conda-forge 'ffmpeg=6.1=gpl*'"})
	h.ask("ffmpeg-x264/render", "quillmark", "linux", "python -m quillmark.screencast render docs/tour.yaml",
		"ffmpeg version 6.1.1 Copyright (c) 2000-2023 the FFmpeg developers\n  built with gcc 12.3.0 (conda-forge gcc 12.3.0-5)\n  configuration: --prefix=/home/ci/miniforge3/envs/quillmark --cc=/home/conda/feedstock_root/build_artifacts/ffmpeg_1707226141432/_build_env/bin/x86_64-conda-linux-gnu-cc --disable-gpl --enable-libopenh264 --enable-libvpx --enable-libdav1d\n  libavutil      58. 29.100 / 58. 29.100\n  libavcodec     60. 31.102 / 60. 31.102\nInput #0, image2, from 'build/frames/tour_%05d.png':\n  Duration: 00:01:12.40, start: 0.000000, bitrate: N/A\n  Stream #0:0: Video: png, rgba(pc), 1920x1080, 25 fps, 25 tbr, 25 tbn\nUnknown encoder 'libx264'\nsubprocess.CalledProcessError: Command '['ffmpeg', '-y', '-framerate', '25', '-i', 'build/frames/tour_%05d.png', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', 'build/tour.mp4']' returned non-zero exit status 8.\n",
		"ffmpeg-conda-x264", "unseen2: stored")
	h.ask("ffmpeg-odd-height", "quillmark", "linux", "ffmpeg -y -i build/raw/intro.mov -c:v libx264 -pix_fmt yuv420p build/intro.mp4",
		"Stream mapping:\n  Stream #0:0 -> #0:0 (prores (native) -> h264 (libx264))\nPress [q] to stop, [?] for help\n[libx264 @ 0x55d0c1a2b3c0] height not divisible by 2 (1280x721)\n[vost#0:0/libx264 @ 0x55d0c1a2a8c0] Error while opening encoder - maybe incorrect parameters such as bit_rate, rate, width or height.\nError while filtering: Generic error in an external library\n[out#0/mp4 @ 0x55d0c1a29f00] Nothing was written into output file, because at least one of its streams received no packets.\nConversion failed!\n",
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "imagemagick-pdf-policy", Project: "quillmark", Scope: "global", OS: "linux", Lang: "shell", At: day(2021, 4, 12),
		Title:   "ImageMagick: not allowed by the security policy `PDF'",
		What:    "thumbnails of the PDFs fail: convert-im6.q16: attempt to perform an operation not allowed by the security policy `PDF' @ error/constitute.c/IsCoderAuthorized/408.",
		Why:     "Debian/Ubuntu's ImageMagick 6 ships a policy.xml that disables the PDF/PS coders (Ghostscript CVEs).",
		Learned: "Only on build machines that render our own PDFs: set the PDF policy rights to read|write in /etc/ImageMagick-6/policy.xml. For untrusted uploads use pdftoppm instead.",
		Fix:     "sudo sed -i 's/rights=\"none\" pattern=\"PDF\"/rights=\"read|write\" pattern=\"PDF\"/' /etc/ImageMagick-6/policy.xml"})
	h.ask("imagemagick-pdf/thumbs", "quillmark", "linux", "make thumbnails",
		"mkdir -p build/thumbs\nfor f in build/*.pdf; do convert -density 150 \"$f[0]\" -resize 400x \"build/thumbs/$(basename \"$f\" .pdf).png\"; done\nconvert-im6.q16: attempt to perform an operation not allowed by the security policy `PDF' @ error/constitute.c/IsCoderAuthorized/421.\nconvert-im6.q16: no images defined `build/thumbs/handbook.png' @ error/convert.c/ConvertImageCommand/3229.\nmake: *** [Makefile:41: thumbnails] Error 1\n",
		"imagemagick-pdf-policy", "unseen2: stored")
	h.ask("imagemagick-pdf/paperkite", "paperkite", "linux", "node scripts/og-images.mjs",
		"Error: Command failed: convert -density 200 public/invoices/sample.pdf[0] -quality 90 public/og/invoice.jpg\nconvert-im6.q16: attempt to perform an operation not allowed by the security policy `PDF' @ error/constitute.c/IsCoderAuthorized/421.\nconvert-im6.q16: no images defined `public/og/invoice.jpg' @ error/convert.c/ConvertImageCommand/3229.\n\n    at ChildProcess.exithandler (node:child_process:422:12)\n    at ChildProcess.emit (node:events:517:28)\n",
		"imagemagick-pdf-policy", "unseen2: global note, another project and tool")

	h.note(Note{ID: "godot-templates-win", Project: "emberfall", OS: "windows", Lang: "gdscript", At: day(2025, 8, 19),
		Title:   "Godot 4.3 export: No export template found",
		What:    "Export → Windows Desktop greyed out with \"No export template found at the expected path\" after updating the editor to 4.3.",
		Why:     "Export templates are per editor version; 4.2's are in the folder but 4.3.stable's aren't.",
		Learned: "Editor → Manage Export Templates → Download and Install (or unpack the .tpz into %APPDATA%\\Godot\\export_templates\\4.3.stable).",
		Fix:     "Expand-Archive Godot_v4.3-stable_export_templates.tpz -DestinationPath $env:APPDATA\\Godot\\export_templates\\tmp; Move-Item $env:APPDATA\\Godot\\export_templates\\tmp\\templates $env:APPDATA\\Godot\\export_templates\\4.3.stable"})
	h.note(Note{ID: "godot-templates-ci", Project: "emberfall", OS: "linux", Lang: "gdscript", At: day(2025, 9, 2),
		Title:   "headless export in CI: templates missing under ~/.local/share",
		What:    "godot --headless --export-release fails on the runner: `ERROR: Cannot export project with preset \"Linux\" due to configuration errors: No export template found at the expected path`.",
		Why:     "The runner only has the editor binary; on Linux templates are looked up in ~/.local/share/godot/export_templates/<version>/.",
		Learned: "Cache the templates in the workflow and unpack them there before exporting.",
		Fix:     "mkdir -p ~/.local/share/godot/export_templates && unzip -q Godot_v4.3-stable_export_templates.tpz -d /tmp/t && mv /tmp/t/templates ~/.local/share/godot/export_templates/4.3.stable"})
	h.ask("godot-templates/ci", "emberfall", "linux", "godot --headless --export-release Linux build/emberfall.x86_64",
		"Godot Engine v4.3.stable.official.77dcf97d8 - https://godotengine.org\n\nsavepack: begin: Packing steps: 102\nERROR: Cannot export project with preset \"Linux\" due to configuration errors:\nNo export template found at the expected path:\n/home/runner/.local/share/godot/export_templates/4.3.stable/linux_release.x86_64\n\n   at: _fs_changed (editor/editor_node.cpp:1037)\nERROR: Project export for preset \"Linux\" failed.\n   at: _fs_changed (editor/editor_node.cpp:1051)\n",
		"godot-templates-ci", "unseen2: twin on another system")
	h.ask("godot-templates/win", "emberfall", "windows", "godot.exe --headless --export-release \"Windows Desktop\" build\\emberfall.exe",
		crlf("Godot Engine v4.3.stable.official.77dcf97d8 - https://godotengine.org\n\nERROR: Cannot export project with preset \"Windows Desktop\" due to configuration errors:\nNo export template found at the expected path:\nC:\\Users\\dev\\AppData\\Roaming\\Godot\\export_templates\\4.3.stable\\windows_release_x86_64.exe\n\n   at: _fs_changed (editor/editor_node.cpp:1037)\nERROR: Project export for preset \"Windows Desktop\" failed.\n"),
		"godot-templates-win", "unseen2: twin on another system, CRLF")
}
