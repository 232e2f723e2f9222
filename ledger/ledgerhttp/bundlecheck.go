package ledgerhttp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/ledger/paper"
	"github.com/agora-node/agora/ledger/price"
	"github.com/agora-node/agora/ledger/schemas"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/vocabulary"
)

// The bundle check: everything POST /api/v1/bundles/check reports and POST
// /api/v1/bundles refuses on. Both run checkBundle, so a check that says
// ready is a submission that seals.

// Limits on a submission, sent and uploaded together.
const (
	maxBundleBytes = 10 << 20
	maxBundleFiles = 1000
	// MaxBundleBody bounds the request body: 10 MB of files in base64,
	// with room for the JSON around them. Config.MaxBundleBodyBytes may
	// set a lower bound; Config.MaxBodyBytes, for the other routes' small
	// JSON bodies, does not apply here, since the spec allows bundles of
	// 10 MB (issue 12 found bundle bodies of 14 MB beside a --max-body of
	// 1 MiB, and this is why).
	MaxBundleBody = maxBundleBytes*4/3 + 1<<20
)

// Issue is one problem with a bundle: the file it is in and a JSON Pointer
// into that file ("" for the file as a whole).
type Issue struct {
	File    string `json:"file"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

// bundleRequest is a check's or submission's body, decoded.
type bundleRequest struct {
	files    map[string][]byte // sent inline, signature included
	uploaded map[string]string // path -> digest, sent ahead
	sizes    map[string]int64  // every file's size, uploads' once resolved
	inline   int64             // the bytes of the files sent inline
}

// checkedBundle is what the check found.
type checkedBundle struct {
	req         *bundleRequest
	digests     bundle.Digests
	manifest    *bundle.Manifest
	claims      []claims.Claim
	claimIDs    []string
	assertions  []string
	signature   string
	operator    *store.Operator // nil when the key is not registered here
	signatureOK bool
	issues      []Issue
	// issuesOmitted and hiddenOmitted count what the answer leaves out
	// past MaxIssuesListed and MaxHiddenListed.
	issuesOmitted int
	hiddenOmitted int
	integrity     paper.Integrity
	hidden        []paper.HiddenFinding
	hazardIssue   string
	publishing    map[string]any
	canPublish    bool
	free          string
	quota         map[string]any
	replaces      any
	newVersionOf  any
	// conflict is why submitting it now is refused with 409 new_version:
	// it repeats a study of its author's, or corrects a version that takes
	// no correction (correctionRefused).
	conflict     *httpapi.Error
	fixable      bool // it corrects a version whose checks found something to fix
	sealedIndex  any
	publishedIdx any
	price        price.Price
}

// readBundleRequest reads {"files": {path: base64}, "uploaded": {path:
// digest}}, refusing an oversized one before reading more than it must.
func (s *Server) readBundleRequest(r *http.Request) (*bundleRequest, error) {
	body, err := httpapi.ReadJSON(r, cmp.Or(s.cfg.MaxBundleBodyBytes, MaxBundleBody))
	if err != nil {
		return nil, err
	}
	obj, ok := body.(map[string]any)
	if !ok {
		return nil, httpapi.BadRequest("bad_request", `The body is {"files": {path: base64 of the file}, "uploaded": {path: digest}}`)
	}
	for k := range obj {
		if k != "files" && k != "uploaded" {
			return nil, httpapi.BadRequest("bad_request", "Unknown member %q: the body holds files and uploaded", k)
		}
	}
	files, ok := obj["files"].(map[string]any)
	if !ok {
		return nil, httpapi.BadRequest("bad_request", `"files" must be an object of paths to the files' bytes in base64`)
	}
	req := &bundleRequest{files: map[string][]byte{}, uploaded: map[string]string{}, sizes: map[string]int64{}}
	if up, present := obj["uploaded"]; present {
		m, ok := up.(map[string]any)
		if !ok {
			return nil, httpapi.BadRequest("bad_request", `"uploaded" must be an object of paths to digests`)
		}
		for p, d := range m {
			s, ok := d.(string)
			if !ok || !claims.IsDigest(s) {
				return nil, httpapi.BadRequest("bad_request", "uploaded %q: a digest is sha256: and 64 lowercase hex digits", p)
			}
			req.uploaded[p] = s
		}
	}
	if len(files)+len(req.uploaded) > maxBundleFiles {
		return nil, &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
			Message: fmt.Sprintf("A bundle holds at most %d files, sent and uploaded together; this one has %d", maxBundleFiles, len(files)+len(req.uploaded))}
	}
	var total int64
	for p, v := range files {
		s, ok := v.(string)
		if !ok {
			return nil, httpapi.BadRequest("bad_request", "files %q: the file's bytes are a base64 string", p)
		}
		data, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, httpapi.BadRequest("bad_request", "files %q is not base64: %v", p, err)
		}
		req.files[p] = data
		req.sizes[p] = int64(len(data))
		total += int64(len(data))
	}
	if total > maxBundleBytes {
		return nil, tooManyBytes(total)
	}
	req.inline = total
	return req, nil
}

