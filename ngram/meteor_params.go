package ngram

import (
	"fmt"
	"math"
	"strings"
)

// MeteorTask names one of Meteor 1.5's task parameter sets (the jar's -t):
// the English α, β, γ, δ and the scoring weights of the exact, stem,
// synonym and paraphrase stages, as edu.cmu.meteor.util.Constants defines
// them. The empty task is "rank", the jar's default.
type MeteorTask string

// Meteor 1.5's tasks for English (Constants.PARAM_* and WEIGHT_*).
const (
	// MeteorRank is "rank" (WMT ranking): α 0.85, β 0.20, γ 0.60, δ 0.75;
	// weights 1.0, 0.6, 0.8, 0.6. The COCO caption toolkit uses it.
	MeteorRank MeteorTask = "rank"
	// MeteorAdequacy is "adq": α 0.75, β 1.40, γ 0.45, δ 0.70; weights 1.0,
	// 1.0, 0.6, 0.8.
	MeteorAdequacy MeteorTask = "adq"
	// MeteorHTER is "hter": α 0.40, β 1.50, γ 0.35, δ 0.55; weights 1.0,
	// 0.2, 0.6, 0.8. The AREL/MSR VIST evaluation scripts use it.
	MeteorHTER MeteorTask = "hter"
	// MeteorUtil is "util" (translator utility): α 0.65, β 0.1, γ 0.55, δ
	// 0.65; weights 1.0, 0.0, 0.0, 0.8.
	MeteorUtil MeteorTask = "util"
	// MeteorLI is "li" (language-independent): α 0.75, β 1.40, γ 0.70, δ
	// 0.50; weights 1.0, 0.5, 0.5, 0.5.
	MeteorLI MeteorTask = "li"
	// MeteorTune is "tune": α 0.5, β 1.0, γ 0.5, δ 0.5; weights 1.0, 0.5,
	// 0.5, 0.5.
	MeteorTune MeteorTask = "tune"
)

// MeteorTasks lists the supported tasks in the jar's order.
var MeteorTasks = []MeteorTask{MeteorAdequacy, MeteorRank, MeteorHTER, MeteorUtil, MeteorLI, MeteorTune}

// meteorParams are a task's scoring parameters.
type meteorParams struct {
	alpha, beta, gamma, delta float64
	weights                   [4]float64 // exact, stem, synonym, paraphrase
}

// meteorTaskParams are Constants.java's English rows. The stages' weights
// only score: the aligner always searches with 1.0 for exact and 0.5 for the
// other stages (MeteorScorer's "best weights for evaluation").
var meteorTaskParams = map[MeteorTask]meteorParams{
	MeteorAdequacy: {0.75, 1.40, 0.45, 0.70, [4]float64{1.0, 1.0, 0.6, 0.8}},
	MeteorRank:     {0.85, 0.20, 0.60, 0.75, [4]float64{1.0, 0.6, 0.8, 0.6}},
	MeteorHTER:     {0.40, 1.50, 0.35, 0.55, [4]float64{1.0, 0.2, 0.6, 0.8}},
	MeteorUtil:     {0.65, 0.1, 0.55, 0.65, [4]float64{1.0, 0.0, 0.0, 0.8}},
	MeteorLI:       {0.75, 1.40, 0.70, 0.50, [4]float64{1.0, 0.5, 0.5, 0.5}},
	MeteorTune:     {0.5, 1.0, 0.5, 0.5, [4]float64{1.0, 0.5, 0.5, 0.5}},
}

// params returns the parameters of task ("" is rank; names are matched
// in any case, as the jar's Constants.getTaskID does).
func (task MeteorTask) params() (meteorParams, error) {
	if task == "" {
		task = MeteorRank
	}
	p, ok := meteorTaskParams[MeteorTask(strings.ToLower(string(task)))]
	if !ok {
		return p, fmt.Errorf("meteor: unknown task %q (want adq, rank, hter, util, li or tune)", string(task))
	}
	return p, nil
}

// MeteorNormalization is how the jar prepares text before aligning it.
// The zero value is the COCO caption toolkit's -norm.
type MeteorNormalization int

const (
	// MeteorNormalize is -norm: mteval-style punctuation tokenization with
	// the English non-breaking prefixes, then lower case.
	MeteorNormalize MeteorNormalization = iota
	// MeteorNoNormalize is the jar without -norm or -lower: words are the
	// whitespace-separated strings as given, case kept (function words are
	// still looked up in lower case). The AREL/MSR VIST scripts run this.
	MeteorNoNormalize
	// MeteorLowerCase is -lower: lower case only.
	MeteorLowerCase
	// MeteorNormalizeNoPunct is -norm -noPunct: -norm's tokenization, then
	// every character outside the normalizer's letter and digit ranges
	// becomes a space, then lower case.
	MeteorNormalizeNoPunct
)

// compute is MeteorScorer.computeMetrics with p's parameters: weighted
// precision and recall, the alpha-weighted harmonic mean, the fragmentation
// penalty and the score, in the reference's order of floating-point
// operations.
func (p *meteorParams) compute(s *MeteorStats) {
	// Variables, not constants: 1.0-alpha must be rounded in float64 as in
	// Java (0.15000000000000002), not folded exactly.
	alpha, delta, weights := p.alpha, p.delta, p.weights
	testWeightedLength := float64(delta*(s.TestLength-s.TestFunctionWords)) + float64((1.0-delta)*s.TestFunctionWords)
	refWeightedLength := float64(delta*(s.ReferenceLength-s.ReferenceFunctionWords)) + float64((1.0-delta)*s.ReferenceFunctionWords)
	var testWeighted, refWeighted float64
	for i, w := range weights {
		testWeighted += float64(float64(s.TestStageMatchesContent[i]*w) * delta)
	}
	for i, w := range weights {
		refWeighted += float64(float64(s.ReferenceStageMatchesContent[i]*w) * delta)
	}
	for i, w := range weights {
		testWeighted += float64(float64(s.TestStageMatchesFunction[i]*w) * (1.0 - delta))
	}
	for i, w := range weights {
		refWeighted += float64(float64(s.ReferenceStageMatchesFunction[i]*w) * (1.0 - delta))
	}
	s.Precision = testWeighted / testWeightedLength
	s.Recall = refWeighted / refWeightedLength
	s.F1 = float64(2*s.Precision*s.Recall) / (s.Precision + s.Recall)
	s.FMean = 1.0 / (float64((1.0-alpha)/s.Precision) + float64(alpha/s.Recall))
	var frag float64
	if s.TestTotalMatches == s.TestLength && s.ReferenceTotalMatches == s.ReferenceLength && s.Chunks == 1 {
		frag = 0
	} else {
		frag = s.Chunks / ((s.TestWordMatches + s.ReferenceWordMatches) / 2)
	}
	s.FragPenalty = p.gamma * meteorPow(frag, p.beta)
	score := s.FMean * (1.0 - s.FragPenalty)
	switch {
	case math.IsNaN(score):
		s.Score = 0 // "Catch division by zero"
	default:
		s.Score = math.Max(score, 0)
	}
}
