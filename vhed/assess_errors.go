package vhed

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/storyeval/storyeval/correlation"
)

// StoryKey identifies one story of VHED: the ranking task it was
// ranked in (story_id) and the model that wrote it.
type StoryKey struct {
	StoryID, Model string
}

// Keys returns the keys of the pair's story 1 and story 2.
func (p Pair) Keys() (story1, story2 StoryKey) {
	return StoryKey{p.StoryID, p.Model1}, StoryKey{p.StoryID, p.Model2}
}

// AssessGapsFromKeyedScores turns per-story scores keyed by story (higher
// is better), such as a column of a scores file, into pair predictions
// score(story 2) − score(story 1). A story of a pair without a score is an
// error naming it.
func AssessGapsFromKeyedScores(pairs []Pair, scores map[StoryKey]float64) ([]float64, error) {
	gaps := make([]float64, len(pairs))
	for i, p := range pairs {
		k1, k2 := p.Keys()
		s1, ok1 := scores[k1]
		s2, ok2 := scores[k2]
		if !ok1 || !ok2 {
			k := k1
			if ok1 {
				k = k2
			}
			return nil, fmt.Errorf("line %d: no score for story_id %q, model %q", p.Line, k.StoryID, k.Model)
		}
		gaps[i] = s2 - s1
	}
	return gaps, nil
}

// AssessErrorCorrelation returns the point-biserial correlation
// (correlation.PointBiserial, SciPy's pointbiserialr) between binary error
// labels of stories — true where an annotator found an error of some kind
// — and a metric's scores of the same stories, with the number of stories.
// A metric that detects the error scores erroneous stories lower, which
// makes the correlation negative. Every labelled story must have a score;
// scores of unlabelled stories are ignored. Stories enter in sorted key
// order, so the result does not depend on map order.
func AssessErrorCorrelation(errorLabels map[StoryKey]bool, scores map[StoryKey]float64) (correlation.Result, int, error) {
	keys := make([]StoryKey, 0, len(errorLabels))
	for k := range errorLabels {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b StoryKey) int {
		return cmp.Or(cmp.Compare(a.StoryID, b.StoryID), cmp.Compare(a.Model, b.Model))
	})
	x := make([]bool, len(keys))
	y := make([]float64, len(keys))
	for i, k := range keys {
		s, ok := scores[k]
		if !ok {
			return correlation.Result{}, 0, fmt.Errorf("error correlation: no score for story_id %q, model %q", k.StoryID, k.Model)
		}
		x[i], y[i] = errorLabels[k], s
	}
	if len(keys) == 0 {
		return correlation.Result{}, 0, fmt.Errorf("error correlation: no labelled stories")
	}
	r, err := correlation.PointBiserial(x, y)
	if err != nil {
		return r, len(keys), fmt.Errorf("error correlation: %w", err)
	}
	return r, len(keys), nil
}
