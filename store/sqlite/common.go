package sqlite

import "github.com/agora-node/agora/store/sqlcommon"

// What both SQL drivers read alike, written once in package sqlcommon.
var (
	addMoves       = sqlcommon.AddMoves
	bind           = bindHooks.Bind
	dropJobRecords = sqlcommon.DropJobRecords
	fromNanos      = sqlcommon.FromNanos
	fromNullNanos  = sqlcommon.FromNullNanos
	index          = sqlcommon.Index
	jobIn          = sqlcommon.JobIn
	jsonText       = sqlcommon.JSONText
	loadOperator   = sqlcommon.LoadOperator
	markBind       = bindHooks.Mark
	nanos          = sqlcommon.Nanos
	notFound       = sqlcommon.NotFound
	nullString     = sqlcommon.NullString
	openJobIn      = sqlcommon.OpenJobIn
	orEmpty        = sqlcommon.OrEmpty
	putSigned      = sqlcommon.PutSigned
	scanAnswer     = sqlcommon.ScanAnswer
	scanBundle     = sqlcommon.ScanBundle
	scanCanary     = sqlcommon.ScanCanary
	scanJob        = sqlcommon.ScanJob
	scanSigned     = sqlcommon.ScanSigned
	shownName      = sqlcommon.ShownName
	unassign       = sqlcommon.Unassign
	versions       = sqlcommon.Versions
)

const answerColumns = sqlcommon.AnswerColumns
const jobColumns = sqlcommon.JobColumns

type rowScanner = sqlcommon.RowScanner

const signedColumns = sqlcommon.SignedColumns
