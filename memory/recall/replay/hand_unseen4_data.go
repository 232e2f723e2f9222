package replay

// Databases and migrations of the fourth unseen part: Django, Alembic,
// Redis, PostgreSQL extensions, MySQL replication, SQLite under Rails,
// Supabase.
func unseen4Data(h *hand) {
	h.note(Note{ID: "django-inconsistent-history", Project: "larkspur", OS: "linux", Lang: "python", At: day(2023, 2, 8),
		Title:   "migrate refuses after switching to custom user model",
		What:    "`django.db.migrations.exceptions.InconsistentMigrationHistory: Migration admin.0001_initial is applied before its dependency accounts.0001_initial on database 'default'.`",
		Why:     "AUTH_USER_MODEL = 'accounts.User' was introduced after my dev DB had already been migrated with auth.User; admin's initial migration depends on whatever the user model is.",
		Where:   "larkspur/settings/base.py, local postgres",
		Learned: "There is no clean way to retrofit a custom user model onto an existing DB; for dev just recreate it. (Prod got a hand-written migration, see PR 412.)",
		Fix:     "dropdb larkspur_dev && createdb larkspur_dev && python manage.py migrate"})
	h.ask("django-inconsistent-history/1", "larkspur", "linux", "python manage.py migrate",
		`Traceback (most recent call last):
  File "/home/ci/build/larkspur/manage.py", line 22, in <module>
    main()
  File "/home/ci/build/larkspur/manage.py", line 18, in main
    execute_from_command_line(sys.argv)
  File "/home/ci/build/larkspur/.venv/lib/python3.11/site-packages/django/core/management/__init__.py", line 442, in execute_from_command_line
    utility.execute()
  File "/home/ci/build/larkspur/.venv/lib/python3.11/site-packages/django/core/management/commands/migrate.py", line 120, in handle
    executor.loader.check_consistent_history(connection)
  File "/home/ci/build/larkspur/.venv/lib/python3.11/site-packages/django/db/migrations/loader.py", line 327, in check_consistent_history
    raise InconsistentMigrationHistory(
django.db.migrations.exceptions.InconsistentMigrationHistory: Migration admin.0001_initial is applied before its dependency accounts.0001_initial on database 'default'.
`, "django-inconsistent-history", "hand: stored")

	h.note(Note{ID: "django-merge-migrations", Project: "larkspur", OS: "darwin", Lang: "python", At: day(2024, 6, 3),
		Title:   "two 0012 migrations in billing after merging main",
		What:    "After merging main into my branch: Conflicting migrations detected; multiple leaf nodes in the migration graph: (0012_invoice_due_date, 0012_invoice_currency in billing).",
		Why:     "Both branches added a migration on top of 0011. Django won't pick an order.",
		Where:   "billing/migrations/",
		Learned: "If the two don't touch the same fields, a merge migration is all it needs; check the generated file before committing.",
		Fix:     "python manage.py makemigrations --merge --noinput billing"})
	h.ask("django-merge-migrations/1", "larkspur", "darwin", "python manage.py migrate",
		`CommandError: Conflicting migrations detected; multiple leaf nodes in the migration graph: (0012_invoice_due_date, 0012_invoice_currency in billing).
To fix them run 'python manage.py makemigrations --merge'
`, "django-merge-migrations", "hand: stored")
	h.ask("django-merge-migrations/2", "larkspur", "windows", "python manage.py test --parallel 4",
		crlf(`Found 311 test(s).
Traceback (most recent call last):
  File "C:\Users\dev\src\larkspur\manage.py", line 22, in <module>
    main()
  File "C:\Users\dev\src\larkspur\.venv\Lib\site-packages\django\core\management\commands\migrate.py", line 141, in handle
    raise CommandError(
django.core.management.base.CommandError: Conflicting migrations detected; multiple leaf nodes in the migration graph: (0019_customer_vat_id, 0019_customer_tags in crm).
To fix them run 'python manage.py makemigrations --merge'
`), "django-merge-migrations", "hand: another app's leaves, on Windows, through the test runner")
	h.ask("django-merge-migrations/elsewhere", "sorrel", "linux", "python manage.py migrate",
		`Operations to perform:
CommandError: Conflicting migrations detected; multiple leaf nodes in the migration graph: (0004_page_slug, 0004_page_seo_title in pages).
To fix them run 'python manage.py makemigrations --merge'
`, "", "another project's project note: larkspur's migration note, met in sorrel")
	h.ask("django-relation-missing", "larkspur", "linux", "pytest tests/billing -x",
		`============================= test session starts ==============================
platform linux -- Python 3.11.8, pytest-8.1.1, pluggy-1.4.0
django: version: 5.0.4, settings: larkspur.settings.test (from ini)
collected 58 items

tests/billing/test_reminders.py E

==================================== ERRORS ====================================
________________ ERROR at setup of test_reminder_sent_after_due ________________
...
E   psycopg.errors.UndefinedTable: relation "billing_reminderlog" does not exist
E   LINE 1: INSERT INTO "billing_reminderlog" ("invoice_id", "sent_at") VALUES (...
E                       ^

.venv/lib/python3.11/site-packages/psycopg/cursor.py:732: UndefinedTable
=========================== short test summary info ============================
ERROR tests/billing/test_reminders.py::test_reminder_sent_after_due - django.db.utils.ProgrammingError: relation "billing_reminderlog" does not exist
!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 2.41s ===============================
`, "", "never stored: a missing table, a migration kind no note is about")

	// Alembic: two notes on one tool.
	h.note(Note{ID: "alembic-missing-revision", Project: "tern", OS: "linux", Lang: "python", At: day(2024, 10, 1),
		Title:   "alembic can't locate revision after branch switch",
		What:    "alembic upgrade head → `Can't locate revision identified by 'a3f9c2d1e7b4'`",
		Why:     "My local DB was upgraded on a feature branch whose migration file got squashed away before merge; alembic_version still points at the deleted revision.",
		Where:   "local db, alembic_version table",
		Learned: "The schema matched main's head (the squash only renamed it), so stamping is safe. If it doesn't match, recreate the db instead.",
		Fix:     "alembic stamp --purge head"})
	h.ask("alembic-missing-revision/1", "tern", "linux", "alembic upgrade head",
		`INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
ERROR [alembic.util.messaging] Can't locate revision identified by 'c81d0e44f2a9'
  FAILED: Can't locate revision identified by 'c81d0e44f2a9'
`, "alembic-missing-revision", "hand: stored, another revision id")
	h.note(Note{ID: "alembic-multiple-heads", Project: "tern", OS: "windows", Lang: "python", At: day(2025, 4, 14),
		Title:   "Multiple head revisions are present",
		What:    "```\nFAILED: Multiple head revisions are present for given argument 'head'; please specify a specific target revision, '<branchname>@head' to narrow to a specific head, or 'heads' for all heads\n```",
		Why:     "two PRs each added a revision with the same down_revision",
		Where:   "migrations/versions/",
		Learned: "merge the heads into one revision and commit it (don't upgrade to 'heads', CI expects a single head)",
		Fix:     `alembic merge heads -m "merge heads"`})
	h.ask("alembic-multiple-heads/1", "tern", "windows", "alembic upgrade head",
		crlf(`INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.
INFO  [alembic.runtime.migration] Will assume transactional DDL.
ERROR [alembic.util.messaging] Multiple head revisions are present for given argument 'head'; please specify a specific target revision, '<branchname>@head' to narrow to a specific head, or 'heads' for all heads
  FAILED: Multiple head revisions are present for given argument 'head'; please specify a specific target revision, '<branchname>@head' to narrow to a specific head, or 'heads' for all heads
`), "alembic-multiple-heads", "hand: the other Alembic note")
	h.ask("alembic-autogen-import", "tern", "linux", `alembic revision --autogenerate -m "add webhooks"`,
		`Traceback (most recent call last):
  File "/home/ci/build/tern/.venv/bin/alembic", line 8, in <module>
    sys.exit(main())
  File "/home/ci/build/tern/.venv/lib/python3.12/site-packages/alembic/config.py", line 636, in main
    CommandLine(prog=prog).main(argv=argv)
  File "/home/ci/build/tern/migrations/env.py", line 9, in <module>
    from tern.models import Base
ModuleNotFoundError: No module named 'tern'
`, "", "same tool, another error: env.py can't import the app")

	// Redis MISCONF: a config workaround, declared replaced by the real fix.
	h.note(Note{ID: "redis-misconf-workaround", Project: "kiln", OS: "linux", Lang: "python", At: day(2022, 9, 14),
		Title:   "render workers: redis MISCONF",
		What:    "Workers crash enqueueing: redis.exceptions.ResponseError: MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk.",
		Why:     "BGSAVE failing on the redis container, didn't dig into why. Just need the queue back.",
		Where:   "kiln redis (docker compose)",
		Learned: "Turning off stop-writes-on-bgsave-error brings writes back.",
		Fix:     "docker compose exec redis redis-cli CONFIG SET stop-writes-on-bgsave-error no"})
	h.note(Note{ID: "redis-misconf-disk", Project: "kiln", OS: "linux", Lang: "python", At: day(2023, 1, 9),
		Title: "MISCONF again — real cause is the full data volume", Supersedes: "redis-misconf-workaround",
		What:    "MISCONF Redis is configured to save RDB snapshots... came back. The CONFIG SET workaround only hides it (and is lost on restart); with it on we'd silently lose the queue on a crash.",
		Why:     "Every failed BGSAVE leaves a temp-<pid>.rdb in /data; they filled the 2 GB volume, which made the next BGSAVE fail too. `INFO persistence` shows rdb_last_bgsave_status:err.",
		Where:   "kiln redis /data volume",
		Learned: "Remove the temp files and snapshot again; the volume is 10 GB now and disk usage is alerted.",
		Fix:     "docker compose exec redis sh -c 'rm -f /data/temp-*.rdb && redis-cli BGSAVE'"})
	h.ask("redis-misconf-disk/1", "kiln", "linux", "python -m kiln.worker --queues render,thumbs",
		`2023-04-02 03:11:57,204 INFO kiln.worker: starting 4 processes for queues render,thumbs
2023-04-02 03:12:03,881 ERROR kiln.worker: enqueue failed for job 8812f0
Traceback (most recent call last):
  File "/home/ci/build/kiln/kiln/worker.py", line 88, in _enqueue
    self.redis.lpush(f"q:{queue}", payload)
  File "/home/ci/build/kiln/.venv/lib/python3.10/site-packages/redis/commands/core.py", line 2710, in lpush
    return self.execute_command("LPUSH", name, *values)
  File "/home/ci/build/kiln/.venv/lib/python3.10/site-packages/redis/connection.py", line 529, in read_response
    raise response
redis.exceptions.ResponseError: MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error.
`, "redis-misconf-disk", "superseded, declared: the workaround replaced by the cause", "redis-misconf-workaround")

	h.note(Note{ID: "redis-crossslot", Project: "kiln", Scope: "global", OS: "linux", Lang: "python", At: day(2025, 2, 25),
		Title:   "Redis Cluster: CROSSSLOT on multi-key commands",
		What:    "Moved to ElastiCache cluster mode and MGET/pipelines with transactions started failing with `CROSSSLOT Keys in request don't hash to the same slot`.",
		Why:     "In cluster mode a multi-key command (MGET, MSET, SUNION, MULTI blocks, Lua with several keys) must hit one slot; our keys were job:123:status, job:123:progress etc., each hashed separately.",
		Where:   "any redis-cluster client code",
		Learned: "Put the shared part in a hash tag so the keys land in one slot: {job:123}:status, {job:123}:progress. Only the part in braces is hashed. Code change, plus a key migration."})
	h.ask("redis-crossslot/1", "kiln", "linux", "pytest tests/test_progress.py",
		`tests/test_progress.py::test_progress_roundtrip FAILED                    [100%]

=================================== FAILURES ===================================
___________________________ test_progress_roundtrip ____________________________

    def test_progress_roundtrip(cluster):
>       status, progress = cluster.mget(f"job:{JOB}:status", f"job:{JOB}:progress")

tests/test_progress.py:21:
.venv/lib/python3.10/site-packages/redis/cluster.py:1120: in execute_command
    raise e
E   redis.exceptions.ResponseError: CROSSSLOT Keys in request don't hash to the same slot
`, "redis-crossslot", "hand: stored")
	h.ask("redis-crossslot/elsewhere", "tern", "linux", "python -m tern.sync --once",
		`2025-05-19 22:40:13 [info     ] sync started                   batch=500
Traceback (most recent call last):
  File "/home/ci/build/tern/tern/sync.py", line 64, in flush
    pipe.execute()
  File "/home/ci/build/tern/.venv/lib/python3.12/site-packages/redis/asyncio/cluster.py", line 1563, in execute
    raise ResponseError(
redis.exceptions.ResponseError: Command # 1 (MULTI) of pipeline caused error: CROSSSLOT Keys in request don't hash to the same slot
`, "redis-crossslot", "global note, another project: the cluster note met in tern")

	// pgvector: the same missing extension on Linux (Docker) and macOS (Homebrew).
	h.note(Note{ID: "pgvector-docker", Project: "tern", OS: "linux", Lang: "python", At: day(2024, 5, 21),
		Title:   "CREATE EXTENSION vector fails in the compose db",
		What:    "Migration 0007 (embeddings) fails: extension \"vector\" is not available — Could not open extension control file \"/usr/share/postgresql/16/extension/vector.control\".",
		Why:     "docker-compose uses the stock postgres:16 image, which doesn't ship pgvector.",
		Where:   "docker-compose.yml (db service)",
		Learned: "Linux/Docker: use the pgvector/pgvector:pg16 image, same data dir layout so the volume keeps working.",
		Fix:     "sed -i 's#image: postgres:16#image: pgvector/pgvector:pg16#' docker-compose.yml && docker compose up -d db"})
	h.note(Note{ID: "pgvector-brew", Project: "tern", OS: "darwin", Lang: "python", At: day(2024, 6, 4),
		Title:   "macOS: pgvector for Homebrew postgresql@16",
		What:    "On my mac (brew postgresql@16, no docker) the same `extension \"vector\" is not available` / vector.control not found.",
		Why:     "`brew install pgvector` builds it for Homebrew's default postgresql (17 now), so the files land in the 17 share dir and @16 never sees them.",
		Where:   "/opt/homebrew/share/postgresql@16/extension",
		Learned: "Build pgvector from source against the @16 pg_config.",
		Fix:     "git clone --branch v0.7.4 https://github.com/pgvector/pgvector.git /tmp/pgvector && make -C /tmp/pgvector PG_CONFIG=/opt/homebrew/opt/postgresql@16/bin/pg_config install"})
	pgvector := `INFO  [alembic.runtime.migration] Running upgrade 5b1e2f0c9d3a -> 0007e8d1c2b4, embeddings
Traceback (most recent call last):
  File "%s", line 1967, in _exec_single_context
    self.dialect.do_execute(
psycopg.errors.FeatureNotSupported: extension "%s" is not available
DETAIL:  Could not open extension control file "%s": No such file or directory.
HINT:  The extension must first be installed on the system where PostgreSQL is running.

The above exception was the direct cause of the following exception:

sqlalchemy.exc.NotSupportedError: (psycopg.errors.FeatureNotSupported) extension "%s" is not available
[SQL: CREATE EXTENSION IF NOT EXISTS %s]
`
	h.ask("pgvector/linux", "tern", "linux", "alembic upgrade head",
		sprintf(pgvector, "/home/ci/build/tern/.venv/lib/python3.12/site-packages/sqlalchemy/engine/base.py", "vector", "/usr/share/postgresql/16/extension/vector.control", "vector", "vector"),
		"pgvector-docker", "twin on another system: the Docker image on Linux")
	h.ask("pgvector/darwin", "tern", "darwin", "alembic upgrade head",
		sprintf(pgvector, "/Users/kim/code/tern/.venv/lib/python3.12/site-packages/sqlalchemy/engine/base.py", "vector", "/opt/homebrew/share/postgresql@16/extension/vector.control", "vector", "vector"),
		"pgvector-brew", "twin on another system: Homebrew on macOS")
	h.ask("postgis-missing", "tern", "linux", "alembic upgrade head",
		sprintf(pgvector, "/home/ci/build/tern/.venv/lib/python3.12/site-packages/sqlalchemy/engine/base.py", "postgis", "/usr/share/postgresql/16/extension/postgis.control", "postgis", "postgis"),
		"", "never stored: another extension missing, no note about postgis")

	// MySQL replication.
	h.note(Note{ID: "mysql-binlog-1236", Project: "shopfloor", OS: "linux", Lang: "sql", At: day(2022, 5, 17),
		Title:   "replica stopped: error 1236 after primary maintenance",
		What:    "check-replica alert. SHOW REPLICA STATUS had Replica_IO_Running: No and\n\n    Last_IO_Error: Got fatal error 1236 from source when reading data from binary log: 'Could not find first log file name in binary log index file'\n\nThe replica was down ~3 days for the disk swap.",
		Why:     "binlog_expire_logs_seconds on the primary is 2 days; the binlog the replica still needed (mysql-bin.004417) had been purged. Nothing to resume from.",
		Where:   "db-replica-2, shopfloor primary binlog retention",
		Learned: "Can't be repaired in place: re-seed the replica from a fresh clone of the primary (CLONE plugin), then START REPLICA with auto-position. And keep retention longer than the longest planned replica downtime (now 7 days).",
		Fix:     "mysql -h db-replica-2 -e \"STOP REPLICA; CLONE INSTANCE FROM 'clone'@'db-primary':3306 IDENTIFIED BY '$CLONE_PW';\""})
	replicaTail := `+ mysql -h db-replica-2 -e 'SHOW REPLICA STATUS\G'
*************************** 1. row ***************************
             Replica_IO_State:
                  Source_Host: db-primary
                  Source_User: repl
                  Source_Port: 3306
              Source_Log_File: %s
          Read_Source_Log_Pos: 4
           Replica_IO_Running: %s
          Replica_SQL_Running: %s
                   Last_Errno: %s
                   Last_Error: %s
                Last_IO_Errno: %s
                Last_IO_Error: %s
        Seconds_Behind_Source: NULL
CRITICAL: replication broken on db-replica-2
`
	h.ask("mysql-binlog-1236/1", "shopfloor", "linux", "./ops/check-replica.sh db-replica-2",
		sprintf(replicaTail, "mysql-bin.005102", "No", "Yes", "0", "", "13114",
			"Got fatal error 1236 from source when reading data from binary log: 'Could not find first log file name in binary log index file'"),
		"mysql-binlog-1236", "hand: stored")
	h.ask("mysql-dup-key", "shopfloor", "linux", "./ops/check-replica.sh db-replica-2",
		sprintf(replicaTail, "mysql-bin.005230", "Yes", "No", "1062",
			"Could not execute Write_rows event on table shop.orders; Duplicate entry '1842' for key 'orders.PRIMARY', Error_code: 1062; handler error HA_ERR_FOUND_DUPP_KEY; the event's source log mysql-bin.005230, end_log_pos 88213", "0", ""),
		"", "same tool, another error: the SQL thread on a duplicate key")

	// SQLite under Rails: one message, two causes.
	h.note(Note{ID: "rails-sqlite-parallel", Project: "oakmoss", OS: "linux", Lang: "ruby", At: day(2024, 2, 27),
		Title:   "flaky BusyException in CI tests",
		What:    "Random tests fail with ActiveRecord::StatementInvalid: SQLite3::BusyException: database is locked, only when the suite runs in parallel (\"Running 412 tests in parallel using 8 processes\").",
		Why:     "test.sqlite3 has no per-worker suffix because database.yml hard-codes the path, so all 8 workers write to one file.",
		Where:   "config/database.yml (test)",
		Learned: "database: storage/test.sqlite3 must not be an absolute ERB path; Rails appends -0..-7 for workers only for the default form. Code change in database.yml."})
	h.note(Note{ID: "rails-sqlite-console", Project: "oakmoss", OS: "darwin", Lang: "ruby", At: day(2025, 1, 14),
		Title:   "db:migrate hangs then database is locked",
		What:    "bin/rails db:migrate sat for 5s on the first migration and failed with `SQLite3::BusyException: database is locked`. Nothing parallel running.",
		Why:     "A `bin/rails console` in another tab had an open transaction (I'd done ActiveRecord::Base.transaction { ... binding.irb }) holding the write lock on development.sqlite3.",
		Where:   "local dev",
		Learned: "Close consoles / kill the process holding storage/development.sqlite3 before migrating.",
		Fix:     "lsof -t storage/development.sqlite3 | xargs kill && bin/rails db:migrate"})
	h.ask("rails-sqlite-parallel/1", "oakmoss", "linux", "bin/rails test",
		`Running 412 tests in parallel using 8 processes
Run options: --seed 28113

# Running:

.......E..........

Error:
OrdersControllerTest#test_should_create_order:
ActiveRecord::StatementInvalid: SQLite3::BusyException: database is locked
    app/controllers/orders_controller.rb:27:in §create§
    test/controllers/orders_controller_test.rb:19:in §block in <class:OrdersControllerTest>§

bin/rails test test/controllers/orders_controller_test.rb:17

Finished in 9.124003s, 45.1556 runs/s, 88.2731 assertions/s.
412 runs, 806 assertions, 0 failures, 1 errors, 0 skips
`, "rails-sqlite-parallel", "same text, another cause: parallel test workers")
	h.ask("rails-sqlite-console/1", "oakmoss", "darwin", "bin/rails db:migrate",
		`== 20250114093012 AddFulfilledAtToOrders: migrating ===========================
-- add_column(:orders, :fulfilled_at, :datetime)
bin/rails aborted!
StandardError: An error has occurred, this and all later migrations canceled: (StandardError)

SQLite3::BusyException: database is locked
/Users/kim/code/oakmoss/db/migrate/20250114093012_add_fulfilled_at_to_orders.rb:3:in §change§

Caused by:
ActiveRecord::StatementInvalid: SQLite3::BusyException: database is locked (ActiveRecord::StatementInvalid)
Tasks: TOP => db:migrate
(See full trace by running task with --trace)
`, "rails-sqlite-console", "same text, another cause: a migration blocked by a console")

	// Supabase CLI.
	h.note(Note{ID: "supabase-port-taken", Project: "driftwood", OS: "darwin", Lang: "typescript", At: day(2024, 8, 20),
		Title:   "supabase start: port 54322 already allocated",
		What:    "supabase start fails binding 54322 (the db port) — `Bind for 0.0.0.0:54322 failed: port is already allocated`",
		Why:     "The stack of another local project (tidepool) was still running; all supabase projects default to the same ports.",
		Where:   "local docker",
		Learned: "Stop the other project's stack by id (or give driftwood its own ports in supabase/config.toml).",
		Fix:     "supabase stop --project-id tidepool"})
	h.ask("supabase-port-taken/1", "driftwood", "darwin", "supabase start",
		`Starting database...
failed to start docker container: Error response from daemon: driver failed programming external connectivity on endpoint supabase_db_driftwood (3f0c9a8e1b7d): Bind for 0.0.0.0:54322 failed: port is already allocated
Try rerunning the command with --debug to troubleshoot the error.
`, "supabase-port-taken", "hand: stored")
	h.note(Note{ID: "supabase-migration-repair", Project: "driftwood", OS: "linux", Lang: "typescript", At: day(2025, 9, 2),
		Title:   "db push rejected: remote migration versions not found locally",
		What:    "supabase db push in the deploy job: \"Remote migration versions not found in local migrations directory.\"",
		Why:     "Someone ran a hotfix migration from the dashboard SQL editor via the CLI from their laptop and never committed the file; the remote history has 20250828101500 that the repo doesn't.",
		Where:   "supabase/migrations",
		Learned: "Pull the remote change into a committed migration rather than marking it reverted, unless the hotfix really is gone.",
		Fix:     "supabase db pull && git add supabase/migrations"})
	h.ask("supabase-migration-repair/1", "driftwood", "linux", "supabase db push --linked",
		`Connecting to remote database...
Remote migration versions not found in local migrations directory.

Make sure your local git repo is up-to-date. If the error persists, try repairing the migration history table:
supabase migration repair --status reverted 20250828101500

And update local migrations to match remote database:
supabase db pull

Error: Process completed with exit code 1.
`, "supabase-migration-repair", "hand: stored")
}
