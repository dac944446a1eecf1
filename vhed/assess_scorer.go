package vhed

import (
	"context"
	"fmt"
)

// AssessPairScorer is anything that predicts, for each story pair, a
// ranking gap with the sign convention of VHED's label: a prediction < 0
// means story 1 is the better story, > 0 story 2, and 0 is a tie. Only the
// sign is assessed. A NaN prediction means the scorer cannot decide the
// pair (see RefAbsentScorer); it is counted as wrong.
//
// The Vrank model is one through AssessGapFunc, a per-story metric through
// AssessStoryFunc (or AssessStoryScorer, when it needs the images), a
// reference-based metric through RefAbsentScorer or
// AssessRefScorer, and predictions computed elsewhere through
// AssessFixedGaps.
type AssessPairScorer interface {
	// ScorePairs returns one prediction per pair, in input order.
	ScorePairs(ctx context.Context, pairs []Pair) ([]float64, error)
}

// AssessGapFunc adapts a pairwise gap predictor, such as the Vrank model's
// Predict method value, to AssessPairScorer: it receives the stories 1 and
// 2 of all pairs and returns one predicted gap per pair (< 0: story 1 is
// better).
type AssessGapFunc func(ctx context.Context, story1, story2 []string) ([]float64, error)

// ScorePairs implements AssessPairScorer.
func (f AssessGapFunc) ScorePairs(ctx context.Context, pairs []Pair) ([]float64, error) {
	s1 := make([]string, len(pairs))
	s2 := make([]string, len(pairs))
	for i, p := range pairs {
		s1[i], s2[i] = p.Story1, p.Story2
	}
	gaps, err := f(ctx, s1, s2)
	if err != nil {
		return nil, err
	}
	if len(gaps) != len(pairs) {
		return nil, fmt.Errorf("gap predictor returned %d predictions for %d pairs", len(gaps), len(pairs))
	}
	return gaps, nil
}

// AssessStoryFunc adapts a per-story metric (RoViST, GROOViST, a reference-
// free score) to AssessPairScorer. It receives stories and returns one
// score per story, HIGHER meaning better, as all metrics of this library
// do; a metric where lower is better must be negated first. Each distinct
// text is scored once, and a pair's prediction is score(story 2) −
// score(story 1), negative when story 1 scores higher, so equal scores are
// a tie.
type AssessStoryFunc func(ctx context.Context, stories []string) ([]float64, error)

// ScorePairs implements AssessPairScorer.
func (f AssessStoryFunc) ScorePairs(ctx context.Context, pairs []Pair) ([]float64, error) {
	texts := func(p Pair) (string, string) { return p.Story1, p.Story2 }
	return assessStoryGaps(ctx, pairs, texts, f, "story metric")
}

// assessStoryGaps scores each distinct story of pairs once, in order of
// first appearance (stories tells a pair's two stories apart), and returns
// score(story 2) − score(story 1) per pair; what names the scorer in the
// error for a wrong number of scores.
func assessStoryGaps[S comparable](ctx context.Context, pairs []Pair, stories func(Pair) (S, S),
	score func(context.Context, []S) ([]float64, error), what string) ([]float64, error) {
	index := make(map[S]int)
	var distinct []S
	idx := func(s S) int {
		i, ok := index[s]
		if !ok {
			i = len(distinct)
			index[s] = i
			distinct = append(distinct, s)
		}
		return i
	}
	i1 := make([]int, len(pairs))
	i2 := make([]int, len(pairs))
	for i, p := range pairs {
		s1, s2 := stories(p)
		i1[i], i2[i] = idx(s1), idx(s2)
	}
	scores, err := score(ctx, distinct)
	if err != nil {
		return nil, err
	}
	if len(scores) != len(distinct) {
		return nil, fmt.Errorf("%s returned %d scores for %d stories", what, len(scores), len(distinct))
	}
	gaps := make([]float64, len(pairs))
	for i := range pairs {
		gaps[i] = scores[i2[i]] - scores[i1[i]]
	}
	return gaps, nil
}

// AssessFixedGaps holds predictions computed elsewhere (for example a
// column of a CSV), one per pair in the order of the pairs, with the sign
// convention of AssessPairScorer.
type AssessFixedGaps []float64

// ScorePairs implements AssessPairScorer; it returns a copy of g.
func (g AssessFixedGaps) ScorePairs(ctx context.Context, pairs []Pair) ([]float64, error) {
	if len(g) != len(pairs) {
		return nil, fmt.Errorf("%d fixed predictions for %d pairs", len(g), len(pairs))
	}
	return append([]float64(nil), g...), nil
}

// AssessStory is one story of the VHED pairs as AssessStoryScorer sees it:
// its key, its text and its image sequence, for metrics that need the
// images (GROOViST, RoViST-VG): ImageSeq as written, ImageSeqKey its ids
// joined by commas (Pair.ImageSeqKey; empty for a hand-made pair
// without one), on which lookups should match.
type AssessStory struct {
	Key         StoryKey
	Text        string
	ImageSeq    string
	ImageSeqKey string
}

// AssessStoryScorer adapts a per-story metric that needs more than the
// text to AssessPairScorer. It receives each distinct story of the pairs
// once, in order of first appearance, and returns one score per story,
// higher meaning better; a pair's prediction is score(story 2) −
// score(story 1), as with AssessStoryFunc.
type AssessStoryScorer func(ctx context.Context, stories []AssessStory) ([]float64, error)

// ScorePairs implements AssessPairScorer.
func (f AssessStoryScorer) ScorePairs(ctx context.Context, pairs []Pair) ([]float64, error) {
	stories := func(p Pair) (AssessStory, AssessStory) {
		k1, k2 := p.Keys()
		return AssessStory{k1, p.Story1, p.ImageSeq, p.ImageSeqKey}, AssessStory{k2, p.Story2, p.ImageSeq, p.ImageSeqKey}
	}
	return assessStoryGaps(ctx, pairs, stories, f, "story scorer")
}
