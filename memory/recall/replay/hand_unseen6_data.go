package replay

import "time"

// Databases from application code and their CLIs: PostgreSQL (pollen-api,
// rosterapp), MySQL (shopwright), Redis (tenantly), MongoDB (tripmate,
// metricsboard).
func unseen6Data(h *hand) {
	h.note(Note{ID: "db-pg-clients-pool", Project: "pollen-api", OS: "linux", Lang: "python", At: day(2023, time.September, 19),
		Title:   "prod api: FATAL sorry, too many clients already",
		What:    "after scaling the api deployment to 4 replicas requests start failing with §psycopg2.OperationalError: connection to server ... failed: FATAL:  sorry, too many clients already§",
		Why:     "4 pods x 4 uvicorn workers x (pool_size 5 + max_overflow 10) = 240 possible connections, RDS t3.medium allows ~ 100 (max_connections)",
		Where:   "app/db.py, deploy/helm/values-prod.yaml",
		Learned: "Size the pool to the math: pool_size=3, max_overflow=2 per worker, pool_pre_ping=True; and put RDS Proxy in front. SELECT count(*), usename, application_name FROM pg_stat_activity GROUP BY 2,3 shows who holds them.",
	})
	h.note(Note{ID: "db-pg-clients-xdist", Project: "pollen-api", OS: "linux", Lang: "python", At: day(2024, time.October, 1),
		Title:   "pytest -n auto exhausts the CI postgres",
		What:    "Only in CI, randomly some xdist workers die at setup: FATAL:  sorry, too many clients already",
		Why:     "the CI runner has 32 cores so -n auto spawns 32 workers; each worker's app engine keeps its own QueuePool (up to 15 conns) open for the whole session against the postgres service container (max_connections=100).",
		Where:   "tests/conftest.py, .github/workflows/ci.yml",
		Learned: "In tests create the engine with poolclass=NullPool and cap workers: -n 8 (or -n auto with --maxprocesses=8). Not the production pool settings, don't touch those for this.",
	})
	h.ask("db-pg-clients-pool/1", "pollen-api", "linux", "kubectl -n pollen logs deploy/pollen-api --since=10m", `INFO:     10.42.3.17:51822 - "GET /v1/forecast?lat=52.52&lon=13.40 HTTP/1.1" 200 OK
INFO:     10.42.1.9:40216 - "GET /v1/forecast?lat=48.14&lon=11.58 HTTP/1.1" 500 Internal Server Error
ERROR:    Exception in ASGI application
Traceback (most recent call last):
  File "/app/.venv/lib/python3.11/site-packages/sqlalchemy/pool/base.py", line 896, in __connect
    self.dbapi_connection = connection = pool._invoke_creator(self)
  File "/app/.venv/lib/python3.11/site-packages/psycopg2/__init__.py", line 122, in connect
    conn = _connect(dsn, connection_factory=connection_factory, **kwasync)
psycopg2.OperationalError: connection to server at "pollen-prod.c8x2kq1ab3cd.eu-central-1.rds.amazonaws.com" (10.20.4.11), port 5432 failed: FATAL:  sorry, too many clients already

The above exception was the direct cause of the following exception:

sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "pollen-prod.c8x2kq1ab3cd.eu-central-1.rds.amazonaws.com" (10.20.4.11), port 5432 failed: FATAL:  sorry, too many clients already
(Background on this error at: https://sqlalche.me/e/20/e3q8)`, "db-pg-clients-pool", "same text, another cause")
	h.ask("db-pg-clients-xdist/1", "pollen-api", "linux", "pytest -n auto --dist loadscope", `============================= test session starts ==============================
platform linux -- Python 3.11.9, pytest-8.3.2, pluggy-1.5.0
rootdir: /home/runner/work/pollen-api/pollen-api
plugins: xdist-3.6.1, anyio-4.4.0, asyncio-0.23.8
created: 32/32 workers
32 workers [412 items]

.........................................E.....E...E........................ [ 18%]
...
==================================== ERRORS ====================================
_____________ ERROR at setup of test_alerts_for_region[gw27] __________________
[gw27] linux -- Python 3.11.9 /home/runner/work/pollen-api/pollen-api/.venv/bin/python
tests/conftest.py:44: in db_session
    conn = engine.connect()
E   sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "localhost" (127.0.0.1), port 5432 failed: FATAL:  sorry, too many clients already
=========================== short test summary info ============================
ERROR tests/test_alerts.py::test_alerts_for_region - sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "localhost" (127.0.0.1), port 5432 failed: FATAL:  sorry, too many clients already
ERROR tests/test_regions.py::test_region_lookup - sqlalchemy.exc.OperationalError
ERROR tests/test_regions.py::test_region_bbox - sqlalchemy.exc.OperationalError
================== 409 passed, 3 errors in 21.77s ==================`, "db-pg-clients-xdist", "same text, another cause")
	h.ask("db-pg-deadlock/1", "pollen-api", "linux", "python -m app.jobs.rollup --day 2025-05-03", `2025-05-04 02:00:14,338 INFO rollup: aggregating 1842 stations
Traceback (most recent call last):
  File "/app/app/jobs/rollup.py", line 77, in run
    session.execute(upsert_stmt, rows)
psycopg2.errors.DeadlockDetected: deadlock detected
DETAIL:  Process 31877 waits for ShareLock on transaction 9912044; blocked by process 31902.
Process 31902 waits for ShareLock on transaction 9912041; blocked by process 31877.
HINT:  See server log for query details.
CONTEXT:  while inserting index tuple (412,7) in relation "daily_readings"`, "", "never stored: another failure")

	h.note(Note{ID: "db-mysql-group-by", Project: "shopwright", OS: "linux", Lang: "php", At: day(2022, time.July, 7),
		Title:   "report query breaks on only_full_group_by",
		What:    "SQLSTATE[42000]: Syntax error or access violation: 1055 Expression #3 of SELECT list is not in GROUP BY clause and contains nonaggregated column 'shop.orders.created_at'",
		Why:     "the query came from the old MySQL 5.6 server which didn't have ONLY_FULL_GROUP_BY; Laravel's mysql connection has strict => true",
		Where:   "app/Reports/SalesByDay.php",
		Learned: "fix the SQL: group by DATE(created_at) and select that expression, or ANY_VALUE() for columns we really don't care about. Setting 'strict' => false in config/database.php turns off a lot more than this, don't.",
	})
	h.ask("db-mysql-group-by/1", "shopwright", "linux", "php artisan reports:top-customers --month=2024-09", `
   Illuminate\Database\QueryException 

  SQLSTATE[42000]: Syntax error or access violation: 1055 Expression #2 of SELECT list is not in GROUP BY clause and contains nonaggregated column 'shopwright.customers.email' which is not functionally dependent on columns in GROUP BY clause; this is incompatible with sql_mode=only_full_group_by (Connection: mysql, SQL: select customers.id, customers.email, sum(orders.total) as revenue from §orders§ inner join §customers§ on §customers§.§id§ = §orders§.§customer_id§ where month(orders.created_at) = 09 group by §customers§.§id§ order by §revenue§ desc limit 20)

  at vendor/laravel/framework/src/Illuminate/Database/Connection.php:829`, "db-mysql-group-by", "hand: stored")
	h.ask("db-mysql-fk/1", "shopwright", "linux", "php artisan db:seed --class=DemoCatalogSeeder", `
   INFO  Seeding database.  

   Illuminate\Database\QueryException 

  SQLSTATE[23000]: Integrity constraint violation: 1452 Cannot add or update a child row: a foreign key constraint fails (§shopwright§.§product_variants§, CONSTRAINT §product_variants_product_id_foreign§ FOREIGN KEY (§product_id§) REFERENCES §products§ (§id§) ON DELETE CASCADE) (Connection: mysql, SQL: insert into §product_variants§ (§product_id§, §sku§, §price§) values (9001, DEMO-9001-S, 1999))`, "", "never stored: same kind, another object")

	h.note(Note{ID: "db-mysql-utf8mb4", Project: "shopwright", OS: "windows", Lang: "php", At: day(2023, time.December, 12),
		Title:   "reviews with emoji fail to save (1366 Incorrect string value)",
		What:    "General error: 1366 Incorrect string value: '\\xF0\\x9F\\x98\\x80' for column 'body' at row 1",
		Why:     "the reviews table was created long ago as utf8 (= utf8mb3, 3 bytes max); emoji need 4",
		Learned: "migration: ALTER TABLE reviews CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; and make sure the connection charset is utf8mb4 too (config/database.php). Check other old tables with information_schema.COLUMNS where CHARACTER_SET_NAME='utf8mb3'.",
	})
	h.ask("db-mysql-utf8mb4/1", "shopwright", "windows", "php artisan import:reviews storage\\imports\\trustpilot.csv", u6crlf(`Importing 2,114 reviews...
 1337/2114 [=================>----------]  63%

   Illuminate\Database\QueryException 

  SQLSTATE[HY000]: General error: 1366 Incorrect string value: '\xF0\x9F\x91\x8D G...' for column §shopwright§.§reviews§.§title§ at row 1 (Connection: mysql, SQL: insert into §reviews§ (§product_id§, §title§, §body§, §rating§, §updated_at§, §created_at§) values (311, 👍 Great fit, Fits as expected, 5, 2024-04-02 11:20:01, 2024-04-02 11:20:01))

  at vendor\laravel\framework\src\Illuminate\Database\Connection.php:829
`), "db-mysql-utf8mb4", "hand: stored")

	h.note(Note{ID: "db-redis-oom", Project: "tenantly", OS: "linux", Lang: "ruby", At: day(2024, time.May, 21),
		Title:   "sidekiq can't push jobs: OOM command not allowed",
		What:    "§OOM command not allowed when used memory > 'maxmemory'§ from Redis when enqueuing",
		Why:     "the dead set had 900k failed webhook jobs with big payloads; redis maxmemory 1gb with policy noeviction (correct for sidekiq) so writes get refused",
		Learned: "clear the dead set (Sidekiq::DeadSet.new.clear after looking at why), cap dead_max_jobs, and store webhook payloads in postgres with only the id in the job. Never switch sidekiq's redis to allkeys-lru, it silently drops jobs.",
	})
	h.ask("db-redis-oom/1", "tenantly", "linux", "bin/rails runner 'Tenants::ResyncAllJob.perform_async'", `/usr/local/bundle/gems/redis-client-0.22.2/lib/redis_client/connection_mixin.rb:50:in §call_pipelined': OOM command not allowed when used memory > 'maxmemory'. (RedisClient::OutOfMemoryError)
	from /usr/local/bundle/gems/redis-client-0.22.2/lib/redis_client.rb:428:in §block (2 levels) in pipelined'
	from /usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/client.rb:253:in §block in raw_push'
	from /usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/client.rb:102:in §push'
	from /usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/job.rb:372:in §client_push'`, "db-redis-oom", "hand: stored")
	h.ask("db-redis-misconf/1", "tenantly", "linux", "redis-cli -h redis SET tenantly:probe 1", `(error) MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error.`, "", "never stored: same kind, another object")

	h.note(Note{ID: "db-redis-tls", Project: "tenantly", OS: "linux", Lang: "ruby", At: day(2025, time.February, 18),
		Title:   "ElastiCache with encryption in transit: use rediss://",
		What:    "After moving to the new ElastiCache cluster sidekiq hangs and then: RedisClient::ReadTimeoutError / Redis::CannotConnectError connecting to master.tenantly-cache...:6379",
		Why:     "the new replication group has transit encryption enabled; plain redis:// does a cleartext handshake and the server just never answers",
		Where:   "config/initializers/sidekiq.rb, helm values REDIS_URL",
		Learned: "REDIS_URL must be rediss://... (two s). redis-cli needs --tls to even test it. ssl_params: { verify_mode: OpenSSL::SSL::VERIFY_PEER } works with the amazon CA in the image.",
	})
	h.ask("db-redis-tls/1", "tenantly", "linux", "bundle exec sidekiq -C config/sidekiq.yml", `2025-03-03T08:14:02.771Z pid=1 tid=2f9 INFO: Booting Sidekiq 7.2.4 with Sidekiq::RedisConnection::RedisAdapter options {:url=>"redis://master.tenantly-cache.x7f2ab.use1.cache.amazonaws.com:6379/0"}
2025-03-03T08:14:02.779Z pid=1 tid=2f9 INFO: Running in ruby 3.3.6 (2024-11-05 revision 75015d4c1f) [x86_64-linux]
2025-03-03T08:14:03.772Z pid=1 tid=2f9 ERROR: Error fetching job: Waited 1.0 seconds (RedisClient::ReadTimeoutError)
/usr/local/bundle/gems/redis-client-0.22.2/lib/redis_client/ruby_connection/buffered_io.rb:214:in §block in fill_buffer'
/usr/local/bundle/gems/redis-client-0.22.2/lib/redis_client/ruby_connection.rb:93:in §read'
2025-03-03T08:14:05.790Z pid=1 tid=2f9 ERROR: Error fetching job: Waited 1.0 seconds (RedisClient::ReadTimeoutError)`, "db-redis-tls", "hand: stored")

	h.note(Note{ID: "db-mongo-authsource", Project: "tripmate", Scope: "global", OS: "linux", Lang: "typescript", At: day(2022, time.May, 10),
		Title:   "Mongo auth fails though user/password are right: authSource",
		What:    "MongoServerError: Authentication failed. (code 18)",
		Why:     "the user was created in the admin database (docker image's MONGO_INITDB_ROOT_USERNAME) but the URI's path is /tripmate, and the driver authenticates against the db in the path unless told otherwise",
		Learned: "append ?authSource=admin to the connection string (or create the user in the app db). Same for mongosh.",
	})
	h.ask("db-mongo-authsource/1", "tripmate", "linux", "npm run seed", `
> tripmate-api@2.2.0 seed
> ts-node scripts/seed.ts

MongoServerError: Authentication failed.
    at Connection.onMessage (/home/sam/tripmate/node_modules/mongodb/lib/cmap/connection.js:207:30)
    at MessageStream.<anonymous> (/home/sam/tripmate/node_modules/mongodb/lib/cmap/connection.js:60:60)
    at MessageStream.emit (node:events:517:28) {
  ok: 0,
  code: 18,
  codeName: 'AuthenticationFailed',
  connectionGeneration: 0,
  [Symbol(errorLabels)]: Set(2) { 'HandshakeError', 'ResetPool' }
}`, "db-mongo-authsource", "hand: stored")
	h.ask("db-mongo-authsource/2", "metricsboard", "darwin", `mongosh "mongodb://metrics:$MONGO_PW@localhost:27017/metrics"`, `Current Mongosh Log ID:	66b0f2c1d3e4a5b6c7d8e9f0
Connecting to:		mongodb://<credentials>@localhost:27017/metrics?directConnection=true&serverSelectionTimeoutMS=2000&appName=mongosh+2.2.15
MongoServerError: Authentication failed.`, "db-mongo-authsource", "global note, another project")
	h.ask("db-mongo-dup/1", "tripmate", "linux", "npm run import:users", `
> tripmate-api@2.5.0 import:users
> tsx scripts/import-users.ts data/users-2025.ndjson

imported 1200 / 5310
MongoServerError: E11000 duplicate key error collection: tripmate.users index: email_1 dup key: { email: "j.doe@example.com" }
    at InsertOneOperation.execute (/home/sam/tripmate/node_modules/mongodb/lib/operations/insert.js:51:19)
    at async executeOperation (/home/sam/tripmate/node_modules/mongodb/lib/operations/execute_operation.js:136:16) {
  errorResponse: {
    index: 0,
    code: 11000,
    keyPattern: { email: 1 },
    keyValue: { email: 'j.doe@example.com' }
  }
}`, "", "never stored: another failure")
	h.ask("db-mongo-refused/1", "metricsboard", "linux", "pnpm --filter ingest start", `[ingest] MongoServerSelectionError: connect ECONNREFUSED 127.0.0.1:27017
    at Topology.selectServer (/srv/metricsboard/node_modules/.pnpm/mongodb@6.8.0/node_modules/mongodb/lib/sdam/topology.js:303:38)
    at async Topology._connect (/srv/metricsboard/node_modules/.pnpm/mongodb@6.8.0/node_modules/mongodb/lib/sdam/topology.js:196:17) {
  errorLabelSet: Set(0) {},
  reason: TopologyDescription {
    type: 'Unknown',
    servers: Map(1) { 'localhost:27017' => [ServerDescription] },
  }
}
 ELIFECYCLE  Command failed with exit code 1.`, "", "never stored: another failure")

	h.note(Note{ID: "db-pg-collation", Project: "rosterapp", OS: "linux", Lang: "sql", At: day(2025, time.July, 29),
		Title:   "collation version mismatch after moving postgres image to bookworm",
		What:    "every psql session / django connection warns: database \"roster\" has a collation version mismatch — The database was created using collation version 2.31, but the operating system provides version 2.36.",
		Why:     "postgres:15 image went from bullseye (glibc 2.31) to bookworm (glibc 2.36); text indexes built with the old sort order may be silently wrong",
		Learned: "REINDEX DATABASE roster; then ALTER DATABASE roster REFRESH COLLATION VERSION; (also for template1 and postgres). Pin the image to a distro tag (postgres:15-bookworm) so it can't change under us again.",
		Fix:     "psql -d roster -c 'REINDEX DATABASE roster' -c 'ALTER DATABASE roster REFRESH COLLATION VERSION'"})
	h.ask("db-pg-collation/1", "rosterapp", "linux", "psql -h localhost -U roster -d roster -v ON_ERROR_STOP=1 -f scripts/add_unique_team_slug.sql", `WARNING:  database "roster" has a collation version mismatch
DETAIL:  The database was created using collation version 2.31, but the operating system provides version 2.36.
HINT:  Rebuild all objects in this database that use the default collation and run ALTER DATABASE roster REFRESH COLLATION VERSION, or build PostgreSQL with the right library version.
BEGIN
psql:scripts/add_unique_team_slug.sql:3: ERROR:  could not create unique index "teams_team_slug_key"
DETAIL:  Key (slug)=(nachtschicht-süd) is duplicated.
psql:scripts/add_unique_team_slug.sql:3: STATEMENT:  ALTER TABLE teams_team ADD CONSTRAINT teams_team_slug_key UNIQUE (slug);
ROLLBACK`, "db-pg-collation", "hand: stored")
	h.ask("db-pg-schema-public/1", "rosterapp", "linux", "python manage.py migrate", `Operations to perform:
  Apply all migrations: admin, auth, contenttypes, scheduling, sessions, teams
Running migrations:
Traceback (most recent call last):
  File "/srv/rosterapp/.venv/lib/python3.12/site-packages/django/db/backends/utils.py", line 103, in _execute
    return self.cursor.execute(sql)
psycopg.errors.InsufficientPrivilege: permission denied for schema public
LINE 1: CREATE TABLE "django_migrations" ("id" bigint NOT NULL PRIMA...
                     ^

The above exception was the direct cause of the following exception:

django.db.migrations.exceptions.MigrationSchemaMissing: Unable to create the django_migrations table (permission denied for schema public
LINE 1: CREATE TABLE "django_migrations" ("id" bigint NOT NULL PRIMA...
                     ^
)`, "", "never stored: another failure")
}
