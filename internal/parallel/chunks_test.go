package parallel

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
)

func TestChunksCoversEveryIndexOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 7} {
		old := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 5, 64, 1000, 1001} {
			for _, minPer := range []int{0, 1, 10, 5000} {
				hits := make([]int32, n)
				var workers atomic.Int32
				Chunks(n, minPer, func(w, lo, hi int) {
					workers.Add(1)
					if w < 0 || w >= Workers(n, minPer) || lo > hi {
						t.Errorf("bad chunk w=%d [%d,%d)", w, lo, hi)
					}
					for i := lo; i < hi; i++ {
						atomic.AddInt32(&hits[i], 1)
					}
				})
				for i, h := range hits {
					if h != 1 {
						t.Fatalf("procs %d n %d min %d: index %d run %d times", procs, n, minPer, i, h)
					}
				}
				if n > 0 && int(workers.Load()) != Workers(n, minPer) {
					t.Fatalf("procs %d n %d min %d: %d chunks, Workers says %d", procs, n, minPer, workers.Load(), Workers(n, minPer))
				}
				if w := Workers(n, minPer); w < 1 || w > procs {
					t.Fatalf("Workers(%d, %d) = %d with GOMAXPROCS %d", n, minPer, w, procs)
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

func TestEachReturnsFirstErrorByIndexAfterRunningAll(t *testing.T) {
	var ran atomic.Int32
	e3, e7 := errors.New("three"), errors.New("seven")
	err := Each(10, 1, func(i int) error {
		ran.Add(1)
		switch i {
		case 3:
			return e3
		case 7:
			return e7
		}
		return nil
	})
	if err != e3 || ran.Load() != 10 {
		t.Fatalf("err %v after %d calls, want %v after 10", err, ran.Load(), e3)
	}
	if err := Each(4, 1, func(int) error { return nil }); err != nil {
		t.Fatal(err)
	}
}
