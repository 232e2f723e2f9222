package ledgerhttp

import (
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/vocabulary"
)

// vocabularyDocument returns the JSON document a node serves at GET /api/v1/vocabulary:
// claim types, statuses, entry types, the files a bundle holds, model
// families, verdicts, and limits, as plain JSON values (maps, slices,
// strings and numbers) ready for canonical.Marshal or encoding/json. Each
// call returns a fresh value the caller may change.
//
// Members are named as the reference library names its constants, in
// snake_case: claim_types for CLAIM_TYPES, statuses for CLAIM_STATUSES,
// entry_types for LEDGER_ENTRY_TYPES, and so on. model_families lists
// {family, maker, models} objects, as src/families.ts holds them. limits
// keeps the reference library's LIMITS member names (maxClaimsPerBundle,
// ...), since a node that serializes LIMITS serves those, and adds the
// operator limits under names of the same style; durations are whole
// seconds or days, as each name says.
func vocabularyDocument() map[string]any {
	families := make([]any, len(vocabulary.ModelFamilies))
	for i, f := range vocabulary.ModelFamilies {
		families[i] = map[string]any{"family": f.Family, "maker": f.Maker, "models": f.Models}
	}
	jobs := make(map[string]any, len(vocabulary.AttestationJobs))
	for _, j := range vocabulary.AttestationJobs {
		jobs[j.Job] = list(j.Verdicts)
	}
	return map[string]any{
		"claim_types":          list(claims.Types),
		"statuses":             list(vocabulary.Statuses),
		"entry_types":          list(vocabulary.EntryTypes),
		"identity_kinds":       list(vocabulary.IdentityKinds),
		"evidence_kinds":       list([]string{claims.Computation, claims.Measurement, claims.Proof}),
		"proof_checkers":       list(claims.Checkers),
		"written_by":           list(bundle.WrittenBy),
		"work_kinds":           list(bundle.WorkKinds),
		"required_files":       list(requiredFiles),
		"optional_files":       list(optionalFiles),
		"directories":          list(directories),
		"model_families":       families,
		"attestation_jobs":     jobs,
		"review_jobs":          list(vocabulary.ReviewJobs),
		"review_verdicts":      list(vocabulary.ReviewVerdicts),
		"significance_ratings": list(vocabulary.SignificanceRatings),
		"job_kinds":            list(vocabulary.JobKinds),
		"hazard_verdicts":      list(vocabulary.HazardVerdicts),
		"withdrawal_reasons":   list(vocabulary.WithdrawalReasons),
		"challenge_grounds":    list(vocabulary.ChallengeGrounds),
		"challenge_verdicts":   list(vocabulary.ChallengeVerdicts),
		"challenge_states":     list(vocabulary.ChallengeStates),
		"citation_verdicts":    list(vocabulary.CitationVerdicts),
		"duplicate_verdicts":   list(vocabulary.DuplicateVerdicts),
		"material_kinds":       list(vocabulary.MaterialKinds),
		"deviation_kinds":      list(vocabulary.DeviationKinds),
		"task_statuses":        list(vocabulary.TaskStatuses),
		"measurement_kinds":    list(vocabulary.MeasurementKinds),
		"idea_flag_reasons":    list(vocabulary.IdeaFlagReasons),
		"signature_algorithm":  vocabulary.SignatureAlgorithm,
		"model_id": map[string]any{
			"pattern":    "^[a-z0-9._:/+-]{1,64}$",
			"max_length": vocabulary.MaxModelLength,
			"note":       "no web or email address",
		},
		"identity_proofs": map[string]any{
			"domain_record": vocabulary.DomainRecordName + ".<domain>",
			"github_file":   vocabulary.GitHubProofFile,
			"prefix":        vocabulary.ProofPrefix,
		},
		"limits": map[string]any{
			// The reference library's LIMITS.
			"maxClaimsPerBundle":     claims.MaxClaims,
			"maxSummaryTokens":       vocabulary.MaxSummaryTokens,
			"maxPaperTokens":         vocabulary.MaxPaperTokens,
			"maxMaterials":           vocabulary.MaxMaterials,
			"maxDeviations":          vocabulary.MaxDeviations,
			"minReplicas":            vocabulary.MinReplicas,
			"maxReplicas":            vocabulary.MaxReplicas,
			"maxObservationsPerTask": vocabulary.MaxObservationsPerTask,
			"maxMeasurementsPerTask": vocabulary.MaxMeasurementsPerTask,
			"maxTaskWindowDays":      vocabulary.MaxTaskWindowDays,
			"maxDecimals":            vocabulary.MaxDecimals,
			"maxObservationText":     vocabulary.MaxObservationText,
			"maxIdeaTitle":           vocabulary.MaxIdeaTitle,
			"maxIdeaDetails":         vocabulary.MaxIdeaDetails,
			"maxFlagNote":            vocabulary.MaxFlagNote,
			"maxBugTitle":            vocabulary.MaxBugTitle,
			"maxBugDetails":          vocabulary.MaxBugDetails,
			// Evidence, under the names the reference harness reads
			// before it sends an attestation.
			"max_evidence_bytes": MaxEvidenceBytes,
			"max_evidence_files": MaxEvidenceFiles,
			// Bundles, from the instructions.
			"maxBundleBytes": bundle.MaxBytes,
			"maxBundleFiles": bundle.MaxFiles,
			// Operators and identities, from the instructions.
			"maxNameLength":            vocabulary.MaxNameLength,
			"renamesPerDay":            vocabulary.RenamesPerDay,
			"maxModelLength":           vocabulary.MaxModelLength,
			"maxKeyFamilies":           vocabulary.MaxKeyFamilies,
			"clockSkewSeconds":         int(vocabulary.ClockSkew.Seconds()),
			"registrationsPerAddress":  vocabulary.RegistrationsPerIP,
			"registrationsPerNetwork":  vocabulary.RegistrationsPerNet,
			"proofAttemptsPerOperator": vocabulary.ProofsPerOperator,
			"proofAttemptsPerAddress":  vocabulary.ProofsPerIP,
			"recoveriesPerAddress":     vocabulary.RecoveriesPerIP,
			"invitesPerOrganization":   vocabulary.InvitesPerOrg,
			"inviteWindowDays":         int(vocabulary.InviteWindow / vocabulary.Day),
			"inviteLifetimeDays":       int(vocabulary.InviteLifetime / vocabulary.Day),
			"githubAccountMinAgeDays":  int(vocabulary.GitHubMinAge / vocabulary.Day),
			"openVouchConsents":        vocabulary.OpenConsents,
			"vouchConsentLifetimeDays": int(vocabulary.ConsentLifetime / vocabulary.Day),
			"vouchWaitDays":            int(vocabulary.VouchWait / vocabulary.Day),
			"accountRequestsPerDay":    vocabulary.AccountRequestsPerDay,
			"accountRequestWaitDays":   int(vocabulary.AccountRequestWait / vocabulary.Day),
			"recoveryLookbackDays":     int(vocabulary.MaxRecoveryLookback / vocabulary.Day),
			"logEntriesPerPage":        vocabulary.EntriesPerPage,
			"maxWaitSeconds":           int(vocabulary.MaxWait.Seconds()),
		},
	}
}

func list(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// requiredFiles are the files every bundle holds.
var requiredFiles = []string{"manifest.json", "paper.md", "claims.json", bundle.SignatureFile}

// optionalFiles are the other files a bundle may hold outside its
// directories.
var optionalFiles = func() []string {
	var out []string
	for _, f := range bundle.TopLevelFiles {
		required := false
		for _, r := range requiredFiles {
			required = required || f == r
		}
		if !required {
			out = append(out, f)
		}
	}
	return out
}()

// directories are the directories a bundle may hold files under.
var directories = bundle.Directories
