package postgres

import "github.com/agora-node/agora/store/sqlcommon"

// What both SQL drivers read alike, written once in package sqlcommon.
var (
	addMoves       = sqlcommon.AddMoves
	dropJobRecords = sqlcommon.DropJobRecords
	fromNanos      = sqlcommon.FromNanos
	fromNullNanos  = sqlcommon.FromNullNanos
	index          = sqlcommon.Index
	jobIn          = sqlcommon.JobIn
	jsonText       = sqlcommon.JSONText
	loadOperator   = sqlcommon.LoadOperator
	nanos          = sqlcommon.Nanos
	notFound       = sqlcommon.NotFound
	nullString     = sqlcommon.NullString
	openJobIn      = sqlcommon.OpenJobIn
	orEmpty        = sqlcommon.OrEmpty
	scanAnswer     = sqlcommon.ScanAnswer
	scanBundle     = sqlcommon.ScanBundle
	scanCanary     = sqlcommon.ScanCanary
	scanJob        = sqlcommon.ScanJob
	shownName      = sqlcommon.ShownName
	unassign       = sqlcommon.Unassign
	versions       = sqlcommon.Versions
)

const answerColumns = sqlcommon.AnswerColumns
const jobColumns = sqlcommon.JobColumns

type rowScanner = sqlcommon.RowScanner
