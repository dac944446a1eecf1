package main

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/storyeval/storyeval/ngram"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
	"github.com/storyeval/storyeval/stylem"
)

// scoreColumn is one metric's scores over a suite: per system, one score per
// sequence in suite order (NaN where the metric leaves a story undefined),
// and a short diagnostic per story for the report's worst-story lists.
type scoreColumn struct {
	Name   string
	Scores map[string][]float64
	Notes  map[string][]string
}

// scoreMetric computes one or more columns for every system of a suite.
type scoreMetric struct {
	// name is what -metrics selects.
	name string
	// columns are the column names it produces, in output order.
	columns []string
	// needs says what input the metric needs, for the "unavailable" line.
	needs string
	// available reports whether the suite and flags provide the inputs.
	available func(s *story.Suite, cfg scoreConfig) bool
	// run computes the columns for one system's stories.
	run func(ctx context.Context, s *story.Suite, system string, cfg scoreConfig) ([]scoreColumn, error)
}

// scoreConfig holds the inputs the metrics share beyond the suite.
type scoreConfig struct {
	styleTable *stylem.Table
	style      string
	meteor     *ngram.Meteor
	// meteorVIST is METEOR in the VIST scripts' configuration.
	meteorVIST *ngram.Meteor
	// models are the learned models loaded from -models (nil without).
	models *scoreModels
	// vgDefaultIDF, when positive, weights nouns missing from the idf table.
	vgDefaultIDF float64
	// ngramDone memoizes BLEU/ROUGE-L/CIDEr-D per system: the three share
	// one tokenized corpus and are selected separately.
	ngramDone map[string][]scoreColumn
	// progress reports a library call's progress on the run's bar.
	progress scoreProgress
}

// scoreMetrics lists the metrics `score` knows, in report order. The neural
// metrics join this table when their packages land.
func scoreMetrics() []scoreMetric {
	hasRefs := func(s *story.Suite, _ scoreConfig) bool { return s.HasReferences() }
	return []scoreMetric{
		{name: "bleu", columns: []string{"BLEU-4"}, needs: "human references in the story set", available: hasRefs, run: scoreNgram},
		{name: "meteor", columns: []string{"METEOR"}, needs: "human references in the story set", available: hasRefs, run: scoreMeteor},
		{name: "rouge", columns: []string{"ROUGE-L"}, needs: "human references in the story set", available: hasRefs, run: scoreNgram},
		{name: "cider", columns: []string{"CIDEr-D"}, needs: "human references in the story set", available: hasRefs, run: scoreNgram},
		{name: "nr", columns: []string{"RoViST-NR"}, needs: "", available: func(*story.Suite, scoreConfig) bool { return true }, run: scoreNR},
		{name: "stylem", columns: []string{"OnlyStyle"}, needs: "-stylem-table and -style", available: func(_ *story.Suite, c scoreConfig) bool { return c.styleTable != nil }, run: scoreOnlyStyle},
	}
}

// optInScoreMetrics run only when -metrics names them: variants of metrics
// that "all" already computes in the COCO toolkit's configuration.
func optInScoreMetrics() []scoreMetric {
	hasRefs := func(s *story.Suite, _ scoreConfig) bool { return s.HasReferences() }
	return []scoreMetric{
		{name: "nltkbleu", columns: []string{"NLTK-BLEU-4"}, needs: "human references in the story set", available: hasRefs, run: scoreNLTKBLEU},
		{name: "meteor-vist", columns: []string{"METEOR-VIST"}, needs: "human references in the story set", available: hasRefs, run: scoreMeteorVIST},
	}
}

// allScoreMetrics are the n-gram, text and learned metrics together.
func allScoreMetrics() []scoreMetric { return append(scoreMetrics(), neuralScoreMetrics()...) }

