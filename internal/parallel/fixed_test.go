package parallel

import (
	"sync/atomic"
	"testing"
)

func TestChunksNCoversEveryIndexOnceWithTheGivenWorkers(t *testing.T) {
	for _, n := range []int{0, 1, 5, 1001} {
		for _, workers := range []int{-1, 0, 1, 3, 2000} {
			hits := make([]int32, n)
			seen := make([]atomic.Int32, max(1, min(workers, n)))
			ChunksN(n, workers, func(w, lo, hi int) {
				seen[w].Add(1)
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("n %d workers %d: index %d run %d times", n, workers, i, h)
				}
			}
			for w := range seen {
				if n > 0 && seen[w].Load() != 1 {
					t.Fatalf("n %d workers %d: worker %d ran %d times", n, workers, w, seen[w].Load())
				}
			}
		}
	}
}
