package sqlite

import "github.com/agora-node/agora/store/sqlcommon"

// What both SQL drivers read alike, written once in package sqlcommon.
var (
	fromNanos     = sqlcommon.FromNanos
	fromNullNanos = sqlcommon.FromNullNanos
	index         = sqlcommon.Index
	loadOperator  = sqlcommon.LoadOperator
	nanos         = sqlcommon.Nanos
	notFound      = sqlcommon.NotFound
	nullString    = sqlcommon.NullString
	scanBundle    = sqlcommon.ScanBundle
	shownName     = sqlcommon.ShownName
	versions      = sqlcommon.Versions
)
