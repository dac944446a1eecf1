package ngram

// gramTable maps 64-bit n-gram keys (prefix id, token id) to dense ids with
// open addressing. It replaces a Go map where BLEU interns every n-gram of
// every item: lookups are a multiply and a short probe, and clearing between
// items is O(1) because a slot only counts when its stamp is current.
type gramTable struct {
	keys  []uint64
	vals  []uint32
	stamp []uint32
	gen   uint32
	shift uint // 64 - log2(len(keys))
	n     int  // entries in the current generation
}

func newGramTable() *gramTable {
	t := &gramTable{gen: 1}
	t.alloc(1 << 10)
	return t
}

func (t *gramTable) alloc(size int) {
	t.keys = make([]uint64, size)
	t.vals = make([]uint32, size)
	t.stamp = make([]uint32, size)
	t.shift = 64
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	t.n = 0
}

// clear forgets every entry.
func (t *gramTable) clear() {
	t.gen++
	t.n = 0
	if t.gen == 0 { // wrapped: stale stamps could look current
		clear(t.stamp)
		t.gen = 1
	}
}

// lookup returns the id stored for key, or stores and returns next.
func (t *gramTable) lookup(key uint64, next uint32) (id uint32, added bool) {
	mask := uint64(len(t.keys) - 1)
	for i := (key * 0x9E3779B97F4A7C15) >> t.shift; ; i = (i + 1) & mask {
		if t.stamp[i] != t.gen {
			if 2*(t.n+1) > len(t.keys) {
				t.grow()
				return t.lookup(key, next)
			}
			t.keys[i], t.vals[i], t.stamp[i] = key, next, t.gen
			t.n++
			return next, true
		}
		if t.keys[i] == key {
			return t.vals[i], false
		}
	}
}

// find returns the id stored for key, if any.
func (t *gramTable) find(key uint64) (uint32, bool) {
	mask := uint64(len(t.keys) - 1)
	for i := (key * 0x9E3779B97F4A7C15) >> t.shift; ; i = (i + 1) & mask {
		if t.stamp[i] != t.gen {
			return 0, false
		}
		if t.keys[i] == key {
			return t.vals[i], true
		}
	}
}

// grow doubles the table, keeping the current entries.
func (t *gramTable) grow() {
	keys, vals, stamp, gen := t.keys, t.vals, t.stamp, t.gen
	t.alloc(2 * len(keys))
	t.gen = 1
	for i, s := range stamp {
		if s == gen {
			t.lookup(keys[i], vals[i])
		}
	}
}
