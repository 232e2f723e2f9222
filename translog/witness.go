package translog

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/tlog"
)

// A Witness is a witness the log asks to cosign its checkpoints, through
// the C2SP tlog-witness protocol (https://c2sp.org/tlog-witness).
//
// Why not Tessera's own witnessing (tessera.AppendOptions.WithWitnesses):
// Tessera asks the witnesses before it publishes a checkpoint and holds the
// publication until they answer or its timeout passes, so a slow or dead
// witness would hold every Append. Here the log publishes first and asks
// afterwards, in the background.
type Witness struct {
	// VerifierKey is the witness's cosignature/v1 verifier key: a vkey of
	// signature type 0x04 (c2sp.org/signed-note), name+id+key.
	VerifierKey string

	// URL is the witness's add-checkpoint endpoint, such as
	// https://witness.example/add-checkpoint.
	URL string
}

// Backoff for a witness that failed: it is asked again after
// witnessBackoffMin, doubling with each failure in a row up to
// witnessBackoffMax. Tests lower them.
var (
	witnessBackoffMin = time.Second
	witnessBackoffMax = 5 * time.Minute
)

const (
	// cosignaturesName is the cosignature file, beside the tree-head file.
	cosignaturesName = "cosignatures"
	// maxWitnessReply bounds what is read of a witness's answer.
	maxWitnessReply = 64 << 10
	// maxCosignScan bounds how many cosignature records Open looks back
	// through for the newest checkpoint with a quorum.
	maxCosignScan = 1024
	// maxWitnessConflicts is how often in a row a witness may answer 409
	// with its size before the request counts as failed.
	maxWitnessConflicts = 3
)

// validateWitnesses returns a *ConfigError for each witness setting of c
// (after defaults) that Open refuses.
func validateWitnesses(c Config) []error {
	var errs []error
	bad := func(field, value, issue string) {
		errs = append(errs, &ConfigError{Field: field, Value: value, Issue: issue})
	}
	names := make(map[string]bool)
	for i, w := range c.Witnesses {
		field := fmt.Sprintf("Witnesses[%d]", i)
		if name, err := witnessName(w.VerifierKey); err != nil {
			bad(field+".VerifierKey", fmt.Sprintf("%.100q", w.VerifierKey), "is not a witness's cosignature/v1 verifier key: "+err.Error())
		} else if names[name] {
			bad(field+".VerifierKey", fmt.Sprintf("%.100q", w.VerifierKey), "names a witness listed before it")
		} else {
			names[name] = true
		}
		if u, err := url.Parse(w.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad(field+".URL", fmt.Sprintf("%.200q", w.URL), "must be an http or https URL")
		}
	}
	if c.WitnessQuorum < 0 || c.WitnessQuorum > len(c.Witnesses) {
		bad("WitnessQuorum", fmt.Sprint(c.WitnessQuorum), fmt.Sprintf("must be between 0 and the %d witnesses", len(c.Witnesses)))
	}
	if c.WitnessTimeout < 0 {
		bad("WitnessTimeout", c.WitnessTimeout.String(), "must not be negative")
	}
	return errs
}

// witnessName checks that vkey is a cosignature/v1 verifier key and
// returns its name.
func witnessName(vkey string) (string, error) {
	v, err := tlog.NewNoteVerifier(vkey)
	if err != nil {
		return "", err
	}
	// NewNoteVerifier checked the shape name+8 hex digits+base64.
	_, rest, _ := strings.Cut(vkey, "+")
	raw, err := base64.StdEncoding.DecodeString(rest[9:])
	if err != nil || len(raw) == 0 || raw[0] != tlog.SigTypeCosignature {
		return "", errors.New("its signature type is not 4")
	}
	return v.Name(), nil
}

// A cosigned is one record of the cosignature file: the log's checkpoint of
// size entries as the tree-head file holds it, followed by the cosignature
// lines of the witnesses that cosigned it. A later record of the same size
// replaces an earlier one, holding its cosignatures and more.
type cosigned struct {
	size uint64
	note []byte
}

func formatCosigned(c cosigned) ([]byte, error) {
	line, err := canonical.Marshal(map[string]any{"checkpoint": string(c.note), "size": c.size})
	if err != nil {
		return nil, err
	}
	return append(line, '\n'), nil
}

