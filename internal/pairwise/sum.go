// Package pairwise sums and averages float64 slices the way numpy does, so
// that means computed here are bit-identical to np.mean in the reference code.
package pairwise

// blockSize is numpy's PW_BLOCKSIZE: the largest run summed with eight
// accumulators before the slice is split in two (numpy/core/src/umath/loops_utils.h).
const blockSize = 128

// Sum returns the sum of xs in numpy's pairwise order (numpy/core/src/umath/loops_utils.h.src,
// pairwise_sum): fewer than
// eight values are added left to right; up to 128 values use eight strided
// accumulators combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) with the
// remainder added sequentially; longer slices are split at a multiple of
// eight and each half summed recursively.
func Sum(xs []float64) float64 {
	n := len(xs)
	switch {
	case n < 8:
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s
	case n <= blockSize:
		var r [8]float64
		copy(r[:], xs[:8])
		i := 8
		for ; i <= n-8; i += 8 {
			r[0] += xs[i]
			r[1] += xs[i+1]
			r[2] += xs[i+2]
			r[3] += xs[i+3]
			r[4] += xs[i+4]
			r[5] += xs[i+5]
			r[6] += xs[i+6]
			r[7] += xs[i+7]
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += xs[i]
		}
		return s
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return Sum(xs[:n2]) + Sum(xs[n2:])
	}
}

// Mean returns Sum(xs)/len(xs), which is what np.mean computes for a float64
// array. The mean of an empty slice is NaN, as in numpy (which also warns).
func Mean(xs []float64) float64 {
	return Sum(xs) / float64(len(xs))
}
