package replay

import "time"

// plainNotes describe no failure: decisions, conventions, discoveries. No
// failing tool result may bring one back.
func plainNotes() []Note {
	at := func(y int, m time.Month) time.Time { return time.Date(y, m, 11, 15, 4, 0, 0, time.UTC) }
	n := func(id, project, title, what, why, learned string, t time.Time) Note {
		return Note{ID: "plain/" + id, Split: Tune, Project: project, Scope: "project", OS: "linux", Lang: "go", At: t,
			Title: title, Type: "decision", What: what, Why: why, Where: "architecture notes", Learned: learned, NoFailure: true}
	}
	return []Note{
		n("api-version", "gateway", "API versions live in the path", "We keep /v2 in the URL rather than a header.", "The mobile client caches by URL.", "New endpoints go under /v2.", at(2024, 3)),
		n("uuidv7", "billing", "Use UUIDv7 for new tables", "New primary keys are UUIDv7 generated in the app.", "Time-ordered ids keep the btree index compact.", "Do not use serial ids in new tables.", at(2025, 1)),
		n("release-train", "infra", "Releases go out on Tuesdays", "We cut the release branch every Tuesday at 10:00.", "QA has Monday to finish the regression pass.", "Merge by Monday evening to make the train.", at(2023, 9)),
		n("logging", "telemetry", "Structured logs only", "All services log JSON through slog.", "The log pipeline parses JSON only.", "No fmt.Println in services.", at(2024, 6)),
		n("feature-flags", "storefront", "Feature flags expire", "Every flag gets an owner and an expiry date in flags.yaml.", "Stale flags made checkout logic unreadable.", "Delete a flag within two releases of full rollout.", at(2025, 4)),
		n("pnpm", "monorepo", "The monorepo uses pnpm workspaces", "We moved from yarn 1 to pnpm workspaces.", "Install times and disk use dropped by half.", "Run pnpm -r build from the root.", at(2024, 11)),
		n("tz", "reports", "Store times in UTC", "Timestamps are stored as UTC and rendered in the user's zone.", "DST shifts broke the daily report twice.", "Convert at the edge, never in SQL.", at(2023, 2)),
		n("codeowners", "platform", "CODEOWNERS for the deploy folder", "The deploy/ folder needs a review from the platform team.", "An unreviewed change took staging down.", "Ask #platform for a review.", at(2025, 8)),
	}
}

// strayQueries are failures no note is about, of kinds the memory has
// never seen: silence is the answer.
func strayQueries() []Query {
	q := func(id string, split Split, project, os, cmd, tail string) Query {
		return Query{ID: "stray/" + id, Split: split, Project: project, OS: os, Tool: "Bash", Command: cmd, Tail: tail, Kind: "never stored: another failure"}
	}
	return []Query{
		q("segfault", Tune, "ingest", "linux", "./bin/ingest", "Segmentation fault (core dumped)\n"),
		q("disk", Tune, "api", "linux", "docker pull postgres:16", "failed to register layer: write /var/lib/docker/overlay2/l/ABC: no space left on device\n"),
		q("go-vet", Tune, "gateway", "linux", "go vet ./...", "# example.com/gateway/internal/cache\ninternal/cache/lru.go:41:2: unreachable code\n"),
		q("npm-404", Tune, "dashboard", "darwin", "npm install @acme/charts", "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/@acme%2fcharts - Not found\nnpm ERR! 404  '@acme/charts@*' is not in this registry.\n"),
		q("pytest-assert", Tune, "billing", "linux", "pytest -q", "FAILED tests/test_invoice.py::test_total - assert 41.99 == 42.0\n1 failed, 88 passed in 3.12s\n"),
		q("cargo-borrow", Tune, "telemetry", "linux", "cargo build", "error[E0502]: cannot borrow `self.buf` as mutable because it is also borrowed as immutable\n --> src/ring.rs:88:9\n"),
		q("tsc-2322", Tune, "portal", "linux", "npx tsc --noEmit", "src/form.tsx:19:7 - error TS2322: Type 'string' is not assignable to type 'number'.\n"),
		q("git-lock", Tune, "infra", "linux", "git commit -m wip", "fatal: Unable to create '/home/ci/build/infra/.git/index.lock': File exists.\n"),
		q("helm", HeldOut, "platform", "linux", "helm upgrade --install api ./chart", "Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress\n"),
		q("terraform", HeldOut, "infra", "darwin", "terraform apply", "Error: Error acquiring the state lock\n\nError message: ConditionalCheckFailedException: The conditional request failed\nLock Info:\n  ID:        3f0b2c1e-9d8a-4e6f-b1a2-7c3d4e5f6a7b\n"),
		q("java-npe", HeldOut, "mobile-app", "darwin", "./gradlew test", "java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null\n\tat com.acme.app.Greeter.greet(Greeter.java:12)\n"),
		q("mvn", HeldOut, "orders", "linux", "mvn -q package", "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.2:test (default-test) on project orders: There are test failures.\n"),
		q("ssh", HeldOut, "infra", "windows", "git fetch", "git@github.com: Permission denied (publickey).\r\nfatal: Could not read from remote repository.\r\n"),
		q("php", HeldOut, "crm", "linux", "composer install", "Your requirements could not be resolved to an installable set of packages.\n\n  Problem 1\n    - Root composer.json requires php ^8.3 but your php version (8.1.2) does not satisfy that requirement.\n"),
		q("dotnet", HeldOut, "sync", "windows", "dotnet build", "C:\\Users\\dev\\src\\sync\\Sync.csproj : error NU1101: Unable to find package Acme.Client. No packages exist with this id in source(s): nuget.org\r\n"),
		q("ruby-syntax", HeldOut, "crm", "darwin", "bundle exec rspec", "/Users/kim/code/crm/app/models/user.rb:42: syntax error, unexpected end-of-input, expecting `end'\n"),
		q("webpack-mod", HeldOut, "webshop", "linux", "npm run build", "ERROR in ./src/index.js 3:0-28\nModule not found: Error: Can't resolve './styles.css' in '/home/ci/build/webshop/src'\n"),
		q("kubectl-ctx", HeldOut, "platform", "linux", "kubectl get pods", "error: You must be logged in to the server (Unauthorized)\n"),
		q("node-version", HeldOut, "webshop", "darwin", "npm ci", "npm ERR! code EBADENGINE\nnpm ERR! engine Unsupported engine\nnpm ERR! notsup Required: {\"node\":\">=20\"}\nnpm ERR! notsup Actual:   {\"npm\":\"9.6.7\",\"node\":\"v18.17.0\"}\n"),
		q("xcode-sim", HeldOut, "ios", "darwin", "xcodebuild test -scheme Wallet", "xcodebuild: error: Unable to find a destination matching the provided destination specifier:\n\t\t{ platform:iOS Simulator, OS:17.0, name:iPhone 15 }\n"),
	}
}
