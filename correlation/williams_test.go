package correlation

import (
	"errors"
	"math"
	"math/big"
	"testing"
)

// studentTUpperTailBySimpson integrates Student's t density with df degrees
// of freedom from t to +Inf numerically (as ½ − ∫₀ᵗ f), independently of
// the incomplete beta function used by the package.
func studentTUpperTailBySimpson(df, t float64) float64 {
	logC, _ := math.Lgamma((df + 1) / 2)
	lg, _ := math.Lgamma(df / 2)
	logC -= lg + 0.5*math.Log(df*math.Pi)
	f := func(x float64) float64 { return math.Exp(logC - (df+1)/2*math.Log1p(x*x/df)) }
	const m = 20000 // even number of Simpson intervals
	h := t / m
	s := f(0) + f(t)
	for i := 1; i < m; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(float64(i)*h)
	}
	return 0.5 - s*h/3
}

// TestWilliamsSteigerExample works Steiger's (1980) textbook example
// (n = 103, r12 = .5, r13 = .4, r23 = .1) by hand:
//
//	K   = 1 − .25 − .16 − .01 + 2(.5)(.4)(.1)        = 0.62
//	den = 2(0.62)(102)/100 + ((.9)²/4)(.9)³          = 1.2648 + 0.1476225 = 1.4124225
//	t²  = (.1)²(102)(1.1) / den                      = 1.122 / 1.4124225
//
// so t = 0.89128… with 100 degrees of freedom. t² is evaluated here in exact
// rational arithmetic and the p-values by Simpson integration of the t
// density, neither of which shares code with the implementation.
func TestWilliamsSteigerExample(t *testing.T) {
	res, err := WilliamsFromCorrelations(0.5, 0.4, 0.1, 103)
	if err != nil {
		t.Fatal(err)
	}
	t2 := new(big.Rat).Quo(big.NewRat(1122, 1000), big.NewRat(14124225, 10000000))
	t2f, _ := t2.Float64()
	wantT := math.Sqrt(t2f)
	if math.Abs(res.T-wantT) > 1e-14 || res.DF != 100 {
		t.Errorf("T = %v with %d df, want %v with 100", res.T, res.DF, wantT)
	}
	if math.Abs(wantT-0.8913) > 5e-5 {
		t.Fatalf("hand-derived t %v is not 0.8913", wantT) // guards the derivation above
	}
	wantP := studentTUpperTailBySimpson(100, wantT)
	if math.Abs(res.P-wantP) > 1e-12 || math.Abs(res.PTwoSided-2*wantP) > 1e-12 {
		t.Errorf("p = %v, two-sided %v; Simpson gives %v, %v", res.P, res.PTwoSided, wantP, 2*wantP)
	}
	if math.Abs(res.PTwoSided-0.375) > 0.001 {
		t.Errorf("two-sided p %v, want about 0.375", res.PTwoSided)
	}
}

func TestWilliamsFromData(t *testing.T) {
	human := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	a := []float64{1.1, 2.3, 2.9, 4.2, 4.8, 6.1, 7.3, 7.9, 9.2, 9.8} // close to the humans
	b := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3}                     // unrelated
	res, err := Williams(human, a, b, Pearson)
	if err != nil {
		t.Fatal(err)
	}
	var r [3]float64
	for i, p := range [][2][]float64{{human, a}, {human, b}, {a, b}} {
		c, err := Pearson(p[0], p[1])
		if err != nil {
			t.Fatal(err)
		}
		r[i] = c.Statistic
	}
	want, err := WilliamsFromCorrelations(r[0], r[1], r[2], len(human))
	if err != nil {
		t.Fatal(err)
	}
	if res != want {
		t.Errorf("Williams = %+v, from correlations %+v", res, want)
	}
	if !(res.T > 0 && res.P < 0.05) {
		t.Errorf("metric A should be significantly better: %+v", res)
	}
	// Swapping the metrics negates t; the one-sided p-values sum to 1.
	swapped, err := Williams(human, b, a, Pearson)
	if err != nil {
		t.Fatal(err)
	}
	if swapped.T != -res.T || math.Abs(swapped.P+res.P-1) > 1e-15 || swapped.PTwoSided != res.PTwoSided {
		t.Errorf("swapped %+v vs %+v", swapped, res)
	}
}

func TestWilliamsErrors(t *testing.T) {
	bad := []struct {
		name          string
		r12, r13, r23 float64
		n             int
	}{
		{"n too small", 0.5, 0.4, 0.1, 3},
		{"r out of range", 1.5, 0.4, 0.1, 10},
		{"NaN r", math.NaN(), 0.4, 0.1, 10},
		{"not a correlation matrix", 0.9, -0.9, 0.9, 10},
	}
	for _, b := range bad {
		if _, err := WilliamsFromCorrelations(b.r12, b.r13, b.r23, b.n); err == nil {
			t.Errorf("%s: no error", b.name)
		}
	}
	if _, err := Williams([]float64{1, 2, 3, 4}, []float64{1, 1, 1, 1}, []float64{1, 3, 2, 4}, Pearson); err == nil {
		t.Error("constant metric: no error")
	}
	if _, err := Williams([]float64{1, 2, 3, 4}, []float64{1, 2}, []float64{1, 3, 2, 4}, Pearson); err == nil {
		t.Error("length mismatch: no error")
	}
	// Identical metrics: 0/0, reported as NaN.
	res, err := WilliamsFromCorrelations(0.5, 0.5, 1, 10)
	if err != nil || !math.IsNaN(res.T) || !math.IsNaN(res.P) || !math.IsNaN(res.PTwoSided) {
		t.Errorf("identical metrics: %+v, %v; want NaN", res, err)
	}
}

// A constant metric leaves its correlation with the human scores, and so
// the test, undefined: an *UndefinedError naming the correlation.
func TestWilliamsUndefined(t *testing.T) {
	human := []float64{1, 2, 3, 4, 5}
	varying := []float64{2, 1, 4, 3, 5}
	constant := []float64{3, 3, 3, 3, 3}
	_, err := Williams(human, varying, constant, Pearson)
	var ue *UndefinedError
	if !errors.As(err, &ue) || ue.What != "the correlation of human and metric B" || ue.Why != "constant input" {
		t.Fatalf("err = %v, want an UndefinedError of the correlation of human and metric B", err)
	}
	if got, want := err.Error(), "correlation.Williams: the correlation of human and metric B is undefined (constant input)"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	if _, err := Williams(human, varying, human, Pearson); errors.As(err, &ue) {
		t.Errorf("defined correlations: err = %v", err)
	}
}
