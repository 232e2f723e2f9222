package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/tlog"
)

// synthetic is a log made up on the fly, leaf by leaf, with no storage:
// every fourth entry reveals a bundle of three claims, by one of 50
// operators, and the rest are identities and attestations of claims
// opened before. A bundle's files are made from its number when read, so
// a log of a million entries holds nothing in memory but what Write does.
type synthetic struct {
	size uint64
	// withdrawn, when set, withdraws bundle b at the entry after its
	// reveal: its claims are in no snapshot taken after, and its files
	// are not served once the log holds the withdrawal.
	withdrawn func(b uint64) bool
}

var epoch = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)

func hexOf(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

// bundleHash names bundle b by a digest that spells its number, so Files
// finds it at once.
func bundleHash(b uint64) string { return fmt.Sprintf("sha256:%064x", b) }
func claimID(b uint64, j int) string {
	return "claim:" + hexOf(fmt.Sprintf("claim %d %d", b, j))
}
func operatorOf(b uint64) string { return "op:" + hexOf(fmt.Sprintf("operator %d", b%50))[:32] }

var families = []string{"claude", "gpt", "gemini", "llama"}

func (s synthetic) leaf(i uint64) []byte {
	at := tlog.FormatTimestamp(epoch.Add(time.Duration(i) * time.Second))
	var obj map[string]any
	switch b := i / 4; {
	case i%4 == 0:
		claims := []any{claimID(b, 0), claimID(b, 1), claimID(b, 2)}
		obj = map[string]any{"entry": map[string]any{"type": "bundle", "bundle": bundleHash(b), "sig": "x"},
			"operator": operatorOf(b), "sealed": "sha256:" + hexOf(fmt.Sprint("sealed", b)), "claims": claims}
	case i%4 == 1 && s.withdrawn != nil && s.withdrawn(b):
		obj = map[string]any{"entry": map[string]any{"type": "withdrawal", "bundle": bundleHash(b), "reason": "error"}}
	case i%4 == 1:
		obj = map[string]any{"entry": map[string]any{"type": "identity"}, "operator": operatorOf(i), "organization": "org:" + hexOf(fmt.Sprint(i % 7))[:16]}
	default:
		obj = map[string]any{"entry": map[string]any{"type": "attestation", "job": "reproduction", "verifier": operatorOf(i + 1),
			"bundle": bundleHash(b), "model_family": families[i%4], "claims": map[string]any{claimID(b, int(i%3)): "matches"}}}
	}
	obj["timestamp"] = at
	data, err := canonical.Marshal(obj)
	if err != nil {
		panic(err)
	}
	return data
}

func (s synthetic) source() Source {
	return Source{
		Leaves: func(_ context.Context, start, end uint64) ([][]byte, error) {
			out := make([][]byte, 0, end-start)
			for i := start; i < end; i++ {
				out = append(out, s.leaf(i))
			}
			return out, nil
		},
		Files: func(hash, path string) ([]byte, error) {
			var b uint64
			if _, err := fmt.Sscanf(strings.TrimPrefix(hash, "sha256:"), "%x", &b); err != nil {
				return nil, fmt.Errorf("no bundle %s", hash)
			}
			if s.withdrawn != nil && s.withdrawn(b) && 4*b+1 < s.size {
				return nil, fmt.Errorf("bundle %s was withdrawn", hash)
			}
			return bundleFile(b, path)
		},
	}
}

func bundleFile(b uint64, path string) ([]byte, error) {
	switch path {
	case "manifest.json":
		return canonical.Marshal(map[string]any{
			"operator_key_digest": "sha256:" + hexOf(fmt.Sprint("key", b%50)),
			"fields":              []any{[]string{"statistics", "physics", "biology"}[b%3]},
			"license":             map[string]any{"prose": "CC-BY-4.0", "code": "MIT"},
			"model_families":      []any{families[b%4]}, "models": []any{families[b%4] + "-1"},
			"compute": map[string]any{"minutes": 5, "gpu": false},
		})
	case "claims.json":
		var list []any
		for j := range 3 {
			list = append(list, map[string]any{"local_id": fmt.Sprintf("C%d", j+1), "type": "methodological", "core": j == 0,
				"statement": fmt.Sprintf("Method %d of study %d compares the samples fairly", j, b), "evidence": []any{}, "depends_on": []any{}, "confidence": 0.5})
		}
		return canonical.Marshal(list)
	}
	return nil, fmt.Errorf("no %s", path)
}

// head is the tree head of the first size leaves, as the log would sign
// it (unsigned: Write checks the root, not the signature).
func (s synthetic) head() tlog.TreeHead {
	r := &tlog.Range{}
	for i := range s.size {
		r.Append(tlog.LeafHash(s.leaf(i)))
	}
	last := epoch
	if s.size > 0 {
		last = epoch.Add(time.Duration(s.size-1) * time.Second)
	}
	return tlog.TreeHead{Log: "log", Size: s.size, Root: r.Root(), Timestamp: tlog.FormatTimestamp(last)}
}
