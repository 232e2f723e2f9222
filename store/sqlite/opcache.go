package sqlite

import (
	"maps"
	"slices"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/agora-node/agora/store"
)

// operatorCacheSize bounds how many operator records Operator keeps: a
// busy node's signers, each a few hundred bytes.
const operatorCacheSize = 4096

// operatorCache keeps operator records between reads: every signed
// request reads its signer's record, which is three queries in a read
// transaction, a tenth of a library contribution's node CPU.
//
// A record is cached only once every entry it names is bound to its log
// index, since binding changes the record and is not a write this cache
// hears of. Every write that changes an operator record (CreateOperator,
// Rename, RotateKey, NoteModelFamily, AddIdentity, DropUnbound) moves the
// generation on once it has committed, which drops every cached record:
// such writes are rare beside the reads. A read takes the generation
// before its transaction begins and caches under it, so a record read
// from a snapshot older than a write is never served after that write.
//
// It keeps each operator's library scopes (LibraryScopes) the same way,
// read on every library contribution: SetLibraryScopes, the only write of
// them, moves the generation on too.
type operatorCache struct {
	gen     atomic.Uint64
	records *lru.Cache[string, cachedOperator]
	scopes  *lru.Cache[string, cachedScopes]
}

type cachedScopes struct {
	gen    uint64
	scopes map[string]bool
}

type cachedOperator struct {
	gen uint64
	op  store.Operator
}

func newOperatorCache() *operatorCache {
	c, err := lru.New[string, cachedOperator](operatorCacheSize)
	if err != nil {
		panic("sqlite: " + err.Error()) // only for a size below 1
	}
	sc, err := lru.New[string, cachedScopes](operatorCacheSize)
	if err != nil {
		panic("sqlite: " + err.Error())
	}
	return &operatorCache{records: c, scopes: sc}
}

// getScopes returns operator's cached library scopes, if kept in this
// generation.
func (c *operatorCache) getScopes(operator string) (map[string]bool, bool) {
	e, ok := c.scopes.Get(operator)
	if !ok || e.gen != c.gen.Load() {
		return nil, false
	}
	return maps.Clone(e.scopes), true
}

// putScopes keeps operator's library scopes, read in generation gen.
func (c *operatorCache) putScopes(gen uint64, operator string, scopes map[string]bool) {
	c.scopes.Add(operator, cachedScopes{gen, maps.Clone(scopes)})
}

// get returns id's cached record, if one of this generation is kept.
func (c *operatorCache) get(id string) (store.Operator, bool) {
	e, ok := c.records.Get(id)
	if !ok || e.gen != c.gen.Load() {
		return store.Operator{}, false
	}
	return cloneOperator(e.op), true
}

// put keeps op, read in generation gen, if every entry it names is bound.
func (c *operatorCache) put(gen uint64, op store.Operator) {
	for _, k := range op.Keys {
		if k.Since == store.Unlogged || (k.RetiredBy != "" && k.Until == store.Unlogged) {
			return
		}
	}
	for _, i := range op.Identities {
		if i.Index == store.Unlogged {
			return
		}
	}
	c.records.Add(op.ID, cachedOperator{gen, cloneOperator(op)})
}

// changed drops every cached record and scope; a write that changed one calls it
// after committing.
func (c *operatorCache) changed() { c.gen.Add(1) }

// cloneOperator copies op's slices, so no caller shares a cached record's.
func cloneOperator(op store.Operator) store.Operator {
	op.Keys = slices.Clone(op.Keys)
	op.KeyFamilies = slices.Clone(op.KeyFamilies)
	op.ModelFamilies = slices.Clone(op.ModelFamilies)
	op.Identities = slices.Clone(op.Identities)
	return op
}
