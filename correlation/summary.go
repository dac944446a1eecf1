package correlation

import "context"

// Summary holds every coefficient of the package for one pair of samples,
// as a metric paper reports them against human judgements.
type Summary struct {
	// N is the number of observations.
	N int
	// Pearson, Spearman, KendallB and KendallC are the coefficients with
	// their two-sided p-values, as the functions of the same names.
	Pearson, Spearman, KendallB, KendallC Result
	// PointBiserial is the point-biserial r (PointBiserial) when x holds
	// only 0 and 1, such as error labels; nil otherwise.
	PointBiserial *Result
}

// Summarize computes the Summary of x (such as human judgements) and y
// (such as a metric's scores). Errors are those of the coefficients: unequal
// lengths, a value that is not finite, fewer than two observations.
func Summarize(x, y []float64) (Summary, error) {
	s := Summary{N: len(x)}
	dst := [...]*Result{&s.Pearson, &s.Spearman, &s.KendallB, &s.KendallC}
	for i, coef := range summaryCoefficients() {
		r, err := coef(x, y)
		if err != nil {
			return s, err
		}
		*dst[i] = r
	}
	binary := make([]bool, len(x))
	for i, v := range x {
		if v != 0 && v != 1 {
			return s, nil // not binary: no point-biserial
		}
		binary[i] = v == 1
	}
	pb, err := PointBiserial(binary, y)
	if err != nil {
		return s, err
	}
	s.PointBiserial = &pb
	return s, nil
}

// SummaryIntervals holds a bootstrap interval for each coefficient of a
// Summary; the point-biserial r is Pearson's r on 0/1 data, so Pearson's
// interval is its interval too.
type SummaryIntervals struct {
	Pearson, Spearman, KendallB, KendallC Interval
}

// BootstrapSummary bootstraps the four coefficients of Summarize with the
// same options, so that, with the same seed, each is computed on the same
// resamples. opts.Progress, when set, is called once per resample of each
// coefficient (4 × Resamples calls).
func BootstrapSummary(ctx context.Context, x, y []float64, opts BootstrapOptions) (SummaryIntervals, error) {
	var out SummaryIntervals
	dst := [...]*Interval{&out.Pearson, &out.Spearman, &out.KendallB, &out.KendallC}
	for i, coef := range summaryCoefficients() {
		iv, err := BootstrapContext(ctx, x, y, coef, opts)
		if err != nil {
			return SummaryIntervals{}, err
		}
		*dst[i] = iv
	}
	return out, nil
}

// summaryCoefficients lists the coefficients of a Summary in the order
// they are computed and printed.
func summaryCoefficients() [4]Coefficient {
	return [4]Coefficient{Pearson, Spearman, KendallTauB, KendallTauC}
}
