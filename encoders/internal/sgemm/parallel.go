package sgemm

import (
	"sync"
	"sync/atomic"
)

// parallel computes the product with the given number of goroutines (the
// caller's included), in two phases:
//
//  1. all of op(A) and op(B) are packed once, kc-deep block after block, the
//     goroutines taking row bands of A and column bands of B in turn;
//  2. after a barrier, the goroutines take taskRows×taskColumns pieces of C
//     in turn, each computed from the shared packed operands.
//
// Nothing is packed twice, and the pieces are handed out dynamically, so a
// goroutine that the machine's other load slows down does not hold up the
// others. Every element of C is summed in the same order as by serial, so
// the result does not depend on the number of goroutines.
func (p *problem) parallel(workers int) {
	mr, nr := p.kern.mr, p.kern.nr
	mPad, nPad := roundUp(p.m, mr), roundUp(p.n, nr)
	bufs := sharedPackPool.Get().(*sharedPack)
	defer sharedPackPool.Put(bufs)
	// Block pc of packed A starts at pc·mPad and holds its mr-row slivers
	// (ir·kcur on); block pc of packed B starts at pc·nPad.
	bufs.a = grow(bufs.a, mPad*p.k)
	bufs.b = grow(bufs.b, nPad*p.k)
	packedA, packedB := bufs.a, bufs.b

	rowBands := (p.m + taskRows - 1) / taskRows
	colBands := (p.n + taskColumns - 1) / taskColumns
	tasks := rowBands * colBands
	workers = min(workers, tasks)
	var nextPack, nextTask atomic.Int64
	var packed, done sync.WaitGroup
	packed.Add(workers)
	done.Add(workers)
	work := func() {
		defer done.Done()
		// Phase 1: pack band after band, A's row bands then B's column
		// bands.
		for {
			j := int(nextPack.Add(1) - 1)
			if j >= rowBands+colBands {
				break
			}
			for pc := 0; pc < p.k; pc += kc {
				kcur := min(kc, p.k-pc)
				if j < rowBands {
					i0 := j * taskRows
					rows := min(taskRows, p.m-i0)
					packA(packedA[pc*mPad+i0*kcur:], p.a, p.lda, p.aTrans, p.alpha, i0, pc, rows, kcur, mr, p.kern.transpose8x8)
				} else {
					j0 := (j - rowBands) * taskColumns
					cols := min(taskColumns, p.n-j0)
					packB(packedB[pc*nPad+j0*kcur:], p.b, p.ldb, p.bTrans, pc, j0, kcur, cols, nr, p.kern.transpose8x8)
				}
			}
		}
		packed.Done()
		packed.Wait()
		// Phase 2: pieces of C.
		var tile [maxTile]float32
		for {
			t := int(nextTask.Add(1) - 1)
			if t >= tasks {
				return
			}
			i0, j0 := t/colBands*taskRows, t%colBands*taskColumns
			rows, cols := min(taskRows, p.m-i0), min(taskColumns, p.n-j0)
			p.scaleBlock(i0, j0, rows, cols)
			for pc := 0; pc < p.k; pc += kc {
				kcur := min(kc, p.k-pc)
				p.macroKernel(packedA[pc*mPad+i0*kcur:], packedB[pc*nPad+j0*kcur:], &tile, i0, j0, rows, cols, kcur)
			}
		}
	}
	for range workers - 1 {
		go work()
	}
	work()
	done.Wait()
}

// sharedPack holds the packed operands of a parallel product.
type sharedPack struct {
	a, b []float32
}

// sharedPackPool reuses the packed operands of parallel products.
var sharedPackPool = sync.Pool{New: func() any { return new(sharedPack) }}
