package ngram

// gramKey packs an n-gram of up to four token ids into two words, so n-grams
// compare with two integer comparisons; unused positions are zero and the
// order is implied by the first zero (token ids start at 1).
type gramKey struct{ lo, hi uint64 }

func packGram(ids []uint32) gramKey {
	var k gramKey
	switch len(ids) {
	case 4:
		k.hi = uint64(ids[2]) | uint64(ids[3])<<32
		fallthrough
	case 2:
		k.lo = uint64(ids[0]) | uint64(ids[1])<<32
	case 3:
		k.hi = uint64(ids[2])
		k.lo = uint64(ids[0]) | uint64(ids[1])<<32
	case 1:
		k.lo = uint64(ids[0])
	}
	return k
}

// sentenceKeys holds a sentence's n-gram keys for each order, in position
// order: keys[k-1][i] is the k-gram starting at token i.
type sentenceKeys struct {
	keys   [maxOrder][]gramKey
	tokens int
}

func newSentenceKeys(ids []uint32) sentenceKeys {
	s := sentenceKeys{tokens: len(ids)}
	for k := 1; k <= maxOrder; k++ {
		if len(ids) < k {
			break
		}
		ks := make([]gramKey, len(ids)-k+1)
		for i := range ks {
			ks[i] = packGram(ids[i : i+k])
		}
		s.keys[k-1] = ks
	}
	return s
}

// countKey returns how many times key occurs in keys.
func countKey(keys []gramKey, key gramKey) int {
	n := 0
	for _, k := range keys {
		if k == key {
			n++
		}
	}
	return n
}
