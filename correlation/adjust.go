package correlation

import (
	"fmt"
	"math"
	"sort"
)

// Correction is a multiple-comparison correction of p-values.
type Correction int

const (
	// Holm is Holm's (1979) step-down correction: it controls the
	// family-wise error rate under any dependence between the tests, and
	// rejects everything Bonferroni rejects and often more. The zero
	// value: the default correction.
	Holm Correction = iota
	// BenjaminiHochberg is the Benjamini–Hochberg (1995) step-up
	// correction: it controls the false discovery rate for independent
	// (or positively dependent) tests, and is less conservative than Holm.
	BenjaminiHochberg
	// NoCorrection leaves the p-values as they are.
	NoCorrection
)

// String returns the correction's name as R's p.adjust spells its method
// ("holm", "BH", "none").
func (c Correction) String() string {
	switch c {
	case Holm:
		return "holm"
	case BenjaminiHochberg:
		return "BH"
	case NoCorrection:
		return "none"
	}
	return fmt.Sprintf("Correction(%d)", int(c))
}

// AdjustP returns the p-values adjusted for multiple comparisons by method,
// as R's p.adjust(p, method) computes them: NaN p-values (tests that are
// undefined) stay NaN and do not count in the number of tests, and
// adjusted values are capped at 1. The input is not changed.
//
// Holm: with the m defined p-values sorted ascending, p(i) becomes
// max over j ≤ i of min(1, (m − j + 1)·p(j)). Benjamini–Hochberg: p(i)
// becomes min over j ≥ i of min(1, m/j·p(j)).
func AdjustP(p []float64, method Correction) ([]float64, error) {
	out := make([]float64, len(p))
	var idx []int
	for i, v := range p {
		out[i] = v
		if math.IsNaN(v) {
			continue
		}
		if v < 0 || v > 1 {
			return nil, fmt.Errorf("p-value %d is %v, not in [0, 1]", i, v)
		}
		idx = append(idx, i)
	}
	m := float64(len(idx))
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	switch method {
	case NoCorrection:
	case Holm:
		running := 0.0
		for j, i := range idx {
			running = math.Max(running, math.Min(1, (m-float64(j))*p[i]))
			out[i] = running
		}
	case BenjaminiHochberg:
		running := 1.0
		for j := len(idx) - 1; j >= 0; j-- {
			i := idx[j]
			running = math.Min(running, m/float64(j+1)*p[i])
			out[i] = running
		}
	default:
		return nil, fmt.Errorf("unknown correction %v", method)
	}
	return out, nil
}