// suiteCorpus is one system's stories against the references, PTB-tokenized
// as the COCO caption toolkit scores them.
func suiteCorpus(s *story.Suite, system string) (*ngram.Corpus, []string, error) {
	cands := map[string]string{}
	refs := map[string][]string{}
	ids := make([]string, 0, s.Len())
	for _, seq := range s.All() {
		cands[seq.ID] = seq.Stories[system]
		refs[seq.ID] = seq.References
		ids = append(ids, seq.ID)
	}
	c, err := ngram.NewCorpus(cands, refs)
	if err != nil {
		return nil, nil, err
	}
	return c.Tokenized(), ids, nil
}

// scoreNgram computes BLEU-4, ROUGE-L and CIDEr-D of one system (CIDEr-D's
// idf comes from that system's corpus, as the toolkit computes it); the
// caller keeps the columns it asked for.
func scoreNgram(_ context.Context, s *story.Suite, system string, cfg scoreConfig) ([]scoreColumn, error) {
	if cols, ok := cfg.ngramDone[system]; ok {
		return cols, nil
	}
	c, ids, err := suiteCorpus(s, system)
	if err != nil {
		return nil, err
	}
	bleu := ngram.BLEU(c)
	rouge := ngram.ROUGEL(c)
	cider := ngram.CIDErD(c)
	cols := []scoreColumn{newColumn("BLEU-4", system, len(ids)), newColumn("ROUGE-L", system, len(ids)), newColumn("CIDEr-D", system, len(ids))}
	for i, id := range ids {
		cols[0].Scores[system][i] = bleu.Items[id][3]
		cols[1].Scores[system][i] = rouge.Items[id]
		cols[2].Scores[system][i] = cider.Items[id]
	}
	if cfg.ngramDone != nil {
		cfg.ngramDone[system] = cols
	}
	return cols, nil
}

// scoreMeteor computes METEOR 1.5 per story against the references.
func scoreMeteor(_ context.Context, s *story.Suite, system string, cfg scoreConfig) ([]scoreColumn, error) {
	c, ids, err := suiteCorpus(s, system)
	if err != nil {
		return nil, err
	}
	cands, refs := map[string]string{}, map[string][]string{}
	for _, id := range ids {
		cands[id], refs[id] = c.Candidate(id), c.References(id)
	}
	_, items, err := cfg.meteor.Corpus(cands, refs)
	if err != nil {
		return nil, fmt.Errorf("METEOR: %w", err)
	}
	col := newColumn("METEOR", system, len(ids))
	for i, id := range ids {
		col.Scores[system][i] = items[id]
	}
	return []scoreColumn{col}, nil
}

// rawSuiteCorpus is one system's stories against the references as given,
// untokenized.
func rawSuiteCorpus(s *story.Suite, system string) (*ngram.Corpus, []string, error) {
	ids := make([]string, 0, s.Len())
	cands := map[string]string{}
	refs := map[string][]string{}
	for _, seq := range s.All() {
		cands[seq.ID], refs[seq.ID] = seq.Stories[system], seq.References
		ids = append(ids, seq.ID)
	}
	c, err := ngram.NewCorpusInOrder(ids, cands, refs)
	return c, ids, err
}

// scoreNLTKBLEU computes NLTK's sentence_bleu (BLEU-4, no smoothing, as the
// Vrank paper's BLEU) per story on the words of the story and references
// as given, split at white space (Python's str.split()).
func scoreNLTKBLEU(_ context.Context, s *story.Suite, system string, _ scoreConfig) ([]scoreColumn, error) {
	c, ids, err := rawSuiteCorpus(s, system)
	if err != nil {
		return nil, err
	}
	b, err := ngram.NLTKBLEU(c, ngram.NLTKBLEUOptions{})
	if err != nil {
		return nil, fmt.Errorf("NLTK BLEU: %w", err)
	}
	return []scoreColumn{itemColumn("NLTK-BLEU-4", system, ids, b.Items)}, nil
}

// scoreMeteorVIST computes METEOR per story as the AREL/MSR VIST scripts
// do (Meteor 1.5 -t hter without -norm, the best reference), on the text as
// given.
func scoreMeteorVIST(_ context.Context, s *story.Suite, system string, cfg scoreConfig) ([]scoreColumn, error) {
	c, ids, err := rawSuiteCorpus(s, system)
	if err != nil {
		return nil, err
	}
	m, err := cfg.meteorVIST.CorpusScoresVIST(c)
	if err != nil {
		return nil, fmt.Errorf("METEOR-VIST: %w", err)
	}
	return []scoreColumn{itemColumn("METEOR-VIST", system, ids, m.Items)}, nil
}

