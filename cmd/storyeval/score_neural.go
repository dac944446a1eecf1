package main

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/vrank"
)

// scoreModels are the learned models a score run loaded from -models.
type scoreModels struct {
	coherence *rovist.CoherenceModel
	grounder  *rovist.Grounder
	groovist  *groovist.Scorer
	vrank     *vrank.Model
	// clipScorer scores story-level CLIPScore; it shares clip and
	// clipTokenizer, loaded once, with groovist.
	clipScorer    *groovist.CLIPScorer
	clip          *encoders.CLIP
	clipTokenizer *tokenize.CLIP
	// grounderFiles are the checkpoint and ViT folder of grounder, and
	// clipDir the folder of clip: the models' identities in the
	// embedding cache.
	grounderFiles [2]string
	clipDir       string
	// done memoizes the results of metrics scored for all systems at once.
	done map[string]any
	// missing says, per metric, which file of the models folder is absent
	// (or which flag is not given).
	missing map[string]string
}

// neuralScoreMetrics are the learned metrics of `score`, in report order.
func neuralScoreMetrics() []scoreMetric {
	loaded := func(metric string) func(*story.Suite, scoreConfig) bool {
		return func(_ *story.Suite, c scoreConfig) bool { return c.models != nil && c.models.missing[metric] == "" }
	}
	return []scoreMetric{
		{name: "c", columns: []string{"RoViST-C"}, needs: "RoViST-C", available: loaded("RoViST-C"), run: scoreCoherence},
		{name: "vg", columns: []string{"RoViST-VG"}, needs: "RoViST-VG", available: loaded("RoViST-VG"), run: scoreGrounding},
		{name: "groovist", columns: []string{"GROOViST"}, needs: "GROOViST", available: loaded("GROOViST"), run: scoreGROOViST},
		clipScoreMetric(loaded("CLIPScore")),
		{name: "vrank", columns: []string{"Vrank win rate"}, needs: "Vrank", available: loaded("Vrank"), run: scoreVrank},
	}
}

