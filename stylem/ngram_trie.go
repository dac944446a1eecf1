package stylem

import "strings"

// The table's n-grams form a trie: n-gram i is its prefix (the (n−1)-gram
// parent[i]−1, or the root when parent[i] is 0) extended by token last[i].
// children finds the child of (parent+1, token), so looking up or adding
// an n-gram extends its prefix by one token with one hash probe sequence,
// which is much cheaper than hashing whole n-grams.

// childIndex is an open-addressing hash table (linear probing) of n-gram
// ids keyed by (parent+1, token). A slot holds only id+1 (0: empty); the
// key is read back from the trie's parent and last arrays, so the index
// costs 4 bytes a slot, at most 3/4 full: 5–11 bytes per n-gram, where a
// Go map[uint64]uint32 takes about 20–40. That is a third of a built
// table's memory. The zero value is an empty index.
type childIndex struct {
	slots []uint32
	n     int
	shift uint // 64 − log2(len(slots))
}

// hashChild mixes a key into 64 bits (Fibonacci hashing of the packed key).
func hashChild(parent1, tok uint32) uint64 {
	return (uint64(parent1)<<32 | uint64(tok)) * 0x9E3779B97F4A7C15
}

// reserve sizes the index for n n-grams without growing.
func (x *childIndex) reserve(n int) {
	size := 8
	for size*3/4 < n {
		size *= 2
	}
	x.slots = make([]uint32, size)
	x.shift = uint(64 - bitsLen(size))
	x.n = 0
}

// bitsLen returns log2 of a power of two.
func bitsLen(size int) int {
	b := 0
	for 1<<b < size {
		b++
	}
	return b
}

// find returns the id of the child (parent1, tok), or false.
func (x *childIndex) find(t *Table, parent1, tok uint32) (uint32, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	mask := len(x.slots) - 1
	for i := int(hashChild(parent1, tok) >> x.shift); ; i = (i + 1) & mask {
		v := x.slots[i]
		if v == 0 {
			return 0, false
		}
		if id := v - 1; t.last[id] == tok && t.parent[id] == parent1 {
			return id, true
		}
	}
}

// insert adds n-gram id, whose parent and last token are already in t.
func (x *childIndex) insert(t *Table, id uint32) {
	if (x.n+1)*4 > len(x.slots)*3 {
		x.grow(t)
	}
	x.put(id, t.parent[id], t.last[id])
	x.n++
}

func (x *childIndex) put(id, parent1, tok uint32) {
	mask := len(x.slots) - 1
	i := int(hashChild(parent1, tok) >> x.shift)
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = id + 1
}

// grow doubles the table and re-inserts every id.
func (x *childIndex) grow(t *Table) {
	old := x.slots
	x.reserve(max(8, len(old)*2) * 3 / 4)
	for _, v := range old {
		if v != 0 {
			x.put(v-1, t.parent[v-1], t.last[v-1])
			x.n++
		}
	}
}

// child returns the id of the n-gram that extends parent1 by tok.
func (t *Table) child(parent1, tok uint32) (uint32, bool) {
	return t.children.find(t, parent1, tok)
}

// addChild returns the id of parent1 extended by tok, adding it if new;
// added reports whether it was.
func (t *Table) addChild(parent1, tok uint32) (id uint32, added bool) {
	if id, ok := t.children.find(t, parent1, tok); ok {
		return id, false
	}
	id = uint32(len(t.last))
	t.parent = append(t.parent, parent1)
	t.last = append(t.last, tok)
	t.children.insert(t, id)
	n := uint8(1)
	if parent1 != 0 {
		n = t.order[parent1-1] + 1
	}
	t.order = append(t.order, n)
	return id, true
}

// find returns the id of the n-gram k.
func (t *Table) find(k ngramKey) (uint32, bool) {
	var p uint32 // parent id + 1
	var id uint32
	for i := 0; i < maxOrder && k[i] != 0; i++ {
		var ok bool
		if id, ok = t.child(p, k[i]); !ok {
			return 0, false
		}
		p = id + 1
	}
	return id, p != 0
}

// ngramText returns n-gram i as its tokens joined by spaces.
func (t *Table) ngramText(i uint32) string {
	toks := make([]string, t.order[i])
	for j := len(toks) - 1; j >= 0; j-- {
		toks[j] = t.vocab.tokens[t.last[i]-1]
		i = t.parent[i] - 1 // wraps at the root, after the last use
	}
	return strings.Join(toks, " ")
}
