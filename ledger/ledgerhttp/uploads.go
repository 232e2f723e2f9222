package ledgerhttp

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/agora-node/agora/blobs"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/vocabulary"
)

// Large data: files sent ahead of a bundle. POST /api/v1/uploads takes a
// signed, fresh upload_request and answers a link per file; the link is a
// PUT on this node, signed with the node's upload key (HMAC over digest,
// operator and expiry) so it works for its holder only until it expires.
// The PUT streams into the blob store, checking size and SHA-256 as it
// goes; a failed PUT leaves nothing, and is retried by asking again.
//
// Files nobody submitted cost the node disk for nothing, so uploading takes
// an identity, as submitting does, and what an operator (and its
// organization) asked to upload in the last 7 days that no bundle holds is
// bounded in bytes (uploadLimits). And a sealed bundle's files must stay
// unknown until it opens, so "present" is told only to the file's own
// uploader or for a file an open bundle serves (presentFor).

func (s *Server) routeUploads() {
	s.mux.Handle("POST /api/v1/uploads", s.serve(s.requestUploads))
	s.mux.HandleFunc("PUT /api/v1/uploads/{digest}", func(w http.ResponseWriter, r *http.Request) {
		s.serve(func(r *http.Request) (any, int, error) { return s.putUpload(w, r) }).ServeHTTP(w, r)
	})
}

// The deadlines of a file's transfer when Config leaves them zero: the
// server's own timeouts are sized for JSON, and the spec's largest files
// (an upload of up to 5 GB) could never move within them.
const (
	DefaultTransferGrace   = time.Minute
	DefaultMinTransferRate = 1_000_000 // bytes a second
)

// allowTransfer gives a request that moves a file of size bytes, as its
// body or its answer, until TransferGrace plus size at MinTransferRate
// from now to read the one and write the other, in place of the server's
// timeouts. It is called only once the node knows it serves the request
// (a link it signed, a file it serves), so no one else holds a connection
// that long.
func (s *Server) allowTransfer(w http.ResponseWriter, r *http.Request, size int64) {
	grace, rate := s.cfg.TransferGrace, s.cfg.MinTransferRate
	if grace <= 0 {
		grace = DefaultTransferGrace
	}
	if rate <= 0 {
		rate = DefaultMinTransferRate
	}
	deadline := time.Now().Add(grace + time.Duration(float64(max(size, 0))/float64(rate)*float64(time.Second)))
	rc := http.NewResponseController(w)
	if err := errors.Join(rc.SetReadDeadline(deadline), rc.SetWriteDeadline(deadline)); err != nil {
		s.logger.Warn("a file's transfer keeps the server's timeouts", "method", r.Method, "path", r.URL.Path, "bytes", size, "err", err)
	}
}

