package sgemm

import (
	"runtime"
	"sync"
)

// kernelFunc adds the product of a packed mr×k sliver of A (a, column after
// column) and a packed k×nr sliver of B (b, row after row) to the mr×nr tile
// of C at c, whose rows are ldc elements apart. k ≥ 1.
type kernelFunc func(k int, a, b, c *float32, ldc int)

// microKernel is a kernelFunc with its tile size.
type microKernel struct {
	name   string
	fn     kernelFunc
	mr, nr int
	// transpose8x8, if not nil, sets dst[c*ldd+r] = src[r*lds+c] for r, c
	// in [0, 8); packing a transposed B and an untransposed A use it, since
	// element-by-element transposition costs as much as the product itself
	// when the other dimension is small (x·Wᵀ for 128 tokens).
	transpose8x8 func(src *float32, lds int, dst *float32, ldd int)
}

// problem is one validated Sgemm call.
type problem struct {
	kern           microKernel
	aTrans, bTrans bool
	m, n, k        int
	alpha, beta    float32
	a              []float32
	lda            int
	b              []float32
	ldb            int
	c              []float32
	ldc            int
}

// run computes the product on the calling goroutine when it is small, and
// otherwise shares it between GOMAXPROCS goroutines (parallel).
func (p *problem) run() {
	workers := 1
	// In float64 so that absurd sizes cannot overflow the test.
	if float64(p.m)*float64(p.n)*float64(p.k) >= parallelMinWork && p.alpha != 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers <= 1 {
		p.serial()
		return
	}
	p.parallel(workers)
}

// packBuffers holds the packed A block and B panel of one goroutine.
type packBuffers struct {
	a, b []float32
	// tile receives the micro-kernel's result for tiles that stick out of
	// C; it lives here rather than on the stack because the kernel is
	// called through a function value, which makes its arguments escape.
	tile [maxTile]float32
}

// packPool reuses packing buffers between calls, so that a forward pass
// does not allocate megabytes per matrix product.
var packPool = sync.Pool{New: func() any { return new(packBuffers) }}

// serial computes the problem on the calling goroutine: C is scaled by
// beta, then alpha·op(A)·op(B) is accumulated block after block.
func (p *problem) serial() {
	p.scaleC()
	if p.alpha == 0 || p.k == 0 {
		return
	}
	bufs := packPool.Get().(*packBuffers)
	defer packPool.Put(bufs)
	mr, nr := p.kern.mr, p.kern.nr
	ncMax := min(nc, roundUp(p.n, nr))
	kcMax := min(kc, p.k)
	mcMax := min(mc, roundUp(p.m, mr))
	bufs.a = grow(bufs.a, mcMax*kcMax)
	bufs.b = grow(bufs.b, ncMax*kcMax)
	for jc := 0; jc < p.n; jc += nc {
		ncur := min(nc, p.n-jc)
		for pc := 0; pc < p.k; pc += kc {
			kcur := min(kc, p.k-pc)
			packB(bufs.b, p.b, p.ldb, p.bTrans, pc, jc, kcur, ncur, nr, p.kern.transpose8x8)
			for ic := 0; ic < p.m; ic += mc {
				mcur := min(mc, p.m-ic)
				packA(bufs.a, p.a, p.lda, p.aTrans, p.alpha, ic, pc, mcur, kcur, mr, p.kern.transpose8x8)
				p.macroKernel(bufs.a, bufs.b, &bufs.tile, ic, jc, mcur, ncur, kcur)
			}
		}
	}
}

// macroKernel adds the product of a packed mcur×kcur block of A and a
// packed kcur×ncur panel of B to C at (ic, jc), tile by tile. Tiles that
// stick out of C are computed into a scratch tile and only their inside is
// added to C.
func (p *problem) macroKernel(pa, pb []float32, tile *[maxTile]float32, ic, jc, mcur, ncur, kcur int) {
	c, ldc := p.c, p.ldc
	kern, mr, nr := p.kern.fn, p.kern.mr, p.kern.nr
	for jr := 0; jr < ncur; jr += nr {
		bs := pb[jr*kcur:]
		cols := min(nr, ncur-jr)
		for ir := 0; ir < mcur; ir += mr {
			as := pa[ir*kcur:]
			rows := min(mr, mcur-ir)
			off := (ic+ir)*ldc + jc + jr
			if rows == mr && cols == nr {
				kern(kcur, &as[0], &bs[0], &c[off], ldc)
				continue
			}
			clear(tile[:mr*nr])
			kern(kcur, &as[0], &bs[0], &tile[0], nr)
			for i := range rows {
				dst := c[off+i*ldc : off+i*ldc+cols]
				for j, v := range tile[i*nr : i*nr+cols] {
					dst[j] += v
				}
			}
		}
	}
}

// scaleC multiplies C by beta (scaleBlock).
func (p *problem) scaleC() { p.scaleBlock(0, 0, p.m, p.n) }

// scaleBlock multiplies the rows×cols block of C at (i0, j0) by beta;
// beta = 0 sets it to zero without reading it, as BLAS requires.
func (p *problem) scaleBlock(i0, j0, rows, cols int) {
	for i := i0; i < i0+rows; i++ {
		row := p.c[i*p.ldc+j0 : i*p.ldc+j0+cols]
		switch p.beta {
		case 1:
			return
		case 0:
			clear(row)
		default:
			for j := range row {
				row[j] *= p.beta
			}
		}
	}
}

func roundUp(x, unit int) int { return (x + unit - 1) / unit * unit }

// grow returns buf if it holds at least n elements, else a new slice.
func grow(buf []float32, n int) []float32 {
	if cap(buf) >= n {
		return buf[:n]
	}
	return make([]float32, n)
}
