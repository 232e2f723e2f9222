package replay

// handFresh3 are the cases of the unseen part: written after all the
// tuning, by someone who had read neither the engine nor its misses, and
// only ever reported. They are about ecosystems and failures no other
// part has: Kotlin and Android builds (JVM targets, kapt, R8, SDK
// licences), Java TLS truststores, Kafka, Flyway, Xcode 15's script
// sandbox, .NET ICU and dev certificates, NuGet downgrades, Composer
// memory and platform checks, nginx, psych and libyaml, Redis limits,
// Elixir releases (this file); Terraform backends and S3 ACLs, EKS
// kubeconfigs, Ansible, Nix on macOS and flakes, systemd limits and
// users, Docker Compose v1, Git LFS hooks, locales, Rust
// cross-compilation and the MSVC linker, CMake 4 and OpenSSL, vcpkg,
// Alembic heads, time zones, Postgres collations and connection limits,
// GitHub Actions setup-python (hand_fresh3_ops.go); Vite and Rollup,
// inotify, husky, Playwright snapshots, webpack on OpenSSL 3,
// self-hosted runners, LFS pointers, and the failures no note is about
// (hand_fresh3_web.go).
func handFresh3() ([]Note, []Query) {
	h := &hand{split: Unseen, prefix: "unseen/"}
	unseenAndroid(h)
	unseenJava(h)
	unseenApple(h)
	unseenDotnet(h)
	unseenPHP(h)
	unseenRubyElixir(h)
	unseenInfra(h)
	unseenOps(h)
	unseenNative(h)
	unseenData(h)
	unseenWeb(h)
	unseenNeverStored(h)
	return h.notes, h.qs
}

func unseenAndroid(h *hand) {
	h.note(Note{ID: "kotlin-jvm-target", Project: "anvil", OS: "darwin", Lang: "kotlin", At: day(2023, 5, 16),
		Title: "compileDebugKotlin: Inconsistent JVM-target compatibility",
		What:  "After the AGP 8 bump ./gradlew assembleDebug fails: `Inconsistent JVM-target compatibility detected for tasks 'compileDebugJavaWithJavac' (17) and 'compileDebugKotlin' (1.8).`",
		Why: "AGP 8 compiles Java for 17 by default, but app/build.gradle.kts still had kotlinOptions { jvmTarget = \"1.8\" }; " +
			"since Kotlin 1.8 the Gradle plugin makes the mismatch an error instead of a warning.",
		Where:   "app/build.gradle.kts",
		Learned: "Drop jvmTarget and compileOptions everywhere and set kotlin { jvmToolchain(17) } once, so both tasks agree in every module."})
	h.ask("kotlin-jvm-target/debug", "anvil", "darwin", "./gradlew assembleDebug",
		"> Task :app:compileDebugKotlin FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:compileDebugKotlin'.\n> Inconsistent JVM-target compatibility detected for tasks 'compileDebugJavaWithJavac' (17) and 'compileDebugKotlin' (1.8).\n\n  Consider using JVM toolchain: https://kotl.in/gradle/jvm/toolchain\n  Learn more about JVM-target validation: https://kotl.in/gradle/jvm/target-validation \n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n> Run with --info or --debug option to get more log output.\n> Run with --scan to get full insights.\n> Get more help at https://help.gradle.org.\n\nBUILD FAILED in 9s\n28 actionable tasks: 3 executed, 25 up-to-date\n",
		"kotlin-jvm-target", "unseen: stored")
	h.ask("kotlin-jvm-target/core-release", "anvil", "linux", "./gradlew :core:assembleRelease --no-daemon",
		"ution failed for task ':core:compileReleaseKotlin'.\n> Inconsistent JVM-target compatibility detected for tasks 'compileReleaseJavaWithJavac' (17) and 'compileReleaseKotlin' (11).\n\n  Consider using JVM toolchain: https://kotl.in/gradle/jvm/toolchain\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n\nBUILD FAILED in 47s\n",
		"kotlin-jvm-target", "unseen: stored, another module, cut at the start")
	h.ask("gradle-could-not-find", "anvil", "linux", "./gradlew assembleDebug",
		"FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:checkDebugAarMetadata'.\n> Could not resolve all files for configuration ':app:debugRuntimeClasspath'.\n   > Could not find io.anvil:analytics-bridge:2.1.0.\n     Searched in the following locations:\n       - https://dl.google.com/dl/android/maven2/io/anvil/analytics-bridge/2.1.0/analytics-bridge-2.1.0.pom\n       - https://repo.maven.apache.org/maven2/io/anvil/analytics-bridge/2.1.0/analytics-bridge-2.1.0.pom\n     Required by:\n         project :app\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n\nBUILD FAILED in 14s\n",
		"", "unseen: same tool, another error")

	h.note(Note{ID: "kapt-jdk17", Project: "anvil", OS: "linux", Lang: "kotlin", At: day(2021, 10, 4),
		Title:   "kapt crashes on the JDK 17 image",
		What:    "kaptDebugKotlin dies with java.lang.IllegalAccessError: superclass access check failed: class org.jetbrains.kotlin.kapt3.base.javac.KaptJavaCompiler cannot access class com.sun.tools.javac.main.JavaCompiler (in module jdk.compiler)",
		Why:     "The CI image moved to JDK 17 and kapt of our Kotlin 1.4.32 reaches into javac internals that JDK 16+ no longer exports.",
		Learned: "Kotlin 1.5.20+ passes the --add-opens itself. Bumped the Kotlin plugin to 1.5.31; the org.gradle.jvmargs --add-opens hack from Stack Overflow isn't needed then.",
		Fix:     "sed -i 's/kotlin_version = \"1.4.32\"/kotlin_version = \"1.5.31\"/' build.gradle"})
	h.ask("kapt-jdk17/1", "anvil", "linux", "./gradlew assembleDebug",
		"> Task :app:kaptDebugKotlin FAILED\ne: [kapt] An exception occurred: java.lang.IllegalAccessError: superclass access check failed: class org.jetbrains.kotlin.kapt3.base.javac.KaptJavaCompiler (in unnamed module @0x5a1b3c2d) cannot access class com.sun.tools.javac.main.JavaCompiler (in module jdk.compiler) because module jdk.compiler does not export com.sun.tools.javac.main to unnamed module @0x5a1b3c2d\n\tat java.base/java.lang.ClassLoader.defineClass1(Native Method)\n\tat java.base/java.lang.ClassLoader.defineClass(ClassLoader.java:1012)\n\tat java.base/java.security.SecureClassLoader.defineClass(SecureClassLoader.java:150)\n\tat org.jetbrains.kotlin.kapt3.base.KaptContext.<init>(KaptContext.kt:55)\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:kaptDebugKotlin'.\n> Internal compiler error. See log for more details\n\nBUILD FAILED in 38s\n",
		"kapt-jdk17", "unseen: stored, stack trace")

	h.note(Note{ID: "sdk-licences", Project: "anvil", Scope: "global", OS: "linux", Lang: "kotlin", At: day(2022, 8, 23),
		Title:   "CI: Android SDK licences not accepted for build-tools 33",
		What:    "Gradle aborts with \"Failed to install the following Android SDK packages as some licences have not been accepted\" for build-tools;33.0.0.",
		Why:     "AGP downloads missing SDK packages by itself but can't accept licences headlessly; the runner image only had licence files for the older build-tools.",
		Learned: "Accept all licences in the image once; sdkmanager writes the hashes to $ANDROID_HOME/licenses and AGP checks those.",
		Fix:     "yes | $ANDROID_HOME/cmdline-tools/latest/bin/sdkmanager --licenses"})
	h.ask("sdk-licences/anvil", "anvil", "linux", "./gradlew bundleRelease",
		"Checking the license for package Android SDK Build-Tools 33 in /opt/android-sdk/licenses\nWarning: License for package Android SDK Build-Tools 33 not accepted.\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nCould not determine the dependencies of task ':app:compileReleaseJavaWithJavac'.\n> Failed to install the following Android SDK packages as some licences have not been accepted.\n     build-tools;33.0.0 Android SDK Build-Tools 33\n  To build this project, accept the SDK license agreements and install the missing components using the Android Studio SDK Manager.\n  All licenses can be accepted using the sdkmanager command line tool:\n  sdkmanager --licenses\n  Or, to transfer the licenses from your local development machine to your build server see https://developer.android.com/studio/intro/update.html#download-with-gradle\n\nBUILD FAILED in 5s\n",
		"sdk-licences", "unseen: stored")
	h.ask("sdk-licences/rookery", "rookery", "linux", "cd android && ./gradlew assembleRelease",
		"> Configure project :app\nChecking the license for package Android SDK Platform 34 in /usr/local/lib/android/sdk/licenses\nWarning: License for package Android SDK Platform 34 not accepted.\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nCould not determine the dependencies of task ':app:compileReleaseJavaWithJavac'.\n> Failed to install the following Android SDK packages as some licences have not been accepted.\n     platforms;android-34 Android SDK Platform 34\n  To build this project, accept the SDK license agreements and install the missing components using the Android Studio SDK Manager.\n",
		"sdk-licences", "unseen: global note, another project")
	h.ask("sdk-licences/ndk", "anvil", "linux", "./gradlew :nativecodec:assembleRelease",
		"Checking the license for package NDK (Side by side) 26.1.10909125 in /opt/android-sdk/licenses\nWarning: License for package NDK (Side by side) 26.1.10909125 not accepted.\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nA problem occurred configuring project ':nativecodec'.\n> Failed to install the following Android SDK packages as some licences have not been accepted.\n     ndk;26.1.10909125 NDK (Side by side) 26.1.10909125\n  To build this project, accept the SDK license agreements and install the missing components using the Android Studio SDK Manager.\n",
		"sdk-licences", "unseen: stored, another package")
	h.ask("adb-storage", "anvil", "linux", "./gradlew installDebug",
		"> Task :app:installDebug FAILED\nInstalling APK 'app-debug.apk' on 'Pixel_6_API_34(AVD) - 14' for :app:debug\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:installDebug'.\n> java.util.concurrent.ExecutionException: com.android.builder.testing.api.DeviceException: com.android.ddmlib.InstallException: INSTALL_FAILED_INSUFFICIENT_STORAGE\n\nBUILD FAILED in 21s\n",
		"", "unseen: same tool, another error")

	h.note(Note{ID: "r8-missing-class", Project: "anvil", OS: "darwin", Lang: "kotlin", At: day(2024, 2, 6),
		Title: "release build: R8 missing class StaticLoggerBinder",
		What:  "minifyReleaseWithR8 fails — \"Missing classes detected while running R8\", the one listed is org.slf4j.impl.StaticLoggerBinder (referenced from LoggerFactory.bind()).",
		Why: "AGP 8 makes R8 fail on missing classes instead of warning. slf4j-api 1.7 (pulled in by the MQTT client) references the binder that only a logging " +
			"backend provides, and we don't ship one on Android.",
		Where:   "app/proguard-rules.pro",
		Learned: "A -dontwarn for it is correct here; R8 writes the suggested rule to build/outputs/mapping/release/missing_rules.txt.",
		Fix:     "echo '-dontwarn org.slf4j.impl.StaticLoggerBinder' >> app/proguard-rules.pro"})
	h.ask("r8-missing-class/ci", "anvil", "linux", "./gradlew assembleRelease",
		"> Task :app:minifyReleaseWithR8 FAILED\nERROR: Missing classes detected while running R8. Please add the missing classes or apply additional keep rules that are generated in /home/ci/build/anvil/app/build/outputs/mapping/release/missing_rules.txt.\nERROR: R8: Missing class org.slf4j.impl.StaticLoggerBinder (referenced from: void org.slf4j.LoggerFactory.bind() and 3 other contexts)\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:minifyReleaseWithR8'.\n> A failure occurred while executing com.android.build.gradle.internal.tasks.R8Task$R8Runnable\n   > Compilation failed to complete\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n\nBUILD FAILED in 1m 12s\n",
		"r8-missing-class", "unseen: stored, paraphrased note")
}

