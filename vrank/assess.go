package vrank

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/storyeval/storyeval/correlation"
)

// AssessOptions configures Assess and AssessPredictions. The zero value
// gives the paper's breakdown: Ω^3, Ω^4 and Ω^5, ranking-gap buckets of
// width 1 on the unnormalised gap, references recognised by
// VHEDIsReferenceModel, and no bootstrap intervals.
type AssessOptions struct {
	// Agreements are the k of the subsets Ω^k = {pairs with Agreement ≥ k}
	// (nil: 3, 4, 5).
	Agreements []int
	// GapEdges are the increasing lower edges of the ranking-gap buckets:
	// bucket i holds the pairs with GapEdges[i] ≤ |gap| < GapEdges[i+1],
	// the last one those with |gap| ≥ its edge (nil: 0, 1, 2, 3).
	GapEdges []float64
	// NormalizedGap buckets pairs by |RankNorm| instead of |Gap|.
	NormalizedGap bool
	// IsReference tells whether a model name denotes a human reference
	// story (nil: VHEDIsReferenceModel).
	IsReference func(model string) bool
	// Intervals adds percentile bootstrap confidence intervals to every
	// accuracy, drawn with correlation.Bootstrap and the options in
	// Bootstrap (zero: 9,999 resamples, 95 %, seed 0).
	Intervals bool
	Bootstrap correlation.BootstrapOptions
}

// assessDefaultAgreements and assessDefaultGapEdges are the defaults of
// AssessOptions; the paper reports Ω^3..Ω^5, and VHED's unnormalised gaps
// run from 0.2 to a few ranks.
var (
	assessDefaultAgreements = [...]int{3, 4, 5}
	assessDefaultGapEdges   = [...]float64{0, 1, 2, 3}
)

// Accuracy is a story-pair ranking accuracy: the fraction of pairs whose
// predicted order is strict and agrees with the human order.
type Accuracy struct {
	// Correct and Total count the pairs.
	Correct, Total int
	// Value is Correct/Total, NaN when Total is 0.
	Value float64
	// Low and High bound the bootstrap confidence interval of Value when
	// AssessOptions.Intervals is set; NaN otherwise or when Total is 0.
	Low, High float64
}

// OmegaAccuracy is the accuracy on Ω^k, the pairs on which at least K
// annotators agree.
type OmegaAccuracy struct {
	K int
	Accuracy
}

// BucketAccuracy is the accuracy on the pairs with MinGap ≤ |gap| <
// MaxGap (MaxGap is +Inf for the last bucket).
type BucketAccuracy struct {
	MinGap, MaxGap float64
	Accuracy
}

// AssessOutrank compares, over the reference–machine pairs, how often the
// machine story outranks its human reference.
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
// the predicted order is strict and agrees with the human order, so
// predicted ties are wrong. Pairs whose human gap is 0 have no human order
// and are left out of every accuracy; HumanTies counts them.
type AssessReport struct {
	// Pairs is the number of pairs with a human order (gap ≠ 0).
	Pairs int
	// HumanTies counts the pairs left out because their human gap is 0.
	HumanTies int
	// PredictedTies counts assessed pairs predicted as a tie (gap 0), and
	// Undecided those with a NaN prediction; both are wrong.
	PredictedTies, Undecided int
	// Overall is the accuracy on all assessed pairs.
	Overall Accuracy
	// Omega holds the accuracy on each Ω^k, in the order of
	// AssessOptions.Agreements.
	Omega []OmegaAccuracy
	// Buckets holds the accuracy per ranking-gap bucket.
	Buckets []BucketAccuracy
	// ReferenceMachine, MachineMachine and ReferenceReference split the
	// pairs by how many of their two stories are human references.
	ReferenceMachine, MachineMachine, ReferenceReference Accuracy
	// Outrank is the ratio of machine stories that outrank their human
	// reference, by the annotators and by the scorer.
	Outrank AssessOutrank
	// ErrorGap is the point-biserial correlation between the binary error
	// label of each assessed pair (1: ranked wrongly) and its absolute
	// human ranking gap; a human-like scorer errs on close pairs, which
	// makes it negative. NaN when the scorer is always or never wrong.
	ErrorGap correlation.Result
}

