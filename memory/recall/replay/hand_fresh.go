package replay

import "strings"

// handFresh are the hand cases of the fresh part: written after the
// tuning, by someone who had not read the engine, for ecosystems the
// other parts hardly cover (cargo, Maven and Gradle, .NET, Bundler,
// Composer, mix, Xcode, Terraform, kubectl and helm, docker build,
// CMake and the linker, Python packaging, Playwright, git itself). Its
// notes are stored with the rest of the memory; its misses were first
// read in the round after it was reported.
func handFresh() ([]Note, []Query) {
	h := &hand{split: Fresh, prefix: "fresh/"}
	freshRustJava(h)
	freshAndroidGit(h)
	freshDotnetRubyPHP(h)
	freshElixirSwift(h)
	freshInfra(h)
	freshNative(h)
	freshPythonBrowser(h)
	freshNeverStored(h)
	return h.notes, h.qs
}

func freshRustJava(h *hand) {
	h.note(Note{ID: "rust-msrv", Project: "tidepool", OS: "linux", Lang: "rust", At: day(2024, 4, 9),
		Title:   "CI red after cargo update: clap wants a newer rustc",
		What:    "cargo build on the runner: error: package `clap_lex v0.7.0` cannot be built because it requires rustc 1.74 or newer, while the currently active rustc version is 1.70.0",
		Why:     "rust-toolchain.toml pins 1.70 for the embedded target; `cargo update` pulled clap 4.5, whose MSRV is 1.74.",
		Where:   "Cargo.lock / rust-toolchain.toml",
		Learned: "Keep clap on 4.4 until the toolchain pin moves; check MSRV before a blanket cargo update.",
		Fix:     "cargo update -p clap --precise 4.4.18"})
	h.ask("rust-msrv/new-cargo", "tidepool", "linux", "cargo build --locked",
		"    Updating crates.io index\n  Downloaded clap_builder v4.5.2\n  Downloaded clap v4.5.4\n  Downloaded 2 crates (171.3 KB) in 0.41s\nerror: rustc 1.70.0 is not supported by the following packages:\n  clap@4.5.4 requires rustc 1.74\n  clap_builder@4.5.2 requires rustc 1.74\n  clap_lex@0.7.0 requires rustc 1.74\nEither upgrade rustc or select compatible dependency versions with\n`cargo update <name>@<current-ver> --precise <compatible-ver>`\nwhere `<compatible-ver>` is the latest version supporting rustc 1.70.0\n",
		"rust-msrv", "fresh: another tool version's wording")
	h.ask("rust-msrv/old-cargo", "tidepool", "linux", "cargo build --release",
		"\x1b[1m\x1b[32m   Compiling\x1b[0m libc v0.2.153\n\x1b[1m\x1b[31merror\x1b[0m\x1b[1m:\x1b[0m package `clap_builder v4.5.2` cannot be built because it requires rustc 1.74 or newer, while the currently active rustc version is 1.70.0\nEither upgrade to rustc 1.74 or newer, or use\ncargo update -p clap_builder@4.5.2 --precise ver\nwhere `ver` is the latest version of `clap_builder` supporting rustc 1.70.0\n",
		"rust-msrv", "fresh: stored, ANSI colours")

	h.note(Note{ID: "sqlx-offline", Project: "tidepool", OS: "linux", Lang: "rust", At: day(2024, 9, 17),
		Title:   "image build dies in the sqlx macros",
		What:    "docker build stops at cargo build --release with \"set `DATABASE_URL` to use query macros online, or run `cargo sqlx prepare` to update the query cache\".",
		Why:     "There is no database inside docker build. query! / query_as! check SQL at compile time unless SQLX_OFFLINE=true and the .sqlx/ cache is committed; the cache was stale after the orders query changed.",
		Where:   "Dockerfile, .sqlx/",
		Learned: "Re-run prepare after every query change and commit .sqlx; the Dockerfile sets SQLX_OFFLINE=true.",
		Fix:     "cargo sqlx prepare --workspace -- --all-targets"})
	h.ask("sqlx-offline/1", "tidepool", "linux", "docker build -t tidepool:dev .",
		"#14 [builder 6/6] RUN cargo build --release\n#14 0.412    Compiling proc-macro2 v1.0.86\n#14 21.77    Compiling sqlx-macros v0.7.4\n#14 37.90    Compiling tidepool v0.3.0 (/app)\n#14 38.02 error: set `DATABASE_URL` to use query macros online, or run `cargo sqlx prepare` to update the query cache\n#14 38.02   --> src/repo/invoices.rs:41:17\n#14 38.02    |\n#14 38.02 41 |         let row = sqlx::query_as!(Invoice, \"SELECT id, total FROM invoices WHERE id = $1\", id)\n#14 38.02    |                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n#14 38.02    |\n#14 38.02    = note: this error originates in the macro `$crate::sqlx_macros::expand_query` (in Nightly builds, run with -Z macro-backtrace for more info)\n#14 38.10 error: could not compile `tidepool` (bin \"tidepool\") due to 1 previous error\n#14 ERROR: process \"/bin/sh -c cargo build --release\" did not complete successfully: exit code: 101\n------\nERROR: failed to solve: process \"/bin/sh -c cargo build --release\" did not complete successfully: exit code: 101\n",
		"sqlx-offline", "fresh: stored, another object named")
	h.ask("sqlx-offline/relation", "tidepool", "linux", "cargo build",
		"   Compiling tidepool v0.3.0 (/home/ci/build/tidepool)\nerror: error returned from database: relation \"refunds\" does not exist\n  --> src/repo/refunds.rs:22:15\n   |\n22 |     let rows = sqlx::query!(\"SELECT id, amount FROM refunds WHERE order_id = $1\", order_id)\n   |                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n   |\n   = note: this error originates in the macro `$crate::sqlx_macros::expand_query`\nerror: could not compile `tidepool` (lib) due to 1 previous error\n",
		"", "fresh: same tool, another error")

	h.note(Note{ID: "cargo-lock-wait", Project: "tidepool", Scope: "global", OS: "darwin", Lang: "rust", At: day(2025, 1, 8),
		Title:   "cargo just sits there: waiting for file lock",
		What:    "Every cargo command hung on `Blocking waiting for file lock on package cache` until the agent's tool timed out.",
		Why:     "rust-analyzer in the editor was running its own cargo check and held the lock on ~/.cargo; once, a killed cargo left the lock file behind with nothing holding it.",
		Learned: "Look for another cargo or rust-analyzer first (pgrep cargo). If none runs, the stale lock file can go.",
		Fix:     "rm -f ~/.cargo/.package-cache"})
	h.ask("cargo-lock-wait/ferrule", "ferrule", "linux", "cargo test --workspace",
		"    Blocking waiting for file lock on package cache\n    Blocking waiting for file lock on package cache\n\nCommand timed out after 120000ms\n",
		"cargo-lock-wait", "fresh: global note, another project")
	h.ask("cargo-lock-wait/build-dir", "ferrule", "linux", "cargo build",
		"    Blocking waiting for file lock on build directory\n   Compiling ferrule v0.9.1 (/home/ci/build/ferrule)\nerror[E0599]: no method named `try_recv_timeout` found for struct `Receiver` in the current scope\n  --> src/pump.rs:57:24\n   |\n57 |         match self.rx.try_recv_timeout(Duration::from_millis(5)) {\n   |                       ^^^^^^^^^^^^^^^^ method not found in `Receiver<Frame>`\n\nFor more information about this error, try `rustc --explain E0599`.\nerror: could not compile `ferrule` (lib) due to 1 previous error\n",
		"", "fresh: same text, another cause")
	h.ask("main-rs", "tidepool", "linux", "cargo run --bin tidepool",
		"   Compiling tidepool v0.3.0 (/home/ci/build/tidepool)\nerror[E0425]: cannot find value `cfg` in this scope\n  --> src/main.rs:14:22\n   |\n14 |     let pool = connect(&cfg.database_url).await?;\n   |                         ^^^ not found in this scope\n\nerror: could not compile `tidepool` (bin \"tidepool\") due to 1 previous error\n",
		"", "fresh: generic names only (main.rs)")

	h.note(Note{ID: "mvn-convergence", Project: "orchard", OS: "linux", Lang: "java", At: day(2023, 10, 2),
		Title:   "enforcer fails the build on jackson versions",
		What:    "mvn verify: Rule 0: DependencyConvergence failed — Dependency convergence error for com.fasterxml.jackson.core:jackson-databind, paths to 2.15.3 and 2.13.5",
		Why:     "spring-boot-starter-web brings jackson-databind 2.15.3; the confluent avro serializer brings 2.13.5 transitively.",
		Where:   "pom.xml dependencyManagement",
		Learned: "Import jackson-bom in dependencyManagement; excluding jackson from the serializer only moved the error to jackson-core."})
	h.ask("mvn-convergence/1", "orchard", "linux", "mvn -B verify",
		"[INFO] --- enforcer:3.4.1:enforce (enforce) @ orchard-api ---\n[WARNING] \nDependency convergence error for com.fasterxml.jackson.core:jackson-databind:jar:2.13.5 paths to dependency are:\n+-com.orchard:orchard-api:jar:2.4.0-SNAPSHOT\n  +-io.confluent:kafka-avro-serializer:jar:7.3.2:compile\n    +-io.confluent:kafka-schema-serializer:jar:7.3.2:compile\n      +-com.fasterxml.jackson.core:jackson-databind:jar:2.13.5:compile\nand\n+-com.orchard:orchard-api:jar:2.4.0-SNAPSHOT\n  +-org.springframework.boot:spring-boot-starter-web:jar:3.2.1:compile\n    +-org.springframework.boot:spring-boot-starter-json:jar:3.2.1:compile\n      +-com.fasterxml.jackson.core:jackson-databind:jar:2.15.3:compile\n\n[ERROR] Rule 0: org.apache.maven.enforcer.rules.dependency.DependencyConvergence failed with message:\n[ERROR] Failed while enforcing releasability.\n[INFO] BUILD FAILURE\n[INFO] Total time:  14.322 s\n[INFO] Finished at: 2025-02-11T09:14:55Z\n",
		"mvn-convergence", "fresh: stored")
	h.ask("mvn-convergence/slf4j", "orchard", "linux", "mvn -B verify",
		"[WARNING] \nDependency convergence error for org.slf4j:slf4j-api:jar:1.7.36 paths to dependency are:\n+-com.orchard:orchard-batch:jar:2.4.0-SNAPSHOT\n  +-org.apache.hadoop:hadoop-common:jar:3.3.6:compile\n    +-org.slf4j:slf4j-api:jar:1.7.36:compile\nand\n+-com.orchard:orchard-batch:jar:2.4.0-SNAPSHOT\n  +-ch.qos.logback:logback-classic:jar:1.4.14:compile\n    +-org.slf4j:slf4j-api:jar:2.0.7:compile\n\n[ERROR] Rule 0: org.apache.maven.enforcer.rules.dependency.DependencyConvergence failed with message:\n[ERROR] Failed while enforcing releasability.\n[INFO] BUILD FAILURE\n",
		"", "fresh: same message, another object")

	h.note(Note{ID: "mvn-http-blocker", Project: "orchard", OS: "linux", Lang: "java", At: day(2024, 2, 20),
		Title:   "Maven won't fetch from the old Nexus anymore",
		What:    "Resolving com.corp artifacts fails with \"Blocked mirror for repositories: [legacy-internal (http://nexus.corp.local/repository/legacy/...)]\" after the image moved to Maven 3.9.",
		Why:     "Since 3.8.1 Maven ships a maven-default-http-blocker mirror that blocks every plain-http repository; our legacy repo URL in pom.xml is still http://.",
		Where:   "pom.xml <repositories>",
		Learned: "Nexus serves the same repo over https; change the URL instead of overriding the blocker in settings.xml.",
		Fix:     "sed -i 's#http://nexus.corp.local#https://nexus.corp.local#g' pom.xml"})
	blocked := "[ERROR] Failed to execute goal on project orchard-api: Could not resolve dependencies for project com.orchard:orchard-api:jar:2.4.0-SNAPSHOT: Failed to collect dependencies at com.corp:billing-client:jar:1.8.2: Failed to read artifact descriptor for com.corp:billing-client:jar:1.8.2: The following artifacts could not be resolved: com.corp:billing-client:pom:1.8.2 (absent): Could not transfer artifact com.corp:billing-client:pom:1.8.2 from/to maven-default-http-blocker (http://0.0.0.0/): Blocked mirror for repositories: [legacy-internal (http://nexus.corp.local/repository/legacy/, default, releases+snapshots)] -> [Help 1]\n[ERROR] \n[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.\n[ERROR] Re-run Maven using the -X switch to enable full debug logging.\n"
	h.ask("mvn-http-blocker/1", "orchard", "linux", "mvn -B -q package", blocked, "mvn-http-blocker", "fresh: stored, newer wording")
	h.ask("mvn-http-blocker/quarry", "quarry", "linux", "mvn -B -q package",
		"[ERROR] Failed to execute goal on project quarry-core: Could not resolve dependencies for project com.quarry:quarry-core:jar:0.7.1: Failed to collect dependencies at com.corp:billing-client:jar:1.8.2: Failed to read artifact descriptor for com.corp:billing-client:jar:1.8.2: The following artifacts could not be resolved: com.corp:billing-client:pom:1.8.2 (absent): Could not transfer artifact com.corp:billing-client:pom:1.8.2 from/to maven-default-http-blocker (http://0.0.0.0/): Blocked mirror for repositories: [legacy-internal (http://nexus.corp.local/repository/legacy/, default, releases+snapshots)] -> [Help 1]\n",
		"", "fresh: another project's project note")
	h.ask("pom-xml", "orchard", "linux", "mvn -B validate",
		"[INFO] Scanning for projects...\n[ERROR] [ERROR] Some problems were encountered while processing the POMs:\n[FATAL] Non-parseable POM /home/ci/build/orchard/pom.xml: end tag name </dependency> must match start tag name <version> from line 88 (position: TEXT seen ...</version>\\n    </dependency>... @91:18)  @ line 91, column 18\n @ \n[ERROR] The build could not read 1 project -> [Help 1]\n",
		"", "fresh: generic names only (pom.xml)")
}