func parseCosigned(line []byte) (cosigned, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var r struct {
		Checkpoint string `json:"checkpoint"`
		Size       uint64 `json:"size"`
	}
	if err := dec.Decode(&r); err != nil {
		return cosigned{}, err
	}
	cp, err := tlog.ParseCheckpoint([]byte(r.Checkpoint))
	if err != nil {
		return cosigned{}, err
	}
	if cp.Size != r.Size {
		return cosigned{}, fmt.Errorf("its checkpoint is of %d entries, not %d", cp.Size, r.Size)
	}
	return cosigned{size: r.Size, note: []byte(r.Checkpoint)}, nil
}

func openCosignatures(path string) (*recordFile[cosigned], error) {
	s, err := openRecords(path, "cosignature file", parseCosigned, formatCosigned,
		func(c cosigned) uint64 { return c.size })
	if err != nil {
		return nil, err
	}
	s.replaces = true
	return s, nil
}

// lines returns c's cosignature lines, each ending in a newline, given the
// log's checkpoint of c's size, which c's note must begin with.
func (c cosigned) lines(logNote []byte) ([]string, error) {
	rest, ok := bytes.CutPrefix(c.note, logNote)
	if !ok {
		return nil, corrupt("cosignature file: the record of %d entries is not of the checkpoint the log published", c.size)
	}
	var lines []string
	for _, line := range strings.SplitAfter(string(rest), "\n") {
		if line != "" {
			lines = append(lines, line)
		}
	}
	return lines, nil
}

// verifiedCosignatures returns, of the signature lines given, the
// cosignature of each configured witness that verifies on logNote, in the
// order of Config.Witnesses; at most one per witness.
func (l *Log) verifiedCosignatures(logNote []byte, lines []string) []string {
	var kept []string
	for _, w := range l.cfg.Witnesses {
		for _, line := range lines {
			if cosignedBy(logNote, line, w.VerifierKey) {
				kept = append(kept, line)
				break
			}
		}
	}
	return kept
}

// cosignedBy reports whether line is the witness vkey's cosignature on
// logNote.
func cosignedBy(logNote []byte, line, vkey string) bool {
	msg := append(bytes.Clone(logNote), line...)
	_, err := tlog.VerifyCosignature(msg, vkey)
	return err == nil
}

// withCosignatures returns p's checkpoint followed by the verified
// cosignatures stored for it.
func (l *Log) withCosignatures(p published) ([]byte, error) {
	if l.cosigs == nil {
		return bytes.Clone(p.checkpoint), nil
	}
	c, err := l.cosigs.find(p.head.Size)
	if errors.Is(err, ErrNotFound) {
		return bytes.Clone(p.checkpoint), nil
	}
	if err != nil {
		return nil, err
	}
	lines, err := c.lines(p.checkpoint)
	if err != nil {
		return nil, err
	}
	out := bytes.Clone(p.checkpoint)
	for _, line := range l.verifiedCosignatures(p.checkpoint, lines) {
		out = append(out, line...)
	}
	return out, nil
}

// newestCheckpoint returns the latest published checkpoint with whatever
// cosignatures it has.
func (l *Log) newestCheckpoint() ([]byte, error) {
	p, err := l.current()
	if err != nil {
		return nil, err
	}
	return l.withCosignatures(p)
}

// A witnessState is the log's view of one witness. It is owned by the
// cosigning goroutine (and its round's goroutine for that witness).
type witnessState struct {
	Witness
	name     string
	size     uint64 // the size of the last checkpoint it cosigned, as far as the log knows; 0 if unknown
	failures int    // failed requests in a row
	retryAt  time.Time
}

// openWitnessing opens the cosignature file and reads what the log needs
// from it: the newest checkpoint with a quorum of cosignatures, and which
// size each witness last cosigned. Called by Open when witnesses are
// configured, after the tree-head file is checked.
func (l *Log) openWitnessing() error {
	var err error
	if l.cosigs, err = l.store.openCosignatures(); err != nil {
		return err
	}
	for _, w := range l.cfg.Witnesses {
		name, _ := witnessName(w.VerifierKey) // validated
		l.witnesses = append(l.witnesses, &witnessState{Witness: w, name: name})
	}
	if _, ok := l.cosigs.latest(); !ok {
		return nil
	}
	if err := l.readWitnessSizes(); err != nil {
		return err
	}
	var best []byte
	_, _, err = l.cosigs.lastWhere(maxCosignScan, func(c cosigned) bool {
		note, ok, err := l.quorumNote(c)
		best = note
		return err == nil && ok
	})
	if err != nil {
		return err
	}
	l.bestCosigned = best
	return nil
}

