package compare

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// systemStories returns every system's stories with their sequences'
// images, system by system in suite order: the learned metrics that encode
// images score them in one call, so that an image the systems share is
// encoded once per run.
func systemStories(s *story.Suite, systems []string) ([]story.Story, error) {
	var all []story.Story
	for _, sys := range systems {
		set, err := s.System(sys)
		if err != nil {
			return nil, err
		}
		all = append(all, set.Stories()...)
	}
	return all, nil
}

// coherence is RoViST-C per story.
type coherence struct {
	spec
	model *rovist.CoherenceModel
}

// Coherence returns RoViST-C per story with model; the diagnostic names
// the least coherent transition.
func Coherence(model *rovist.CoherenceModel) Metric {
	return coherence{spec{name: "c", columns: []string{"RoViST-C"}}, model}
}

// Score implements Metric. Each system's stories are scored in one call
// (the batches, and so the last bits of the scores, are those of the
// rovist command on that system's stories).
func (m coherence) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	return perSystem(ctx, in, func(sys string, progress func(int, int)) ([]Column, error) {
		set, err := in.Suite.System(sys)
		if err != nil {
			return nil, err
		}
		res, err := m.model.Score(ctx, set.Stories(), rovist.CoherenceOptions{Progress: progress})
		if err != nil {
			return nil, err
		}
		col := newColumn(m.columns[0], sys, len(res))
		for i, r := range res {
			col.Scores[sys][i] = r.Score
			if !r.Defined {
				col.Notes[sys][i] = "undefined: fewer than two sentences"
				continue
			}
			worst := r.Pairs[0]
			for _, p := range r.Pairs {
				if p.Prob < worst.Prob {
					worst = p
				}
			}
			col.Notes[sys][i] = fmt.Sprintf("least coherent transition: sentence %d → %d (P = %.3f)", worst.First+1, worst.Second+1, worst.Prob)
		}
		return []Column{col}, nil
	})
}

// grounding is RoViST-VG per story.
type grounding struct {
	spec
	g    *rovist.Grounder
	opts rovist.VGOptions
	// nouns are the nouns of every system's stories of suite (suite
	// order, system by system), extracted once when the models were
	// loaded (to load their GloVe vectors): reused when Compare runs on
	// that suite.
	suite *story.Suite
	nouns [][]string
}

// Grounding returns RoViST-VG per story with g and opts; the diagnostic
// lists the least grounded nouns.
func Grounding(g *rovist.Grounder, opts rovist.VGOptions) Metric {
	return grounding{spec: spec{name: "vg", columns: []string{"RoViST-VG"}}, g: g, opts: opts}
}

// Score implements Metric.
func (m grounding) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	stories, err := systemStories(in.Suite, in.Systems)
	if err != nil {
		return nil, err
	}
	opts := m.opts
	opts.Progress = in.Progress
	if in.Suite == m.suite && slices.Equal(in.Systems, m.suite.Systems()) {
		opts.StoryNouns = m.nouns
	}
	res, err := m.g.Score(ctx, stories, opts)
	if err != nil {
		return nil, err
	}
	return allSystems(in, res, func(sys string, res []rovist.VGResult) []Column {
		col := newColumn(m.columns[0], sys, len(res))
		for i, r := range res {
			col.Scores[sys][i] = r.Score
			col.Notes[sys][i] = vgNote(r)
		}
		return []Column{col}
	}), nil
}

// vgNote lists the three least grounded nouns of a story.
func vgNote(r rovist.VGResult) string {
	if !r.Defined {
		return "undefined: no nouns"
	}
	nouns := slices.Clone(r.Nouns)
	slices.SortStableFunc(nouns, func(a, b rovist.NounGrounding) int { return cmp.Compare(a.Recall, b.Recall) })
	var parts []string
	for _, n := range nouns[:min(3, len(nouns))] {
		parts = append(parts, fmt.Sprintf("%s (%.2f)", n.Noun, n.Recall))
	}
	return "least grounded nouns: " + strings.Join(parts, ", ")
}

// grooVIST is GROOViST per story.
type grooVIST struct {
	spec
	s *groovist.Scorer
}

// GROOViST returns GROOViST per story with s (θ of VIST, phrases chunked
// from the text); the diagnostic names the phrase the images ground worst.
func GROOViST(s *groovist.Scorer) Metric {
	return grooVIST{spec{name: "groovist", columns: []string{"GROOViST"}}, s}
}

// Score implements Metric.
func (m grooVIST) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	stories, err := systemStories(in.Suite, in.Systems)
	if err != nil {
		return nil, err
	}
	inputs := make([]groovist.Input, len(stories))
	for i, st := range stories {
		inputs[i] = groovist.Input{Story: st}
	}
	res, err := m.s.Score(ctx, inputs, groovist.Options{Progress: in.Progress})
	if err != nil {
		return nil, err
	}
	cols := allSystems(in, res, func(sys string, res []groovist.Result) []Column {
		col := newColumn(m.columns[0], sys, len(res))
		for i, r := range res {
			col.Scores[sys][i] = r.Score
			if !r.Defined {
				col.Notes[sys][i] = "undefined: no noun phrases left after the pronoun filter"
				continue
			}
			worst := 0
			for k, np := range r.NPs {
				if np.Score < r.NPs[worst].Score {
					worst = k
				}
			}
			col.Notes[sys][i] = fmt.Sprintf("%d noun phrases; least grounded: %q (%.3f after the θ penalty)", len(r.NPs), r.NPs[worst].NP, r.NPs[worst].Score)
		}
		return []Column{col}
	})
	cols[0].SkippedImages = groovist.Skipped(res)
	return cols, nil
}