func freshAndroidGit(h *hand) {
	h.note(Note{ID: "android-sdk-mac", Project: "mosaic", OS: "darwin", Lang: "kotlin", At: day(2024, 3, 12),
		Title:   "./gradlew on a fresh clone: SDK location not found",
		What:    "Gradle sync from the terminal: SDK location not found. Define a valid SDK location with an ANDROID_HOME environment variable or by setting the sdk.dir path in local.properties.",
		Why:     "local.properties is gitignored; Android Studio writes it the first time the project is opened, so a clone built only from the command line has none.",
		Learned: "On the Mac the SDK is under ~/Library/Android/sdk; write local.properties once.",
		Fix:     "echo \"sdk.dir=$HOME/Library/Android/sdk\" > local.properties"})
	h.note(Note{ID: "android-sdk-ci", Project: "mosaic", OS: "linux", Lang: "kotlin", At: day(2024, 6, 4),
		Title:   "SDK location not found on the self-hosted runner",
		What:    "Same 'SDK location not found' from ./gradlew assembleDebug, but in CI on the Linux runner.",
		Why:     "The runner has the SDK in /opt/android-sdk and ANDROID_HOME is exported in the login profile only; the job's shell is not a login shell. No local.properties on CI on purpose.",
		Learned: "Export ANDROID_HOME in the job, do not commit local.properties.",
		Fix:     "export ANDROID_HOME=/opt/android-sdk"})
	sdk := func(root string) string {
		return "FAILURE: Build failed with an exception.\n\n* What went wrong:\nCould not determine the dependencies of task ':app:compileDebugJavaWithJavac'.\n> SDK location not found. Define a valid SDK location with an ANDROID_HOME environment variable or by setting the sdk.dir path in your project's local properties file at '" + root + "/local.properties'.\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n> Run with --info or --debug option to get more log output.\n\nBUILD FAILED in 6s\n"
	}
	h.ask("android-sdk/mac", "mosaic", "darwin", "./gradlew assembleDebug", sdk("/Users/kim/code/mosaic"), "android-sdk-mac", "fresh: twin on another system")
	h.ask("android-sdk/linux", "mosaic", "linux", "./gradlew assembleDebug", sdk("/home/ci/build/mosaic"), "android-sdk-ci", "fresh: twin on another system")
	h.ask("android-sdk/linux-test", "mosaic", "linux", "./gradlew testDebugUnitTest --no-daemon",
		"Starting a Gradle Daemon (subsequent builds will be faster)\n\n> Configure project :app\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nA problem occurred configuring project ':app'.\n> SDK location not found. Define a valid SDK location with an ANDROID_HOME environment variable or by setting the sdk.dir path in your project's local properties file at '/home/ci/build/mosaic/local.properties'.\n\nBUILD FAILED in 11s\n",
		"android-sdk-ci", "fresh: twin on another system")

	h.note(Note{ID: "kotlin-dup-class", Project: "mosaic", OS: "darwin", Lang: "kotlin", At: day(2024, 8, 27),
		Title:   "Duplicate kotlin stdlib classes after the Kotlin 1.8 bump",
		What:    "checkDebugDuplicateClasses: Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found in modules kotlin-stdlib-1.8.22 and kotlin-stdlib-jdk8-1.7.10",
		Why:     "Kotlin 1.8 folded the jdk7/jdk8 artifacts into kotlin-stdlib; an old analytics SDK still pulls kotlin-stdlib-jdk8 1.7.10.",
		Where:   "app/build.gradle.kts",
		Learned: "Add implementation(platform(\"org.jetbrains.kotlin:kotlin-bom:1.8.22\")) so the jdk7/jdk8 artifacts align; excluding them breaks the SDK."})
	h.ask("kotlin-dup-class/1", "mosaic", "darwin", "./gradlew assembleDebug",
		"> Task :app:checkDebugDuplicateClasses FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:checkDebugDuplicateClasses'.\n> A failure occurred while executing com.android.build.gradle.internal.tasks.CheckDuplicatesRunnable\n   > Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found in modules kotlin-stdlib-1.8.22 (org.jetbrains.kotlin:kotlin-stdlib:1.8.22) and kotlin-stdlib-jdk8-1.7.10 (org.jetbrains.kotlin:kotlin-stdlib-jdk8:1.7.10)\n     Duplicate class kotlin.internal.jdk7.JDK7PlatformImplementations found in modules kotlin-stdlib-1.8.22 (org.jetbrains.kotlin:kotlin-stdlib:1.8.22) and kotlin-stdlib-jdk7-1.7.10 (org.jetbrains.kotlin:kotlin-stdlib-jdk7:1.7.10)\n     Duplicate class kotlin.random.jdk8.PlatformThreadLocalRandom found in modules kotlin-stdlib-1.8.22 (org.jetbrains.kotlin:kotlin-stdlib:1.8.22) and kotlin-stdlib-jdk8-1.7.10 (org.jetbrains.kotlin:kotlin-stdlib-jdk8:1.7.10)\n\n     Go to the documentation to learn how to <a href=\"d.android.com/r/tools/classpath-sync-errors\">Fix dependency resolution errors</a>.\n\nBUILD FAILED in 38s\n",
		"kotlin-dup-class", "fresh: stored")
	h.ask("kotlin-dup-class/guava", "mosaic", "darwin", "./gradlew assembleRelease",
		"> Task :app:checkReleaseDuplicateClasses FAILED\n\n* What went wrong:\nExecution failed for task ':app:checkReleaseDuplicateClasses'.\n> A failure occurred while executing com.android.build.gradle.internal.tasks.CheckDuplicatesRunnable\n   > Duplicate class com.google.common.util.concurrent.ListenableFuture found in modules guava-31.1-android (com.google.guava:guava:31.1-android) and listenablefuture-1.0 (com.google.guava:listenablefuture:1.0)\n\n     Go to the documentation to learn how to <a href=\"d.android.com/r/tools/classpath-sync-errors\">Fix dependency resolution errors</a>.\n",
		"", "fresh: same message, another object")

	h.note(Note{ID: "git-postbuffer", Project: "mosaic", OS: "darwin", Lang: "git", At: day(2022, 11, 3),
		Title:   "git push over https fails with RPC failed HTTP 400",
		What:    "Pushing the design-assets branch: error: RPC failed; HTTP 400 curl 22 The requested URL returned error: 400, then send-pack: unexpected disconnect while reading sideband packet.",
		Why:     "the push is big (new PNG exports) and git's default http.postBuffer is 1 MB.",
		Learned: "Raise the post buffer for big pushes.",
		Fix:     "git config --global http.postBuffer 524288000"})
	h.note(Note{ID: "git-postbuffer-2", Project: "mosaic", OS: "darwin", Lang: "git", At: day(2024, 10, 22), ProseOver: "git-postbuffer",
		Title:   "RPC failed; HTTP 400 on push again — postBuffer doesn't fix it",
		What:    "The push of the release branch fails with the same RPC failed / HTTP 400 / unexpected disconnect.",
		Why:     "The http.postBuffer setting from the 2022 note is already set and changes nothing now: a 180 MB screen recording got committed, and GitHub rejects the pack.",
		Learned: "Find big blobs with git rev-list --objects --all | git cat-file --batch-check, drop them from history, keep recordings in LFS.",
		Fix:     "git filter-repo --strip-blobs-bigger-than 50M"})
	h.ask("git-postbuffer/1", "mosaic", "darwin", "git push origin release/3.2",
		"Enumerating objects: 1822, done.\nCounting objects: 100% (1822/1822), done.\nDelta compression using up to 10 threads\nCompressing objects: 100% (1301/1301), done.\nerror: RPC failed; HTTP 400 curl 22 The requested URL returned error: 400\nsend-pack: unexpected disconnect while reading sideband packet\nWriting objects: 100% (1790/1790), 212.48 MiB | 14.10 MiB/s, done.\nTotal 1790 (delta 611), reused 0 (delta 0), pack-reused 0\nfatal: the remote end hung up unexpectedly\nEverything up-to-date\n",
		"git-postbuffer-2", "fresh: superseded in prose", "git-postbuffer")
	h.note(Note{ID: "git-dubious", Project: "orchard", Scope: "global", OS: "linux", Lang: "git", At: day(2023, 5, 30),
		Title:   "git in the job container: dubious ownership",
		What:    "Every git command in the build container died with fatal: detected dubious ownership in repository at '/__w/orchard/orchard'.",
		Why:     "git 2.35.2 and later refuse a repository owned by another user (CVE-2022-24765); the checkout belongs to the runner's uid and the container runs as root.",
		Learned: "Mark the workspace safe inside containers; it is harmless on throwaway CI machines.",
		Fix:     "git config --global --add safe.directory '*'"})
	h.ask("git-dubious/heron", "heron", "linux", "git describe --tags",
		"fatal: detected dubious ownership in repository at '/workspace/heron'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /workspace/heron\n",
		"git-dubious", "fresh: global note, another project")
	h.ask("git-dubious/win", "lumen", "windows", "git rev-parse HEAD",
		crlf("fatal: detected dubious ownership in repository at 'D:/a/lumen/lumen'\n'D:/a/lumen/lumen' is owned by:\n\tBUILTIN/Administrators (S-1-5-32-544)\nbut the current user is:\n\tfv-az512-431/runneradmin (S-1-5-21-3326424093-1244526787-2104516418-500)\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory D:/a/lumen/lumen\n"),
		"git-dubious", "fresh: global note, Windows paths and CRLF")
	h.ask("git-pathspec", "tidepool", "linux", "git checkout src/main.rs",
		"error: pathspec 'src/main.rs' did not match any file(s) known to git\n", "", "fresh: generic names only (main.rs)")
}

