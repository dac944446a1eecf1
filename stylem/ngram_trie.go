package stylem

import "strings"

// The table's n-grams form a trie: n-gram i is its prefix (the (n−1)-gram
// parent[i]−1, or the root when parent[i] is 0) extended by token last[i].
// children maps (parent+1, token) to the child's id, so looking up or
// adding an n-gram extends its prefix by one token with a 64-bit-key map
// access, which is much cheaper than hashing whole n-grams.

// childKey packs a parent (id+1, 0 for the root) and a token id.
func childKey(parent1, tok uint32) uint64 { return uint64(parent1)<<32 | uint64(tok) }

// child returns the id of the n-gram that extends parent1 by tok.
func (t *Table) child(parent1, tok uint32) (uint32, bool) {
	id, ok := t.children[childKey(parent1, tok)]
	return id, ok
}

// addChild returns the id of parent1 extended by tok, adding it if new;
// added reports whether it was.
func (t *Table) addChild(parent1, tok uint32) (id uint32, added bool) {
	key := childKey(parent1, tok)
	if id, ok := t.children[key]; ok {
		return id, false
	}
	id = uint32(len(t.last))
	t.children[key] = id
	t.parent = append(t.parent, parent1)
	t.last = append(t.last, tok)
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
