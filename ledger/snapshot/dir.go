package snapshot

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/tlog"
)

// Dir keeps the snapshots a node made, in one folder: DATE.jsonl.gz, the
// file as served, and DATE.card.json, its card. A snapshot is there once
// its card is: Make writes the file, then the card, each renamed into
// place after it is synced, so a crash leaves either both or a file
// without a card, which the next Make of that date writes again.
type Dir struct {
	path string
	mu   sync.Mutex // held while a snapshot is made, so each is made once
}

const (
	dataSuffix = ".jsonl.gz"
	cardSuffix = ".card.json"
)

// OpenDir opens (making it if need be) the folder at path.
func OpenDir(path string) (*Dir, error) {
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return &Dir{path: path}, nil
}

// Make makes the snapshot of date at head, unless one of date is kept
// already: then it returns that one's card, with made false.
func (d *Dir) Make(ctx context.Context, date string, src Source, head tlog.TreeHead) (card *Card, made bool, err error) {
	if !IsDate(date) {
		return nil, false, fmt.Errorf("snapshot: %q is not a date", date)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if data, err := d.Card(date); err == nil {
		c, err := ParseCard(data)
		return c, false, err
	}
	tmp, err := os.CreateTemp(d.path, "."+date+"-*.tmp")
	if err != nil {
		return nil, false, fmt.Errorf("snapshot: %w", err)
	}
	defer os.Remove(tmp.Name())
	card, err = Write(ctx, tmp, src, head, date)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, false, err
	}
	if err := d.install(date, tmp.Name(), card); err != nil {
		return nil, false, err
	}
	return card, true, nil
}

// Reissue writes date's snapshot again without the claims of bundles
// withdrawn since its tree head, up to head (the log's latest), when any
// of its lines was theirs: the file is replaced, its other lines as they
// were, and the card names the file replaced and the withdrawals behind
// it. withdrawals are those Withdrawals found in any range of the log
// that covers the snapshot's tree head up to head, so that one scan
// serves every snapshot. It returns the card that stands, with reissued
// false when nothing changed.
func (d *Dir) Reissue(ctx context.Context, date string, src Source, head tlog.TreeHead, withdrawals map[string]uint64) (card *Card, reissued bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	data, err := d.Card(date)
	if err != nil {
		return nil, false, err
	}
	old, err := ParseCard(data)
	if err != nil || head.Size <= old.LogSize() {
		return old, false, err
	}
	withdrawn := map[string]uint64{}
	for hash, index := range withdrawals {
		if index >= old.Head.Size && index < head.Size {
			withdrawn[hash] = index
		}
	}
	if len(withdrawn) == 0 {
		return old, false, nil
	}
	at, err := head.Time()
	if err != nil {
		return nil, false, fmt.Errorf("snapshot: tree head: %w", err)
	}
	tmp, err := os.CreateTemp(d.path, "."+date+"-*.tmp")
	if err != nil {
		return nil, false, fmt.Errorf("snapshot: %w", err)
	}
	defer os.Remove(tmp.Name())
	card, err = WriteWithout(ctx, tmp, src, old.Head, date, withdrawn)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil || card.Digest == old.Digest {
		return old, false, err
	}
	var indexes []uint64
	for index := range card.dropped {
		indexes = append(indexes, index)
	}
	slices.Sort(indexes)
	card.Reissues = append(old.Reissues, Reissue{At: at, LogSize: head.Size, Replaced: old.Digest, Withdrawals: indexes})
	// The file goes first: a crash between the two leaves the old card
	// beside the new file, and the next reissue, finding the same
	// withdrawals, writes the same file and then the card.
	if err := d.install(date, tmp.Name(), card); err != nil {
		return nil, false, err
	}
	return card, true, nil
}

// install renames the written file at tmp into place as date's, then
// writes its card: a snapshot is there once its card is.
func (d *Dir) install(date, tmp string, card *Card) error {
	if err := os.Rename(tmp, d.file(date, dataSuffix)); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	body, err := canonical.Marshal(card.Object())
	if err != nil {
		return err
	}
	return writeFile(d.path, d.file(date, cardSuffix), body)
}

func (d *Dir) file(date, suffix string) string { return filepath.Join(d.path, date+suffix) }

// Card returns the card of date's snapshot as served; an error wrapping
// fs.ErrNotExist when none was made.
func (d *Dir) Card(date string) ([]byte, error) {
	if !IsDate(date) {
		return nil, fmt.Errorf("snapshot: %q is not a date: %w", date, fs.ErrNotExist)
	}
	return os.ReadFile(d.file(date, cardSuffix))
}

// Open opens date's snapshot file; an error wrapping fs.ErrNotExist when
// none was made.
func (d *Dir) Open(date string) (*os.File, error) {
	if _, err := d.Card(date); err != nil {
		return nil, err
	}
	return os.Open(d.file(date, dataSuffix))
}

// List returns the cards of every snapshot kept, newest first.
func (d *Dir) List() ([]*Card, error) {
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	var dates []string
	for _, e := range entries {
		if date, ok := strings.CutSuffix(e.Name(), cardSuffix); ok && IsDate(date) {
			dates = append(dates, date)
		}
	}
	slices.Sort(dates)
	slices.Reverse(dates)
	out := make([]*Card, 0, len(dates))
	for _, date := range dates {
		data, err := d.Card(date)
		if err != nil {
			return nil, err
		}
		c, err := ParseCard(data)
		if err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", date, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// writeFile writes data to path through a synced temporary file in dir.
func writeFile(dir, path string, data []byte) error {
	tmp, err := os.CreateTemp(dir, ".card-*.tmp")
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	return nil
}
