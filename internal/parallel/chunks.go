package parallel

import (
	"runtime"
	"sync"
)

// Workers returns the number of workers Chunks uses for n items when each
// worker should get at least minPerWorker of them: GOMAXPROCS, fewer when n
// is small, and at least 1.
func Workers(n, minPerWorker int) int {
	if minPerWorker < 1 {
		minPerWorker = 1
	}
	return max(1, min(runtime.GOMAXPROCS(0), n/minPerWorker))
}

// Chunks runs fn over [0, n) cut into contiguous chunks, one per worker
// (Workers(n, minPerWorker) of them), and waits for all of them. worker is
// the chunk's index in [0, Workers(n, minPerWorker)), so a caller can keep
// per-worker scratch space. With one worker fn runs on the calling
// goroutine.
func Chunks(n, minPerWorker int, fn func(worker, lo, hi int)) {
	if n <= 0 {
		return
	}
	workers := Workers(n, minPerWorker)
	if workers == 1 {
		fn(0, 0, n)
		return
	}
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

// Each runs fn(i) for every i in [0, n) on up to GOMAXPROCS goroutines and
// returns the first error by index (nil if none). Every fn runs, so callers
// that store a result or an error per item see all of them.
func Each(n, minPerWorker int, fn func(i int) error) error {
	errs := make([]error, n)
	Chunks(n, minPerWorker, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			errs[i] = fn(i)
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