// quorumNote returns c's checkpoint followed by the cosignatures of it
// that verify, if they are Config.WitnessQuorum at least; false if not.
func (l *Log) quorumNote(c cosigned) ([]byte, bool, error) {
	p, err := l.heads.find(c.size)
	if err != nil {
		return nil, false, err
	}
	lines, err := c.lines(p.checkpoint)
	if err != nil {
		return nil, false, err
	}
	kept := l.verifiedCosignatures(p.checkpoint, lines)
	if len(kept) < l.cfg.WitnessQuorum {
		return nil, false, nil
	}
	return append(bytes.Clone(p.checkpoint), strings.Join(kept, "")...), true, nil
}

// readWitnessSizes sets which size each witness last cosigned from the
// last cosignature record.
func (l *Log) readWitnessSizes() error {
	last, ok := l.cosigs.latest()
	if !ok {
		return nil
	}
	if head, ok := l.heads.latest(); !ok || last.size > head.head.Size {
		return corrupt("%s holds cosignatures of a tree of %d entries, which was never published", l.cosigs.name(), last.size)
	}
	lastHead, err := l.heads.find(last.size)
	if err != nil {
		return err
	}
	lines, err := last.lines(lastHead.checkpoint)
	if err != nil {
		return err
	}
	for _, w := range l.witnesses {
		for _, line := range lines {
			if cosignedBy(lastHead.checkpoint, line, w.VerifierKey) {
				w.size = max(w.size, last.size)
			}
		}
	}
	return nil
}

// startWitnessing starts the goroutine that asks the witnesses to cosign;
// stopWitnessing (in Close) stops it.
func (l *Log) startWitnessing() {
	if len(l.witnesses) == 0 {
		return
	}
	ctx, cancel := context.WithCancel(l.bg)
	l.cosignStop = cancel
	// A client of its own, so Close can drop its idle connections.
	l.witnessClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	l.cosignDone = make(chan struct{})
	go l.cosignLead(ctx)
}

// cosignLeadRetry is how often a Log whose storage another Log shares
// tries to take the cosigning over (see takeCosigning). Tests lower it.
var cosignLeadRetry = 5 * time.Second

// cosignLead runs cosignLoop while this Log holds the right to cosign,
// which one Log of a shared database holds at a time (so each witness is
// asked once per checkpoint, and one writer merges cosignatures), and
// tries to take it again every cosignLeadRetry while another Log does.
func (l *Log) cosignLead(ctx context.Context) {
	defer close(l.cosignDone)
	for ctx.Err() == nil {
		held, release, err := l.store.takeCosigning(ctx)
		if err != nil && ctx.Err() == nil {
			l.cfg.Logger.Warn("translog: taking the right to cosign failed; trying again", "err", err)
		}
		if held != nil {
			if l.store.shared() {
				// What the Log that cosigned before stored.
				err = errors.Join(l.heads.refresh(), l.cosigs.refresh(), l.readWitnessSizes())
			}
			if err != nil {
				l.cfg.Logger.Warn("translog: reading the cosignatures stored failed; trying again", "err", err)
			} else {
				l.cosignLoop(ctx, held)
			}
			release()
		}
		select {
		case <-ctx.Done():
		case <-time.After(cosignLeadRetry):
		}
	}
}

func (l *Log) stopWitnessing() {
	if l.cosignStop == nil {
		return
	}
	l.cosignStop()
	<-l.cosignDone
	l.witnessClient.CloseIdleConnections()
}

