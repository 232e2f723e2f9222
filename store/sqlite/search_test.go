package sqlite

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// TestSearchByWords checks SearchClaims with words against every claim
// filtered and paged by hand: bundles of 1 to 30 claims, and some of 80
// (more than a page reads past its end), sealed in one
// order and opened in another (so the claims' rows and their page order
// differ), some withdrawn, searched by prefixes alone and with the other
// filters, newest first with before and oldest first with since, at page
// sizes that end inside bundles and past the slack a page reads, 1 to 50.
func TestSearchByWords(t *testing.T) {
	ctx := t.Context()
	s, err := Open(ctx, Config{Path: filepath.Join(t.TempDir(), "agora.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ok := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(7, 11))
	var ops []string
	for i := range 2 {
		key, err := hybrid.GenerateKey()
		ok(err)
		pub := key.Public().String()
		entry := fmt.Sprintf("sha256:key-%d", i)
		ok(s.PutSigned(ctx, entry, []byte(fmt.Sprintf(`{"type":"key","n":%d}`, i)), nil))
		op, err := s.CreateOperator(ctx, store.NewOperator{ID: protocol.OperatorID(pub), Key: pub, Entry: entry,
			Name: fmt.Sprint("A", i), NameKey: fmt.Sprint("a", i), KeyFamilies: []string{"claude"}, At: time.Now()})
		ok(err)
		ops = append(ops, op.ID)
	}
	vocab := []string{"alpha", "alpine", "beta", "betray", "gamma", "drift", "drifting", "sample", "salt", "mean"}
	var index int64
	bind := func(digest string) int64 {
		t.Helper()
		ok(s.BindIndex(ctx, index, digest))
		index++
		return index - 1
	}
	// Every bundle is sealed first, then opened in a shuffled order.
	var bundles []ledger.Bundle
	for n := range 60 {
		nb := ledger.NewBundle{Hash: fmt.Sprintf("sha256:bundle-%d", n), Operator: ops[n%2], Entry: []byte(fmt.Sprintf(`{"type":"bundle","n":%d}`, n)),
			EntryDigest: fmt.Sprintf("sha256:entry-%d", n), Sealed: fmt.Sprintf("sha256:sealed-%d", n), Salt: "salt", WrittenBy: "agent", At: time.Now(),
			Fields: []string{fmt.Sprint("field", n%3)}, Files: []ledger.File{{Path: "claims.json", Digest: fmt.Sprintf("sha256:file-%d", n), Size: 1}}}
		if n%7 == 0 {
			nb.Fields = nil
		}
		size := 1 + r.IntN(30)
		if n%20 == 5 {
			size = 80 // past the slack a page reads after its end
		}
		for j := range size {
			words := make([]string, 2+r.IntN(4))
			for w := range words {
				words[w] = vocab[r.IntN(len(vocab))]
			}
			if size == 80 {
				words[0] = "alpha"
			}
			typ := []string{"empirical", "theoretical"}[r.IntN(2)]
			nb.Claims = append(nb.Claims, ledger.Claim{ID: fmt.Sprintf("claim:%d-%d", n, j), LocalID: fmt.Sprint("C", j+1), Type: typ,
				Statement: strings.Join(words, " "), Assertion: fmt.Sprintf("sha256:a-%d-%d", n, j), JSON: []byte(`{}`)})
		}
		ok(s.PutSigned(ctx, nb.Sealed, []byte(fmt.Sprintf(`{"type":"sealed","n":%d}`, n)), nil))
		b, err := s.CreateBundle(ctx, nb)
		ok(err)
		bind(nb.Sealed)
		bundles = append(bundles, b)
	}
	opened := map[string]int64{}
	statements := map[string]string{}
	for _, i := range r.Perm(len(bundles)) {
		b := bundles[i]
		ok(s.PutSigned(ctx, b.EntryDigest, b.Entry, nil))
		ok(s.OpenBundle(ctx, b.Hash, b.EntryDigest))
		opened[b.Hash] = bind(b.EntryDigest)
		if i%9 == 4 {
			w := "sha256:withdrawal-" + b.Hash
			ok(s.PutSigned(ctx, w, []byte(`{"type":"withdrawal","b":"`+b.Hash+`"}`), nil))
			_, err := s.WithdrawBundle(ctx, b.Hash, ledger.Withdrawal{Entry: w, Reason: "hazard", At: time.Now()})
			ok(err)
			bind(w)
		}
	}
	// Every claim found, in page order, by the filters other than words.
	all := func(q ledger.ClaimQuery) []ledger.FoundClaim {
		t.Helper()
		q.Words, q.Limit = "", 1<<20
		found, err := s.SearchClaims(ctx, q)
		ok(err)
		for _, c := range found {
			statements[c.ID] = c.Statement
		}
		return found
	}
	matches := func(statement string, prefixes []string) bool {
		for _, p := range prefixes {
			if !slices.ContainsFunc(strings.Fields(statement), func(w string) bool { return strings.HasPrefix(w, p) }) {
				return false
			}
		}
		return true
	}
	// The page: the first limit claims that match, and the rest of the
	// last one's bundle.
	every := map[string][]ledger.FoundClaim{}
	want := func(q ledger.ClaimQuery, prefixes []string) []string {
		var out []string
		last := int64(-1)
		base := fmt.Sprintf("%+v", ledger.ClaimQuery{Field: q.Field, Type: q.Type, Operator: q.Operator, Before: q.Before, Follow: q.Follow, Since: q.Since, Only: q.Only})
		if every[base] == nil {
			every[base] = all(q)
		}
		for _, c := range every[base] {
			if !matches(c.Statement, prefixes) {
				continue
			}
			if len(out) >= q.Limit && c.Opened != last {
				break
			}
			out, last = append(out, c.ID), c.Opened
		}
		return out
	}
	ids := func(found []ledger.FoundClaim) []string {
		var out []string
		for _, c := range found {
			out = append(out, c.ID)
		}
		return out
	}
	middle := opened[bundles[30].Hash]
	// A status index's list: every third claim of the first 40 bundles.
	var only []string
	for _, b := range bundles[:40] {
		for j, c := range b.Claims {
			if j%3 == 0 {
				only = append(only, c.ID)
			}
		}
	}
	tried, nonEmpty := 0, 0
	for _, prefixes := range [][]string{{"al"}, {"alpha"}, {"drift", "beta"}, {"s"}, {"betray", "gamma", "mean"}, {"drif"}, {"zebra"}} {
		var fts []string
		for _, p := range prefixes {
			fts = append(fts, `"`+p+`"*`)
		}
		for _, base := range []ledger.ClaimQuery{{}, {Before: middle}, {Follow: true, Since: middle}, {Follow: true},
			{Field: "field1"}, {Type: "theoretical"}, {Operator: ops[1]}, {Field: "field2", Before: middle},
			{Only: only}, {Only: only, Follow: true, Since: middle}} {
			for limit := 1; limit <= 50; limit++ {
				q := base
				q.Words, q.Limit = strings.Join(fts, " AND "), limit
				found, err := s.SearchClaims(ctx, q)
				ok(err)
				got, w := ids(found), want(q, prefixes)
				if !slices.Equal(got, w) {
					t.Errorf("%+v: found %d %v\nwant %d %v", q, len(got), got, len(w), w)
				}
				for _, c := range found {
					if c.Statement != statements[c.ID] {
						t.Errorf("%s: statement %q, want %q", c.ID, c.Statement, statements[c.ID])
					}
				}
				tried++
				if len(w) > 0 {
					nonEmpty++
				}
			}
		}
	}
	if nonEmpty < tried/2 {
		t.Errorf("only %d of %d searches found anything: the test tests too little", nonEmpty, tried)
	}
	// The page order is the bundles' opening order, not their sealing's.
	if found := all(ledger.ClaimQuery{}); !slices.IsSortedFunc(found, func(a, b ledger.FoundClaim) int { return cmp.Compare(b.Opened, a.Opened) }) {
		t.Errorf("the claims are not newest first")
	}
}
