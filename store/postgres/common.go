package postgres

import (
	"context"

	"github.com/agora-node/agora/store/sqlcommon"
)

// shared is what the methods both drivers run alike (sqlcommon.Shared)
// run on: this store's pool and transactions.
func (s *Store) shared() sqlcommon.Shared {
	return sqlcommon.Shared{
		R: s.r,
		Read: func(ctx context.Context, f func(tx sqlcommon.Querier) error) error {
			return s.read(ctx, func(tx *txn) error { return f(tx) })
		},
		Write: func(ctx context.Context, f func(tx sqlcommon.Querier) error) error {
			return s.write(ctx, func(tx *txn) error { return f(tx) })
		},
		Dialect: dialect,
		Hooks:   bindHooks,
	}
}

// dialect is where this driver's SQL differs from the other's.
var dialect = sqlcommon.Dialect{
	JSONArray: func(expr string) string { return "coalesce(json_agg(" + expr + " ORDER BY " + expr + "), '[]')" },
	JSONEach:  func(param string) string { return "SELECT json_array_elements_text(" + param + "::json)" },
	Text:      func(param string) string { return param + `::text COLLATE "C"` },
}