// resolveUploads gives each file the request names as uploaded its size,
// and checks the bundle's size with them. A file an open bundle serves is
// anyone's to name; any other is found only among uploader's own uploads,
// and uploader is "" unless the request's signature verified. So a check
// nobody signed learns nothing of what others uploaded: every upload not
// public is refused in the same words, whether the node holds it or not.
func (s *Server) resolveUploads(ctx context.Context, req *bundleRequest, uploader string) error {
	total := req.inline
	for p, d := range req.uploaded {
		size, err := s.uploadedSize(ctx, d, uploader)
		switch {
		case errors.Is(err, store.ErrNotFound) && uploader == "":
			return &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_bundle",
				Message: fmt.Sprintf("uploaded %q: %s is no file an open bundle serves, and the node shows your uploads only to a request your signature verifies: sign the bundle (its signature file) with the key that uploaded it", p, d)}
		case errors.Is(err, store.ErrNotFound):
			return &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_bundle",
				Message: fmt.Sprintf("uploaded %q: you hold no upload of %s; ask for a link with POST /api/v1/uploads and send the file first", p, d)}
		case errors.Is(err, errUploadPartial):
			return &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_bundle",
				Message: fmt.Sprintf("uploaded %q: the upload of %s has not arrived whole; PUT it again (ask POST /api/v1/uploads for a new link if yours expired)", p, d)}
		case err != nil:
			return err
		}
		req.sizes[p] = size
		total += size
	}
	if total > maxBundleBytes {
		return tooManyBytes(total)
	}
	return nil
}

func tooManyBytes(total int64) error {
	return &httpapi.Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
		Message: fmt.Sprintf("A bundle carries at most %d bytes, sent and uploaded together; this one has %d. Send large data/ files ahead with POST /api/v1/uploads", maxBundleBytes, total)}
}

// errUploadPartial: the uploader asked to upload the file, but it has not
// arrived whole.
var errUploadPartial = errors.New("upload not whole")

// uploadedSize is the size of the file digest as an open bundle serves it
// or, failing that, as uploader uploaded it.
func (s *Server) uploadedSize(ctx context.Context, digest, uploader string) (int64, error) {
	if f, err := s.store.ServedFile(ctx, digest); err == nil && s.blobs.Has(digest) {
		return f.Size, nil
	} else if err != nil && !errors.Is(err, store.ErrNotFound) {
		return 0, err
	}
	if uploader == "" {
		return 0, store.ErrNotFound
	}
	u, err := s.store.OperatorUpload(ctx, digest, uploader)
	if err != nil {
		return 0, err
	}
	if u.Completed.IsZero() && !s.blobs.Has(digest) {
		return 0, errUploadPartial
	}
	return u.Size, nil
}

