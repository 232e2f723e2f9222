package replay

import "strings"

// The fourth unseen part: hand cases written blind (neither the engine,
// nor its misses, nor the other parts' notes read), about ecosystems no
// other part has: Bazel, Gradle and sbt outside Android, Maven with Java
// modules, Spring Boot, Liquibase (this file); pnpm workspaces, Yarn PnP,
// webpack, esbuild, Jest, Cypress, Storybook, Prisma, Deno, Bun, tsc
// project references, ESLint's flat config, Stripe
// (hand_unseen4_web.go); Django migrations, Alembic, Redis, PostgreSQL
// extensions, MySQL replication, SQLite locking under Rails, Supabase
// (hand_unseen4_data.go); Ansible, Packer, Vagrant, Helm, minikube,
// Podman, AWS CDK and SAM, gcloud, Firebase, Vercel, Netlify
// (hand_unseen4_ops.go); Elixir's mix, cabal, opam, Zig, SwiftPM,
// CocoaPods, Flutter, Unity, Godot, bundler, CMake presets, vcpkg, nvcc,
// sanitizers, protoc and buf, pre-commit with ruff, pyright
// (hand_unseen4_native.go); and the notes describing no failure and the
// failures no note is about (hand_unseen4_never.go).

func handUnseen4() ([]Note, []Query) {
	h := &hand{split: Unseen4, prefix: "unseen4/"}
	unseen4JVM(h)
	unseen4Web(h)
	unseen4Data(h)
	unseen4Ops(h)
	unseen4Native(h)
	unseen4Plain(h)
	unseen4Never(h)
	// Every tail may spell an escape \e and a backtick §, in raw strings.
	for i := range h.qs {
		h.qs[i].Tail = tty(h.qs[i].Tail)
	}
	return h.notes, h.qs
}

// tty writes a tail the way a terminal got it: `\e` is the escape byte,
// § a backtick (raw strings cannot hold one).
func tty(s string) string { return strings.NewReplacer(`\e`, "\x1b", "§", "`").Replace(s) }

