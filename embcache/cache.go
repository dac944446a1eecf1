package embcache

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Cache is what a scorer needs of a store: [Store] implements it. The
// scorers take one as an option (nil: no caching, the default) and
// consult it before running an image encoder.
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

// DigestDir returns the digest of the names and contents of the regular
// files directly in dir, in name order: the identity of a model folder
// (weights, config.json, preprocessor_config.json, vocabulary). Changing,
// adding or removing any of them changes it. Sub-folders are not read.
func DigestDir(dir string) (Digest, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return Digest{}, fmt.Errorf("embcache: digest: %w", err)
	}
	names := []string{}
	for _, e := range entries {
		if e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0 {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	parts := make([]Digest, 0, 2*len(names))
	for _, n := range names {
		p := filepath.Join(dir, n)
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			continue // a dangling link or a link to a folder
		}
		d, err := DigestFile(p)
		if err != nil {
			return Digest{}, err
		}
		parts = append(parts, DigestBytes([]byte(n)), d)
	}
	return Join(parts...), nil
}
