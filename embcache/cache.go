package embcache

// Cache is what a scorer needs of a store: [Store] implements it. The
// scorers take one as an option (nil: no caching, the default) and
// consult it before running an image or text encoder.
type Cache interface {
	// Get returns the vector stored under k and true, or false.
	Get(k Key) ([]float32, bool, error)
	// PutMany stores vs[i] under ks[i].
	PutMany(ks []Key, vs [][]float32) error
}

// Lookup returns, for each key, the vector c holds (nil when it has none)
// and the indices of the keys it lacks, in order. A nil c lacks them all.
func Lookup(c Cache, keys []Key) ([][]float32, []int, error) {
	found := make([][]float32, len(keys))
	var missing []int
	for i, k := range keys {
		if c != nil {
			v, ok, err := c.Get(k)
			if err != nil {
				return nil, nil, err
			}
			if ok {
				found[i] = v
				continue
			}
		}
		missing = append(missing, i)
	}
	return found, missing, nil
}

// Join returns the digest of a list of digests, in order: the identity
// of something made of several parts (a checkpoint and its configuration
// folder).
func Join(ds ...Digest) Digest {
	b := make([]byte, 0, 32*len(ds))
	for _, d := range ds {
		b = append(b, d[:]...)
	}
	return DigestBytes(b)
}