func freshDotnetRubyPHP(h *hand) {
	h.note(Note{ID: "dotnet-globaljson", Project: "lumen", OS: "windows", Lang: "csharp", At: day(2024, 5, 14),
		Title:   "dotnet build on the new agent: SDK from global.json missing",
		What:    "dotnet build → A compatible .NET SDK was not found. Requested SDK version: 8.0.100, global.json file: C:\\Users\\dev\\src\\lumen\\global.json",
		Why:     "global.json pins 8.0.100 with rollForward disabled; the agent image only has the 8.0.2xx band.",
		Where:   "global.json",
		Learned: "Let global.json roll forward to the latest feature band instead of installing every SDK.",
		Fix:     "dotnet new globaljson --sdk-version 8.0.100 --roll-forward latestFeature --force"})
	h.ask("dotnet-globaljson/1", "lumen", "windows", "dotnet build Lumen.sln -c Release",
		crlf("The command could not be loaded, possibly because:\n  * You intended to execute a .NET application:\n      The application 'build' does not exist.\n  * You intended to execute a .NET SDK command:\n      A compatible .NET SDK was not found.\n\nRequested SDK version: 8.0.100\nglobal.json file: C:\\agent\\_work\\3\\s\\global.json\n\nInstalled SDKs:\n8.0.204 [C:\\Program Files\\dotnet\\sdk]\n\nInstall the [8.0.100] .NET SDK or update [C:\\agent\\_work\\3\\s\\global.json] to match an installed SDK.\n\nLearn about SDK resolution:\nhttps://aka.ms/dotnet/sdk-not-found\n"),
		"dotnet-globaljson", "fresh: Windows paths and CRLF")

	h.note(Note{ID: "nuget-pat", Project: "lumen", OS: "windows", Lang: "csharp", At: day(2023, 3, 7),
		Title:   "restore fails against our Azure Artifacts feed",
		What:    "dotnet restore: error NU1301: Unable to load the service index for source https://pkgs.dev.azure.com/lumen/_packaging/lumen-feed/nuget/v3/index.json (401 Unauthorized).",
		Why:     "The PAT stored in the user nuget.config expired after 90 days.",
		Learned: "Make a new PAT with Packaging (read) and update the stored source.",
		Fix:     "dotnet nuget update source lumen-feed --username az --password %NEW_PAT% --store-password-in-clear-text"})
	h.note(Note{ID: "nuget-credprovider", Project: "lumen", OS: "windows", Lang: "csharp", At: day(2025, 1, 16), Supersedes: "nuget-pat",
		Title:   "NU1301 on lumen-feed: use the credential provider, not PATs",
		What:    "NU1301 Unable to load the service index for the lumen-feed source, again.",
		Why:     "The org now blocks PATs with packaging scope for user accounts, so updating the stored password no longer works at all.",
		Learned: "Install the Azure Artifacts Credential Provider and restore interactively once; it caches a token.",
		Fix:     "iex \"& { $(irm https://aka.ms/install-artifacts-credprovider.ps1) }\"; dotnet restore --interactive"})
	h.ask("nuget/1", "lumen", "windows", "dotnet restore",
		crlf("  Determining projects to restore...\nC:\\Users\\dev\\src\\lumen\\src\\Lumen.Api\\Lumen.Api.csproj : error NU1301: Unable to load the service index for source https://pkgs.dev.azure.com/lumen/_packaging/lumen-feed/nuget/v3/index.json. [C:\\Users\\dev\\src\\lumen\\Lumen.sln]\nC:\\Users\\dev\\src\\lumen\\src\\Lumen.Core\\Lumen.Core.csproj : error NU1301: Unable to load the service index for source https://pkgs.dev.azure.com/lumen/_packaging/lumen-feed/nuget/v3/index.json. [C:\\Users\\dev\\src\\lumen\\Lumen.sln]\n  Failed to restore C:\\Users\\dev\\src\\lumen\\src\\Lumen.Api\\Lumen.Api.csproj (in 2.14 sec).\n"),
		"nuget-credprovider", "fresh: superseded, declared", "nuget-pat")
	h.ask("nuget/nuget-org", "lumen", "windows", "dotnet restore",
		crlf("  Determining projects to restore...\nC:\\Users\\dev\\src\\lumen\\src\\Lumen.Api\\Lumen.Api.csproj : error NU1301: Unable to load the service index for source https://api.nuget.org/v3/index.json. [C:\\Users\\dev\\src\\lumen\\Lumen.sln]\nC:\\Users\\dev\\src\\lumen\\src\\Lumen.Api\\Lumen.Api.csproj : error NU1301:   No such host is known. (api.nuget.org:443) [C:\\Users\\dev\\src\\lumen\\Lumen.sln]\nC:\\Users\\dev\\src\\lumen\\src\\Lumen.Api\\Lumen.Api.csproj : error NU1301:   No such host is known. [C:\\Users\\dev\\src\\lumen\\Lumen.sln]\n"),
		"", "fresh: same message, another object")

	h.note(Note{ID: "lumen-nullable", Project: "lumen", OS: "windows", Lang: "csharp", At: day(2024, 2, 1), Type: "decision", NoFailure: true,
		Title:   "Nullable reference types on, warnings are errors in Release",
		What:    "Every csproj sets <Nullable>enable</Nullable>; Directory.Build.props turns TreatWarningsAsErrors on for Release only.",
		Why:     "Null reference exceptions were our top production crash; Debug stays lenient so spikes are quick.",
		Where:   "Directory.Build.props",
		Learned: "Fix nullable warnings as they appear rather than suppressing them with !."})
	h.ask("lumen-cs8618", "lumen", "windows", "dotnet build -c Release",
		crlf("C:\\Users\\dev\\src\\lumen\\src\\Lumen.Core\\Orders\\Order.cs(14,19): error CS8618: Non-nullable property 'Reference' must contain a non-null value when exiting constructor. Consider adding the 'required' modifier or declaring the property as nullable. [C:\\Users\\dev\\src\\lumen\\src\\Lumen.Core\\Lumen.Core.csproj]\n    0 Warning(s)\n    1 Error(s)\n\nTime Elapsed 00:00:07.41\n"),
		"", "fresh: a note that describes no failure")

	h.note(Note{ID: "bundler-version", Project: "bramble", OS: "linux", Lang: "ruby", At: day(2024, 1, 23),
		Title:   "CI: bundler 2.5 required by the lockfile",
		What:    "bundle install on CI: Could not find 'bundler' (2.5.4) required by your Gemfile.lock (Gem::GemNotFoundException)",
		Why:     "Someone ran bundle update on bundler 2.5, which rewrote BUNDLED WITH; the ruby:3.2 image ships bundler 2.4.",
		Where:   "Gemfile.lock BUNDLED WITH",
		Learned: "Install the lockfile's bundler in the CI setup step.",
		Fix:     "gem install bundler -v \"$(tail -1 Gemfile.lock | tr -d ' ')\""})
	h.ask("bundler-version/saddle", "saddle", "linux", "bundle install",
		"/usr/local/lib/ruby/3.2.0/rubygems.rb:264:in `find_spec_for_exe': Could not find 'bundler' (2.5.4) required by your /home/ci/build/saddle/Gemfile.lock. (Gem::GemNotFoundException)\nTo update to the latest version installed on your system, run `bundle update --bundler`.\nTo install the missing version, run `gem install bundler:2.5.4`\n\tfrom /usr/local/lib/ruby/3.2.0/rubygems.rb:283:in `activate_bin_path'\n\tfrom /usr/local/bin/bundle:25:in `<main>'\n",
		"", "fresh: another project's project note")
	h.ask("bundler-version/1", "bramble", "linux", "bin/setup",
		"== Installing dependencies ==\n/usr/local/lib/ruby/3.2.0/rubygems.rb:264:in `find_spec_for_exe': Could not find 'bundler' (2.5.6) required by your /home/ci/build/bramble/Gemfile.lock. (Gem::GemNotFoundException)\nTo update to the latest version installed on your system, run `bundle update --bundler`.\nTo install the missing version, run `gem install bundler:2.5.6`\n\tfrom /usr/local/lib/ruby/3.2.0/rubygems.rb:283:in `activate_bin_path'\n\tfrom /usr/local/bin/bundle:25:in `<main>'\n== Command [\"bundle install\"] failed ==\n",
		"bundler-version", "fresh: stored, another version")

	h.note(Note{ID: "rails-master-key", Project: "bramble", OS: "darwin", Lang: "ruby", At: day(2023, 8, 15),
		Title:   "rails s: InvalidMessage from the credentials",
		What:    "Server exits at boot with ActiveSupport::MessageEncryptor::InvalidMessage from encrypted_configuration.rb.",
		Why:     "config/master.key was missing on my machine (it is not in git), so Rails could not decrypt credentials.yml.enc.",
		Learned: "The master key lives in 1Password under dev/bramble.",
		Fix:     "op read op://dev/bramble/master.key > config/master.key"})
	h.note(Note{ID: "rails-dev-key", Project: "bramble", OS: "darwin", Lang: "ruby", At: day(2025, 2, 19), ProseOver: "rails-master-key",
		Title:   "credentials InvalidMessage in development since the key split",
		What:    "bin/rails server dies with ActiveSupport::MessageEncryptor::InvalidMessage again.",
		Why:     "Pulling master.key from 1Password is no longer the answer: we moved to per-environment credentials and rotated the shared master key, so the old key decrypts nothing. Development reads config/credentials/development.key.",
		Learned: "Each environment has its own key; development's is in 1Password as dev/bramble/development.key.",
		Fix:     "op read op://dev/bramble/development.key > config/credentials/development.key"})
	h.ask("rails-key/1", "bramble", "darwin", "bin/rails server",
		"=> Booting Puma\n=> Rails 7.1.3 application starting in development \n=> Run `bin/rails server --help` for more startup options\nExiting\n/Users/kim/code/bramble/vendor/bundle/ruby/3.3.0/gems/activesupport-7.1.3/lib/active_support/message_encryptor.rb:243:in `_decrypt': ActiveSupport::MessageEncryptor::InvalidMessage (ActiveSupport::MessageEncryptor::InvalidMessage)\n\tfrom /Users/kim/code/bramble/vendor/bundle/ruby/3.3.0/gems/activesupport-7.1.3/lib/active_support/message_encryptor.rb:218:in `decrypt_and_verify'\n\tfrom /Users/kim/code/bramble/vendor/bundle/ruby/3.3.0/gems/activesupport-7.1.3/lib/active_support/encrypted_file.rb:106:in `decrypt'\n\tfrom /Users/kim/code/bramble/vendor/bundle/ruby/3.3.0/gems/activesupport-7.1.3/lib/active_support/encrypted_configuration.rb:106:in `config'\n",
		"rails-dev-key", "fresh: superseded in prose", "rails-master-key")
	h.ask("rails-pending", "bramble", "darwin", "bundle exec rspec",
		"An error occurred while loading ./spec/models/order_spec.rb.\nFailure/Error: ActiveRecord::Migration.maintain_test_schema!\n\nActiveRecord::PendingMigrationError:\n\n  Migrations are pending. To resolve this issue, run:\n\n          bin/rails db:migrate RAILS_ENV=test\n\n# ./spec/rails_helper.rb:28:in `<top (required)>'\nNo examples found.\n",
		"", "fresh: same tool, another error")

	h.note(Note{ID: "composer-intl", Project: "copperleaf", OS: "linux", Lang: "php", At: day(2024, 4, 2),
		Title:   "composer install on the slim image: intl missing",
		What:    "Problem 1 - Root composer.json requires PHP extension ext-intl * but it is missing from your system.",
		Why:     "php:8.3-cli has no intl; it is compiled in with docker-php-ext-install and needs libicu-dev.",
		Where:   "docker/php/Dockerfile",
		Learned: "Do not use --ignore-platform-req=ext-intl: Laravel's Number helpers need it at runtime.",
		Fix:     "apt-get install -y libicu-dev && docker-php-ext-install intl"})
	h.ask("composer-intl/1", "copperleaf", "linux", "composer install --no-interaction",
		"Installing dependencies from lock file (including require-dev)\nVerifying lock file contents can be installed on current platform.\nYour lock file does not contain a compatible set of packages. Please run composer update.\n\n  Problem 1\n    - symfony/intl is locked to version v7.0.3 and an update of this package was not requested.\n    - symfony/intl v7.0.3 requires ext-intl * -> it is missing from your system. Install or enable PHP's intl extension.\n\nTo enable extensions, verify that they are enabled in your .ini files:\n    - /usr/local/etc/php/php.ini\n    - /usr/local/etc/php/conf.d/docker-php-ext-sodium.ini\nYou can also run `php --ini` in a terminal to see which files are used by PHP in CLI mode.\nAlternatively, you can run Composer with `--ignore-platform-req=ext-intl` to temporarily ignore these required extensions.\n",
		"composer-intl", "fresh: another tool version's wording")
	h.ask("composer-intl/gd", "copperleaf", "linux", "composer install --no-interaction",
		"Installing dependencies from lock file (including require-dev)\nVerifying lock file contents can be installed on current platform.\n\n  Problem 1\n    - phpoffice/phpspreadsheet is locked to version 2.0.0 and an update of this package was not requested.\n    - phpoffice/phpspreadsheet 2.0.0 requires ext-gd * -> it is missing from your system. Install or enable PHP's gd extension.\n\nTo enable extensions, verify that they are enabled in your .ini files:\n    - /usr/local/etc/php/php.ini\nAlternatively, you can run Composer with `--ignore-platform-req=ext-gd` to temporarily ignore these required extensions.\n",
		"", "fresh: same message, another object")

	h.note(Note{ID: "laravel-storage", Project: "copperleaf", OS: "linux", Lang: "php", At: day(2024, 7, 9),
		Title:   "500 on every page in docker: laravel.log not writable",
		What:    "The stream or file \"/var/www/html/storage/logs/laravel.log\" could not be opened in append mode: Failed to open stream: Permission denied",
		Why:     "The bind mount keeps my host uid (1000); php-fpm runs as www-data (33) and cannot write storage/ or bootstrap/cache.",
		Learned: "Chown storage and bootstrap/cache inside the container after a fresh clone.",
		Fix:     "docker compose exec app chown -R www-data:www-data storage bootstrap/cache"})
	h.ask("laravel-storage/1", "copperleaf", "linux", "docker compose exec app php artisan migrate",
		"\n   UnexpectedValueException \n\n  The stream or file \"/var/www/html/storage/logs/laravel.log\" could not be opened in append mode: Failed to open stream: Permission denied\nThe exception occurred while attempting to log: SQLSTATE[HY000] [2002] Connection refused\n\n  at vendor/monolog/monolog/src/Monolog/Handler/StreamHandler.php:156\n    152▕             restore_error_handler();\n    153▕             if (!is_resource($stream)) {\n    154▕                 $this->stream = null;\n    155▕ \n  ➜ 156▕                 throw new \\UnexpectedValueException(sprintf('The stream or file \"%s\" could not be opened in append mode: '.$this->errorMessage, $url) . Utils::getRecordMessageForException($record));\n",
		"laravel-storage", "fresh: stored")
	h.ask("laravel-storage/views", "copperleaf", "linux", "docker compose exec app php artisan view:cache",
		"\n   ErrorException \n\n  file_put_contents(/var/www/html/storage/framework/views/8c1e0f2b7d5a4e9c.php): Failed to open stream: Permission denied\n\n  at vendor/laravel/framework/src/Illuminate/Filesystem/Filesystem.php:204\n    200▕      * @return int|bool\n    201▕      */\n    202▕     public function put($path, $contents, $lock = false)\n    203▕     {\n  ➜ 204▕         return file_put_contents($path, $contents, $lock ? LOCK_EX : 0);\n    205▕     }\n",
		"laravel-storage", "fresh: same cause, another message")

	h.note(Note{ID: "copperleaf-pest", Project: "copperleaf", OS: "linux", Lang: "php", At: day(2024, 9, 30), Type: "decision", NoFailure: true,
		Title:   "New tests are written in Pest",
		What:    "From now on feature and unit tests are Pest closures; the old PHPUnit classes stay until someone touches them.",
		Why:     "The team finds the Pest datasets and expectations easier to review.",
		Where:   "tests/",
		Learned: "Run everything with ./vendor/bin/pest; it runs the PHPUnit classes too."})
	h.ask("copperleaf-assert", "copperleaf", "linux", "./vendor/bin/pest",
		"\n   FAIL  Tests\\Feature\\InvoiceTotalsTest\n  ✓ it sums line items\n  ⨯ it applies the discount                                              0.04s  \n  ────────────────────────────────────────────────────────────────────────────\n   FAILED  Tests\\Feature\\InvoiceTotalsTest > it applies the discount\n  Failed asserting that 41.99 is identical to 42.0.\n\n  at tests/Feature/InvoiceTotalsTest.php:31\n\n  Tests:    1 failed, 57 passed (140 assertions)\n  Duration: 2.31s\n",
		"", "fresh: a note that describes no failure")
}

