package translog

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/tlog"
)

// Defaults for the Config fields left zero.
const (
	// DefaultCheckpointInterval keeps the time from Append to a published
	// checkpoint well under the 1.5 s the node promises at the 99th
	// percentile: an append waits for its batch (BatchMaxAge), its
	// integration, and at most one interval.
	DefaultCheckpointInterval = 500 * time.Millisecond
	// DefaultBatchMaxSize is the most entries Tessera sequences in one
	// batch. A batch costs a dozen fsyncs whatever its size, so under
	// load large batches are what make thousands of appends a second.
	DefaultBatchMaxSize = 1024
	// DefaultBatchMaxAge is the longest an entry waits for its batch to
	// fill before the batch is sequenced anyway.
	DefaultBatchMaxAge = 50 * time.Millisecond
	// DefaultMaxPending is how many appends may be in flight at once
	// before Append answers ErrPushback.
	DefaultMaxPending = 16384
	// DefaultTileCacheSize is how many tiles, each with every node it
	// implies precomputed (16 KB for a full tile), the proof reader keeps.
	DefaultTileCacheSize = 2048
	// DefaultWitnessTimeout bounds one request to a witness.
	DefaultWitnessTimeout = 10 * time.Second
)

// Bounds Config is validated against.
const (
	// MinCheckpointInterval is Tessera's POSIX driver's lower bound.
	MinCheckpointInterval = 100 * time.Millisecond
	// MinMySQLCheckpointInterval is Tessera's MySQL driver's lower bound,
	// and the default interval of a log in MySQL.
	MinMySQLCheckpointInterval = time.Second
	// MaxCheckpointInterval keeps an append's wait bounded.
	MaxCheckpointInterval = time.Minute
	// MaxBatchSize bounds a batch (and the memory it holds).
	MaxBatchSize = 1 << 16
	// MaxLeafSize is the largest leaf a tlog-tiles entry bundle holds. A
	// log in MySQL may take a few bytes less (see Config.MySQL).
	MaxLeafSize = 1<<16 - 1
)

// Config is what Open needs. Fields marked required have no default; the
// rest take the default named beside them when zero. Open validates the
// whole Config before it touches the disk.
type Config struct {
	// Dir is the log's folder, inside the node's data directory. Open
	// creates it (0700) if needed. Required unless MySQL is set.
	Dir string

	// MySQL, instead of Dir, keeps the log in a MySQL or MariaDB
	// database: a github.com/go-sql-driver/mysql DSN,
	// user:password@tcp(host:port)/database. Tessera's MySQL driver holds
	// the entries, tiles and its checkpoint there, and the tree heads and
	// cosignatures are tables beside them (see the package doc). Open
	// creates the tables if needed; the user needs CREATE, SELECT, INSERT,
	// UPDATE and DELETE on the database. CheckpointInterval is then at
	// least MinMySQLCheckpointInterval, and the largest leaf is bounded
	// by the server's max_allowed_packet (at least 16M): on MariaDB's
	// default, 17 bytes less than MaxLeafSize.
	MySQL string

	// Shared, with MySQL, lets several Logs, in this process or others,
	// run on the database at once instead of the first refusing the rest
	// (ErrLocked): each follows the tree heads and cosignatures the others
	// publish (see the package doc), and witness cosigning runs in one of
	// them at a time. The log itself keeps every index given once; a
	// caller that needs an order of its own among the leaves (package
	// journal's timestamps) keeps it across the processes itself.
	Shared bool

	// Origin names the log in its C2SP checkpoints: their first line, and
	// the name of the checkpoint key. The caller chooses it; the protocol's
	// reference monitor accepts only tlog.CheckpointOrigin of the log ID.
	// It must be a valid note key name (no spaces or plus signs). It can
	// never change for a log. Required.
	Origin string

	// LogKey is the log's hybrid key, which signs every tree head. Its
	// public key's text gives the log ID (protocol.LogID). Required.
	LogKey *hybrid.PrivateKey

	// CheckpointKey is the Ed25519 key that signs the C2SP checkpoints,
	// as a signed-note key named Origin (see tlog.NewCheckpointSigner).
	// Required.
	CheckpointKey ed25519.PrivateKey

	// CheckpointInterval is the most often a checkpoint and tree head
	// are published while the log grows, and so about the longest an
	// integrated entry waits to be published. At least
	// MinCheckpointInterval, at most MaxCheckpointInterval. Default
	// DefaultCheckpointInterval.
	CheckpointInterval time.Duration

	// BatchMaxSize and BatchMaxAge bound Tessera's sequencing batches:
	// a batch is sequenced when it holds BatchMaxSize entries or its
	// first entry has waited BatchMaxAge, whichever comes first.
	// BatchMaxAge may not exceed CheckpointInterval. Defaults
	// DefaultBatchMaxSize and DefaultBatchMaxAge.
	BatchMaxSize uint
	BatchMaxAge  time.Duration

	// MaxPending is how many Append calls may be in flight at once;
	// beyond it Append fails fast with ErrPushback. Default
	// DefaultMaxPending.
	MaxPending int

	// TileCacheSize is how many parsed tiles the proof reader caches.
	// Default DefaultTileCacheSize.
	TileCacheSize int

	// Witnesses are asked to cosign the log's checkpoints through the
	// C2SP tlog-witness protocol (see Witness and the package doc). Asking
	// is best-effort and in the background: appends never wait for a
	// witness. None by default.
	Witnesses []Witness

	// WitnessQuorum is how many of Witnesses must have cosigned a
	// checkpoint for LatestCheckpoint to answer it in preference to a
	// newer one with fewer cosignatures. At most len(Witnesses). Default
	// 1, as the spec asks: the newest checkpoint a witness cosigned.
	WitnessQuorum int

	// WitnessTimeout bounds each request to a witness. Default
	// DefaultWitnessTimeout.
	WitnessTimeout time.Duration

	// Now is the clock tree heads are stamped with. Default time.Now.
	Now func() time.Time

	// Logger receives what no caller is there to be told: a failed
	// publication (Tessera retries it) and one that stops the log. Tessera
	// itself logs through klog. Default slog.Default().
	Logger *slog.Logger
}