func unseenJava(h *hand) {
	h.note(Note{ID: "pkix-linux", Project: "lodestar", Scope: "global", OS: "linux", Lang: "java", At: day(2023, 3, 14),
		Title:   "Gradle behind the office proxy: PKIX path building failed",
		What:    "./gradlew build can't download anything: `PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target`",
		Why:     "The office proxy (Zscaler) re-signs TLS with the corporate root CA. On Linux the JDK doesn't use the OS trust store at all, only its own cacerts.",
		Learned: "Import the corporate root into the JDK's cacerts. Redo it after every JDK upgrade: a new JDK comes with a new cacerts.",
		Fix:     "sudo keytool -importcert -cacerts -alias corp-root -file /usr/local/share/ca-certificates/corp-root.crt -storepass changeit -noprompt"})
	h.note(Note{ID: "pkix-windows", Project: "lodestar", Scope: "global", OS: "windows", Lang: "java", At: day(2023, 9, 5),
		Title:   "PKIX error from Gradle on the Windows laptops",
		What:    "Same `unable to find valid certification path to requested target` from Gradle on the Windows laptops in the office.",
		Why:     "On Windows the corporate root is already in the Windows certificate store (group policy pushes it); the JDK just doesn't look there by default.",
		Learned: "Tell the JVM to use the Windows store (trustStoreType Windows-ROOT) in the user's gradle.properties; no admin shell, survives JDK updates.",
		Fix:     "Add-Content $env:USERPROFILE\\.gradle\\gradle.properties 'systemProp.javax.net.ssl.trustStoreType=Windows-ROOT'"})
	pkix := "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':compileJava'.\n> Could not resolve all files for configuration ':compileClasspath'.\n   > Could not resolve org.apache.kafka:kafka-clients:3.5.1.\n     Required by:\n         project :\n      > Could not resolve org.apache.kafka:kafka-clients:3.5.1.\n         > Could not get resource 'https://repo.maven.apache.org/maven2/org/apache/kafka/kafka-clients/3.5.1/kafka-clients-3.5.1.pom'.\n            > Could not GET 'https://repo.maven.apache.org/maven2/org/apache/kafka/kafka-clients/3.5.1/kafka-clients-3.5.1.pom'.\n               > PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n\nBUILD FAILED in 23s\n"
	h.ask("pkix/linux", "lodestar", "linux", "./gradlew build", pkix, "pkix-linux", "unseen: twin on another system")
	h.ask("pkix/windows", "lodestar", "windows", "gradlew.bat build", crlf(pkix), "pkix-windows", "unseen: twin on another system, CRLF")
	h.ask("pkix/tessellate-mvn", "tessellate", "windows", "mvn -B package",
		crlf("[INFO] Scanning for projects...\nDownloading from central: https://repo.maven.apache.org/maven2/org/springframework/boot/spring-boot-starter-parent/3.2.5/spring-boot-starter-parent-3.2.5.pom\n[ERROR] [ERROR] Some problems were encountered while processing the POMs:\n[FATAL] Non-resolvable parent POM for com.tessellate:batch:1.0.0-SNAPSHOT: The following artifacts could not be resolved: org.springframework.boot:spring-boot-starter-parent:pom:3.2.5 (absent): Could not transfer artifact org.springframework.boot:spring-boot-starter-parent:pom:3.2.5 from/to central (https://repo.maven.apache.org/maven2): PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target and 'parent.relativePath' points at no local POM @ line 6, column 11\n"),
		"pkix-windows", "unseen: global note, another project and tool")
	h.ask("pkix/tessellate-sbt", "tessellate", "linux", "sbt compile",
		"[info] welcome to sbt 1.9.7 (Eclipse Adoptium Java 17.0.9)\n[info] loading project definition from /home/dev/src/tessellate/project\n[error] lmcoursier.internal.shaded.coursier.error.FetchError$DownloadingArtifacts: Error fetching artifacts:\n[error] https://repo1.maven.org/maven2/org/scala-lang/scala3-library_3/3.3.1/scala3-library_3-3.3.1.jar: download error: Caught javax.net.ssl.SSLHandshakeException (PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target) while downloading https://repo1.maven.org/maven2/org/scala-lang/scala3-library_3/3.3.1/scala3-library_3-3.3.1.jar\n[error] (update) lmcoursier.internal.shaded.coursier.error.FetchError$DownloadingArtifacts: Error fetching artifacts\n",
		"pkix-linux", "unseen: global note, another project and tool")
	h.ask("pkix/kafka-broker", "lodestar", "linux", "java -jar build/libs/lodestar-0.14.0.jar --spring.profiles.active=staging",
		"2024-04-09T10:02:17.118Z  INFO 1 --- [           main] o.a.k.clients.producer.KafkaProducer     : [Producer clientId=producer-1] Instantiated an idempotent producer.\n2024-04-09T10:02:17.412Z ERROR 1 --- [ad | producer-1] o.apache.kafka.clients.NetworkClient     : [Producer clientId=producer-1] Connection to node -1 (kafka-staging-1.lodestar.internal/10.20.4.11:9093) failed authentication due to: SSL handshake failed\norg.apache.kafka.common.errors.SslAuthenticationException: SSL handshake failed\nCaused by: javax.net.ssl.SSLHandshakeException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target\n\tat java.base/sun.security.ssl.Alert.createSSLException(Alert.java:130)\n\tat java.base/sun.security.ssl.TransportContext.fatal(TransportContext.java:378)\n",
		"", "unseen: same text, another cause")

	h.note(Note{ID: "kafka-record-too-large", Project: "lodestar", OS: "linux", Lang: "java", At: day(2024, 6, 18),
		Title: "producer: RecordTooLargeException on invoice-rendered",
		What:  "The PDF events started failing with RecordTooLargeException: The message is 1584212 bytes when serialized which is larger than 1048576, which is the value of the max.request.size configuration.",
		Why: "We embedded the rendered PDF in the event and some invoices are over 1 MiB. Raising only the producer's max.request.size then fails on the broker's " +
			"message.max.bytes and the topic's max.message.bytes.",
		Learned: "Don't put blobs in Kafka: the renderer uploads the PDF to S3 and the event carries the key. Raising limits on three sides is a trap."})
	h.ask("kafka-record-too-large/1", "lodestar", "linux", "kubectl logs deploy/lodestar-renderer -n lodestar --since=1h",
		"2024-07-02T08:14:51.332Z ERROR 1 --- [lodestar] [ad | producer-1] o.s.k.support.LoggingProducerListener    : Exception thrown when sending a message with key='inv-20240702-0042' and payload='{\"invoiceId\":\"inv-20240702-0042\",\"pdf\":\"JVBERi0xLjcKJeLjz9MKNSAwIG9iago8PC9GaWx0ZXIvRmxhdGVEZWNvZGUvTGVuZ3RoIDM4Pj4Kc3RyZWFtCnic...' to topic invoice-rendered:\n\norg.apache.kafka.common.errors.RecordTooLargeException: The message is 1584212 bytes when serialized which is larger than 1048576, which is the value of the max.request.size configuration.\n",
		"kafka-record-too-large", "unseen: stored")

	h.note(Note{ID: "kafka-topics-decision", Project: "lodestar", OS: "linux", Lang: "java", At: day(2024, 1, 22), Type: "decision", NoFailure: true,
		Title:   "Kafka topics are declared in infra/kafka-topics, never auto-created",
		What:    "auto.create.topics.enable=false on every cluster, the compose one included. A new topic is a PR to infra/kafka-topics/*.tf with partitions, retention and max.message.bytes.",
		Why:     "Auto-created topics got 1 partition and 7 days retention; orders ran like that for months before anyone noticed.",
		Where:   "infra/kafka-topics",
		Learned: "Locally, make topics applies the same terraform against the compose broker."})
	h.ask("kafka-topic-metadata", "lodestar", "linux", "./gradlew integrationTest",
		"InvoiceFlowIT > publishesRenderedEvent() FAILED\n    org.springframework.kafka.KafkaException: Send failed\n        at app//org.springframework.kafka.core.KafkaTemplate.doSend(KafkaTemplate.java:800)\n        Caused by:\n        org.apache.kafka.common.errors.TimeoutException: Topic invoice-rendered-v2 not present in metadata after 60000 ms.\n\n1 test completed, 1 failed\n\nFAILURE: Build failed with an exception.\n",
		"", "unseen: a note that describes no failure")

	h.note(Note{ID: "kafka-advertised", Project: "lodestar", OS: "darwin", Lang: "java", At: day(2025, 2, 11),
		Title:   "api container can't reach kafka: advertised listener is localhost",
		What:    "From the api container: `Connection to node 1 (localhost/127.0.0.1:9092) could not be established. Broker may not be available.` The bootstrap (kafka:9092) itself works.",
		Why:     "The broker advertises PLAINTEXT://localhost:9092, so after bootstrap the client is told to reconnect to localhost, which inside the api container is the container itself.",
		Where:   "docker-compose.yml",
		Learned: "Two listeners: INTERNAL://kafka:29092 for containers, EXTERNAL://localhost:9092 for tools on the host; apps in compose bootstrap from kafka:29092."})
	h.ask("kafka-advertised/1", "lodestar", "darwin", "docker compose logs api --tail 20",
		"api-1  | 10:42:03.117 [main] INFO  o.a.k.c.t.i.KafkaMetricsCollector - initializing Kafka metrics collector\napi-1  | 10:42:03.390 [kafka-producer-network-thread | producer-1] INFO  org.apache.kafka.clients.Metadata - [Producer clientId=producer-1] Cluster ID: MkU3OEVBNTcwNTJENDM2Qk\napi-1  | 10:42:03.402 [kafka-producer-network-thread | producer-1] WARN  org.apache.kafka.clients.NetworkClient - [Producer clientId=producer-1] Connection to node 1 (localhost/127.0.0.1:9092) could not be established. Broker may not be available.\napi-1  | 10:42:04.511 [kafka-producer-network-thread | producer-1] WARN  org.apache.kafka.clients.NetworkClient - [Producer clientId=producer-1] Connection to node 1 (localhost/127.0.0.1:9092) could not be established. Broker may not be available.\n",
		"kafka-advertised", "unseen: stored")
	h.ask("kafka-cluster-id", "lodestar", "darwin", "docker compose up",
		"kafka-1  | [2025-03-04 10:11:02,118] ERROR Exiting Kafka due to fatal exception during startup. (kafka.Kafka$)\nkafka-1  | java.lang.RuntimeException: Invalid cluster.id in: /var/lib/kafka/data/meta.properties. Expected 5L6g3nShT-eMCtK--X86sw, but read MkU3OEVBNTcwNTJENDM2Qg\nkafka-1 exited with code 1\napi-1    | 10:11:09.442 [kafka-producer-network-thread | producer-1] WARN  org.apache.kafka.clients.NetworkClient - [Producer clientId=producer-1] Connection to node -1 (kafka/172.21.0.3:9092) could not be established. Broker may not be available.\napi-1    | 10:11:10.448 [kafka-producer-network-thread | producer-1] WARN  org.apache.kafka.clients.NetworkClient - [Producer clientId=producer-1] Bootstrap broker kafka:9092 (id: -1 rack: null) disconnected\n",
		"", "unseen: same text, another cause")

	h.note(Note{ID: "flyway-ignored", Project: "lodestar", OS: "linux", Lang: "sql", At: day(2021, 9, 14),
		Title:   "flyway validate: resolved migration not applied (hotfix)",
		What:    "flyway migrate on staging: Validate failed: Migrations have failed validation. Detected resolved migration not applied to database: 1.14.1.",
		Why:     "The hotfix migration V1_14_1 was merged after V1_15 had already run on staging, so Flyway sees a version below the current one that was never applied.",
		Learned: "Apply it out of order, once, and let validate skip ignored migrations.",
		Fix:     "flyway -outOfOrder=true -ignoreIgnoredMigrations=true migrate"})
	h.note(Note{ID: "flyway-patterns", Project: "lodestar", OS: "linux", Lang: "sql", At: day(2023, 6, 20), Supersedes: "flyway-ignored",
		Title:   "flyway 9: -ignoreIgnoredMigrations is gone",
		What:    "The staging migrate job now stops with `ERROR: Invalid argument: -ignoreIgnoredMigrations`, and without the flag it's the old 'Detected resolved migration not applied to database' validate error.",
		Why:     "Flyway 9 removed ignoreIgnoredMigrations (and the other ignore* flags); ignoreMigrationPatterns replaces them.",
		Learned: "Same idea, pattern syntax: *:ignored. Keep -outOfOrder for the hotfix case.",
		Fix:     "flyway -outOfOrder=true -ignoreMigrationPatterns='*:ignored' migrate"})
	h.ask("flyway/validate", "lodestar", "linux", "flyway -configFiles=conf/staging.conf migrate",
		"Flyway OSS Edition 9.22.3 by Redgate\n\nSee release notes here: https://rd.gt/416ObMi\nDatabase: jdbc:postgresql://staging-db.lodestar.internal:5432/lodestar (PostgreSQL 15.4)\nERROR: Validate failed: Migrations have failed validation\nDetected resolved migration not applied to database: 2.3.1.\nTo ignore this migration, set -ignoreMigrationPatterns='*:ignored'. To allow executing this migration, set -outOfOrder=true.\nNeed more flexibility with validation rules? Learn more: https://rd.gt/3AbJUZE\n",
		"flyway-patterns", "unseen: superseded, declared", "flyway-ignored")
	h.ask("flyway/old-flag", "lodestar", "linux", "flyway -configFiles=conf/staging.conf -outOfOrder=true -ignoreIgnoredMigrations=true migrate",
		"Flyway OSS Edition 9.22.3 by Redgate\n\nERROR: Invalid argument: -ignoreIgnoredMigrations\n\nUsage\n=====\n\nflyway [options] [command]\n\nBy default, the configuration will be read from conf/flyway.conf.\n",
		"flyway-patterns", "unseen: superseded, declared, the old fix's own error", "flyway-ignored")
	h.ask("flyway/checksum", "lodestar", "linux", "flyway -configFiles=conf/dev.conf migrate",
		"Flyway OSS Edition 9.22.3 by Redgate\n\nDatabase: jdbc:postgresql://localhost:5432/lodestar (PostgreSQL 15.4)\nERROR: Validate failed: Migrations have failed validation\nMigration checksum mismatch for migration version 2.1\n-> Applied to database : 1417299521\n-> Resolved locally    : -820355672\nEither revert the changes to the migration, or run repair to update the schema history.\nNeed more flexibility with validation rules? Learn more: https://rd.gt/3AbJUZE\n",
		"", "unseen: same tool, another error")
}

