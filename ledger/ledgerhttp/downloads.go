package ledgerhttp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/vocabulary"
)

// Large files of a job ("Verifying claims", step 1): a file over 8 MB,
// and the largest files under data/ once the rest add up to 10 MB, come
// as `downloads`, each {"url", "method": "GET", "headers", "expires_at",
// "digest", "bytes"}. The link is signed with the node's upload key, as
// upload links are (a MAC over the job, the file, the operator and the
// expiry, under its own label), and works only while its operator holds
// the job and until its deadline or sooner: asking for the job again gives
// fresh links.

// The inline limits' defaults.
const (
	DefaultJobFileInline = 8 << 20
	DefaultJobInline     = 10 << 20
)

func (s *Server) routeDownloads() {
	s.mux.HandleFunc("GET /api/v1/jobs/{job}/files/{digest}", s.getJobFile)
}

func (s *Server) inlineLimits() (file, total int64) {
	file, total = s.cfg.JobFileInline, s.cfg.JobInline
	if file <= 0 {
		file = DefaultJobFileInline
	}
	if total <= 0 {
		total = DefaultJobInline
	}
	return file, total
}

// splitJobFiles says which of a job's files (path → digest, of bundle b
// or a canary copying it) go inline and which as downloads, each in path
// order. A file whose size b does not give (a canary's changed result) is
// small, and goes inline.
func (s *Server) splitJobFiles(b ledger.Bundle, paths map[string]string) (inline, downloads []string) {
	fileLimit, totalLimit := s.inlineLimits()
	size := func(p string) int64 { return fileSize(b, p, paths[p]) }
	var total int64
	for p := range paths {
		if size(p) > fileLimit {
			downloads = append(downloads, p)
			continue
		}
		inline = append(inline, p)
		total += size(p)
	}
	// The largest data files go out until the rest fit.
	slices.SortFunc(inline, func(a, c string) int {
		if d := size(c) - size(a); d != 0 {
			return int(min(max(d, -1), 1))
		}
		return strings.Compare(a, c)
	})
	for i := 0; i < len(inline) && total > totalLimit; {
		if p := inline[i]; strings.HasPrefix(p, "data/") {
			downloads = append(downloads, p)
			total -= size(p)
			inline = slices.Delete(inline, i, i+1)
			continue
		}
		i++
	}
	slices.Sort(inline)
	slices.Sort(downloads)
	return inline, downloads
}

// fileSize is the size of b's file at path with digest, 0 when b has none:
// a canary's changed result is not one of its source's files.
func fileSize(b ledger.Bundle, path, digest string) int64 {
	for _, f := range b.Files {
		if f.Path == path && f.Digest == digest {
			return f.Size
		}
	}
	return 0
}

// downloadLinks are the links of a job's downloads, for its holder.
func (s *Server) downloadLinks(j ledger.Job, b ledger.Bundle, paths map[string]string, downloads []string) map[string]any {
	expires := min(j.Deadline.Unix(), s.now().Add(vocabulary.UploadLinkLifetime).Unix())
	out := map[string]any{}
	for _, p := range downloads {
		bytes := fileSize(b, p, paths[p])
		q := url.Values{}
		q.Set("operator", j.Operator)
		q.Set("expires", strconv.FormatInt(expires, 10))
		q.Set("sig", s.downloadMAC(j.ID, paths[p], j.Operator, expires))
		out[p] = map[string]any{
			"url": "/api/v1/jobs/" + j.ID + "/files/" + paths[p] + "?" + q.Encode(), "method": "GET", "headers": map[string]any{},
			"expires_at": time.Unix(expires, 0).UTC().Format(time.RFC3339), "digest": paths[p], "bytes": bytes,
		}
	}
	return out
}

func (s *Server) downloadMAC(job, digest, operator string, expires int64) string {
	m := hmac.New(sha256.New, s.uploadKey)
	fmt.Fprintf(m, "download\n%s\n%s\n%s\n%d", job, digest, operator, expires)
	return hex.EncodeToString(m.Sum(nil))
}

// getJobFile answers a download link: the file, streamed, to the operator
// holding the job, while the link holds.
func (s *Server) getJobFile(w http.ResponseWriter, r *http.Request) {
	if err := s.checkDownload(r); err != nil {
		httpapi.WriteError(s.logger, w, r, err)
		return
	}
	digest := r.PathValue("digest")
	file, err := s.blobs.Open(digest)
	if err != nil {
		httpapi.WriteError(s.logger, w, r, fmt.Errorf("file %s of a job: %w", digest, err))
		return
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		httpapi.WriteError(s.logger, w, r, fmt.Errorf("file %s of a job: %w", digest, err))
		return
	}
	s.allowTransfer(w, r, info.Size())
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Cache-Control", "private, no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", time.Time{}, file)
}

// checkDownload checks a download link: signed by the node, not expired,
// its operator still holding the job, and the file one of the job's.
func (s *Server) checkDownload(r *http.Request) error {
	id, digest, q := r.PathValue("job"), r.PathValue("digest"), r.URL.Query()
	operator := q.Get("operator")
	expires, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if !claims.IsDigest(digest) || err != nil || !hmac.Equal([]byte(q.Get("sig")), []byte(s.downloadMAC(id, digest, operator, expires))) {
		return &httpapi.Error{Status: http.StatusForbidden, Code: "bad_link", Message: "This is not a link the node gave: ask POST /api/v1/jobs for your job again"}
	}
	now := s.now()
	if now.Unix() > expires {
		return &httpapi.Error{Status: http.StatusForbidden, Code: "link_expired", Message: "The link expired: ask POST /api/v1/jobs for your job again for fresh links"}
	}
	j, err := s.store.Job(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (j.Operator != operator || j.Done || !j.Deadline.After(now))) {
		return &httpapi.Error{Status: http.StatusForbidden, Code: "no_job", Message: "You no longer hold this job, so its files are not yours to fetch"}
	}
	if err != nil {
		return err
	}
	source := j.Bundle
	if c, err := s.store.Canary(r.Context(), j.Bundle); err == nil {
		source = c.Source
		for _, d := range c.Files {
			if d == digest {
				return nil
			}
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	b, err := s.store.Bundle(r.Context(), source)
	if err != nil {
		return err
	}
	for _, f := range b.Files {
		if f.Digest == digest && f.Path != "manifest.json" && f.Path != "signature" {
			return nil
		}
	}
	return httpapi.NotFound("Job %s carries no file %s", id, digest)
}