func freshElixirSwift(h *hand) {
	h.note(Note{ID: "bcrypt-alpine", Project: "heron", OS: "linux", Lang: "elixir", At: day(2024, 6, 18),
		Title:   "release image: bcrypt_elixir won't compile",
		What:    "mix deps.compile in the alpine builder stage: could not compile dependency :bcrypt_elixir, \"mix compile\" failed; above it make is not found.",
		Why:     "bcrypt_elixir builds a NIF through elixir_make and the hexpm/elixir alpine image has no compiler or make.",
		Where:   "Dockerfile builder stage",
		Learned: "Install build-base in the builder stage only; the runtime stage doesn't need it.",
		Fix:     "apk add --no-cache build-base"})
	h.ask("bcrypt-alpine/1", "heron", "linux", "docker build -t heron:release .",
		"#12 [builder 7/10] RUN mix deps.compile\n#12 3.118 ==> bcrypt_elixir\n#12 3.204 ** (Mix) \"make\" not found in the path. If you have set the MAKE environment variable,\n#12 3.204 please make sure it is correct.\n#12 3.209 could not compile dependency :bcrypt_elixir, \"mix compile\" failed. Errors may have been logged above. You can recompile this dependency with \"mix deps.compile bcrypt_elixir --force\", update it with \"mix deps.update bcrypt_elixir\" or clean it with \"mix deps.clean bcrypt_elixir\"\n#12 ERROR: process \"/bin/sh -c mix deps.compile\" did not complete successfully: exit code: 1\n",
		"bcrypt-alpine", "fresh: stored")
	h.ask("bcrypt-alpine/xcrun", "heron", "darwin", "mix deps.compile",
		"==> bcrypt_elixir\nmkdir -p /Users/kim/code/heron/_build/dev/lib/bcrypt_elixir/priv\ncc -g -O3 -Wall -Wno-format-truncation -I\"/opt/homebrew/Cellar/erlang/26.2.1/lib/erlang/erts-14.2.1/include\" -Ic_src -fPIC -shared -dynamiclib -undefined dynamic_lookup c_src/bcrypt_nif.c c_src/blowfish.c -o /Users/kim/code/heron/_build/dev/lib/bcrypt_elixir/priv/bcrypt_nif.so\nxcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), missing xcrun at: /Library/Developer/CommandLineTools/usr/bin/xcrun\nmake: *** [/Users/kim/code/heron/_build/dev/lib/bcrypt_elixir/priv/bcrypt_nif.so] Error 1\ncould not compile dependency :bcrypt_elixir, \"mix compile\" failed. Errors may have been logged above. You can recompile this dependency with \"mix deps.compile bcrypt_elixir --force\", update it with \"mix deps.update bcrypt_elixir\" or clean it with \"mix deps.clean bcrypt_elixir\"\n",
		"", "fresh: same text, another cause")

	h.note(Note{ID: "ecto-ownership", Project: "heron", OS: "linux", Lang: "elixir", At: day(2024, 11, 4),
		Title:   "flaky LiveView test: DBConnection.OwnershipError",
		What:    "test/heron_web/live/board_live_test.exs fails one run in three: (DBConnection.OwnershipError) cannot find ownership process for #PID<...>",
		Why:     "BoardLive starts a Task that queries the Repo; in an async test the task's process was never allowed on the test's sandbox connection.",
		Learned: "Pass the test pid through and call Ecto.Adapters.SQL.Sandbox.allow/3 in the task, or run the module with async: false."})
	h.ask("ecto-ownership/1", "heron", "linux", "mix test test/heron_web/live",
		"..\n\n  1) test moving a card persists the new column (HeronWeb.BoardLiveTest)\n     test/heron_web/live/board_live_test.exs:44\n     ** (EXIT from #PID<0.731.0>) an exception was raised:\n\n         ** (DBConnection.OwnershipError) cannot find ownership process for #PID<0.745.0>.\n\n     When using ownership, you must manage connections in one\n     of the four ways:\n\n     * By explicitly checking out a connection\n     * By explicitly allowing a spawned process\n     * By running the pid with shared mode\n     * By using :caller option with allowed process\n\n             (ecto_sql 3.11.1) lib/ecto/adapters/sql.ex:1054: Ecto.Adapters.SQL.raise_sql_call_error/1\n             (heron 0.4.0) lib/heron/boards.ex:88: Heron.Boards.move_card/3\n\nFinished in 1.9 seconds (0.4s async, 1.5s sync)\n61 tests, 1 failure\n",
		"ecto-ownership", "fresh: stored")
	h.ask("ecto-ownership/2", "heron", "linux", "mix test --failed",
		"nd the new column to the board (HeronWeb.ColumnLiveTest)\n     test/heron_web/live/column_live_test.exs:19\n     ** (EXIT from #PID<0.802.0>) an exception was raised:\n\n         ** (DBConnection.OwnershipError) cannot find ownership process for #PID<0.811.0>.\n\n     When using ownership, you must manage connections in one\n     of the four ways:\n\n     * By explicitly checking out a connection\n     * By explicitly allowing a spawned process\n\n             (heron 0.4.1) lib/heron/columns.ex:37: Heron.Columns.append/2\n             (elixir 1.16.1) lib/task/supervised.ex:101: Task.Supervised.invoke_mfa/2\n\n14 tests, 1 failure\n",
		"ecto-ownership", "fresh: stored, cut at the start")

	h.note(Note{ID: "spm-schema", Project: "puffin", OS: "darwin", Lang: "swift", At: day(2024, 3, 27),
		Title:   "CI can't read Package.resolved",
		What:    "xcodebuild on the CI Mac: Could not resolve package dependencies: Package.resolved file is corrupted or malformed ... unsupported schema version 3",
		Why:     "My Xcode 15.3 rewrote Package.resolved in schema v3; the CI machine still selects Xcode 15.0, which reads up to v2.",
		Where:   "Puffin.xcworkspace/xcshareddata/swiftpm/Package.resolved",
		Learned: "Keep the CI Xcode at or above the team's; select it explicitly in the job.",
		Fix:     "sudo xcode-select -s /Applications/Xcode_15.3.app"})
	h.ask("spm-schema/1", "puffin", "darwin", "xcodebuild -workspace Puffin.xcworkspace -scheme Puffin -resolvePackageDependencies",
		"Command line invocation:\n    /Applications/Xcode_15.0.app/Contents/Developer/usr/bin/xcodebuild -workspace Puffin.xcworkspace -scheme Puffin -resolvePackageDependencies\n\nUser defaults from command line:\n    IDEPackageSupportUseBuiltinSCM = YES\n\nResolve Package Graph\n2025-03-04 10:12:33.120 xcodebuild[4411:118223] [MT] IDEFileReferenceDebug: [Load] <IDESwiftPackageCore.IDESwiftPackageSpecifierFileReference, 0x600003b4c000: name:Package.resolved path:absolute:/Users/kim/code/puffin/Puffin.xcworkspace/xcshareddata/swiftpm/Package.resolved> Failed to load container at path\nxcodebuild: error: Could not resolve package dependencies:\n  Package.resolved file is corrupted or malformed; fix or delete the file to continue: unsupported schema version 3\n",
		"spm-schema", "fresh: stored")
	h.ask("spm-schema/ci", "puffin", "darwin", "xcodebuild -scheme Puffin -destination 'generic/platform=iOS' build",
		"Resolve Package Graph\n\nxcodebuild: error: Could not resolve package dependencies:\n  Package.resolved file is corrupted or malformed; fix or delete the file to continue: unsupported schema version 3\n##[error]Process completed with exit code 74.\n",
		"spm-schema", "fresh: stored, CI noise")

	h.note(Note{ID: "swiftlint-path", Project: "puffin", OS: "darwin", Lang: "swift", At: day(2023, 12, 5),
		Title:   "Run Script phase: swiftlint: command not found on the M2",
		What:    "Build fails with Command PhaseScriptExecution failed with a nonzero exit code; the script log says swiftlint: command not found, though brew has it.",
		Why:     "Homebrew on Apple Silicon installs to /opt/homebrew/bin, which is not on the PATH Xcode gives build phases.",
		Where:   "Puffin target, Build Phases, SwiftLint script",
		Learned: "Begin the SwiftLint phase with export PATH=\"$PATH:/opt/homebrew/bin\"."})
	h.ask("swiftlint-path/1", "puffin", "darwin", "xcodebuild -scheme Puffin -destination 'platform=iOS Simulator,name=iPhone 15' build",
		"PhaseScriptExecution SwiftLint /Users/kim/Library/Developer/Xcode/DerivedData/Puffin-gqtzbkcxwzlfvbdwpwkbtnmvhhyh/Build/Intermediates.noindex/Puffin.build/Debug-iphonesimulator/Puffin.build/Script-7F3A1C2B2A.sh (in target 'Puffin' from project 'Puffin')\n    cd /Users/kim/code/puffin\n    /bin/sh -c /Users/kim/Library/Developer/Xcode/DerivedData/Puffin-gqtzbkcxwzlfvbdwpwkbtnmvhhyh/Build/Intermediates.noindex/Puffin.build/Debug-iphonesimulator/Puffin.build/Script-7F3A1C2B2A.sh\n/Users/kim/Library/Developer/Xcode/DerivedData/Puffin-gqtzbkcxwzlfvbdwpwkbtnmvhhyh/Build/Intermediates.noindex/Puffin.build/Debug-iphonesimulator/Puffin.build/Script-7F3A1C2B2A.sh: line 2: swiftlint: command not found\nCommand PhaseScriptExecution failed with a nonzero exit code\n\n** BUILD FAILED **\n\n\nThe following build commands failed:\n\tPhaseScriptExecution SwiftLint /Users/kim/Library/Developer/Xcode/DerivedData/Puffin-gqtzbkcxwzlfvbdwpwkbtnmvhhyh/Build/Intermediates.noindex/Puffin.build/Debug-iphonesimulator/Puffin.build/Script-7F3A1C2B2A.sh (in target 'Puffin' from project 'Puffin')\n(1 failure)\n",
		"swiftlint-path", "fresh: stored")
	h.ask("swiftlint-path/pods", "puffin", "darwin", "xcodebuild -scheme Puffin build",
		"PhaseScriptExecution [CP]\\ Check\\ Pods\\ Manifest.lock /Users/kim/Library/Developer/Xcode/DerivedData/Puffin-gqtzbkcxwzlfvbdwpwkbtnmvhhyh/Build/Intermediates.noindex/Puffin.build/Debug-iphonesimulator/Puffin.build/Script-1B2C3D4E5F.sh (in target 'Puffin' from project 'Puffin')\n    cd /Users/kim/code/puffin\nerror: The sandbox is not in sync with the Podfile.lock. Run 'pod install' or update your CocoaPods installation.\nCommand PhaseScriptExecution failed with a nonzero exit code\n\n** BUILD FAILED **\n",
		"", "fresh: same text, another cause")

	h.note(Note{ID: "lfs-quota", Project: "puffin", OS: "darwin", Lang: "git", At: day(2024, 12, 2),
		Title:   "clone breaks in the LFS smudge filter",
		What:    "git clone ends with Smudge error: Error downloading Assets/Onboarding/intro.mov ... batch response: This repository is over its data quota.",
		Why:     "The org used up its LFS bandwidth for the month; nothing is wrong locally.",
		Learned: "Clone without LFS files and pull them once billing buys a data pack.",
		Fix:     "GIT_LFS_SKIP_SMUDGE=1 git clone git@github.com:puffin-app/puffin-ios.git"})
	h.ask("lfs-quota/pull", "puffin", "darwin", "git lfs pull",
		"batch response: This repository is over its data quota. Account responsible for LFS bandwidth should purchase more data packs to restore access.\nerror: failed to fetch some objects from 'https://github.com/puffin-app/puffin-ios.git/info/lfs'\n",
		"lfs-quota", "fresh: another tool, same failure")
	h.ask("lfs-quota/auth", "puffin", "darwin", "git clone https://github.com/puffin-app/puffin-ios.git",
		"Cloning into 'puffin-ios'...\nremote: Enumerating objects: 9120, done.\nReceiving objects: 100% (9120/9120), 31.04 MiB | 11.20 MiB/s, done.\nDownloading Assets/Onboarding/intro.mov (48 MB)\nError downloading object: Assets/Onboarding/intro.mov (7c1e2f9): Smudge error: Error downloading Assets/Onboarding/intro.mov (7c1e2f9a0b): batch response: Authentication required: Authorization error: https://github.com/puffin-app/puffin-ios.git/info/lfs/objects/batch\nCheck that you have proper access to the repository\n\nErrors logged to '/Users/kim/code/puffin-ios/.git/lfs/logs/20250307T101144.412.log'.\nUse `git lfs logs last` to view the log.\nerror: external filter 'git-lfs filter-process' failed\nfatal: Assets/Onboarding/intro.mov: smudge filter lfs failed\nwarning: Clone succeeded, but checkout failed.\n",
		"", "fresh: same text, another cause")
}

