package operators

import (
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
)

func TestRegistrableDomain(t *testing.T) {
	for _, tc := range []struct {
		domain, want string
	}{
		{"example.org", "example.org"},
		{"lab.example.org", "example.org"},
		{"a.b.lab.example.org", "example.org"},
		{"example.co.uk", "example.co.uk"},
		{"lab.example.co.uk", "example.co.uk"},
		{"xn--mller-kva.de", "xn--mller-kva.de"},
		// Names a shared service gives out count as the service's domain.
		{"my-agent.duckdns.org", "duckdns.org"},
		{"duckdns.org", "duckdns.org"},
		{"someone.github.io", "github.io"},
		{"deep.someone.github.io", "github.io"},
	} {
		got, err := RegistrableDomain(tc.domain)
		if err != nil || got != tc.want {
			t.Errorf("RegistrableDomain(%q) = %q, %v; want %q", tc.domain, got, err, tc.want)
		}
	}
	for _, domain := range []string{"org", "co.uk", "localhost", "example.localtest", "example.invalid"} {
		if got, err := RegistrableDomain(domain); err == nil {
			t.Errorf("RegistrableDomain(%q) = %q, want an error", domain, got)
		} else {
			wantErr(t, domain, err, ErrInvalidDomain, "/domain")
		}
	}
}

func TestCheckDomain(t *testing.T) {
	for _, d := range []string{"example.org", "lab.example.org", "my-lab.example.co.uk", "1.example.org"} {
		if err := CheckDomain(d); err != nil {
			t.Errorf("CheckDomain(%q) = %v", d, err)
		}
	}
	for _, d := range []string{
		"", "example", "Example.org", "example.org.", ".example.org", "exa mple.org", "example..org",
		"exämple.org", "example.org/path", "https://example.org", "_sciencejournal.example.org",
		strings.Repeat("a", 64) + ".org", strings.Repeat("a.", 126) + "org", "co.uk", "example.notatld",
	} {
		wantErr(t, "CheckDomain("+d+")", CheckDomain(d), ErrInvalidDomain, "/domain")
	}
}

func TestProofs(t *testing.T) {
	digest := protocol.KeyDigest(pub(key(t, 0)))
	other := protocol.KeyDigest(pub(key(t, 1)))
	line := "sciencejournal-operator=" + digest
	if ProofLine(digest) != line || DomainRecord("example.org") != "_sciencejournal.example.org" {
		t.Fatal("ProofLine or DomainRecord is not the instructions' form")
	}
	for _, tc := range []struct {
		records []string
		want    bool
	}{
		{[]string{line}, true},
		{[]string{"v=spf1 -all", line}, true},
		{[]string{" " + line + " "}, true},
		{[]string{`"` + line + `"`}, true},
		{[]string{strings.ToUpper(line)}, true},
		{nil, false},
		{[]string{"sciencejournal-operator=" + other}, false},
		{[]string{line + "x"}, false},
		{[]string{"sciencejournal-operator= " + digest}, false},
		{[]string{strings.TrimPrefix(digest, "sha256:")}, false},
	} {
		if got := TXTProves(tc.records, digest); got != tc.want {
			t.Errorf("TXTProves(%q) = %v, want %v", tc.records, got, tc.want)
		}
	}
	for _, tc := range []struct {
		file string
		want bool
	}{
		{line, true},
		{line + "\n", true},
		{"sciencejournal-operator=" + other + "\n" + line + "\n", true},
		{"# our agents\r\n" + line + "\r\n", true},
		{"\uFEFF" + line, true},
		{"  " + line + "\t\n", true},
		{"", false},
		{"sciencejournal-operator=" + other, false},
		{"prefix " + line, false},
		{line[:len(line)-1], false},
	} {
		if got := GitHubFileProves([]byte(tc.file), digest); got != tc.want {
			t.Errorf("GitHubFileProves(%q) = %v, want %v", tc.file, got, tc.want)
		}
	}
}

