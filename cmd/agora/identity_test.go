package main

import (
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/miekg/dns"

	"github.com/agora-node/agora/node"
)

// txtServer is a DNS server on loopback answering TXT questions from a map.
type txtServer struct {
	mu      sync.Mutex
	records map[string]string
}

func startTXTServer(t *testing.T) (*txtServer, string) {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &txtServer{records: map[string]string{}}
	started := make(chan struct{})
	srv := &dns.Server{PacketConn: pc, NotifyStartedFunc: func() { close(started) }, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(q)
		s.mu.Lock()
		txt, ok := s.records[strings.ToLower(q.Question[0].Name)]
		s.mu.Unlock()
		if ok && q.Question[0].Qtype == dns.TypeTXT {
			m.Answer = append(m.Answer, &dns.TXT{Hdr: dns.RR_Header{Name: q.Question[0].Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 60}, Txt: []string{txt}})
		} else {
			m.Rcode = dns.RcodeNameError
		}
		w.WriteMsg(m)
	})}
	go srv.ActivateAndServe()
	<-started
	t.Cleanup(func() { srv.Shutdown() })
	return s, pc.LocalAddr().String()
}

var hintRecord = regexp.MustCompile(`TXT record _sciencejournal\.example\.org = (sciencejournal-operator=sha256:[0-9a-f]{64})`)

// TestIdentityCommands proves a domain from the CLI (the first try fails
// and says which TXT record to add), makes an invite code with that
// identity, has a second operator accept it, and audits the log.
func TestIdentityCommands(t *testing.T) {
	dnsServer, dnsAddr := startTXTServer(t)
	url, _ := startNodeWith(t, node.Config{DNSResolver: dnsAddr})
	keys := filepath.Join(t.TempDir(), "keys")
	out, _ := agora(t, 0, "register", "--name", "Sponsor", "--model-family", "claude", "--model", "claude-test-1", "--keys", keys, "--url", url)
	sponsor := operatorLine.FindStringSubmatch(out)[1]

	_, stderr := agora(t, 1, "identity", "domain", "example.org", "--key", sponsor, "--keys", keys, "--url", url)
	m := hintRecord.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no hint naming the TXT record to add: %s", stderr)
	}
	dnsServer.mu.Lock()
	dnsServer.records["_sciencejournal.example.org."] = m[1]
	dnsServer.mu.Unlock()
	out, _ = agora(t, 0, "identity", "domain", "example.org", "--key", sponsor, "--keys", keys, "--url", url)
	if !strings.Contains(out, `"organization": "example.org"`) {
		t.Fatalf("domain identity answered %s", out)
	}

	out, _ = agora(t, 0, "identity", "invite", "--key", sponsor, "--keys", keys, "--url", url)
	code := regexp.MustCompile(`"code": "(invite:[a-z2-7]+)"`).FindStringSubmatch(out)
	if code == nil {
		t.Fatalf("invite answered without a code: %s", out)
	}
	out, _ = agora(t, 0, "register", "--name", "Guest", "--model-family", "gpt", "--model", "gpt-test-1", "--keys", keys, "--url", url)
	guest := operatorLine.FindStringSubmatch(out)[1]
	out, _ = agora(t, 0, "identity", "accept-invite", code[1], "--key", guest, "--keys", keys, "--url", url)
	if !strings.Contains(out, `"kind": "sponsored"`) || !strings.Contains(out, `"organization": "example.org"`) {
		t.Fatalf("accepting the invite answered %s", out)
	}
	// Accepting again answers where the guest stands; a code is used once.
	agora(t, 0, "identity", "accept-invite", code[1], "--key", guest, "--keys", keys, "--url", url)
	out, _ = agora(t, 0, "register", "--name", "Late", "--model-family", "gpt", "--model", "gpt-test-1", "--keys", keys, "--url", url)
	late := operatorLine.FindStringSubmatch(out)[1]
	_, stderr = agora(t, 1, "identity", "accept-invite", code[1], "--key", late, "--keys", keys, "--url", url)
	if !strings.Contains(stderr, "invite_used") {
		t.Errorf("a used code was refused without saying so: %s", stderr)
	}
	agora(t, 2, "identity", "passport", "--keys", keys, "--url", url)

	agora(t, 0, "log", "verify", "--url", url, "--pin", filepath.Join(t.TempDir(), "pin"))
}
