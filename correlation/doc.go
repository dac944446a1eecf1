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
// agrees to a few ulps. p-values come from gonum's Cephes incomplete beta
// function where SciPy uses Boost and CDFLIB: on the 25 SciPy golden cases
// (n ≤ 400) they agree to 1.5e-13 relative; beyond n ≈ 1,000 the Cephes
// log-gamma differences limit the relative accuracy of Pearson and Spearman
// p-values to about 5e-15·n (1e-10 at n = 10⁵). Kendall's p-values use erfc
// or exact counts and stay near machine precision.
package correlation