func unseenApple(h *hand) {
	h.note(Note{ID: "xcode-script-sandbox", Project: "bellwether", OS: "darwin", Lang: "swift", At: day(2023, 10, 10),
		Title:   "Xcode 15: rsync sandbox deny in [CP] Embed Pods Frameworks",
		What:    "After updating to Xcode 15 every simulator build fails in the Embed Pods Frameworks phase:\n```\nSandbox: rsync.samba(48211) deny(1) file-write-create /Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzq/Build/Products/Debug-iphonesimulator/Bellwether.app/Frameworks/Alamofire.framework/_CodeSignature\n```",
		Why:     "Xcode 15 turns on User Script Sandboxing (ENABLE_USER_SCRIPT_SANDBOXING) for upgraded projects, and CocoaPods' embed script writes outside the phase's declared outputs.",
		Learned: "ENABLE_USER_SCRIPT_SANDBOXING = NO on the app target (and in the Podfile post_install for the Pods project), then clean the build folder."})
	h.ask("xcode-script-sandbox/1", "bellwether", "darwin", "xcodebuild -workspace Bellwether.xcworkspace -scheme Bellwether -destination 'platform=iOS Simulator,name=iPhone 15' build",
		"PhaseScriptExecution [CP]\\ Embed\\ Pods\\ Frameworks /Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzqfmwqvtbxgyshjlpcdvkcxe/Build/Intermediates.noindex/Bellwether.build/Debug-iphonesimulator/Bellwether.build/Script-9A1B2C3D4E5F.sh (in target 'Bellwether' from project 'Bellwether')\n    cd /Users/kim/code/bellwether\n    /bin/sh -c /Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzqfmwqvtbxgyshjlpcdvkcxe/Build/Intermediates.noindex/Bellwether.build/Debug-iphonesimulator/Bellwether.build/Script-9A1B2C3D4E5F.sh\n\nmkdir -p /Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzqfmwqvtbxgyshjlpcdvkcxe/Build/Products/Debug-iphonesimulator/Bellwether.app/Frameworks\nrsync --delete -av --filter P .*.?????? --links --filter \"- CVS/\" --filter \"- .svn/\" --filter \"- .git/\" --filter \"- .hg/\" --filter \"- Headers\" --filter \"- PrivateHeaders\" --filter \"- Modules\" \"../../../IntermediateBuildFilesPath/UninstalledProducts/iphonesimulator/Kingfisher.framework\" \"/Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzqfmwqvtbxgyshjlpcdvkcxe/Build/Products/Debug-iphonesimulator/Bellwether.app/Frameworks\"\nbuilding file list ... rsync: [sender] opendir \"/Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzqfmwqvtbxgyshjlpcdvkcxe/Build/Intermediates.noindex/UninstalledProducts/iphonesimulator/Kingfisher.framework\" failed: Operation not permitted (1)\nSandbox: rsync.samba(51877) deny(1) file-write-create /Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzqfmwqvtbxgyshjlpcdvkcxe/Build/Products/Debug-iphonesimulator/Bellwether.app/Frameworks/Kingfisher.framework\nrsync error: some files could not be transferred (code 23) at /AppleInternal/Library/BuildRoots/0032d1ee-80fd-11ee-8227-6aecfccc70fe/Library/Caches/com.apple.xbs/Sources/rsync/rsync/main.c(996) [sender=2.6.9]\nCommand PhaseScriptExecution failed with a nonzero exit code\n\n** BUILD FAILED **\n",
		"xcode-script-sandbox", "unseen: stored, another framework")
	h.ask("phase-script-crashlytics", "bellwether", "darwin", "xcodebuild -scheme Bellwether -configuration Release build",
		"PhaseScriptExecution Run\\ Crashlytics /Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzqfmwqvtbxgyshjlpcdvkcxe/Build/Intermediates.noindex/Bellwether.build/Release-iphoneos/Bellwether.build/Script-3C4D5E6F7A8B.sh (in target 'Bellwether' from project 'Bellwether')\n    cd /Users/kim/code/bellwether\n    /bin/sh -c /Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzqfmwqvtbxgyshjlpcdvkcxe/Build/Intermediates.noindex/Bellwether.build/Release-iphoneos/Bellwether.build/Script-3C4D5E6F7A8B.sh\n/Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzqfmwqvtbxgyshjlpcdvkcxe/Build/Intermediates.noindex/Bellwether.build/Release-iphoneos/Bellwether.build/Script-3C4D5E6F7A8B.sh: line 2: /Users/kim/Library/Developer/Xcode/DerivedData/Bellwether-ahdkzqfmwqvtbxgyshjlpcdvkcxe/SourcePackages/checkouts/firebase-ios-sdk/Crashlytics/run: No such file or directory\nCommand PhaseScriptExecution failed with a nonzero exit code\n\n** BUILD FAILED **\n",
		"", "unseen: generic names only (PhaseScriptExecution)")

	h.note(Note{ID: "xcrun-invalid-path", Project: "bellwether", Scope: "global", OS: "darwin", Lang: "swift", At: day(2024, 10, 1),
		Title:   "after the macOS upgrade: xcrun: error: invalid active developer path",
		What:    "git, make and clang all broken after upgrading to Sequoia: xcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), missing xcrun at: /Library/Developer/CommandLineTools/usr/bin/xcrun",
		Why:     "Major macOS upgrades remove the Command Line Tools; the shims in /usr/bin still point at them.",
		Learned: "Reinstall the CLT (or xcode-select -s /Applications/Xcode.app if full Xcode is there).",
		Fix:     "xcode-select --install"})
	h.ask("xcrun-invalid-path/git", "bellwether", "darwin", "git status",
		"xcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), missing xcrun at: /Library/Developer/CommandLineTools/usr/bin/xcrun\n",
		"xcrun-invalid-path", "unseen: stored, short tail")
	h.ask("xcrun-invalid-path/inkwell", "inkwell", "darwin", "make -C native",
		"make: Entering directory '/Users/kim/code/inkwell/native'\nxcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), missing xcrun at: /Library/Developer/CommandLineTools/usr/bin/xcrun\nmake: *** [Makefile:14: build/ring.o] Error 1\nmake: Leaving directory '/Users/kim/code/inkwell/native'\n",
		"xcrun-invalid-path", "unseen: global note, another project")

	h.note(Note{ID: "swift-uikit-linux", Project: "bellwether", OS: "linux", Lang: "swift", At: day(2025, 4, 8),
		Title:   "swift build on Linux: no such module 'UIKit'",
		What:    "The Linux job for BellwetherKit: `error: no such module 'UIKit'` in Sources/BellwetherKit/Color+Hex.swift.",
		Why:     "BellwetherKit has to build on Linux for the server-side renderer, but Color+Hex.swift imported UIKit unconditionally.",
		Learned: "Guard platform imports with #if canImport(UIKit) … #endif; the Linux job now runs on every PR, not just main."})
	h.ask("swift-uikit-linux/1", "bellwether", "linux", "swift build -c release",
		"[0/1] Planning build\nBuilding for production...\n[3/14] Compiling BellwetherKit Color+Hex.swift\n/home/ci/build/bellwether/Sources/BellwetherKit/Color+Hex.swift:2:8: error: no such module 'UIKit'\n1 | import Foundation\n2 | import UIKit\n  |        `- error: no such module 'UIKit'\n3 | \n4 | extension UIColor {\nerror: fatalError\n",
		"swift-uikit-linux", "unseen: stored")
	h.ask("swift-no-module-snapshot", "bellwether", "darwin", "xcodebuild test -scheme BellwetherKit -destination 'platform=iOS Simulator,name=iPhone 15'",
		"CompileSwift normal arm64 /Users/kim/code/bellwether/Tests/BellwetherKitTests/ColorSnapshotTests.swift (in target 'BellwetherKitTests' from project 'Bellwether')\n/Users/kim/code/bellwether/Tests/BellwetherKitTests/ColorSnapshotTests.swift:2:8: error: no such module 'SnapshotTesting'\nimport SnapshotTesting\n       ^\n\nTesting failed:\n\tNo such module 'SnapshotTesting'\n\tTesting cancelled because the build failed.\n\n** TEST FAILED **\n",
		"", "unseen: same message, another object")
}

