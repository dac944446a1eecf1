package embcache

import "sync"

// Lenient is a Cache over a Store that never fails a run: a failed read is
// a miss and a failed write is dropped, and OnError (when set) hears the
// first failure only, so that a command can note once that it goes on
// without the cache. Safe for concurrent use, as the Store is.
type Lenient struct {
	*Store
	// OnError receives the first failure of Get or PutMany.
	OnError func(error)

	once sync.Once
}

func (c *Lenient) fail(err error) {
	c.once.Do(func() {
		if c.OnError != nil {
			c.OnError(err)
		}
	})
}

// Get implements Cache: the Store's vector, or a miss when the read fails.
func (c *Lenient) Get(k Key) ([]float32, bool, error) {
	v, ok, err := c.Store.Get(k)
	if err != nil {
		c.fail(err)
		return nil, false, nil
	}
	return v, ok, nil
}

// PutMany implements Cache: the Store's write, whose failure is reported
// to OnError and not returned.
func (c *Lenient) PutMany(ks []Key, vs [][]float32) error {
	if err := c.Store.PutMany(ks, vs); err != nil {
		c.fail(err)
	}
	return nil
}