// cosignLoop asks the witnesses to cosign the latest published checkpoint
// whenever one is published, each witness that has not cosigned it and is
// not backing off after a failure. A round waits for each witness it asked
// (at most Config.WitnessTimeout per request) before the next begins, so
// rounds skip checkpoints published meanwhile.
func (l *Log) cosignLoop(ctx context.Context, held func(context.Context) bool) {
	for ctx.Err() == nil {
		l.mu.Lock()
		latest, changed := l.latest, l.changed
		l.mu.Unlock()
		now := time.Now()
		var due []*witnessState
		var wake time.Time
		if latest != nil && latest.head.Size > 0 {
			for _, w := range l.witnesses {
				switch {
				case w.size >= latest.head.Size:
				case !w.retryAt.After(now):
					due = append(due, w)
				case wake.IsZero() || w.retryAt.Before(wake):
					wake = w.retryAt
				}
			}
		}
		if len(due) > 0 {
			if !held(ctx) {
				return // another Log took the cosigning over
			}
			l.cosignRound(ctx, *latest, due)
			continue
		}
		var timer *time.Timer
		var fire <-chan time.Time
		if !wake.IsZero() {
			timer = time.NewTimer(wake.Sub(now))
			fire = timer.C
		}
		select {
		case <-ctx.Done():
		case <-changed:
		case <-fire:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// cosignRound asks the witnesses due to cosign p's checkpoint, at once,
// and stores the cosignatures they give, with those stored for p before.
func (l *Log) cosignRound(ctx context.Context, p published, due []*witnessState) {
	got := make([]string, len(due))
	var wg sync.WaitGroup
	for i, w := range due {
		wg.Go(func() {
			line, err := l.askWitness(ctx, w, p)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				w.failures++
				delay := min(witnessBackoffMin<<min(w.failures-1, 20), witnessBackoffMax)
				w.retryAt = time.Now().Add(delay)
				l.cfg.Logger.Warn("translog: a witness did not cosign; asking again later",
					"witness", w.name, "size", p.head.Size, "retry_in", delay, "err", err)
				return
			}
			w.failures, w.retryAt, w.size = 0, time.Time{}, p.head.Size
			got[i] = line
		})
	}
	wg.Wait()
	var lines []string
	for _, line := range got {
		if line != "" {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return
	}
	if prev, ok := l.cosigs.latest(); ok && prev.size == p.head.Size {
		if old, err := prev.lines(p.checkpoint); err == nil {
			lines = append(old, lines...)
		}
	}
	kept := l.verifiedCosignatures(p.checkpoint, lines)
	note := append(bytes.Clone(p.checkpoint), strings.Join(kept, "")...)
	if err := l.cosigs.append(cosigned{size: p.head.Size, note: note}); err != nil {
		l.cfg.Logger.Error("translog: storing witnesses' cosignatures failed", "size", p.head.Size, "err", err)
		return
	}
	if len(kept) >= l.cfg.WitnessQuorum {
		l.mu.Lock()
		l.bestCosigned = note
		l.mu.Unlock()
	}
}

// askWitness sends p's checkpoint to w's add-checkpoint endpoint with a
// consistency proof from the size w last cosigned, and returns w's
// cosignature line, verified. A 409 naming the size w last cosigned is
// followed by a new request from that size.
func (l *Log) askWitness(ctx context.Context, w *witnessState, p published) (string, error) {
	size := p.head.Size
	for range maxWitnessConflicts {
		if w.size > size {
			return "", fmt.Errorf("the witness cosigned a tree of %d entries, beyond the published %d", w.size, size)
		}
		var body bytes.Buffer
		fmt.Fprintf(&body, "old %d\n", w.size)
		if w.size > 0 && w.size < size {
			proof, err := l.ConsistencyProof(ctx, w.size, size)
			if err != nil {
				return "", err
			}
			for _, h := range proof {
				body.WriteString(base64.StdEncoding.EncodeToString(h[:]))
				body.WriteByte('\n')
			}
		}
		body.WriteByte('\n')
		body.Write(p.checkpoint)

		status, header, reply, err := l.postWitness(ctx, w.URL, body.Bytes())
		if err != nil {
			return "", err
		}
		switch {
		case status == http.StatusOK:
			for _, line := range strings.SplitAfter(string(reply), "\n") {
				if !strings.HasSuffix(line, "\n") {
					line += "\n"
				}
				if cosignedBy(p.checkpoint, line, w.VerifierKey) {
					return line, nil
				}
			}
			return "", fmt.Errorf("the witness answered no cosignature that verifies: %.300q", reply)
		case status == http.StatusConflict && strings.HasPrefix(header.Get("Content-Type"), "text/x.tlog.size"):
			n, err := strconv.ParseUint(strings.TrimSuffix(string(reply), "\n"), 10, 64)
			if err != nil {
				return "", fmt.Errorf("the witness answered 409 with %.100q, not a tree size", reply)
			}
			if n == w.size {
				return "", fmt.Errorf("the witness answered 409 with the size it was sent, %d: its checkpoint of that size differs", n)
			}
			w.size = n
		default:
			return "", fmt.Errorf("the witness answered %d: %.300q", status, reply)
		}
	}
	return "", fmt.Errorf("the witness answered 409 %d times in a row", maxWitnessConflicts)
}

// postWitness posts body to a witness and returns its answer.
func (l *Log) postWitness(ctx context.Context, u string, body []byte) (int, http.Header, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, l.cfg.WitnessTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	resp, err := l.witnessClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(io.LimitReader(resp.Body, maxWitnessReply))
	if err != nil {
		return 0, nil, nil, err
	}
	return resp.StatusCode, resp.Header, reply, nil
}
