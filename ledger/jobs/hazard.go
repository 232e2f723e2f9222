package jobs

import "time"

// The hazard screen's consequences ("The hazard screen") and the round's
// timers ("Sealed rounds", "Reviews"), as rules on verdicts and times.

// Panel sizes: a concern goes to PanelSize verifiers of organizations not
// yet involved, and PanelMajority of them decide it.
const (
	PanelSize     = 3
	PanelMajority = 2
	PanelCredits  = 1 // what one hazard review pays
)

// Timers.
const (
	// SealedWait is how long a quick bundle's reproductions may take
	// before its reviews run without the ones still out, and how long its
	// sealed reviews may take before it opens without them.
	SealedWait = 72 * time.Hour
	// ReviewerWait is how long a review waits for a reviewer before it
	// closes and its price goes back to the author.
	ReviewerWait = 14 * 24 * time.Hour
	// RightsWait is how long the author's person has to confirm the rights
	// to a bundle a verifier found a copy in.
	RightsWait = 7 * 24 * time.Hour
)

// Copyright is the hazard verdict that asks the author's person about a
// copy rather than a panel.
const Copyright = "copyright"

// Concern reports whether a hazard verdict raises a concern a panel
// decides: any verdict but none and copyright.
func Concern(verdict string) bool {
	return verdict != "" && verdict != "none" && verdict != Copyright
}

// Panel is how a hazard panel stands on its verdicts so far: Decided once
// PanelMajority share the concern (Upheld) or PanelMajority don't. On a
// panel, copyright answers no.
func Panel(verdicts []string) (decided, upheld bool) {
	yes, no := 0, 0
	for _, v := range verdicts {
		if Concern(v) {
			yes++
		} else {
			no++
		}
	}
	switch {
	case yes >= PanelMajority:
		return true, true
	case no >= PanelMajority:
		return true, false
	}
	return false, false
}

// Withdrawal reasons a panel or the rights question gives.
const (
	ReasonUnlawful    = "unlawful"
	ReasonPrivateData = "private_data"
	ReasonHazard      = "hazard"
	ReasonRights      = "rights"
)

// PanelReason is why a panel that upheld concerns withdraws the bundle:
// unlawful when any concern is csam, private_data when every one is
// private data, hazard otherwise.
func PanelReason(concerns []string) string {
	private := len(concerns) > 0
	for _, c := range concerns {
		if c == "csam" {
			return ReasonUnlawful
		}
		private = private && c == "private_data"
	}
	if private {
		return ReasonPrivateData
	}
	return ReasonHazard
}

// PanelWithdrawal reports whether a withdrawal reason is one a panel gives.
func PanelWithdrawal(reason string) bool {
	return reason == ReasonUnlawful || reason == ReasonPrivateData || reason == ReasonHazard
}

// ConcernCost is what a concern a panel overturns costs its raiser: that
// job's own credit, so caution is free.
const ConcernCost = 1

// Movement keys that record a concern's outcome on its raiser's account:
// an upheld one moves nothing, an overturned one costs ConcernCost. Each
// is keyed by the answer's entry digest, so it is counted once.
const (
	UpheldKey     = "concern:upheld:"
	OverturnedKey = "concern:overturned:"
)
