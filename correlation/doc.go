// Package correlation computes the statistics that validate a metric against
// human judgements: Pearson's r, Spearman's ρ, Kendall's τ-b and τ-c and the
// point-biserial r, each with its two-sided p-value, computed as SciPy 1.10
// computes them (scipy.stats.pearsonr, spearmanr, kendalltau and
// pointbiserialr), so that numbers agree with those published by metric papers.
//
// Beyond SciPy it offers what metric evaluation needs next: seeded bootstrap
// percentile confidence intervals for any coefficient (Bootstrap), and the
// Williams test for whether two metrics' correlations with the same human
// scores differ (Williams, WilliamsFromCorrelations), as used in the WMT
// metrics shared tasks.
//
// Inputs must have equal lengths and hold only finite values; anything else
// is an error. A coefficient that SciPy reports as NaN (constant input, too
// few observations) is reported as NaN here too, and Result.Defined tells the
// caller so. All functions are safe for concurrent use. Each function
// documents where it follows a SciPy quirk.
//
// Accuracy: Spearman's ρ and Kendall's τ are bit-identical to SciPy's;
// Pearson's r, computed here with double-double sums where SciPy calls BLAS,
// agrees to a few ulps. p-values use an incomplete beta function that, like
// SciPy's Boost and CDFLIB code, takes both x and 1 − x and avoids
// log-gamma differences; its relative accuracy is about 1e-13, checked up
// to n = 10⁵ (on the 25 SciPy golden cases the p-values agree to 5e-14).
// Kendall's p-values use erfc or exact counts.
//
// ReadColumns reads the judgements and scores from a CSV's named columns;
// Summarize computes every coefficient at once (what the storyeval
// correlate command prints) and BootstrapSummary their intervals.
package correlation
