package compare

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/ngram"
)

// cocoColumns are the columns the COCO caption toolkit's BLEU, ROUGE-L and
// CIDEr-D give, computed together on one tokenized corpus.
var cocoColumns = []string{"BLEU-4", "ROUGE-L", "CIDEr-D"}

// cocoMetric is one of BLEU-4, ROUGE-L and CIDEr-D; the three share one
// computation per system and run.
type cocoMetric struct{ spec }

// BLEU returns BLEU-4 per story as the COCO caption toolkit computes it
// (PTB-tokenized, no smoothing: a story without a matching 4-gram scores
// about 1e-9, so per-story means are degenerate; see the corpus-level
// score in the Report).
func BLEU() Metric { return cocoMetric{spec{name: "bleu", columns: []string{"BLEU-4"}, refs: true}} }

// ROUGEL returns ROUGE-L per story as the COCO caption toolkit computes it.
func ROUGEL() Metric {
	return cocoMetric{spec{name: "rouge", columns: []string{"ROUGE-L"}, refs: true}}
}

// CIDErD returns CIDEr-D per story as the COCO caption toolkit computes it,
// its document frequencies taken from each system's own corpus.
func CIDErD() Metric {
	return cocoMetric{spec{name: "cider", columns: []string{"CIDEr-D"}, refs: true}}
}

// Score implements Metric.
func (m cocoMetric) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	return perSystem(ctx, in, func(sys string, _ func(int, int)) ([]Column, error) {
		return shared(in, "coco\x00"+sys, func() ([]Column, error) { return cocoScores(in, sys) })
	})
}

// cocoScores computes BLEU-4, ROUGE-L and CIDEr-D of one system.
func cocoScores(in *Inputs, sys string) ([]Column, error) {
	c, err := tokenizedCorpus(in, sys)
	if err != nil {
		return nil, err
	}
	bleu, rouge, cider := ngram.BLEU(c), ngram.ROUGEL(c), ngram.CIDErD(c)
	ids := c.IDs()
	cols := make([]Column, len(cocoColumns))
	for k, name := range cocoColumns {
		cols[k] = newColumn(name, sys, len(ids))
	}
	for i, id := range ids {
		cols[0].Scores[sys][i] = bleu.Items[id][3]
		cols[1].Scores[sys][i] = rouge.Items[id]
		cols[2].Scores[sys][i] = cider.Items[id]
	}
	return cols, nil
}

// tokenizedCorpus is one system's stories against the references,
// PTB-tokenized as the COCO caption toolkit scores them, in suite order;
// made once per run and system.
func tokenizedCorpus(in *Inputs, sys string) (*ngram.Corpus, error) {
	return shared(in, "tokenized\x00"+sys, func() (*ngram.Corpus, error) {
		c, err := rawCorpus(in, sys)
		if err != nil {
			return nil, err
		}
		return c.Tokenized(), nil
	})
}

// rawCorpus is one system's stories against the references as given, in
// suite order; made once per run and system.
func rawCorpus(in *Inputs, sys string) (*ngram.Corpus, error) {
	return shared(in, "raw\x00"+sys, func() (*ngram.Corpus, error) {
		ids := make([]string, 0, in.Suite.Len())
		cands, refs := map[string]string{}, map[string][]string{}
		for _, seq := range in.Suite.All() {
			cands[seq.ID], refs[seq.ID] = seq.Stories[sys], seq.References
			ids = append(ids, seq.ID)
		}
		return ngram.NewCorpusInOrder(ids, cands, refs)
	})
}

// meteorMetric is METEOR 1.5 per story, in the COCO toolkit's or the VIST
// scripts' configuration.
type meteorMetric struct {
	spec
	m    *ngram.Meteor
	vist bool
}

// METEOR returns METEOR 1.5 per story against the references, on the
// PTB-tokenized text as the COCO caption toolkit scores it. m is made by
// ngram.NewMeteor (a nil m leaves the metric unavailable).
func METEOR(m *ngram.Meteor) Metric {
	return meteorMetric{spec{name: "meteor", columns: []string{"METEOR"}, refs: true}, m, false}
}

// METEORVIST returns METEOR per story as the AREL/MSR VIST scripts compute
// it (Meteor 1.5 -t hter without -norm, the best reference) on the text as
// given; m is made with ngram.MeteorVISTOptions.
func METEORVIST(m *ngram.Meteor) Metric {
	return meteorMetric{spec{name: "meteor-vist", columns: []string{"METEOR-VIST"}, refs: true}, m, true}
}

// Score implements Metric.
func (m meteorMetric) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	if m.m == nil {
		return nil, fmt.Errorf("compare: %s: no Meteor scorer", m.columns[0])
	}
	return perSystem(ctx, in, func(sys string, _ func(int, int)) ([]Column, error) {
		var items map[string]float64
		if m.vist {
			c, err := rawCorpus(in, sys)
			if err != nil {
				return nil, err
			}
			r, err := m.m.CorpusScoresVIST(c)
			if err != nil {
				return nil, fmt.Errorf("METEOR-VIST: %w", err)
			}
			items = r.Items
		} else {
			c, err := tokenizedCorpus(in, sys)
			if err != nil {
				return nil, err
			}
			cands, refs := map[string]string{}, map[string][]string{}
			for _, id := range c.IDs() {
				cands[id], refs[id] = c.Candidate(id), c.References(id)
			}
			if _, items, err = m.m.Corpus(cands, refs); err != nil {
				return nil, fmt.Errorf("METEOR: %w", err)
			}
		}
		return []Column{itemColumn(m.columns[0], sys, in, items)}, nil
	})
}

// nltkBLEU is NLTK's sentence_bleu per story.
type nltkBLEU struct{ spec }

// NLTKBLEU returns NLTK's sentence_bleu (BLEU-4, no smoothing, as the
// Vrank paper's BLEU) per story, on the words of the story and references
// as given, split at white space (Python's str.split()).
func NLTKBLEU() Metric {
	return nltkBLEU{spec{name: "nltkbleu", columns: []string{"NLTK-BLEU-4"}, refs: true}}
}

// Score implements Metric.
func (m nltkBLEU) Score(ctx context.Context, in *Inputs) ([]Column, error) {
	return perSystem(ctx, in, func(sys string, _ func(int, int)) ([]Column, error) {
		c, err := rawCorpus(in, sys)
		if err != nil {
			return nil, err
		}
		b, err := ngram.NLTKBLEU(c, ngram.NLTKBLEUOptions{})
		if err != nil {
			return nil, fmt.Errorf("NLTK BLEU: %w", err)
		}
		return []Column{itemColumn(m.columns[0], sys, in, b.Items)}, nil
	})
}

// itemColumn is a column of per-story scores keyed by sequence id.
func itemColumn(name, sys string, in *Inputs, items map[string]float64) Column {
	col := newColumn(name, sys, in.Suite.Len())
	for i, seq := range in.Suite.All() {
		col.Scores[sys][i] = items[seq.ID]
	}
	return col
}