// Assess scores pairs with scorer and assesses the predictions (see
// AssessPredictions).
func Assess(ctx context.Context, pairs []VHEDPair, scorer AssessPairScorer, opts AssessOptions) (AssessReport, error) {
	pred, err := scorer.ScorePairs(ctx, pairs)
	if err != nil {
		return AssessReport{}, err
	}
	return AssessPredictions(pairs, pred, opts)
}

// AssessPredictions assesses predicted gaps, one per pair in input order,
// against the human gaps (see AssessReport for the definitions).
func AssessPredictions(pairs []VHEDPair, predicted []float64, opts AssessOptions) (AssessReport, error) {
	var rep AssessReport
	if len(predicted) != len(pairs) {
		return rep, fmt.Errorf("vrank: %d predictions for %d pairs", len(predicted), len(pairs))
	}
	agreements := opts.Agreements
	if agreements == nil {
		agreements = assessDefaultAgreements[:]
	}
	edges := opts.GapEdges
	if edges == nil {
		edges = assessDefaultGapEdges[:]
	}
	for i := 1; i < len(edges); i++ {
		if !(edges[i] > edges[i-1]) {
			return rep, fmt.Errorf("vrank: gap bucket edges %v are not increasing", edges)
		}
	}
	for _, e := range edges {
		if math.IsNaN(e) || math.IsInf(e, 0) {
			return rep, fmt.Errorf("vrank: gap bucket edge %v is not finite", e)
		}
	}
	isRef := opts.IsReference
	if isRef == nil {
		isRef = VHEDIsReferenceModel
	}

	// Per-subset 0/1 outcomes, kept for the bootstrap.
	var (
		overall         []float64
		omega           = make([][]float64, len(agreements))
		buckets         = make([][]float64, len(edges))
		refMach, machMa []float64
		refRef          []float64
		wrong           []bool
		absGap          []float64
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
			// The machine story wins when the gap favours its side.
			machineFirst := isRef(p.Model2)
			rep.Outrank.Pairs++
			if (machineFirst && p.Gap < 0) || (!machineFirst && p.Gap > 0) {
				rep.Outrank.Human++
			}
			if (machineFirst && pr < 0) || (!machineFirst && pr > 0) {
				rep.Outrank.Predicted++
			}
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
			if p.Agreement >= k {
				omega[j] = append(omega[j], x)
			}
		}
		g := math.Abs(p.Gap)
		if opts.NormalizedGap {
			g = math.Abs(p.RankNorm)
		}
		if b := assessBucketOf(edges, g); b >= 0 {
			buckets[b] = append(buckets[b], x)
		}
		switch nRef {
		case 0:
			machMa = append(machMa, x)
		case 1:
			refMach = append(refMach, x)
		default:
			refRef = append(refRef, x)
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
	if rep.ReferenceMachine, err = acc(refMach); err != nil {
		return rep, err
	}
	if rep.MachineMachine, err = acc(machMa); err != nil {
		return rep, err
	}
	if rep.ReferenceReference, err = acc(refRef); err != nil {
		return rep, err
	}
	rep.ErrorGap = correlation.Result{Statistic: math.NaN(), P: math.NaN()}
	if len(wrong) > 0 {
		if rep.ErrorGap, err = correlation.PointBiserial(wrong, absGap); err != nil {
			return rep, fmt.Errorf("vrank: error–gap correlation: %w", err)
		}
	}
	return rep, nil
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
			return a, fmt.Errorf("vrank: bootstrap of an accuracy: %w", err)
		}
		a.Low, a.High = iv.Low, iv.High
	}
	return a, nil
}

// VHEDIsReferenceModel reports whether a VHED model name denotes a human
// reference story: "human", "gt", "groundtruth", "ground_truth",
// "reference" or "ref", in any case. Pass another function in
// AssessOptions.IsReference for other names.
func VHEDIsReferenceModel(model string) bool {
	switch strings.ToLower(strings.TrimSpace(model)) {
	case "human", "gt", "groundtruth", "ground_truth", "reference", "ref":
		return true
	}
	return false
}
