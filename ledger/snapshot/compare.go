package snapshot

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"

	"github.com/agora-node/agora/canonical"
)

// Difference is where a snapshot file first differs from the one
// recomputed from the log.
type Difference struct {
	Offset int64 // the first byte of the gzipped files that differs
	// Line is the first record line that differs, from 1, with the
	// claim_id the recomputed line holds there ("" past its end); 0 when
	// every record agrees and only the gzip stream differs.
	Line  int
	Claim string
	// Got and Want are the differing lines around where they first
	// differ; Field is the record field that holds that place, when it is
	// one; Reason says what differs in words.
	Got, Want string
	Field     string
	Reason    string
}

func (d *Difference) String() string {
	if d.Line == 0 {
		return fmt.Sprintf("byte %d differs: %s", d.Offset, d.Reason)
	}
	where := fmt.Sprintf("line %d", d.Line)
	if d.Claim != "" {
		where += " (" + d.Claim + ")"
	}
	return fmt.Sprintf("byte %d of the file differs, at %s: %s", d.Offset, where, d.Reason)
}

// maxLine bounds one record line as Compare reads it.
const maxLine = 4 << 20

// Compare compares the snapshot file at got with the one at want, byte
// for byte; nil when they are the same. When they differ it reads both
// as records to say which line and claim differ.
func Compare(got, want string) (*Difference, error) {
	offset, same, err := firstDifference(got, want)
	if err != nil || same {
		return nil, err
	}
	d := &Difference{Offset: offset}
	g, err := openLines(got)
	if err != nil {
		d.Reason = fmt.Sprintf("the file is not gzip: %v", err)
		return d, nil
	}
	defer g.close()
	w, err := openLines(want)
	if err != nil {
		return nil, fmt.Errorf("the recomputed snapshot: %w", err)
	}
	defer w.close()
	for line := 1; ; line++ {
		wl, werr := w.next()
		gl, gerr := g.next()
		if werr != nil && !errors.Is(werr, io.EOF) {
			return nil, fmt.Errorf("the recomputed snapshot: %w", werr)
		}
		switch {
		case gerr != nil && !errors.Is(gerr, io.EOF):
			d.Line, d.Want = line, cut(wl)
			d.Reason = fmt.Sprintf("the file stops being readable: %v", gerr)
		case errors.Is(werr, io.EOF) && errors.Is(gerr, io.EOF):
			d.Reason = "the records are the same; the gzip stream around them is not the one the node writes"
		case errors.Is(werr, io.EOF):
			d.Line, d.Got, d.Reason = line, cut(gl), "the file has a line the log does not give"
		case errors.Is(gerr, io.EOF):
			d.Line, d.Want, d.Reason = line, cut(wl), "the file ends where the log gives another claim"
		case !bytes.Equal(gl, wl):
			col := commonPrefix(gl, wl)
			d.Line, d.Got, d.Want, d.Field = line, around(gl, col), around(wl, col), fieldAt(wl, col)
			d.Reason = "the record is not the one the log gives"
			if d.Field != "" {
				d.Reason = fmt.Sprintf("the record's %s is not the one the log gives", d.Field)
			}
		default:
			continue
		}
		if d.Line > 0 && wl != nil {
			d.Claim = claimOf(wl)
		}
		return d, nil
	}
}

// firstDifference finds the first byte at which the files differ.
func firstDifference(a, b string) (int64, bool, error) {
	fa, err := os.Open(a)
	if err != nil {
		return 0, false, err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return 0, false, err
	}
	defer fb.Close()
	ra, rb := bufio.NewReader(fa), bufio.NewReader(fb)
	for offset := int64(0); ; offset++ {
		x, errA := ra.ReadByte()
		y, errB := rb.ReadByte()
		if errA != nil && !errors.Is(errA, io.EOF) {
			return 0, false, errA
		}
		if errB != nil && !errors.Is(errB, io.EOF) {
			return 0, false, errB
		}
		if errA != nil || errB != nil {
			return offset, errA != nil && errB != nil, nil
		}
		if x != y {
			return offset, false, nil
		}
	}
}

type lines struct {
	f  *os.File
	zr *gzip.Reader
	s  *bufio.Scanner
}

func openLines(path string) (*lines, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		f.Close()
		return nil, err
	}
	s := bufio.NewScanner(zr)
	s.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &lines{f: f, zr: zr, s: s}, nil
}

// next returns the next line, io.EOF after the last, or the error that
// stopped the stream.
func (l *lines) next() ([]byte, error) {
	if l.s.Scan() {
		return l.s.Bytes(), nil
	}
	if err := l.s.Err(); err != nil {
		return nil, err
	}
	return nil, io.EOF
}

func (l *lines) close() { l.zr.Close(); l.f.Close() }

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// around is line from a little before col, cut short after it.
func around(line []byte, col int) string {
	start := max(0, col-60)
	out := cut(line[start:])
	if start > 0 {
		out = "..." + out
	}
	return out
}

var memberName = regexp.MustCompile(`"([a-z_]+)":`)

// fieldAt names the top-level record field that holds byte col of line:
// the last member name before it, as canonical JSON puts every record
// field's name just before its value (and the nested licenses' names are
// all prose, code and data).
func fieldAt(line []byte, col int) string {
	names := memberName.FindAllSubmatch(line[:min(col, len(line))], -1)
	for i := len(names) - 1; i >= 0; i-- {
		name := string(names[i][1])
		if _, ok := Schema[name]; ok {
			return name
		}
	}
	return ""
}

func cut(line []byte) string {
	const most = 160
	if len(line) > most {
		return string(line[:most]) + "..."
	}
	return string(line)
}

func claimOf(line []byte) string {
	v, err := canonical.Parse(line)
	if err != nil {
		return ""
	}
	obj, _ := v.(map[string]any)
	id, _ := obj["claim_id"].(string)
	return id
}
