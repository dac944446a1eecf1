package vhed

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// References collects the human reference stories of each image
// sequence from the pairs themselves: the stories whose model isRef
// accepts (nil: IsReferenceModel), keyed by the image sequence's ids
// joined by commas (Pair.ImageSeqKey, e.g. "101,102,103"), each text
// once, in order of first appearance. Use it for RefAbsentScorer when no
// other reference set (such as VIST's five stories per sequence) is at
// hand.
func References(pairs []Pair, isRef func(model string) bool) map[string][]string {
	if isRef == nil {
		isRef = IsReferenceModel
	}
	refs := make(map[string][]string)
	seen := make(map[[2]string]bool)
	add := func(seq, text string) {
		k := [2]string{seq, text}
		if !seen[k] {
			seen[k] = true
			refs[seq] = append(refs[seq], text)
		}
	}
	for _, p := range pairs {
		seq, err := p.imageKey()
		if err != nil {
			// The scorers report the pair's unparsable img_seq.
			seq = p.ImageSeq
		}
		if isRef(p.Model1) {
			add(seq, p.Story1)
		}
		if isRef(p.Model2) {
			add(seq, p.Story2)
		}
	}
	return refs
}

// RefAbsentScorer applies a reference-based metric to story pairs with the
// Reference Absent algorithm of Hsu et al. (ACL 2022, eq. 3): a human story
// of a pair would otherwise be scored against itself, so for the pair (s₁,
// s₂) every reference identical to s₁ or s₂ is removed from the image
// sequence's reference set R, and each story scores
//
//	M_RA(s) = max over r ∈ R \ {s₁, s₂} of M(s, {r}),
//
// the metric against one reference at a time. The prediction is
// M_RA(s₂) − M_RA(s₁). Stories are compared with references after
// collapsing runs of white space, so spacing differences do not hide a
// copy. When no reference remains, or References has none for the pair's
// image sequence, the pair is undecided: its prediction is NaN, which the
// assessment counts as wrong and reports in AssessReport.Undecided.
//
// All (story, reference) items of one ScorePairs call, each distinct item
// once, form one corpus of the metric, which fixes CIDEr-D's document
// frequencies.
type RefAbsentScorer struct {
	// Metric is the reference-based metric.
	Metric AssessRefMetric
	// References holds the reference stories of each image sequence,
	// keyed by an img_seq value: keys are parsed into their ids (see
	// ImageIDs) and matched to the pairs' ids, so "[1, 2]" finds the
	// pairs of "1,2" (see References).
	References map[string][]string
}

// ScorePairs implements AssessPairScorer.
func (s RefAbsentScorer) ScorePairs(ctx context.Context, pairs []Pair) ([]float64, error) {
	if s.Metric == nil {
		return nil, fmt.Errorf("RefAbsentScorer without a metric")
	}
	index, err := vhedReferenceIndex(s.References)
	if err != nil {
		return nil, err
	}
	items := assessItems{index: make(map[assessItemKey]int)}
	// For pair i and story j, the items whose maximum is its score.
	perStory := make([][2][]int, len(pairs))
	for i, p := range pairs {
		seq, err := p.imageKey()
		if err != nil {
			return nil, err
		}
		refs := index[seq]
		k1, k2 := assessSpaceKey(p.Story1), assessSpaceKey(p.Story2)
		for _, r := range refs {
			if kr := assessSpaceKey(r); kr == k1 || kr == k2 {
				continue
			}
			one := []string{r}
			perStory[i][0] = append(perStory[i][0], items.add(p.Story1, r, one))
			perStory[i][1] = append(perStory[i][1], items.add(p.Story2, r, one))
		}
	}
	scores, err := items.score(ctx, s.Metric)
	if err != nil {
		return nil, err
	}
	pred := make([]float64, len(pairs))
	for i := range pairs {
		if len(perStory[i][0]) == 0 {
			pred[i] = math.NaN()
			continue
		}
		best := [2]float64{math.Inf(-1), math.Inf(-1)}
		for j := range 2 {
			for _, it := range perStory[i][j] {
				best[j] = math.Max(best[j], scores[it])
			}
		}
		pred[i] = best[1] - best[0]
	}
	return pred, nil
}

// AssessRefScorer applies a reference-based metric without the Reference
// Absent algorithm: each story is scored against all references of its
// image sequence at once, as the metric scores several references, so a
// human story present in the reference set is scored against itself. It
// is the baseline the Reference Absent algorithm corrects. The prediction
// is M(s₂, R) − M(s₁, R), or NaN (undecided) when References has no
// reference for the pair's image sequence.
type AssessRefScorer struct {
	Metric AssessRefMetric
	// References is keyed and matched as RefAbsentScorer.References.
	References map[string][]string
}

// ScorePairs implements AssessPairScorer.
func (s AssessRefScorer) ScorePairs(ctx context.Context, pairs []Pair) ([]float64, error) {
	if s.Metric == nil {
		return nil, fmt.Errorf("AssessRefScorer without a metric")
	}
	index, err := vhedReferenceIndex(s.References)
	if err != nil {
		return nil, err
	}
	items := assessItems{index: make(map[assessItemKey]int)}
	idx := make([][2]int, len(pairs))
	for i, p := range pairs {
		seq, err := p.imageKey()
		if err != nil {
			return nil, err
		}
		refs := index[seq]
		if len(refs) == 0 {
			idx[i] = [2]int{-1, -1}
			continue
		}
		// The references of one sequence are one list: its key names it.
		idx[i][0] = items.add(p.Story1, "\x00"+seq, refs)
		idx[i][1] = items.add(p.Story2, "\x00"+seq, refs)
	}
	scores, err := items.score(ctx, s.Metric)
	if err != nil {
		return nil, err
	}
	pred := make([]float64, len(pairs))
	for i := range pairs {
		if idx[i][0] < 0 {
			pred[i] = math.NaN()
			continue
		}
		pred[i] = scores[idx[i][1]] - scores[idx[i][0]]
	}
	return pred, nil
}

// assessItems collects distinct (candidate, references) items.
type assessItems struct {
	index map[assessItemKey]int
	cands []string
	refs  [][]string
}

// assessItemKey identifies an item by its candidate and a key naming its
// reference list (the one reference's text, or an image sequence). Both
// share the texts' memory: on a large VHED file the keys cost no copy of
// the stories.
type assessItemKey struct{ cand, refs string }

func (it *assessItems) add(cand, refsKey string, refs []string) int {
	key := assessItemKey{cand, refsKey}
	if i, ok := it.index[key]; ok {
		return i
	}
	i := len(it.cands)
	it.index[key] = i
	it.cands = append(it.cands, cand)
	it.refs = append(it.refs, refs)
	return i
}

func (it *assessItems) score(ctx context.Context, m AssessRefMetric) ([]float64, error) {
	scores, err := m.ScoreItems(ctx, it.cands, it.refs)
	if err != nil {
		return nil, err
	}
	if len(scores) != len(it.cands) {
		return nil, fmt.Errorf("%s returned %d scores for %d items", m.Name(), len(scores), len(it.cands))
	}
	return scores, nil
}

// assessSpaceKey is text with white-space runs collapsed, for the identity
// test of the Reference Absent algorithm.
func assessSpaceKey(text string) string { return strings.Join(strings.Fields(text), " ") }
