package compare

import (
	"context"
	"fmt"
	"strings"

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
	cols, err := perSystem(ctx, in, func(sys string, _ func(int, int)) ([]Column, error) {
		return shared(in, "coco\x00"+sys, func() ([]Column, error) { return cocoScores(in, sys) })
	})
	if err != nil {
		return nil, err
	}
	if cols[0].Name == "BLEU-4" {
		n, unmatched, err := unmatched4grams(in, tokenizedCorpus)
		if err != nil {
			return nil, err
		}
		cols[0].Degenerate = degenerate(unmatched, n, "have no 4-gram in common with their references, so their unsmoothed BLEU-4 comes from the toolkit's tiny smoothing constants, not from matches")
	}
	return cols, nil
}

// unmatched4grams counts the stories of every system, and those without a
// 4-gram in common with their references, in the corpora corpus makes.
func unmatched4grams(in *Inputs, corpus func(*Inputs, string) (*ngram.Corpus, error)) (n, unmatched int, err error) {
	for _, sys := range in.Systems {
		c, err := corpus(in, sys)
		if err != nil {
			return 0, 0, err
		}
		for _, id := range c.IDs() {
			n++
			if !shares4gram(c.Candidate(id), c.References(id)) {
				unmatched++
			}
		}
	}
	return n, unmatched, nil
}

// shares4gram reports whether the (tokenized) candidate has a 4-gram of
// words that one of the references has.
func shares4gram(cand string, refs []string) bool {
	grams := map[[4]string]bool{}
	for _, r := range refs {
		w := strings.Fields(r)
		for i := 0; i+4 <= len(w); i++ {
			grams[[4]string(w[i:i+4])] = true
		}
	}
	w := strings.Fields(cand)
	for i := 0; i+4 <= len(w); i++ {
		if grams[[4]string(w[i:i+4])] {
			return true
		}
	}
	return false
}

// degenerate says why a column's per-story scores do not rank the systems
// when more than half of its n stories (bad of them) have what, or "".
func degenerate(bad, n int, what string) string {
	if 2*bad <= n {
		return ""
	}
	return fmt.Sprintf("%d of %d stories %s; the means of such per-story scores do not rank the systems (see the corpus-level score where there is one)", bad, n, what)
}

// cocoScores computes BLEU-4, ROUGE-L and CIDEr-D of one system.
func cocoScores(in *Inputs, sys string) ([]Column, error) {
	c, err := tokenizedCorpus(in, sys)
	if err != nil {
		return nil, err
	}
	bleu := ngram.BLEU(c)
	rouge, rougeWhy := ngram.ROUGELDetails(c)
	cider, ciderWhy := ngram.CIDErDDetails(c)
	ids := c.IDs()
	cols := make([]Column, len(cocoColumns))
	for k, name := range cocoColumns {
		cols[k] = newColumn(name, sys, len(ids))
	}
	for i, id := range ids {
		b := bleu.Items[id]
		cols[0].Scores[sys][i] = b[3]
		cols[0].Notes[sys][i] = fmt.Sprintf("BLEU-1 %.3f, BLEU-2 %.3f, BLEU-3 %.3f", b[0], b[1], b[2])
		if !shares4gram(c.Candidate(id), c.References(id)) {
			cols[0].Notes[sys][i] += "; no 4-gram in common with the references"
		}
		cols[1].Scores[sys][i], cols[1].Notes[sys][i] = rouge.Items[id], rougeNote(rougeWhy[id])
		cols[2].Scores[sys][i], cols[2].Notes[sys][i] = cider.Items[id], ciderNote(ciderWhy[id])
	}
	// The corpus-level scores papers report: BLEU-4 of the summed
	// n-gram counts, CIDEr-D the mean over the stories.
	cols[0].Corpus = map[string]float64{sys: bleu.Corpus[3]}
	cols[2].Corpus = map[string]float64{sys: cider.Corpus}
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
		return nil, fmt.Errorf("%s: no Meteor scorer", m.columns[0])
	}
	// Both configurations score an item by its best reference's
	// statistics (ItemStats: the item scores of CorpusScoresVIST, on the
	// text as given, and of Corpus, on the PTB-tokenized text), which
	// also explain the score.
	corpus := tokenizedCorpus
	if m.vist {
		corpus = rawCorpus
	}
	return perSystem(ctx, in, func(sys string, _ func(int, int)) ([]Column, error) {
		c, err := corpus(in, sys)
		if err != nil {
			return nil, err
		}
		stats, err := m.m.ItemStats(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.columns[0], err)
		}
		col := newColumn(m.columns[0], sys, in.Suite.Len())
		for i, seq := range in.Suite.All() {
			col.Scores[sys][i], col.Notes[sys][i] = stats[seq.ID].Score, meteorNote(stats[seq.ID])
		}
		return []Column{col}, nil
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
	cols, err := perSystem(ctx, in, func(sys string, _ func(int, int)) ([]Column, error) {
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
	if err != nil {
		return nil, err
	}
	n, unmatched, err := unmatched4grams(in, rawCorpus)
	if err != nil {
		return nil, err
	}
	cols[0].Degenerate = degenerate(unmatched, n, "have no 4-gram in common with their references, so their unsmoothed NLTK BLEU-4 is NLTK's stand-in for 0 (about 1e-300 to 1e-80), not a score")
	return cols, nil
}

// itemColumn is a column of per-story scores keyed by sequence id.
func itemColumn(name, sys string, in *Inputs, items map[string]float64) Column {
	col := newColumn(name, sys, in.Suite.Len())
	for i, seq := range in.Suite.All() {
		col.Scores[sys][i] = items[seq.ID]
	}
	return col
}