func TestCheckRepository(t *testing.T) {
	for _, r := range []string{"example-lab/agents", "a/b", "Octo-Cat/.github", "x/my_repo.v2", strings.Repeat("a", 39) + "/r"} {
		if err := CheckRepository(r); err != nil {
			t.Errorf("CheckRepository(%q) = %v", r, err)
		}
	}
	for _, r := range []string{
		"", "agents", "/agents", "owner/", "-owner/r", "owner/repo/extra", "owner/..", "owner/.",
		"own er/r", strings.Repeat("a", 40) + "/r", "o/" + strings.Repeat("r", 101), "https://github.com/o/r",
	} {
		wantErr(t, "CheckRepository("+r+")", CheckRepository(r), ErrInvalidRepository, "/repository")
	}
}

func TestOrganizations(t *testing.T) {
	if got := GitHubOrganization(583231); got != "github:583231" || !IsGitHubOrganization(got) {
		t.Errorf("GitHubOrganization = %q", got)
	}
	for s, want := range map[string]bool{
		"github:1": true, "github:583231": true, "card:" + strings.Repeat("ab", 32): true,
		"github:0": false, "github:octocat": false, "github:": false, "card:" + strings.Repeat("AB", 32): false,
		"card:abc": false, "example.org": false,
	} {
		if IsVoucher(s) != want {
			t.Errorf("IsVoucher(%q) = %v, want %v", s, !want, want)
		}
	}
	now := time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC)
	if err := CheckGitHubAccountAge(now.AddDate(0, 0, -90), now); err != nil {
		t.Errorf("a 90-day-old account: %v", err)
	}
	wantErr(t, "an 89-day-old account", CheckGitHubAccountAge(now.AddDate(0, 0, -89), now), ErrAccountTooNew, "")
}