func freshInfra(h *hand) {
	h.note(Note{ID: "tf-lock-platform", Project: "terrace", OS: "darwin", Lang: "hcl", At: day(2024, 2, 6),
		Title:   "terraform init in the pipeline: lock file checksums",
		What:    "Linux runner: Error: Failed to install provider — the local package for registry.terraform.io/hashicorp/aws doesn't match any of the checksums previously recorded in the dependency lock file.",
		Why:     ".terraform.lock.hcl was created on my Mac, so it only holds the darwin_arm64 hashes; the runner is linux_amd64.",
		Where:   ".terraform.lock.hcl",
		Learned: "Lock for every platform we run on whenever a provider changes.",
		Fix:     "terraform providers lock -platform=linux_amd64 -platform=darwin_arm64 -platform=darwin_amd64"})
	h.ask("tf-lock-platform/1", "terrace", "linux", "terraform init -input=false",
		"Initializing the backend...\n\nInitializing provider plugins...\n- Reusing previous version of hashicorp/aws from the dependency lock file\n- Reusing previous version of hashicorp/random from the dependency lock file\n- Installing hashicorp/random v3.6.0...\n- Installed hashicorp/random v3.6.0 (signed by HashiCorp)\n- Installing hashicorp/aws v5.31.0...\n\x1b[31m╷\x1b[0m\x1b[0m\n\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mFailed to install provider\x1b[0m\n\x1b[31m│\x1b[0m \x1b[0m\n\x1b[31m│\x1b[0m \x1b[0m\x1b[0mError while installing hashicorp/aws v5.31.0: the current package for\n\x1b[31m│\x1b[0m \x1b[0mregistry.terraform.io/hashicorp/aws 5.31.0 doesn't match any of the\n\x1b[31m│\x1b[0m \x1b[0mchecksums previously recorded in the dependency lock file; for more\n\x1b[31m│\x1b[0m \x1b[0minformation: https://www.terraform.io/language/provider-checksum-verification\n\x1b[31m╵\x1b[0m\x1b[0m\n",
		"tf-lock-platform", "fresh: ANSI colours, another wording")
	h.ask("tf-lock-platform/2", "terrace", "linux", "terraform init -upgrade=false",
		"╷\n│ Error: Failed to install provider\n│ \n│ Error while installing hashicorp/aws v5.40.0: the local package for\n│ registry.terraform.io/hashicorp/aws 5.40.0 doesn't match any of the\n│ checksums previously recorded in the dependency lock file (this might be\n│ because the available checksums are for packages targeting different\n│ platforms); for more information:\n│ https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification\n╵\n",
		"tf-lock-platform", "fresh: another tool version's wording")

	h.note(Note{ID: "tf-sso", Project: "terrace", OS: "darwin", Lang: "hcl", At: day(2023, 6, 21),
		Title:   "plan fails: no valid credential sources",
		What:    "terraform plan → Error: No valid credential sources found (provider aws).",
		Why:     "The AWS SSO session of the terrace-dev profile expired (8 h).",
		Learned: "Log in again before planning.",
		Fix:     "aws sso login --profile terrace-dev"})
	h.note(Note{ID: "tf-sso-2", Project: "terrace", OS: "darwin", Lang: "hcl", At: day(2025, 3, 3), Supersedes: "tf-sso",
		Title:   "AWS credentials for terraform after the Identity Center move",
		What:    "No valid credential sources found / refresh cached SSO token failed when planning.",
		Why:     "The org moved to a new IAM Identity Center instance; the terrace-dev profile points at the old start URL and can no longer log in.",
		Learned: "Profiles now hang off the sso-session corp; terrace-admin replaces terrace-dev.",
		Fix:     "aws sso login --sso-session corp && export AWS_PROFILE=terrace-admin"})
	h.ask("tf-sso/1", "terrace", "darwin", "terraform plan -out plan.bin",
		"╷\n│ Error: No valid credential sources found\n│ \n│   with provider[\"registry.terraform.io/hashicorp/aws\"],\n│   on providers.tf line 1, in provider \"aws\":\n│    1: provider \"aws\" {\n│ \n│ Please see https://registry.terraform.io/providers/hashicorp/aws\n│ for more information about providing credentials.\n│ \n│ Error: failed to refresh cached credentials, refresh cached SSO token\n│ failed, unable to refresh SSO token, operation error SSO OIDC: CreateToken,\n│ https response error StatusCode: 400, RequestID:\n│ 5d1e0c2a-8f7b-4a61-9e3d-0b6c2f1a9e77, InvalidGrantException:\n╵\n",
		"tf-sso-2", "fresh: superseded, declared", "tf-sso")
	h.ask("tf-sso/2", "terrace", "darwin", "terraform apply plan.bin",
		"\x1b[31m╷\x1b[0m\n\x1b[31m│\x1b[0m \x1b[1m\x1b[31mError: \x1b[0m\x1b[1mNo valid credential sources found\x1b[0m\n\x1b[31m│\x1b[0m \n\x1b[31m│\x1b[0m Error: failed to refresh cached credentials, the SSO session has expired or is invalid: open /Users/kim/.aws/sso/cache/3f2a9c.json: no such file or directory\n\x1b[31m╵\x1b[0m\n",
		"tf-sso-2", "fresh: superseded, declared", "tf-sso")
	h.ask("tf-undeclared", "terrace", "linux", "terraform validate",
		"╷\n│ Error: Reference to undeclared input variable\n│ \n│   on main.tf line 23, in module \"vpc\":\n│   23:   cidr = var.vpc_cidr\n│ \n│ An input variable with the name \"vpc_cidr\" has not been declared. This\n│ variable can be declared with a variable \"vpc_cidr\" {} block.\n╵\n",
		"", "fresh: generic names only (main.tf)")

	h.note(Note{ID: "k8s-selector", Project: "spindle", OS: "linux", Lang: "yaml", At: day(2024, 5, 28),
		Title:   "apply rejected after the label cleanup",
		What:    "kubectl apply -f k8s/payments.yaml: The Deployment \"payments\" is invalid: spec.selector: ... field is immutable",
		Why:     "The cleanup renamed app: payments to app.kubernetes.io/name in the selector too; a Deployment's selector cannot change once created.",
		Where:   "k8s/payments.yaml",
		Learned: "Keep selectors stable and relabel only the template, or recreate the Deployment in a window.",
		Fix:     "kubectl delete deployment payments -n prod && kubectl apply -f k8s/payments.yaml"})
	h.ask("k8s-selector/1", "spindle", "linux", "kubectl apply -f k8s/",
		"service/payments unchanged\nconfigmap/payments-config configured\nThe Deployment \"payments\" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app.kubernetes.io/name\":\"payments\", \"app.kubernetes.io/part-of\":\"spindle\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable\n",
		"k8s-selector", "fresh: stored")
	h.ask("k8s-selector/job", "spindle", "linux", "kubectl apply -f k8s/jobs/",
		"The Job \"db-migrate\" is invalid: spec.template: Invalid value: core.PodTemplateSpec{ObjectMeta:v1.ObjectMeta{Name:\"\", GenerateName:\"\", Namespace:\"\", Labels:map[string]string{\"batch.kubernetes.io/controller-uid\":\"7d0c\", \"job-name\":\"db-migrate\"}}, Spec:core.PodSpec{Containers:[]core.Container{core.Container{Name:\"migrate\", Image:\"registry.corp/spindle:1.9.0\"}}}}: field is immutable\n",
		"", "fresh: same message, another object")
	h.ask("k8s-config-yaml", "spindle", "linux", "kubectl apply -f k8s/config.yaml",
		"error: error parsing k8s/config.yaml: error converting YAML to JSON: yaml: line 12: mapping values are not allowed in this context\n",
		"", "fresh: generic names only (config.yaml)")

	h.note(Note{ID: "helm-adopt", Project: "spindle", Scope: "global", OS: "linux", Lang: "yaml", At: day(2024, 8, 13),
		Title:   "helm refuses to take over objects made by kubectl",
		What:    "helm install metrics ...: rendered manifests contain a resource that already exists ... invalid ownership metadata; label validation error: missing key \"app.kubernetes.io/managed-by\": must be set to \"Helm\"",
		Why:     "The objects were created earlier with kubectl apply; Helm only adopts an object that carries its managed-by label and release annotations.",
		Learned: "Label and annotate the existing objects for the release, then install again; deleting them causes downtime.",
		Fix:     "kubectl label sa metrics -n monitoring app.kubernetes.io/managed-by=Helm && kubectl annotate sa metrics -n monitoring meta.helm.sh/release-name=metrics meta.helm.sh/release-namespace=monitoring"})
	h.ask("helm-adopt/lantern", "lantern", "linux", "helm upgrade --install grafana grafana/grafana -n observability -f values.yaml",
		"Release \"grafana\" does not exist. Installing it now.\nError: Unable to continue with install: ConfigMap \"grafana-dashboards\" in namespace \"observability\" exists and cannot be imported into the current release: invalid ownership metadata; label validation error: missing key \"app.kubernetes.io/managed-by\": must be set to \"Helm\"; annotation validation error: missing key \"meta.helm.sh/release-name\": must be set to \"grafana\"; annotation validation error: missing key \"meta.helm.sh/release-namespace\": must be set to \"observability\"\n",
		"helm-adopt", "fresh: global note, another project")
	h.ask("helm-adopt/1", "spindle", "linux", "helm install metrics prometheus-community/kube-state-metrics -n monitoring",
		"Error: INSTALLATION FAILED: rendered manifests contain a resource that already exists. Unable to continue with install: ServiceAccount \"metrics\" in namespace \"monitoring\" exists and cannot be imported into the current release: invalid ownership metadata; label validation error: missing key \"app.kubernetes.io/managed-by\": must be set to \"Helm\"; annotation validation error: missing key \"meta.helm.sh/release-name\": must be set to \"metrics\"\n",
		"helm-adopt", "fresh: stored")

	h.note(Note{ID: "exec-format", Project: "spindle", OS: "darwin", Lang: "docker", At: day(2025, 1, 27),
		Title:   "dev pods crash instantly: exec format error",
		What:    "New spindle image: pods go to CrashLoopBackOff and kubectl logs shows only `exec /usr/local/bin/spindle: exec format error`.",
		Why:     "I built and pushed the image from my M3 laptop, so it is arm64; the dev cluster's nodes are amd64.",
		Learned: "Build pushed images for linux/amd64 explicitly with buildx.",
		Fix:     "docker buildx build --platform linux/amd64 -t registry.corp/spindle:dev --push ."})
	h.ask("exec-format/1", "spindle", "darwin", "kubectl logs deploy/spindle -n dev --previous",
		"Found 2 pods, using pod/spindle-7d9c8b5f4-x2kqp\nexec /usr/local/bin/spindle: exec format error\n",
		"exec-format", "fresh: stored, short tail")
	h.ask("exec-format/docker-run", "spindle", "linux", "docker run --rm registry.corp/spindle:dev --version",
		"Unable to find image 'registry.corp/spindle:dev' locally\ndev: Pulling from spindle\nDigest: sha256:4be1c0a6f1d9e3b27c8a5f0e9d2b6c4a7e1f3d5b9c0a2e4f6b8d0c2e4a6b8d0c\nStatus: Downloaded newer image for registry.corp/spindle:dev\nWARNING: The requested image's platform (linux/arm64) does not match the detected host platform (linux/amd64/v3) and no specific platform was requested\nexec /usr/local/bin/spindle: exec format error\n",
		"exec-format", "fresh: stored, another tool and system")

	h.note(Note{ID: "buster-archive", Project: "ferry", OS: "linux", Lang: "docker", At: day(2024, 7, 2),
		Title:   "apt-get update 404s in the python:3.8-buster base",
		What:    "docker build fails at apt-get update: The repository 'http://deb.debian.org/debian buster Release' does not have a Release file (404 Not Found).",
		Why:     "Debian 10 buster reached end of life and moved to archive.debian.org; the old base image's sources.list still points at deb.debian.org.",
		Where:   "Dockerfile",
		Learned: "Point sources.list at the archive until the move to bookworm; the real fix is the base image upgrade.",
		Fix:     "sed -i 's|deb.debian.org|archive.debian.org|g; /buster-updates/d' /etc/apt/sources.list"})
	h.ask("buster-archive/1", "ferry", "linux", "docker build -t ferry:ci .",
		"#6 [2/7] RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev\n#6 0.512 Ign:1 http://deb.debian.org/debian buster InRelease\n#6 0.518 Ign:2 http://deb.debian.org/debian-security buster/updates InRelease\n#6 0.530 Err:4 http://deb.debian.org/debian buster Release\n#6 0.530   404  Not Found [IP: 151.101.2.132 80]\n#6 0.711 Reading package lists...\n#6 0.711 E: The repository 'http://deb.debian.org/debian buster Release' does not have a Release file.\n#6 0.711 E: The repository 'http://deb.debian.org/debian-security buster/updates Release' does not have a Release file.\n#6 ERROR: process \"/bin/sh -c apt-get update && apt-get install -y --no-install-recommends libpq-dev\" did not complete successfully: exit code: 100\n------\nERROR: failed to solve: process \"/bin/sh -c apt-get update && apt-get install -y --no-install-recommends libpq-dev\" did not complete successfully: exit code: 100\n",
		"buster-archive", "fresh: stored")
	h.ask("buster-archive/dns", "ferry", "linux", "docker build -t ferry:ci .",
		"#6 [2/7] RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev\n#6 10.52 Err:1 http://deb.debian.org/debian bookworm InRelease\n#6 10.52   Temporary failure resolving 'deb.debian.org'\n#6 20.60 W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Temporary failure resolving 'deb.debian.org'\n#6 20.71 E: Unable to locate package libpq-dev\n#6 ERROR: process \"/bin/sh -c apt-get update && apt-get install -y --no-install-recommends libpq-dev\" did not complete successfully: exit code: 100\n------\nERROR: failed to solve: process \"/bin/sh -c apt-get update && apt-get install -y --no-install-recommends libpq-dev\" did not complete successfully: exit code: 100\n",
		"", "fresh: same text, another cause")
}

