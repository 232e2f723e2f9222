package sqlite

// checksMigration keeps the checks of published bundles (ledger.CheckStore):
// each check job's needs beside its row in jobs, and importance ratings,
// one row per claim a rating scores. It only makes what is missing.
const checksMigration = `
CREATE TABLE IF NOT EXISTS job_needs (
	job      TEXT PRIMARY KEY REFERENCES jobs (id),
	software TEXT NOT NULL,
	detail   TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS importance_ratings (
	job          TEXT NOT NULL REFERENCES jobs (id),
	claim        TEXT NOT NULL,
	bundle       TEXT NOT NULL,
	operator     TEXT NOT NULL,
	organization TEXT NOT NULL,
	family       TEXT NOT NULL,
	model        TEXT NOT NULL,
	score        INTEGER NOT NULL,
	reason       TEXT NOT NULL,
	digest       TEXT NOT NULL,
	signed       BLOB NOT NULL,
	at           BIGINT NOT NULL,
	PRIMARY KEY (job, claim)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS importance_ratings_bundle ON importance_ratings (bundle, at);
CREATE INDEX IF NOT EXISTS importance_ratings_claim ON importance_ratings (claim);
`

// ratingCacheMigration keeps what lets processes sharing a store cache
// scores alike (ledger.CheckStore's RatingCount and KeepHabits): the
// count of ratings recorded, one row RateImportance makes and bumps, and
// the rating habits measured at each moment, the first measurement kept.
// A store with ratings already gets its count now.
const ratingCacheMigration = `
CREATE TABLE rating_count (
	one     INTEGER PRIMARY KEY CHECK (one = 1),
	ratings INTEGER NOT NULL
);
INSERT INTO rating_count (one, ratings)
	SELECT 1, COUNT(DISTINCT job) FROM importance_ratings HAVING COUNT(*) > 0;

CREATE TABLE rating_habits (
	at     BIGINT PRIMARY KEY,
	habits TEXT NOT NULL
) WITHOUT ROWID;
`
