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

// RequestJoin implements ledger.TeamStore.
func (s *Store) RequestJoin(ctx context.Context, r ledger.JoinRequest, limit int, window, lifetime, cooldown time.Duration) (ledger.JoinRequest, error) {
	if r.Operator == "" || r.Entry == "" || r.At.IsZero() || lifetime <= 0 {
		return ledger.JoinRequest{}, fmt.Errorf("sqlite: request to join %s: %w", r.Team, store.ErrInvalid)
	}
	var out ledger.JoinRequest
	var standing error
	err := s.write(ctx, func(tx *sql.Tx) error {
		n, err := sqlcommon.StandingTeam(ctx, tx, r.Team)
		if err != nil {
			return err
		}
		at := sqlcommon.Nanos(r.At)
		row := tx.QueryRowContext(ctx, `SELECT `+sqlcommon.RequestColumns+` FROM team_requests
			WHERE operator = ? AND team = ? AND state = 'pending' AND expires > ? ORDER BY id DESC LIMIT 1`, r.Operator, n, at)
		switch got, err := sqlcommon.ScanRequest(row); {
		case err == nil:
			out, standing = got, store.ErrDuplicate
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		row = tx.QueryRowContext(ctx, `SELECT `+sqlcommon.RequestColumns+` FROM team_requests
			WHERE operator = ? AND team = ? AND state = 'declined' AND decided > ? ORDER BY id DESC LIMIT 1`, r.Operator, n, sqlcommon.Nanos(r.At.Add(-cooldown)))
		switch got, err := sqlcommon.ScanRequest(row); {
		case err == nil:
			out, standing = got, store.ErrConflict
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if limit > 0 {
			if err := sqlcommon.WithinLimit(ctx, tx, `SELECT COUNT(*), MIN(at) FROM team_requests WHERE operator = ? AND at > ?`, r.Operator,
				limit, window, r.At, fmt.Sprintf("%d requests to join teams in %s", limit, window)); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO team_requests (team, operator, organization, entry, at, expires, state)
			VALUES (?, ?, ?, ?, ?, ?, 'pending')`, n, r.Operator, r.Organization, r.Entry, at, sqlcommon.Nanos(r.At.Add(lifetime)))
		if err != nil {
			return err
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		out, err = sqlcommon.ScanRequest(tx.QueryRowContext(ctx, `SELECT `+sqlcommon.RequestColumns+` FROM team_requests WHERE id = ?`, id))
		return err
	})
	if err != nil {
		return ledger.JoinRequest{}, fmt.Errorf("sqlite: request of %s to join %s: %w", r.Operator, r.Team, err)
	}
	if standing != nil {
		return out, fmt.Errorf("sqlite: request of %s to join %s stands as request %d, %s: %w", r.Operator, r.Team, out.ID, out.State, standing)
	}
	return out, nil
}

// BanFromTeam implements ledger.TeamStore.
func (s *Store) BanFromTeam(ctx context.Context, team, subject string, at time.Time) (int, error) {
	if subject == "" {
		return 0, fmt.Errorf("sqlite: ban from %s: %w", team, store.ErrInvalid)
	}
	n, err := sqlcommon.TeamNumber(team)
	if err != nil {
		return 0, err
	}
	left := 0
	err = s.write(ctx, func(tx *sql.Tx) error {
		if _, err := sqlcommon.LoadTeam(ctx, tx, n); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO team_bans (team, subject, at) VALUES (?, ?, ?)`, n, subject, sqlcommon.Nanos(at)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE team_spans SET left_at = ?3 WHERE team = ?1 AND left_at IS NULL
			AND (operator = ?2 OR operator IN (SELECT operator FROM identities WHERE organization = ?2))`, n, subject, sqlcommon.Nanos(at))
		if err != nil {
			return err
		}
		removed, err := res.RowsAffected()
		if err != nil {
			return err
		}
		left = int(removed)
		_, err = tx.ExecContext(ctx, `UPDATE team_requests SET state = 'declined', decided = ?3
			WHERE team = ?1 AND state = 'pending' AND (operator = ?2 OR organization = ?2)`, n, subject, sqlcommon.Nanos(at))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: ban %s from %s: %w", subject, team, err)
	}
	return left, nil
}
