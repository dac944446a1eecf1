package checkpoint

import (
	"math"

	"github.com/storyeval/storyeval/internal/dense"
)

// TensorStats summarises a tensor's values, for inspecting a checkpoint
// (the storyeval checkpoint command's -stats): whether weights loaded, were
// converted with the right dtype, or are all zero.
type TensorStats struct {
	// Count is the number of elements.
	Count int
	// Mean, Min and Max are over all elements, as float64; NaN when there
	// are none.
	Mean, Min, Max float64
	// First holds up to the first four elements in row-major order.
	First []float64
}

// Stats reads the named tensor (a floating-point one as Float32 does, an
// integer or bool one as Int64) and returns its TensorStats.
func (s *State) Stats(name string) (TensorStats, error) {
	info, ok := s.Info(name)
	var vals []float64
	if ok && info.DType.IsFloat() {
		x, err := s.Float32(name)
		if err != nil {
			return TensorStats{}, err
		}
		vals = appendFloat64(vals, dense.Data(x))
	} else {
		x, err := s.Int64(name)
		if err != nil {
			return TensorStats{}, err
		}
		vals = appendFloat64(vals, dense.Data(x))
	}
	st := TensorStats{Count: len(vals), Mean: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	if len(vals) == 0 {
		return st, nil
	}
	sum, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		sum += v
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	st.Mean, st.Min, st.Max = sum/float64(len(vals)), lo, hi
	st.First = append(st.First, vals[:min(4, len(vals))]...)
	return st, nil
}

// appendFloat64 appends the elements of a tensor's data (a slice, or one
// value for a 0-dimensional tensor) as float64.
func appendFloat64(dst []float64, data any) []float64 {
	switch d := data.(type) {
	case []float32:
		for _, v := range d {
			dst = append(dst, float64(v))
		}
	case float32:
		dst = append(dst, float64(d))
	case []int64:
		for _, v := range d {
			dst = append(dst, float64(v))
		}
	case int64:
		dst = append(dst, float64(d))
	}
	return dst
}