func unseenDotnet(h *hand) {
	h.note(Note{ID: "dotnet-icu-alpine", Project: "cairn", OS: "linux", Lang: "csharp", At: day(2022, 11, 29),
		Title:   "cairn-api container dies at startup: no ICU",
		What:    "The alpine image exits right away: \"Process terminated. Couldn't find a valid ICU package installed on the system.\"",
		Why:     "aspnet:7.0-alpine has no icu-libs, and InvariantGlobalization is off on purpose: we format prices per culture (de-DE, fr-CH).",
		Where:   "src/Cairn.Api/Dockerfile",
		Learned: "Install ICU in the final stage and set DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=false. Switching invariant mode on instead would silently break the price formatting.",
		Fix:     "apk add --no-cache icu-libs icu-data-full"})
	icu := "Process terminated. Couldn't find a valid ICU package installed on the system. Please install libicu (or icu-libs) using your package manager and try again. Alternatively you can set the configuration flag System.Globalization.Invariant to true if you want to run with no globalization support. Please see https://aka.ms/dotnet-missing-libicu for more information.\n   at System.Environment.FailFast(System.Runtime.CompilerServices.StackCrawlMarkHandle, System.String, System.Runtime.CompilerServices.ObjectHandleOnStack, System.Runtime.CompilerServices.ObjectHandleOnStack)\n   at System.Environment.FailFast(System.Threading.StackCrawlMark ByRef, System.String, System.Exception, System.String)\n   at System.Globalization.GlobalizationMode+Settings..cctor()\n   at System.Globalization.CultureData.CreateCultureWithInvariantData()\n   at System.Globalization.CultureInfo..cctor()\n"
	h.ask("dotnet-icu-alpine/1", "cairn", "linux", "docker run --rm -p 8080:8080 cairn-api:dev", icu, "dotnet-icu-alpine", "unseen: stored")
	h.ask("dotnet-icu-alpine/quayside", "quayside", "linux", "docker run --rm quayside-worker:1.3.0", icu, "", "unseen: another project's project note")

	h.note(Note{ID: "devcert-windows", Project: "cairn", OS: "windows", Lang: "csharp", At: day(2024, 1, 17),
		Title:   "dotnet run: default developer certificate could not be found",
		What:    "Kestrel won't start on the new laptop: System.InvalidOperationException: Unable to configure HTTPS endpoint. No server certificate was specified, and the default developer certificate could not be found or is out of date.",
		Why:     "The dev certificate had never been created on this machine. On Windows it lives in the CurrentUser\\My store and has to be trusted once.",
		Learned: "Clean and recreate it, then trust it (the prompt needs a click).",
		Fix:     "dotnet dev-certs https --clean; dotnet dev-certs https --trust"})
	h.note(Note{ID: "devcert-linux", Project: "cairn", OS: "linux", Lang: "csharp", At: day(2024, 3, 5),
		Title: "same HTTPS dev cert error in the devcontainer",
		What:  "Unable to configure HTTPS endpoint ... the default developer certificate could not be found — in the Linux devcontainer this time.",
		Why: "dotnet dev-certs https --trust is Windows and macOS only, and the container has no certificate at all. " +
			"We export one as a pfx into the mounted ~/.aspnet/https and point Kestrel at it.",
		Learned: "Kestrel__Certificates__Default__Path and __Password in devcontainer.json point at the pfx.",
		Fix:     "dotnet dev-certs https -ep ${HOME}/.aspnet/https/cairn.pfx -p \"$CAIRN_CERT_PW\""})
	devcert := func(root string) string {
		return "info: Microsoft.Hosting.Lifetime[0]\n      Application is shutting down...\ncrit: Microsoft.AspNetCore.Server.Kestrel[0]\n      Unable to start Kestrel.\n      System.InvalidOperationException: Unable to configure HTTPS endpoint. No server certificate was specified, and the default developer certificate could not be found or is out of date.\n      To generate a developer certificate run 'dotnet dev-certs https'. To trust the certificate (Windows and macOS only) run 'dotnet dev-certs https --trust'.\n      For more information on configuring HTTPS see https://go.microsoft.com/fwlink/?linkid=848054.\n         at Microsoft.AspNetCore.Hosting.ListenOptionsHttpsExtensions.UseHttps(ListenOptions listenOptions, Action`1 configureOptions)\n         at Microsoft.AspNetCore.Server.Kestrel.Core.Internal.AddressBinder.AddressesStrategy.BindAsync(AddressBindContext context, CancellationToken cancellationToken)\nUnhandled exception. System.InvalidOperationException: Unable to configure HTTPS endpoint. No server certificate was specified, and the default developer certificate could not be found or is out of date.\n   at Cairn.Api.Program.Main(String[] args) in " + root + "\n"
	}
	h.ask("devcert/windows", "cairn", "windows", "dotnet run --project src\\Cairn.Api", crlf(devcert(`C:\Users\dev\src\cairn\src\Cairn.Api\Program.cs:line 41`)),
		"devcert-windows", "unseen: twin on another system, CRLF")
	h.ask("devcert/linux", "cairn", "linux", "dotnet watch --project src/Cairn.Api", devcert("/workspaces/cairn/src/Cairn.Api/Program.cs:line 41"),
		"devcert-linux", "unseen: twin on another system")
	h.ask("devcert/windows-cut", "cairn", "windows", "dotnet run --project src\\Cairn.Api --launch-profile https",
		crlf("ate could not be found or is out of date.\n      To generate a developer certificate run 'dotnet dev-certs https'. To trust the certificate (Windows and macOS only) run 'dotnet dev-certs https --trust'.\n      For more information on configuring HTTPS see https://go.microsoft.com/fwlink/?linkid=848054.\n"),
		"devcert-windows", "unseen: twin on another system, cut at the start")

	h.note(Note{ID: "nu1605-downgrade", Project: "cairn", OS: "windows", Lang: "csharp", At: day(2025, 5, 20),
		Title:   "restore: NU1605 downgrade of Microsoft.Extensions.Logging",
		What:    "dotnet restore fails on Cairn.Infrastructure with error NU1605: Warning As Error: Detected package downgrade: Microsoft.Extensions.Logging from 8.0.1 to 8.0.0.",
		Why:     "Cairn.Infrastructure references Microsoft.Extensions.Logging 8.0.0 directly, and the new Polly.Extensions needs >= 8.0.1 transitively; NU1605 is an error by default.",
		Where:   "Directory.Packages.props",
		Learned: "We use central package management: bump the version in Directory.Packages.props, never a Version= in a csproj."})
	h.ask("nu1605-downgrade/1", "cairn", "windows", "dotnet restore Cairn.sln",
		crlf("  Determining projects to restore...\nC:\\Users\\dev\\src\\cairn\\src\\Cairn.Infrastructure\\Cairn.Infrastructure.csproj : error NU1605: Warning As Error: Detected package downgrade: Microsoft.Extensions.Logging from 8.0.1 to 8.0.0. Reference the package directly from the project to select a different version.  [C:\\Users\\dev\\src\\cairn\\Cairn.sln]\nC:\\Users\\dev\\src\\cairn\\src\\Cairn.Infrastructure\\Cairn.Infrastructure.csproj : error NU1605:  Cairn.Infrastructure -> Polly.Extensions 8.4.0 -> Microsoft.Extensions.Logging (>= 8.0.1)  [C:\\Users\\dev\\src\\cairn\\Cairn.sln]\nC:\\Users\\dev\\src\\cairn\\src\\Cairn.Infrastructure\\Cairn.Infrastructure.csproj : error NU1605:  Cairn.Infrastructure -> Microsoft.Extensions.Logging (>= 8.0.0)  [C:\\Users\\dev\\src\\cairn\\Cairn.sln]\n  Failed to restore C:\\Users\\dev\\src\\cairn\\src\\Cairn.Infrastructure\\Cairn.Infrastructure.csproj (in 1.21 sec).\n"),
		"nu1605-downgrade", "unseen: stored, Windows paths and CRLF")
	h.ask("netsdk1005", "cairn", "windows", "dotnet build --no-restore",
		crlf("C:\\Program Files\\dotnet\\sdk\\8.0.300\\Sdks\\Microsoft.NET.Sdk\\targets\\Microsoft.PackageDependencyResolution.targets(266,5): error NETSDK1005: Assets file 'C:\\Users\\dev\\src\\cairn\\src\\Cairn.Api\\obj\\project.assets.json' doesn't have a target for 'net8.0'. Ensure that restore has run and that you have included 'net8.0' in the TargetFrameworks for your project. [C:\\Users\\dev\\src\\cairn\\src\\Cairn.Api\\Cairn.Api.csproj]\n\nBuild FAILED.\n"),
		"", "unseen: same tool, another error")
}

