package correlation

import (
	"math"

	"github.com/storyeval/storyeval/internal/pairwise"
)

// Spearman returns Spearman's rank correlation ρ of x and y (Pearson's r of
// their average ranks, ties sharing the mean rank) with the two-sided p-value
// from Student's t with n − 2 degrees of freedom, as scipy.stats.spearmanr.
//
// Matches the reference implementation, which returns NaN (not an error) for
// fewer than two observations and for constant x or y, and a NaN p-value for
// two observations (zero degrees of freedom).
func Spearman(x, y []float64) (Result, error) {
	if err := checkPaired("Spearman", x, y); err != nil {
		return Result{}, err
	}
	n := len(x)
	if n <= 1 || isConstant(x) || isConstant(y) {
		return undefined, nil
	}
	rho := rankCorrelation(averageRanks(x), averageRanks(y))
	dof := float64(n - 2)
	// t = ρ·√(dof/((ρ+1)(1−ρ))), the ratio clipped at 0 as SciPy does;
	// ρ = ±1 gives t = ±Inf and p = 0.
	ratio := dof / ((rho + 1.0) * (1.0 - rho))
	if ratio < 0 {
		ratio = 0
	}
	t := rho * math.Sqrt(ratio)
	return Result{Statistic: rho, P: studentTwoSidedP(dof, t)}, nil
}

// rankCorrelation is Pearson's r of two rank vectors computed in the order
// of numpy.corrcoef, which spearmanr calls: covariances scaled by 1/(n−1),
// the cross term divided by the second then the first standard deviation,
// clipped to [−1, 1]. Ranks are multiples of ½, so the sums are exact for
// n up to about 10⁵·⁵ and ρ is bit-identical to SciPy's.
func rankCorrelation(rx, ry []float64) float64 {
	mx := pairwise.Mean(rx)
	my := pairwise.Mean(ry)
	var sxx, syy, sxy float64
	for i := range rx {
		dx := rx[i] - mx
		dy := ry[i] - my
		sxx += dx * dx
		syy += dy * dy
		sxy += dx * dy
	}
	f := 1 / float64(len(rx)-1)
	sdx := math.Sqrt(sxx * f)
	sdy := math.Sqrt(syy * f)
	return clip1(sxy * f / sdy / sdx)
}
