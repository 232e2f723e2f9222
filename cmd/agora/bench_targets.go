package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agora-node/agora/client"
)

// bench append can drive several processes of one node at once: each
// --url is one 'agora serve' of the same node (one state database, one
// log, one data folder's keys), and the bench's workers are dealt out to
// them in turn. What the bench registers through one process it invites
// and publishes through another, so the figures only mean something when
// every process sees the others' writes: several URLs of independent
// nodes would fail at the first invitation of an operator another node
// registered.

// urlsFlag gathers --url, once for each process of the node.
type urlsFlag []string

func (f *urlsFlag) String() string { return strings.Join(*f, " ") }

func (f *urlsFlag) Set(s string) error {
	if strings.Contains(s, ",") {
		return errors.New("one URL a --url: repeat --url for each process of the node")
	}
	*f = append(*f, strings.TrimRight(s, "/"))
	return nil
}

// pidsFlag gathers --node-pid, once for each process of the node; 0 is
// none, as it was when the flag took one PID.
type pidsFlag []int

func (f *pidsFlag) String() string {
	var s []string
	for _, pid := range *f {
		s = append(s, strconv.Itoa(pid))
	}
	return strings.Join(s, " ")
}

func (f *pidsFlag) Set(s string) error {
	pid, err := strconv.Atoi(s)
	if err != nil || pid < 0 {
		return fmt.Errorf("%q is not a process ID", s)
	}
	if pid > 0 {
		*f = append(*f, pid)
	}
	return nil
}

// targetURLs is every URL of the node the bench sends to.
func (b *bench) targetURLs() []string {
	if len(b.urls) == 0 {
		return []string{b.url}
	}
	return b.urls
}

// targetOf is the index in targetURLs of the URL worker w sends to:
// workers are dealt out to the URLs in turn.
func (b *bench) targetOf(w int) int {
	return w % len(b.targetURLs())
}

// urlOf is the base URL of target t.
func (b *bench) urlOf(t int) string {
	return b.targetURLs()[t]
}

// offLoopback says whether the node at base URL u is elsewhere than this
// machine's loopback, or unknown.
func offLoopback(u string) bool {
	parsed, err := url.Parse(u)
	if err != nil {
		return true
	}
	host := parsed.Hostname()
	if host == "localhost" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || ip.To4() == nil || !ip.IsLoopback()
}

// sharedClients is registrationClients' answer when registrations cannot
// each group come from an address of their own: one client a URL, the
// registrations dealt to them in turn.
func (b *bench) sharedClients(urls []string) (clientFor func(int) *client.Client, closeAll func(), spread int) {
	clients := make([]*client.Client, len(urls))
	for i, u := range urls {
		clients[i] = client.New(u, b.hc)
	}
	return func(i int) *client.Client { return clients[i%len(clients)] }, func() {}, 0
}

// perTarget is what one phase measured on one of the node's URLs.
type perTarget struct {
	latencies []time.Duration // of the requests answered 2xx
	failed    int
	nodeCPU   time.Duration // of the process at this URL, when each URL has its PID
}

// nodeCPU is the CPU time so far (user and system) of every node process
// the bench was given, summed; zero without a PID.
func (b *bench) nodeCPU() (time.Duration, error) {
	times, err := b.nodeCPUs()
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	return sum, err
}

// nodeCPUs is each node process's CPU time so far, in the order of
// --node-pid.
func (b *bench) nodeCPUs() ([]time.Duration, error) {
	times := make([]time.Duration, len(b.nodePIDs))
	for i, pid := range b.nodePIDs {
		t, err := processCPU(pid)
		if err != nil {
			return nil, err
		}
		times[i] = t
	}
	return times, nil
}

// processCPU is the CPU time so far (user and system) of process pid,
// read from /proc/PID/stat.
func processCPU(pid int) (time.Duration, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("reading the node's CPU time: %w", err)
	}
	// The command name, in parentheses, may hold spaces: the fields
	// counted from the last ')' are the third on.
	i := bytes.LastIndexByte(stat, ')')
	fields := strings.Fields(string(stat[i+1:]))
	if i < 0 || len(fields) < 13 {
		return 0, fmt.Errorf("reading the node's CPU time: /proc/%d/stat has no CPU times", pid)
	}
	var ticks int64
	for _, f := range fields[11:13] { // utime and stime, fields 14 and 15
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("reading the node's CPU time: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// clockTicks is Linux's USER_HZ, the unit of /proc's CPU times: 100 on
// every architecture Go runs Linux on.
const clockTicks = 100

// setNodeCPU sets the phase's node CPU from the processes' times before
// and after it: the sum, and each URL's own when each has its PID.
func (b *bench) setNodeCPU(p *phase, before []time.Duration) {
	after, err := b.nodeCPUs()
	if err != nil || len(after) == 0 {
		return
	}
	for i := range after {
		p.nodeCPU += after[i] - before[i]
		if len(after) == len(p.byTarget) {
			p.byTarget[i].nodeCPU = after[i] - before[i]
		}
	}
}

// cpuPerEntry is CPU time over entries in whole µs, or "-" when either is
// unknown.
func cpuPerEntry(cpu time.Duration, entries int) string {
	if cpu <= 0 || entries <= 0 {
		return "-"
	}
	return strconv.FormatInt(cpu.Microseconds()/int64(entries), 10)
}

// printPerTarget prints, for several URLs, each one's share of the timed
// phases: requests answered, entries a second, latencies and, when each
// URL has its PID, its process's CPU per entry.
func printPerTarget(w io.Writer, phases []*phase, urls []string) {
	if len(urls) < 2 {
		return
	}
	fmt.Fprintf(w, "per URL (workers dealt to %d processes of one node in turn):\n", len(urls))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\turl\trequests\trequests/s\tentries/s\tp50\tp99\tnode CPU µs/entry\tfailed\t")
	for _, p := range phases {
		for t, s := range p.byTarget {
			slices.Sort(s.latencies)
			ops := len(s.latencies)
			entries := 0
			if p.ops > 0 {
				entries = ops * p.appends / p.ops // 2 a request for invitations
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t\n", p.name, urls[t], ops, perSecond(ops, p.elapsed), perSecond(entries, p.elapsed),
				ms(percentile(s.latencies, 0.50)), ms(percentile(s.latencies, 0.99)), cpuPerEntry(s.nodeCPU, max(entries, ops)), s.failed)
		}
	}
	tw.Flush()
}
