package ngram

// maxOrder is the longest n-gram the metrics count.
const maxOrder = 4

// minItemsPerWorker is the fewest items a scoring goroutine is given
// (internal/parallel.Chunks): below it, starting a goroutine costs more
// than it saves.
const minItemsPerWorker = 64

// tokenIDs interns tokens to dense ids from 1, so that metrics compare
// uint32s instead of strings. It is per goroutine and not safe for
// concurrent use.
type tokenIDs map[string]uint32

// appendIDs interns each token and appends its id to dst.
func (x tokenIDs) appendIDs(dst []uint32, tokens []string) []uint32 {
	for _, t := range tokens {
		id, ok := x[t]
		if !ok {
			id = uint32(len(x) + 1)
			x[t] = id
		}
		dst = append(dst, id)
	}
	return dst
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