// itemColumn is a column of per-item scores keyed by id.
func itemColumn(name, system string, ids []string, items map[string]float64) scoreColumn {
	col := newColumn(name, system, len(ids))
	for i, id := range ids {
		col.Scores[system][i] = items[id]
	}
	return col
}

// scoreNR computes RoViST-NR per story; the note names the most repeated
// sentence pair.
func scoreNR(_ context.Context, s *story.Suite, system string, _ scoreConfig) ([]scoreColumn, error) {
	texts := make([]string, s.Len())
	for i, seq := range s.All() {
		texts[i] = seq.Stories[system]
	}
	col := newColumn("RoViST-NR", system, len(texts))
	errs := make([]error, len(texts))
	// Each story's note is made while its pair scores are at hand, so
	// that no more than one story's pairs per goroutine are kept.
	rovist.NonRedundancyEach(texts, rovist.NROptions{}, func(i int, r *rovist.NRResult, err error) {
		errs[i] = err
		if err == nil {
			col.Scores[system][i] = r.Score
			col.Notes[system][i] = nrNote(*r)
		}
	})
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("RoViST-NR of %q: %w", s.At(i).ID, err)
		}
	}
	return []scoreColumn{col}, nil
}

// nrNote describes the inter-sentence pair that repeats most.
func nrNote(r rovist.NRResult) string {
	if !r.Defined {
		return "undefined: fewer than two sentences"
	}
	best := -1
	for i, p := range r.Inter {
		if best < 0 || p.Score > r.Inter[best].Score {
			best = i
		}
	}
	if best < 0 || r.Inter[best].Shared == 0 {
		return "no repeated words between sentences"
	}
	p := r.Inter[best]
	return fmt.Sprintf("sentences %d and %d repeat most (%d equal token pairs over %d distinct tokens)", p.First+1, p.Second+1, p.Shared, p.Union)
}

// scoreOnlyStyle computes StyleM's OnlyStyle of each story for the chosen
// style.
func scoreOnlyStyle(_ context.Context, s *story.Suite, system string, cfg scoreConfig) ([]scoreColumn, error) {
	step, err := stylem.StepByName(cfg.styleTable.Tokenization())
	if err != nil {
		return nil, err
	}
	col := newColumn("OnlyStyle", system, s.Len())
	for i, seq := range s.All() {
		v, err := cfg.styleTable.OnlyStyle(cfg.style, stylem.Tokenize(seq.Stories[system], step))
		if err != nil {
			return nil, fmt.Errorf("OnlyStyle of %q: %w", seq.ID, err)
		}
		col.Scores[system][i] = v
	}
	return []scoreColumn{col}, nil
}

func newColumn(name, system string, n int) scoreColumn {
	c := scoreColumn{Name: name, Scores: map[string][]float64{system: make([]float64, n)}, Notes: map[string][]string{system: make([]string, n)}}
	for i := range c.Scores[system] {
		c.Scores[system][i] = math.NaN()
	}
	return c
}

// parseScoreMetrics turns the -metrics flag into the metrics to run.
func parseScoreMetrics(list string) ([]scoreMetric, error) {
	all := allScoreMetrics()
	if list == "" || list == "all" {
		return all, nil
	}
	byName := map[string]scoreMetric{}
	var names []string
	for _, m := range append(all, optInScoreMetrics()...) {
		byName[m.name] = m
		names = append(names, m.name)
	}
	var out []scoreMetric
	seen := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(strings.ToLower(n))
		m, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("-metrics: unknown metric %q (known: all or %s)", n, strings.Join(names, ","))
		}
		if seen[n] {
			return nil, fmt.Errorf("-metrics: %q given twice", n)
		}
		seen[n] = true
		out = append(out, m)
	}
	return out, nil
}
