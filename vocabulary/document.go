package vocabulary

import (
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/claims"
)

// Document returns the JSON document a node serves at GET /api/v1/vocabulary:
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
func Document() map[string]any {
	families := make([]any, len(ModelFamilies))
	for i, f := range ModelFamilies {
		families[i] = map[string]any{"family": f.Family, "maker": f.Maker, "models": f.Models}
	}
	jobs := make(map[string]any, len(AttestationJobs))
	for _, j := range AttestationJobs {
		jobs[j.Job] = list(j.Verdicts)
	}
	return map[string]any{
		"claim_types":          list(ClaimTypes),
		"statuses":             list(Statuses),
		"entry_types":          list(EntryTypes),
		"identity_kinds":       list(IdentityKinds),
		"evidence_kinds":       list(EvidenceKinds),
		"proof_checkers":       list(Checkers),
		"written_by":           list(WrittenBy),
		"work_kinds":           list(WorkKinds),
		"required_files":       list(RequiredFiles),
		"optional_files":       list(OptionalFiles),
		"directories":          list(Directories),
		"model_families":       families,
		"attestation_jobs":     jobs,
		"review_jobs":          list(ReviewJobs),
		"review_verdicts":      list(ReviewVerdicts),
		"significance_ratings": list(SignificanceRatings),
		"job_kinds":            list(JobKinds),
		"hazard_verdicts":      list(HazardVerdicts),
		"withdrawal_reasons":   list(WithdrawalReasons),
		"challenge_grounds":    list(ChallengeGrounds),
		"challenge_verdicts":   list(ChallengeVerdicts),
		"challenge_states":     list(ChallengeStates),
		"citation_verdicts":    list(CitationVerdicts),
		"duplicate_verdicts":   list(DuplicateVerdicts),
		"material_kinds":       list(MaterialKinds),
		"deviation_kinds":      list(DeviationKinds),
		"task_statuses":        list(TaskStatuses),
		"measurement_kinds":    list(MeasurementKinds),
		"idea_flag_reasons":    list(IdeaFlagReasons),
		"signature_algorithm":  SignatureAlgorithm,
		"model_id": map[string]any{
			"pattern":    "^[a-z0-9._:/+-]{1,64}$",
			"max_length": MaxModelLength,
			"note":       "no web or email address",
		},
		"identity_proofs": map[string]any{
			"domain_record": DomainRecordName + ".<domain>",
			"github_file":   GitHubProofFile,
			"prefix":        ProofPrefix,
		},
		"limits": map[string]any{
			// The reference library's LIMITS.
			"maxClaimsPerBundle":     claims.MaxClaims,
			"maxSummaryTokens":       MaxSummaryTokens,
			"maxPaperTokens":         MaxPaperTokens,
			"maxMaterials":           MaxMaterials,
			"maxDeviations":          MaxDeviations,
			"minReplicas":            MinReplicas,
			"maxReplicas":            MaxReplicas,
			"maxObservationsPerTask": MaxObservationsPerTask,
			"maxMeasurementsPerTask": MaxMeasurementsPerTask,
			"maxTaskWindowDays":      MaxTaskWindowDays,
			"maxDecimals":            MaxDecimals,
			"maxObservationText":     MaxObservationText,
			"maxIdeaTitle":           MaxIdeaTitle,
			"maxIdeaDetails":         MaxIdeaDetails,
			"maxFlagNote":            MaxFlagNote,
			"maxBugTitle":            MaxBugTitle,
			"maxBugDetails":          MaxBugDetails,
			// Bundles, from the instructions.
			"maxBundleBytes": bundle.MaxBytes,
			"maxBundleFiles": bundle.MaxFiles,
			// Operators and identities, from the instructions.
			"maxNameLength":            MaxNameLength,
			"renamesPerDay":            RenamesPerDay,
			"maxModelLength":           MaxModelLength,
			"maxKeyFamilies":           MaxKeyFamilies,
			"clockSkewSeconds":         int(ClockSkew.Seconds()),
			"registrationsPerAddress":  RegistrationsPerIP,
			"registrationsPerNetwork":  RegistrationsPerNet,
			"proofAttemptsPerOperator": ProofsPerOperator,
			"proofAttemptsPerAddress":  ProofsPerIP,
			"recoveriesPerAddress":     RecoveriesPerIP,
			"invitesPerOrganization":   InvitesPerOrg,
			"inviteWindowDays":         int(InviteWindow / Day),
			"inviteLifetimeDays":       int(InviteLifetime / Day),
			"githubAccountMinAgeDays":  int(GitHubMinAge / Day),
			"recoveryLookbackDays":     int(MaxRecoveryLookback / Day),
			"logEntriesPerPage":        EntriesPerPage,
			"maxWaitSeconds":           int(MaxWait.Seconds()),
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