func (s *Server) requestUploads(r *http.Request) (any, int, error) {
	body, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, 0, err
	}
	req, ok := body.(map[string]any)
	if !ok {
		return nil, 0, httpapi.BadRequest("bad_request", `The body is a signed {"type": "upload_request", "operator", "time", "files": [{"digest", "bytes"}], "sig"}`)
	}
	if err := checkMembers(req, "upload_request", []string{"type", "operator", "time", "files", "sig"}); err != nil {
		return nil, 0, err
	}
	id, _ := req["operator"].(string)
	if !protocol.IsOperatorID(id) {
		return nil, 0, httpapi.BadRequest("bad_request", "operator must be an operator ID")
	}
	at, _ := req["time"].(string)
	if _, err := operators.CheckTime(at, s.now()); err != nil {
		return nil, 0, httpapi.BadRequest("stale", "%v", err)
	}
	list, ok := req["files"].([]any)
	if !ok || len(list) == 0 || len(list) > vocabulary.MaxUploadFiles {
		return nil, 0, httpapi.BadRequest("bad_request", "files lists 1 to %d files, each {\"digest\", \"bytes\"}", vocabulary.MaxUploadFiles)
	}
	type wanted struct {
		digest string
		size   int64
	}
	var files []wanted
	for i, item := range list {
		f, _ := item.(map[string]any)
		d, _ := f["digest"].(string)
		size, _ := f["bytes"].(float64)
		if len(f) != 2 || !claims.IsDigest(d) || size < 1 || size != float64(int64(size)) {
			return nil, 0, httpapi.BadRequest("bad_request", "files/%d must be {\"digest\": \"sha256:...\", \"bytes\": a positive whole number}", i)
		}
		if size > vocabulary.MaxUploadBytes {
			return nil, 0, &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
				Message: fmt.Sprintf("files/%d: a file may be up to %d bytes", i, int64(vocabulary.MaxUploadBytes))}
		}
		files = append(files, wanted{d, int64(size)})
	}
	op, err := s.store.Operator(r.Context(), id)
	if err != nil {
		return nil, 0, err
	}
	if !protocol.Verify(req, op.Key().Key) {
		return nil, 0, &httpapi.Error{Status: http.StatusUnauthorized, Code: "bad_signature", Message: "The request's signature does not verify with the operator's current key"}
	}
	// The spec gives operators without an identity no upload allowance of
	// their own (its "Large data" names none, and submitting takes an
	// identity), so they get none: keys are free, identities are not.
	identity, ok := op.Identity()
	if !ok {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "no_identity",
			Message: "Uploading takes an identity, as submitting does: prove a domain, a GitHub account or an invite code first (POST /api/v1/operators/{id}/identity)"}
	}
	limits := s.uploadLimits()
	now := s.now()
	expires := now.Add(vocabulary.UploadLinkLifetime)
	out := make([]any, 0, len(files))
	for _, f := range files {
		present, err := s.presentFor(r.Context(), f.digest, op.ID)
		if err != nil {
			return nil, 0, err
		}
		if present {
			out = append(out, map[string]any{"digest": f.digest, "present": true})
			continue
		}
		err = s.store.RequestUpload(r.Context(), ledger.Upload{Digest: f.digest, Size: f.size, Operator: op.ID, Organization: identity.Organization, Requested: now}, limits)
		var le *store.LimitError
		if errors.As(err, &le) {
			return nil, 0, &httpapi.Error{Status: http.StatusTooManyRequests, Code: "rate_limited", RetryAfter: int(le.RetryAfter.Seconds()) + 1, Err: err,
				Message: fmt.Sprintf("Past the %s: you may upload 50 GB in 24 hours (your organization's operators 200 GB together), and keep %d bytes (your organization %d) of uploads no submitted bundle uses",
					le.What, limits.Unbound, limits.OrgUnbound)}
		}
		if err != nil {
			return nil, 0, err
		}
		out = append(out, map[string]any{"digest": f.digest, "present": false, "upload": map[string]any{
			"url":        s.uploadURL(f.digest, op.ID, f.size, expires),
			"method":     "PUT",
			"headers":    map[string]any{"content-type": "application/octet-stream"},
			"expires_at": expires.UTC().Format(time.RFC3339),
		}})
	}
	return map[string]any{"files": out}, http.StatusOK, nil
}

// The quotas of uploads no bundle holds when Config leaves them zero: an
// operator keeps at most 20 GiB of files nobody submitted, and its
// organization's operators 80 GiB together, until the sweep removes them
// (vocabulary.UploadKeep after they were asked for).
const (
	DefaultUnboundUploadQuota    = 20 << 30
	DefaultOrgUnboundUploadQuota = 80 << 30
)

func (s *Server) uploadLimits() ledger.UploadLimits {
	l := ledger.UploadLimits{Daily: vocabulary.UploadsPerDay, OrgDaily: vocabulary.UploadsPerOrgDay,
		Unbound: s.cfg.UnboundUploadQuota, OrgUnbound: s.cfg.OrgUnboundUploadQuota, Keep: vocabulary.UploadKeep}
	if l.Unbound == 0 {
		l.Unbound = DefaultUnboundUploadQuota
	}
	if l.OrgUnbound == 0 {
		l.OrgUnbound = DefaultOrgUnboundUploadQuota
	}
	return l
}

