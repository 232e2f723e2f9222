package sqlcommon

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/teams"
	"github.com/agora-node/agora/store"
)

// TeamNumber parses a team ID, or says the team is not found.
func TeamNumber(id string) (int64, error) {
	n, ok := teams.Number(id)
	if !ok {
		return 0, fmt.Errorf("store: team %q: %w", id, store.ErrNotFound)
	}
	return n, nil
}

func LoadTeam(ctx context.Context, q Reader, n int64) (ledger.Team, error) {
	t := ledger.Team{ID: teams.ID(n)}
	var created int64
	var removed sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT name, name_key, captain, created, removed FROM teams WHERE number = ?`, n).
		Scan(&t.Name, &t.NameKey, &t.Captain, &created, &removed)
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Team{}, fmt.Errorf("store: team %s: %w", t.ID, store.ErrNotFound)
	}
	if err != nil {
		return ledger.Team{}, err
	}
	t.Created, t.Removed = FromNanos(created), FromNullNanos(removed)
	rows, err := q.QueryContext(ctx, `SELECT person FROM team_people WHERE team = ? ORDER BY person`, n)
	if err != nil {
		return ledger.Team{}, err
	}
	defer rows.Close()
	t.People = []string{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return ledger.Team{}, err
		}
		t.People = append(t.People, p)
	}
	return t, rows.Err()
}

// StandingTeam returns team number n if it stands, else store.ErrNotFound.
func StandingTeam(ctx context.Context, q Reader, id string) (int64, error) {
	n, err := TeamNumber(id)
	if err != nil {
		return 0, err
	}
	var removed sql.NullInt64
	switch err := q.QueryRowContext(ctx, `SELECT removed FROM teams WHERE number = ?`, n).Scan(&removed); {
	case errors.Is(err, sql.ErrNoRows) || (err == nil && removed.Valid):
		return 0, fmt.Errorf("store: team %s is not standing: %w", id, store.ErrNotFound)
	case err != nil:
		return 0, err
	}
	return n, nil
}

// AddPerson puts person on team n, off any other, and moves its agents
// onto the team at at, but those the team banned. A person already on the
// team changes nothing.
func AddPerson(ctx context.Context, tx Querier, n int64, person string, at time.Time) (int, error) {
	var on int
	switch err := tx.QueryRowContext(ctx, `SELECT 1 FROM team_people WHERE team = ? AND person = ?`, n, person).Scan(&on); {
	case err == nil:
		return 0, nil
	case !errors.Is(err, sql.ErrNoRows):
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM team_people WHERE person = ?`, person); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO team_people (team, person) VALUES (?, ?)`, n, person); err != nil {
		return 0, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT operator FROM identities WHERE organization = ? ORDER BY operator`, person)
	if err != nil {
		return 0, err
	}
	var agents []string
	for rows.Next() {
		var op string
		if err := rows.Scan(&op); err != nil {
			rows.Close()
			return 0, err
		}
		agents = append(agents, op)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	moved := 0
	for _, op := range agents {
		current, err := CurrentTeam(ctx, tx, op)
		if err != nil {
			return 0, err
		}
		if current == n {
			continue
		}
		if banned, err := TeamBanned(ctx, tx, n, op, person); err != nil {
			return 0, err
		} else if banned {
			continue
		}
		if err := MoveOnto(ctx, tx, op, n, at); err != nil {
			return 0, err
		}
		moved++
	}
	return moved, nil
}

// CurrentTeam returns the number of the team operator is on, 0 for none.
func CurrentTeam(ctx context.Context, q Reader, operator string) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, `SELECT team FROM team_spans WHERE operator = ? AND left_at IS NULL`, operator).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, err
}

// MoveOnto closes operator's open span at at and, for team n > 0, opens
// one on team n.
func MoveOnto(ctx context.Context, tx Querier, operator string, n int64, at time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE team_spans SET left_at = ? WHERE operator = ? AND left_at IS NULL`, Nanos(at), operator); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO team_spans (operator, team, joined) VALUES (?, ?, ?)`, operator, n, Nanos(at))
	return err
}

