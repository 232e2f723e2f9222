package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// teamsMigration keeps teams (ledger.TeamStore): the teams, the people on
// them, every operator's spans on them, the signed moves applied, the
// requests to join and the captains' bans. A team is numbered; team:<n>
// is its ID.
const teamsMigration = `
CREATE TABLE teams (
	number   INTEGER PRIMARY KEY,
	name     TEXT NOT NULL,
	name_key TEXT NOT NULL,
	captain  INTEGER NOT NULL,
	created  BIGINT NOT NULL,
	removed  BIGINT
);
CREATE UNIQUE INDEX teams_name_key ON teams (name_key) WHERE removed IS NULL;

CREATE TABLE team_people (
	team   INTEGER NOT NULL REFERENCES teams (number),
	person TEXT NOT NULL,
	PRIMARY KEY (team, person)
) WITHOUT ROWID;

-- One open span (left_at NULL) per operator at most.
CREATE TABLE team_spans (
	id       INTEGER PRIMARY KEY,
	operator TEXT NOT NULL REFERENCES operators (id),
	team     INTEGER NOT NULL REFERENCES teams (number),
	joined   BIGINT NOT NULL,
	left_at  BIGINT
);
CREATE UNIQUE INDEX team_spans_current ON team_spans (operator) WHERE left_at IS NULL;
CREATE INDEX team_spans_team ON team_spans (team, joined);

CREATE TABLE team_moves (
	entry    TEXT PRIMARY KEY,
	operator TEXT NOT NULL REFERENCES operators (id),
	signed   BIGINT NOT NULL,
	at       BIGINT NOT NULL,
	moved    INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX team_moves_operator ON team_moves (operator, at);

CREATE TABLE team_requests (
	id           INTEGER PRIMARY KEY,
	team         INTEGER NOT NULL REFERENCES teams (number),
	operator     TEXT NOT NULL REFERENCES operators (id),
	organization TEXT NOT NULL,
	entry        TEXT NOT NULL,
	at           BIGINT NOT NULL,
	expires      BIGINT NOT NULL,
	state        TEXT NOT NULL,
	decided      BIGINT
);
CREATE INDEX team_requests_operator ON team_requests (operator, team, at);
CREATE INDEX team_requests_team ON team_requests (team, state, id);

CREATE TABLE team_bans (
	team    INTEGER NOT NULL REFERENCES teams (number),
	subject TEXT NOT NULL,
	at      BIGINT NOT NULL,
	PRIMARY KEY (team, subject)
) WITHOUT ROWID;
`