// runChecks runs every check, stopping between them once ctx is done. An
// error is a request that can't be checked at all (its paths break the
// layout rules or its files the parsers' limits: 413 or 422; ctx ended; or
// the node failed); everything else is in the result.
func (s *Server) runChecks(ctx context.Context, req *bundleRequest) (*checkedBundle, error) {
	if err := checkMarkdownLimits(req); err != nil {
		return nil, err
	}
	if err := checkJSONLimits(req); err != nil {
		return nil, err
	}
	c := &checkedBundle{req: req}
	add := func(file, path, format string, args ...any) {
		if len(c.issues) >= MaxIssuesListed {
			c.issuesOmitted++
			return
		}
		c.issues = append(c.issues, Issue{File: file, Path: path, Message: fmt.Sprintf(format, args...)})
	}
	sig, hasSig := req.files[bundle.SignatureFile]
	inline := make(map[string][]byte, len(req.files))
	for p, data := range req.files {
		if p != bundle.SignatureFile {
			inline[p] = data
		}
	}
	var err error
	c.digests, err = bundle.DigestWithUploads(inline, req.uploaded)
	if err != nil {
		return nil, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_bundle", Message: err.Error(), Err: err}
	}
	if hasSig {
		c.digests.Files[bundle.SignatureFile] = canonical.Digest(sig)
	}
	for _, required := range []string{"manifest.json", "paper.md", "claims.json", bundle.SignatureFile} {
		if _, ok := req.files[required]; !ok {
			add(required, "", "the bundle has no %s, which every bundle needs", required)
		}
	}
	// Every JSON file is I-JSON; those the checks read are parsed, the
	// rest only validated, which takes no memory for their values.
	parsed := map[string]any{}
	for p, data := range req.files {
		if !strings.HasSuffix(p, ".json") {
			continue
		}
		if err := stageDone(ctx); err != nil {
			return nil, err
		}
		data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
		if !parsedJSON[p] {
			if err := canonical.Valid(data); err != nil {
				add(p, "", "not I-JSON: %v", err)
			}
			continue
		}
		v, err := canonical.Parse(data)
		if err != nil {
			add(p, "", "not I-JSON: %v", err)
			continue
		}
		parsed[p] = v
	}
	if err := stageDone(ctx); err != nil {
		return nil, err
	}

	if v, ok := parsed["manifest.json"]; ok {
		m, issues := bundle.CheckManifest(v)
		for _, is := range issues {
			add("manifest.json", is.Path, "%s", is.Message)
		}
		c.manifest = m
	}
	if v, ok := parsed["claims.json"]; ok {
		cs, issues := claims.Check(v)
		for _, is := range issues {
			add("claims.json", is.Path, "%s", is.Message)
		}
		if len(issues) == 0 {
			c.claims = cs
			c.assignClaimIDs(req, add)
		}
	}
	if err := stageDone(ctx); err != nil {
		return nil, err
	}
	for file, schema := range map[string]string{
		"references.json":    "references.json",
		"materials.json":     "materials.json",
		"deviations.json":    "deviations.json",
		"data/external.json": "external.json",
	} {
		if v, ok := parsed[file]; ok {
			for _, is := range schemas.Validate(schema, v) {
				add(file, is.Path, "%s", is.Message)
			}
		}
	}
	if v, ok := parsed["data/external.json"]; ok {
		for _, is := range bundle.CheckExternal(v, c.digests.Files) {
			add("data/external.json", is.Path, "%s", is.Message)
		}
	}
	if err := stageDone(ctx); err != nil {
		return nil, err
	}
	if text, ok := req.files["paper.md"]; ok {
		for _, is := range paper.CheckLength(text) {
			add("paper.md", "", "%s", is)
		}
	}
	if err := stageDone(ctx); err != nil {
		return nil, err
	}
	// A table sent ahead is too large to read here, like one over the
	// table limit: a verifier checks it.
	unread := make(map[string]int64, len(req.uploaded))
	for p := range req.uploaded {
		unread[p] = req.sizes[p]
	}
	c.integrity = paper.FlagsUnread(inline, unread, c.paths())
	for p, data := range inline {
		if err := stageDone(ctx); err != nil {
			return nil, err
		}
		c.hidden = append(c.hidden, paper.ScanHidden(p, data)...)
	}
	slices.SortStableFunc(c.hidden, func(a, b paper.HiddenFinding) int { return strings.Compare(a.Path, b.Path) })
	if len(c.hidden) > MaxHiddenListed {
		c.hiddenOmitted = len(c.hidden) - MaxHiddenListed
		c.hidden = c.hidden[:MaxHiddenListed]
	}

	// The hazard screen the author declares, read from the manifest as
	// sent so that it is reported with the manifest's other problems,
	// not only once they are fixed.
	if m, ok := parsed["manifest.json"].(map[string]any); ok {
		raw, present := m["hazard_screen"]
		hs, declared := raw.(map[string]any)
		rubric, named := hs["rubric"].(string)
		switch {
		case !present:
			c.hazardIssue = `manifest.json declares no hazard_screen: apply the rubric at GET /api/v1/hazard-rubric and declare it as {"rubric": "` + hazard.Digest() + `", "model": "<the model that screened it>"}`
			add("manifest.json", "/hazard_screen", "%s", c.hazardIssue)
		case declared && named && rubric != hazard.Digest():
			c.hazardIssue = "the hazard screen names rubric " + rubric + ", not the node's current rubric " + hazard.Digest() + ": screen the bundle again with GET /api/v1/hazard-rubric"
			add("manifest.json", "/hazard_screen/rubric", "%s", c.hazardIssue)
		}
	}
	if err := stageDone(ctx); err != nil {
		return nil, err
	}
	if err := s.checkAuthor(ctx, c, sig, hasSig, add); err != nil {
		return nil, err
	}
	return c, nil
}

