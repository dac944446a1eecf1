package correlation

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// bruteKendall counts pairs in O(n²) straight from the definitions and
// returns τ-b, τ-c and con − dis, as an independent check of countPairs.
func bruteKendall(x, y []float64) (tauB, tauC float64, conMinusDis int64) {
	n := len(x)
	var con, dis, tiesX, tiesY int64
	for i := range n {
		for j := i + 1; j < n; j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			switch {
			case dx == 0 && dy == 0:
				tiesX++
				tiesY++
			case dx == 0:
				tiesX++
			case dy == 0:
				tiesY++
			case (dx > 0) == (dy > 0):
				con++
			default:
				dis++
			}
		}
	}
	n0 := int64(n) * int64(n-1) / 2
	tauB = float64(con-dis) / math.Sqrt(float64(n0-tiesX)*float64(n0-tiesY))
	m := min(distinct(x), distinct(y))
	tauC = 2 * float64(con-dis) / (float64(n*n) * float64(m-1) / float64(m))
	return tauB, tauC, con - dis
}

func distinct(xs []float64) int {
	seen := map[float64]bool{}
	for _, v := range xs {
		seen[v] = true
	}
	return len(seen)
}

func TestKendallMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 300 {
		n := 2 + rng.IntN(60)
		levels := 1 + rng.IntN(8) // few levels: many ties
		if trial%3 == 0 {
			levels = 1 << 30 // effectively continuous
		}
		x := make([]float64, n)
		y := make([]float64, n)
		for i := range n {
			x[i] = float64(rng.IntN(levels))
			y[i] = float64(rng.IntN(levels))
		}
		b, err := KendallTauB(x, y)
		if err != nil {
			t.Fatal(err)
		}
		c, err := KendallTauC(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if isConstant(x) || isConstant(y) {
			if b.Defined() || c.Defined() || !math.IsNaN(b.P) {
				t.Errorf("trial %d: constant input gave %+v, %+v; want NaN", trial, b, c)
			}
			continue
		}
		wantB, wantC, _ := bruteKendall(x, y)
		if math.Abs(b.Statistic-wantB) > 1e-14 || math.Abs(c.Statistic-wantC) > 1e-14 {
			t.Errorf("trial %d (n=%d): τ-b %v τ-c %v, brute force %v %v", trial, n, b.Statistic, c.Statistic, wantB, wantC)
		}
		if b.P != c.P {
			t.Errorf("trial %d: τ-b p %v differs from τ-c p %v", trial, b.P, c.P)
		}
	}
}

// inversionCounts returns, for n elements, how many permutations have k
// inversions for each k (the Mahonian numbers), exactly.
func inversionCounts(n int) []*big.Int {
	counts := []*big.Int{big.NewInt(1)}
	for j := 2; j <= n; j++ {
		// Inserting element j adds 0..j−1 inversions: next[k] is the sum of
		// counts[k−j+1..k], taken from prefix sums.
		prefix := make([]*big.Int, len(counts)+1)
		prefix[0] = new(big.Int)
		for i, c := range counts {
			prefix[i+1] = new(big.Int).Add(prefix[i], c)
		}
		next := make([]*big.Int, len(counts)+j-1)
		for k := range next {
			hi := min(k+1, len(counts))
			lo := max(0, k-j+1)
			next[k] = new(big.Int).Sub(prefix[hi], prefix[lo])
		}
		counts = next
	}
	return counts
}

// TestKendallExactPMatchesEnumeration checks the exact p-value for every
// possible number of concordant pairs against P(|C − D| ≥ |c − d|) computed
// exactly from the inversion distribution (C = concordant pairs of a random
// permutation, the number of non-inversions).
func TestKendallExactPMatchesEnumeration(t *testing.T) {
	sizes := []int{3, 4, 5, 7, 12, 33, 175}
	if testing.Short() {
		sizes = sizes[:len(sizes)-1] // n = 175 (the scaled branch) takes about a second
	}
	for _, n := range sizes {
		counts := inversionCounts(n)
		tot := int64(n) * int64(n-1) / 2
		total := new(big.Int).MulRange(1, int64(n))
		step := int64(1)
		if n > 40 {
			step = 97 // spot-check the scaled branch (n ≥ 171) over its range
		}
		for c := int64(0); c <= tot; c += step {
			if n > maxExactKendallN {
				break
			}
			s := 2*c - tot // con − dis
			tail := new(big.Int)
			for k := int64(0); k <= tot; k++ {
				if sk := 2*k - tot; sk*sk >= s*s {
					tail.Add(tail, counts[k])
				}
			}
			want, _ := new(big.Rat).SetFrac(tail, total).Float64()
			got, err := kendallExactP(n, c)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-12*math.Max(want, 1e-300) && !(want < 1e-300 && got < 1e-300) {
				t.Errorf("n=%d c=%d: exact p %v, enumeration %v", n, c, got, want)
			}
		}
	}
}

func TestKendallPaths(t *testing.T) {
	perfect := func(n int) ([]float64, []float64) {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i)
		}
		return x, x
	}
	t.Run("large n without discordant pairs is exact: p = 0 beyond 170! as SciPy", func(t *testing.T) {
		x, y := perfect(200)
		res, err := KendallTauB(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if res.Statistic != 1 || res.P != 0 {
			t.Errorf("got %+v, want τ 1 and p 0", res)
		}
	})
	t.Run("one discordant pair at n=40 uses 2/(n−1)!", func(t *testing.T) {
		x, _ := perfect(40)
		y := append([]float64(nil), x...)
		y[0], y[1] = y[1], y[0]
		res, err := KendallTauB(x, y)
		if err != nil {
			t.Fatal(err)
		}
		want := 2 / factorial(39)
		if res.P != want {
			t.Errorf("p %v, want %v", res.P, want)
		}
	})
	t.Run("asymptotic on request", func(t *testing.T) {
		x, y := perfect(10)
		res, err := Kendall(x, y, KendallOptions{Method: KendallAsymptotic})
		if err != nil {
			t.Fatal(err)
		}
		// var(S) = n(n−1)(2n+5)/18 = 125 without ties; S = 45.
		want := math.Erfc(45 / math.Sqrt(125) / math.Sqrt2)
		if math.Abs(res.P-want) > 1e-15 {
			t.Errorf("p %v, want %v", res.P, want)
		}
	})
	t.Run("exact with ties is an error", func(t *testing.T) {
		_, err := Kendall([]float64{1, 1, 2}, []float64{1, 2, 3}, KendallOptions{Method: KendallExact})
		if !errors.Is(err, ErrTiesExact) {
			t.Errorf("err = %v, want ErrTiesExact", err)
		}
	})
	t.Run("exact beyond the size limit is an error", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		x, _ := perfect(maxExactKendallN + 1)
		y := make([]float64, len(x))
		for i, v := range rng.Perm(len(x)) {
			y[i] = float64(v)
		}
		if _, err := Kendall(x, y, KendallOptions{Method: KendallExact}); err == nil {
			t.Error("no error")
		}
	})
	t.Run("bad options", func(t *testing.T) {
		for _, o := range []KendallOptions{{Variant: 7}, {Method: -1}} {
			if _, err := Kendall([]float64{1, 2}, []float64{1, 2}, o); err == nil {
				t.Errorf("%+v: no error", o)
			}
		}
	})
}
