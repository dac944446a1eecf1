package ngram

// maxOrder is the longest n-gram the metrics count.
const maxOrder = 4

// gramIndex interns tokens and n-grams to dense integer ids for one metric
// call (so metrics stay safe for concurrent use). An n-gram's id is looked
// up from its (n−1)-gram prefix id and its last token id, so every lookup
// is a map access with a 64-bit key, and ids are dense enough to index
// scratch slices instead of hashing again.
type gramIndex struct {
	tokens map[string]uint32
	grams  map[uint64]uint32
	order  []uint8 // order[id] is the n-gram order of gram id; id 0 is unused

	// Per-sentence deduplication: mark[id] == stamp when gram id has been
	// seen in the current sentence, at position pos[id] of its list.
	mark  []uint32
	pos   []int32
	stamp uint32
}

func newGramIndex() *gramIndex {
	return &gramIndex{tokens: map[string]uint32{}, grams: map[uint64]uint32{}, order: []uint8{0}, mark: []uint32{0}, pos: []int32{0}}
}

// size is one more than the largest gram id, for sizing scratch slices.
func (x *gramIndex) size() int { return len(x.order) }

func (x *gramIndex) token(t string) uint32 {
	id, ok := x.tokens[t]
	if !ok {
		id = uint32(len(x.tokens) + 1)
		x.tokens[t] = id
	}
	return id
}

// tokenIDs interns each token.
func (x *gramIndex) tokenIDs(tokens []string) []uint32 {
	out := make([]uint32, len(tokens))
	for i, t := range tokens {
		out[i] = x.token(t)
	}
	return out
}

func (x *gramIndex) gram(prefix, token uint32, order int) uint32 {
	key := uint64(prefix)<<32 | uint64(token)
	id, ok := x.grams[key]
	if !ok {
		id = uint32(len(x.order))
		x.grams[key] = id
		x.order = append(x.order, uint8(order))
		x.mark = append(x.mark, 0)
		x.pos = append(x.pos, 0)
	}
	return id
}

// sentenceGrams are the distinct n-grams of one sentence, orders 1..maxOrder,
// in the order the reference code's precook first meets them (all unigrams
// left to right, then all bigrams, …), with their counts.
type sentenceGrams struct {
	ids    []uint32
	counts []int32
	tokens int
}

// count interns tokens and returns their n-gram counts.
func (x *gramIndex) count(tokens []string) sentenceGrams {
	n := len(tokens)
	// prev[i] is the id of the n-gram of the current order starting at i.
	prev := make([]uint32, n)
	total := 0
	for k := 1; k <= maxOrder && k <= n; k++ {
		total += n - k + 1
	}
	s := sentenceGrams{ids: make([]uint32, 0, total), counts: make([]int32, 0, total), tokens: n}
	x.stamp++
	if x.stamp == 0 { // wrapped: reset the marks
		clear(x.mark)
		x.stamp = 1
	}
	tok := x.tokenIDs(tokens)
	for k := 1; k <= maxOrder; k++ {
		for i := 0; i+k <= n; i++ {
			var id uint32
			if k == 1 {
				id = x.gram(0, tok[i], 1)
			} else {
				id = x.gram(prev[i], tok[i+k-1], k)
			}
			prev[i] = id
			if x.mark[id] == x.stamp {
				s.counts[x.pos[id]]++
				continue
			}
			x.mark[id] = x.stamp
			x.pos[id] = int32(len(s.ids))
			s.ids = append(s.ids, id)
			s.counts = append(s.counts, 1)
		}
	}
	return s
}

// growInt32 returns s extended with zeros to length at least n.
func growInt32(s []int32, n int) []int32 {
	if len(s) >= n {
		return s
	}
	if cap(s) >= n {
		return s[:n]
	}
	t := make([]int32, n, 2*n)
	copy(t, s)
	return t
}
