package translog

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/agora-node/agora/tlog"
	"github.com/transparency-dev/tessera/api/layout"
	"github.com/transparency-dev/tessera/client"
	"golang.org/x/mod/sumdb/note"
)

// TestTileHandler reads the log over HTTP on loopback with Tessera's tile
// client, as any c2sp.org/tlog-tiles client would, and checks what it reads
// with the protocol core's verifiers.
func TestTileHandler(t *testing.T) { forEachDriver(t, testTileHandler) }

func testTileHandler(t *testing.T, d testDriver) {
	l := openLog(t, d.config(t))
	ctx := context.Background()
	want := appendConcurrently(t, l, "tiles", 300, 60*d.spread) // one full bundle, one partial

	mux := http.NewServeMux()
	mux.Handle("/log/", http.StripPrefix("/log", l.TileHandler()))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	root, _ := url.Parse(srv.URL + "/log/")
	fetcher, err := client.NewHTTPFetcher(root, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	verifier, err := note.NewVerifier(l.VerifierKey())
	if err != nil {
		t.Fatal(err)
	}

	cp, cpRaw, _, err := client.FetchCheckpoint(ctx, fetcher.ReadCheckpoint, verifier, l.Origin())
	if err != nil {
		t.Fatalf("the tile client refuses the checkpoint: %v", err)
	}
	head, _ := l.TreeHead()
	if cp.Size != head.Size || !bytes.Equal(cp.Hash, head.Root[:]) {
		t.Fatalf("the tile checkpoint (%d, %x) is not the tree head (%d, %s)", cp.Size, cp.Hash, head.Size, head.Root)
	}
	if _, err := tlog.VerifyCheckpoint(cpRaw, l.VerifierKey()); err != nil {
		t.Fatal(err)
	}

	// Every leaf, from the entry bundles, hashes into the tree, and its
	// inclusion proof built from the tiles verifies.
	pb, err := client.NewProofBuilder(ctx, cp.Size, fetcher.ReadTile)
	if err != nil {
		t.Fatal(err)
	}
	for bundle := uint64(0); bundle*layout.EntryBundleWidth < cp.Size; bundle++ {
		eb, err := client.GetEntryBundle(ctx, fetcher.ReadEntryBundle, bundle, cp.Size)
		if err != nil {
			t.Fatalf("entry bundle %d: %v", bundle, err)
		}
		for i, leaf := range eb.Entries {
			index := bundle*layout.EntryBundleWidth + uint64(i)
			if !bytes.Equal(leaf, want[index]) {
				t.Fatalf("entry %d over HTTP is %s, want %s", index, leaf, want[index])
			}
			raw, err := pb.InclusionProof(ctx, index)
			if err != nil {
				t.Fatal(err)
			}
			proof := make([]tlog.Hash, len(raw))
			for j := range raw {
				proof[j] = tlog.Hash(raw[j])
			}
			if err := tlog.VerifyInclusion(index, cp.Size, tlog.LeafHash(leaf), proof, head.Root); err != nil {
				t.Fatalf("entry %d: %v", index, err)
			}
		}
	}

	// A tile client following the log checks each new checkpoint against
	// the last with a consistency proof from the tiles.
	tracker, err := client.NewLogStateTracker(ctx, fetcher.ReadTile, cpRaw, verifier, l.Origin(), client.UnilateralConsensus(fetcher.ReadCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	appendConcurrently(t, l, "tiles, more", 100, 50)
	if _, _, _, err := tracker.Update(ctx); err != nil {
		t.Fatalf("the tile client's consistency check: %v", err)
	}
	if got := tracker.Latest().Size; got != l.Size() {
		t.Fatalf("the tile client follows to %d, the log is at %d", got, l.Size())
	}

	size := l.Size()
	for _, tc := range []struct {
		method, path string
		status       int
		contentType  string
		cache        string
	}{
		{"GET", "/log/checkpoint", 200, "text/plain; charset=utf-8", cacheCheckpoint},
		{"HEAD", "/log/checkpoint", 200, "text/plain; charset=utf-8", cacheCheckpoint},
		{"GET", "/log/tile/0/000", 200, "application/octet-stream", cacheImmutable},
		{"GET", "/log/tile/entries/000", 200, "application/octet-stream", cacheImmutable},
		{"GET", "/log/" + layout.TilePath(0, 1, uint8(size-256)), 200, "application/octet-stream", cachePartial},
		{"GET", "/log/" + layout.EntriesPath(1, uint8(size-256)), 200, "application/octet-stream", cachePartial},
		{"GET", "/log/" + layout.TilePath(1, 0, 1), 200, "application/octet-stream", cachePartial},
		// Beyond the published tree, or not a tile path.
		{"GET", "/log/" + layout.TilePath(0, 1, uint8(size-256+1)), 404, "", ""},
		{"GET", "/log/tile/0/001", 404, "", ""},
		{"GET", "/log/tile/entries/002", 404, "", ""},
		{"GET", "/log/tile/1/000", 404, "", ""},
		{"GET", "/log/tile/0/1", 404, "", ""},
		{"GET", "/log/tile/0/x000/000", 404, "", ""},
		{"GET", "/log/tile/0/../../LOCK", 404, "", ""},
		{"GET", "/log/tile/64/000", 404, "", ""},
		{"GET", "/log/treeheads", 404, "", ""},
		{"GET", "/log/.state/treeState", 404, "", ""},
		{"POST", "/log/checkpoint", 405, "", ""},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s: %d %s, want %d", tc.method, tc.path, resp.StatusCode, body, tc.status)
			continue
		}
		if tc.status != 200 {
			continue
		}
		if got := resp.Header.Get("Content-Type"); got != tc.contentType {
			t.Errorf("%s %s: Content-Type %q, want %q", tc.method, tc.path, got, tc.contentType)
		}
		if got := resp.Header.Get("Cache-Control"); got != tc.cache {
			t.Errorf("%s %s: Cache-Control %q, want %q", tc.method, tc.path, got, tc.cache)
		}
	}

	closeLog(t, l)
	resp, err := srv.Client().Get(srv.URL + "/log/checkpoint")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("GET checkpoint after Close: %d, want 503", resp.StatusCode)
	}
}
