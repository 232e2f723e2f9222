package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/miekg/dns"
)

// dnsResolver asks DNS servers for TXT records with a real DNS client
// (miekg/dns), so the node's resolver is configurable and testable on
// loopback. It does not validate DNSSEC.
type dnsResolver struct {
	servers  []string // host:port, asked in order until one answers
	udp, tcp *dns.Client
	err      error // why no server could be configured; every lookup fails with it
}

// newDNSResolver asks addr (host:port, port 53 if omitted), or, when addr
// is empty, the servers /etc/resolv.conf names, as the system resolver
// does.
func newDNSResolver(addr string, logger *slog.Logger) *dnsResolver {
	d := &dnsResolver{
		udp: &dns.Client{Net: "udp", Timeout: 5 * time.Second},
		tcp: &dns.Client{Net: "tcp", Timeout: 5 * time.Second},
	}
	switch {
	case addr != "":
		if _, _, err := net.SplitHostPort(addr); err != nil {
			addr = net.JoinHostPort(addr, "53")
		}
		d.servers = []string{addr}
	default:
		conf, err := dns.ClientConfigFromFile("/etc/resolv.conf")
		if err != nil {
			d.err = fmt.Errorf("no DNS resolver: Config.DNSResolver is empty and /etc/resolv.conf could not be read: %w", err)
			logger.Error("domain proofs will fail", "err", d.err)
			return d
		}
		for _, s := range conf.Servers {
			d.servers = append(d.servers, net.JoinHostPort(s, conf.Port))
		}
	}
	return d
}

func (d *dnsResolver) lookupTXT(ctx context.Context, name string) ([]string, error) {
	if d.err != nil {
		return nil, &unavailableError{service: "DNS", err: d.err}
	}
	q := new(dns.Msg)
	q.SetQuestion(dns.Fqdn(name), dns.TypeTXT)
	q.SetEdns0(4096, false)
	var errs []error
	for _, server := range d.servers {
		resp, _, err := d.udp.ExchangeContext(ctx, q, server)
		if err == nil && resp.Truncated {
			resp, _, err = d.tcp.ExchangeContext(ctx, q, server)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", server, err))
			continue
		}
		switch resp.Rcode {
		case dns.RcodeSuccess, dns.RcodeNameError:
			return txtRecords(resp, q.Question[0].Name), nil
		}
		errs = append(errs, fmt.Errorf("%s answered %s", server, dns.RcodeToString[resp.Rcode]))
	}
	if len(errs) == 0 {
		errs = append(errs, errors.New("no DNS server configured"))
	}
	return nil, &unavailableError{service: "DNS", err: errors.Join(errs...)}
}

// txtRecords returns the TXT records an answer holds for name, following
// CNAMEs, each record's strings joined.
func txtRecords(resp *dns.Msg, name string) []string {
	names := map[string]bool{strings.ToLower(name): true}
	for grew := true; grew; {
		grew = false
		for _, rr := range resp.Answer {
			if c, ok := rr.(*dns.CNAME); ok && names[strings.ToLower(c.Hdr.Name)] && !names[strings.ToLower(c.Target)] {
				names[strings.ToLower(c.Target)] = true
				grew = true
			}
		}
	}
	var records []string
	for _, rr := range resp.Answer {
		if t, ok := rr.(*dns.TXT); ok && names[strings.ToLower(t.Hdr.Name)] {
			records = append(records, strings.Join(t.Txt, ""))
		}
	}
	return records
}
