package tlog_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/agora-node/agora/internal/testvectors"
	"github.com/agora-node/agora/tlog"
	"github.com/transparency-dev/formats/log"
	"golang.org/x/mod/sumdb/note"
)

// FuzzParseCheckpoint: any text is read without a panic; a note this
// package reads is one sumdb's note package reads too, and a checkpoint it
// reads formats back to the same text, which transparency-dev's parser
// reads alike.
func FuzzParseCheckpoint(f *testing.F) {
	signer, _ := tlog.NewCheckpointSigner("example.com/log", seed(1))
	w, _ := tlog.NewCosigner("witness.example/w1", seed(2))
	signed, _ := signer.SignCheckpoint(20852163, tlog.LeafHash([]byte("x")))
	cosigned, _ := w.Cosign(signed, time.Unix(1679315147, 0))
	live, err := os.ReadFile("testdata/witnessed-checkpoint.txt")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range [][]byte{
		signed, cosigned, live,
		[]byte("This is an example message.\n\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"),
		[]byte("example.com/log\n05\nAAAA\n\n\u2014 k AAAAAAA=\n"),
		[]byte("o\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\next\n\n\u2014 o AQIDBA==\n"),
		[]byte("\n\n"),
	} {
		f.Add(seed)
	}
	logKey, witness := signer.VerifierKey(), w.VerifierKey()
	f.Fuzz(func(t *testing.T, msg []byte) {
		c, err := tlog.ParseCheckpoint(msg)
		tlog.VerifyCheckpoint(msg, logKey)
		tlog.VerifyCosignature(msg, witness)
		if err != nil {
			if !errors.Is(err, tlog.ErrMalformed) {
				t.Fatalf("refused without ErrMalformed: %v", err)
			}
			return
		}
		if _, err := note.Open(msg, note.VerifierList()); err == nil {
			t.Fatal("sumdb's note package verified a note with no verifiers")
		} else if _, ok := err.(*note.UnverifiedNoteError); !ok {
			t.Fatalf("sumdb's note package refuses a note read here: %v", err)
		}
		text := msg[:bytes.LastIndex(msg, []byte("\n\n"))+1]
		body, err := tlog.FormatCheckpoint(c)
		if err != nil || !bytes.Equal(body, text) {
			t.Fatalf("read %+v from %q, which formats to %q (%v)", c, text, body, err)
		}
		var theirs log.Checkpoint
		if rest, err := theirs.Unmarshal(text); err != nil || rest != nil ||
			theirs.Origin != c.Origin || theirs.Size != c.Size || !bytes.Equal(theirs.Hash, c.Root[:]) {
			t.Fatalf("formats/log reads %q as %+v, %q, %v", text, theirs, rest, err)
		}
	})
}

