package hybrid

import (
	lru "github.com/hashicorp/golang-lru/v2"
)

// KeyCacheSize bounds how many parsed public keys Verify keeps. A parsed
// key holds its expanded ML-DSA-44 matrix (about 16 KiB), so the cache
// costs at most about 20 MiB; it is sized for a node whose busiest
// thousand operators sign at once.
const KeyCacheSize = 1024

// keys maps a public key's text to its parsed form. Only keys that parsed
// are kept: a malformed text costs its parse on every call, as before.
var keys = mustCache()

func mustCache() *lru.Cache[string, *PublicKey] {
	c, err := lru.New[string, *PublicKey](KeyCacheSize)
	if err != nil {
		panic("hybrid: " + err.Error()) // only for a size below 1
	}
	return c
}

// cachedPublicKey parses text once and serves later calls from the cache.
func cachedPublicKey(text string) (*PublicKey, error) {
	if p, ok := keys.Get(text); ok {
		return p, nil
	}
	p, err := ParsePublicKey(text)
	if err != nil {
		return nil, err
	}
	keys.Add(text, p)
	return p, nil
}

// Forget drops a public key from Verify's cache. The node calls it when an
// operator's key is rotated away, so a retired key does not keep its place
// in the cache; verifying with it later still works (and parses it again),
// since old entries stay verifiable by the key that signed them.
func Forget(publicKey string) { keys.Remove(publicKey) }