func freshNative(h *hand) {
	h.note(Note{ID: "pthread-link", Project: "kiln", OS: "linux", Lang: "c", At: day(2023, 9, 12),
		Title:   "link error on the CentOS 7 builder: pthread_create",
		What:    "/usr/bin/ld: CMakeFiles/kiln.dir/src/sched.c.o: in function `worker_start': undefined reference to `pthread_create'",
		Why:     "CMakeLists.txt linked Threads only inside if(APPLE); glibc before 2.34 keeps pthread in a separate libpthread, so the old builder needs -pthread.",
		Where:   "CMakeLists.txt",
		Learned: "find_package(Threads REQUIRED) and target_link_libraries(kiln PRIVATE Threads::Threads) on every platform."})
	h.ask("pthread-link/join", "kiln", "linux", "cmake --build build -j2",
		"[ 91%] Building C object CMakeFiles/kiln.dir/src/pool.c.o\n[100%] Linking C executable kiln\n/opt/rh/devtoolset-11/root/usr/libexec/gcc/x86_64-redhat-linux/11/ld: CMakeFiles/kiln.dir/src/pool.c.o: in function `pool_drain':\npool.c:(.text+0x1a4): undefined reference to `pthread_join'\n/opt/rh/devtoolset-11/root/usr/libexec/gcc/x86_64-redhat-linux/11/ld: pool.c:(.text+0x2c9): undefined reference to `pthread_create'\ncollect2: error: ld returned 1 exit status\ngmake[2]: *** [CMakeFiles/kiln.dir/build.make:161: kiln] Error 1\ngmake[1]: *** [CMakeFiles/Makefile2:83: CMakeFiles/kiln.dir/all] Error 2\ngmake: *** [Makefile:91: all] Error 2\n",
		"pthread-link", "fresh: stored, other symbols")
	h.ask("pthread-link/own-symbol", "kiln", "linux", "cmake --build build -j2",
		"[100%] Linking C executable kiln\n/usr/bin/ld: CMakeFiles/kiln.dir/src/main.c.o: in function `main':\nmain.c:(.text+0x9e): undefined reference to `kiln_hash_update'\n/usr/bin/ld: main.c:(.text+0xb3): undefined reference to `kiln_hash_final'\ncollect2: error: ld returned 1 exit status\ngmake[2]: *** [CMakeFiles/kiln.dir/build.make:161: kiln] Error 1\ngmake[1]: *** [CMakeFiles/Makefile2:83: CMakeFiles/kiln.dir/all] Error 2\ngmake: *** [Makefile:91: all] Error 2\n",
		"", "fresh: same message, another object")
	h.ask("pthread-link/nimbus", "nimbus-fw", "linux", "cmake --build build",
		"[100%] Linking C executable nimbus-sim\n/usr/bin/ld: CMakeFiles/nimbus-sim.dir/sim/clock.c.o: in function `clock_thread_start':\nclock.c:(.text+0x4f): undefined reference to `pthread_create'\ncollect2: error: ld returned 1 exit status\ngmake[2]: *** [CMakeFiles/nimbus-sim.dir/build.make:120: nimbus-sim] Error 1\n",
		"", "fresh: another project's project note")
	h.ask("kiln-makefile", "kiln", "linux", "make",
		"[ 40%] Building C object CMakeFiles/kiln.dir/src/io.c.o\n/home/ci/build/kiln/src/io.c:12:10: fatal error: zstd.h: No such file or directory\n   12 | #include <zstd.h>\n      |          ^~~~~~~~\ncompilation terminated.\nmake[2]: *** [CMakeFiles/kiln.dir/build.make:76: CMakeFiles/kiln.dir/src/io.c.o] Error 1\nmake[1]: *** [CMakeFiles/Makefile2:83: CMakeFiles/kiln.dir/all] Error 2\nmake: *** [Makefile:91: all] Error 2\n",
		"", "fresh: generic names only (Makefile)")

	h.note(Note{ID: "cmake-cache-moved", Project: "kiln", Scope: "global", OS: "linux", Lang: "c", At: day(2024, 10, 1),
		Title:   "CMakeCache.txt from another machine",
		What:    "cmake refused to configure: the current CMakeCache.txt directory is different than the directory where CMakeCache.txt was created.",
		Why:     "The CI cache step saved build/ from a developer's run, so the cache carries their absolute paths.",
		Learned: "Never cache the CMake build dir across machines; cache ccache's dir instead.",
		Fix:     "rm -rf build && cmake -S . -B build"})
	h.ask("cmake-cache-moved/nimbus", "nimbus-fw", "linux", "cmake -S . -B build -DBOARD=rev3",
		"CMake Error: The current CMakeCache.txt directory /home/ci/build/nimbus-fw/build/CMakeCache.txt is different than the directory /home/ana/src/nimbus-fw/build where CMakeCache.txt was created. This may result in binaries being created in the wrong place. If you are not sure, reedit the CMakeCache.txt\nCMake Error: The source \"/home/ci/build/nimbus-fw/CMakeLists.txt\" does not match the source \"/home/ana/src/nimbus-fw/CMakeLists.txt\" used to generate cache.  Re-run cmake with a different source directory.\n",
		"cmake-cache-moved", "fresh: global note, another project")

	h.note(Note{ID: "fmt-mac", Project: "kiln", OS: "darwin", Lang: "c", At: day(2025, 2, 4),
		Title:   "cmake can't find fmt on the Mac",
		What:    "CMake Error at CMakeLists.txt:14 (find_package): Could not find a package configuration file provided by \"fmt\" — although brew install fmt is done.",
		Why:     "Homebrew on Apple Silicon installs to /opt/homebrew, which is not in CMake's default search prefixes.",
		Learned: "Pass brew's prefix to CMake on macOS.",
		Fix:     "cmake -S . -B build -DCMAKE_PREFIX_PATH=\"$(brew --prefix)\""})
	h.note(Note{ID: "fmt-win", Project: "kiln", OS: "windows", Lang: "c", At: day(2025, 2, 10),
		Title:   "Windows build: fmtConfig.cmake not found",
		What:    "Same find_package(fmt) failure on the Windows agent.",
		Why:     "On Windows fmt comes from vcpkg, and CMake only sees vcpkg's packages through its toolchain file; the new agent's job forgot it.",
		Learned: "Always configure with the vcpkg toolchain on Windows.",
		Fix:     "cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=C:/vcpkg/scripts/buildsystems/vcpkg.cmake"})
	fmtErr := func(pkg, line string) string {
		return "-- The C compiler identification is AppleClang 15.0.0.15000100\n-- Detecting C compiler ABI info - done\nCMake Error at CMakeLists.txt:" + line + " (find_package):\n  By not providing \"Find" + pkg + ".cmake\" in CMAKE_MODULE_PATH this project has\n  asked CMake to find a package configuration file provided by \"" + pkg + "\", but\n  CMake did not find one.\n\n  Could not find a package configuration file provided by \"" + pkg + "\" with any of\n  the following names:\n\n    " + pkg + "Config.cmake\n    " + pkg + "-config.cmake\n\n  Add the installation prefix of \"" + pkg + "\" to CMAKE_PREFIX_PATH or set \"" + pkg + "_DIR\"\n  to a directory containing one of the above files.  If \"" + pkg + "\" provides a\n  separate development package or SDK, be sure it has been installed.\n\n\n-- Configuring incomplete, errors occurred!\n"
	}
	h.ask("fmt/mac", "kiln", "darwin", "cmake -S . -B build", fmtErr("fmt", "14"), "fmt-mac", "fresh: twin on another system")
	h.ask("fmt/win", "kiln", "windows", "cmake -S . -B build",
		crlf(strings.Replace(fmtErr("fmt", "14"), "AppleClang 15.0.0.15000100", "MSVC 19.38.33134.0", 1)), "fmt-win", "fresh: twin on another system, CRLF")
	h.ask("fmt/linux-catch2", "kiln", "linux", "cmake -S . -B build -DKILN_TESTS=ON",
		strings.Replace(fmtErr("Catch2", "31"), "AppleClang 15.0.0.15000100", "GNU 13.2.0", 1), "", "fresh: same message, another object")
}

