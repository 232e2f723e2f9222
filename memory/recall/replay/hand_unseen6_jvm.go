package replay

import "time"

// Java and Kotlin with Spring Boot, Maven and Gradle: ledgerline (Kotlin,
// Spring Boot, Gradle), parcelhub (Java, Maven), routeplan (Kotlin,
// Gradle).
func unseen6JVM(h *hand) {
	h.note(Note{ID: "jvm-flyway-checksum", Project: "ledgerline", OS: "linux", Lang: "kotlin", At: day(2023, time.February, 8),
		Title:   "app won't boot locally: flyway says checksum changed for an old migration",
		What:    "Spring Boot startup died in Flyway: §Validate failed: Migrations have failed validation. Migration checksum mismatch for migration version 14§ (V14__add_currency_to_accounts.sql).",
		Why:     "Somebody reformatted V14 (IDE converted the line endings and trimmed trailing spaces) after it had already been applied to everyone's dev database, so the CRC32 Flyway stored no longer matches the file.",
		Where:   "src/main/resources/db/migration/V14__add_currency_to_accounts.sql",
		Learned: "Never touch a migration that has been applied anywhere; put the change in a new V file. To get a local DB going again run flyway repair against the local database only (it rewrites the stored checksums), never against staging. Added .gitattributes so *.sql keep LF.",
		Fix:     "./gradlew flywayRepair -Pflyway.url=jdbc:postgresql://localhost:5432/ledger -Pflyway.user=ledger"})
	h.ask("jvm-flyway-checksum/1", "ledgerline", "linux", "./gradlew bootRun --args='--spring.profiles.active=local'", `> Task :bootRun

  .   ____          _            __ _ _
 /\\ / ___'_ __ _ _(_)_ __  __ _ \ \ \ \
( ( )\___ | '_ | '_| | '_ \/ _§ | \ \ \ \
 \\/  ___)| |_)| | | | | || (_| |  ) ) ) )
  '  |____| .__|_| |_|_| |_\__, | / / / /
 =========|_|==============|___/=/_/_/_/
 :: Spring Boot ::                (v3.2.4)

2024-05-02T10:11:40.118Z  INFO 48211 --- [           main] i.l.api.LedgerApplicationKt              : The following 1 profile is active: "local"
2024-05-02T10:11:42.907Z  INFO 48211 --- [           main] o.f.c.internal.license.VersionPrinter    : Flyway Community Edition 9.22.3 by Redgate
2024-05-02T10:11:43.001Z  INFO 48211 --- [           main] o.f.c.i.database.base.BaseDatabaseType   : Database: jdbc:postgresql://localhost:5432/ledger (PostgreSQL 15.6)
2024-05-02T10:11:43.220Z  WARN 48211 --- [           main] ConfigServletWebServerApplicationContext : Exception encountered during context initialization - cancelling refresh attempt: org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'flywayInitializer' defined in class path resource [org/springframework/boot/autoconfigure/flyway/FlywayAutoConfiguration$FlywayConfiguration.class]: Validate failed: Migrations have failed validation
Migration checksum mismatch for migration version 22
-> Applied to database : 1180251734
-> Resolved locally    : -902551322
Either revert the changes to the migration, or run repair to update the schema history.
Need more flexibility with validation rules? Learn more: https://rd.gt/3AbJUZE
2024-05-02T10:11:43.241Z  INFO 48211 --- [           main] .s.b.a.l.ConditionEvaluationReportLogger :

Error starting ApplicationContext. To display the condition evaluation report re-run your application with 'debug' enabled.
2024-05-02T10:11:43.266Z ERROR 48211 --- [           main] o.s.boot.SpringApplication               : Application run failed

> Task :bootRun FAILED

FAILURE: Build failed with an exception.`, "jvm-flyway-checksum", "hand: stored")
	h.ask("jvm-flyway-checksum/2", "parcelhub", "windows", `mvn spring-boot:run -Dspring-boot.run.profiles=dev`, u6crlf(`[INFO] --- spring-boot:3.1.5:run (default-cli) @ parcelhub-api ---
[INFO] Attaching agents: []
2023-11-20T16:02:10.771+01:00  INFO 17320 --- [  restartedMain] o.f.core.internal.command.DbValidate     : Validating 31 migrations (execution time 00:00.046s)
2023-11-20T16:02:10.790+01:00 ERROR 17320 --- [  restartedMain] o.s.boot.SpringApplication               : Application run failed

org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'flywayInitializer' defined in class path resource [org/springframework/boot/autoconfigure/flyway/FlywayAutoConfiguration$FlywayConfiguration.class]: Validate failed: Migrations have failed validation
Migration checksum mismatch for migration version 7.3
-> Applied to database : 2014788163
-> Resolved locally    : 1648304021
Either revert the changes to the migration, or run repair to update the schema history.
	at org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.initializeBean(AbstractAutowireCapableBeanFactory.java:1775)
	at org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.doCreateBean(AbstractAutowireCapableBeanFactory.java:601)
[INFO] BUILD FAILURE
`), "", "another project's project note")

	h.note(Note{ID: "jvm-bean-cycle", Project: "ledgerline", OS: "darwin", Lang: "kotlin", At: day(2024, time.January, 17),
		Title: "circular bean dependency PaymentService <-> LedgerService",
		What: `After adding refund handling the app refused to start:

§§§
The dependencies of some of the beans in the application context form a cycle:
┌─────┐
|  paymentService
↑     ↓
|  ledgerService
└─────┘
§§§`,
		Why:     "Boot 2.6+ forbids circular references by default. LedgerService got PaymentService injected to look up refunds, PaymentService already had LedgerService.",
		Where:   "src/main/kotlin/io/ledgerline/payments/PaymentService.kt, src/main/kotlin/io/ledgerline/ledger/LedgerService.kt",
		Learned: "Don't flip spring.main.allow-circular-references=true (the suggestion in the log). Break the cycle: the ledger publishes a RefundPosted application event and PaymentService listens, or pull the shared lookup into a third bean. @Lazy on one constructor param also works as a stopgap.",
	})
	h.ask("jvm-bean-cycle/1", "ledgerline", "darwin", "./gradlew test --tests '*ContextLoadsTest'", `ContextLoadsTest > contextLoads() FAILED
    java.lang.IllegalStateException: Failed to load ApplicationContext for [WebMergedContextConfiguration@6b5ab2f2 testClass = io.ledgerline.ContextLoadsTest, locations = [], classes = [io.ledgerline.api.LedgerApplication]]
        at org.springframework.test.context.cache.DefaultCacheAwareContextLoaderDelegate.loadContext(DefaultCacheAwareContextLoaderDelegate.java:180)
        Caused by: org.springframework.beans.factory.UnsatisfiedDependencyException: Error creating bean with name 'statementController'
            Caused by: org.springframework.beans.factory.BeanCurrentlyInCreationException: Error creating bean with name 'feeCalculator': Requested bean is currently in creation: Is there an unresolvable circular reference?

***************************
APPLICATION FAILED TO START
***************************

Description:

The dependencies of some of the beans in the application context form a cycle:

   statementController defined in file [/Users/mara/src/ledgerline/build/classes/kotlin/main/io/ledgerline/api/StatementController.class]
┌─────┐
|  feeCalculator defined in file [/Users/mara/src/ledgerline/build/classes/kotlin/main/io/ledgerline/fees/FeeCalculator.class]
↑     ↓
|  accountService defined in file [/Users/mara/src/ledgerline/build/classes/kotlin/main/io/ledgerline/accounts/AccountService.class]
└─────┘

Action:

Relying upon circular references is discouraged and they are prohibited by default. Update your application to remove the dependency cycle between beans. As a last resort, it may be possible to break the cycle automatically by setting spring.main.allow-circular-references to true.

12 tests completed, 1 failed`, "jvm-bean-cycle", "hand: stored")

	h.note(Note{ID: "jvm-gradle-toolchain", Project: "ledgerline", Scope: "global", OS: "linux", Lang: "kotlin", At: day(2022, time.September, 5),
		Title:   "Gradle can't find a JDK for the toolchain on a fresh CI runner",
		What:    "compileKotlin fails with §No matching toolchains found for requested specification§ when the runner only has the default JDK.",
		Why:     "The build declares java { toolchain { languageVersion = 17 } } and Gradle only looks at locally installed JDKs unless a toolchain resolver is configured; auto-provisioning has nowhere to download from since Gradle 7.6/8.",
		Where:   "settings.gradle.kts",
		Learned: "Add the foojay resolver plugin to settings.gradle.kts: plugins { id(\"org.gradle.toolchains.foojay-resolver-convention\") version \"0.8.0\" }. Gradle then downloads the requested JDK itself. Any Gradle repo with a toolchain block needs it.",
	})
	h.ask("jvm-gradle-toolchain/1", "ledgerline", "linux", "./gradlew build --no-daemon", `Downloading https://services.gradle.org/distributions/gradle-8.5-bin.zip
............10%............20%............30%............40%............50%............60%............70%............80%............90%............100%

Welcome to Gradle 8.5!

> Task :buildSrc:compileKotlin
> Task :compileKotlin FAILED

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':compileKotlin'.
> Error while evaluating property 'javaLauncher' of task ':compileKotlin'.
   > Failed to calculate the value of task ':compileKotlin' property 'javaLauncher'.
      > No matching toolchains found for requested specification: {languageVersion=17, vendor=any, implementation=vendor-specific} for LINUX on x86_64.
         > No locally installed toolchains match and toolchain download repositories have not been configured.

* Try:
> Learn more about toolchain auto-detection at https://docs.gradle.org/8.5/userguide/toolchains.html#sec:auto_detection.
> Learn more about toolchain repositories at https://docs.gradle.org/8.5/userguide/toolchains.html#sub:download_repositories.
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 48s`, "jvm-gradle-toolchain", "hand: stored")
	h.ask("jvm-gradle-toolchain/2", "routeplan", "windows", `.\gradlew.bat :service:compileJava`, u6crlf(`Starting a Gradle Daemon (subsequent builds will be faster)
> Task :service:compileJava FAILED

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':service:compileJava'.
> Error while evaluating property 'javaCompiler' of task ':service:compileJava'.
   > Failed to calculate the value of task ':service:compileJava' property 'javaCompiler'.
      > Cannot find a Java installation on your machine matching this tasks requirements: {languageVersion=21, vendor=any vendor, implementation=vendor-specific} for WINDOWS on x86_64.
         > No locally installed toolchains match and toolchain download repositories have not been configured.

* Try:
> Learn more about toolchain auto-detection at https://docs.gradle.org/8.7/userguide/toolchains.html#sec:auto_detection.
> Learn more about toolchain repositories at https://docs.gradle.org/8.7/userguide/toolchains.html#sub:download_repositories.

BUILD FAILED in 21s
`), "jvm-gradle-toolchain", "global note, another project")

	h.note(Note{ID: "jvm-maven-enforcer", Project: "parcelhub", OS: "windows", Lang: "java", At: day(2023, time.April, 12),
		Title:   "enforcer DependencyConvergence: two jacksons",
		What:    "mvn verify broke on the enforcer plugin, Rule 0 DependencyConvergence failed: jackson-databind 2.13.4.2 via the aws sdk and 2.15.0 via spring-boot-starter-json.",
		Why:     "The AWS SDK v1 bundle drags its own jackson and the enforcer rule wants exactly one version in the tree.",
		Where:   "pom.xml",
		Learned: "Import com.fasterxml.jackson:jackson-bom in <dependencyManagement> BEFORE the spring-boot-dependencies import (first import wins) so every jackson artifact resolves to the same version. mvn dependency:tree -Dincludes=com.fasterxml.jackson.core shows who pulls what.",
		Fix:     "mvn dependency:tree -Dincludes=com.fasterxml.jackson.core"})
	h.ask("jvm-maven-enforcer/1", "parcelhub", "windows", "mvn -B verify", u6crlf(`[INFO] --- enforcer:3.4.1:enforce (enforce) @ parcelhub-tracking ---
[WARNING] 
Dependency convergence error for com.fasterxml.jackson.core:jackson-core:jar:2.15.3 paths to dependency are:
+-com.parcelhub:parcelhub-tracking:jar:2.8.0-SNAPSHOT
  +-org.springframework.boot:spring-boot-starter-json:jar:3.1.5:compile
    +-com.fasterxml.jackson.core:jackson-databind:jar:2.15.3:compile
      +-com.fasterxml.jackson.core:jackson-core:jar:2.15.3:compile
and
+-com.parcelhub:parcelhub-tracking:jar:2.8.0-SNAPSHOT
  +-com.amazonaws:aws-java-sdk-sqs:jar:1.12.565:compile
    +-com.amazonaws:aws-java-sdk-core:jar:1.12.565:compile
      +-com.fasterxml.jackson.dataformat:jackson-dataformat-cbor:jar:2.12.7:compile
        +-com.fasterxml.jackson.core:jackson-core:jar:2.12.7:compile

[ERROR] Rule 0: org.apache.maven.enforcer.rules.dependency.DependencyConvergence failed with message:
Failed while enforcing releasability.
See above detailed error message.
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-enforcer-plugin:3.4.1:enforce (enforce) on project parcelhub-tracking: 
[ERROR] Rule 0: org.apache.maven.enforcer.rules.dependency.DependencyConvergence failed with message:
[ERROR] Failed while enforcing releasability.
`), "jvm-maven-enforcer", "hand: stored")
	h.ask("jvm-maven-enforcer/2", "parcelhub", "linux", "mvn -B -q validate", `[ERROR] [ERROR] Some problems were encountered while processing the POMs:
[FATAL] Non-parseable POM /builds/parcelhub/parcelhub/pom.xml: Unrecognised tag: 'dependncy' (position: START_TAG seen ...</version>\n        </dependency>\n        <dependncy>... @212:20)  @ line 212, column 20
 @ 
[ERROR] The build could not read 1 project -> [Help 1]
[ERROR]   
[ERROR]   The project com.parcelhub:parcelhub-parent:2.9.0-SNAPSHOT (/builds/parcelhub/parcelhub/pom.xml) has 1 error
[ERROR]     Non-parseable POM /builds/parcelhub/parcelhub/pom.xml: Unrecognised tag: 'dependncy' (position: START_TAG seen ...</version>\n        </dependency>\n        <dependncy>... @212:20)  @ line 212, column 20 -> [Help 2]
[ERROR] 
[ERROR] For more information about the errors and possible solutions, please read the following articles:
[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/ProjectBuildingException
[ERROR] [Help 2] http://cwiki.apache.org/confluence/display/MAVEN/ModelParseException`, "", "generic file name")

	h.note(Note{ID: "jvm-surefire-oom", Project: "parcelhub", OS: "linux", Lang: "java", At: day(2024, time.March, 4),
		Title:   "surefire fork dies on the CI runner (it's the OOM killer)",
		What:    "§The forked VM terminated without properly saying goodbye. VM crash or System.exit called?§ on the GitLab runner only, locally green.",
		Why:     "The runner pod has a 2Gi limit; surefire's fork runs with the JVM default max heap (1/4 of host RAM, the host has 64G) plus the testcontainers stuff, so the kernel kills it. Exit code 137 in the dump file.",
		Where:   "pom.xml (maven-surefire-plugin configuration), .gitlab-ci.yml",
		Learned: "Give the fork an explicit heap: <argLine>-Xmx1g -XX:+ExitOnOutOfMemoryError</argLine>, keep forkCount=1 on CI. Check target/surefire-reports/*.dumpstream, 137 means killed from outside.",
	})
	h.note(Note{ID: "jvm-surefire-exit", Project: "parcelhub", OS: "linux", Lang: "java", At: day(2024, time.October, 22),
		Title:   "surefire 'VM crash or System.exit called' was our CLI calling System.exit",
		What:    "Same surefire goodbye error as the OOM one, but this time it was deterministic and on every machine, right after ImportCommandTest started.",
		Why:     "The new picocli import command ends with System.exit(new CommandLine(cmd).execute(args)) and the test invoked main(). The exit kills the surefire fork.",
		Where:   "parcelhub-cli/src/main/java/com/parcelhub/cli/ImportCommand.java, parcelhub-cli/src/test/java/com/parcelhub/cli/ImportCommandTest.java",
		Learned: "Tests must call new CommandLine(cmd).execute(args) and assert the returned exit code; keep System.exit only in main. Not a memory problem, don't bump -Xmx for this one.",
	})
	h.ask("jvm-surefire-oom/1", "parcelhub", "linux", "mvn -B verify -pl parcelhub-tracking", `[INFO] Running com.parcelhub.tracking.ShipmentRepositoryIT
[INFO] Tests run: 14, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 38.21 s -- in com.parcelhub.tracking.ShipmentRepositoryIT
[INFO] Running com.parcelhub.tracking.RoutingServiceIT
[INFO] 
[INFO] Results:
[INFO] 
[INFO] Tests run: 212, Failures: 0, Errors: 0, Skipped: 3
[INFO] 
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project parcelhub-tracking: 
[ERROR] 
[ERROR] Please refer to /builds/parcelhub/parcelhub/parcelhub-tracking/target/surefire-reports for the individual test results.
[ERROR] Please refer to dump files (if any exist) [date].dump, [date]-jvmRun[N].dump and [date].dumpstream.
[ERROR] ExecutionException The forked VM terminated without properly saying goodbye. VM crash or System.exit called?
[ERROR] Command was /bin/sh -c cd '/builds/parcelhub/parcelhub/parcelhub-tracking' && '/opt/java/openjdk/bin/java' '-jar' '/builds/parcelhub/parcelhub/parcelhub-tracking/target/surefire/surefirebooter-20250114091204_3.jar' '/builds/parcelhub/parcelhub/parcelhub-tracking/target/surefire' '2025-01-14T09-11-22_519-jvmRun1' 'surefire-20250114091204_1tmp' 'surefire_0-20250114091204_2tmp'
[ERROR] Error occurred in starting fork, check output in log
[ERROR] Process Exit Code: 137
[ERROR] Crashed tests:
[ERROR] com.parcelhub.tracking.RoutingServiceIT`, "jvm-surefire-oom", "same text, another cause")
	h.ask("jvm-surefire-exit/1", "parcelhub", "darwin", "mvn test -pl parcelhub-cli", `[INFO] -------------------------------------------------------
[INFO]  T E S T S
[INFO] -------------------------------------------------------
[INFO] Running com.parcelhub.cli.ExportCommandTest
[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.412 s -- in com.parcelhub.cli.ExportCommandTest
[INFO] Running com.parcelhub.cli.ReconcileCommandTest
Reconciled 0 shipments.
[INFO] 
[INFO] Results:
[INFO] 
[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0
[INFO] 
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project parcelhub-cli: 
[ERROR] 
[ERROR] Please refer to /Users/jonas/work/parcelhub/parcelhub-cli/target/surefire-reports for the individual test results.
[ERROR] ExecutionException The forked VM terminated without properly saying goodbye. VM crash or System.exit called?
[ERROR] Command was /bin/sh -c cd '/Users/jonas/work/parcelhub/parcelhub-cli' && '/Library/Java/JavaVirtualMachines/temurin-21.jdk/Contents/Home/bin/java' '-jar' '/Users/jonas/work/parcelhub/parcelhub-cli/target/surefire/surefirebooter-20250203113355_3.jar' '/Users/jonas/work/parcelhub/parcelhub-cli/target/surefire' '2025-02-03T11-33-54_901-jvmRun1' 'surefire-20250203113355_1tmp' 'surefire_0-20250203113355_2tmp'
[ERROR] Process Exit Code: 0
[ERROR] Crashed tests:
[ERROR] com.parcelhub.cli.ReconcileCommandTest`, "jvm-surefire-exit", "same text, another cause")

	h.note(Note{ID: "jvm-datasource-profile", Project: "ledgerline", OS: "darwin", Lang: "kotlin", At: day(2022, time.May, 30),
		Title:   "bootRun: 'url' attribute is not specified",
		What:    "Failed to configure a DataSource: 'url' attribute is not specified and no embedded datasource could be configured. Reason: Failed to determine a suitable driver class",
		Why:     "the datasource lives in application-local.yml and no profile was active (I ran the main class from the IDE without the run config)",
		Learned: "activate the local profile: SPRING_PROFILES_ACTIVE=local, or --spring.profiles.active=local. We deliberately keep no url in application.yml.",
		Fix:     "SPRING_PROFILES_ACTIVE=local ./gradlew bootRun"})
	h.ask("jvm-datasource-profile/1", "ledgerline", "darwin", "java -jar build/libs/ledgerline-api-0.31.0.jar", `2023-08-09T08:44:13.533+02:00  INFO 9921 --- [           main] i.l.api.LedgerApplicationKt              : No active profile set, falling back to 1 default profile: "default"
2023-08-09T08:44:15.610+02:00  WARN 9921 --- [           main] ConfigServletWebServerApplicationContext : Exception encountered during context initialization - cancelling refresh attempt: org.springframework.beans.factory.UnsatisfiedDependencyException: Error creating bean with name 'entityManagerFactory'
2023-08-09T08:44:15.655+02:00 ERROR 9921 --- [           main] o.s.b.d.LoggingFailureAnalysisReporter   : 

***************************
APPLICATION FAILED TO START
***************************

Description:

Failed to configure a DataSource: 'url' attribute is not specified and no embedded datasource could be configured.

Reason: Failed to determine a suitable driver class


Action:

Consider the following:
	If you want an embedded database (H2, HSQL or Derby), please put it on the classpath.
	If you have database settings to be loaded from a particular profile you may need to activate it (no profiles are currently active).
`, "jvm-datasource-profile", "hand: stored")

	h.note(Note{ID: "jvm-kotlin-jvm-target", Project: "routeplan", OS: "linux", Lang: "kotlin", At: day(2025, time.February, 11),
		Title:   "kotlin and java compile tasks disagree on jvm target",
		What:    "Inconsistent JVM-target compatibility detected for tasks 'compileJava' (17) and 'compileKotlin' (21).",
		Why:     "java.sourceCompatibility was set to 17 in the convention plugin, but Kotlin picked up the JDK running Gradle (21) as its target.",
		Where:   "buildSrc/src/main/kotlin/routeplan.kotlin-conventions.gradle.kts",
		Learned: "Set one toolchain for both: kotlin { jvmToolchain(17) } and drop sourceCompatibility. Don't set kotlin.jvm.target.validation.mode=warning, that only hides it until runtime UnsupportedClassVersionError.",
	})
	h.ask("jvm-kotlin-jvm-target/1", "routeplan", "linux", "./gradlew :matcher:build", `> Task :matcher:compileKotlin FAILED
e: file:///home/deniz/routeplan/matcher/src/main/kotlin/routeplan/matcher/Graph.kt:41:9 Variable 'visited' is never used

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':matcher:compileKotlin'.
> Inconsistent JVM-target compatibility detected for tasks 'compileJava' (17) and 'compileKotlin' (21).

  Consider using JVM Toolchain: https://kotl.in/gradle/jvm/toolchain
  Learn more about JVM-target validation: https://kotl.in/gradle/jvm/target-validation 

* Try:
> Run with --stacktrace option to get the stack trace.
> Run with --info or --debug option to get more log output.
> Run with --scan to get full insights.
> Get more help at https://help.gradle.org.

BUILD FAILED in 7s
9 actionable tasks: 2 executed, 7 up-to-date`, "jvm-kotlin-jvm-target", "hand: stored")

	h.note(Note{ID: "jvm-nexus-401", Project: "parcelhub", OS: "windows", Lang: "java", At: day(2022, time.November, 2),
		Title:   "401 from nexus when resolving shared-model",
		What:    "Could not transfer artifact com.parcelhub:shared-model:pom:1.4.2 from/to internal (https://nexus.parcelhub.internal/repository/maven-releases/): status code: 401, reason phrase: Unauthorized (401)",
		Why:     "settings.xml had <server><id>parcelhub-internal</id> but the pom's repository id is 'internal'; maven sends credentials only for a matching id.",
		Where:   "%USERPROFILE%\\.m2\\settings.xml, pom.xml",
		Learned: "server id in settings.xml must equal the repository id in the pom (or the mirror id if a mirror is used). mvn help:effective-settings to check.",
	})
	h.note(Note{ID: "jvm-nexus-token", Project: "parcelhub", OS: "windows", Lang: "java", At: day(2025, time.June, 16),
		Title:      "Nexus 401 again after the SSO migration: use a user token",
		Supersedes: "jvm-nexus-401",
		What:       "Maven gets §status code: 401, reason phrase: Unauthorized (401)§ from nexus.parcelhub.internal even though the server id matches now.",
		Why:        "IT moved Nexus to SSO; the LDAP passwords in settings.xml are no longer accepted for API access, only user tokens.",
		Where:      "%USERPROFILE%\\.m2\\settings.xml",
		Learned:    "In the Nexus UI: profile > User Token > Access user token, put the token name/pass as username/password in the <server> entry (encrypt with mvn --encrypt-password, needs settings-security.xml). The id-mismatch fix from before is still required but no longer enough.",
	})
	h.ask("jvm-nexus-token/1", "parcelhub", "windows", "mvn -U clean install", u6crlf(`[INFO] Scanning for projects...
[INFO] 
[INFO] -------------------< com.parcelhub:parcelhub-billing >-------------------
[INFO] Building parcelhub-billing 3.2.0-SNAPSHOT
[INFO]   from pom.xml
[INFO] --------------------------------[ jar ]---------------------------------
Downloading from internal: https://nexus.parcelhub.internal/repository/maven-releases/com/parcelhub/shared-events/2.0.1/shared-events-2.0.1.pom
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  2.318 s
[INFO] Finished at: 2025-09-03T10:21:44+02:00
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal on project parcelhub-billing: Could not resolve dependencies for project com.parcelhub:parcelhub-billing:jar:3.2.0-SNAPSHOT: Failed to collect dependencies at com.parcelhub:shared-events:jar:2.0.1: Failed to read artifact descriptor for com.parcelhub:shared-events:jar:2.0.1: The following artifacts could not be resolved: com.parcelhub:shared-events:pom:2.0.1 (absent): Could not transfer artifact com.parcelhub:shared-events:pom:2.0.1 from/to internal (https://nexus.parcelhub.internal/repository/maven-releases/): status code: 401, reason phrase: Unauthorized (401) -> [Help 1]
`), "jvm-nexus-token", "superseded, declared", "jvm-nexus-401")

	h.note(Note{ID: "jvm-major65-mac", Project: "routeplan", OS: "darwin", Lang: "kotlin", At: day(2023, time.December, 1),
		Title:   "gradle 7.6 + jdk 21 = Unsupported class file major version 65 (mac)",
		What:    "§BUG! exception in phase 'semantic analysis' in source unit '_BuildScript_' Unsupported class file major version 65§",
		Why:     "brew upgraded openjdk to 21 and JAVA_HOME follows it; the wrapper is still Gradle 7.6 which can't run on 21.",
		Learned: "Pin the shell to 17 until the wrapper upgrade lands: export JAVA_HOME=$(/usr/libexec/java_home -v 17) in ~/.zshrc (needs temurin@17 cask). /usr/libexec/java_home -V lists what's installed.",
		Fix:     "export JAVA_HOME=$(/usr/libexec/java_home -v 17)"})
	h.note(Note{ID: "jvm-major65-win", Project: "routeplan", OS: "windows", Lang: "kotlin", At: day(2024, time.February, 20),
		Title:   "Unsupported class file major version 65 on the Windows laptop",
		What:    "gradlew.bat build -> §Unsupported class file major version 65§ while compiling the build script",
		Why:     "The Oracle JDK 21 installer put C:\\Program Files\\Common Files\\Oracle\\Java\\javapath first in the system PATH, ahead of JAVA_HOME\\bin, so the wrapper's daemon starts on 21.",
		Learned: "Either remove the javapath entry from the system PATH, or pin Gradle: org.gradle.java.home=C:/Program Files/Eclipse Adoptium/jdk-17.0.10.7-hotspot in %USERPROFILE%\\.gradle\\gradle.properties. Open a new terminal after changing PATH; gradlew --stop kills the old daemon.",
		Fix:     "gradlew --stop"})
	h.ask("jvm-major65-mac/1", "routeplan", "darwin", "./gradlew tasks", `Starting a Gradle Daemon (subsequent builds will be faster)

FAILURE: Build failed with an exception.

* Where:
Build file '/Users/deniz/src/routeplan/importer/build.gradle'

* What went wrong:
Could not compile build file '/Users/deniz/src/routeplan/importer/build.gradle'.
> startup failed:
  General error during semantic analysis: Unsupported class file major version 65

  java.lang.IllegalArgumentException: Unsupported class file major version 65
  	at groovyjarjarasm.asm.ClassReader.<init>(ClassReader.java:199)
  	at groovyjarjarasm.asm.ClassReader.<init>(ClassReader.java:180)
  	at org.codehaus.groovy.ast.decompiled.AsmDecompiler.parseClass(AsmDecompiler.java:81)

* Try:
> Run with --info or --debug option to get more log output.

BUILD FAILED in 3s`, "jvm-major65-mac", "twin on another system")
	h.ask("jvm-major65-win/1", "routeplan", "windows", `gradlew.bat :importer:build`, u6crlf(`
FAILURE: Build failed with an exception.

* Where:
Build file 'C:\Users\deniz\src\routeplan\importer\build.gradle'

* What went wrong:
Could not compile build file 'C:\Users\deniz\src\routeplan\importer\build.gradle'.
> startup failed:
  General error during semantic analysis: Unsupported class file major version 65

  java.lang.IllegalArgumentException: Unsupported class file major version 65
  	at groovyjarjarasm.asm.ClassReader.<init>(ClassReader.java:199)
  	at org.codehaus.groovy.control.ClassNodeResolver.findByClassLoading(ClassNodeResolver.java:191)
...
BUILD FAILED in 5s
`), "jvm-major65-win", "twin on another system")

	h.note(Note{ID: "jvm-lombok-jdk21", Project: "parcelhub", OS: "linux", Lang: "java", At: day(2024, time.May, 27),
		Title:   "lombok blows up javac on JDK 21",
		What:    "maven-compiler-plugin: java.lang.NoSuchFieldError: Class com.sun.tools.javac.tree.JCTree$JCImport does not have member field 'com.sun.tools.javac.tree.JCTree qualid'",
		Why:     "lombok 1.18.26 hacks javac internals that changed in 21",
		Learned: "lombok >= 1.18.30 supports 21. bumped lombok.version in the parent pom, also the annotationProcessorPaths entry which had its own hardcoded version (that's why the first bump did nothing).",
	})
	h.ask("jvm-lombok-jdk21/1", "parcelhub", "linux", "mvn -B -pl parcelhub-billing compile", `[INFO] --- compiler:3.11.0:compile (default-compile) @ parcelhub-billing ---
[INFO] Changes detected - recompiling the module! :source
[INFO] Compiling 188 source files with javac [debug release 21] to target/classes
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project parcelhub-billing: Fatal error compiling: java.lang.NoSuchFieldError: Class com.sun.tools.javac.tree.JCTree$JCImport does not have member field 'com.sun.tools.javac.tree.JCTree qualid' -> [Help 1]
[ERROR] 
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.`, "jvm-lombok-jdk21", "hand: stored")

	h.ask("jvm-gradle-resolve/1", "ledgerline", "linux", "./gradlew dependencies --configuration runtimeClasspath", `> Task :dependencies FAILED

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':dependencies'.
> Could not resolve all files for configuration ':runtimeClasspath'.
   > Could not find org.jetbrains.exposed:exposed-java-time:0.99.1.
     Searched in the following locations:
       - https://repo.maven.apache.org/maven2/org/jetbrains/exposed/exposed-java-time/0.99.1/exposed-java-time-0.99.1.pom
     Required by:
         project :

* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 2s`, "", "same tool, another error")
	h.ask("jvm-maven-compile/1", "parcelhub", "windows", "mvn -q compile", u6crlf(`[ERROR] COMPILATION ERROR : 
[ERROR] /C:/Users/jonas/work/parcelhub/parcelhub-tracking/src/main/java/com/parcelhub/tracking/ShipmentMapper.java:[57,38] cannot find symbol
  symbol:   method getCarrierCode()
  location: variable dto of type com.parcelhub.tracking.api.ShipmentDto
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project parcelhub-tracking: Compilation failure
[ERROR] /C:/Users/jonas/work/parcelhub/parcelhub-tracking/src/main/java/com/parcelhub/tracking/ShipmentMapper.java:[57,38] cannot find symbol
[ERROR]   symbol:   method getCarrierCode()
[ERROR]   location: variable dto of type com.parcelhub.tracking.api.ShipmentDto
`), "", "same tool, another error")
	h.ask("jvm-bean-cycle/2", "routeplan", "linux", "./gradlew :service:bootRun", `***************************
APPLICATION FAILED TO START
***************************

Description:

The dependencies of some of the beans in the application context form a cycle:

┌─────┐
|  tripPlanner defined in file [/home/deniz/routeplan/service/build/classes/kotlin/main/routeplan/service/TripPlanner.class]
↑     ↓
|  stopIndex defined in file [/home/deniz/routeplan/service/build/classes/kotlin/main/routeplan/service/StopIndex.class]
└─────┘


Action:

Relying upon circular references is discouraged and they are prohibited by default. Update your application to remove the dependency cycle between beans. As a last resort, it may be possible to break the cycle automatically by setting spring.main.allow-circular-references to true.

> Task :service:bootRun FAILED`, "", "another project's project note")
}