// FuzzParseReceipt: any text is read without a panic, and so is verifying
// what was read; a receipt read writes back as text that reads the same.
func FuzzParseReceipt(f *testing.F) {
	l := newTestLog(f, 13)
	pub := l.key.Public().String()
	for _, index := range []uint64{0, 5, 12} {
		text, err := json.Marshal(l.receipt(f, index))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Add([]byte(`{"log":"l","index":0.5,"leaf":{},"leaf_hash":"","tree_head":{},"inclusion_proof":[]}`))
	f.Add([]byte(`{"log":"l","index":0,"leaf":{"timestamp":"t","entry":{"type":"x"}},"leaf_hash":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","tree_head":{"type":"tree_head","log":"l","size":1,"root":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","timestamp":"2026-10-02T12:00Z","sig":"s"},"inclusion_proof":[],"copies":[{"log":"m","index":2}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := tlog.ParseReceipt(data)
		if err != nil {
			if !errors.Is(err, tlog.ErrMalformed) {
				t.Fatalf("refused without ErrMalformed: %v", err)
			}
			return
		}
		tlog.VerifyReceipt(r, pub)
		tlog.VerifyReceipt(r, "not a key")
		text, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("a receipt read does not write: %v", err)
		}
		again, err := tlog.ParseReceipt(text)
		if err != nil {
			t.Fatalf("%s does not read back: %v", text, err)
		}
		if twice, _ := json.Marshal(again); !bytes.Equal(twice, text) {
			t.Fatalf("%s reads back as %s", text, twice)
		}
	})
}

// fuzzTree is a tree of 300 leaves that proofs at any smaller size come
// from.
var fuzzTree = tlog.NewMemoryTree(leafHashes(300))

// hashesFrom cuts b into 32-byte hashes, as hex; a short tail is a short
// hash, which must be refused.
func hashesFrom(b []byte) []string {
	var out []string
	for len(b) > 0 {
		n := min(len(b), tlog.HashSize)
		out = append(out, hex.EncodeToString(b[:n]))
		b = b[n:]
	}
	return out
}

func seedVectors(f *testing.F) map[string]json.RawMessage {
	var file map[string]json.RawMessage
	if err := json.Unmarshal(testvectors.Read(f, testvectors.ConformanceDir(), "log-vectors.json"), &file); err != nil {
		f.Fatal(err)
	}
	return file
}

func unhex(s string) []byte {
	b, _ := hex.DecodeString(s)
	return b
}

func joinHex(hashes []string) []byte {
	var out []byte
	for _, h := range hashes {
		out = append(out, unhex(h)...)
	}
	return out
}

// FuzzVerifyInclusion: junk never panics and never verifies; a real proof
// verifies, and changing any one bit of it, the leaf, the root or the
// position makes it fail.
func FuzzVerifyInclusion(f *testing.F) {
	var cases []struct {
		Index    float64  `json:"index"`
		Size     float64  `json:"size"`
		LeafHash string   `json:"leaf_hash"`
		Proof    []string `json:"proof"`
		Root     string   `json:"root"`
	}
	if err := json.Unmarshal(seedVectors(f)["invalid_inclusion"], &cases); err != nil {
		f.Fatal(err)
	}
	for i, c := range cases {
		f.Add(c.Index, c.Size, unhex(c.LeafHash), unhex(c.Root), joinHex(c.Proof), uint16(i))
	}
	f.Add(float64(77777), float64(100000), []byte{}, []byte{}, []byte{}, uint16(3))
	f.Fuzz(func(t *testing.T, index, size float64, leaf, root, proofBytes []byte, flip uint16) {
		// Junk, read as JSON would give it.
		err := verifyInclusionJSON(index, size, hex.EncodeToString(leaf), hex.EncodeToString(root), hashesFrom(proofBytes))
		// Only a tree of one leaf, whose root is the leaf, passes without a
		// real proof.
		if trivial := index == 0 && size == 1 && bytes.Equal(leaf, root) && len(proofBytes) == 0; err == nil && !trivial {
			t.Fatalf("junk verified: %v %v %x %x %x", index, size, leaf, root, proofBytes)
		}
		// A real proof, in a tree of 1 to 300 leaves, and one bit changed.
		n := uint64(index) % 300
		s := n + 1 + uint64(size)%(300-n)
		ctx := context.Background()
		proof, err := tlog.InclusionProof(ctx, fuzzTree, n, s)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := tlog.ReadRoot(ctx, fuzzTree, s)
		leaves, _ := fuzzTree.ReadSubtrees(ctx, []tlog.Subtree{{Level: 0, Index: n}})
		if err := tlog.VerifyInclusion(n, s, leaves[0], proof, r); err != nil {
			t.Fatalf("leaf %d of %d: %v", n, s, err)
		}
		bit := int(flip) % (8 * tlog.HashSize * (len(proof) + 2))
		switch h := bit / (8 * tlog.HashSize); {
		case h == 0:
			leaves[0][bit/8%tlog.HashSize] ^= 1 << (bit % 8)
		case h == 1:
			r[bit/8%tlog.HashSize] ^= 1 << (bit % 8)
		default:
			proof[h-2][bit/8%tlog.HashSize] ^= 1 << (bit % 8)
		}
		if err := tlog.VerifyInclusion(n, s, leaves[0], proof, r); !errors.Is(err, tlog.ErrVerification) {
			t.Fatalf("leaf %d of %d with bit %d changed: %v", n, s, bit, err)
		}
	})
}

func verifyInclusionJSON(index, size float64, leafHex, rootHex string, proofHex []string) error {
	i, err := tlog.Position(index)
	if err != nil {
		return err
	}
	s, err := tlog.Position(size)
	if err != nil {
		return err
	}
	leaf, err := tlog.ParseHash(leafHex)
	if err != nil {
		return err
	}
	root, err := tlog.ParseHash(rootHex)
	if err != nil {
		return err
	}
	proof, err := tlog.ParseHashes(proofHex)
	if err != nil {
		return err
	}
	return tlog.VerifyInclusion(i, s, leaf, proof, root)
}

// FuzzVerifyConsistency: junk never panics and never verifies, unless it
// is a trivial case; a real proof verifies, and changing any one bit of it
// or of either root makes it fail.
func FuzzVerifyConsistency(f *testing.F) {
	var cases []struct {
		First      float64  `json:"first"`
		Second     float64  `json:"second"`
		FirstRoot  string   `json:"first_root"`
		SecondRoot string   `json:"second_root"`
		Proof      []string `json:"proof"`
	}
	if err := json.Unmarshal(seedVectors(f)["invalid_consistency"], &cases); err != nil {
		f.Fatal(err)
	}
	for i, c := range cases {
		f.Add(c.First, c.Second, unhex(c.FirstRoot), unhex(c.SecondRoot), joinHex(c.Proof), uint16(i))
	}
	f.Add(float64(50000), float64(100000), []byte{}, []byte{}, []byte{}, uint16(9))
	f.Fuzz(func(t *testing.T, first, second float64, firstRoot, secondRoot, proofBytes []byte, flip uint16) {
		err := verifyConsistencyJSON(first, second, hex.EncodeToString(firstRoot), hex.EncodeToString(secondRoot), hashesFrom(proofBytes))
		if err == nil {
			// Only the trivial cases can pass without a real proof.
			trivial := len(proofBytes) == 0 && (first == second && bytes.Equal(firstRoot, secondRoot) ||
				first == 0 && bytes.Equal(firstRoot, tlog.EmptyRoot[:]))
			if !trivial {
				t.Fatalf("junk verified: %v %v %x %x %x", first, second, firstRoot, secondRoot, proofBytes)
			}
		}
		m := uint64(first) % 300
		n := m + 1 + uint64(second)%(300-m)
		m++ // 1 ≤ m ≤ n ≤ 300
		ctx := context.Background()
		proof, err := tlog.ConsistencyProof(ctx, fuzzTree, m, n)
		if err != nil {
			t.Fatal(err)
		}
		r1, _ := tlog.ReadRoot(ctx, fuzzTree, m)
		r2, _ := tlog.ReadRoot(ctx, fuzzTree, n)
		if err := tlog.VerifyConsistency(m, n, r1, r2, proof); err != nil {
			t.Fatalf("%d to %d: %v", m, n, err)
		}
		bit := int(flip) % (8 * tlog.HashSize * (len(proof) + 2))
		switch h := bit / (8 * tlog.HashSize); {
		case h == 0:
			r1[bit/8%tlog.HashSize] ^= 1 << (bit % 8)
		case h == 1:
			r2[bit/8%tlog.HashSize] ^= 1 << (bit % 8)
		default:
			proof[h-2][bit/8%tlog.HashSize] ^= 1 << (bit % 8)
		}
		if err := tlog.VerifyConsistency(m, n, r1, r2, proof); !errors.Is(err, tlog.ErrVerification) {
			t.Fatalf("%d to %d with bit %d changed: %v", m, n, bit, err)
		}
	})
}

func verifyConsistencyJSON(first, second float64, firstHex, secondHex string, proofHex []string) error {
	m, err := tlog.Position(first)
	if err != nil {
		return err
	}
	n, err := tlog.Position(second)
	if err != nil {
		return err
	}
	r1, err := tlog.ParseHash(firstHex)
	if err != nil {
		return err
	}
	r2, err := tlog.ParseHash(secondHex)
	if err != nil {
		return err
	}
	proof, err := tlog.ParseHashes(proofHex)
	if err != nil {
		return err
	}
	return tlog.VerifyConsistency(m, n, r1, r2, proof)
}
