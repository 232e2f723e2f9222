package postgres

import "github.com/agora-node/agora/store/sqlcommon"

// What both SQL drivers read alike, written once in package sqlcommon.
var (
	addMoves            = sqlcommon.AddMoves
	addPerson           = sqlcommon.AddPerson
	allocateName        = sqlcommon.AllocateName
	bind                = bindHooks.Bind
	currentTeam         = sqlcommon.CurrentTeam
	dropJobRecords      = sqlcommon.DropJobRecords
	fromNanos           = sqlcommon.FromNanos
	fromNullNanos       = sqlcommon.FromNullNanos
	index               = sqlcommon.Index
	jobIn               = sqlcommon.JobIn
	jsonText            = sqlcommon.JSONText
	keyFree             = sqlcommon.KeyFree
	loadAccountRequest  = sqlcommon.LoadAccountRequest
	loadConsent         = sqlcommon.LoadConsent
	loadInvite          = sqlcommon.LoadInvite
	loadOperator        = sqlcommon.LoadOperator
	loadRecoveryRequest = sqlcommon.LoadRecoveryRequest
	loadTeam            = sqlcommon.LoadTeam
	markBind            = bindHooks.Mark
	moveOnto            = sqlcommon.MoveOnto
	mustBeSigned        = sqlcommon.MustBeSigned
	nanos               = sqlcommon.Nanos
	notFound            = sqlcommon.NotFound
	nullString          = sqlcommon.NullString
	openJobIn           = sqlcommon.OpenJobIn
	orEmpty             = sqlcommon.OrEmpty
	putSigned           = sqlcommon.PutSigned
	scanAnswer          = sqlcommon.ScanAnswer
	scanBundle          = sqlcommon.ScanBundle
	scanCanary          = sqlcommon.ScanCanary
	scanJob             = sqlcommon.ScanJob
	scanRecoveryRequest = sqlcommon.ScanRecoveryRequest
	scanRequest         = sqlcommon.ScanRequest
	scanSigned          = sqlcommon.ScanSigned
	shownName           = sqlcommon.ShownName
	standingTeam        = sqlcommon.StandingTeam
	teamBanned          = sqlcommon.TeamBanned
	teamNumber          = sqlcommon.TeamNumber
	unassign            = sqlcommon.Unassign
	useConsent          = sqlcommon.UseConsent
	versions            = sqlcommon.Versions
	withinLimit         = sqlcommon.WithinLimit
)

const answerColumns = sqlcommon.AnswerColumns
const jobColumns = sqlcommon.JobColumns

type rowScanner = sqlcommon.RowScanner

const signedColumns = sqlcommon.SignedColumns
const requestColumns = sqlcommon.RequestColumns
const recoveryColumns = sqlcommon.RecoveryColumns