// presentFor says whether the node answers operator "present: true" for
// digest: only when the file is public (an open bundle serves it) or
// operator itself uploaded it whole and the node still has it. For any
// other file the node holds, a sealed bundle's or another operator's
// upload, it answers as if it held nothing, so an upload request cannot
// test guesses against files nobody may read yet; the upload then goes
// ahead and the PUT stores nothing new.
func (s *Server) presentFor(ctx context.Context, digest, operator string) (bool, error) {
	if _, err := s.store.ServedFile(ctx, digest); err == nil {
		return s.blobs.Has(digest), nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return false, err
	}
	u, err := s.store.OperatorUpload(ctx, digest, operator)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return !u.Completed.IsZero() && s.blobs.Has(digest), nil
}

// uploadURL is the link that lets operator PUT the file digest of size
// bytes until expires.
func (s *Server) uploadURL(digest, operator string, size int64, expires time.Time) string {
	q := url.Values{}
	q.Set("operator", operator)
	q.Set("bytes", strconv.FormatInt(size, 10))
	q.Set("expires", strconv.FormatInt(expires.Unix(), 10))
	q.Set("sig", s.uploadMAC(digest, operator, size, expires.Unix()))
	return "/api/v1/uploads/" + digest + "?" + q.Encode()
}

func (s *Server) uploadMAC(digest, operator string, size, expires int64) string {
	m := hmac.New(sha256.New, s.uploadKey)
	fmt.Fprintf(m, "upload\n%s\n%s\n%d\n%d", digest, operator, size, expires)
	return hex.EncodeToString(m.Sum(nil))
}

// putUpload answers the PUT an upload link names. Once the link checks
// out, the body has as long as its size needs (allowTransfer).
func (s *Server) putUpload(w http.ResponseWriter, r *http.Request) (any, int, error) {
	digest := r.PathValue("digest")
	q := r.URL.Query()
	size, err1 := strconv.ParseInt(q.Get("bytes"), 10, 64)
	expires, err2 := strconv.ParseInt(q.Get("expires"), 10, 64)
	operator := q.Get("operator")
	if !blobs.ValidDigest(digest) || err1 != nil || err2 != nil ||
		!hmac.Equal([]byte(q.Get("sig")), []byte(s.uploadMAC(digest, operator, size, expires))) {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "bad_link", Message: "This is not a link the node gave: ask POST /api/v1/uploads for one"}
	}
	if s.now().Unix() > expires {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "link_expired", Message: "The link expired: ask POST /api/v1/uploads for a new one"}
	}
	if r.ContentLength >= 0 && r.ContentLength != size {
		return nil, 0, httpapi.BadRequest("size_mismatch", "The link is for %d bytes; the request says %d", size, r.ContentLength)
	}
	// Only the uploader's own finished upload is answered without its
	// bytes: for anyone else the node takes the whole body and checks it,
	// whether it holds the file or not, so the answer tells nothing of
	// what others sent.
	mine, err := s.store.OperatorUpload(r.Context(), digest, operator)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, 0, err
	}
	if !mine.Completed.IsZero() && s.blobs.Has(digest) {
		return map[string]any{"digest": digest, "bytes": size}, http.StatusOK, nil
	}
	s.allowTransfer(w, r, size)
	err = s.blobs.PutStream(r.Body, digest, size)
	switch {
	case errors.Is(err, blobs.ErrSizeMismatch):
		return nil, 0, httpapi.BadRequest("size_mismatch", "The file is not %d bytes: nothing was kept; PUT it again", size)
	case errors.Is(err, blobs.ErrDigestMismatch):
		return nil, 0, httpapi.BadRequest("digest_mismatch", "The bytes do not hash to %s: nothing was kept; PUT the right file", digest)
	case err != nil && (errors.Is(err, io.ErrUnexpectedEOF) || r.Context().Err() != nil):
		// The client stopped sending: its fault, not the node's.
		return nil, 0, &httpapi.Error{Status: http.StatusBadRequest, Code: "incomplete", Err: err,
			Message: fmt.Sprintf("The upload ended before %d bytes arrived: nothing was kept; PUT it again", size)}
	case err != nil:
		return nil, 0, err
	}
	if err := s.store.CompleteUpload(r.Context(), digest, operator, s.now()); err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, 0, err
	}
	return map[string]any{"digest": digest, "bytes": size}, http.StatusCreated, nil
}