// A ConfigError is one field of a Config that Open refuses. Open's error
// joins one for each such field; errors.As finds the first.
type ConfigError struct {
	Field string // the Config field, such as "CheckpointInterval"
	Value string // the value refused, left empty for keys
	Issue string // what is wrong with it
}

func (e *ConfigError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("translog: config: %s %s", e.Field, e.Issue)
	}
	return fmt.Sprintf("translog: config: %s %s (got %s)", e.Field, e.Issue, e.Value)
}

// withDefaults returns c with every zero field that has a default set.
func (c Config) withDefaults() Config {
	if c.CheckpointInterval == 0 {
		c.CheckpointInterval = DefaultCheckpointInterval
		if c.MySQL != "" {
			c.CheckpointInterval = MinMySQLCheckpointInterval
		}
	}
	if c.BatchMaxSize == 0 {
		c.BatchMaxSize = DefaultBatchMaxSize
	}
	if c.BatchMaxAge == 0 {
		c.BatchMaxAge = min(DefaultBatchMaxAge, c.CheckpointInterval)
	}
	if c.MaxPending == 0 {
		c.MaxPending = DefaultMaxPending
	}
	if c.TileCacheSize == 0 {
		c.TileCacheSize = DefaultTileCacheSize
	}
	if c.WitnessQuorum == 0 && len(c.Witnesses) > 0 {
		c.WitnessQuorum = 1
	}
	if c.WitnessTimeout == 0 {
		c.WitnessTimeout = DefaultWitnessTimeout
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Validate reports every field of c (after defaults) that Open would
// refuse, as joined *ConfigError values; nil if there are none.
func (c Config) Validate() error {
	c = c.withDefaults()
	var errs []error
	bad := func(field, value, issue string) {
		errs = append(errs, &ConfigError{Field: field, Value: value, Issue: issue})
	}
	switch {
	case c.Dir == "" && c.MySQL == "":
		bad("Dir", "", "is required (or MySQL)")
	case c.Dir != "" && c.MySQL != "":
		bad("MySQL", "", "and Dir are both set: the log is in one or the other")
	case c.Shared && c.MySQL == "":
		bad("Shared", "", "needs MySQL: a log in a folder has one process")
	case c.MySQL != "":
		if err := checkMySQLDSN(c.MySQL); err != nil {
			bad("MySQL", "", err.Error())
		}
	}
	if c.Origin == "" {
		bad("Origin", "", "is required")
	} else if len(c.CheckpointKey) == ed25519.PrivateKeySize {
		if _, err := tlog.NewCheckpointSigner(c.Origin, c.CheckpointKey); err != nil {
			bad("Origin", fmt.Sprintf("%.100q", c.Origin), "is not a checkpoint origin: "+err.Error())
		}
	}
	if c.LogKey == nil {
		bad("LogKey", "", "is required")
	}
	if c.CheckpointKey == nil {
		bad("CheckpointKey", "", "is required")
	} else if len(c.CheckpointKey) != ed25519.PrivateKeySize {
		bad("CheckpointKey", "", fmt.Sprintf("must be an Ed25519 private key of %d bytes, not %d", ed25519.PrivateKeySize, len(c.CheckpointKey)))
	}
	minInterval := MinCheckpointInterval
	if c.MySQL != "" {
		minInterval = MinMySQLCheckpointInterval
	}
	if c.CheckpointInterval < minInterval || c.CheckpointInterval > MaxCheckpointInterval {
		bad("CheckpointInterval", c.CheckpointInterval.String(), fmt.Sprintf("must be between %v and %v", minInterval, MaxCheckpointInterval))
	}
	if c.BatchMaxSize > MaxBatchSize {
		bad("BatchMaxSize", fmt.Sprint(c.BatchMaxSize), fmt.Sprintf("must be at most %d", MaxBatchSize))
	}
	if c.BatchMaxAge < 0 || c.BatchMaxAge > c.CheckpointInterval {
		bad("BatchMaxAge", c.BatchMaxAge.String(), "must be positive and at most CheckpointInterval")
	}
	if c.MaxPending < 0 {
		bad("MaxPending", fmt.Sprint(c.MaxPending), "must not be negative")
	}
	if c.TileCacheSize < 0 {
		bad("TileCacheSize", fmt.Sprint(c.TileCacheSize), "must not be negative")
	}
	errs = append(errs, validateWitnesses(c)...)
	return errors.Join(errs...)
}