func unseen4JVM(h *hand) {
	// Bazel: two notes on one tool, two errors.
	h.note(Note{ID: "bazel-genrule-python", Project: "ironbark", OS: "linux", Lang: "java", At: day(2024, 2, 19),
		Title:   "bazel genrule can't find python in the sandbox",
		What:    "`bazel build //tools/codegen:schema_gen` dies in the genrule with `/usr/bin/env: 'python': No such file or directory` (Exit 127), although python3 is installed on the build box.",
		Why:     "gen_schema.py is run through its `#!/usr/bin/env python` shebang. .bazelrc has --incompatible_strict_action_env, so the linux-sandbox PATH is just /bin:/usr/bin, and the image has python3 but no `python` symlink. Nothing hermetic about it anyway.",
		Where:   "tools/codegen/BUILD.bazel, .bazelrc",
		Learned: "Don't shell out to the system python from a genrule. Made gen_schema a py_binary (rules_python toolchain registered in MODULE.bazel) and put it in the genrule's `tools`, invoked as $(execpath :gen_schema). Works in the sandbox and on remote execution.",
	})
	h.ask("bazel-genrule-python/1", "ironbark", "linux", "bazel build //tools/codegen:all",
		`INFO: Invocation ID: 6d1f0c2e-8a4b-4f1e-9c7a-2b5e3d9f1a07
INFO: Analyzed 14 targets (212 packages loaded, 6104 targets configured).
INFO: Found 14 targets...
ERROR: /home/ci/build/ironbark/tools/codegen/BUILD.bazel:22:8: Executing genrule //tools/codegen:schema_gen failed: (Exit 127): bash failed: error executing Genrule command (from target //tools/codegen:schema_gen) /bin/bash -c 'source external/bazel_tools/tools/genrule/genrule-setup.sh; tools/codegen/gen_schema.py --out bazel-out/k8-fastbuild/bin/tools/codegen/schema.h proto/schema.json'
/usr/bin/env: 'python': No such file or directory
Target //tools/codegen:all failed to build
Use --verbose_failures to see the command lines of failed build steps.
INFO: Elapsed time: 41.877s, Critical Path: 0.41s
INFO: 9 processes: 8 internal, 1 linux-sandbox.
ERROR: Build did NOT complete successfully
`, "bazel-genrule-python", "hand: stored")
	h.ask("bazel-genrule-python/2", "ironbark", "linux", "bazel test //services/ledger/... --config=ci",
		tty(`(14:02:11) INFO: Current date is 2025-01-08
(14:02:19) INFO: Analyzed 87 targets (0 packages loaded, 0 targets configured).
(14:02:19) INFO: Found 61 targets and 26 test targets...
(14:02:20) \e[31m\e[1mERROR: \e[0m/home/ci/build/ironbark/tools/codegen/BUILD.bazel:41:8: Executing genrule //tools/codegen:enum_gen failed: (Exit 127): bash failed: error executing Genrule command (from target //tools/codegen:enum_gen) /bin/bash -c ... (remaining 1 argument skipped)

Use --sandbox_debug to see verbose messages from the sandbox and retain the sandbox build root for debugging
/usr/bin/env: 'python': No such file or directory
(14:02:20) INFO: Elapsed time: 9.312s, Critical Path: 0.22s
(14:02:20) INFO: 3 processes: 3 internal.
(14:02:20) \e[31m\e[1mERROR: \e[0mBuild did NOT complete successfully
//services/ledger:ledger_test                                         NO STATUS
`), "bazel-genrule-python", "hand: another genrule of the same setup, coloured")

	h.note(Note{ID: "bazel-lockfile", Project: "ironbark", OS: "darwin", Lang: "java", At: day(2025, 3, 11),
		Title:   "MODULE.bazel.lock stale after rules_jvm_external bump",
		What:    "Bumped rules_jvm_external in MODULE.bazel and every build dies before analysis:\n```\nERROR: MODULE.bazel.lock is no longer up-to-date because: the root module's MODULE.bazel has changed. Please run `bazel mod deps --lockfile_mode=update` to update your lockfile.\n```",
		Why:     "CI and .bazelrc run with --lockfile_mode=error so the lockfile has to be regenerated and committed together with any MODULE.bazel change.",
		Where:   "MODULE.bazel, MODULE.bazel.lock",
		Learned: "Regenerate the lock in the same commit as the bump.", Fix: "bazel mod deps --lockfile_mode=update && git add MODULE.bazel.lock"})
	h.ask("bazel-lockfile/1", "ironbark", "darwin", "bazel build //...",
		`Starting local Bazel server and connecting to it...
INFO: Invocation ID: 0b77e2f1-3c5a-4d2e-a1a9-4f8e0c6d2b11
ERROR: MODULE.bazel.lock is no longer up-to-date because: the root module's MODULE.bazel has changed. Please run §bazel mod deps --lockfile_mode=update§ to update your lockfile.
INFO: Elapsed time: 2.104s
INFO: 0 processes.
FAILED: Build did NOT complete successfully (0 packages loaded)
`, "bazel-lockfile", "hand: stored")
	h.ask("bazel-lockfile/2", "ironbark", "linux", "bazel test //... --config=ci --lockfile_mode=error",
		`##[group]Run bazel test //... --config=ci --lockfile_mode=error
##[endgroup]
(09:41:03) INFO: Reading 'startup' options from /home/ci/build/ironbark/.bazelrc: --output_user_root=/home/ci/.cache/bazel
(09:41:05) ERROR: MODULE.bazel.lock is no longer up-to-date because: the value of the extension 'maven' of module 'rules_jvm_external' changed. Please run §bazel mod deps --lockfile_mode=update§ to update your lockfile.
(09:41:05) INFO: Elapsed time: 1.883s
(09:41:05) INFO: 0 processes.
(09:41:05) FAILED: Build did NOT complete successfully (0 packages loaded)
##[error]Process completed with exit code 1.
`, "bazel-lockfile", "hand: CI prints another reason for the same stale lock")
	h.ask("bazel-coursier", "ironbark", "linux", "bazel build //services/...",
		`INFO: Repository maven instantiated at:
  /home/ci/build/ironbark/MODULE.bazel:31:23: in <toplevel>
Repository rule coursier_fetch defined at:
  /home/ci/.cache/bazel/_bazel_ci/3f1e/external/rules_jvm_external~/coursier.bzl:1165:33: in <toplevel>
ERROR: An error occurred during the fetch of repository 'rules_jvm_external~~maven~maven':
   Traceback (most recent call last):
	File "/home/ci/.cache/bazel/_bazel_ci/3f1e/external/rules_jvm_external~/coursier.bzl", line 1076, column 13, in _coursier_fetch_impl
		fail("Error while fetching artifact with coursier: " + exec_result.stderr)
Error in fail: Error while fetching artifact with coursier: Resolution error: Error downloading io.grpc:grpc-netty-shaded:1.62.2
  not found: https://repo1.maven.org/maven2/io/grpc/grpc-netty-shaded/1.62.2/grpc-netty-shaded-1.62.2.pom
  download error: Caught java.net.SocketTimeoutException (Read timed out) while downloading https://maven.internal.acme.io/io/grpc/grpc-netty-shaded/1.62.2/grpc-netty-shaded-1.62.2.pom
ERROR: no such package '@@rules_jvm_external~~maven~maven//': Error while fetching artifact with coursier
`, "", "same tool, another error: a coursier fetch, neither Bazel note")

	// Gradle toolchains: the same output on Linux and on Windows, two fixes.
	h.note(Note{ID: "gradle-toolchain-linux", Project: "halyard", OS: "linux", Lang: "java", At: day(2024, 5, 6),
		Title:   "gradle can't find JDK 21 on CI agents",
		What:    "compileJava fails: `Cannot find a Java installation on your machine matching this tasks requirements: {languageVersion=21, vendor=any, implementation=vendor-specific} for LINUX on x86_64.` The agents only have 17.",
		Why:     "build.gradle sets java.toolchain.languageVersion = 21 but no toolchain resolver is configured, so Gradle won't download one (since 8.0 auto-provisioning needs a repository).",
		Where:   "settings.gradle",
		Learned: "On Linux agents: apply the foojay resolver, `id 'org.gradle.toolchains.foojay-resolver-convention' version '0.8.0'` in settings.gradle, and Gradle provisions Temurin 21 itself. Code change, nothing to run."})
	h.note(Note{ID: "gradle-toolchain-windows", Project: "halyard", OS: "windows", Lang: "java", At: day(2024, 6, 10),
		Title:   "Windows: Gradle doesn't see the zip JDK 21",
		What:    "Same toolchain error on my Windows box (`No matching toolchains found for requested specification: {languageVersion=21...} for WINDOWS on x86_64`), even with foojay in settings.gradle.",
		Why:     "The corporate proxy blocks api.foojay.io, so provisioning fails, and Gradle on Windows only auto-detects JDKs from the registry and a few known dirs; the zip-extracted JDK in C:\\tools\\jdk-21.0.3+9 is not one of them.",
		Where:   "%USERPROFILE%\\.gradle\\gradle.properties",
		Learned: "Windows only: point Gradle at the JDK explicitly and turn off auto-download.",
		Fix:     `echo org.gradle.java.installations.paths=C:/tools/jdk-21.0.3+9>> %USERPROFILE%\.gradle\gradle.properties`})
	gradleToolchain := `> Task :billing:compileJava FAILED

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':billing:compileJava'.
> Error while evaluating property 'javaCompiler' of task ':billing:compileJava'.
   > Failed to calculate the value of task ':billing:compileJava' property 'javaCompiler'.
      > Cannot find a Java installation on your machine matching this tasks requirements: {languageVersion=21, vendor=any, implementation=vendor-specific} for %s on x86_64.
%s
* Try:
> Learn more about toolchain auto-detection at https://docs.gradle.org/8.7/userguide/toolchains.html#sec:auto_detection.
> Run with --stacktrace option to get the stack trace.
> Run with --info or --debug option to get more log output.

BUILD FAILED in 7s
4 actionable tasks: 2 executed, 2 up-to-date
`
	h.ask("gradle-toolchain/linux", "halyard", "linux", "./gradlew build",
		sprintf(gradleToolchain, "LINUX", "         > No locally installed toolchains match and toolchain download repositories have not been configured.\n"),
		"gradle-toolchain-linux", "twin on another system: the Linux agent")
	h.ask("gradle-toolchain/windows", "halyard", "windows", `.\gradlew.bat build`,
		crlf(sprintf(gradleToolchain, "WINDOWS", "         > No locally installed toolchains match and the configured toolchain download repositories aren't able to provide a match either.\n            > Unable to download toolchain matching the requirements ({languageVersion=21, vendor=any, implementation=vendor-specific}) from 'https://api.foojay.io/disco/v3.0/ids/9b2f1c/redirect'.\n               > Could not HEAD 'https://api.foojay.io/disco/v3.0/ids/9b2f1c/redirect'.\n                  > Connect to api.foojay.io:443 [api.foojay.io/104.21.52.9] failed: Connection timed out: connect\n")),
		"gradle-toolchain-windows", "twin on another system: the Windows box")

	// Gradle on a too new JDK: the pin to 17, then declared replaced by a wrapper bump.
	h.note(Note{ID: "gradle-jdk21-pin", Project: "halyard", OS: "darwin", Lang: "java", At: day(2023, 11, 14),
		Title: "Gradle 8.4 blows up on JDK 21",
		What:  "After `brew upgrade` moved the default JDK to 21: BUG! exception in phase 'semantic analysis' in source unit '_BuildScript_' Unsupported class file major version 65",
		Why:   "Gradle 8.4 can't run on Java 21 (class file 65). Its daemon picks up JAVA_HOME.",
		Where: "local shell", Learned: "Keep the Gradle daemon on 17 until we bump the wrapper.",
		Fix: "export JAVA_HOME=$(/usr/libexec/java_home -v 17)"})
	h.note(Note{ID: "gradle-wrapper-86", Project: "halyard", OS: "darwin", Lang: "java", At: day(2024, 2, 2),
		Title: "wrapper bumped to 8.6 — JDK 21 is fine now", Supersedes: "gradle-jdk21-pin",
		What:    "The `Unsupported class file major version 65` while compiling the build script is gone for good: wrapper is 8.6 now, which runs on 21.",
		Why:     "Only Gradle >= 8.5 runs on Java 21. Pinning JAVA_HOME to 17 is not needed any more, and it now breaks the toolchain check in :billing.",
		Where:   "gradle/wrapper/gradle-wrapper.properties",
		Learned: "If an old branch still shows it, bump its wrapper rather than pinning the JDK.",
		Fix:     "./gradlew wrapper --gradle-version 8.6 --distribution-type bin"})
	h.ask("gradle-wrapper-86/1", "halyard", "darwin", "./gradlew :billing:test",
		`Starting a Gradle Daemon (subsequent builds will be faster)

FAILURE: Build failed with an exception.

* Where:
Build file '/Users/kim/code/halyard/build.gradle'

* What went wrong:
Could not compile build file '/Users/kim/code/halyard/build.gradle'.
> startup failed:
  General error during semantic analysis: Unsupported class file major version 65

  java.lang.IllegalArgumentException: Unsupported class file major version 65
  	at groovyjarjarasm.asm.ClassReader.<init>(ClassReader.java:199)
  	at groovyjarjarasm.asm.ClassReader.<init>(ClassReader.java:180)
  	at org.codehaus.groovy.control.CompilationUnit$ISourceUnitOperation.doPhaseOperation(CompilationUnit.java:904)
  	at org.codehaus.groovy.control.CompilationUnit.compile(CompilationUnit.java:692)

  1 error

* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 3s
`, "gradle-wrapper-86", "superseded, declared: old branch with the 8.4 wrapper", "gradle-jdk21-pin")

	// sbt: the same resolution error, two causes told apart by one line.
	h.note(Note{ID: "sbt-artifactory-401", Project: "tidewater", OS: "linux", Lang: "scala", At: day(2023, 9, 4),
		Title:   "sbt update can't fetch tidewater-core",
		What:    "sbt update: `Error downloading com.acme:tidewater-core_2.13:1.4.2` and in the list under it Artifactory answers `unauthorized: ... (Artifactory Realm)`.",
		Why:     "The identity token in ~/.sbt/.credentials expires every 90 days. The dependency is there, we just can't read it.",
		Where:   "~/.sbt/.credentials",
		Learned: "When the error lists `unauthorized`, refresh the token (jfrog CLI prints a new one) and rewrite .credentials; nothing in the build needs to change.",
		Fix:     "jf rt access-token-create --expiry 7776000 | jq -r .access_token | xargs -I{} sed -i 's/^password=.*/password={}/' ~/.sbt/.credentials"})
	h.note(Note{ID: "sbt-crossbuild-missing", Project: "tidewater", OS: "linux", Lang: "scala", At: day(2025, 4, 22),
		Title:   "tidewater-core 1.4.x only published for Scala 3",
		What:    "Same `Error downloading com.acme:tidewater-core_2.13:1.4.2` but credentials are fine — Artifactory says `not found` for the _2.13 pom, not unauthorized.",
		Why:     "Since 1.4.0 the core release job publishes only tidewater-core_3; crossScalaVersions lost 2.13 in the build refactor.",
		Where:   "tidewater-core build.sbt (crossScalaVersions), and the consumer's dependency line",
		Learned: "Consumers still on 2.13 use `(\"com.acme\" %% \"tidewater-core\" % \"1.4.2\").cross(CrossVersion.for2_13Use3)`, or core adds 2.13 back to crossScalaVersions and republishes. Code change."})
	sbtTail := `[info] welcome to sbt 1.9.7 (Eclipse Adoptium Java 17.0.9)
[info] loading settings for project tidewater-build from plugins.sbt ...
[info] loading project definition from /home/ci/build/tidewater/project
[info] loading settings for project root from build.sbt ...
[info] set current project to tidewater (in build file:/home/ci/build/tidewater/)
[info] Updating ingest
[info] Resolved ingest dependencies
[warn]
[warn] 	Note: Unresolved dependencies path:
[error] sbt.librarymanagement.ResolveException: Error downloading com.acme:tidewater-core_2.13:1.4.2
[error]   Not found
[error]   Not found
[error]   not found: /home/ci/.ivy2/local/com.acme/tidewater-core_2.13/1.4.2/ivys/ivy.xml
%s[error]   not found: https://repo1.maven.org/maven2/com/acme/tidewater-core_2.13/1.4.2/tidewater-core_2.13-1.4.2.pom
[error] 	at lmcoursier.CoursierDependencyResolution.unresolvedWarningOrThrow(CoursierDependencyResolution.scala:345)
[error] 	at lmcoursier.CoursierDependencyResolution.$anonfun$update$38(CoursierDependencyResolution.scala:314)
[error] (ingest / update) sbt.librarymanagement.ResolveException: Error downloading com.acme:tidewater-core_2.13:1.4.2
[error] Total time: 4 s, completed Oct 2, 2025, 11:20:41 AM
`
	h.ask("sbt-artifactory-401/1", "tidewater", "linux", "sbt ingest/update",
		sprintf(sbtTail, "[error]   unauthorized: https://artifactory.acme.io/artifactory/libs-release/com/acme/tidewater-core_2.13/1.4.2/tidewater-core_2.13-1.4.2.pom (Artifactory Realm)\n"),
		"sbt-artifactory-401", "same text, another cause: the unauthorized line")
	h.ask("sbt-crossbuild-missing/1", "tidewater", "linux", "sbt ingest/update",
		sprintf(sbtTail, "[error]   not found: https://artifactory.acme.io/artifactory/libs-release/com/acme/tidewater-core_2.13/1.4.2/tidewater-core_2.13-1.4.2.pom\n"),
		"sbt-crossbuild-missing", "same text, another cause: Artifactory says not found")

	h.note(Note{ID: "sbt-metaspace", Project: "tidewater", OS: "darwin", Lang: "scala", At: day(2022, 8, 30),
		Title: "sbt dies after a few ~compile loops",
		What:  "long sbt shell session, after 5-6 recompiles: java.lang.OutOfMemoryError: Metaspace",
		Why:   "each recompile loads fresh classloaders for macros and the default metaspace cap in our .jvmopts (256m, copied from some template) is too low",
		Where: ".jvmopts", Learned: "Raise MaxMetaspaceSize; 1g is plenty for this build.",
		Fix: "sed -i '' 's/-XX:MaxMetaspaceSize=256m/-XX:MaxMetaspaceSize=1g/' .jvmopts"})
	h.ask("sbt-metaspace/1", "tidewater", "darwin", "sbt ~compile",
		`[info] compiling 212 Scala sources to /Users/kim/code/tidewater/ingest/target/scala-2.13/classes ...
[info] done compiling
[info] 5. Monitoring source files for tidewater/compile...
[info]    Press <enter> to interrupt or '?' for more options.
[info] Build triggered by /Users/kim/code/tidewater/ingest/src/main/scala/com/acme/tidewater/ingest/Pipeline.scala. Running 'compile'.
[info] compiling 3 Scala sources to /Users/kim/code/tidewater/ingest/target/scala-2.13/classes ...
[error] java.lang.OutOfMemoryError: Metaspace
[error] Error during sbt execution: java.lang.OutOfMemoryError: Metaspace
[error] Use 'last' for the full log.
`, "sbt-metaspace", "hand: stored")

	// Maven and Java modules.
	h.note(Note{ID: "maven-enforcer-jdk", Project: "quarry", OS: "linux", Lang: "java", At: day(2025, 1, 15),
		Title:   "mvn verify fails instantly on the old runners",
		What:    "enforcer in the parent pom:\n\nRule 0: org.apache.maven.enforcer.rules.version.RequireJavaVersion failed with message:\nDetected JDK version 17.0.10 (JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64) is not in the allowed range [21,).",
		Why:     "The parent moved to Java 21 (virtual threads); the self-hosted runners still default to 17. It's not a code problem.",
		Where:   "quarry parent pom.xml, self-hosted runner image",
		Learned: "Use the 21 installed under /usr/lib/jvm on those runners.",
		Fix:     "export JAVA_HOME=/usr/lib/jvm/temurin-21-jdk-amd64 && mvn -B verify"})
	h.ask("maven-enforcer-jdk/1", "quarry", "linux", "mvn -B -ntp verify",
		`[INFO] Scanning for projects...
[INFO] ------------------------------------------------------------------------
[INFO] Reactor Build Order:
[INFO]
[INFO] quarry-parent                                                      [pom]
[INFO] quarry-api                                                         [jar]
[INFO] quarry-admin                                                       [jar]
[INFO]
[INFO] --- enforcer:3.4.1:enforce (enforce-java) @ quarry-parent ---
[WARNING] Rule 0: org.apache.maven.enforcer.rules.version.RequireJavaVersion failed with message:
Detected JDK version 17.0.12 (JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64) is not in the allowed range [21,).
[INFO] ------------------------------------------------------------------------
[INFO] Reactor Summary for quarry-parent 3.2.0-SNAPSHOT:
[INFO]
[INFO] quarry-parent ...................................... FAILURE [  0.388 s]
[INFO] quarry-api ......................................... SKIPPED
[INFO] quarry-admin ....................................... SKIPPED
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-enforcer-plugin:3.4.1:enforce (enforce-java) on project quarry-parent:
[ERROR] Rule 0: org.apache.maven.enforcer.rules.version.RequireJavaVersion failed with message:
[ERROR] Detected JDK version 17.0.12 (JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64) is not in the allowed range [21,).
`, "maven-enforcer-jdk", "hand: stored, a later patch release")
	h.ask("maven-pom-parse", "quarry", "linux", "mvn -B -ntp verify",
		`[INFO] Scanning for projects...
[ERROR] [ERROR] Some problems were encountered while processing the POMs:
[FATAL] Non-parseable POM /home/ci/build/quarry/quarry-admin/pom.xml: Unrecognised tag: 'dependency' (position: START_TAG seen ...</dependencies>\n    <dependency>... @88:17)  @ line 88, column 17
 @
[ERROR] The build could not read 1 project -> [Help 1]
[ERROR]
[ERROR]   The project  (/home/ci/build/quarry/quarry-admin/pom.xml) has 1 error
[ERROR]     Non-parseable POM /home/ci/build/quarry/quarry-admin/pom.xml: Unrecognised tag: 'dependency' (position: START_TAG seen ...</dependencies>\n    <dependency>... @88:17)  @ line 88, column 17 -> [Help 2]
[ERROR]
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
[ERROR] For more information about the errors and possible solutions, please read the following articles:
[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/ProjectBuildingException
[ERROR] [Help 2] http://cwiki.apache.org/confluence/display/MAVEN/ModelParseException
`, "", "generic file name: pom.xml, a broken POM no note is about")

	h.note(Note{ID: "jpms-httpserver", Project: "quarry", OS: "windows", Lang: "java", At: day(2023, 6, 27),
		Title:   "quarry-admin: httpserver package not visible after adding module-info",
		What:    "Once quarry-admin got a module-info.java, javac started saying the com.sun.net.httpserver package \"is not visible\" in AdminServer — roughly: declared in module jdk.httpserver, but our module does not read it.",
		Why:     "On the classpath everything in the JDK is readable; as a named module you only read what you `requires`.",
		Where:   "quarry-admin/src/main/java/module-info.java",
		Learned: "Add `requires jdk.httpserver;` to module-info.java. Same story for java.net.http and jdk.unsupported (sun.misc.Unsafe)."})
	h.ask("jpms-httpserver/1", "quarry", "windows", `mvn -B -pl quarry-admin -am compile`,
		crlf(`[INFO] --- compiler:3.12.1:compile (default-compile) @ quarry-admin ---
[INFO] Recompiling the module because of changed source code.
[INFO] Compiling 23 source files with javac [debug release 21 module-path] to target\classes
[INFO] -------------------------------------------------------------
[ERROR] COMPILATION ERROR :
[INFO] -------------------------------------------------------------
[ERROR] /C:/Users/dev/src/quarry/quarry-admin/src/main/java/com/acme/quarry/admin/AdminServer.java:[7,23] package com.sun.net.httpserver is not visible
  (package com.sun.net.httpserver is declared in module jdk.httpserver, but module com.acme.quarry.admin does not read it)
[ERROR] /C:/Users/dev/src/quarry/quarry-admin/src/main/java/com/acme/quarry/admin/AdminServer.java:[8,23] package com.sun.net.httpserver is not visible
  (package com.sun.net.httpserver is declared in module jdk.httpserver, but module com.acme.quarry.admin does not read it)
[INFO] 2 errors
[INFO] -------------------------------------------------------------
[INFO] BUILD FAILURE
`), "jpms-httpserver", "hand: paraphrased in the note, the exact javac text in the output")

	// Spring Boot: one missing bean stored; the same banner about another
	// bean, and the port error, are not.
	h.note(Note{ID: "spring-taxclient-bean", Project: "quarry", OS: "linux", Lang: "java", At: day(2024, 9, 3),
		Title:   "quarry-api won't boot locally: TaxClient bean missing",
		What:    "APPLICATION FAILED TO START — Parameter 0 of constructor in com.acme.quarry.billing.InvoiceService required a bean of type 'com.acme.quarry.tax.TaxClient' that could not be found.",
		Why:     "TaxClientConfiguration is @ConditionalOnProperty(prefix = \"quarry.tax\", name = \"endpoint\"); the endpoint comes from QUARRY_TAX_ENDPOINT, which only the k8s deployment sets. Locally nothing defines it, so the bean silently isn't created.",
		Where:   "quarry-api, com.acme.quarry.tax.TaxClientConfiguration",
		Learned: "Point it at the tax stub from docker compose when running locally.",
		Fix:     "export QUARRY_TAX_ENDPOINT=http://localhost:8085 && ./mvnw -pl quarry-api spring-boot:run"})
	springFail := `2025-02-17T08:51:02.114Z  INFO 48213 --- [quarry-api] [           main] c.a.quarry.QuarryApplication             : Starting QuarryApplication using Java 21.0.4 with PID 48213 (/home/ci/build/quarry/quarry-api/target/classes started by ci in /home/ci/build/quarry/quarry-api)
2025-02-17T08:51:02.119Z  INFO 48213 --- [quarry-api] [           main] c.a.quarry.QuarryApplication             : The following 1 profile is active: "local"
2025-02-17T08:51:04.602Z  INFO 48213 --- [quarry-api] [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat initialized with port 8080 (http)
2025-02-17T08:51:05.877Z  WARN 48213 --- [quarry-api] [           main] ConfigServletWebServerApplicationContext : Exception encountered during context initialization - cancelling refresh attempt: org.springframework.beans.factory.UnsatisfiedDependencyException: Error creating bean with name '%s' defined in file [/home/ci/build/quarry/quarry-api/target/classes/com/acme/quarry/%s.class]: Unsatisfied dependency expressed through constructor parameter 0: No qualifying bean of type '%s' available: expected at least 1 bean which qualifies as autowire candidate. Dependency annotations: {}
2025-02-17T08:51:05.891Z  INFO 48213 --- [quarry-api] [           main] o.apache.catalina.core.StandardService   : Stopping service [Tomcat]
2025-02-17T08:51:05.933Z  INFO 48213 --- [quarry-api] [           main] .s.b.a.l.ConditionEvaluationReportLogger :

Error starting ApplicationContext. To display the condition evaluation report re-run your application with 'debug' enabled.
2025-02-17T08:51:05.969Z ERROR 48213 --- [quarry-api] [           main] o.s.b.d.LoggingFailureAnalysisReporter   :

***************************
APPLICATION FAILED TO START
***************************

Description:

Parameter 0 of constructor in %s required a bean of type '%s' that could not be found.


Action:

Consider defining a bean of type '%s' in your configuration.

[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
`
	h.ask("spring-taxclient-bean/1", "quarry", "linux", "./mvnw -pl quarry-api spring-boot:run",
		sprintf(springFail, "invoiceService", "billing/InvoiceService", "com.acme.quarry.tax.TaxClient", "com.acme.quarry.billing.InvoiceService", "com.acme.quarry.tax.TaxClient", "com.acme.quarry.tax.TaxClient"),
		"spring-taxclient-bean", "hand: stored")
	h.ask("spring-mailsender-bean", "quarry", "linux", "./mvnw -pl quarry-api spring-boot:run",
		sprintf(springFail, "reminderJob", "dunning/ReminderJob", "com.acme.quarry.mail.MailSender", "com.acme.quarry.dunning.ReminderJob", "com.acme.quarry.mail.MailSender", "com.acme.quarry.mail.MailSender"),
		"", "never stored: the same Spring banner about a bean no note is about")
	h.ask("spring-port-in-use", "quarry", "darwin", "./mvnw -pl quarry-api spring-boot:run",
		`2025-03-02T19:12:40.551+01:00  INFO 9121 --- [quarry-api] [           main] o.s.b.w.embedded.tomcat.TomcatWebServer  : Tomcat initialized with port 8080 (http)
2025-03-02T19:12:41.904+01:00  WARN 9121 --- [quarry-api] [           main] ConfigServletWebServerApplicationContext : Exception encountered during context initialization - cancelling refresh attempt: org.springframework.context.ApplicationContextException: Failed to start bean 'webServerStartStop'
2025-03-02T19:12:41.960+01:00 ERROR 9121 --- [quarry-api] [           main] o.s.b.d.LoggingFailureAnalysisReporter   :

***************************
APPLICATION FAILED TO START
***************************

Description:

Web server failed to start. Port 8080 was already in use.

Action:

Identify and stop the process that's listening on port 8080 or configure this application to listen on another port.
`, "", "same tool, another error: port in use, not the bean")

	// Liquibase: a lock fix said obsolete in prose, and a checksum note on the same tool.
	h.note(Note{ID: "liquibase-lock-release", Project: "quarry", OS: "linux", Lang: "java", At: day(2023, 4, 18),
		Title:   "quarry-api hangs at startup waiting for changelog lock",
		What:    "Pod sits at `Waiting for changelog lock....` for 5 min then dies with liquibase.exception.LockException: Could not acquire change log lock.  Currently locked by quarry-api-7c9f8d6b5-x2x9q (10.42.1.17)",
		Why:     "A previous pod got OOM-killed mid-migration and never released the row in DATABASECHANGELOGLOCK.",
		Where:   "quarry db, DATABASECHANGELOGLOCK",
		Learned: "Release the lock by hand when the holder pod is gone.",
		Fix:     "liquibase --url=$QUARRY_DB_URL --changelog-file=db/changelog/db.changelog-master.yaml release-locks"})
	h.note(Note{ID: "liquibase-lock-job", Project: "quarry", OS: "linux", Lang: "java", At: day(2025, 1, 29),
		Title: "changelog lock: stop releasing it by hand", ProseOver: "liquibase-lock-release",
		What:    "Hit the LockException (`Could not acquire change log lock`) again after a deploy. The old advice in memory — run release-locks by hand — is obsolete and actually dangerous now: twice a second replica started migrating concurrently right after the release.",
		Why:     "Migrations no longer run in the api pods at all (spring.liquibase.enabled=false since the chart 4.x); they run in the quarry-migrate pre-deploy Job. A held lock means that Job is still running or was killed.",
		Where:   "chart/templates/migrate-job.yaml",
		Learned: "Check the Job, delete it and let a new one run; never touch DATABASECHANGELOGLOCK by hand.",
		Fix:     "kubectl -n quarry delete job quarry-migrate --ignore-not-found && kubectl -n quarry create job quarry-migrate --from=cronjob/quarry-migrate-template"})
	h.ask("liquibase-lock-job/1", "quarry", "linux", "./scripts/migrate.sh staging",
		`2025-06-04 07:02:11.392 INFO  [liquibase.database] Set default schema name to public
2025-06-04 07:02:11.540 INFO  [liquibase.lockservice] Waiting for changelog lock....
2025-06-04 07:02:21.602 INFO  [liquibase.lockservice] Waiting for changelog lock....
...
2025-06-04 07:07:11.960 INFO  [liquibase.lockservice] Waiting for changelog lock....
2025-06-04 07:07:21.988 ERROR [liquibase.integration] Could not acquire change log lock.  Currently locked by quarry-migrate-x8k2p (10.42.3.51) since 6/4/25, 6:58 AM
liquibase.exception.LockException: Could not acquire change log lock.  Currently locked by quarry-migrate-x8k2p (10.42.3.51) since 6/4/25, 6:58 AM
	at liquibase.lockservice.StandardLockService.waitForLock(StandardLockService.java:290)
	at liquibase.command.core.AbstractUpdateCommandStep.run(AbstractUpdateCommandStep.java:79)
	at liquibase.command.CommandScope.execute(CommandScope.java:217)
`, "liquibase-lock-job", "superseded in prose: releasing by hand declared obsolete", "liquibase-lock-release")

	h.note(Note{ID: "liquibase-checksum", Project: "quarry", OS: "darwin", Lang: "java", At: day(2024, 3, 20),
		Title:   "Validation Failed: 1 changesets check sum",
		What:    "liquibase update refuses to run: `db/changelog/2024/03-invoice-index.yaml::7::maria was: 9:2f8c0a... but is now: 9:b41e77...`",
		Why:     "My editor's YAML formatter re-indented an already applied changeset; the checksum covers the normalized changeset, so that counts as a change.",
		Where:   "db/changelog/2024/03-invoice-index.yaml",
		Learned: "Applied changesets are immutable. Put the file back as it was on main; the formatter is now off for db/changelog.",
		Fix:     "git checkout origin/main -- db/changelog/2024/03-invoice-index.yaml"})
	h.ask("liquibase-checksum/1", "quarry", "darwin", "./mvnw -pl quarry-api liquibase:update",
		`[INFO] --- liquibase:4.27.0:update (default-cli) @ quarry-api ---
[INFO] ####################################################
##   _     _             _ _                      ##
##  | |   (_)           (_) |                     ##
##  | |    _  __ _ _   _ _| |__   __ _ ___  ___   ##
####################################################
[INFO] Starting Liquibase at 10:41:07 (version 4.27.0 #1525 built at 2024-03-25 17:08+0000)
[INFO] Parsing Liquibase Properties File liquibase.properties for changeLog parameters
[INFO] Executing on Database: jdbc:postgresql://localhost:5432/quarry
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.liquibase:liquibase-maven-plugin:4.27.0:update (default-cli) on project quarry-api:
[ERROR] Error setting up or running Liquibase:
[ERROR] liquibase.exception.CommandExecutionException: liquibase.exception.ValidationFailedException: Validation Failed:
[ERROR]      1 changesets check sum
[ERROR]           db/changelog/2024/03-invoice-index.yaml::7::maria was: 9:2f8c0a51d3e1a0b2c7e4f6a9d8b1c3e5 but is now: 9:b41e77c02a9f8e6d5c4b3a2f1e0d9c8b
`, "liquibase-checksum", "hand: the other Liquibase note, not the lock one")
}
