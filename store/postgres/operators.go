package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
	"github.com/agora-node/agora/vocabulary"
)

// CreateOperator implements store.Store.
func (s *Store) CreateOperator(ctx context.Context, op store.NewOperator) (store.Operator, error) {
	if op.ID != protocol.OperatorID(op.Key) || op.Entry == "" || op.Name == "" || op.NameKey == "" || len(op.KeyFamilies) == 0 {
		return store.Operator{}, fmt.Errorf("postgres: create operator %s: %w", op.ID, store.ErrInvalid)
	}
	families, err := json.Marshal(op.KeyFamilies)
	if err != nil {
		return store.Operator{}, err
	}
	var out store.Operator
	duplicate := false
	err = s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
		existing, err := sqlcommon.LoadOperator(ctx, tx, op.ID)
		if err == nil {
			out, duplicate = existing, true
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		digest := protocol.KeyDigest(op.Key)
		if err := sqlcommon.KeyFree(ctx, tx, digest); err != nil {
			return err
		}
		if err := sqlcommon.MustBeSigned(ctx, tx, op.Entry); err != nil {
			return err
		}
		number, err := sqlcommon.AllocateName(ctx, tx, op.NameKey)
		if err != nil {
			return err
		}
		at := sqlcommon.Nanos(op.At)
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO operators (id, entry, name, name_key, name_number, key_families, model, model_families, registered)
			 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			op.ID, op.Entry, op.Name, op.NameKey, number, families, op.Model, families, at); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO keys (digest, key, operator, seq, entry, added) VALUES (?, ?, ?, 0, ?, ?)`,
			digest, op.Key, op.ID, op.Entry, at); err != nil {
			return err
		}
		out, err = sqlcommon.LoadOperator(ctx, tx, op.ID)
		return err
	})
	if err != nil {
		return store.Operator{}, err
	}
	if duplicate {
		return out, fmt.Errorf("postgres: %s is registered: %w", op.ID, store.ErrDuplicate)
	}
	return out, nil
}

// Operator implements store.Store.
func (s *Store) Operator(ctx context.Context, id string) (store.Operator, error) {
	var out store.Operator
	err := s.read(ctx, func(tx *txn) error {
		var err error
		out, err = sqlcommon.LoadOperator(ctx, tx, id)
		return err
	})
	return out, err
}

// Rename implements store.Store.
func (s *Store) Rename(ctx context.Context, c store.NameChange) (store.Operator, bool, error) {
	if c.Name == "" || c.NameKey == "" || c.Entry == "" {
		return store.Operator{}, false, fmt.Errorf("postgres: rename %s: %w", c.Operator, store.ErrInvalid)
	}
	var out store.Operator
	changed := false
	err := s.write(ctx, func(tx *txn) error {
		changed = false // set afresh on every run: see write
		op, err := sqlcommon.LoadOperator(ctx, tx, c.Operator)
		if err != nil {
			return err
		}
		var seenBy string
		switch err := tx.QueryRowContext(ctx, `SELECT operator FROM name_changes WHERE entry = ?`, c.Entry).Scan(&seenBy); {
		case err == nil:
			out = op
			return fmt.Errorf("postgres: rename %s: entry %s was applied before: %w", c.Operator, c.Entry, store.ErrDuplicate)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		var latest sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(signed) FROM name_changes WHERE operator = ?`, c.Operator).Scan(&latest); err != nil {
			return err
		}
		if latest.Valid && sqlcommon.Nanos(c.Signed) < latest.Int64 {
			out = op
			return fmt.Errorf("postgres: rename %s: signed %s, before the rename signed %s that stands: %w",
				c.Operator, c.Signed.UTC().Format(time.RFC3339Nano), sqlcommon.FromNanos(latest.Int64).UTC().Format(time.RFC3339Nano), store.ErrConflict)
		}
		if c.Limit > 0 {
			var made int
			var oldest sql.NullInt64
			since := sqlcommon.Nanos(c.At.Add(-c.Window))
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), MIN(at) FROM name_changes WHERE operator = ? AND at > ?`, c.Operator, since).
				Scan(&made, &oldest); err != nil {
				return err
			}
			if made >= c.Limit {
				retry := c.Window
				if oldest.Valid {
					retry = sqlcommon.FromNanos(oldest.Int64).Add(c.Window).Sub(c.At)
				}
				return &store.LimitError{What: "renames of " + c.Operator, RetryAfter: retry}
			}
		}
		number := op.NameNumber
		if op.NameKey != c.NameKey {
			if number, err = sqlcommon.AllocateName(ctx, tx, c.NameKey); err != nil {
				return err
			}
		}
		changed = op.NameBase != c.Name || op.NameKey != c.NameKey
		if changed {
			if _, err := tx.ExecContext(ctx, `UPDATE operators SET name = ?, name_key = ?, name_number = ? WHERE id = ?`,
				c.Name, c.NameKey, number, c.Operator); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO name_changes (entry, operator, signed, at) VALUES (?, ?, ?, ?)`,
			c.Entry, c.Operator, sqlcommon.Nanos(c.Signed), sqlcommon.Nanos(c.At)); err != nil {
			return err
		}
		keep := max(c.Window, 24*time.Hour)
		if _, err := tx.ExecContext(ctx, `DELETE FROM name_changes WHERE operator = ?1 AND at <= ?2 AND entry != ?3`,
			c.Operator, sqlcommon.Nanos(c.At.Add(-keep)), c.Entry); err != nil {
			return err
		}
		out, err = sqlcommon.LoadOperator(ctx, tx, c.Operator)
		return err
	})
	switch {
	case errors.Is(err, store.ErrDuplicate), errors.Is(err, store.ErrConflict):
		return out, false, err
	case err != nil:
		return store.Operator{}, false, err
	}
	return out, changed, nil
}