// WithinLimit refuses what would pass limit in the window before at: count
// is a query of the count and the oldest time (Unix nanoseconds) of what
// subject did after its second parameter, the window's start.
func WithinLimit(ctx context.Context, tx Querier, count, subject string, limit int, window time.Duration, at time.Time, what string) error {
	var made int
	var oldest sql.NullInt64
	if err := tx.QueryRowContext(ctx, count, subject, Nanos(at.Add(-window))).Scan(&made, &oldest); err != nil {
		return err
	}
	if made < limit {
		return nil
	}
	retry := window
	if oldest.Valid {
		retry = FromNanos(oldest.Int64).Add(window).Sub(at)
	}
	return &store.LimitError{What: what, RetryAfter: retry}
}

const RequestColumns = `id, team, operator, organization, entry, at, expires, state, decided`

func ScanRequest(row interface{ Scan(...any) error }) (ledger.JoinRequest, error) {
	var r ledger.JoinRequest
	var n, at, expires int64
	var decided sql.NullInt64
	if err := row.Scan(&r.ID, &n, &r.Operator, &r.Organization, &r.Entry, &at, &expires, &r.State, &decided); err != nil {
		return ledger.JoinRequest{}, err
	}
	r.Team, r.At, r.Expires, r.Decided = teams.ID(n), FromNanos(at), FromNanos(expires), FromNullNanos(decided)
	return r, nil
}

func TeamBanned(ctx context.Context, q Reader, n int64, subjects ...string) (bool, error) {
	for _, subject := range subjects {
		if subject == "" {
			continue
		}
		var one int
		switch err := q.QueryRowContext(ctx, `SELECT 1 FROM team_bans WHERE team = ? AND subject = ?`, n, subject).Scan(&one); {
		case err == nil:
			return true, nil
		case !errors.Is(err, sql.ErrNoRows):
			return false, err
		}
	}
	return false, nil
}

// Team implements ledger.TeamStore.
func (s *Shared) Team(ctx context.Context, id string) (ledger.Team, error) {
	n, err := TeamNumber(id)
	if err != nil {
		return ledger.Team{}, err
	}
	return LoadTeam(ctx, s.R, n)
}

// Teams implements ledger.TeamStore.
func (s *Shared) Teams(ctx context.Context) ([]ledger.Team, error) {
	rows, err := s.R.QueryContext(ctx, `SELECT number FROM teams WHERE removed IS NULL ORDER BY number`)
	if err != nil {
		return nil, fmt.Errorf("store: teams: %w", err)
	}
	var numbers []int64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		numbers = append(numbers, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]ledger.Team, 0, len(numbers))
	for _, n := range numbers {
		t, err := LoadTeam(ctx, s.R, n)
		if err != nil {
			return nil, fmt.Errorf("store: teams: %w", err)
		}
		out = append(out, t)
	}
	return out, nil
}

// AddTeamPerson implements ledger.TeamStore.
func (s *Shared) AddTeamPerson(ctx context.Context, team, person string, at time.Time) (int, error) {
	if person == "" || at.IsZero() {
		return 0, fmt.Errorf("store: add a person to %s: %w", team, store.ErrInvalid)
	}
	moved := 0
	err := s.Write(ctx, func(tx Querier) error {
		n, err := StandingTeam(ctx, tx, team)
		if err != nil {
			return err
		}
		moved, err = AddPerson(ctx, tx, n, person, at)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: add %s to %s: %w", person, team, err)
	}
	return moved, nil
}

// TeamSpans implements ledger.TeamStore.
func (s *Shared) TeamSpans(ctx context.Context, team string) ([]ledger.TeamSpan, error) {
	query := `SELECT operator, team, joined, left_at FROM team_spans ORDER BY joined, operator, id`
	var args []any
	if team != "" {
		n, err := TeamNumber(team)
		if err != nil {
			return nil, err
		}
		query = `SELECT operator, team, joined, left_at FROM team_spans WHERE team = ? ORDER BY joined, operator, id`
		args = append(args, n)
	}
	rows, err := s.R.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: team spans: %w", err)
	}
	defer rows.Close()
	out := []ledger.TeamSpan{}
	for rows.Next() {
		var sp ledger.TeamSpan
		var n, joined int64
		var left sql.NullInt64
		if err := rows.Scan(&sp.Operator, &n, &joined, &left); err != nil {
			return nil, err
		}
		sp.Team, sp.Joined, sp.Left = teams.ID(n), FromNanos(joined), FromNullNanos(left)
		out = append(out, sp)
	}
	return out, rows.Err()
}

