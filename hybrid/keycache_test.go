package hybrid

import (
	"crypto/rand"
	"testing"
)

// TestKeyCacheBounded checks that Verify keeps at most KeyCacheSize parsed
// keys, never keeps a malformed one, answers the same with a key cached or
// not, and that Forget drops a key.
func TestKeyCacheBounded(t *testing.T) {
	keys.Purge()
	msg := []byte("one message")
	var first *PrivateKey
	var firstSig string
	for i := range KeyCacheSize + 10 {
		k, err := GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		sig := k.Sign(msg)
		if !Verify(sig, msg, k.Public().String()) {
			t.Fatalf("key %d: a good signature fails", i)
		}
		if i == 0 {
			first, firstSig = k, sig
		}
	}
	if n := keys.Len(); n != KeyCacheSize {
		t.Fatalf("the cache holds %d keys, want its bound %d", n, KeyCacheSize)
	}
	// The first key was evicted; it still verifies, parsed again.
	if !Verify(firstSig, msg, first.Public().String()) || Verify(firstSig, []byte("another"), first.Public().String()) {
		t.Fatal("an evicted key answers differently")
	}
	if _, ok := keys.Peek(first.Public().String()); !ok {
		t.Fatal("a key just used is not cached")
	}
	Forget(first.Public().String())
	if _, ok := keys.Peek(first.Public().String()); ok {
		t.Fatal("Forget left the key in the cache")
	}

	bad := make([]byte, 10)
	rand.Read(bad)
	before := keys.Len()
	if Verify(firstSig, msg, Algorithm+":"+string(bad)) {
		t.Fatal("a malformed key verifies")
	}
	if keys.Len() != before {
		t.Fatal("a malformed key was cached")
	}
}
