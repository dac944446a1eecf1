package ngram

// maxOrder is the longest n-gram the toolkit's metrics count.
const maxOrder = 4

// gram identifies an n-gram of interned token ids; n is its order and the
// unused tail of w is zero.
type gram struct {
	n uint8
	w [maxOrder]uint32
}

// interner maps tokens to small integer ids so n-grams hash cheaply. It is
// local to one metric call, so metrics stay safe for concurrent use.
type interner map[string]uint32

func (in interner) ids(tokens []string) []uint32 {
	out := make([]uint32, len(tokens))
	for i, t := range tokens {
		id, ok := in[t]
		if !ok {
			id = uint32(len(in) + 1)
			in[t] = id
		}
		out[i] = id
	}
	return out
}

// gramCount is an n-gram with its count, kept in first-occurrence order.
type gramCount struct {
	g     gram
	count int
}

// countGrams counts the n-grams of orders 1..maxN of ids in the order the
// reference code's precook creates them (all unigrams left to right, then
// all bigrams, …), returning the counts in that order and an index into it.
func countGrams(ids []uint32, maxN int) ([]gramCount, map[gram]int) {
	total := 0
	for k := 1; k <= maxN; k++ {
		if len(ids)-k+1 > 0 {
			total += len(ids) - k + 1
		}
	}
	list := make([]gramCount, 0, total)
	index := make(map[gram]int, total)
	for k := 1; k <= maxN; k++ {
		for i := 0; i+k <= len(ids); i++ {
			g := gram{n: uint8(k)}
			copy(g.w[:], ids[i:i+k])
			if j, ok := index[g]; ok {
				list[j].count++
				continue
			}
			index[g] = len(list)
			list = append(list, gramCount{g, 1})
		}
	}
	return list, index
}
