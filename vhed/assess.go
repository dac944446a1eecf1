package vhed

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/correlation"
)

// AssessOptions configures Assess and AssessPredictions. The zero value
// gives the breakdown of Hsu et al. (ACL 2022): Ω^3, Ω^4 and Ω^5 with
// agreement exactly k and their union Ω^{4,5}, the reference–machine /
// machine–machine split on Ω^{4,5}, buckets of the normalised ranking gap
// |rank_norm| with edges 0, 0.1, 0.2, 0.3, references recognised by
// IsReferenceModel, and no bootstrap intervals.
type AssessOptions struct {
	// Agreements are the k of the subsets Ω^k = {pairs with Agreement = k}:
	// "Ω^k denotes a sub-dataset containing story pairs with human
	// agreement = k" (paper §3, "Worker Ranking Analysis"; Table 2's
	// shares of Ω^3, Ω^4, Ω^5 add to 100 %) (nil: 3, 4, 5).
	Agreements []int
	// Union lists the agreements whose pairs form the union subset, Ω^{4,5}
	// of Table 4 (nil: 4, 5).
	Union []int
	// SplitAllPairs splits reference–machine, machine–machine and
	// reference–reference pairs over all pairs instead of over the Union
	// subset, on which Table 4 (right) reports R&M and M&M.
	SplitAllPairs bool
	// GapEdges are the increasing lower edges of the ranking-gap buckets:
	// bucket i holds the pairs with GapEdges[i] ≤ g < GapEdges[i+1], the
	// last one those with g ≥ its edge, where g is |RankNorm| (or |Gap|
	// with RawGap). nil: 0, 0.1, 0.2, 0.3 on |rank_norm|, and 0, 1, 2, 3
	// on |Gap| with RawGap. The paper analyses accuracy by the normalised
	// gap (Table 2, Figure 3: Ω^3, Ω^4 and Ω^5 have mean gaps 0.123, 0.247
	// and 0.416, and it discusses pairs with a gap over 0.3); buckets of
	// width 0.1 up to "over 0.3" are this package's reading of those
	// figures, not edges the paper prints.
	GapEdges []float64
	// RawGap buckets pairs by the unnormalised gap |Gap| (the difference
	// of average ranks) instead of |RankNorm|.
	RawGap bool
	// IsReference tells whether a model name denotes a human reference
	// story (nil: IsReferenceModel).
	IsReference func(model string) bool
	// Intervals adds percentile bootstrap confidence intervals to every
	// accuracy, drawn with correlation.Bootstrap and the options in
	// Bootstrap (zero: 9,999 resamples, 95 %, seed 0).
	Intervals bool
	Bootstrap correlation.BootstrapOptions
}

// The defaults of AssessOptions (see there).
var (
	assessDefaultAgreements  = [...]int{3, 4, 5}
	assessDefaultUnion       = [...]int{4, 5}
	assessDefaultNormEdges   = [...]float64{0, 0.1, 0.2, 0.3}
	assessDefaultRawGapEdges = [...]float64{0, 1, 2, 3}
)

// Accuracy is a story-pair ranking accuracy (paper eq. 1–2): the fraction
// of pairs whose predicted order is strict and agrees with the human
// order.
type Accuracy struct {
	// Correct and Total count the pairs.
	Correct, Total int
	// Value is Correct/Total, NaN (undefined) when Total is 0.
	Value float64
	// Low and High bound the bootstrap confidence interval of Value when
	// AssessOptions.Intervals is set; NaN otherwise or when Total is 0.
	Low, High float64
}

// OmegaAccuracy is the accuracy on Ω^K, the pairs on which exactly K
// annotators agree (paper §3, Table 2; Table 4).
type OmegaAccuracy struct {
	K int
	Accuracy
}

// OmegaUnionAccuracy is the accuracy on the union of the Ω^k for k in Ks,
// such as Ω^{4,5} (paper Table 4).
type OmegaUnionAccuracy struct {
	Ks []int
	Accuracy
}

