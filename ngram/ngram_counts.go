package ngram

import (
	"runtime"
	"sync"
)

// maxOrder is the longest n-gram the metrics count.
const maxOrder = 4

// gramIndex interns tokens and n-grams to dense integer ids for one metric
// call (so metrics stay safe for concurrent use). An n-gram's id is looked
// up from its (n−1)-gram prefix id and its last token id, so every lookup
// is a map access with a 64-bit key, and ids are dense enough to index
// scratch slices instead of hashing again.
type gramIndex struct {
	tokens map[string]uint32
	grams  *gramTable
	order  []uint8  // order[id] is the n-gram order of gram id; id 0 is unused
	key    []uint64 // key[id] is the (prefix id, token id) pair of gram id

	// Per-sentence deduplication: mark[id] == stamp when gram id has been
	// seen in the current sentence, at position pos[id] of its list.
	mark  []uint32
	pos   []int32
	stamp uint32

	// Reused buffers: token ids and n-gram ids of the sentence being
	// counted, and the arena that sentenceGrams slices point into.
	tok, prev  []uint32
	arenaIDs   []uint32
	arenaCount []int32
}

func newGramIndex() *gramIndex {
	return &gramIndex{tokens: map[string]uint32{}, grams: newGramTable(), order: []uint8{0}, key: []uint64{0}, mark: []uint32{0}, pos: []int32{0}}
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

// appendTokenIDs interns each token and appends its id to dst.
func (x *gramIndex) appendTokenIDs(dst []uint32, tokens []string) []uint32 {
	for _, t := range tokens {
		dst = append(dst, x.token(t))
	}
	return dst
}

func (x *gramIndex) gram(prefix, token uint32, order int) uint32 {
	key := uint64(prefix)<<32 | uint64(token)
	id, added := x.grams.lookup(key, uint32(len(x.order)))
	if added {
		x.order = append(x.order, uint8(order))
		x.key = append(x.key, key)
		x.mark = append(x.mark, 0)
		x.pos = append(x.pos, 0)
	}
	return id
}

// adopt interns every token and n-gram of y into x and returns, for each
// gram id of y, the id of the same n-gram in x; this merges indexes built
// in parallel over parts of a corpus. A gram's prefix has a smaller id than
// the gram, so walking y's ids in order always finds the prefix mapped.
func (x *gramIndex) adopt(y *gramIndex) []uint32 {
	tok := make([]uint32, len(y.tokens)+1)
	for t, id := range y.tokens {
		tok[id] = x.token(t)
	}
	remap := make([]uint32, len(y.order))
	for g := 1; g < len(y.order); g++ {
		prefix, token := uint32(y.key[g]>>32), uint32(y.key[g])
		remap[g] = x.gram(remap[prefix], tok[token], int(y.order[g]))
	}
	return remap
}

// sentenceGrams are the distinct n-grams of one sentence, orders 1..maxOrder,
// in the order the reference code's precook first meets them (all unigrams
// left to right, then all bigrams, …), with their counts.
type sentenceGrams struct {
	ids    []uint32
	counts []int32
	tokens int
}

// count interns tokens and returns their n-gram counts; the result points
// into the index's arena.
func (x *gramIndex) count(tokens []string) sentenceGrams {
	n := len(tokens)
	// prev[i] is the id of the n-gram of the current order starting at i.
	x.prev = append(x.prev[:0], make([]uint32, n)...)
	prev := x.prev
	start := len(x.arenaIDs)
	x.stamp++
	if x.stamp == 0 { // wrapped: reset the marks
		clear(x.mark)
		x.stamp = 1
	}
	x.tok = x.appendTokenIDs(x.tok[:0], tokens)
	tok := x.tok
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
				x.arenaCount[x.pos[id]]++
				continue
			}
			x.mark[id] = x.stamp
			x.pos[id] = int32(len(x.arenaIDs))
			x.arenaIDs = append(x.arenaIDs, id)
			x.arenaCount = append(x.arenaCount, 1)
		}
	}
	end := len(x.arenaIDs)
	return sentenceGrams{ids: x.arenaIDs[start:end:end], counts: x.arenaCount[start:end:end], tokens: n}
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

// chunkWorkers is the number of workers parallelChunks uses for n items.
func chunkWorkers(n int) int { return min(runtime.GOMAXPROCS(0), max(1, n/64)) }

// parallelChunks runs fn over [0, n) cut into contiguous chunks, one per
// worker (GOMAXPROCS of them, fewer for small n), and waits for them.
func parallelChunks(n int, fn func(worker, lo, hi int)) {
	workers := chunkWorkers(n)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w, lo, hi)
		}()
	}
	wg.Wait()
}
