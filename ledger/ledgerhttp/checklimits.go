package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger/paper"
)

// The bundle check's bounds: every parser it runs gets input it can read in
// bounded time and memory, checked before it starts, and the check as a
// whole a deadline, so that one request can't spend the node (issue 12).

// DefaultCheckTimeout is how long one bundle check may run when
// Config.CheckTimeout is zero: a bundle at every limit is checked in well
// under a second, so a check still running after this is one the node is
// too loaded to finish.
const DefaultCheckTimeout = 10 * time.Second

// MaxParsedJSONBytes bounds each JSON file the check reads into values:
// manifest.json, claims.json (at most 30 claims), references.json,
// materials.json (at most 500 materials), deviations.json (at most 200)
// and data/external.json. 2 MiB is some thousands of references or
// materials; other JSON files are only validated, streaming, at any size.
const MaxParsedJSONBytes = 2 << 20

// The answer's bounds: a bundle can have a problem in every file, and
// the answer must not grow with it (100,000 claims made a 155 MB answer).
const (
	// MaxIssuesListed bounds the issues one answer lists; one more says
	// how many were left out.
	MaxIssuesListed = 100
	// MaxHiddenListed bounds the hidden-content findings one answer
	// lists, over all files (paper.HiddenPerFile bounds each file's);
	// hidden_content_omitted says how many were left out.
	MaxHiddenListed = 200
)

// parsedJSON are the JSON files the check reads into values.
var parsedJSON = map[string]bool{
	"manifest.json": true, "claims.json": true, "references.json": true,
	"materials.json": true, "deviations.json": true, "data/external.json": true,
}

// errCheckDeadline is the cause of a check's context ending at its
// deadline, told apart from the client leaving.
var errCheckDeadline = errors.New("the bundle check ran past its deadline")

// checkBundle runs every check within the check's deadline
// (Config.CheckTimeout): see runChecks. A check past its deadline answers
// 503 busy; a client that left stops it at the next stage.
func (s *Server) checkBundle(ctx context.Context, req *bundleRequest) (*checkedBundle, error) {
	timeout := s.cfg.CheckTimeout
	if timeout <= 0 {
		timeout = DefaultCheckTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errCheckDeadline)
	defer cancel()
	c, err := s.runChecks(ctx, req)
	if err != nil && errors.Is(context.Cause(ctx), errCheckDeadline) {
		return nil, &httpapi.Error{Status: http.StatusServiceUnavailable, Code: "busy", RetryAfter: 10, Err: err,
			Message: fmt.Sprintf("The node is busy: the bundle check did not finish within %s; send the same request again after Retry-After seconds", timeout)}
	}
	return c, err
}

// stageDone is ctx's end, if it has ended: the check stops between stages.
func stageDone(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("checking the bundle: %w", context.Cause(ctx))
	}
	return nil
}

// checkJSONLimits refuses a JSON file the check would read into values
// when it is over MaxParsedJSONBytes: 413, naming the limit.
func checkJSONLimits(req *bundleRequest) error {
	for _, p := range slices.Sorted(maps.Keys(req.files)) {
		if parsedJSON[p] && len(req.files[p]) > MaxParsedJSONBytes {
			return &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
				Message: fmt.Sprintf("%s has %d bytes; at most %d are read (ledgerhttp.MaxParsedJSONBytes)", p, len(req.files[p]), MaxParsedJSONBytes)}
		}
	}
	return nil
}

// checkMarkdownLimits refuses, before anything parses them, Markdown files
// over the paper package's limits (paper.CheckMarkdown): 413 for size, 422
// for structure, naming the limit. A Markdown parser's cost outside these
// limits is what let one unauthenticated check spend the node (issue 12).
func checkMarkdownLimits(req *bundleRequest) error {
	total := 0
	for _, p := range slices.Sorted(maps.Keys(req.files)) {
		if !paper.IsMarkdown(p) {
			continue
		}
		data := req.files[p]
		err := paper.CheckMarkdown(p, data, p == "paper.md")
		if total += len(data); err == nil && total > paper.MaxMarkdownTotalBytes {
			return &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
				Message: fmt.Sprintf("The bundle's Markdown files add up to more than %d bytes; at most %d are parsed in one check (paper.MaxMarkdownTotalBytes)", paper.MaxMarkdownTotalBytes, paper.MaxMarkdownTotalBytes)}
		}
		var le *paper.LimitError
		switch {
		case err == nil:
		case errors.As(err, &le) && errors.Is(err, paper.ErrTooLarge):
			return &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Message: err.Error(), Err: err}
		case errors.As(err, &le):
			issue := map[string]any{"file": p, "path": "", "message": err.Error()}
			return &httpapi.IssuesError{Err: httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_bundle",
				Message: "The bundle has problems: " + err.Error(), Err: err}, Issues: []any{issue}}
		default:
			return err
		}
	}
	return nil
}
