package correlation

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzCoefficients feeds arbitrary pairs of samples (decoded from bytes,
// NaN and Inf included) to every coefficient: none may panic, bad input
// must be an error, and a defined result must lie in range with τ equal to
// the O(n²) count.
func FuzzCoefficients(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 240, 63, 0, 0, 0, 0, 0, 0, 0, 64}, uint8(3))
	f.Add([]byte("0123456789abcdef0123456789abcdef01234567"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, levels uint8) {
		vals := make([]float64, 0, len(data)/8)
		for len(data) >= 8 {
			v := math.Float64frombits(binary.LittleEndian.Uint64(data))
			if levels > 0 && !math.IsNaN(v) && !math.IsInf(v, 0) {
				v = math.Mod(math.Abs(v), float64(levels)) // bucket: many ties
				v = math.Floor(v)
			}
			vals = append(vals, v)
			data = data[8:]
		}
		if len(vals) > 200 {
			vals = vals[:200]
		}
		x, y := vals[:len(vals)/2], vals[len(vals)/2:]
		y = y[:len(x)]
		finite := true
		for _, v := range vals[:2*len(x)] {
			finite = finite && !math.IsNaN(v) && !math.IsInf(v, 0)
		}
		for name, fn := range map[string]Coefficient{"Pearson": Pearson, "Spearman": Spearman, "KendallTauB": KendallTauB, "KendallTauC": KendallTauC} {
			res, err := fn(x, y)
			if !finite {
				if err == nil {
					t.Fatalf("%s accepted non-finite input", name)
				}
				continue
			}
			if err != nil {
				if name == "Pearson" && len(x) < 2 {
					continue
				}
				t.Fatalf("%s: %v", name, err)
			}
			if res.Defined() && !(res.Statistic >= -1 && res.Statistic <= 1) {
				t.Fatalf("%s: statistic %v out of range", name, res.Statistic)
			}
			if !math.IsNaN(res.P) && !(res.P >= 0 && res.P <= 1) {
				t.Fatalf("%s: p %v out of range", name, res.P)
			}
			if name == "KendallTauB" && res.Defined() {
				if want, _, _ := bruteKendall(x, y); math.Abs(res.Statistic-want) > 1e-12 {
					t.Fatalf("τ-b %v, brute force %v", res.Statistic, want)
				}
			}
		}
	})
}

// FuzzRegIncBeta: for any shapes in (0, 1e7] and x in [0, 1] the
// incomplete beta function must return a probability, without NaN or an
// endless continued fraction.
func FuzzRegIncBeta(f *testing.F) {
	f.Add(0.5, 0.5, 0.3)
	f.Add(5e4, 0.5, 0.999999)
	f.Add(5e4, 5e4, 0.5)
	f.Fuzz(func(t *testing.T, a, b, x float64) {
		if !(a > 0 && a <= 1e7 && b > 0 && b <= 1e7 && x >= 0 && x <= 1) {
			return
		}
		got := regIncBeta(a, b, x, 1-x)
		if !(got >= 0 && got <= 1) {
			t.Fatalf("I(%v; %v, %v) = %v", x, a, b, got)
		}
	})
}
