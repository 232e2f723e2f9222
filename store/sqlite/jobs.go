package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store/sqlcommon"
)

// jobsMigration keeps the verification loop (ledger.JobStore): jobs, the
// answers to them, declines, the credit movements and the qualification
// state. A job is open while done = 0 and either nobody holds it or its
// deadline passed; jobs_holder makes "one open job per operator" a
// constraint the database keeps, beside the check in TakeJob. It only
// makes what is missing, so a database at an earlier version may run it
// again (bindhook_test.go winds the version back past it).
const jobsMigration = `
CREATE TABLE IF NOT EXISTS jobs (
	id              TEXT PRIMARY KEY,
	kind            TEXT NOT NULL,
	bundle          TEXT NOT NULL,
	urgency         INTEGER NOT NULL,
	author_orgs     TEXT NOT NULL,
	author_families TEXT NOT NULL,
	claims          TEXT NOT NULL,
	credits         INTEGER NOT NULL,
	minutes         REAL NOT NULL,
	gpu             INTEGER NOT NULL,
	created         BIGINT NOT NULL,
	operator        TEXT,
	organization    TEXT,
	family          TEXT,
	assigned_at     BIGINT,
	deadline        BIGINT,
	served          INTEGER NOT NULL DEFAULT 0,
	done            INTEGER NOT NULL DEFAULT 0,
	answer          TEXT
);
CREATE INDEX IF NOT EXISTS jobs_open ON jobs (urgency, created) WHERE done = 0;
CREATE INDEX IF NOT EXISTS jobs_bundle ON jobs (bundle, created);
CREATE UNIQUE INDEX IF NOT EXISTS jobs_holder ON jobs (operator) WHERE done = 0 AND operator IS NOT NULL;

CREATE TABLE IF NOT EXISTS job_answers (
	entry        TEXT PRIMARY KEY REFERENCES signed (digest),
	job          TEXT NOT NULL REFERENCES jobs (id),
	operator     TEXT NOT NULL,
	organization TEXT NOT NULL,
	family       TEXT NOT NULL,
	kind         TEXT NOT NULL,
	bundle       TEXT NOT NULL,
	signed       BLOB NOT NULL,
	digest       TEXT NOT NULL,
	salt         TEXT NOT NULL,
	verdicts     TEXT NOT NULL,
	hazard       TEXT NOT NULL,
	with_work    INTEGER NOT NULL,
	at           BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS job_answers_job ON job_answers (job);
CREATE INDEX IF NOT EXISTS job_answers_org ON job_answers (organization, at) WHERE with_work = 1;

CREATE TABLE IF NOT EXISTS job_declines (
	job          TEXT NOT NULL REFERENCES jobs (id),
	organization TEXT NOT NULL,
	entry        TEXT,
	at           BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS job_declines_org ON job_declines (organization, at);
CREATE INDEX IF NOT EXISTS job_declines_job ON job_declines (job);

CREATE TABLE IF NOT EXISTS credit_moves (
	seq      INTEGER PRIMARY KEY,
	operator TEXT NOT NULL,
	kind     TEXT NOT NULL,
	amount   INTEGER NOT NULL,
	key      TEXT NOT NULL UNIQUE,
	at       BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS credit_moves_operator ON credit_moves (operator, seq);

CREATE TABLE IF NOT EXISTS canaries (
	hash    TEXT PRIMARY KEY,
	source  TEXT NOT NULL,
	record  TEXT NOT NULL,
	entry   TEXT REFERENCES signed (digest),
	created BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS canaries_source ON canaries (source);

CREATE TABLE IF NOT EXISTS canary_outcomes (
	canary   TEXT NOT NULL REFERENCES canaries (hash),
	operator TEXT NOT NULL,
	outcome  TEXT NOT NULL,
	PRIMARY KEY (canary, operator)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS canary_outcomes_operator ON canary_outcomes (operator);

CREATE TABLE IF NOT EXISTS qualification (
	operator TEXT NOT NULL,
	model    TEXT NOT NULL,
	state    TEXT NOT NULL,
	PRIMARY KEY (operator, model)
) WITHOUT ROWID;
`

// jobAnswersDigestMigration indexes answers by their own entry digest:
// AnswerByEntry finds an answer by its logged entry or by that digest, and
// without this index the OR read every answer (a sealed round's advance
// asks it for each answered job, so it grew with every attestation).
const jobAnswersDigestMigration = `
CREATE INDEX IF NOT EXISTS job_answers_digest ON job_answers (digest);
`

func (s *Store) Backlog(ctx context.Context, since time.Time) (ledger.Backlog, error) {
	var b ledger.Backlog
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(gpu = 0), 0), COALESCE(SUM(gpu = 1), 0) FROM jobs
			WHERE done = 0 AND kind IN ('reproduction', 'proof_check')`).Scan(&b.OpenCPU, &b.OpenGPU); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(j.gpu = 0), 0), COALESCE(SUM(j.gpu = 1), 0) FROM job_answers a JOIN jobs j ON j.id = a.job
			WHERE a.with_work = 1 AND a.at >= ? AND a.kind IN ('reproduction', 'proof_check')`, sqlcommon.Nanos(since)).Scan(&b.ClearedCPU, &b.ClearedGPU)
	})
	return b, err
}

var _ = slices.Contains[[]string]
