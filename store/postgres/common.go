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
	insertJob               = sqlcommon.InsertJob
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

const (
	answerColumns       = sqlcommon.AnswerColumns
	bundleColumns       = sqlcommon.BundleColumns
	bundleJoins         = sqlcommon.BundleJoins
	bundleStepHook      = sqlcommon.BundleStepHook
	claimJoins          = sqlcommon.ClaimJoins
	contributionColumns = sqlcommon.ContributionColumns
	contributionFrom    = sqlcommon.ContributionFrom
	jobColumns          = sqlcommon.JobColumns
	memoryEventColumns  = sqlcommon.MemoryEventColumns
	memoryRecordColumns = sqlcommon.MemoryRecordColumns
	personalColumns     = sqlcommon.PersonalColumns
	recoveryColumns     = sqlcommon.RecoveryColumns
	requestColumns      = sqlcommon.RequestColumns
	signedColumns       = sqlcommon.SignedColumns
	voteScore           = sqlcommon.VoteScore
)

type rowScanner = sqlcommon.RowScanner
type txGraph = sqlcommon.TxGraph
