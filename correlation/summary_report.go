package correlation

import "context"

// NewSummaryReport is Summarize of x and y and, when bootstrap.Resamples
// is positive, BootstrapSummary of them with those options (whose
// Progress, when set, is called 4 × Resamples times): the whole report
// that SummaryReport.Write prints. Errors are those of the two calls.
func NewSummaryReport(ctx context.Context, x, y []float64, bootstrap BootstrapOptions) (SummaryReport, error) {
	sum, err := Summarize(x, y)
	if err != nil || bootstrap.Resamples <= 0 {
		return SummaryReport{Summary: sum}, err
	}
	iv, err := BootstrapSummary(ctx, x, y, bootstrap)
	if err != nil {
		return SummaryReport{}, err
	}
	return SummaryReport{Summary: sum, Intervals: &iv, Bootstrap: bootstrap}, nil
}
