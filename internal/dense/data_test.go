package dense

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"

	"gorgonia.org/tensor"
)

func TestDataValues(t *testing.T) {
	x := tensor.New(tensor.WithShape(2, 3), tensor.WithBacking([]float32{1, 2, 3, 4, 5, 6}))
	got, ok := Data(x).([]float32)
	if !ok || len(got) != 6 || got[0] != 1 || got[5] != 6 {
		t.Fatalf("Data = %v, want [1 2 3 4 5 6]", Data(x))
	}
	got[1] = 7 // the backing array itself, not a copy
	if v, _ := x.At(0, 1); v != float32(7) {
		t.Errorf("At(0, 1) = %v after writing through Data, want 7", v)
	}
	ints := tensor.New(tensor.WithShape(2), tensor.WithBacking([]int64{-1, 9}))
	if got, ok := Data(ints).([]int64); !ok || len(got) != 2 || got[0] != -1 || got[1] != 9 {
		t.Errorf("Data = %v, want [-1 9]", Data(ints))
	}
}

// TestDataUnderGCPressure is the regression test of issue 21's crash: each
// of several goroutines fills a fresh 960,000-byte array (the ALBERT word
// embeddings' size), wraps it in a Dense that is then its only reference,
// reads it back through Data and reallocates the same amount, while another
// goroutine forces collections at GOGC=1. With a bare t.Data() in place of
// Data the array is sometimes collected inside the call: the check below
// sees the reused memory, or the runtime dies with "found bad pointer in
// Go heap" — the CI failure's message, for a span of the same 960,000
// bytes. Measured with bare t.Data() (2 cores, load 22–26): 2 of 6 such
// processes failed; with 64-value arrays, 22 of 5,056,381 reads in 4×30 s
// saw their array reused, against 0 of 5,845,105 through Data.
func TestDataUnderGCPressure(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	const n = 240_000
	rounds := 400
	if testing.Short() {
		rounds = 100
	}
	var stop atomic.Bool
	gcDone := make(chan struct{})
	go func() {
		defer close(gcDone)
		for !stop.Load() {
			runtime.GC()
		}
	}()
	var lost atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var churn []byte
			for r := range rounds {
				want := float32(r) + 0.5
				buf := make([]float32, n)
				for i := range buf {
					buf[i] = want
				}
				x := tensor.New(tensor.WithShape(n), tensor.WithBacking(buf))
				buf = nil
				got := Data(x).([]float32)
				churn = make([]byte, 4*n) // reuses what a lost array freed
				for i := range churn {
					churn[i] = 0xAB
				}
				if got[0] != want || got[n/2] != want || got[n-1] != want {
					lost.Add(1)
				}
			}
			_ = churn
		}()
	}
	wg.Wait()
	stop.Store(true)
	<-gcDone
	if l := lost.Load(); l > 0 {
		t.Fatalf("%d of %d arrays read through Data changed under the reader", l, 4*rounds)
	}
}
