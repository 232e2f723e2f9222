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