// BucketAccuracy is the accuracy on the pairs with MinGap ≤ g < MaxGap
// (MaxGap is +Inf for the last bucket), g the normalised or raw absolute
// ranking gap (paper Table 2, Figure 3).
type BucketAccuracy struct {
	MinGap, MaxGap float64
	Accuracy
}

// AssessOutrank compares, over the reference–machine pairs, how often the
// machine story outranks its human reference — the paper's ratio of
// machine stories ranked above their references, by annotators and by a
// metric.
type AssessOutrank struct {
	// Pairs is the number of reference–machine pairs, human ties included.
	Pairs int
	// Human counts the pairs whose human gap puts the machine story
	// strictly first, Predicted those whose prediction does.
	Human, Predicted int
	// HumanRatio and PredictedRatio are Human/Pairs and Predicted/Pairs
	// (NaN when Pairs is 0).
	HumanRatio, PredictedRatio float64
}

// AssessReport is the assessment of one scorer on a set of VHED pairs.
//
// Accuracy follows eq. 1–2 of Hsu et al. (ACL 2022): a pair is correct iff
// the predicted order is strict and agrees with the human order (the sign
// of Pair.Gap, from the average ranks), so predicted ties are wrong.
// Pairs whose human gap is 0 have no human order and are left out of every
// accuracy; HumanTies counts them. A quantity without pairs to define it
// is NaN (undefined), never an error.
type AssessReport struct {
	// Pairs is the number of pairs with a human order (gap ≠ 0).
	Pairs int
	// HumanTies counts the pairs left out because their human gap is 0.
	HumanTies int
	// PredictedTies counts assessed pairs predicted as a tie (gap 0), and
	// Undecided those with a NaN prediction; both are wrong.
	PredictedTies, Undecided int
	// Overall is the accuracy on all assessed pairs (eq. 1–2).
	Overall Accuracy
	// Omega holds the accuracy on each Ω^k (agreement exactly k), in the
	// order of AssessOptions.Agreements (Table 4).
	Omega []OmegaAccuracy
	// OmegaUnion is the accuracy on the union subset, Ω^{4,5} by default
	// (Table 4).
	OmegaUnion OmegaUnionAccuracy
	// Buckets holds the accuracy per ranking-gap bucket (Table 2, Figure 3).
	Buckets []BucketAccuracy
	// SplitAllPairs tells whether ReferenceMachine, MachineMachine and
	// ReferenceReference cover all pairs (AssessOptions.SplitAllPairs)
	// rather than the OmegaUnion subset.
	SplitAllPairs bool
	// ReferenceMachine, MachineMachine and ReferenceReference split the
	// pairs of the OmegaUnion subset (Table 4 right: R&M, M&M), or all
	// pairs with SplitAllPairs, by how many of their two stories are human
	// references.
	ReferenceMachine, MachineMachine, ReferenceReference Accuracy
	// Outrank is the ratio of machine stories that outrank their human
	// reference, by the annotators and by the scorer, over all
	// reference–machine pairs.
	Outrank AssessOutrank
	// rawGap records AssessOptions.RawGap, for the figures' axis.
	rawGap bool
	// ErrorGap is the point-biserial correlation between the binary error
	// label of each assessed pair (1: ranked wrongly) and its absolute
	// human ranking gap |Gap|; a human-like scorer errs on close pairs,
	// which makes it negative (the paper's point-biserial analysis of
	// errors against ranking gaps). NaN (undefined) with fewer than
	// two assessed pairs or when the scorer is always or never wrong.
	ErrorGap correlation.Result
}

// RawGap reports whether the gap buckets are on the raw ranking gap
// (AssessOptions.RawGap) rather than rank_norm, for a figure's axis.
func (r AssessReport) RawGap() bool { return r.rawGap }

// Assess scores pairs with scorer and assesses the predictions (see
// AssessPredictions).
func Assess(ctx context.Context, pairs []Pair, scorer AssessPairScorer, opts AssessOptions) (AssessReport, error) {
	pred, err := scorer.ScorePairs(ctx, pairs)
	if err != nil {
		return AssessReport{}, err
	}
	return AssessPredictions(pairs, pred, opts)
}