// RotateKey implements store.Store.
func (s *Store) RotateKey(ctx context.Context, r store.Rotation) (store.Operator, error) {
	if r.Key == "" || r.Entry == "" || r.From == "" {
		return store.Operator{}, fmt.Errorf("postgres: rotate %s: %w", r.Operator, store.ErrInvalid)
	}
	var out store.Operator
	duplicate := false
	err := s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
		op, err := sqlcommon.LoadOperator(ctx, tx, r.Operator)
		if err != nil {
			return err
		}
		for _, k := range op.Keys {
			if k.Entry == r.Entry {
				out, duplicate = op, true
				return nil
			}
		}
		current := op.Key()
		if current.Digest != r.From {
			return fmt.Errorf("postgres: %s holds %s now, not %s: %w", r.Operator, current.Digest, r.From, store.ErrKeyChanged)
		}
		digest := protocol.KeyDigest(r.Key)
		if err := sqlcommon.KeyFree(ctx, tx, digest); err != nil {
			return err
		}
		if err := sqlcommon.MustBeSigned(ctx, tx, r.Entry); err != nil {
			return err
		}
		at := sqlcommon.Nanos(r.At)
		if _, err := tx.ExecContext(ctx, `UPDATE keys SET retired_by = ?, retired = ? WHERE digest = ?`, r.Entry, at, current.Digest); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO keys (digest, key, operator, seq, entry, added) VALUES (?, ?, ?, ?, ?, ?)`,
			digest, r.Key, r.Operator, len(op.Keys), r.Entry, at); err != nil {
			return err
		}
		out, err = sqlcommon.LoadOperator(ctx, tx, r.Operator)
		return err
	})
	if err != nil {
		return store.Operator{}, err
	}
	if duplicate {
		return out, fmt.Errorf("postgres: rotation %s is recorded: %w", r.Entry, store.ErrDuplicate)
	}
	return out, nil
}

// NoteModelFamily implements store.Store.
func (s *Store) NoteModelFamily(ctx context.Context, id, family string) error {
	return s.write(ctx, func(tx *txn) error {
		var raw []byte
		err := tx.QueryRowContext(ctx, `SELECT model_families FROM operators WHERE id = ?`, id).Scan(&raw)
		if errors.Is(err, sql.ErrNoRows) {
			return sqlcommon.NotFound("postgres: no operator %s", id)
		}
		if err != nil {
			return err
		}
		var families []string
		if err := json.Unmarshal(raw, &families); err != nil {
			return err
		}
		if len(families) > 0 && families[0] == family {
			return nil
		}
		families = append([]string{family}, slices.DeleteFunc(families, func(f string) bool { return f == family })...)
		b, err := json.Marshal(families)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE operators SET model_families = ? WHERE id = ?`, b, id)
		return err
	})
}

