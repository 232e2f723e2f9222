package translog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Claims.
//
// Several processes on one shared log (Config.Shared) keep their state in
// one database too, and a signed entry must reach the log once, however
// many of them are asked to log it: the same library contribution sent to
// two processes, an operator's key entry with two first actions, or an
// entry a crash left behind, which any process may find. Before logging
// an entry a process claims it by key (its digest): the claim is a row of
// agora_claims naming the slot of the Log holding it (see lockShared), and
// it is live while that slot's named lock is held. The server drops the
// lock when the process dies, so a dead process's claims are taken over
// at once, never waited out; and a Log taking a slot first clears the
// claims a Log gone from that slot left (clearClaims). A Log that does
// not share its storage has nobody to claim against, and every claim is
// its own.
//
// A server restart (or a killed connection) drops the slot locks of every
// Log at once, and each takes its own back within lockCheckEvery
// (watchLock): in between, another Log may find a live Log's slot free
// and take over its claims. The Log whose lock was dropped has lost its
// connection to the server too, so its appends in flight fail, and the
// one taking over looks for their leaves before it appends.

// ClaimState is what Log.Claim found.
type ClaimState int

const (
	// Claimed: the caller holds the claim; nobody else did.
	Claimed ClaimState = iota
	// ClaimedFromGone: the caller holds the claim, taken from a Log that is
	// gone (its process died or closed it), which may have appended the
	// entry before it went: look for it on the log before appending it.
	ClaimedFromGone
	// ClaimBusy: another Log that is open holds it; its process is logging
	// the entry. Wait for the entry to be logged, and claim again if it
	// is not.
	ClaimBusy
)

// claimsSchema is agora_claims: key is an entry's digest (or any key a
// caller claims by), slot the shared slot of the Log holding it.
const claimsSchema = "CREATE TABLE IF NOT EXISTS `agora_claims` (" +
	" `key` VARBINARY(255) NOT NULL," +
	" `slot` INT NOT NULL," +
	" PRIMARY KEY (`key`)," +
	" KEY `agora_claims_slot` (`slot`)" +
	") ENGINE=InnoDB;\n"

// ErrClaimKey is the error of a claim key that is empty or over 255 bytes.
var ErrClaimKey = errors.New("translog: a claim key is 1 to 255 bytes")

// Claim claims key for this Log (see "Claims" above): Claimed or
// ClaimedFromGone when the caller now holds it, ClaimBusy when another
// open Log does. Claiming a key this Log holds returns Claimed: which of
// a process's own callers logs an entry is the process's to decide. On a
// Log that does not share its storage every claim is Claimed at once.
func (l *Log) Claim(ctx context.Context, key string) (ClaimState, error) {
	if len(key) == 0 || len(key) > 255 {
		return 0, ErrClaimKey
	}
	return l.store.claim(ctx, key)
}

// Release gives up this Log's claim on key, if it holds it.
func (l *Log) Release(ctx context.Context, key string) error {
	return l.store.release(ctx, key)
}

func (b *posixBackend) claim(context.Context, string) (ClaimState, error) { return Claimed, nil }
func (b *posixBackend) release(context.Context, string) error             { return nil }

// claimAttempts bounds the rounds of Claim racing other Logs for one key:
// each lost round means another Log inserted, took over or released the
// row in between, which cannot go on for long.
const claimAttempts = 8

func (b *mysqlBackend) claim(ctx context.Context, key string) (ClaimState, error) {
	if !b.isShared {
		return Claimed, nil
	}
	for range claimAttempts {
		// ON DUPLICATE KEY UPDATE changes nothing: one row affected means
		// inserted, none means another row was there.
		res, err := b.db.ExecContext(ctx, "INSERT INTO agora_claims (`key`, slot) VALUES (?, ?) ON DUPLICATE KEY UPDATE slot = slot", key, b.slot)
		if err != nil {
			return 0, fmt.Errorf("translog: claiming %s in the %s: %w", key, b.label, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return 0, fmt.Errorf("translog: claiming %s in the %s: %w", key, b.label, err)
		} else if n == 1 {
			return Claimed, nil
		}
		var slot int
		err = b.db.QueryRowContext(ctx, "SELECT slot FROM agora_claims WHERE `key` = ?", key).Scan(&slot)
		if errors.Is(err, sql.ErrNoRows) {
			continue // released meanwhile
		}
		if err != nil {
			return 0, fmt.Errorf("translog: reading the claim on %s in the %s: %w", key, b.label, err)
		}
		if slot == b.slot {
			return Claimed, nil
		}
		var holder sql.NullInt64
		if err := b.db.QueryRowContext(ctx, "SELECT IS_USED_LOCK(?)", slotName(b.dbName, slot)).Scan(&holder); err != nil {
			return 0, fmt.Errorf("translog: checking the claim on %s in the %s: %w", key, b.label, err)
		}
		if holder.Valid {
			return ClaimBusy, nil
		}
		res, err = b.db.ExecContext(ctx, "UPDATE agora_claims SET slot = ? WHERE `key` = ? AND slot = ?", b.slot, key, slot)
		if err != nil {
			return 0, fmt.Errorf("translog: taking over the claim on %s in the %s: %w", key, b.label, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return 0, fmt.Errorf("translog: taking over the claim on %s in the %s: %w", key, b.label, err)
		} else if n == 1 {
			return ClaimedFromGone, nil
		}
	}
	return 0, fmt.Errorf("translog: claiming %s in the %s: lost to other Logs %d times in a row", key, b.label, claimAttempts)
}

func (b *mysqlBackend) release(ctx context.Context, key string) error {
	if !b.isShared {
		return nil
	}
	if _, err := b.db.ExecContext(ctx, "DELETE FROM agora_claims WHERE `key` = ? AND slot = ?", key, b.slot); err != nil {
		return fmt.Errorf("translog: releasing the claim on %s in the %s: %w", key, b.label, err)
	}
	return nil
}

// clearClaims removes the claims of this Log's slot, which a Log gone
// from it left: this Log, just opened, holds none yet.
func (b *mysqlBackend) clearClaims(ctx context.Context) error {
	if _, err := b.db.ExecContext(ctx, "DELETE FROM agora_claims WHERE slot = ?", b.slot); err != nil {
		return fmt.Errorf("translog: clearing the claims a Log gone left in the %s: %w", b.label, err)
	}
	return nil
}