// AssessPredictions assesses predicted gaps, one per pair in input order,
// against the human gaps (see AssessReport for the definitions).
func AssessPredictions(pairs []Pair, predicted []float64, opts AssessOptions) (AssessReport, error) {
	rep := AssessReport{SplitAllPairs: opts.SplitAllPairs, rawGap: opts.RawGap}
	if len(predicted) != len(pairs) {
		return rep, fmt.Errorf("%d predictions for %d pairs", len(predicted), len(pairs))
	}
	agreements := opts.Agreements
	if agreements == nil {
		agreements = assessDefaultAgreements[:]
	}
	union := opts.Union
	if union == nil {
		union = assessDefaultUnion[:]
	}
	edges := opts.GapEdges
	if edges == nil {
		edges = assessDefaultNormEdges[:]
		if opts.RawGap {
			edges = assessDefaultRawGapEdges[:]
		}
	}
	if err := assessCheckEdges(edges); err != nil {
		return rep, err
	}
	isRef := opts.IsReference
	if isRef == nil {
		isRef = IsReferenceModel
	}

	// Per-subset 0/1 outcomes, kept for the bootstrap.
	var (
		overall, inUnion []float64
		omega            = make([][]float64, len(agreements))
		buckets          = make([][]float64, len(edges))
		split            [3][]float64 // by number of references: M&M, R&M, R&R
		wrong            []bool
		absGap           []float64
	)
	for i, p := range pairs {
		pr := predicted[i]
		nRef := 0
		if isRef(p.Model1) {
			nRef++
		}
		if isRef(p.Model2) {
			nRef++
		}
		if nRef == 1 {
			rep.Outrank.add(isRef(p.Model2), p.Gap, pr)
		}
		if p.Gap == 0 {
			rep.HumanTies++
			continue
		}
		rep.Pairs++
		switch {
		case math.IsNaN(pr):
			rep.Undecided++
		case pr == 0:
			rep.PredictedTies++
		}
		ok := assessCorrect(p.Gap, pr)
		x := 0.0
		if ok {
			x = 1
		}
		overall = append(overall, x)
		for j, k := range agreements {
			if p.Agreement == k {
				omega[j] = append(omega[j], x)
			}
		}
		u := slices.Contains(union, p.Agreement)
		if u {
			inUnion = append(inUnion, x)
		}
		g := math.Abs(p.RankNorm)
		if opts.RawGap {
			g = math.Abs(p.Gap)
		}
		if b := assessBucketOf(edges, g); b >= 0 {
			buckets[b] = append(buckets[b], x)
		}
		if u || opts.SplitAllPairs {
			split[nRef] = append(split[nRef], x)
		}
		wrong = append(wrong, !ok)
		absGap = append(absGap, math.Abs(p.Gap))
	}
	rep.Outrank.HumanRatio = assessRatio(rep.Outrank.Human, rep.Outrank.Pairs)
	rep.Outrank.PredictedRatio = assessRatio(rep.Outrank.Predicted, rep.Outrank.Pairs)

	acc := func(xs []float64) (Accuracy, error) { return assessAccuracy(xs, opts) }
	var err error
	if rep.Overall, err = acc(overall); err != nil {
		return rep, err
	}
	rep.Omega = make([]OmegaAccuracy, len(agreements))
	for j, k := range agreements {
		rep.Omega[j].K = k
		if rep.Omega[j].Accuracy, err = acc(omega[j]); err != nil {
			return rep, err
		}
	}
	rep.OmegaUnion.Ks = slices.Clone(union)
	if rep.OmegaUnion.Accuracy, err = acc(inUnion); err != nil {
		return rep, err
	}
	rep.Buckets = make([]BucketAccuracy, len(edges))
	for b := range edges {
		rep.Buckets[b].MinGap = edges[b]
		rep.Buckets[b].MaxGap = math.Inf(1)
		if b+1 < len(edges) {
			rep.Buckets[b].MaxGap = edges[b+1]
		}
		if rep.Buckets[b].Accuracy, err = acc(buckets[b]); err != nil {
			return rep, err
		}
	}
	for n, a := range []*Accuracy{&rep.MachineMachine, &rep.ReferenceMachine, &rep.ReferenceReference} {
		if *a, err = acc(split[n]); err != nil {
			return rep, err
		}
	}
	rep.ErrorGap = correlation.Result{Statistic: math.NaN(), P: math.NaN()}
	// One assessed pair defines no correlation: undefined, not an error.
	if len(wrong) >= 2 {
		if rep.ErrorGap, err = correlation.PointBiserial(wrong, absGap); err != nil {
			return rep, fmt.Errorf("error–gap correlation: %w", err)
		}
	}
	return rep, nil
}

