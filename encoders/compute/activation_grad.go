package compute

import (
	"math"

	"github.com/storyeval/storyeval/internal/npmath"
	"github.com/storyeval/storyeval/internal/parallel"
)

// ApplyHost writes act(x) into y (which may be x): in float32 exactly what
// Apply (and so BiasAct) computes, in float64 the exact functions.
func ApplyHost[T Float](a Activation, x, y []T) {
	if len(x) == 0 {
		return
	}
	if x32, ok := any(x).([]float32); ok {
		y32 := any(y).([]float32)
		if &y32[0] != &x32[0] {
			copy(y32, x32)
		}
		a.Apply(y32)
		return
	}
	if &y[0] != &x[0] {
		copy(y, x)
	}
	if a == Identity {
		return
	}
	inBlocks(y, 4096, func(fs []float64) {
		for i, f := range fs {
			fs[i] = a.exact(f)
		}
	}, func(lo int, fs []float64) {
		out := y[lo : lo+len(fs)]
		for i := range out {
			out[i] = T(fs[i])
		}
	})
}

// exact is the activation in float64 with the exact special functions.
func (a Activation) exact(f float64) float64 {
	switch a {
	case GELU:
		return 0.5 * f * (1 + math.Erf(f/math.Sqrt2))
	case GELUTanh:
		return 0.5 * f * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(f+0.044715*f*f*f)))
	case QuickGELU:
		return f / (1 + math.Exp(-1.702*f))
	case ReLU:
		return max(f, 0)
	case Tanh:
		return math.Tanh(f)
	}
	return f
}

// ActivationBackward writes dx = dy·act'(pre) element-wise (dx may be dy).
// The derivative is computed in float64 from the pre-activation and
// rounded once; erf is npmath.Erf32 in float32, as the forward, and
// math.Erf in float64. Tanh's is 1 − t² with t = tanh(pre) rounded to T,
// the output the forward pass produced.
func ActivationBackward[T Float](a Activation, pre, dy, dx []T) {
	if len(dy) == 0 {
		return
	}
	if a == Identity {
		if &dx[0] != &dy[0] {
			copy(dx, dy)
		}
		return
	}
	if a == Tanh {
		parallel.Chunks(len(pre), 4096, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				t := T(math.Tanh(float64(pre[i])))
				dx[i] = dy[i] * (1 - t*t)
			}
		})
		return
	}
	erf := npmath.Erf32
	if is64[T]() {
		erf = math.Erf
	}
	inBlocks(pre, 4096, func(fs []float64) {
		for i, v := range fs {
			fs[i] = a.derivative(v, erf)
		}
	}, func(lo int, fs []float64) {
		d, out := dy[lo:lo+len(fs)], dx[lo:lo+len(fs)]
		for i := range out {
			out[i] = d[i] * T(fs[i])
		}
	})
}

// inBlocks widens x block by block into float64 (on several cores for long
// inputs), lets fn work on each block in place and hands it to narrow with
// its offset in x. Widening and narrowing run in loops of their own, as in
// InFloat64.
func inBlocks[T Float](x []T, minChunk int, fn func(fs []float64), narrow func(lo int, fs []float64)) {
	parallel.Chunks(len(x), minChunk, func(_, lo, hi int) {
		var block [256]float64
		for start := lo; start < hi; start += len(block) {
			xs := x[start:min(start+len(block), hi)]
			fs := block[:len(xs)]
			for i, v := range xs {
				fs[i] = float64(v)
			}
			fn(fs)
			narrow(start, fs)
		}
	})
}

// derivative is act'(v).
func (a Activation) derivative(v float64, erf func(float64) float64) float64 {
	switch a {
	case GELU:
		const invSqrt2Pi = 0.39894228040143267793994605993438186847585863116493
		return 0.5*(1+erf(v/math.Sqrt2)) + v*math.Exp(-0.5*v*v)*invSqrt2Pi
	case GELUTanh:
		c := math.Sqrt(2 / math.Pi)
		t := math.Tanh(c * (v + 0.044715*v*v*v))
		return 0.5*(1+t) + 0.5*v*(1-t*t)*c*(1+3*0.044715*v*v)
	case QuickGELU:
		s := 1 / (1 + math.Exp(-1.702*v))
		return s + 1.702*v*s*(1-s)
	case ReLU:
		if v > 0 {
			return 1
		}
		return 0
	}
	return 1
}