func freshPythonBrowser(h *hand) {
	h.note(Note{ID: "scm-shallow", Project: "wheelhouse", OS: "linux", Lang: "python", At: day(2024, 3, 19),
		Title:   "pip install -e . in CI: setuptools-scm has no version",
		What:    "LookupError: setuptools-scm was unable to detect version for /home/ci/build/wheelhouse.",
		Why:     "actions/checkout fetches depth 1 without tags, so setuptools-scm has nothing to derive a version from.",
		Where:   ".github/workflows/ci.yml",
		Learned: "Use fetch-depth: 0 in the checkout step, or fetch the tags before installing.",
		Fix:     "git fetch --tags --unshallow"})
	h.ask("scm-shallow/1", "wheelhouse", "linux", "pip install -e '.[test]'",
		"Obtaining file:///home/ci/build/wheelhouse\n  Installing build dependencies ... done\n  Checking if build backend supports build_editable ... done\n  Getting requirements to build editable ... error\n  error: subprocess-exited-with-error\n  \n  × Getting requirements to build editable did not run successfully.\n  │ exit code: 1\n  ╰─> [18 lines of output]\n      Traceback (most recent call last):\n        File \"/home/ci/build/wheelhouse/.venv/lib/python3.12/site-packages/setuptools_scm/_get_version_impl.py\", line 165, in _get_version\n          _version_missing(config)\n      LookupError: setuptools-scm was unable to detect version for /home/ci/build/wheelhouse.\n      \n      Make sure you're either building from a fully intact git repository or PyPI tarballs. Most other sources (such as GitHub's tarballs, a git checkout without the .git folder) don't contain the necessary metadata and will not work.\n      [end of output]\n  \n  note: This error originates from a subprocess, and is likely not a problem with pip.\nerror: subprocess-exited-with-error\n",
		"scm-shallow", "fresh: stored")
	h.ask("scm-shallow/build", "wheelhouse", "linux", "python -m build",
		"* Creating isolated environment: venv+pip...\n* Installing packages in isolated environment:\n  - setuptools-scm>=8\n  - setuptools>=69\n* Getting build dependencies for sdist...\nTraceback (most recent call last):\n  File \"/home/ci/build/wheelhouse/.venv/lib/python3.12/site-packages/pyproject_hooks/_in_process/_in_process.py\", line 373, in <module>\n    main()\nLookupError: setuptools-scm was unable to detect version for /home/ci/build/wheelhouse.\n\nMake sure you're either building from a fully intact git repository or PyPI tarballs.\n\nERROR Backend subprocess exited when trying to invoke get_requires_for_build_sdist\n",
		"scm-shallow", "fresh: stored, another tool")
	h.ask("scm-shallow/dockerignore", "wheelhouse", "linux", "docker build -t wheelhouse .",
		"#9 [5/6] RUN pip install --no-cache-dir .\n#9 1.802   Getting requirements to build wheel: finished with status 'error'\n#9 1.806   × Getting requirements to build wheel did not run successfully.\n#9 1.806   ╰─> [14 lines of output]\n#9 1.806       LookupError: setuptools-scm was unable to detect version for /src.\n#9 1.806       \n#9 1.806       Make sure you're either building from a fully intact git repository or PyPI tarballs. Most other sources (such as GitHub's tarballs, a git checkout without the .git folder) don't contain the necessary metadata and will not work.\n#9 1.810 (.dockerignore excludes .git; pass the version with SETUPTOOLS_SCM_PRETEND_VERSION)\n#9 ERROR: process \"/bin/sh -c pip install --no-cache-dir .\" did not complete successfully: exit code: 1\n",
		"", "fresh: same text, another cause")

	h.note(Note{ID: "msvc-wheel", Project: "wheelhouse", OS: "windows", Lang: "python", At: day(2024, 11, 12),
		Title:   "Windows: pip wants Visual C++ 14.0 for ciso8601",
		What:    "pip install -r requirements.txt on Python 3.13: error: Microsoft Visual C++ 14.0 or greater is required, while building the ciso8601 wheel.",
		Why:     "ciso8601 has no win_amd64 wheel for 3.13 yet, so pip falls back to the sdist and needs a compiler.",
		Learned: "Stay on 3.12 on Windows until the wheel ships; the Build Tools route works too but is a 6 GB install.",
		Fix:     "py -3.12 -m venv .venv"})
	h.ask("msvc-wheel/1", "wheelhouse", "windows", "pip install -r requirements.txt",
		crlf("Collecting ciso8601==2.3.1 (from -r requirements.txt (line 4))\n  Downloading ciso8601-2.3.1.tar.gz (31 kB)\n  Preparing metadata (pyproject.toml) ... done\nBuilding wheels for collected packages: ciso8601\n  Building wheel for ciso8601 (pyproject.toml) ... error\n  error: subprocess-exited-with-error\n\n  × Building wheel for ciso8601 (pyproject.toml) did not run successfully.\n  │ exit code: 1\n  ╰─> [9 lines of output]\n      running bdist_wheel\n      running build\n      running build_ext\n      building 'ciso8601' extension\n      error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\": https://visualstudio.microsoft.com/visual-cpp-build-tools/\n      [end of output]\n\n  note: This error originates from a subprocess, and is likely not a problem with pip.\n  ERROR: Failed building wheel for ciso8601\nFailed to build ciso8601\nERROR: Could not build wheels for ciso8601, which is required to install pyproject.toml-based projects\n"),
		"msvc-wheel", "fresh: Windows paths and CRLF")

	h.note(Note{ID: "wheelhouse-tags", Project: "wheelhouse", OS: "linux", Lang: "python", At: day(2024, 1, 15), Type: "decision", NoFailure: true,
		Title:   "Versions come from git tags only",
		What:    "The package version is derived from the vX.Y.Z tag by setuptools-scm; nobody writes a version string in pyproject.toml or __init__.py.",
		Why:     "Two releases went out with a stale __version__.",
		Where:   "pyproject.toml [tool.setuptools_scm]",
		Learned: "Tag on main and let the release workflow publish."})
	h.ask("wheelhouse-twine", "wheelhouse", "linux", "twine upload dist/*",
		"Uploading distributions to https://upload.pypi.org/legacy/\nUploading wheelhouse-0.9.2-py3-none-any.whl\n100% ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 24.1/24.1 kB • 00:00 • 41.3 MB/s\nWARNING  Error during upload. Retry with the --verbose option for more details.\nERROR    HTTPError: 400 Bad Request from https://upload.pypi.org/legacy/\n         File already exists. See https://pypi.org/help/#file-name-reuse for more information.\n",
		"", "fresh: a note that describes no failure")

	h.note(Note{ID: "pw-webserver", Project: "glasshouse", OS: "linux", Lang: "typescript", At: day(2024, 6, 25),
		Title:   "e2e job hangs then fails: webServer timeout",
		What:    "npx playwright test → Error: Timed out waiting 60000ms from config.webServer.",
		Why:     "webServer runs npm run start (next start), which needs a production build; the CI job had dropped the build step, so next start exited and Playwright waited for a port that never opened.",
		Where:   "playwright.config.ts webServer",
		Learned: "Build before the e2e step; reuseExistingServer stays false in CI.",
		Fix:     "npm run build && npx playwright test"})
	h.ask("pw-webserver/1", "glasshouse", "linux", "npx playwright test --project=chromium",
		"[WebServer] \n[WebServer] > glasshouse@1.4.0 start\n[WebServer] > next start -p 3100\n[WebServer] \n[WebServer] Error: Could not find a production build in the '.next' directory. Try building your app with 'next build' before starting the production server. https://nextjs.org/docs/messages/production-start-no-build-id\n\nError: Timed out waiting 120000ms from config.webServer.\n\n\nTo open last HTML report run:\n\n  npx playwright show-report\n\n",
		"pw-webserver", "fresh: stored, other timeout")

	h.note(Note{ID: "pw-strict", Project: "glasshouse", OS: "linux", Lang: "typescript", At: day(2025, 2, 12),
		Title:   "checkout spec broke: Save matches two buttons",
		What:    "tests/checkout.spec.ts: strict mode violation: getByRole('button', { name: 'Save' }) resolved to 2 elements",
		Why:     "The new sticky footer repeats the Save button of the address form.",
		Where:   "tests/checkout.spec.ts",
		Learned: "Scope the locator to the form: page.getByTestId('address-form').getByRole('button', { name: 'Save' })."})
	h.ask("pw-strict/1", "glasshouse", "linux", "npx playwright test tests/checkout.spec.ts",
		"Running 6 tests using 2 workers\n\n  1) [chromium] › tests/checkout.spec.ts:41:7 › checkout › saves a new address ──────────────────────\n\n    Error: locator.click: Error: strict mode violation: getByRole('button', { name: 'Save' }) resolved to 2 elements:\n        1) <button type=\"submit\" class=\"btn btn-primary\">Save</button> aka getByTestId('address-form').getByRole('button', { name: 'Save' })\n        2) <button class=\"footer__save\">Save</button> aka getByTestId('sticky-footer').getByRole('button', { name: 'Save' })\n\n    Call log:\n      - waiting for getByRole('button', { name: 'Save' })\n\n      47 |     await page.getByLabel('Postcode').fill('1012 AB');\n    > 48 |     await page.getByRole('button', { name: 'Save' }).click();\n         |                                                      ^\n\n  1 failed\n    [chromium] › tests/checkout.spec.ts:41:7 › checkout › saves a new address\n  5 passed (14.2s)\n",
		"pw-strict", "fresh: stored")
	h.ask("pw-strict/delete", "glasshouse", "linux", "npx playwright test tests/admin.spec.ts",
		"  1) [chromium] › tests/admin.spec.ts:18:5 › admin › removes a user ─────────────────────────────\n\n    Error: locator.click: Error: strict mode violation: getByText('Delete') resolved to 3 elements:\n        1) <button class=\"row-action\">Delete</button> aka getByRole('row', { name: 'ana@example.com' }).getByRole('button')\n        2) <button class=\"row-action\">Delete</button> aka getByRole('row', { name: 'bo@example.com' }).getByRole('button')\n        3) <h2>Delete users</h2> aka getByRole('heading', { name: 'Delete users' })\n\n  1 failed\n    [chromium] › tests/admin.spec.ts:18:5 › admin › removes a user\n",
		"", "fresh: same message, another object")
	h.ask("pw-index-ts", "glasshouse", "linux", "npx tsc -p tsconfig.json",
		"src/index.ts:3:8 - error TS1259: Module '\"/home/ci/build/glasshouse/node_modules/@types/express/index\"' can only be default-imported using the 'esModuleInterop' flag\n\n3 import express from 'express';\n         ~~~~~~~\n\nFound 1 error in src/index.ts:3\n",
		"", "fresh: generic names only (index.ts)")
}