func unseenPHP(h *hand) {
	h.note(Note{ID: "composer1-memory", Project: "driftwood", OS: "darwin", Lang: "php", At: day(2021, 6, 8),
		Title:   "composer update runs out of memory",
		What:    "composer update → PHP Fatal error:  Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes) in phar:///usr/local/bin/composer/src/Composer/DependencyResolver/RuleSet.php on line 84",
		Why:     "Composer 1's solver needs more than 1.5 GB on our dependency tree.",
		Learned: "Lift the memory limit for composer only.",
		Fix:     "COMPOSER_MEMORY_LIMIT=-1 composer update"})
	h.note(Note{ID: "composer2", Project: "driftwood", OS: "darwin", Lang: "php", At: day(2022, 2, 15), ProseOver: "composer1-memory",
		Title:   "composer memory exhausted: move to Composer 2 instead",
		What:    "Hit the Allowed memory size ... exhausted in RuleSet.php again. With COMPOSER_MEMORY_LIMIT=-1 the laptop now swaps and the update takes twenty minutes.",
		Why:     "The old workaround (unlimited memory) only hides it and no longer gets through. Composer 2's solver needs a fraction of the memory, and Composer 1 is end of life anyway.",
		Learned: "self-update to 2.x and drop the env var from the Makefile.",
		Fix:     "composer self-update --2 && composer update"})
	h.ask("composer-memory/1", "driftwood", "darwin", "composer update laravel/framework --with-dependencies",
		"Loading composer repositories with package information\nUpdating dependencies (including require-dev)\nPHP Fatal error:  Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes) in phar:///usr/local/bin/composer/src/Composer/DependencyResolver/RuleSet.php on line 84\n\nFatal error: Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes) in phar:///usr/local/bin/composer/src/Composer/DependencyResolver/RuleSet.php on line 84\n\nCheck https://getcomposer.org/doc/articles/troubleshooting.md#memory-limit-errors for more info on how to handle out of memory errors.\n",
		"composer2", "unseen: superseded in prose", "composer1-memory")
	h.ask("composer-memory/ci", "driftwood", "linux", "docker build -t driftwood:ci .",
		"#10 [app 4/6] RUN composer install --no-dev --prefer-dist\n#10 0.611 Loading composer repositories with package information\n#10 1.902 Updating dependencies (including require-dev)\n#10 48.20 PHP Fatal error:  Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes) in phar:///usr/bin/composer/src/Composer/DependencyResolver/RuleSet.php on line 84\n#10 ERROR: process \"/bin/sh -c composer install --no-dev --prefer-dist\" did not complete successfully: exit code: 255\n",
		"composer2", "unseen: superseded in prose, docker build log", "composer1-memory")
	h.ask("phpstan-memory", "driftwood", "linux", "vendor/bin/phpstan analyse",
		"Note: Using configuration file /home/ci/build/driftwood/phpstan.neon.\n 1432/2210 [▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓░░░░░░░░░░]  64%\nPHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) in phar:///home/ci/build/driftwood/vendor/phpstan/phpstan/phpstan.phar/src/Analyser/NodeScopeResolver.php on line 1842\nFatal error: Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) in phar:///home/ci/build/driftwood/vendor/phpstan/phpstan/phpstan.phar/src/Analyser/NodeScopeResolver.php on line 1842\n\nPHPStan process crashed because it reached configured PHP memory limit: 128M\nIncrease your memory limit in php.ini or run PHPStan with --memory-limit CLI option.\n",
		"", "unseen: same text, another cause")

	h.note(Note{ID: "php-platform-check", Project: "driftwood", OS: "linux", Lang: "php", At: day(2024, 8, 27),
		Title:   "500s after deploy: Composer detected issues in your platform",
		What:    "Every request on web-2 returned 500; the php-fpm log says Composer detected issues in your platform: Your Composer dependencies require a PHP version \">= 8.2.0\". You are running 8.1.2-1ubuntu2.18.",
		Why:     "The deploy runs composer install with the php8.3 CLI, but nginx on web-2 still passes requests to the php8.1-fpm socket; the 8.3 pool was installed and never switched to.",
		Where:   "/etc/nginx/sites-available/driftwood",
		Learned: "fastcgi_pass to php8.3-fpm.sock and disable the old pool. The CLI and FPM versions must match on every web box.",
		Fix:     "sudo sed -i 's#php8.1-fpm.sock#php8.3-fpm.sock#' /etc/nginx/sites-available/driftwood && sudo systemctl disable --now php8.1-fpm && sudo systemctl reload nginx"})
	h.ask("php-platform-check/fpm-log", "driftwood", "linux", "sudo tail -n 20 /var/log/php8.1-fpm.log",
		"[03-Sep-2024 10:41:17] WARNING: [pool www] child 23011 said into stderr: \"NOTICE: PHP message: PHP Fatal error:  Uncaught RuntimeException: Composer detected issues in your platform: Your Composer dependencies require a PHP version \">= 8.2.0\". You are running 8.1.2-1ubuntu2.18. in /var/www/driftwood/releases/20240903103955/vendor/composer/platform_check.php:24\"\n[03-Sep-2024 10:41:17] WARNING: [pool www] child 23011 said into stderr: \"Stack trace:\"\n[03-Sep-2024 10:41:17] WARNING: [pool www] child 23011 said into stderr: \"#0 /var/www/driftwood/releases/20240903103955/vendor/composer/autoload_real.php(25): require()\"\n[03-Sep-2024 10:41:17] WARNING: [pool www] child 23011 said into stderr: \"#1 /var/www/driftwood/releases/20240903103955/vendor/autoload.php(25): ComposerAutoloaderInit4f1c2b::getLoader()\"\n",
		"php-platform-check", "unseen: stored")
	h.ask("php-platform-check/curl", "driftwood", "linux", "curl -sS -i https://driftwood.example/healthz",
		"HTTP/2 500 \nserver: nginx/1.24.0 (Ubuntu)\ncontent-type: text/html; charset=UTF-8\n\nComposer detected issues in your platform: Your Composer dependencies require a PHP version \">= 8.2.0\". You are running 8.1.2-1ubuntu2.18.\n",
		"php-platform-check", "unseen: stored, another tool")

	h.note(Note{ID: "nginx-port80-apache", Project: "driftwood", OS: "linux", Lang: "nginx", At: day(2023, 4, 4),
		Title:   "nginx won't start on the new web box: port 80 in use",
		What:    "systemctl start nginx fails; the journal has nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)",
		Why:     "apt install php8.2 pulled in libapache2-mod-php8.2 and with it apache2, which grabbed port 80 at boot (ss -ltnp 'sport = :80' showed apache2).",
		Learned: "On nginx boxes install php8.2-fpm, never the php8.2 metapackage; purge apache2.",
		Fix:     "sudo systemctl disable --now apache2 && sudo apt-get purge -y apache2 libapache2-mod-php8.2"})
	h.ask("nginx-port80/status", "driftwood", "linux", "sudo systemctl status nginx --no-pager",
		"× nginx.service - A high performance web server and a reverse proxy server\n     Loaded: loaded (/lib/systemd/system/nginx.service; enabled; vendor preset: enabled)\n     Active: failed (Result: exit-code) since Tue 2023-05-16 09:02:11 UTC; 4s ago\n       Docs: man:nginx(8)\n    Process: 4121 ExecStartPre=/usr/sbin/nginx -t -q -g daemon on; master_process on; (code=exited, status=0/SUCCESS)\n    Process: 4122 ExecStart=/usr/sbin/nginx -g daemon on; master_process on; (code=exited, status=1/FAILURE)\n        CPU: 21ms\n\nMay 16 09:02:09 web-3 nginx[4122]: nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)\nMay 16 09:02:09 web-3 nginx[4122]: nginx: [emerg] bind() to [::]:80 failed (98: Address already in use)\nMay 16 09:02:10 web-3 nginx[4122]: nginx: [emerg] still could not bind()\nMay 16 09:02:11 web-3 systemd[1]: nginx.service: Control process exited, code=exited, status=1/FAILURE\nMay 16 09:02:11 web-3 systemd[1]: Failed to start A high performance web server and a reverse proxy server.\n",
		"nginx-port80-apache", "unseen: stored")
	h.ask("nginx-port80/direct", "driftwood", "linux", "sudo nginx",
		"nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)\nnginx: [emerg] bind() to [::]:80 failed (98: Address already in use)\nnginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)\nnginx: [emerg] bind() to [::]:80 failed (98: Address already in use)\nnginx: [emerg] still could not bind()\n",
		"nginx-port80-apache", "unseen: stored, another tool")
	h.ask("nginx-port5173", "driftwood", "darwin", "nginx -p $PWD/dev -c nginx.conf",
		"nginx: [emerg] bind() to 127.0.0.1:5173 failed (48: Address already in use)\nnginx: [emerg] bind() to 127.0.0.1:5173 failed (48: Address already in use)\nnginx: [emerg] still could not bind()\n",
		"", "unseen: same message, another object")
	h.ask("nginx-unknown-directive", "driftwood", "linux", "sudo nginx -t",
		"nginx: [emerg] unknown directive \"more_set_headers\" in /etc/nginx/sites-enabled/driftwood:31\nnginx: configuration file /etc/nginx/nginx.conf test failed\n",
		"", "unseen: same tool, another error")

	h.note(Note{ID: "nginx-413", Project: "driftwood", OS: "linux", Lang: "nginx", At: day(2025, 10, 14),
		Title:   "supplier CSV import fails with 413",
		What:    "Uploading the supplier CSV (8 MB) fails; the browser only shows a 413 Request Entity Too Large page from nginx.",
		Why:     "nginx's client_max_body_size defaults to 1m, so Laravel (upload_max_filesize=64M in php.ini) never even sees the request.",
		Learned: "client_max_body_size 64m in the server block, matching php.ini.",
		Fix:     "sudo sed -i '/server_name driftwood/a\\    client_max_body_size 64m;' /etc/nginx/sites-available/driftwood && sudo nginx -t && sudo systemctl reload nginx"})
	h.ask("nginx-413/curl", "driftwood", "linux", "curl -sS -F file=@fixtures/suppliers-2025-10.csv https://staging.driftwood.example/admin/imports",
		"<html>\n<head><title>413 Request Entity Too Large</title></head>\n<body>\n<center><h1>413 Request Entity Too Large</h1></center>\n<hr><center>nginx/1.24.0 (Ubuntu)</center>\n</body>\n</html>\n",
		"nginx-413", "unseen: stored")
	h.ask("nginx-502", "driftwood", "linux", "curl -sS https://staging.driftwood.example/admin/imports",
		"<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx/1.24.0 (Ubuntu)</center>\n</body>\n</html>\n",
		"", "unseen: same tool, another error")
}