// CreateTeam implements ledger.TeamStore.
func (s *Store) CreateTeam(ctx context.Context, t ledger.NewTeam) (ledger.Team, error) {
	if t.Name == "" || t.NameKey == "" || t.At.IsZero() {
		return ledger.Team{}, fmt.Errorf("sqlite: create team %q: %w", t.Name, store.ErrInvalid)
	}
	var out ledger.Team
	duplicate := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		var held int64
		switch err := tx.QueryRowContext(ctx, `SELECT number FROM teams WHERE name_key = ? AND removed IS NULL`, t.NameKey).Scan(&held); {
		case err == nil:
			duplicate = true
			var lerr error
			out, lerr = sqlcommon.LoadTeam(ctx, tx, held)
			return lerr
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO teams (name, name_key, captain, created) VALUES (?, ?, ?, ?)`,
			t.Name, t.NameKey, t.Captain, sqlcommon.Nanos(t.At))
		if err != nil {
			return err
		}
		n, err := res.LastInsertId()
		if err != nil {
			return err
		}
		for _, p := range t.People {
			if _, err := sqlcommon.AddPerson(ctx, tx, n, p, t.At); err != nil {
				return err
			}
		}
		out, err = sqlcommon.LoadTeam(ctx, tx, n)
		return err
	})
	if err != nil {
		return ledger.Team{}, fmt.Errorf("sqlite: create team %q: %w", t.Name, err)
	}
	if duplicate {
		return out, fmt.Errorf("sqlite: team name %q is %s's: %w", t.Name, out.ID, store.ErrDuplicate)
	}
	return out, nil
}

// RemoveTeam implements ledger.TeamStore.
func (s *Store) RemoveTeam(ctx context.Context, id string, at time.Time) (ledger.Team, error) {
	n, err := sqlcommon.TeamNumber(id)
	if err != nil {
		return ledger.Team{}, err
	}
	var out ledger.Team
	duplicate := false
	err = s.write(ctx, func(tx *sql.Tx) error {
		t, err := sqlcommon.LoadTeam(ctx, tx, n)
		if err != nil {
			return err
		}
		if !t.Removed.IsZero() {
			out, duplicate = t, true
			return nil
		}
		for _, q := range []string{
			`UPDATE teams SET removed = ?2 WHERE number = ?1`,
			`UPDATE team_spans SET left_at = ?2 WHERE team = ?1 AND left_at IS NULL`,
			`UPDATE team_requests SET expires = MIN(expires, ?2) WHERE team = ?1 AND state = 'pending'`,
		} {
			if _, err := tx.ExecContext(ctx, q, n, sqlcommon.Nanos(at)); err != nil {
				return err
			}
		}
		out, err = sqlcommon.LoadTeam(ctx, tx, n)
		return err
	})
	if err != nil {
		return ledger.Team{}, fmt.Errorf("sqlite: remove team %s: %w", id, err)
	}
	if duplicate {
		return out, fmt.Errorf("sqlite: team %s was removed before: %w", id, store.ErrDuplicate)
	}
	return out, nil
}

// MoveTeam implements ledger.TeamStore.
func (s *Store) MoveTeam(ctx context.Context, m ledger.TeamMove) (bool, error) {
	if m.Operator == "" || m.Entry == "" || m.At.IsZero() {
		return false, fmt.Errorf("sqlite: team move of %s: %w", m.Operator, store.ErrInvalid)
	}
	moved := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := sqlcommon.LoadOperator(ctx, tx, m.Operator); err != nil {
			return err
		}
		var seen int
		switch err := tx.QueryRowContext(ctx, `SELECT 1 FROM team_moves WHERE entry = ?`, m.Entry).Scan(&seen); {
		case err == nil:
			return fmt.Errorf("entry %s was applied before: %w", m.Entry, store.ErrDuplicate)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		var latest sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(signed) FROM team_moves WHERE operator = ?`, m.Operator).Scan(&latest); err != nil {
			return err
		}
		if latest.Valid && sqlcommon.Nanos(m.Signed) < latest.Int64 {
			return fmt.Errorf("signed %s, before the move signed %s: %w", m.Signed.Format(time.RFC3339Nano),
				sqlcommon.FromNanos(latest.Int64).Format(time.RFC3339Nano), store.ErrConflict)
		}
		current, err := sqlcommon.CurrentTeam(ctx, tx, m.Operator)
		if err != nil {
			return err
		}
		var target int64
		if m.Leave {
			n, err := sqlcommon.TeamNumber(m.Team)
			if err != nil {
				return err
			}
			moved = current != 0 && current == n
		} else {
			if target, err = sqlcommon.StandingTeam(ctx, tx, m.Team); err != nil {
				return err
			}
			moved = current != target
		}
		if moved && m.Limit > 0 {
			if err := movesLeft(ctx, tx, m); err != nil {
				return err
			}
		}
		if moved {
			if err := sqlcommon.MoveOnto(ctx, tx, m.Operator, target, m.At); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO team_moves (entry, operator, signed, at, moved) VALUES (?, ?, ?, ?, ?)`,
			m.Entry, m.Operator, sqlcommon.Nanos(m.Signed), sqlcommon.Nanos(m.At), moved)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("sqlite: team move of %s: %w", m.Operator, err)
	}
	return moved, nil
}

// movesLeft refuses a move past m.Limit moves in m.Window before m.At.
func movesLeft(ctx context.Context, tx *sql.Tx, m ledger.TeamMove) error {
	return sqlcommon.WithinLimit(ctx, tx, `SELECT COUNT(*), MIN(at) FROM team_moves WHERE operator = ? AND moved AND at > ?`, m.Operator,
		m.Limit, m.Window, m.At, fmt.Sprintf("%d changes of team in %s", m.Limit, m.Window))
}