// AddIdentity implements store.Store.
func (s *Store) AddIdentity(ctx context.Context, id store.Identity) (store.Identity, error) {
	if vocabulary.IdentityRank(id.Kind) < 0 || id.Entry == "" || (id.Organization == "" && id.Invite == "") ||
		(id.Kind == vocabulary.IdentitySponsored) != (id.Invite != "") {
		return store.Identity{}, fmt.Errorf("postgres: add %s identity to %s: %w", id.Kind, id.Operator, store.ErrInvalid)
	}
	var out store.Identity
	duplicate := false
	err := s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
		op, err := sqlcommon.LoadOperator(ctx, tx, id.Operator)
		if err != nil {
			return err
		}
		for _, held := range op.Identities {
			if held.Kind != id.Kind {
				continue
			}
			same := held.Subject == id.Subject
			if id.Invite != "" {
				// A sponsored identity is the same if it used the same code.
				same = held.Invite == id.Invite
			}
			if same {
				out, duplicate = held, true
				return nil
			}
			return fmt.Errorf("postgres: %s holds the %s identity %q: %w", id.Operator, id.Kind, held.Subject, store.ErrIdentityTaken)
		}
		if err := sqlcommon.MustBeSigned(ctx, tx, id.Entry); err != nil {
			return err
		}
		if id.Invite != "" {
			inv, err := sqlcommon.LoadInvite(ctx, tx, id.Invite)
			if err != nil {
				return err
			}
			switch inv.State(id.Added) {
			case "used":
				return fmt.Errorf("postgres: invite %s was used by %s: %w", id.Invite, inv.UsedBy, store.ErrInviteUsed)
			case "void":
				return fmt.Errorf("postgres: invite %s: its sponsor changed keys: %w", id.Invite, store.ErrInviteVoid)
			case "expired":
				return fmt.Errorf("postgres: invite %s lapsed at %s: %w", id.Invite, inv.Expires.Format(time.RFC3339), store.ErrInviteVoid)
			}
			if inv.Sponsor == id.Operator {
				return fmt.Errorf("postgres: %s can't use its own invite: %w", id.Operator, store.ErrConflict)
			}
			id.Organization, id.Subject = inv.Organization, inv.Sponsor
			if _, err := tx.ExecContext(ctx, `UPDATE invites SET used_by = ?, used_entry = ?, used_at = ? WHERE digest = ?`,
				id.Operator, id.Entry, sqlcommon.Nanos(id.Added), id.Invite); err != nil {
				return err
			}
		}
		if id.Pairing != "" {
			if err := sqlcommon.UseConsent(ctx, tx, id); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO identities (operator, kind, organization, subject, entry, invite, added) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			id.Operator, id.Kind, id.Organization, id.Subject, id.Entry, sqlcommon.NullString(id.Invite), sqlcommon.Nanos(id.Added)); err != nil {
			return err
		}
		op, err = sqlcommon.LoadOperator(ctx, tx, id.Operator)
		if err != nil {
			return err
		}
		for _, held := range op.Identities {
			if held.Kind == id.Kind {
				out = held
			}
		}
		return nil
	})
	if err != nil {
		return store.Identity{}, err
	}
	if duplicate {
		return out, fmt.Errorf("postgres: %s holds this %s identity: %w", id.Operator, id.Kind, store.ErrDuplicate)
	}
	return out, nil
}
