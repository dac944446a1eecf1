package compare

import (
	"sync"
	"sync/atomic"

	"github.com/storyeval/storyeval/embcache"
)

// Kinds of cached embeddings a CacheCounter counts: the names of
// embcache.KindImage and embcache.KindText.
var (
	ImageEmbeddings = embcache.KindImage.String()
	TextEmbeddings  = embcache.KindText.String()
)

// CacheCount is how many embeddings of one kind a run looked up in the
// embedding cache and how many of them it found there.
type CacheCount struct {
	Hits    int64 `json:"hits"`
	Lookups int64 `json:"lookups"`
}

// CacheCounter counts the embedding-cache lookups of the models pointed at
// it, per kind of embedding (the kind of each key: one cache serves
// GROOViST's crops and its phrases). It is safe for concurrent use.
type CacheCounter struct {
	mu    sync.Mutex
	kinds map[string]*kindCount
}

type kindCount struct{ hits, lookups atomic.Int64 }

// Wrap returns c counting its lookups by the kind of their keys.
func (cc *CacheCounter) Wrap(c embcache.Cache) embcache.Cache {
	return countingCache{c, cc}
}

// kind returns the counts of the named kind, made on first use.
func (cc *CacheCounter) kind(name string) *kindCount {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.kinds == nil {
		cc.kinds = map[string]*kindCount{}
	}
	k, ok := cc.kinds[name]
	if !ok {
		k = &kindCount{}
		cc.kinds[name] = k
	}
	return k
}

// Counts returns the counts so far, per kind.
func (cc *CacheCounter) Counts() map[string]CacheCount {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	out := map[string]CacheCount{}
	for kind, k := range cc.kinds {
		out[kind] = CacheCount{Hits: k.hits.Load(), Lookups: k.lookups.Load()}
	}
	return out
}

// countingCache is an embcache.Cache that counts its lookups.
type countingCache struct {
	c  embcache.Cache
	cc *CacheCounter
}

// Get implements embcache.Cache.
func (c countingCache) Get(k embcache.Key) ([]float32, bool, error) {
	v, ok, err := c.c.Get(k)
	n := c.cc.kind(k.Kind().String())
	n.lookups.Add(1)
	if ok {
		n.hits.Add(1)
	}
	return v, ok, err
}

// PutMany implements embcache.Cache.
func (c countingCache) PutMany(ks []embcache.Key, vs [][]float32) error { return c.c.PutMany(ks, vs) }

// counted is a metric whose models use the embedding cache through a
// CacheCounter: Compare reports the counter's counts of the run.
type counted struct {
	Metric
	counter *CacheCounter
}

func (c counted) cacheCounter() *CacheCounter { return c.counter }
