package ledgerhttp

import "testing"

// TestWrongKindNamesBoth: a wrong_job refusal names the job held and the
// answer sent, each with its article.
func TestWrongKindNamesBoth(t *testing.T) {
	for _, c := range []struct{ held, sent, want string }{
		{"importance_rating", "methods_review", "Your job on that bundle is an importance_rating, not a methods_review"},
		{"reproduction", "screen or hazard_review", "Your job on that bundle is a reproduction, not a screen or hazard_review"},
		{"adversarial_review", "citation_check", "Your job on that bundle is an adversarial_review, not a citation_check"},
	} {
		if got := wrongKind(c.held, c.sent).Error(); got != c.want {
			t.Errorf("wrongKind(%q, %q) = %q, want %q", c.held, c.sent, got, c.want)
		}
	}
}