// OperatorTeam implements ledger.TeamStore.
func (s *Shared) OperatorTeam(ctx context.Context, operator string) (ledger.Team, error) {
	n, err := CurrentTeam(ctx, s.R, operator)
	if err != nil {
		return ledger.Team{}, fmt.Errorf("store: %s's team: %w", operator, err)
	}
	if n == 0 {
		return ledger.Team{}, fmt.Errorf("store: %s is on no team: %w", operator, store.ErrNotFound)
	}
	return LoadTeam(ctx, s.R, n)
}

// JoinRequests implements ledger.TeamStore.
func (s *Shared) JoinRequests(ctx context.Context, team string, now time.Time) ([]ledger.JoinRequest, error) {
	n, err := TeamNumber(team)
	if err != nil {
		return nil, err
	}
	rows, err := s.R.QueryContext(ctx, `SELECT `+RequestColumns+` FROM team_requests
		WHERE team = ? AND state = 'pending' AND expires > ? ORDER BY id`, n, Nanos(now))
	if err != nil {
		return nil, fmt.Errorf("store: requests to join %s: %w", team, err)
	}
	defer rows.Close()
	out := []ledger.JoinRequest{}
	for rows.Next() {
		r, err := ScanRequest(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// DecideJoin implements ledger.TeamStore.
func (s *Shared) DecideJoin(ctx context.Context, id int64, approve bool, at time.Time) (ledger.JoinRequest, error) {
	var out ledger.JoinRequest
	err := s.Write(ctx, func(tx Querier) error {
		r, err := ScanRequest(tx.QueryRowContext(ctx, `SELECT `+RequestColumns+` FROM team_requests WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("no request %d: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if r.State != ledger.RequestPending || !r.Expires.After(at) {
			return fmt.Errorf("request %d is %s, pending until %s: %w", id, r.State, r.Expires.Format(time.RFC3339), store.ErrConflict)
		}
		n, err := StandingTeam(ctx, tx, r.Team)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("request %d: team %s is not standing: %w", id, r.Team, store.ErrConflict)
		}
		if err != nil {
			return err
		}
		state := ledger.RequestDeclined
		if approve {
			if banned, err := TeamBanned(ctx, tx, n, r.Operator, r.Organization); err != nil {
				return err
			} else if banned {
				return fmt.Errorf("request %d: %s removed %s: %w", id, r.Team, r.Operator, store.ErrConflict)
			}
			if err := MoveOnto(ctx, tx, r.Operator, n, at); err != nil {
				return err
			}
			state = ledger.RequestApproved
		}
		if _, err := tx.ExecContext(ctx, `UPDATE team_requests SET state = ?, decided = ? WHERE id = ?`, state, Nanos(at), id); err != nil {
			return err
		}
		r.State, r.Decided = state, at
		out = r
		return nil
	})
	if err != nil {
		return ledger.JoinRequest{}, fmt.Errorf("store: decide request %d: %w", id, err)
	}
	return out, nil
}

// UnbanFromTeam implements ledger.TeamStore.
func (s *Shared) UnbanFromTeam(ctx context.Context, team, subject string) error {
	n, err := TeamNumber(team)
	if err != nil {
		return err
	}
	return s.Write(ctx, func(tx Querier) error {
		if _, err := LoadTeam(ctx, tx, n); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM team_bans WHERE team = ? AND subject = ?`, n, subject)
		return err
	})
}

// TeamBanned implements ledger.TeamStore.
func (s *Shared) TeamBanned(ctx context.Context, team string, subjects ...string) (bool, error) {
	n, err := TeamNumber(team)
	if err != nil {
		return false, err
	}
	return TeamBanned(ctx, s.R, n, subjects...)
}
