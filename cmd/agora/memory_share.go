package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/node"
)

// agora memory share and unshare: the admin lets every adapter's sessions
// read a record, and supersede it, having read it (agora memory show); or
// takes that back. A record belongs to the adapter that wrote it, and
// other adapters see it only when shared or when their profile's reads
// names its adapter (memory/profile.md).

func memoryShareCommand(share bool) *command {
	name, summary := "share", "let every adapter's sessions read a record (its current revision), and supersede it"
	if !share {
		name, summary = "unshare", "take a share back: only the record's own adapter (and profiles reading it) see it"
	}
	c := newCommand(name, "agora memory "+name+" <lr_ref> "+adminFlagsUsage, summary,
		"a new revision of a shared record is not shared until shared again")
	admin := c.admin(memoryNotFoundHint)
	c.run = func(ctx context.Context, e *env, args []string) int {
		ref, code := memoryRef(c, e, args)
		if ref == "" {
			return code
		}
		token, code := admin.token(e)
		if code != 0 {
			return code
		}
		rec, err := postMemoryShare(ctx, strings.TrimRight(*admin.url, "/"), token, ref, share)
		if err != nil {
			return admin.fail(e, err)
		}
		if share {
			fmt.Fprintf(e.stdout, "Shared %s %q (revision %d): every adapter's sessions may read it now.\n", rec.RecordRef, rec.Title, rec.Revision)
		} else {
			fmt.Fprintf(e.stdout, "Unshared %s %q: only its own adapter's sessions (and profiles reading that adapter) see it.\n", rec.RecordRef, rec.Title)
		}
		fmt.Fprintf(e.stdout, "provenance: %s\n", rec.ProvenanceLabel)
		return 0
	}
	return c
}

// token reads the admin token as client does, for a route package client
// has no call for.
func (a *adminFlags) token(e *env) (string, int) {
	path := node.AdminTokenPath(*a.data)
	if *a.tokenFile != "" {
		path = *a.tokenFile
	}
	b, err := os.ReadFile(path)
	if err != nil {
		hint := ""
		if errors.Is(err, fs.ErrNotExist) {
			hint = "point --data at the node's data folder, or --token-file at its admin token"
		}
		return "", fail(e, 1, hint, "reading the admin token: %v", err)
	}
	return strings.TrimSpace(string(b)), 0
}

// postMemoryShare calls POST /api/v1/admin/memory/records/{ref}/share (or
// /unshare) and returns the record as it now reads. A refusal is a
// *client.Error, as package client returns them.
func postMemoryShare(ctx context.Context, base, token, ref string, share bool) (*memory.ReadRecord, error) {
	verb := "share"
	if !share {
		verb = "unshare"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/v1/admin/memory/records/"+url.PathEscape(ref)+"/"+verb, bytes.NewReader(nil))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("reading the node's answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var refusal struct{ Error, Code string }
		_ = json.Unmarshal(body, &refusal)
		if refusal.Error == "" {
			refusal.Error = http.StatusText(resp.StatusCode)
		}
		return nil, &client.Error{Status: resp.StatusCode, Code: refusal.Code, Message: refusal.Error}
	}
	var answer struct {
		Record *memory.ReadRecord `json:"record"`
		Shared *bool              `json:"shared"`
	}
	if err := json.Unmarshal(body, &answer); err != nil || answer.Record == nil || answer.Shared == nil || *answer.Shared != share {
		return nil, fmt.Errorf("%w: %s answered %.200s", client.ErrBadAnswer, verb, body)
	}
	return answer.Record, nil
}
