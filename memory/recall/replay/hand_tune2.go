package replay

// handTune2 are more hand cases of the tune part: long logs around the
// error, notes that keep the message in where or learned, mac paths
// against Linux ones, a note about two errors, a global note written on
// another system whose fix holds anywhere.
func handTune2() ([]Note, []Query) {
	h := &hand{split: Tune}
	h.note(Note{ID: "gradle-daemon", Project: "android", OS: "darwin", Lang: "kotlin", At: day(2024, 8, 21),
		Title:   "Gradle daemon killed on the laptop",
		What:    "assembleDebug dies half way; the only useful line near the end of the log.",
		Why:     "the Kotlin compiler daemon and Gradle daemon together need more than the default 512 MB metaspace.",
		Where:   "Gradle daemon disappeared unexpectedly (it may have been killed or may have crashed)",
		Learned: "Raise org.gradle.jvmargs in gradle.properties to -Xmx4g -XX:MaxMetaspaceSize=1g.", Fix: "./gradlew --stop && ./gradlew assembleDebug"})
	h.ask("gradle-daemon/long", "android", "darwin", "./gradlew assembleDebug",
		"> Task :app:preBuild UP-TO-DATE\n> Task :app:preDebugBuild UP-TO-DATE\n> Task :app:mergeDebugNativeDebugMetadata NO-SOURCE\n> Task :app:compileDebugKotlin\nw: file:///Users/kim/code/android/app/src/main/java/com/acme/Main.kt:12:9 Variable 'x' is never used\nw: file:///Users/kim/code/android/app/src/main/java/com/acme/Feed.kt:88:13 'onActivityResult' is deprecated\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nGradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n\nBUILD FAILED in 2m 14s\n",
		"gradle-daemon", "hand: the message kept in where, a long log")

	h.note(Note{ID: "venv-mac", Project: "scraper", Scope: "global", OS: "darwin", Lang: "python", At: day(2024, 12, 2),
		Title:   "python3 -m venv fails: ensurepip is not available",
		What:    "The virtual environment was not created successfully because ensurepip is not available.",
		Why:     "Debian-based images ship python3 without the venv module; it is a separate package.",
		Learned: "Install the venv package of the exact python version.", Fix: "sudo apt-get install -y python3.12-venv"})
	h.ask("venv/linux", "reports", "linux", "python3 -m venv .venv",
		"The virtual environment was not created successfully because ensurepip is not\navailable.  On Debian/Ubuntu systems, you need to install the python3-venv\npackage using the following command.\n\n    apt install python3.12-venv\n\nYou may need to use sudo with that command.  After installing the python3-venv\npackage, recreate your virtual environment.\n\nFailing command: /home/ci/build/reports/.venv/bin/python3\n",
		"venv-mac", "hand: global note written on another system")

	h.note(Note{ID: "ts-node-esm", Project: "api-gw", OS: "linux", Lang: "typescript", At: day(2025, 2, 17),
		Title:   "ts-node can't run the migration script after type: module",
		What:    "TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension \".ts\" for /srv/api-gw/scripts/migrate.ts, then the retry without the loader failed with SyntaxError: Cannot use import statement outside a module",
		Why:     "package.json got \"type\": \"module\", and ts-node needs its ESM loader for that.",
		Learned: "Run TS scripts with tsx under ESM.", Fix: "npx tsx scripts/migrate.ts"})
	h.ask("ts-node/mac", "api-gw", "darwin", "npx ts-node scripts/migrate.ts",
		"TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension \".ts\" for /Users/kim/code/api-gw/scripts/migrate.ts\n    at Object.getFileProtocolModuleFormat [as file:] (node:internal/modules/esm/get_format:160:9)\n    at defaultGetFormat (node:internal/modules/esm/get_format:203:36)\n    at defaultLoad (node:internal/modules/esm/load:143:22) {\n  code: 'ERR_UNKNOWN_FILE_EXTENSION'\n}\n\nNode.js v20.11.1\n",
		"ts-node-esm", "hand: mac paths against Linux ones")
	h.ask("ts-node/import", "api-gw", "linux", "node dist/server.js",
		"/srv/api-gw/dist/server.js:1\nimport express from 'express';\n^^^^^^\n\nSyntaxError: Cannot use import statement outside a module\n    at internalCompileFunction (node:internal/vm:76:18)\n    at wrapSafe (node:internal/modules/cjs/loader:1283:20)\n\nNode.js v20.11.1\n",
		"", "hand: the second error of a note, alone, about another file")

	h.note(Note{ID: "jest-esm", Project: "api-gw", OS: "linux", Lang: "typescript", At: day(2024, 10, 1),
		Title:   "jest chokes on an ESM-only dependency",
		What:    "Jest encountered an unexpected token ... SyntaxError: Unexpected token 'export' in node_modules/nanoid/index.js",
		Why:     "nanoid 5 ships ESM only and jest transforms nothing under node_modules by default.",
		Learned: "List ESM-only packages in transformIgnorePatterns' exception.", Fix: "npm install -D nanoid@3"})
	h.ask("jest-esm/1", "api-gw", "linux", "npx jest",
		" FAIL  src/ids.test.ts\n  ● Test suite failed to run\n\n    Jest encountered an unexpected token\n\n    Jest failed to parse a file. This happens e.g. when your code or its dependencies use non-standard JavaScript syntax, or when Jest is not configured to support such syntax.\n\n    ...\n\n    Details:\n\n    /srv/api-gw/node_modules/nanoid/index.js:1\n    ({\"Object.<anonymous>\":function(module,exports,require,__dirname,__filename,jest){export { urlAlphabet } from './url-alphabet/index.js'\n                                                                                      ^^^^^^\n\n    SyntaxError: Unexpected token 'export'\n",
		"jest-esm", "hand: elided middle")
	h.ask("jest-esm/other-pkg", "api-gw", "linux", "npx jest",
		" FAIL  src/fetch.test.ts\n  ● Test suite failed to run\n\n    Jest encountered an unexpected token\n\n    Details:\n\n    /srv/api-gw/node_modules/node-fetch/src/index.js:9\n    import http from 'node:http';\n    ^^^^^^\n\n    SyntaxError: Cannot use import statement outside a module\n",
		"", "hand: same kind, another package")

	h.note(Note{ID: "dockerfile-copy", Project: "api", OS: "linux", Lang: "docker", At: day(2024, 3, 28),
		Title:   "docker build: COPY of the lockfile fails",
		What:    "failed to compute cache key: \"/pnpm-lock.yaml\": not found",
		Why:     ".dockerignore excluded *.yaml, lockfile included.",
		Learned: "Allow the lockfile back in .dockerignore with !pnpm-lock.yaml."})
	h.ask("dockerfile-copy/1", "api", "linux", "docker build -t api .",
		"#8 [builder 3/7] COPY package.json pnpm-lock.yaml ./\n#8 ERROR: failed to calculate checksum of ref 4b1f0c2e::x9: \"/pnpm-lock.yaml\": not found\n------\n > [builder 3/7] COPY package.json pnpm-lock.yaml ./:\n------\nDockerfile:6\n--------------------\n   4 |     WORKDIR /app\n   5 |     RUN corepack enable\n   6 | >>> COPY package.json pnpm-lock.yaml ./\n--------------------\nERROR: failed to solve: failed to compute cache key: failed to calculate checksum of ref 4b1f0c2e::x9: \"/pnpm-lock.yaml\": not found\n",
		"dockerfile-copy", "hand: another tool version's wording")
	h.ask("dockerfile/run", "api", "linux", "docker build -t api .",
		"#9 [builder 4/7] RUN pnpm install --frozen-lockfile\n#9 0.412 /bin/sh: 1: pnpm: not found\n#9 ERROR: process \"/bin/sh -c pnpm install --frozen-lockfile\" did not complete successfully: exit code: 127\n------\nDockerfile:7\n--------------------\n   7 | >>> RUN pnpm install --frozen-lockfile\n--------------------\nERROR: failed to solve: process \"/bin/sh -c pnpm install --frozen-lockfile\" did not complete successfully: exit code: 127\n",
		"", "hand: generic names only (Dockerfile, pnpm-lock.yaml)")
	h.ask("makefile/tab", "api", "linux", "make build",
		"Makefile:14: *** recipe commences before first target.  Stop.\n", "", "hand: generic names only (Makefile)")

	h.note(Note{ID: "pytest-fixture", Project: "reports", OS: "linux", Lang: "python", At: day(2023, 7, 7),
		Title:   "fixture 'db_session' not found after the conftest move",
		What:    "E       fixture 'db_session' not found",
		Why:     "conftest.py moved into tests/unit, so tests/integration lost the fixture.",
		Learned: "Shared fixtures live in the top-level tests/conftest.py."})
	h.ask("pytest-fixture/1", "reports", "linux", "pytest tests/integration -q",
		"E       fixture 'db_session' not found\n>       available fixtures: cache, capfd, capfdbinary, caplog, capsys, capsysbinary, doctest_namespace, monkeypatch, pytestconfig, record_property, record_testsuite_property, record_xml_attribute, recwarn, tmp_path, tmp_path_factory, tmpdir, tmpdir_factory\n>       use 'pytest --fixtures [testpath]' for help on them.\n\n/home/ci/build/reports/tests/integration/test_export.py:14\n", "pytest-fixture", "hand: stored")
	h.ask("pytest-fixture/other", "reports", "linux", "pytest tests/unit -q",
		"E       fixture 'mailer' not found\n>       available fixtures: cache, capfd, caplog, capsys, db_session, monkeypatch, pytestconfig, tmp_path\n>       use 'pytest --fixtures [testpath]' for help on them.\n\n/home/ci/build/reports/tests/unit/test_notify.py:8\n", "", "hand: same message, another object")
	return h.notes, h.qs
}
