package sqlite

import "github.com/agora-node/agora/store/sqlcommon"

// dialect is where this driver's SQL differs from the other's.
var dialect = sqlcommon.Dialect{
	JSONArray: func(expr string) string { return "json_group_array(" + expr + ")" },
}

// What both SQL drivers read alike, written once in package sqlcommon.
var (
	addMoves                = sqlcommon.AddMoves
	addPerson               = sqlcommon.AddPerson
	allocateName            = sqlcommon.AllocateName
	bind                    = bindHooks.Bind
	changesNewest           = sqlcommon.ChangesNewest
	currentTeam             = sqlcommon.CurrentTeam
	dropContributionRecords = sqlcommon.DropContributionRecords
	dropJobRecords          = sqlcommon.DropJobRecords
	fromNanos               = sqlcommon.FromNanos
	fromNullNanos           = sqlcommon.FromNullNanos
	index                   = sqlcommon.Index
	jobIn                   = sqlcommon.JobIn
	jsonText                = sqlcommon.JSONText
	keyFree                 = sqlcommon.KeyFree
	loadAccountRequest      = sqlcommon.LoadAccountRequest
	loadBundle              = dialect.LoadBundle
	loadConsent             = sqlcommon.LoadConsent
	loadInvite              = sqlcommon.LoadInvite
	loadOperator            = sqlcommon.LoadOperator
	loadRecoveryRequest     = sqlcommon.LoadRecoveryRequest
	loadTeam                = sqlcommon.LoadTeam
	markBind                = bindHooks.Mark
	moveOnto                = sqlcommon.MoveOnto
	mustBeSigned            = sqlcommon.MustBeSigned
	nanos                   = sqlcommon.Nanos
	notFound                = sqlcommon.NotFound
	nullString              = sqlcommon.NullString
	openJobIn               = sqlcommon.OpenJobIn
	orEmpty                 = sqlcommon.OrEmpty
	placeholders            = sqlcommon.Placeholders
	putMemoryRecord         = sqlcommon.PutMemoryRecord
	putMemorySession        = sqlcommon.PutMemorySession
	putSigned               = sqlcommon.PutSigned
	queryClaims             = dialect.QueryClaims
	queryStrings            = sqlcommon.QueryStrings
	replaceMemoryRecord     = sqlcommon.ReplaceMemoryRecord
	scanAnswer              = sqlcommon.ScanAnswer
	scanBundle              = sqlcommon.ScanBundle
	scanCanary              = sqlcommon.ScanCanary
	scanContribution        = sqlcommon.ScanContribution
	scanJob                 = sqlcommon.ScanJob
	scanMemoryEvent         = sqlcommon.ScanMemoryEvent
	scanMemoryRecord        = sqlcommon.ScanMemoryRecord
	scanPersonalState       = sqlcommon.ScanPersonalState
	scanRecoveryRequest     = sqlcommon.ScanRecoveryRequest
	scanRequest             = sqlcommon.ScanRequest
	scanSigned              = sqlcommon.ScanSigned
	shownName               = sqlcommon.ShownName
	standingTeam            = sqlcommon.StandingTeam
	strings1                = sqlcommon.Strings1
	teamBanned              = sqlcommon.TeamBanned
	teamNumber              = sqlcommon.TeamNumber
	topicScope              = sqlcommon.TopicScope
	unassign                = sqlcommon.Unassign
	useConsent              = sqlcommon.UseConsent
	versions                = sqlcommon.Versions
	withinLimit             = sqlcommon.WithinLimit
)

const answerColumns = sqlcommon.AnswerColumns
const jobColumns = sqlcommon.JobColumns

type rowScanner = sqlcommon.RowScanner

const signedColumns = sqlcommon.SignedColumns
const requestColumns = sqlcommon.RequestColumns
const recoveryColumns = sqlcommon.RecoveryColumns
const bundleColumns = sqlcommon.BundleColumns
const bundleJoins = sqlcommon.BundleJoins
const claimJoins = sqlcommon.ClaimJoins
const memoryEventColumns = sqlcommon.MemoryEventColumns
const memoryRecordColumns = sqlcommon.MemoryRecordColumns
const contributionColumns = sqlcommon.ContributionColumns
const personalColumns = sqlcommon.PersonalColumns

type txGraph = sqlcommon.TxGraph