func unseenRubyElixir(h *hand) {
	h.note(Note{ID: "psych-linux", Project: "fenwick", OS: "linux", Lang: "ruby", At: day(2023, 2, 21),
		Title:   "bundle install: psych fails, yaml.h not found",
		What:    "After moving to Ruby 3.2, bundle install stops at psych 5: `An error occurred while installing psych (5.1.0), and Bundler cannot continue.` mkmf says yaml.h not found.",
		Why:     "psych 5 no longer bundles the libyaml source and needs the system headers; ruby:3.2-slim has none.",
		Where:   "Dockerfile",
		Learned: "Install libyaml-dev in the base stage, before bundle install.",
		Fix:     "apt-get update && apt-get install -y --no-install-recommends libyaml-dev"})
	h.note(Note{ID: "psych-mac", Project: "fenwick", OS: "darwin", Lang: "ruby", At: day(2023, 3, 9),
		Title:   "psych native extension on the Mac",
		What:    "Same psych 5 install failure (yaml.h not found) on my Mac with rbenv's Ruby 3.2.",
		Why:     "Homebrew's libyaml was installed, but under /opt/homebrew, which the extension build doesn't search on Apple Silicon.",
		Learned: "Point the psych build at brew's libyaml; bundler remembers it in ~/.bundle/config.",
		Fix:     "brew install libyaml && bundle config build.psych --with-libyaml-dir=$(brew --prefix libyaml) && bundle install"})
	psych := func(gems, ruby string) string {
		return "Fetching psych 5.1.2\nInstalling psych 5.1.2 with native extensions\nGem::Ext::BuildError: ERROR: Failed to build gem native extension.\n\n    current directory: " + gems + "/psych-5.1.2/ext/psych\n" + ruby + " extconf.rb\nchecking for pkg-config for yaml-0.1... not found\nchecking for yaml.h... no\nyaml.h not found\n*** extconf.rb failed ***\nCould not create Makefile due to some reason, probably lack of necessary\nlibraries and/or headers.  Check the mkmf.log file for more details.  You may\nneed configuration options.\n\nTo see why this extension failed to compile, please check the mkmf.log which can be found here:\n\n  " + gems + "/../extensions/psych-5.1.2/mkmf.log\n\nAn error occurred while installing psych (5.1.2), and Bundler cannot continue.\n\nIn Gemfile:\n  rails was resolved to 7.1.3, which depends on\n    railties was resolved to 7.1.3, which depends on\n      irb was resolved to 1.11.1, which depends on\n        rdoc was resolved to 6.6.2, which depends on\n          psych\n"
	}
	h.ask("psych/linux", "fenwick", "linux", "bundle install --jobs 4", psych("/usr/local/bundle/gems", "/usr/local/bin/ruby"), "psych-linux", "unseen: twin on another system")
	h.ask("psych/mac", "fenwick", "darwin", "bundle install", psych("/Users/kim/.rbenv/versions/3.2.2/lib/ruby/gems/3.2.0/gems", "/Users/kim/.rbenv/versions/3.2.2/bin/ruby"), "psych-mac", "unseen: twin on another system")
	h.ask("psych/docker", "fenwick", "linux", "docker build -t fenwick:dev .",
		"#9 [base 5/7] RUN bundle install --jobs 4 --without development test\n#9 41.07 Installing psych 5.1.2 with native extensions\n#9 42.11 Gem::Ext::BuildError: ERROR: Failed to build gem native extension.\n#9 42.11 \n#9 42.11     current directory: /usr/local/bundle/gems/psych-5.1.2/ext/psych\n#9 42.11 /usr/local/bin/ruby extconf.rb\n#9 42.11 checking for pkg-config for yaml-0.1... not found\n#9 42.11 checking for yaml.h... no\n#9 42.11 yaml.h not found\n#9 42.11 *** extconf.rb failed ***\n#9 42.30 An error occurred while installing psych (5.1.2), and Bundler cannot continue.\n#9 ERROR: process \"/bin/sh -c bundle install --jobs 4 --without development test\" did not complete successfully: exit code: 5\n",
		"psych-linux", "unseen: twin on another system, docker build log")
	h.ask("ruby-version-mismatch", "fenwick", "darwin", "bundle exec rails s",
		"Your Ruby version is 3.2.2, but your Gemfile specified 3.3.0\n",
		"", "unseen: same tool, another error")

	h.note(Note{ID: "redis-oom-sidekiq", Project: "fenwick", OS: "linux", Lang: "ruby", At: day(2024, 5, 7),
		Title: "Sidekiq can't push jobs: OOM command not allowed",
		What:  "Jobs stopped being enqueued: OOM command not allowed when used memory > 'maxmemory'.",
		Why: "Sidekiq and Rails.cache shared one Redis with maxmemory 256mb and the default noeviction policy; the cache filled it. " +
			"Sidekiq's data must never be evicted, so allkeys-lru on that instance would be wrong too.",
		Learned: "Split them: the cache on its own Redis with allkeys-lru, Sidekiq's keeps noeviction.",
		Fix:     "redis-cli -h fenwick-cache.internal CONFIG SET maxmemory-policy allkeys-lru"})
	h.ask("redis-oom-sidekiq/1", "fenwick", "linux", "kubectl logs deploy/fenwick-sidekiq --tail=30",
		"2024-05-13T07:22:41.118Z pid=1 tid=2bhx ERROR: Error fetching job: OOM command not allowed when used memory > 'maxmemory'.\n2024-05-13T07:22:41.119Z pid=1 tid=2bhx WARN: RedisClient::OutOfMemoryError: OOM command not allowed when used memory > 'maxmemory'.\n2024-05-13T07:22:41.119Z pid=1 tid=2bhx WARN: /usr/local/bundle/gems/redis-client-0.22.1/lib/redis_client/connection_mixin.rb:33:in `call'\n/usr/local/bundle/gems/redis-client-0.22.1/lib/redis_client.rb:262:in `block (2 levels) in call'\n",
		"redis-oom-sidekiq", "unseen: stored")
	h.ask("redis-oom/rails", "fenwick", "linux", "bin/rails runner 'ReportsJob.perform_later(Date.yesterday)'",
		"/usr/local/bundle/gems/redis-client-0.22.1/lib/redis_client/connection_mixin.rb:33:in `call': OOM command not allowed when used memory > 'maxmemory'. (RedisClient::OutOfMemoryError)\n\tfrom /usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/client.rb:233:in `block (2 levels) in raw_push'\n\tfrom /usr/local/bundle/gems/activejob-7.1.3/lib/active_job/enqueuing.rb:67:in `enqueue'\n",
		"redis-oom-sidekiq", "unseen: stored, another command")
	h.ask("redis-oom/meadow", "meadow", "linux", "python -m meadow.worker",
		"Traceback (most recent call last):\n  File \"/app/meadow/cache.py\", line 41, in put\n    self.r.set(key, blob, ex=3600)\n  File \"/usr/local/lib/python3.11/site-packages/redis/commands/core.py\", line 2341, in set\n    return self.execute_command(\"SET\", *pieces, **options)\n  File \"/usr/local/lib/python3.11/site-packages/redis/connection.py\", line 535, in read_response\n    raise response\nredis.exceptions.OutOfMemoryError: OOM command not allowed when used memory > 'maxmemory'.\n",
		"", "unseen: another project's project note")

	h.note(Note{ID: "erlang-latin1", Project: "gossamer", OS: "linux", Lang: "elixir", At: day(2022, 9, 13),
		Title:   "release image: VM running with latin1, umlaut file names break",
		What:    "Remote console in the release container warns about \"native name encoding of latin1\", and uploads with umlauts in the name fail with File.Error.",
		Why:     "The debian-slim runtime stage sets no LANG, so the VM starts in the C locale.",
		Where:   "Dockerfile (runtime stage)",
		Learned: "ENV LANG=C.UTF-8 in the runtime stage; C.UTF-8 exists in slim images, no locales package needed."})
	h.ask("erlang-latin1/1", "gossamer", "linux", "docker exec -it gossamer bin/gossamer rpc 'Gossamer.Uploads.reprocess(812)'",
		"warning: the VM is running with native name encoding of latin1 which may cause Elixir to malfunction as it cannot encode/decode unicode characters (including file names). Please make sure your locale is set to UTF-8 (which can be verified by running \"locale\" in your shell) or set the ELIXIR_ERL_OPTIONS=\"+fnu\" environment variable\n** (File.Error) could not read file \"/app/uploads/Gr\\xC3\\xBC\\xC3\\x9Fe-M\\xC3\\xBCnchen.pdf\": no such file or directory\n    (elixir 1.14.2) lib/file.ex:358: File.read!/1\n    (gossamer 0.3.1) lib/gossamer/uploads.ex:77: Gossamer.Uploads.reprocess/1\n",
		"erlang-latin1", "unseen: stored, paraphrased note")

	h.note(Note{ID: "fly-database-url", Project: "gossamer", OS: "darwin", Lang: "elixir", At: day(2023, 7, 25),
		Title:   "fly deploy of staging crashes: DATABASE_URL is missing",
		What:    "The staging machine restarts in a loop; the logs say ** (RuntimeError) environment variable DATABASE_URL is missing. from config/runtime.exs.",
		Why:     "gossamer-staging was created with fly launch --no-deploy and the Postgres cluster was never attached, so the DATABASE_URL secret doesn't exist.",
		Learned: "fly postgres attach sets the secret (and creates the database user).",
		Fix:     "fly postgres attach gossamer-db --app gossamer-staging"})
	h.ask("fly-database-url/1", "gossamer", "darwin", "fly logs -a gossamer-staging",
		"2023-08-02T10:14:22Z app[3d8d9e51c66389] ams [info]ERROR! Config provider Config.Reader failed with:\n2023-08-02T10:14:22Z app[3d8d9e51c66389] ams [info]** (RuntimeError) environment variable DATABASE_URL is missing.\n2023-08-02T10:14:22Z app[3d8d9e51c66389] ams [info]For example: ecto://USER:PASS@HOST/DATABASE\n2023-08-02T10:14:22Z app[3d8d9e51c66389] ams [info]    /app/releases/0.4.1/runtime.exs:24: (file)\n2023-08-02T10:14:22Z app[3d8d9e51c66389] ams [info]    (elixir 1.15.4) src/elixir.erl:375: :elixir.eval_forms/4\n2023-08-02T10:14:22Z app[3d8d9e51c66389] ams [info]Runtime terminating during boot ({#{'__exception__'=>true,'__struct__'=>'Elixir.RuntimeError',message=><<\"environment variable DATABASE_URL is missing.\\nFor example: ecto://USER:PASS@HOST/DATABASE\\n\">>},[{elixir_eval,'__FILE__',1,[{file,\"/app/releases/0.4.1/runtime.exs\"},{line,24}]}]})\n2023-08-02T10:14:23Z app[3d8d9e51c66389] ams [info] INFO Main child exited normally with code: 1\n",
		"fly-database-url", "unseen: stored")
	h.ask("fly-secret-key-base", "gossamer", "darwin", "fly logs -a gossamer-staging",
		"2023-09-12T08:01:40Z app[6e82d4e1b74d08] ams [info]ERROR! Config provider Config.Reader failed with:\n2023-09-12T08:01:40Z app[6e82d4e1b74d08] ams [info]** (RuntimeError) environment variable SECRET_KEY_BASE is missing.\n2023-09-12T08:01:40Z app[6e82d4e1b74d08] ams [info]You can generate one by calling: mix phx.gen.secret\n2023-09-12T08:01:40Z app[6e82d4e1b74d08] ams [info]    /app/releases/0.4.3/runtime.exs:41: (file)\n2023-09-12T08:01:41Z app[6e82d4e1b74d08] ams [info] INFO Main child exited normally with code: 1\n",
		"", "unseen: same message, another object")

	h.note(Note{ID: "gossamer-oban", Project: "gossamer", OS: "darwin", Lang: "elixir", At: day(2023, 3, 2), Type: "decision", NoFailure: true,
		Title:   "Background work goes through Oban",
		What:    "No more GenServer timers or Task.start for background work: every job is an Oban worker in lib/gossamer/workers, queues declared in config.exs.",
		Why:     "Timers died with the node on every deploy and nothing retried them.",
		Learned: "Jobs must be idempotent; use unique: [period: 60] for anything triggered by webhooks."})
	h.ask("oban-table", "gossamer", "darwin", "mix test",
		"** (Postgrex.Error) ERROR 42P01 (undefined_table) relation \"oban_jobs\" does not exist\n\n    query: INSERT INTO \"public\".\"oban_jobs\" AS o0 (\"args\",\"meta\",\"state\",\"queue\",\"worker\") VALUES ($1,$2,$3,$4,$5) RETURNING \"id\"\n    (ecto_sql 3.10.2) lib/ecto/adapters/sql.ex:1047: Ecto.Adapters.SQL.raise_sql_call_error/1\n    (oban 2.17.1) lib/oban/engines/basic.ex:52: Oban.Engines.Basic.insert_job/3\n",
		"", "unseen: a note that describes no failure")
}