// loadScoreModels loads every learned model whose files are in dir (and
// whose extra inputs, regions and crops, are given). A metric whose files
// are missing is recorded in missing, not an error; a file that is present
// but does not load is an error. decode bounds the images and crops that
// RoViST-VG, GROOViST and CLIPScore decode (one budget for the run).
func loadScoreModels(dir, regionsCSV, crops string, suite *story.Suite, want map[string]bool, decode imageproc.DecodeOptions) (*scoreModels, error) {
	m := &scoreModels{missing: map[string]string{}, done: map[string]any{}}
	status := map[string]modelsStatus{}
	if dir == "" {
		for _, l := range modelsLayout {
			m.missing[l.Metric] = "-models DIR"
		}
	} else {
		st, err := checkModels(dir)
		if err != nil {
			return nil, fmt.Errorf("-models: %w", err)
		}
		for _, s := range st {
			status[s.Metric] = s
			if !s.Enabled {
				m.missing[s.Metric] = "the file " + filepath.Join(dir, filepath.FromSlash(s.Missing[0].Path)) + " (" + s.Missing[0].Source + ")"
			}
		}
	}
	for _, metric := range []string{"RoViST-VG", "GROOViST"} {
		if m.missing[metric] == "" && (regionsCSV == "" || crops == "") {
			m.missing[metric] = "-regions CSV and -crops DIR (the image regions of the story set)"
		}
	}
	if m.missing["CLIPScore"] == "" {
		m.missing["CLIPScore"] = suiteImagePathsMissing(suite)
	}
	path := func(metric string, i int) string {
		return filepath.Join(dir, filepath.FromSlash(status[metric].Found[i]))
	}
	var err error
	if want["c"] && m.missing["RoViST-C"] == "" {
		if m.coherence, err = rovist.LoadCoherenceModel(path("RoViST-C", 0), filepath.Dir(path("RoViST-C", 1))); err != nil {
			return nil, err
		}
	}
	if want["vg"] && m.missing["RoViST-VG"] == "" {
		if m.grounder, err = loadGrounder(path, regionsCSV, crops, suite, decode); err != nil {
			return nil, err
		}
		m.grounderFiles = [2]string{path("RoViST-VG", 0), filepath.Dir(path("RoViST-VG", 1))}
	}
	if want["groovist"] && m.missing["GROOViST"] == "" {
		model, tok, err := m.loadCLIP(filepath.Dir(path("GROOViST", 0)))
		if err != nil {
			return nil, err
		}
		if m.groovist, err = groovist.NewScorer(model, tok); err != nil {
			return nil, err
		}
		if m.groovist.Entities, err = regions.Load(regionsCSV, regions.Options{}); err != nil {
			return nil, err
		}
		m.groovist.CropsDir = crops
		m.groovist.Decode = decode
	}
	if want["clipscore"] && m.missing["CLIPScore"] == "" {
		model, tok, err := m.loadCLIP(filepath.Dir(path("CLIPScore", 0)))
		if err != nil {
			return nil, err
		}
		if m.clipScorer, err = groovist.NewCLIPScorer(model, tok); err != nil {
			return nil, err
		}
		m.clipScorer.Decode = decode
	}
	if want["vrank"] && m.missing["Vrank"] == "" {
		if m.vrank, err = vrank.Load(filepath.Dir(path("Vrank", 0))); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// loadGrounder loads RoViST-VG's model, the GloVe vectors of every noun the
// suite's stories hold, the idf table and the region crops, decoded with
// decode.
func loadGrounder(path func(string, int) string, regionsCSV, crops string, suite *story.Suite, decode imageproc.DecodeOptions) (*rovist.Grounder, error) {
	model, err := rovist.LoadGroundingModel(path("RoViST-VG", 0), filepath.Dir(path("RoViST-VG", 1)))
	if err != nil {
		return nil, err
	}
	var all []story.Story
	for _, sys := range suite.Systems() {
		set, err := suite.System(sys)
		if err != nil {
			return nil, err
		}
		all = append(all, set.Stories()...)
	}
	nouns, err := rovist.StoryNouns(all, nil)
	if err != nil {
		return nil, err
	}
	var words []string
	for _, n := range nouns {
		words = append(words, n...)
	}
	glove, err := rovist.LoadGloVe(path("RoViST-VG", 3), words, rovist.GloVeOptions{})
	if err != nil {
		return nil, err
	}
	idf, err := rovist.LoadIDF(path("RoViST-VG", 4), limits.Limits{})
	if err != nil {
		return nil, err
	}
	ents, err := regions.Load(regionsCSV, regions.Options{IDs: regions.IntegerIDs})
	if err != nil {
		return nil, err
	}
	return &rovist.Grounder{Model: model, GloVe: glove, IDF: idf, Regions: rovist.CropFolder{Entities: ents, Dir: crops, Decode: decode}}, nil
}

// systemStories returns one system's stories with their sequences' images.
func systemStories(s *story.Suite, system string) ([]story.Story, error) {
	set, err := s.System(system)
	if err != nil {
		return nil, err
	}
	return set.Stories(), nil
}

// systemResults scores the stories of every system in one call of score
// (suite order: system by system), memoized in cfg per metric, so that the
// images the systems share are encoded once for the whole run rather than
// once per system; it returns system's part of the results.
func systemResults[T any](cfg scoreConfig, metric string, s *story.Suite, system string, score func([]story.Story) ([]T, error)) ([]T, error) {
	v, ok := cfg.models.done[metric]
	if !ok {
		var all []story.Story
		for _, sys := range s.Systems() {
			stories, err := systemStories(s, sys)
			if err != nil {
				return nil, err
			}
			all = append(all, stories...)
		}
		res, err := score(all)
		if err != nil {
			return nil, err
		}
		v = res
		cfg.models.done[metric] = v
	}
	all := v.([]T)
	for k, sys := range s.Systems() {
		if sys == system {
			return all[k*s.Len() : (k+1)*s.Len()], nil
		}
	}
	return nil, nil
}

// scoreCoherence computes RoViST-C per story; the note names the least
// coherent transition.
func scoreCoherence(ctx context.Context, s *story.Suite, system string, cfg scoreConfig) ([]scoreColumn, error) {
	stories, err := systemStories(s, system)
	if err != nil {
		return nil, err
	}
	res, err := cfg.models.coherence.Score(ctx, stories, rovist.CoherenceOptions{Progress: cfg.progress.System})
	if err != nil {
		return nil, err
	}
	col := newColumn("RoViST-C", system, len(stories))
	for i, r := range res {
		col.Scores[system][i] = r.Score
		switch {
		case !r.Defined:
			col.Notes[system][i] = "undefined: fewer than two sentences"
		default:
			worst := r.Pairs[0]
			for _, p := range r.Pairs {
				if p.Prob < worst.Prob {
					worst = p
				}
			}
			col.Notes[system][i] = fmt.Sprintf("least coherent transition: sentence %d → %d (P = %.3f)", worst.First+1, worst.Second+1, worst.Prob)
		}
	}
	return []scoreColumn{col}, nil
}

// scoreGrounding computes RoViST-VG per story; the note lists the least
// grounded nouns.
func scoreGrounding(ctx context.Context, s *story.Suite, system string, cfg scoreConfig) ([]scoreColumn, error) {
	res, err := systemResults(cfg, "vg", s, system, func(stories []story.Story) ([]rovist.VGResult, error) {
		return cfg.models.grounder.Score(ctx, stories, rovist.VGOptions{UseDefaultIDF: cfg.vgDefaultIDF > 0, DefaultIDF: cfg.vgDefaultIDF, Progress: cfg.progress.All})
	})
	if err != nil {
		return nil, err
	}
	col := newColumn("RoViST-VG", system, len(res))
	for i, r := range res {
		col.Scores[system][i] = r.Score
		if !r.Defined {
			col.Notes[system][i] = "undefined: no nouns"
			continue
		}
		nouns := append([]rovist.NounGrounding(nil), r.Nouns...)
		slices.SortStableFunc(nouns, func(a, b rovist.NounGrounding) int { return cmp.Compare(a.Recall, b.Recall) })
		var parts []string
		for _, n := range nouns[:min(3, len(nouns))] {
			parts = append(parts, fmt.Sprintf("%s (%.2f)", n.Noun, n.Recall))
		}
		col.Notes[system][i] = "least grounded nouns: " + strings.Join(parts, ", ")
	}
	return []scoreColumn{col}, nil
}

// scoreGROOViST computes GROOViST per story (θ of VIST, phrases chunked from
// the text); the note lists the phrases the images ground worst.
func scoreGROOViST(ctx context.Context, s *story.Suite, system string, cfg scoreConfig) ([]scoreColumn, error) {
	res, err := systemResults(cfg, "groovist", s, system, func(stories []story.Story) ([]groovist.Result, error) {
		inputs := make([]groovist.Input, len(stories))
		for i, st := range stories {
			inputs[i] = groovist.Input{Story: st}
		}
		return cfg.models.groovist.Score(ctx, inputs, groovist.Options{Progress: cfg.progress.All})
	})
	if err != nil {
		return nil, err
	}
	col := newColumn("GROOViST", system, len(res))
	for i, r := range res {
		col.Scores[system][i] = r.Score
		if !r.Defined {
			col.Notes[system][i] = "undefined: no noun phrases left after the pronoun filter"
			continue
		}
		worst := -1
		for k, np := range r.NPs {
			if worst < 0 || np.Score < r.NPs[worst].Score {
				worst = k
			}
		}
		col.Notes[system][i] = fmt.Sprintf("%d noun phrases; least grounded: %q (%.3f after the θ penalty)", len(r.NPs), r.NPs[worst].NP, r.NPs[worst].Score)
	}
	return []scoreColumn{col}, nil
}

// scoreVrank ranks every pair of systems' stories of each sequence with
// Vrank and reports, per story, the share of the other systems' stories it
// beats. Both orders of a pair are predicted and their gaps combined
// antisymmetrically, d(A, B) = (gap(A, B) − gap(B, A)) / 2: A beats B when
// d < 0 (a negative gap puts story 1 first), B beats A when d > 0, d = 0 is
// a tie counting for neither. This way exactly one story of a pair wins
// (or neither), whatever position bias the model has left after its
// symmetric training augmentation; using each order's gap alone would let
// both stories "win" the same pair.
func scoreVrank(ctx context.Context, s *story.Suite, system string, cfg scoreConfig) ([]scoreColumn, error) {
	systems := s.Systems()
	self := slices.Index(systems, system)
	col := newColumn("Vrank win rate", system, s.Len())
	if len(systems) < 2 {
		for i := range col.Notes[system] {
			col.Notes[system][i] = "undefined: one system only"
		}
		return []scoreColumn{col}, nil
	}
	if self < 0 {
		return nil, fmt.Errorf("no system %q in the story set", system)
	}
	gaps, err := vrankGaps(ctx, s, cfg)
	if err != nil {
		return nil, err
	}
	for i := range s.Len() {
		wins := 0
		var lost []string
		for o, other := range systems {
			if o == self {
				continue
			}
			switch d := (gaps.gap(i, self, o) - gaps.gap(i, o, self)) / 2; {
			case d < 0:
				wins++
			case d > 0:
				lost = append(lost, other)
			}
		}
		col.Scores[system][i] = float64(wins) / float64(len(systems)-1)
		if len(lost) > 0 {
			col.Notes[system][i] = "ranked below " + strings.Join(lost, ", ")
		}
	}
	return []scoreColumn{col}, nil
}

// vrankGapTable holds Vrank's predicted gap of every ordered pair of
// distinct systems' stories of each sequence.
type vrankGapTable struct {
	gaps             []float64
	sequences, peers int // peers: systems − 1
}

// gap returns the predicted gap of (system a's story, system b's story) of
// sequence seq; a ≠ b.
func (t vrankGapTable) gap(seq, a, b int) float64 {
	if b > a {
		b--
	}
	return t.gaps[(a*t.sequences+seq)*t.peers+b]
}

// vrankGaps predicts, once per run (memoized in cfg), every ordered pair of
// the systems' stories of each sequence, system by system, sequence by
// sequence, the others in suite order. One call for all pairs rather than
// one per system: Predict sorts a call's pairs by length into batches, so
// one call pads less than several small ones and runs as fast per pair as
// 'storyeval vrank predict' on the same pairs.
func vrankGaps(ctx context.Context, s *story.Suite, cfg scoreConfig) (vrankGapTable, error) {
	systems := s.Systems()
	t := vrankGapTable{sequences: s.Len(), peers: len(systems) - 1}
	if v, ok := cfg.models.done["vrank"]; ok {
		t.gaps = v.([]float64)
		return t, nil
	}
	var a, b []string
	for _, sys := range systems {
		for _, seq := range s.All() {
			for _, o := range systems {
				if o != sys {
					a = append(a, seq.Stories[sys])
					b = append(b, seq.Stories[o])
				}
			}
		}
	}
	gaps, err := cfg.models.vrank.PredictWith(ctx, a, b, vrank.PredictOptions{Progress: cfg.progress.All})
	if err != nil {
		return t, err
	}
	cfg.models.done["vrank"] = gaps
	t.gaps = gaps
	return t, nil
}
