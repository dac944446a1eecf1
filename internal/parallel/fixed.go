package parallel

import "sync"

// ChunksN is Chunks with a fixed number of workers (at least 1, at most n),
// for callers whose options let the user choose it.
func ChunksN(n, workers int, fn func(worker, lo, hi int)) {
	if n <= 0 {
		return
	}
	workers = max(1, min(workers, n))
	if workers == 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() { fn(w, lo, hi) })
	}
	wg.Wait()
}
