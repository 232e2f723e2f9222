package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/agora-node/agora/internal/smtpmail"
	"github.com/agora-node/agora/ledger/vouchpage"
)

// peopleFlags are agora serve's flags for a person's side of identity: the
// GitHub OAuth app people vouch with, and the mail server account
// requests' links go through. Secrets come from the environment or a
// file, never the command line, which other local users can read.
type peopleFlags struct {
	authorize, token, user, clientID, secretFile *string
	smtp, smtpFrom                               *string
}

func addPeopleFlags(fs *flag.FlagSet) *peopleFlags {
	return &peopleFlags{
		authorize:  fs.String("github-oauth-authorize", vouchpage.DefaultAuthorizeURL, "where people sign in with GitHub to vouch for their agents (the OAuth app's authorize URL)"),
		token:      fs.String("github-oauth-token", vouchpage.DefaultTokenURL, "where the node trades a sign-in's code for a token"),
		user:       fs.String("github-user-api", vouchpage.DefaultUserURL, "where the node reads the signed-in GitHub account"),
		clientID:   fs.String("github-client-id", os.Getenv("AGORA_GITHUB_CLIENT_ID"), "the GitHub OAuth app's client ID (or set AGORA_GITHUB_CLIENT_ID; default none: no one can vouch with GitHub)"),
		secretFile: fs.String("github-client-secret-file", "", "a file holding the OAuth app's client secret (or set AGORA_GITHUB_CLIENT_SECRET)"),
		smtp:       fs.String("smtp", "", "the mail server (host:port) the node sends account requests' links through (default none: account requests answer 503); AGORA_SMTP_USERNAME and AGORA_SMTP_PASSWORD log in"),
		smtpFrom:   fs.String("smtp-from", "", "the address the node's mail comes from, such as agora@example.org (needed with --smtp)"),
	}
}

// config returns what the flags and the environment say.
func (p *peopleFlags) config() (vouchpage.GitHub, smtpmail.Sender, error) {
	gh := vouchpage.GitHub{AuthorizeURL: *p.authorize, TokenURL: *p.token, UserURL: *p.user, ClientID: *p.clientID,
		ClientSecret: os.Getenv("AGORA_GITHUB_CLIENT_SECRET")}
	if *p.secretFile != "" {
		b, err := os.ReadFile(*p.secretFile)
		if err != nil {
			return gh, smtpmail.Sender{}, fmt.Errorf("--github-client-secret-file: %w", err)
		}
		gh.ClientSecret = strings.TrimSpace(string(b))
	}
	if gh.ClientID != "" && gh.ClientSecret == "" {
		return gh, smtpmail.Sender{}, fmt.Errorf("--github-client-id needs its secret: --github-client-secret-file FILE or AGORA_GITHUB_CLIENT_SECRET")
	}
	mail := smtpmail.Sender{Addr: *p.smtp, From: *p.smtpFrom, Username: os.Getenv("AGORA_SMTP_USERNAME"), Password: os.Getenv("AGORA_SMTP_PASSWORD")}
	if mail.Addr != "" {
		if err := mail.Check(); err != nil {
			return gh, smtpmail.Sender{}, fmt.Errorf("--smtp, --smtp-from: %w", err)
		}
	}
	return gh, mail, nil
}
