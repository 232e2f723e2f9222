package node

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/tlog"
)

// TestSnapshotRoutes publishes two studies on a real node, has its admin
// take the snapshots of two days at the same tree head, and reads them
// back as a client would: the same bytes both times, listed newest first,
// served with the digest the list names, and a card that counts them and
// says how to check them against the log's signed tree head.
func TestSnapshotRoutes(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: 100 * time.Millisecond, Qualification: "off", CanaryRate: -1, FreeBundles: FreeAll})
	base := srv.URL
	author := invitedVerifier(t, n, base, "Author", "claude")
	for _, title := range []string{"first snapshot study", "second snapshot study"} {
		hash, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", title, false))
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if _, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil); v.(map[string]any)["state"] == "open" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never opened", title)
			}
		}
	}
	today := time.Now().UTC()
	dates := []string{today.Add(-24 * time.Hour).Format(time.DateOnly), today.Format(time.DateOnly)}
	var files [][]byte
	for _, date := range dates {
		status, v := call(t, "POST", base+"/api/v1/admin/snapshots/"+date, nil, "Authorization", adminToken(t, n))
		if status != http.StatusCreated || v.(map[string]any)["claims"] != 2.0 {
			t.Fatalf("taking %s: %d %v", date, status, v)
		}
		resp, err := http.Get(base + "/api/v1/snapshots/" + date)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		sum := sha256.Sum256(body)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/gzip" ||
			"sha256:"+hex.EncodeToString(sum[:]) != v.(map[string]any)["digest"] || float64(len(body)) != v.(map[string]any)["bytes"] {
			t.Fatalf("GET %s: %d %s, %d bytes, listed as %v", date, resp.StatusCode, resp.Header.Get("Content-Type"), len(body), v)
		}
		files = append(files, body)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatal("two snapshots of the same log differ")
	}
	zr, err := gzip.NewReader(bytes.NewReader(files[0]))
	if err != nil {
		t.Fatal(err)
	}
	records, _ := io.ReadAll(zr)
	lines := strings.Split(strings.TrimSuffix(string(records), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "first snapshot study") || !strings.Contains(lines[1], "second snapshot study") {
		t.Fatalf("records, in log order: %s", records)
	}
	for _, line := range lines {
		v, err := canonical.Parse([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		r := v.(map[string]any)
		if r["operator"] != author.id || r["organization"] != author.org || r["written_by"] != "agent" ||
			r["licenses"].(map[string]any)["data"] != "CC-BY-4.0" || r["statuses"].([]any)[0] != "published" {
			t.Errorf("record: %s", line)
		}
	}

	_, v := call(t, "GET", base+"/api/v1/snapshots", nil)
	list := v.(map[string]any)["snapshots"].([]any)
	if len(list) != 2 || list[0].(map[string]any)["date"] != dates[1] || len(list[0].(map[string]any)) != 8 {
		t.Fatalf("the list: %v", list)
	}
	status, v := call(t, "GET", base+"/api/v1/snapshots/"+dates[1]+"/card", nil)
	card, _ := v.(map[string]any)
	if status != http.StatusOK || card["claims"] != 2.0 || card["counts"].(map[string]any)["field"].(map[string]any)["statistics"] != 2.0 {
		t.Fatalf("the card: %d %v", status, v)
	}
	for _, k := range []string{"schema", "licenses", "checking", "tree_head", "reissues", "format"} {
		if card[k] == nil {
			t.Errorf("the card has no %s", k)
		}
	}
	head, err := tlog.ParseTreeHead(mustJSON(t, card["tree_head"]))
	if err != nil || head.Size != uint64(card["log_size"].(float64)) {
		t.Fatalf("the card's tree head: %v %v", head, err)
	}
	_, logInfo := call(t, "GET", base+"/api/v1/log", nil)
	if err := tlog.VerifyTreeHead(head, logInfo.(map[string]any)["public_key"].(string)); err != nil {
		t.Errorf("the card's tree head is not the log's: %v", err)
	}

	// Taking one again answers the one kept; bad input gets the spec's
	// status and code.
	if status, v := call(t, "POST", base+"/api/v1/admin/snapshots/"+dates[1], nil, "Authorization", adminToken(t, n)); status != http.StatusOK ||
		v.(map[string]any)["digest"] != list[0].(map[string]any)["digest"] {
		t.Errorf("taking today's again: %d %v", status, v)
	}
	tomorrow := today.Add(48 * time.Hour).Format(time.DateOnly)
	for _, tc := range []struct {
		name, path string
		auth       bool
		status     int
		code       string
	}{
		{"no admin token", "/api/v1/admin/snapshots/" + dates[1], false, http.StatusUnauthorized, "unauthorized"},
		{"a bad date", "/api/v1/admin/snapshots/2026-02-30", true, http.StatusBadRequest, "bad_request"},
		{"a day to come", "/api/v1/admin/snapshots/" + tomorrow, true, http.StatusBadRequest, "bad_request"},
	} {
		var header []string
		if tc.auth {
			header = []string{"Authorization", adminToken(t, n)}
		}
		status, v := call(t, "POST", base+tc.path, nil, header...)
		if m, _ := v.(map[string]any); status != tc.status || m["code"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", tc.name, status, v, tc.status, tc.code)
		}
	}
}

// TestLargeSnapshotByLink: a snapshot past the node's size for links is
// answered by a redirect to a short-lived link, which serves the file
// with the digest the list names; a link altered in any part, or one past
// its time, is refused with the spec's shape and says what to do.
func TestLargeSnapshotByLink(t *testing.T) {
	t.Parallel()
	clock := &testClock{}
	n, srv := testNodeWith(t, Config{OpenAfter: 100 * time.Millisecond, Qualification: "off", CanaryRate: -1, FreeBundles: FreeAll,
		SnapshotLinkAbove: 100, clock: clock.now})
	base := srv.URL
	author := invitedVerifier(t, n, base, "Author", "claude")
	hash, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "a snapshot study fetched by link", false))
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil); v.(map[string]any)["state"] == "open" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the study never opened")
		}
	}
	date := clock.now().UTC().Format(time.DateOnly)
	status, v := call(t, "POST", base+"/api/v1/admin/snapshots/"+date, nil, "Authorization", adminToken(t, n))
	if status != http.StatusCreated || v.(map[string]any)["bytes"].(float64) <= 100 {
		t.Fatalf("taking %s: %d %v", date, status, v)
	}
	digest := v.(map[string]any)["digest"]
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(base + "/api/v1/snapshots/" + date)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	link := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(link, "/api/v1/snapshots/"+date+"/file?") {
		t.Fatalf("a large snapshot: %d, Location %q", resp.StatusCode, link)
	}
	resp, err = http.Get(base + link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	sum := sha256.Sum256(body)
	if resp.StatusCode != http.StatusOK || "sha256:"+hex.EncodeToString(sum[:]) != digest {
		t.Fatalf("the link: %d, %d bytes, not the digest %v", resp.StatusCode, len(body), digest)
	}
	tampered := strings.Replace(link, "expires=", "expires=1", 1)
	for _, tc := range []struct{ name, path, code string }{
		{"another time", tampered, "bad_link"},
		{"no signature", "/api/v1/snapshots/" + date + "/file", "bad_link"},
		{"a signature of another day", strings.Replace(link, date, "2001-01-01", 1), "not_found"},
	} {
		status, v := call(t, "GET", base+tc.path, nil)
		want := http.StatusForbidden
		if tc.code == "not_found" {
			want = http.StatusNotFound
		}
		if m, _ := v.(map[string]any); status != want || m["code"] != tc.code || m["error"] == "" {
			t.Errorf("%s: %d %v, want %d %s", tc.name, status, v, want, tc.code)
		}
	}
	clock.advance(2 * time.Hour)
	if status, v := call(t, "GET", base+link, nil); status != http.StatusForbidden || v.(map[string]any)["code"] != "link_expired" {
		t.Errorf("a link past its hour: %d %v", status, v)
	}
}
