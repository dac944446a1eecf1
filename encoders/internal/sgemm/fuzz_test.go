package sgemm

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// FuzzSgemm checks random shapes, transposes, strides, alpha and beta
// against the float64 reference with both micro-kernels.
func FuzzSgemm(f *testing.F) {
	f.Add(uint8(6), uint8(16), uint8(8), uint8(0), uint8(0), uint64(1))
	f.Add(uint8(7), uint8(17), uint8(1), uint8(3), uint8(5), uint64(2))
	f.Add(uint8(1), uint8(1), uint8(0), uint8(1), uint8(2), uint64(3))
	f.Fuzz(func(t *testing.T, m, n, k, flags, extra uint8, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, uint64(flags)))
		tA, tB := blas.NoTrans, blas.NoTrans
		if flags&1 != 0 {
			tA = blas.Trans
		}
		if flags&2 != 0 {
			tB = blas.Trans
		}
		alpha := alphas[int(flags>>2)%len(alphas)]
		beta := betas[int(flags>>4)%len(betas)]
		g := newCase(rng, tA, tB, int(m)%80, int(n)%80, int(k)%300, alpha, beta, int(extra)%4)
		want, scale := g.reference()
		for _, kk := range kernels {
			g.checkAgainst(t, kk.name, g.run(kk), want, scale)
		}
	})
}
