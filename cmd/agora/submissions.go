package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/agora-node/agora/internal/home"
	"github.com/agora-node/agora/ledger/claims"
)

// A submission is a bundle this user sealed on a node, kept in agora's data
// directory (bundles/<node>/<sealed index>.json) when 'agora bundle submit'
// seals it. A sealed bundle's claims are found nowhere on the node until it
// opens, and the node says nothing of them to anyone, so this record is
// what lets 'agora claims get', 'claims search' and 'agora sealed' tell
// their user that the claim is theirs, sealed, and what its round waits on.
type submission struct {
	URL    string   `json:"url"`
	Bundle string   `json:"bundle"`
	Sealed int64    `json:"sealed"`
	Dir    string   `json:"dir"`
	Claims []string `json:"claims"`
}

// submissionsDir is where the submissions to the node at nodeURL are kept.
func submissionsDir(nodeURL string) (string, error) {
	dir, err := home.Data(os.Getenv)
	if err != nil {
		return "", err
	}
	name, err := nodeFileName(nodeURL)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "bundles", name), nil
}

// keepSubmission records a sealed bundle; a failure only costs the hints.
func keepSubmission(e *env, s submission) {
	dir, err := submissionsDir(s.URL)
	if err == nil {
		var data []byte
		data, err = json.MarshalIndent(s, "", "  ")
		if err == nil {
			err = os.MkdirAll(dir, 0o700)
		}
		if err == nil {
			err = writeFileAtomic(filepath.Join(dir, fmt.Sprintf("%d.json", s.Sealed)), append(data, '\n'))
		}
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "agora: warning: keeping a note of the submission: %v\n", err)
	}
}

// submissions lists the bundles this user sealed on the node at nodeURL,
// by sealed index.
func submissions(nodeURL string) ([]submission, error) {
	dir, err := submissionsDir(nodeURL)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []submission
	for _, entry := range entries {
		data, err := os.ReadFile(filepath.Join(dir, entry.Name()))
		if err != nil {
			return nil, err
		}
		var s submission
		if json.Unmarshal(data, &s) == nil && s.Bundle != "" {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b submission) int { return int(a.Sealed - b.Sealed) })
	return out, nil
}

// localClaimIDs computes the claim IDs of a bundle's files as the node
// does, or none when a claim rests on a file sent ahead as an upload.
func localClaimIDs(files map[string][]byte, verificationInputs string) []string {
	parsed, issues, err := claims.ParseFile(files["claims.json"])
	if err != nil || len(issues) > 0 {
		return nil
	}
	results, issues := claims.CheckEvidence(parsed, files)
	if len(issues) > 0 {
		return nil
	}
	ids, err := claims.AssignIDs(parsed, verificationInputs, results)
	if err != nil {
		return nil
	}
	return ids
}