// freshNeverStored are failures of the fresh part's ecosystems that no
// note is about, several close to a stored note of another part.
func freshNeverStored(h *hand) {
	h.ask("xcode-team", "puffin", "darwin", "xcodebuild -scheme PuffinWidget archive",
		"error: Signing for \"PuffinWidget\" requires a development team. Select a development team in the Signing & Capabilities editor. (in target 'PuffinWidget' from project 'Puffin')\n** ARCHIVE FAILED **\n", "", "fresh: never stored")
	h.ask("android-res", "mosaic", "linux", "./gradlew assembleDebug",
		"> Task :app:mergeDebugResources FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:mergeDebugResources'.\n> A failure occurred while executing com.android.build.gradle.internal.res.ResourceCompilerRunnable\n   > Resource compilation failed (Failed to compile values resource file /home/ci/build/mosaic/app/build/intermediates/incremental/debug/mergeDebugResources/merged.dir/values/values.xml. Cause: java.lang.IllegalStateException: Can not extract resource from com.android.aaptcompiler.ParsedResource@1f3a). Check logs for more details.\n", "", "fresh: never stored")
	h.ask("rust-send", "tidepool", "linux", "cargo build",
		"error[E0277]: `Rc<RefCell<State>>` cannot be sent between threads safely\n   --> src/worker.rs:31:18\n    |\n31  |     tokio::spawn(async move {\n    |     ------------ ^---------\n    |     |            |\n    |     |  `Rc<RefCell<State>>` cannot be sent between threads safely\n    |     required by a bound introduced by this call\n", "", "fresh: never stored")
	h.ask("java-classversion", "orchard", "linux", "java -jar target/orchard-api.jar",
		"Error: LinkageError occurred while loading main class com.orchard.Application\n\tjava.lang.UnsupportedClassVersionError: com/orchard/Application has been compiled by a more recent version of the Java Runtime (class file version 65.0), this version of the Java Runtime only recognizes class file versions up to 61.0\n", "", "fresh: never stored")
	h.ask("k8s-crd-traefik", "spindle", "linux", "kubectl get ingressroutes -A",
		"error: the server doesn't have a resource type \"ingressroutes\"\n", "", "fresh: never stored")
	h.ask("cs0246", "lumen", "windows", "dotnet build",
		crlf("C:\\Users\\dev\\src\\lumen\\src\\Lumen.Api\\Http\\RetryHandler.cs(3,7): error CS0246: The type or namespace name 'Polly' could not be found (are you missing a using directive or an assembly reference?) [C:\\Users\\dev\\src\\lumen\\src\\Lumen.Api\\Lumen.Api.csproj]\n"), "", "fresh: never stored")
	h.ask("docker-ratelimit", "ferry", "linux", "docker build -t ferry:ci .",
		"ERROR: failed to solve: python:3.12-slim: failed to resolve source metadata for docker.io/library/python:3.12-slim: failed to authorize: failed to fetch oauth token: unexpected status from GET request to https://auth.docker.io/token?scope=repository%3Alibrary%2Fpython%3Apull&service=registry.docker.io: 429 Too Many Requests\n", "", "fresh: never stored")
	h.ask("git-conflict", "tidepool", "linux", "git rebase origin/main",
		"Auto-merging src/main.rs\nCONFLICT (content): Merge conflict in src/main.rs\nerror: could not apply 3f9c2d1... route refunds through the ledger\nhint: Resolve all conflicts manually, mark them as resolved with\nhint: \"git add/rm <conflicted_files>\", then run \"git rebase --continue\".\n", "", "fresh: generic names only (main.rs)")
}
