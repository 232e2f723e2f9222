package sqlcommon

import "context"

// Shared is the store methods both drivers run alike, over the driver's
// own transactions: each driver's Store embeds one, so they are its
// methods, and what differs (how a write commits, retries and keeps its
// rules) stays the driver's.
type Shared struct {
	// R reads outside a transaction: the driver's pool.
	R Reader
	// Read runs f in a read-only transaction, a snapshot of one moment.
	Read func(ctx context.Context, f func(tx Querier) error) error
	// Write runs f in a write transaction and commits it, as the driver's
	// writes do: f MUST set what it reports afresh on every run, since
	// store/postgres runs it again after a serialization failure.
	Write func(ctx context.Context, f func(tx Querier) error) error
	// Dialect is where the driver's SQL differs.
	Dialect Dialect
	// Hooks are the driver's binding hooks.
	Hooks BindHooks
}