// add counts one reference–machine pair; machineFirst tells whether the
// machine story is story 1. The machine story wins when the gap favours
// its side.
func (o *AssessOutrank) add(machineFirst bool, human, predicted float64) {
	o.Pairs++
	if (machineFirst && human < 0) || (!machineFirst && human > 0) {
		o.Human++
	}
	if (machineFirst && predicted < 0) || (!machineFirst && predicted > 0) {
		o.Predicted++
	}
}

// assessCheckEdges rejects bucket edges that are not finite and increasing.
func assessCheckEdges(edges []float64) error {
	for i, e := range edges {
		if math.IsNaN(e) || math.IsInf(e, 0) {
			return fmt.Errorf("gap bucket edge %v is not finite", e)
		}
		if i > 0 && !(e > edges[i-1]) {
			return fmt.Errorf("gap bucket edges %v are not increasing", edges)
		}
	}
	return nil
}

// assessCorrect is eq. 1–2 of the Vrank paper for one pair: the prediction
// must be strict (non-zero, not NaN) and of the human gap's sign.
func assessCorrect(human, predicted float64) bool {
	return (human < 0 && predicted < 0) || (human > 0 && predicted > 0)
}

// assessBucketOf returns the bucket of g, or -1 below the first edge.
func assessBucketOf(edges []float64, g float64) int {
	b := -1
	for i, e := range edges {
		if g >= e {
			b = i
		}
	}
	return b
}

func assessRatio(n, d int) float64 {
	if d == 0 {
		return math.NaN()
	}
	return float64(n) / float64(d)
}

// assessMean is the accuracy of 0/1 outcomes as a correlation.Coefficient,
// so that correlation.Bootstrap can resample it; y is ignored.
func assessMean(x, _ []float64) (correlation.Result, error) {
	if len(x) == 0 {
		return correlation.Result{Statistic: math.NaN(), P: math.NaN()}, nil
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return correlation.Result{Statistic: s / float64(len(x)), P: math.NaN()}, nil
}

// assessAccuracy summarises 0/1 outcomes, with a bootstrap interval when
// asked for.
func assessAccuracy(xs []float64, opts AssessOptions) (Accuracy, error) {
	a := Accuracy{Total: len(xs), Value: math.NaN(), Low: math.NaN(), High: math.NaN()}
	for _, x := range xs {
		if x == 1 {
			a.Correct++
		}
	}
	if a.Total == 0 {
		return a, nil
	}
	a.Value = float64(a.Correct) / float64(a.Total)
	if opts.Intervals {
		iv, err := correlation.Bootstrap(xs, xs, assessMean, opts.Bootstrap)
		if err != nil {
			return a, fmt.Errorf("bootstrap of an accuracy: %w", err)
		}
		a.Low, a.High = iv.Low, iv.High
	}
	return a, nil
}

// IsReferenceModel reports whether a VHED model name denotes a human
// reference story: "human", "gt", "groundtruth", "ground_truth",
// "reference" or "ref", in any case. Pass another function in
// AssessOptions.IsReference for other names.
func IsReferenceModel(model string) bool {
	switch strings.ToLower(strings.TrimSpace(model)) {
	case "human", "gt", "groundtruth", "ground_truth", "reference", "ref":
		return true
	}
	return false
}
