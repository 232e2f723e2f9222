package replay

import "time"

// The notes that describe no failure (conventions, decisions, how-tos)
// and the failures no note is about: the same kind of failure about
// another object, or another failure altogether, in the same stacks.
func unseen6Never(h *hand) {
	h.note(Note{ID: "nf-flyway-timestamps", Project: "ledgerline", OS: "linux", Lang: "sql", At: day(2022, time.April, 19), Type: "decision", NoFailure: true,
		Title:   "Flyway migration versions are timestamps",
		What:    "Decided: new migrations are named V{yyyyMMddHHmm}__what_it_does.sql (e.g. V202204191030__add_statement_period.sql) instead of V15, V16...",
		Why:     "two branches kept picking the same next integer; timestamps never collide and sort in the order they were written. outOfOrder=true stays off in prod.",
		Where:   "src/main/resources/db/migration/",
		Learned: "Old V1..V14 stay as they are; Flyway compares versions numerically so the timestamps sort after them.",
	})
	h.note(Note{ID: "nf-central-packages", Project: "clinicq", OS: "windows", Lang: "csharp", At: day(2023, time.February, 7), Type: "decision", NoFailure: true,
		Title:   "NuGet versions live in Directory.Packages.props",
		What:    "We use Central Package Management: every PackageReference in a csproj has no Version, versions are in Directory.Packages.props at the repo root.",
		Why:     "eleven projects drifted to three different EF Core versions",
		Where:   "Directory.Packages.props, Directory.Build.props",
		Learned: "To bump a package edit only Directory.Packages.props. VersionOverride in a csproj needs a comment explaining why.",
	})
	h.note(Note{ID: "nf-rails-service-objects", Project: "tenantly", OS: "darwin", Lang: "ruby", At: day(2024, time.June, 25), Type: "pattern", NoFailure: true,
		Title:   "how we write service objects",
		What:    "Business operations go in app/services/<domain>/<verb_noun>.rb, one public .call, return a Result (success?/value/error), never raise for expected failures.",
		Why:     "controllers and jobs were doing the same multi-step tenant provisioning in three places",
		Where:   "app/services/",
		Learned: "Tenants::Provision.call(params) is the example to copy. Tenant scoping is done by the caller, services receive the tenant explicitly.",
	})
	h.note(Note{ID: "nf-settings-env", Project: "pollen-api", OS: "linux", Lang: "python", At: day(2025, time.January, 28), Type: "pattern", NoFailure: true,
		Title:   "configuration: env only, documented in .env.example",
		What:    "All settings come from environment variables read by app/config.py (pydantic-settings); no settings files per environment. Every variable must have a line in .env.example with a comment.",
		Why:     "prod/staging differences were hiding in three yaml files nobody reviewed",
		Where:   "app/config.py, .env.example",
		Learned: "Add the field to Settings with a default only if the default is safe for prod.",
	})
	h.note(Note{ID: "nf-release-changesets", Project: "storefront-next", OS: "darwin", Lang: "typescript", At: day(2026, time.January, 13), Type: "pattern", NoFailure: true,
		Title:   "cutting a storefront release",
		What:    "How to release: every PR that changes behaviour adds a changeset (pnpm changeset); to release, merge the 'Version Packages' PR the bot opens, the tag push deploys production.",
		Why:     "writing the changelog by hand at release time kept missing things",
		Where:   ".changeset/, .github/workflows/release.yml",
		Learned: "Hotfix: branch from the last tag, changeset with patch, same flow.",
	})
	h.note(Note{ID: "nf-conventional-commits", Project: "harborview", Scope: "global", OS: "windows", Lang: "shell", At: day(2026, time.February, 16), Type: "decision", NoFailure: true,
		Title:   "commit messages: Conventional Commits in every repo",
		What:    "All repos use Conventional Commits (feat:, fix:, chore:, docs:, refactor:, with ! for breaking). Scope in parentheses is the package or service.",
		Why:     "release tooling (changesets, release-please) reads them and reviewers skim history by type",
		Learned: "commitlint runs in CI; squash merges take the PR title, so the PR title must follow the format too.",
	})

	// The same kind of failure as a stored note, about an object no note
	// is about.
	h.ask("never-jvm-snakeyaml", "ledgerline", "linux", "./gradlew bootRun", `2023-05-11T09:02:17.404Z ERROR 1 --- [           main] o.s.boot.SpringApplication               : Application run failed

java.lang.NoSuchMethodError: 'void org.yaml.snakeyaml.representer.Representer.<init>()'
	at org.springframework.boot.env.OriginTrackedYamlLoader.createYaml(OriginTrackedYamlLoader.java:71)
	at org.springframework.beans.factory.config.YamlProcessor.process(YamlProcessor.java:145)
	at org.springframework.boot.env.OriginTrackedYamlLoader.load(OriginTrackedYamlLoader.java:83)
	at org.springframework.boot.env.YamlPropertySourceLoader.load(YamlPropertySourceLoader.java:50)
	at org.springframework.boot.context.config.StandardConfigDataLoader.load(StandardConfigDataLoader.java:54)
	at org.springframework.boot.context.config.ConfigDataLoaders.load(ConfigDataLoaders.java:96)`, "", "never stored: same kind, another object")
	h.ask("never-jvm-release-21", "parcelhub", "linux", "mvn -B package", `[INFO] --- compiler:3.11.0:compile (default-compile) @ parcelhub-api ---
[INFO] Changes detected - recompiling the module! :dependency
[INFO] Compiling 96 source files with javac [debug release 21] to target/classes
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project parcelhub-api: Fatal error compiling: error: release version 21 not supported -> [Help 1]`, "", "never stored: same kind, another object")
	h.ask("never-jvm-port-8080", "routeplan", "darwin", "./gradlew :service:bootRun", `2025-09-18T14:40:09.991+02:00 ERROR 71231 --- [           main] o.s.b.d.LoggingFailureAnalysisReporter   : 

***************************
APPLICATION FAILED TO START
***************************

Description:

Web server failed to start. Port 8080 was already in use.

Action:

Identify and stop the process that's listening on port 8080 or configure this application to listen on another port.

> Task :service:bootRun FAILED`, "", "never stored: same kind, another object")
	h.ask("never-gradle-429", "routeplan", "linux", "./gradlew build", `> Could not resolve all files for configuration ':matcher:compileClasspath'.
   > Could not resolve com.google.guava:guava:33.2.1-jre.
     Required by:
         project :matcher
      > Could not resolve com.google.guava:guava:33.2.1-jre.
         > Could not get resource 'https://repo.maven.apache.org/maven2/com/google/guava/guava/33.2.1-jre/guava-33.2.1-jre.pom'.
            > Could not GET 'https://repo.maven.apache.org/maven2/com/google/guava/guava/33.2.1-jre/guava-33.2.1-jre.pom'. Received status code 429 from server: Too Many Requests`, "", "never stored: another failure")
	h.ask("never-jvm-hikari-timeout", "ledgerline", "linux", "kubectl -n payments logs deploy/ledger-api --tail=20", `2025-11-03T10:44:02.118Z  WARN 1 --- [nio-8080-exec-7] o.h.engine.jdbc.spi.SqlExceptionHelper   : SQL Error: 0, SQLState: 08003
2025-11-03T10:44:02.118Z ERROR 1 --- [nio-8080-exec-7] o.h.engine.jdbc.spi.SqlExceptionHelper   : HikariPool-1 - Connection is not available, request timed out after 30000ms (total=10, active=10, idle=0, waiting=37).
2025-11-03T10:44:02.121Z ERROR 1 --- [nio-8080-exec-7] o.a.c.c.C.[.[.[/].[dispatcherServlet]    : Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing failed: org.springframework.dao.DataAccessResourceFailureException: Unable to acquire JDBC Connection] with root cause

java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30000ms (total=10, active=10, idle=0, waiting=37).`, "", "never stored: another failure")
	h.ask("never-ef-dbcontext", "clinicq", "windows", "dotnet ef migrations add AddWaitlist", u6crlf(`Build started...
Build succeeded.
Unable to create a 'DbContext' of type 'ClinicDbContext'. The exception 'Unable to resolve service for type 'Microsoft.EntityFrameworkCore.DbContextOptions§1[ClinicQ.Infrastructure.Persistence.ClinicDbContext]' while attempting to activate 'ClinicQ.Infrastructure.Persistence.ClinicDbContext'.' was thrown while attempting to create an instance. For the different patterns supported at design time, see https://go.microsoft.com/fwlink/?linkid=851728
`), "", "never stored: same kind, another object")
	h.ask("never-dotnet-test-timeout", "fleetdesk", "linux", "dotnet test --blame-hang-timeout 2m", `Starting test execution, please wait...
A total of 1 test files matched the specified pattern.
The active test run was aborted. Reason: Test host process crashed
Data collector 'Blame' message: The specified inactivity time of 2 minutes has elapsed. Collecting hang dumps from testhost and its child processes.
Data collector 'Blame' message: Dumping 4121 - testhost.
The active Test Run was aborted because the host process exited unexpectedly. Please inspect the call stack above, if available, to get more information about where the exception originated from.
The test running when the crash occurred: 
Fleetdesk.Worker.Tests.TelemetryConsumerTests.Consumes_Until_Cancelled

Test Run Aborted.`, "", "never stored: another failure")
	h.ask("never-nuget-nu1101", "clinicq", "linux", "dotnet restore", `  Determining projects to restore...
/src/clinicq/src/ClinicQ.Api/ClinicQ.Api.csproj : error NU1101: Unable to find package ClinicQ.Contracts. No packages exist with this id in source(s): nuget.org
  Failed to restore /src/clinicq/src/ClinicQ.Api/ClinicQ.Api.csproj (in 1.21 sec).`, "", "never stored: same kind, another object")
	h.ask("never-rails-irreversible", "tenantly", "linux", "bin/rails db:rollback", `== 20250301101500 DropLegacyAuditTables: reverting ============================
bin/rails aborted!
StandardError: An error has occurred, this and all later migrations canceled: (StandardError)

ActiveRecord::IrreversibleMigration

This migration uses drop_table, which is not automatically reversible.
To make the migration reversible you can either:
1. Define #up and #down methods in place of the #change method.
2. Use the #reversible method to define reversible behavior.`, "", "never stored: same kind, another object")
	h.ask("never-rails-pending", "bakery-pos", "darwin", "bundle exec rspec", `/Users/lena/src/bakery-pos/vendor/bundle/ruby/3.3.0/gems/activerecord-7.1.3/lib/active_record/migration.rb:754:in §check_all_pending!': (ActiveRecord::PendingMigrationError)

Migrations are pending. To resolve this issue, run:

        bin/rails db:migrate RAILS_ENV=test

You have 2 pending migrations:

db/migrate/20250611090000_add_loyalty_points_to_customers.rb
db/migrate/20250611091500_create_loyalty_events.rb`, "", "never stored: another failure")
	h.ask("never-rails-cred-missing", "tenantly", "linux", "RAILS_ENV=production bin/rails assets:precompile", `bin/rails aborted!
ActiveSupport::EncryptedFile::MissingKeyError: Missing encryption key to decrypt file with. Ask your team for your master key and write it to /app/config/credentials/production.key or put it in the ENV['RAILS_MASTER_KEY']. (ActiveSupport::EncryptedFile::MissingKeyError)
/app/config/environments/production.rb:12:in §block in <main>'
Tasks: TOP => environment
(See full trace by running task with --trace)`, "", "never stored: another failure")
	h.ask("never-rails-gem-yanked", "bakery-pos", "linux", "bundle install", `Fetching gem metadata from https://rubygems.org/.........
Your bundle is locked to mimemagic (0.3.5) from rubygems repository https://rubygems.org/ or installed locally, but that version can no longer be found in that source. That means the author of mimemagic (0.3.5) has removed it. You'll need to update your bundle to a version other than mimemagic (0.3.5) that hasn't been removed in order to install.`, "", "never stored: another failure")
	h.ask("never-php-class-not-found", "shopwright", "linux", "php artisan queue:work --once", `
   Error 

  Class "App\Jobs\SyncInventory" not found

  at vendor/laravel/framework/src/Illuminate/Queue/CallQueuedHandler.php:95
     91▕      */
     92▕     protected function getCommand(array $data)
     93▕     {
     94▕         if (str_starts_with($data['command'], 'O:')) {
  ➜  95▕             return unserialize($data['command']);
     96▕         }`, "", "never stored: another failure")
	h.ask("never-php-pdo-driver", "invoicely", "linux", "bin/console doctrine:migrations:migrate -n", `
In ExceptionConverter.php line 117:
                                                    
  An exception occurred in the driver: could not find driver  
                                                    

In Exception.php line 28:
                        
  could not find driver  
                        

In Driver.php line 28:
                        
  could not find driver  
                        

doctrine:migrations:migrate [--write-sql [WRITE-SQL]] [--dry-run] [--query-time] [--allow-no-migration] [--all-or-nothing [ALL-OR-NOTHING]] [--] [<version>]`, "", "never stored: another failure")
	h.ask("never-phpunit-risky", "invoicely", "darwin", "vendor/bin/phpunit --fail-on-risky", `PHPUnit 11.2.8 by Sebastian Bergmann and contributors.

Runtime:       PHP 8.3.10
Configuration: /Users/ola/invoicely/phpunit.xml.dist

......R.........................                                  32 / 32 (100%)

Time: 00:00.311, Memory: 22.00 MB

There was 1 risky test:

1) App\Tests\Unit\PdfRendererTest::testRendersFooter
This test did not perform any assertions

/Users/ola/invoicely/tests/Unit/PdfRendererTest.php:41

OK, but there were issues!
Tests: 32, Assertions: 77, Risky: 1.`, "", "same tool, another error")
	h.ask("never-django-csrf", "rosterapp", "linux", "pytest teams/tests/test_api.py", `FAILED teams/tests/test_api.py::test_create_team_via_form - AssertionError: assert 403 == 302
 +  where 403 = <HttpResponseForbidden status_code=403, "text/html; charset=utf-8">.status_code
----------------------------- Captured log call ------------------------------
WARNING  django.security.csrf:log.py:241 Forbidden (Origin checking failed - https://roster.example.com does not match any trusted origins.): /teams/new/
1 failed, 18 passed in 2.11s`, "", "never stored: another failure")
	h.ask("never-django-mig-missing-dep", "rosterapp", "darwin", "python manage.py migrate", `Traceback (most recent call last):
  File "/Users/ines/rosterapp/.venv/lib/python3.12/site-packages/django/db/migrations/loader.py", line 187, in check_key
    return self.graph.leaf_nodes(key[0])[0]
django.db.migrations.exceptions.NodeNotFoundError: Migration scheduling.0033_shift_break_minutes dependencies reference nonexistent parent node ('teams', '0046_team_region')`, "", "never stored: same kind, another object")
	h.ask("never-werkzeug-url-quote", "mailroom", "linux", "flask --app mailroom run", `Traceback (most recent call last):
  File "/srv/mailroom/.venv/bin/flask", line 5, in <module>
    from flask.cli import main
  File "/srv/mailroom/.venv/lib/python3.11/site-packages/flask/__init__.py", line 7, in <module>
    from .app import Flask as Flask
  File "/srv/mailroom/.venv/lib/python3.11/site-packages/flask/app.py", line 28, in <module>
    from werkzeug.urls import url_quote
ImportError: cannot import name 'url_quote' from 'werkzeug.urls' (/srv/mailroom/.venv/lib/python3.11/site-packages/werkzeug/urls.py)`, "", "never stored: same kind, another object")
	h.ask("never-celery-kombu", "mailroom", "darwin", "python -c 'from mailroom.tasks import send_digest; send_digest.delay(7)'", `Traceback (most recent call last):
  File "/Users/ines/mailroom/.venv/lib/python3.12/site-packages/kombu/utils/functional.py", line 32, in __call__
    return self.__value__
AttributeError: 'ChannelPromise' object has no attribute '__value__'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/Users/ines/mailroom/.venv/lib/python3.12/site-packages/redis/connection.py", line 357, in connect
    sock = self.retry.call_with_retry(
redis.exceptions.ConnectionError: Error 61 connecting to localhost:6379. Connection refused.

The above exception was the direct cause of the following exception:

kombu.exceptions.OperationalError: Error 61 connecting to localhost:6379. Connection refused.`, "", "never stored: another failure")
	h.ask("never-sqlalchemy-detached", "pollen-api", "linux", "pytest tests/test_alerts.py -q", `F.......
=================================== FAILURES ===================================
__________________________ test_alert_region_name ______________________________
tests/test_alerts.py:31: in test_alert_region_name
    assert alert.region.name == "Brandenburg"
.venv/lib/python3.11/site-packages/sqlalchemy/orm/attributes.py:566: in __get__
    return self.impl.get(state, dict_)
E   sqlalchemy.orm.exc.DetachedInstanceError: Parent instance <Alert at 0x7f3c9a2b1d50> is not bound to a Session; lazy load operation of attribute 'region' cannot proceed (Background on this error at: https://sqlalche.me/e/20/bhk3)
1 failed, 7 passed in 0.93s`, "", "never stored: another failure")
	h.ask("never-jest-open-handles", "tripmate", "linux", "npx jest --ci", `Test Suites: 12 passed, 12 total
Tests:       88 passed, 88 total
Snapshots:   0 total
Time:        14.312 s
Ran all test suites.
Jest did not exit one second after the test run has completed.

This usually means that there are asynchronous operations that weren't stopped in your tests. Consider running Jest with §--detectOpenHandles§ to troubleshoot this issue.
Error: The operation was canceled.`, "", "never stored: another failure")
	h.ask("never-ts-module-resolution", "metricsboard", "linux", "pnpm -r typecheck", `packages/api typecheck$ tsc --noEmit
packages/api typecheck: src/routes/metrics.ts(3,28): error TS2307: Cannot find module '@metricsboard/shared/schemas' or its corresponding type declarations.
packages/api typecheck: src/routes/metrics.ts(3,28): error TS2307:   There are types at '/srv/metricsboard/packages/shared/dist/schemas.d.ts', but this result could not be resolved under your current 'moduleResolution' setting. Consider updating to 'node16', 'nodenext', or 'bundler'.
packages/api typecheck: Failed
/srv/metricsboard/packages/api:
 ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @metricsboard/api@0.12.0 typecheck: §tsc --noEmit§
Exit status 2`, "", "never stored: another failure")
	h.ask("never-next-module-not-found", "storefront-next", "darwin", "pnpm dev", `  ▲ Next.js 14.2.5
  - Local:        http://localhost:3000

 ✓ Starting...
 ✓ Ready in 1843ms
 ○ Compiling /cart ...
 ⨯ ./app/cart/CartDrawer.tsx:4:1
Module not found: Can't resolve '@/components/ui/sheet'
  2 | 
  3 | import { useCart } from '@/lib/cart'
> 4 | import { Sheet, SheetContent } from '@/components/ui/sheet'
    | ^
  5 | 

https://nextjs.org/docs/messages/module-not-found`, "", "never stored: another failure")
	h.ask("never-prisma-p2002", "tripmate", "darwin", "npx prisma db seed", `Running seed command §tsx prisma/seed.ts§ ...
PrismaClientKnownRequestError: 
Invalid §prisma.user.create()§ invocation in
/Users/sam/tripmate/prisma/seed.ts:12:21

   9 const users = JSON.parse(readFileSync('prisma/users.json', 'utf8'))
  10 
  11 for (const u of users) {
→ 12   await prisma.user.create(
Unique constraint failed on the fields: (§email§)
    at In.handleRequestError (/Users/sam/tripmate/node_modules/@prisma/client/runtime/library.js:122:6877) {
  code: 'P2002',
  clientVersion: '5.16.1',
  meta: { modelName: 'User', target: [ 'email' ] }
}

An error occurred while running the seed command:
Error: Command failed with exit code 1: tsx prisma/seed.ts`, "", "never stored: same kind, another object")
	h.ask("never-pnpm-lockfile-breaking", "metricsboard", "linux", "pnpm install --frozen-lockfile", ` WARN  Ignoring not compatible lockfile at /srv/metricsboard/pnpm-lock.yaml
 ERR_PNPM_LOCKFILE_BREAKING_CHANGE  Lockfile /srv/metricsboard/pnpm-lock.yaml not compatible with current pnpm

Run with the --force parameter to recreate the lockfile.`, "", "never stored: same kind, another object")
	h.ask("never-pg-unique", "rosterapp", "linux", "python manage.py loaddata fixtures/teams.json", `Traceback (most recent call last):
  File "/srv/rosterapp/.venv/lib/python3.12/site-packages/django/db/backends/utils.py", line 105, in _execute
    return self.cursor.execute(sql, params)
psycopg.errors.UniqueViolation: duplicate key value violates unique constraint "teams_team_pkey"
DETAIL:  Key (id)=(1) already exists.

django.db.utils.IntegrityError: Problem installing fixture '/srv/rosterapp/fixtures/teams.json': Could not load teams.Team(pk=1): duplicate key value violates unique constraint "teams_team_pkey"
DETAIL:  Key (id)=(1) already exists.`, "", "never stored: another failure")
	h.ask("never-mysql-lock-wait", "shopwright", "linux", "php artisan orders:close-stale", `
   Illuminate\Database\QueryException 

  SQLSTATE[HY000]: General error: 1205 Lock wait timeout exceeded; try restarting transaction (Connection: mysql, SQL: update §orders§ set §status§ = closed, §orders§.§updated_at§ = 2025-08-01 03:00:12 where §status§ = pending and §created_at§ < 2025-07-02 03:00:12)

  at vendor/laravel/framework/src/Illuminate/Database/Connection.php:825`, "", "never stored: another failure")
	h.ask("never-redis-wrongtype", "tenantly", "darwin", "bin/rails runner 'Rails.cache.increment(\"tenant:42:api_calls\")'", `/Users/kai/src/tenantly/vendor/bundle/ruby/3.3.0/gems/redis-client-0.22.2/lib/redis_client/connection_mixin.rb:50:in 'RedisClient::ConnectionMixin#call': WRONGTYPE Operation against a key holding the wrong kind of value (RedisClient::CommandError)
	from /Users/kai/src/tenantly/vendor/bundle/ruby/3.3.0/gems/redis-client-0.22.2/lib/redis_client.rb:258:in 'block (2 levels) in RedisClient#call'`, "", "never stored: same kind, another object")
	h.ask("never-mongo-timeout", "tripmate", "windows", "npm run dev", u6crlf(`
> tripmate-api@2.5.0 dev
> ts-node-dev --respawn src/server.ts

[INFO] 08:41:55 ts-node-dev ver. 2.0.0 (using ts-node ver. 10.9.2, typescript ver. 5.4.5)
MongooseError: Operation §trips.find()§ buffering timed out after 10000ms
    at Timeout.<anonymous> (C:\Users\sam\tripmate\node_modules\mongoose\lib\drivers\node-mongodb-native\collection.js:185:23)
    at listOnTimeout (node:internal/timers:573:17)
    at process.processTimers (node:internal/timers:514:7)
[ERROR] 08:42:05 MongooseError: Operation §trips.find()§ buffering timed out after 10000ms
`), "", "never stored: another failure")
	h.ask("never-k8s-oomkilled", "harborview", "linux", "kubectl -n pollen get pod pollen-api-7b6c5d4f3-9wq2x -o jsonpath='{.status.containerStatuses[0].lastState}'", `{"terminated":{"containerID":"containerd://4f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4","exitCode":137,"finishedAt":"2025-06-02T04:11:37Z","reason":"OOMKilled","startedAt":"2025-06-02T03:58:02Z"}}`, "", "never stored: another failure")
	h.ask("never-helm-no-repo", "harborview", "darwin", "helm dependency build charts/notify", `Error: no repository definition for https://charts.bitnami.com/bitnami. Please add the missing repos via 'helm repo add'`, "", "never stored: same kind, another object")
	h.ask("never-kubectl-forbidden", "harborview", "linux", "kubectl -n payments rollout restart deploy/ledger-api", `Error from server (Forbidden): deployments.apps "ledger-api" is forbidden: User "system:serviceaccount:ci:harborview-deployer" cannot patch resource "deployments" in API group "apps" in the namespace "payments"`, "", "never stored: another failure")
	h.ask("never-compose-port", "shopwright", "darwin", "./vendor/bin/sail up -d", `[+] Running 4/5
 ✔ Network shopwright_sail             Created                                 0.0s 
 ✔ Container shopwright-redis-1        Started                                 0.4s 
 ✔ Container shopwright-meilisearch-1  Started                                 0.4s 
 ⠿ Container shopwright-mysql-1        Starting                                0.5s 
 ✔ Container shopwright-laravel.test-1 Created                                 0.0s 
Error response from daemon: driver failed programming external connectivity on endpoint shopwright-mysql-1 (9c1d2e3f4a5b): Bind for 0.0.0.0:3306 failed: port is already allocated`, "", "never stored: another failure")
	h.ask("never-docker-no-space", "pollen-api", "linux", "docker build -t pollen-api:ci .", `#9 [5/7] RUN pip install --no-cache-dir -r requirements.txt
#9 41.88 ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device: '/usr/local/lib/python3.11/site-packages/pandas/_libs/tslibs'
#9 41.88 
#9 ERROR: process "/bin/sh -c pip install --no-cache-dir -r requirements.txt" did not complete successfully: exit code: 1`, "", "never stored: another failure")
	h.ask("never-aws-region", "tripmate", "linux", "aws lambda invoke --function-name tripmate-thumbnailer out.json", `
You must specify a region. You can also configure your region by running "aws configure".`, "", "never stored: same kind, another object")
	h.ask("never-gcloud-reauth", "rosterapp", "linux", "gcloud sql connect roster-pg --user=roster", `ERROR: (gcloud.sql.connect) There was a problem refreshing your current auth tokens: Reauthentication failed. cannot prompt during non-interactive execution.
Please run:

  $ gcloud auth login

to obtain new credentials.

If you have already logged in with a different account, run:

  $ gcloud config set account ACCOUNT

to select an already authenticated account to use.`, "", "never stored: same kind, another object")
	h.ask("never-gitlab-artifact-size", "parcelhub", "linux", "gitlab-runner artifacts-uploader", `Uploading artifacts...
parcelhub-tracking/target/*.jar: found 3 matching artifact files and directories 
WARNING: Uploading artifacts as "archive" to coordinator... 413 Request Entity Too Large  id=88124 responseStatus=413 Request Entity Too Large status=413 token=glcbt-64
FATAL: too large                                   
ERROR: Job failed: exit code 1`, "", "never stored: another failure")
	h.ask("never-gha-setup-node-cache", "storefront-next", "linux", "actions/setup-node@v4", `Run actions/setup-node@v4
  with:
    node-version: 20
    cache: pnpm
Found in cache @ /opt/hostedtoolcache/node/20.15.1/x64
Environment details
  node: v20.15.1
  npm: 10.7.0
  yarn: 1.22.22
Error: Unable to locate executable file: pnpm. Please verify either the file path exists or the file can be found within a directory specified by the PATH environment variable. Also check the file mode to verify the file is executable.`, "", "never stored: another failure")
	h.ask("never-jwt-signature", "tripmate", "linux", "npm test -- auth", `
 FAIL  src/auth/verify.test.ts
  ● verifyAccessToken › accepts tokens from the staging issuer

    JsonWebTokenError: invalid signature

      21 |   const key = await getSigningKey(decoded.header.kid)
      22 |   return jwt.verify(token, key, { algorithms: ['RS256'], issuer: ISSUER })
         |              ^
      23 | }

      at node_modules/jsonwebtoken/verify.js:171:19

Test Suites: 1 failed, 1 total`, "", "never stored: same kind, another object")
	h.ask("never-locale-perl", "bakery-pos", "linux", "docker compose run --rm web bin/rails db:create", `perl: warning: Setting locale failed.
perl: warning: Please check that your locale settings:
	LANGUAGE = (unset),
	LC_ALL = (unset),
	LANG = "de_DE.UTF-8"
    are supported and installed on your system.
perl: warning: Falling back to the standard locale ("C").
PG::InvalidParameterValue: ERROR:  invalid locale name: "de_DE.UTF-8"
Couldn't create 'bakery_development' database. Please check your configuration.
bin/rails aborted!
ActiveRecord::StatementInvalid: PG::InvalidParameterValue: ERROR:  invalid locale name: "de_DE.UTF-8"`, "", "never stored: same kind, another object")
	h.ask("never-dotnet-tz-windows", "fleetdesk", "linux", "dotnet test tests/Fleetdesk.Core.Tests", `  Failed Fleetdesk.Core.Tests.ShiftCalendarTests.Converts_To_Depot_Time [3 ms]
  Error Message:
   System.TimeZoneNotFoundException : The time zone ID 'W. Europe Standard Time' was not found on the local computer.
---- System.IO.FileNotFoundException : Could not find file '/usr/share/zoneinfo/W. Europe Standard Time'.
  Stack Trace:
     at System.TimeZoneInfo.FindSystemTimeZoneById(String id)
     at Fleetdesk.Core.Scheduling.ShiftCalendar..ctor(String depotZone) in /src/fleetdesk/src/Fleetdesk.Core/Scheduling/ShiftCalendar.cs:line 19

Failed!  - Failed:     1, Passed:   203, Skipped:     0, Total:   204, Duration: 1 s - Fleetdesk.Core.Tests.dll (net8.0)`, "", "never stored: same kind, another object")
}
