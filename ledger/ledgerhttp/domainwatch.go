package ledgerhttp

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/vocabulary"
)

// A domain from the pairing link ("Identity", "A domain"): the person who
// holds an agent's pairing code names a domain of theirs on the agent's
// page; the node watches for the TXT record that names the agent's key for
// 48 hours and, once it appears, logs the domain as the agent's identity,
// {"type": "identity", "kind": "domain", "operator", "domain", "pairing",
// "consent_sig", "voucher_sig"}, completing the consent, the log attesting
// in voucher_sig that whoever brought the code named the domain.

// DefaultDomainWatchEvery is how often the node looks for the records of
// the domains it watches, when Config.DomainWatchEvery is zero.
const DefaultDomainWatchEvery = 5 * time.Minute

// DomainResult is what naming a domain from the pairing link did: logged
// the identity at once (the record was there), or left the node watching
// for it until Until.
type DomainResult struct {
	Operator string
	Domain   string
	Record   string // the TXT record's name
	Value    string // the value it must hold
	Logged   bool
	Index    int64
	Until    time.Time
}

// WatchDomain takes a domain a person named from an agent's pairing link
// with its code: the code must be one the agent consented to, still open.
// The record is looked for at once; if it is not there yet, the node
// watches for it for 48 hours.
func (s *Server) WatchDomain(ctx context.Context, operator, domain, pairing string) (DomainResult, error) {
	op, err := s.store.Operator(ctx, operator)
	if err != nil {
		return DomainResult{}, err
	}
	if err := operators.CheckDomain(domain); err != nil {
		return DomainResult{}, ruleError(err)
	}
	if err := operators.CheckPairingCode(pairing); err != nil {
		return DomainResult{}, ruleError(err)
	}
	c, err := s.store.VouchConsent(ctx, operators.PairingDigest(pairing))
	if errors.Is(err, store.ErrNotFound) || err == nil && c.Operator != op.ID {
		return DomainResult{}, &httpapi.Error{Status: http.StatusNotFound, Code: "not_found",
			Message: "The agent gave no consent for this pairing code, or only its newest 10 stay open: ask it for a new link"}
	}
	if err != nil {
		return DomainResult{}, err
	}
	if state := c.State(s.now()); state != "open" {
		return DomainResult{}, &httpapi.Error{Status: http.StatusConflict, Code: "consent_void", Message: "The pairing code's consent is " + state + ": ask your agent for a new link"}
	}
	e := &operators.IdentityEntry{Kind: vocabulary.IdentityDomain, Operator: op.ID, Domain: domain, Pairing: c.Pairing}
	if _, _, err := standing(op, e); err != nil {
		return DomainResult{}, err
	}
	res := DomainResult{Operator: op.ID, Domain: domain, Record: operators.DomainRecord(domain),
		Value: operators.ProofLine(op.Key().Digest), Index: store.Unlogged}
	if logged, index, err := s.provePairedDomain(ctx, op, c, domain); err != nil || logged {
		res.Logged, res.Index = logged, index
		return res, err
	}
	now := s.now()
	res.Until = now.Add(vocabulary.DomainWatchLifetime)
	err = s.store.WatchDomain(ctx, store.DomainWatch{Pairing: c.Pairing, Operator: op.ID, Domain: domain, Started: now, Until: res.Until})
	return res, err
}

// provePairedDomain looks for the record that proves domain for op and,
// when it is there, logs the paired domain identity. A record not there
// yet, or DNS not answering, is no error: the watch goes on.
func (s *Server) provePairedDomain(ctx context.Context, op store.Operator, c store.VouchConsent, domain string) (bool, int64, error) {
	records, err := s.ids.lookupTXT(ctx, operators.DomainRecord(domain))
	if err != nil || !operators.TXTProves(records, op.Key().Digest) {
		return false, 0, nil
	}
	organization, err := operators.RegistrableDomain(domain)
	if err != nil {
		return false, 0, ruleError(err)
	}
	entry, err := operators.AttestPairedDomain(op.ID, operators.VouchConsent{Pairing: c.Pairing, Sig: c.Sig}, domain, s.logKey)
	if err != nil {
		return false, 0, err
	}
	answer, _, err := s.ids.record(ctx, entry, op, store.Identity{
		Kind: vocabulary.IdentityDomain, Organization: organization, Subject: domain, Pairing: c.Pairing,
	})
	if err != nil {
		return false, 0, err
	}
	index, _ := answer.(map[string]any)["index"].(int64)
	return true, index, nil
}

// CheckDomainWatches looks once for the record of every domain the node
// watches, logs those that appeared, and forgets those whose consent no
// longer stands or whose 48 hours are up.
func (s *Server) CheckDomainWatches(ctx context.Context) {
	now := s.now()
	watches, err := s.store.DomainWatches(ctx, now)
	if err != nil {
		s.logger.Error("reading the domains watched", "err", err)
		return
	}
	var done []string
	for _, w := range watches {
		op, err := s.store.Operator(ctx, w.Operator)
		if err != nil {
			s.logger.Warn("a watched domain's operator", "operator", w.Operator, "err", err)
			continue
		}
		c, err := s.store.VouchConsent(ctx, w.Pairing)
		if err != nil || c.State(now) != "open" {
			done = append(done, w.Pairing)
			continue
		}
		logged, _, err := s.provePairedDomain(ctx, op, c, w.Domain)
		switch {
		case err != nil:
			s.logger.Warn("logging a watched domain", "operator", w.Operator, "domain", w.Domain, "err", err)
			done = append(done, w.Pairing)
		case logged:
			s.logger.Info("a watched domain proved its agent", "operator", w.Operator, "domain", w.Domain)
			done = append(done, w.Pairing)
		}
	}
	if err := s.store.DropDomainWatches(ctx, done, now); err != nil {
		s.logger.Error("dropping domain watches", "err", err)
	}
}

// watchDomains runs CheckDomainWatches every Config.DomainWatchEvery until
// ctx ends.
func (s *Server) watchDomains(ctx context.Context) {
	every := s.cfg.DomainWatchEvery
	if every <= 0 {
		every = DefaultDomainWatchEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.CheckDomainWatches(ctx)
		}
	}
}
