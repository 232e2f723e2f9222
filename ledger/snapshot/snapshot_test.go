package snapshot

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
)

func write(t testing.TB, s synthetic) ([]byte, *Card) {
	t.Helper()
	var buf bytes.Buffer
	card, err := Write(context.Background(), &buf, s.source(), s.head(), "2026-10-02")
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), card
}

func records(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		v, err := canonical.Parse(sc.Bytes())
		if err != nil {
			t.Fatalf("line %d: %v", len(out)+1, err)
		}
		if canon, _ := canonical.Marshal(v); !bytes.Equal(canon, sc.Bytes()) {
			t.Fatalf("line %d is not canonical JSON: %s", len(out)+1, sc.Bytes())
		}
		out = append(out, v.(map[string]any))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWriteIsReproducible makes the snapshot of one log twice and gets the
// same bytes, with a gzip header that names no file and no time, every
// claim once in log order with the spec's fields, and withdrawn bundles'
// claims left out.
func TestWriteIsReproducible(t *testing.T) {
	s := synthetic{size: 203, withdrawn: func(b uint64) bool { return b%10 == 3 }}
	first, card := write(t, s)
	second, again := write(t, s)
	if !bytes.Equal(first, second) {
		t.Fatal("two snapshots of the same log differ")
	}
	if card.Digest != again.Digest || card.Bytes != int64(len(first)) {
		t.Fatalf("card: %d bytes %s, the file has %d", card.Bytes, card.Digest, len(first))
	}
	zr, err := gzip.NewReader(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() || zr.Comment != "" {
		t.Errorf("gzip header: name %q, time %v, comment %q", zr.Name, zr.ModTime, zr.Comment)
	}
	recs := records(t, first)
	bundles := (s.size + 3) / 4
	withdrawn := uint64(0)
	for b := range bundles {
		if s.withdrawn(b) {
			withdrawn++
		}
	}
	if want := int((bundles - withdrawn) * 3); len(recs) != want || card.Claims != want {
		t.Fatalf("%d records, card says %d, want %d", len(recs), card.Claims, want)
	}
	wantFields := []string{"claim_id", "statement", "type", "core", "statuses", "fields", "bundle", "local_id", "operator",
		"organization", "model_families", "models", "written_by", "duplicate_cluster", "licenses", "entry_index", "published_at"}
	last := -1.0
	for i, r := range recs {
		if len(r) != len(wantFields) {
			t.Fatalf("record %d has %d fields: %v", i, len(r), r)
		}
		for _, f := range wantFields {
			if _, ok := r[f]; !ok {
				t.Fatalf("record %d lacks %s", i, f)
			}
		}
		idx := r["entry_index"].(float64)
		if idx < last {
			t.Fatalf("record %d at entry %v after one at %v: not in log order", i, idx, last)
		}
		last = idx
		if s.withdrawn(uint64(idx) / 4) {
			t.Fatalf("record %d is of withdrawn bundle %s", i, r["bundle"])
		}
		if r["claim_id"] != claimID(uint64(idx)/4, i%3) {
			t.Fatalf("record %d is %s", i, r["claim_id"])
		}
	}
	if got := card.Counts["status"]["published"]; got != len(recs) {
		t.Errorf("card counts %d published, want %d", got, len(recs))
	}
	if card.Counts["type"]["methodological"] != len(recs) || len(card.Counts["model_family"]) != 4 {
		t.Errorf("card counts: %v", card.Counts)
	}
}

// TestWriteChecksTheRoot refuses a log whose leaves are not those the
// tree head signed.
func TestWriteChecksTheRoot(t *testing.T) {
	s := synthetic{size: 40}
	head := s.head()
	head.Root[0] ^= 1
	_, err := Write(context.Background(), &bytes.Buffer{}, s.source(), head, "2026-10-02")
	if !errors.Is(err, ErrRoot) {
		t.Fatalf("a wrong root: %v", err)
	}
}

// TestCompareFindsOneByte tampers with one byte of a snapshot, at several
// places, and Compare names where: a record line with its claim, or the
// gzip stream around them.
func TestCompareFindsOneByte(t *testing.T) {
	s := synthetic{size: 400}
	data, _ := write(t, s)
	dir := t.TempDir()
	want := filepath.Join(dir, "want.jsonl.gz")
	if err := os.WriteFile(want, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if d, err := Compare(want, want); err != nil || d != nil {
		t.Fatalf("the same file: %v %v", d, err)
	}
	for _, at := range []int{3, 9, 40, len(data) / 2, len(data) - 9, len(data) - 1} {
		tampered := bytes.Clone(data)
		tampered[at] ^= 0x01
		got := filepath.Join(dir, "got.jsonl.gz")
		if err := os.WriteFile(got, tampered, 0o600); err != nil {
			t.Fatal(err)
		}
		d, err := Compare(got, want)
		if err != nil {
			t.Fatal(err)
		}
		if d == nil || d.Offset != int64(at) {
			t.Fatalf("byte %d flipped: %v", at, d)
		}
		t.Logf("byte %d flipped: %s", at, d)
	}
	// A record changed and the file gzipped again as the node would: the
	// line and the claim are named.
	lines := strings.SplitAfter(string(gunzip(t, data)), "\n")
	lines[7] = strings.Replace(lines[7], "fairly", "fairlY", 1)
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, Level)
	zw.Write([]byte(strings.Join(lines, "")))
	zw.Close()
	got := filepath.Join(dir, "got.jsonl.gz")
	if err := os.WriteFile(got, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := Compare(got, want)
	if err != nil {
		t.Fatal(err)
	}
	if d == nil || d.Line != 8 || d.Claim != claimID(2, 1) {
		t.Fatalf("a changed record: %+v", d)
	}
}

func gunzip(t *testing.T, data []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestDirMakesEachDateOnce keeps a snapshot and its card, lists it, and
// answers a second Make of the same date with the one kept.
func TestDirMakesEachDateOnce(t *testing.T) {
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := synthetic{size: 21}
	card, made, err := d.Make(context.Background(), "2026-10-02", s.source(), s.head())
	if err != nil || !made {
		t.Fatal(made, err)
	}
	bigger := synthetic{size: 41}
	again, made, err := d.Make(context.Background(), "2026-10-02", bigger.source(), bigger.head())
	if err != nil || made || again.Digest != card.Digest || again.Head.Size != 21 {
		t.Fatalf("a second Make: made %v, %v, %v", made, again, err)
	}
	if _, _, err := d.Make(context.Background(), "2026-10-03", bigger.source(), bigger.head()); err != nil {
		t.Fatal(err)
	}
	list, err := d.List()
	if err != nil || len(list) != 2 || list[0].Date != "2026-10-03" || list[1].Claims != card.Claims {
		t.Fatalf("List: %v %v", list, err)
	}
	if _, err := d.Open("2026-10-04"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an unknown date: %v", err)
	}
}

// heapPeak samples the heap in use (HeapInuse: the spans holding
// objects, live or not yet swept) while fn runs, through runtime/metrics,
// which unlike ReadMemStats does not stop the world, and returns its high
// water mark above what was in use before.
func heapPeak(fn func()) uint64 {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	inuse := func() uint64 {
		metrics.Read(samples)
		return samples[0].Value.Uint64() + samples[1].Value.Uint64()
	}
	runtime.GC()
	base := inuse()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if n := inuse(); n > peak.Load() {
				peak.Store(n)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done
	if peak.Load() < base {
		return 0
	}
	return peak.Load() - base
}

// TestReissueLeavesOutWithdrawn takes a snapshot just before a bundle in
// it is withdrawn, reissues it once the log holds the withdrawal, and
// finds that bundle's lines gone, every other line as it was, the card
// naming the file replaced and the withdrawal, and the reissue the one
// WriteWithout recomputes from the log.
func TestReissueLeavesOutWithdrawn(t *testing.T) {
	gone := func(b uint64) bool { return b == 10 || b == 13 }
	s := synthetic{size: 41, withdrawn: gone} // bundle 10 opened at 40, withdrawn at 41
	later := synthetic{size: 80, withdrawn: gone}
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, _, err := d.Make(ctx, "2026-10-02", s.source(), s.head())
	if err != nil {
		t.Fatal(err)
	}
	before := readKept(t, d, "2026-10-02")
	none, err := Withdrawals(ctx, s.source(), 0, s.size)
	if err != nil {
		t.Fatal(err)
	}
	if _, again, err := d.Reissue(ctx, "2026-10-02", s.source(), s.head(), none); err != nil || again {
		t.Fatalf("a reissue with nothing withdrawn since: %v %v", again, err)
	}
	all, err := Withdrawals(ctx, later.source(), 0, later.size)
	if err != nil || len(all) != 2 {
		t.Fatalf("withdrawals: %v %v", all, err)
	}
	card, reissued, err := d.Reissue(ctx, "2026-10-02", later.source(), later.head(), all)
	if err != nil || !reissued {
		t.Fatalf("reissue: %v %v", reissued, err)
	}
	after := readKept(t, d, "2026-10-02")
	var kept []string
	for _, line := range strings.SplitAfter(string(gunzip(t, before)), "\n") {
		if !strings.Contains(line, `"bundle":"`+bundleHash(10)+`"`) {
			kept = append(kept, line)
		}
	}
	if string(gunzip(t, after)) != strings.Join(kept, "") || card.Claims != first.Claims-3 {
		t.Fatalf("the reissue holds %d claims, not the %d other lines as they were", card.Claims, first.Claims-3)
	}
	if len(card.Reissues) != 1 || card.Reissues[0].Replaced != first.Digest || len(card.Reissues[0].Withdrawals) != 1 ||
		card.Reissues[0].Withdrawals[0] != 41 || card.Reissues[0].LogSize != 80 {
		t.Fatalf("the card's reissues: %+v", card.Reissues)
	}
	list, _ := d.List()
	if list[0].Digest != card.Digest || list[0].Entry()["reissued_at"] == nil || list[0].LogSize() != 80 {
		t.Fatalf("the list after the reissue: %v", list[0].Entry())
	}
	withdrawn, err := Withdrawals(ctx, later.source(), list[0].Head.Size, list[0].LogSize())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := WriteWithout(ctx, &buf, later.source(), list[0].Head, "2026-10-02", withdrawn); err != nil || !bytes.Equal(buf.Bytes(), after) {
		t.Fatalf("recomputing the reissue: %v", err)
	}
}

func readKept(t *testing.T, d *Dir, date string) []byte {
	t.Helper()
	f, err := d.Open(date)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(f); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