// paths lists every file of the bundle, sent or uploaded.
func (c *checkedBundle) paths() []string {
	paths := make([]string, 0, len(c.digests.Files))
	for p := range c.digests.Files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

// assignClaimIDs gives the claims their global IDs from the bundle itself.
func (c *checkedBundle) assignClaimIDs(req *bundleRequest, add func(file, path, format string, args ...any)) {
	results, issues := claims.CheckEvidence(c.claims, req.files)
	for _, is := range issues {
		// A file sent ahead is in the bundle, though not in req.files.
		if strings.HasPrefix(is.Message, "the bundle has no ") {
			if _, ok := req.uploaded[strings.TrimPrefix(is.Message, "the bundle has no ")]; ok {
				continue
			}
		}
		add("claims.json", is.Path, "%s", is.Message)
	}
	if len(issues) > 0 {
		return
	}
	ids, err := claims.AssignIDs(c.claims, c.digests.VerificationInputs, results)
	if err != nil {
		add("claims.json", "", "%v", err)
		return
	}
	c.claimIDs = ids
	for i := range c.claims {
		d, err := claims.AssertionDigest(&c.claims[i])
		if err != nil {
			add("claims.json", claims.Pointer(i), "%v", err)
			return
		}
		c.assertions = append(c.assertions, d)
	}
}

// manifestProblems is why a bundle whose manifest could not be read cannot
// be published yet: the count of its problems, listed in issues, or the
// missing key when that is all.
func manifestProblems(issues []Issue) string {
	n := 0
	for _, is := range issues {
		if is.File == "manifest.json" {
			n++
		}
	}
	if n == 0 {
		return "manifest.json must name your key by operator_key_digest"
	}
	return fmt.Sprintf("fix the %d problems with manifest.json listed in issues: the node reads who publishes the bundle from it", n)
}

// checkAuthor checks what depends on who sent the bundle: the signature,
// anonymity, whether the author may publish, its quota, what the bundle
// replaces or repeats, and its price.
func (s *Server) checkAuthor(ctx context.Context, c *checkedBundle, sig []byte, hasSig bool, add func(file, path, format string, args ...any)) error {
	c.publishing = map[string]any{"allowed": false}
	if c.manifest == nil || c.manifest.OperatorKeyDigest == "" {
		// The manifest is read whole or not at all, so a problem anywhere
		// in it leaves the key unread: say so, not that the key is missing.
		c.publishing["needs"] = "manifest"
		c.publishing["message"] = manifestProblems(c.issues)
		return nil
	}
	op, err := s.store.OperatorByKey(ctx, c.manifest.OperatorKeyDigest)
	switch {
	case errors.Is(err, store.ErrNotFound):
		c.publishing["needs"] = "register"
		c.publishing["message"] = "No operator here holds the key " + c.manifest.OperatorKeyDigest + ": register it with POST /api/v1/operators (agora register)"
		return nil
	case err != nil:
		return err
	}
	c.operator = &op
	key := op.Key()
	if key.Digest != c.manifest.OperatorKeyDigest {
		add("manifest.json", "/operator_key_digest", "the key %s was retired; name your current key %s and sign with it", c.manifest.OperatorKeyDigest, key.Digest)
	}
	if hasSig {
		c.signature = strings.TrimSpace(string(sig))
		payload, _ := canonical.Marshal(map[string]any{"type": "bundle", "bundle": c.digests.Bundle})
		if hybrid.Verify(c.signature, payload, key.Key) {
			c.signatureOK = true
		} else {
			add(bundle.SignatureFile, "", `the signature does not verify: sign the canonical JSON of {"type": "bundle", "bundle": %q} with the key %s`, c.digests.Bundle, key.Digest)
		}
	}

	// Anonymity: no file but manifest.json and signature names the author.
	ids := bundle.Identifiers{Operators: []string{op.ID}}
	for _, k := range op.Keys {
		ids.KeyDigests = append(ids.KeyDigests, k.Digest)
	}
	for _, id := range op.Identities {
		switch id.Kind {
		case "domain":
			ids.Domains = append(ids.Domains, id.Subject)
		case "github":
			if owner, _, ok := strings.Cut(id.Subject, "/"); ok {
				ids.GitHubLogins = append(ids.GitHubLogins, owner)
			}
		}
	}
	for _, is := range bundle.CheckAnonymity(c.req.files, ids) {
		add(is.File, "", "%s", is.Message)
	}

	identity, hasIdentity := op.Identity()
	if hasIdentity {
		if err := s.checkReportedPlan(ctx, c, identity.Organization, add); err != nil {
			return err
		}
	}
	now := s.now()
	used, err := s.store.OperatorBundles(ctx, op.ID, now.Add(-24*time.Hour))
	if err != nil {
		return err
	}
	limits, err := s.limitsOf(ctx, op.ID)
	if err != nil {
		return err
	}
	c.quota = map[string]any{"limit": limits.BundlesPerDay, "used": used, "remaining": max(0, limits.BundlesPerDay-used)}

	if c.manifest.Replaces != "" {
		prev, err := s.store.Bundle(ctx, c.manifest.Replaces)
		switch {
		case errors.Is(err, store.ErrNotFound):
			add("manifest.json", "/replaces", "no bundle %s is on this node to correct", c.manifest.Replaces)
		case err != nil:
			return err
		case prev.Operator != op.ID:
			add("manifest.json", "/replaces", "%s is another operator's bundle; a correction replaces your own", c.manifest.Replaces)
		default:
			c.replaces = map[string]any{"bundle": prev.Hash, "state": prev.State}
			if prev.Hash != c.digests.Bundle {
				if c.conflict, err = s.correctionRefused(ctx, prev); err != nil {
					return err
				}
				if c.fixable, err = s.fixable(ctx, prev); err != nil {
					return err
				}
			}
		}
	}
	if len(c.assertions) > 0 {
		prev, err := s.store.RepeatedBy(ctx, op.ID, c.assertions)
		switch {
		case err == nil && prev != c.manifest.Replaces && prev != c.digests.Bundle:
			c.newVersionOf = prev
			// A retracted paper's work may go up again as a new bundle.
			retracted, rerr := s.bundleRetraction(ctx, prev)
			if rerr != nil {
				return rerr
			}
			if c.conflict == nil && retracted == nil {
				c.conflict = &httpapi.Error{Status: http.StatusConflict, Code: "new_version", Message: fmt.Sprintf(
					"This repeats a claim of your study %s, which is sealed or published: a new version of a study is its correction, so name it as \"replaces\" in manifest.json (or void it while it is sealed)", prev)}
			}
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return err
		}
	}
	if b, err := s.store.Bundle(ctx, c.digests.Bundle); err == nil {
		c.sealedIndex = b.SealedIndex
		if b.State == ledger.BundleOpen {
			c.publishedIdx = b.RevealedIndex
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}

	free := ""
	switch s.cfg.FreeBundles {
	case FreeAll:
		free = "seed"
	case FreeSeed:
		if hasIdentity && identity.Kind == "invited" {
			all, err := s.store.OperatorBundles(ctx, "", time.Time{})
			if err != nil {
				return err
			}
			if all < vocabulary.SeedBundles {
				free = "seed"
			}
		}
	}
	c.free = free
	if c.price, err = price.Compute(priceNeeds(c), s.rates(), price.Free(free)); err != nil {
		add("manifest.json", "/compute", "the bundle cannot be priced: %v", err)
	}
	paid := false
	if hasIdentity && err == nil {
		// The credit account settles it (credit.go): a balance that covers
		// the price, or a free bundle for verifiers.
		if c.price, c.free, paid, err = s.publishingFor(ctx, op, priceNeeds(c), c.price, free); err != nil {
			return err
		}
	}
	switch {
	case c.conflict != nil:
		c.publishing["needs"] = "new_version"
		c.publishing["message"] = c.conflict.Message
	case !hasIdentity:
		c.publishing["needs"] = "identity"
		c.publishing["message"] = "Prove an identity first (POST /api/v1/operators/" + op.ID + "/identity): publishing takes one"
	case !paid:
		c.publishing["needs"] = "credit"
		c.publishing["message"] = fmt.Sprintf("This bundle costs %d credits, more than you may spend now: do verification jobs to earn credit", c.price.Charged)
	default:
		c.publishing = map[string]any{"allowed": true}
		c.canPublish = true
	}
	return nil
}

// priceNeeds is what the bundle asks of verifiers, as price.Compute takes it.
func priceNeeds(c *checkedBundle) price.Needs {
	var needs price.Needs
	if c.manifest != nil {
		needs.Minutes = c.manifest.Compute.Minutes
		needs.GPU = c.manifest.Compute.GPU
		needs.Correction = c.manifest.Replaces != ""
		needs.Fixable = needs.Correction && c.fixable
		if c.manifest.Replication != nil {
			for _, need := range c.manifest.Replication.Needs {
				needs.Replication = append(needs.Replication, price.WorkHours{Kind: need.Kind, Hours: need.Hours})
			}
		}
	}
	for _, cl := range c.claims {
		for _, ev := range cl.Evidence {
			switch ev.Kind() {
			case claims.Computation:
				needs.Computations = true
			case claims.Proof:
				needs.Proofs = true
			case claims.Measurement:
				needs.Measurements = true
			}
		}
	}
	needs.Citations = citationsOutside(c)
	return needs
}

// citationsOutside counts what the bundle cites: every reference its
// references.json lists.
func citationsOutside(c *checkedBundle) int {
	v, err := canonical.Parse(c.req.files["references.json"])
	if err != nil {
		return 0
	}
	list, _ := v.([]any)
	return len(list)
}

// ready reports whether submitting would seal the bundle.
func (c *checkedBundle) ready() bool {
	return len(c.issues) == 0 && c.canPublish && c.signatureOK
}

// answer is the check's answer, in the spec's shape.
func (c *checkedBundle) answer() map[string]any {
	claimList := make([]any, len(c.claims))
	for i, cl := range c.claims {
		item := map[string]any{"local_id": cl.LocalID, "claim_id": nil, "assertion_digest": nil}
		if i < len(c.claimIDs) {
			item["claim_id"] = c.claimIDs[i]
		}
		if i < len(c.assertions) {
			item["assertion_digest"] = c.assertions[i]
		}
		claimList[i] = item
	}
	files := map[string]any{}
	for p, d := range c.digests.Files {
		files[p] = map[string]any{"digest": d, "bytes": c.req.sizes[p], "uploaded": c.req.uploaded[p] != ""}
	}
	var operator, status any
	var verification any
	if c.operator != nil {
		_, identified := c.operator.Identity()
		operator, status = c.operator.ID, operatorStatus(identified)
		verification = emptyVerification()
	}
	var hazardScreen any
	if c.hazardIssue != "" {
		hazardScreen = c.hazardIssue
	}
	var priceAnswer any = c.price
	if len(c.issues) > 0 {
		priceAnswer = map[string]any{"error": "The bundle has problems to fix before it can be priced", "code": "invalid_bundle", "issues": c.issueList()}
	}
	hidden := make([]any, len(c.hidden))
	for i, h := range c.hidden {
		hidden[i] = h
	}
	answer := map[string]any{
		"bundle":              c.digests.Bundle,
		"verification_inputs": c.digests.VerificationInputs,
		"files":               files,
		"claims":              claimList,
		"operator":            operator,
		"operator_status":     status,
		"publishing":          c.publishing,
		"verification":        verification,
		"published_entry":     c.publishedIdx,
		"sealed_entry":        c.sealedIndex,
		"hazard_screen":       hazardScreen,
		"quota":               orNil(c.quota),
		"replaces":            c.replaces,
		"new_version_of":      c.newVersionOf,
		"integrity":           c.integrity,
		"hidden_content":      hidden,
		"issues":              c.issueList(),
		"ready":               c.ready(),
		"price":               priceAnswer,
	}
	if c.hiddenOmitted > 0 {
		answer["hidden_content_omitted"] = c.hiddenOmitted
	}
	return answer
}

func orNil(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

func (c *checkedBundle) issueList() []any {
	out := make([]any, len(c.issues), len(c.issues)+1)
	for i, is := range c.issues {
		out[i] = map[string]any{"file": is.File, "path": is.Path, "message": is.Message}
	}
	if c.issuesOmitted > 0 {
		out = append(out, map[string]any{"file": "", "path": "",
			"message": fmt.Sprintf("%d more issues are not listed: an answer lists at most %d (ledgerhttp.MaxIssuesListed); fix these and check again", c.issuesOmitted, MaxIssuesListed)})
	}
	return out
}

// emptyVerification is an operator's verification block while the node has
// no verification economy: nothing earned, nothing spent.
func emptyVerification() map[string]any {
	return map[string]any{"earned": 0, "given": 0, "moved": 0, "granted": 0, "lost": 0, "spent": 0, "balance": 0, "spendable": 0, "given_waits_for_jobs": 0}
}

// invalidBundle is the 422 a submission with problems gets.
func invalidBundle(c *checkedBundle) error {
	msg := "The bundle has problems: " + c.issues[0].File
	if c.issues[0].Path != "" {
		msg += " " + c.issues[0].Path
	}
	msg += ": " + c.issues[0].Message
	if more := len(c.issues) - 1 + c.issuesOmitted; more > 0 {
		msg += fmt.Sprintf(" (and %d more; POST /api/v1/bundles/check lists up to %d)", more, MaxIssuesListed)
	}
	return &httpapi.IssuesError{Err: httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_bundle", Message: msg}, Issues: c.issueList()}
}

var _ = protocol.SealedType