func TestIdentityEntries(t *testing.T) {
	opKey, sponsorKey, logKey, other := key(t, 0), key(t, 1), key(t, 2), key(t, 3)
	op, sponsor := protocol.OperatorID(pub(opKey)), protocol.OperatorID(pub(sponsorKey))
	keys := IdentityKeys{Operator: pub(opKey), Sponsor: pub(sponsorKey), Log: pub(logKey)}
	code := "invite:" + strings.Repeat("a2", 16)
	payload, _ := InvitePayload(sponsor, code)
	vouch := map[string]any{"type": "identity", "kind": "vouched", "operator": op, "voucher": "github:42"}
	vouchPayload, _ := canonical.Marshal(vouch)
	vouch["voucher_sig"] = logKey.Sign(vouchPayload)
	invitation, err := SignInvitation(op, logKey)
	if err != nil {
		t.Fatal(err)
	}

	good := map[string]map[string]any{
		"domain":    signed(t, opKey, map[string]any{"type": "identity", "kind": "domain", "operator": op, "domain": "lab.example.org"}),
		"github":    signed(t, opKey, map[string]any{"type": "identity", "kind": "github", "operator": op, "repository": "example-lab/agents"}),
		"sponsored": signed(t, opKey, map[string]any{"type": "identity", "kind": "sponsored", "operator": op, "sponsor": sponsor, "code": code, "sponsor_sig": sponsorKey.Sign(payload)}),
		"vouched":   signed(t, opKey, vouch),
		"invited":   invitation,
	}
	subjects := map[string]string{"domain": "lab.example.org", "github": "example-lab/agents", "sponsored": sponsor, "vouched": "github:42", "invited": ""}
	for kind, entry := range good {
		e, err := CheckIdentityEntry(entry, op)
		if err != nil {
			t.Errorf("%s: CheckIdentityEntry: %v", kind, err)
			continue
		}
		if e.Kind != kind || e.Operator != op || e.Subject() != subjects[kind] {
			t.Errorf("%s: %+v", kind, e)
		}
		if err := VerifyIdentityEntry(entry, e, keys); err != nil {
			t.Errorf("%s: VerifyIdentityEntry: %v", kind, err)
		}
		// Every kind's signatures are checked against the right key.
		wrong := keys
		switch kind {
		case "invited":
			wrong.Log = pub(other)
		default:
			wrong.Operator = pub(other)
		}
		wantErr(t, kind+" with the wrong key", VerifyIdentityEntry(entry, e, wrong), ErrBadSignature, "/sig")
	}
	e, _ := CheckIdentityEntry(good["sponsored"], op)
	wantErr(t, "sponsor_sig by another key", VerifyIdentityEntry(good["sponsored"], e, IdentityKeys{Operator: pub(opKey), Sponsor: pub(other)}), ErrBadSignature, "/sponsor_sig")
	e, _ = CheckIdentityEntry(good["vouched"], op)
	wantErr(t, "a vouch the log did not attest", VerifyIdentityEntry(good["vouched"], e, IdentityKeys{Operator: pub(opKey), Log: pub(other)}), ErrBadSignature, "/voucher_sig")

	for _, tc := range []struct {
		why   string
		entry map[string]any
		want  *Sentinel
		field string
	}{
		{"no kind", map[string]any{"type": "identity", "operator": op, "sig": "s"}, ErrMalformed, "/kind"},
		{"unknown kind", map[string]any{"type": "identity", "kind": "passport", "operator": op, "sig": "s"}, ErrMalformed, "/kind"},
		{"wrong type", map[string]any{"type": "key", "kind": "domain", "operator": op, "domain": "example.org", "sig": "s"}, ErrMalformed, "/type"},
		{"another operator", map[string]any{"type": "identity", "kind": "domain", "operator": sponsor, "domain": "example.org", "sig": "s"}, ErrWrongOperator, "/operator"},
		{"names a model", map[string]any{"type": "identity", "kind": "domain", "operator": op, "domain": "example.org", "model": "m", "sig": "s"}, ErrMalformed, "/model"},
		{"bad domain", map[string]any{"type": "identity", "kind": "domain", "operator": op, "domain": "Example.org", "sig": "s"}, ErrInvalidDomain, "/domain"},
		{"public suffix", map[string]any{"type": "identity", "kind": "domain", "operator": op, "domain": "co.uk", "sig": "s"}, ErrInvalidDomain, "/domain"},
		{"domain with a repository", map[string]any{"type": "identity", "kind": "domain", "operator": op, "repository": "a/b", "sig": "s"}, ErrMalformed, "/domain"},
		{"bad repository", map[string]any{"type": "identity", "kind": "github", "operator": op, "repository": "github.com/a/b", "sig": "s"}, ErrInvalidRepository, "/repository"},
		{"bad voucher", map[string]any{"type": "identity", "kind": "vouched", "operator": op, "voucher": "octocat", "voucher_sig": "s", "sig": "s"}, ErrMalformed, "/voucher"},
		{"own sponsor", map[string]any{"type": "identity", "kind": "sponsored", "operator": op, "sponsor": op, "code": code, "sponsor_sig": "s", "sig": "s"}, ErrInvalidInvite, "/sponsor"},
		{"sponsor not an ID", map[string]any{"type": "identity", "kind": "sponsored", "operator": op, "sponsor": "op:1", "code": code, "sponsor_sig": "s", "sig": "s"}, ErrMalformed, "/sponsor"},
		{"bad code", map[string]any{"type": "identity", "kind": "sponsored", "operator": op, "sponsor": sponsor, "code": "invite:short", "sponsor_sig": "s", "sig": "s"}, ErrInvalidInvite, "/code"},
		{"no sponsor_sig", map[string]any{"type": "identity", "kind": "sponsored", "operator": op, "sponsor": sponsor, "code": code, "sig": "s"}, ErrMalformed, "/sponsor_sig"},
	} {
		_, err := CheckIdentityEntry(tc.entry, op)
		wantErr(t, tc.why, err, tc.want, tc.field)
	}
	if _, err := SignInvitation("op:bad", logKey); err == nil {
		t.Error("SignInvitation took a bad operator ID")
	}
}
