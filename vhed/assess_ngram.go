package vhed

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/ngram"
)

// AssessRefMetric is a reference-based metric that scores candidates
// against their references, higher meaning better. RefAbsentScorer and
// AssessRefScorer use it; AssessBLEU, AssessSacreBLEU, AssessMETEOR,
// AssessROUGEL and AssessCIDErD wrap package ngram's metrics.
type AssessRefMetric interface {
	// Name names the metric in reports and plots.
	Name() string
	// ScoreItems returns one score per candidate, in input order;
	// refs[i] holds the references of cands[i] (at least one). The items
	// form one corpus, which matters for metrics with corpus statistics
	// such as CIDEr-D's document frequencies.
	ScoreItems(ctx context.Context, cands []string, refs [][]string) ([]float64, error)
}

// assessNgramMetric adapts one of package ngram's corpus metrics.
type assessNgramMetric struct {
	name string
	// tokenize runs the COCO toolkit's PTB tokenizer first, as
	// pycocoevalcap does before every scorer.
	tokenize bool
	score    func(c *ngram.Corpus) (map[string]float64, error)
}

func (m assessNgramMetric) Name() string { return m.name }

func (m assessNgramMetric) ScoreItems(ctx context.Context, cands []string, refs [][]string) ([]float64, error) {
	if len(cands) != len(refs) {
		return nil, fmt.Errorf("%s: %d candidates and %d reference lists", m.name, len(cands), len(refs))
	}
	if len(cands) == 0 {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ids := make([]string, len(cands))
	cm := make(map[string]string, len(cands))
	rm := make(map[string][]string, len(cands))
	for i := range cands {
		ids[i] = strconv.Itoa(i)
		cm[ids[i]] = cands[i]
		rm[ids[i]] = refs[i]
	}
	c, err := ngram.NewCorpus(cm, rm)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.name, err)
	}
	if m.tokenize {
		c = c.Tokenized()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	items, err := m.score(c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.name, err)
	}
	out := make([]float64, len(cands))
	for i, id := range ids {
		out[i] = items[id]
	}
	return out, ctx.Err()
}

// AssessBLEU returns the COCO caption toolkit's BLEU-n (n in 1..4) as an
// AssessRefMetric: PTB-tokenized, then scored by ngram.BLEU, with each
// item's own sentence-level score.
func AssessBLEU(n int) (AssessRefMetric, error) {
	if n < 1 || n > 4 {
		return nil, fmt.Errorf("BLEU order %d outside 1..4", n)
	}
	return assessNgramMetric{
		name:     "BLEU-" + strconv.Itoa(n),
		tokenize: true,
		score: func(c *ngram.Corpus) (map[string]float64, error) {
			b := ngram.BLEU(c)
			out := make(map[string]float64, len(b.Items))
			for id, s := range b.Items {
				out[id] = s[n-1]
			}
			return out, nil
		},
	}, nil
}

// AssessSacreBLEU returns SacreBLEU's sentence BLEU (ngram.SacreBLEU with
// opts, 0–100) on the untokenized text as an AssessRefMetric.
func AssessSacreBLEU(opts ngram.SacreBLEUOptions) AssessRefMetric {
	return assessNgramMetric{
		name: "SacreBLEU",
		score: func(c *ngram.Corpus) (map[string]float64, error) {
			s, err := ngram.SacreBLEU(c, opts)
			return s.Items, err
		},
	}
}

// AssessROUGEL returns the COCO toolkit's ROUGE-L (PTB-tokenized,
// ngram.ROUGEL) as an AssessRefMetric.
func AssessROUGEL() AssessRefMetric {
	return assessNgramMetric{
		name:     "ROUGE-L",
		tokenize: true,
		score: func(c *ngram.Corpus) (map[string]float64, error) {
			return ngram.ROUGEL(c).Items, nil
		},
	}
}

// AssessCIDErD returns the COCO toolkit's CIDEr-D (PTB-tokenized,
// ngram.CIDErD) as an AssessRefMetric. Its document frequencies come from
// the items scored together in one ScoreItems call.
func AssessCIDErD() AssessRefMetric {
	return assessNgramMetric{
		name:     "CIDEr-D",
		tokenize: true,
		score: func(c *ngram.Corpus) (map[string]float64, error) {
			return ngram.CIDErD(c).Items, nil
		},
	}
}

// AssessMETEOR returns METEOR 1.5 as the COCO toolkit runs it (PTB-
// tokenized, then m.Corpus) as an AssessRefMetric. A nil m is built with
// the default ngram.MeteorOptions.
func AssessMETEOR(m *ngram.Meteor) (AssessRefMetric, error) {
	if m == nil {
		var err error
		if m, err = ngram.NewMeteor(ngram.MeteorOptions{}); err != nil {
			return nil, fmt.Errorf("METEOR: %w", err)
		}
	}
	return assessNgramMetric{
		name:     "METEOR",
		tokenize: true,
		score: func(c *ngram.Corpus) (map[string]float64, error) {
			cands := make(map[string]string, c.Len())
			refs := make(map[string][]string, c.Len())
			for _, id := range c.IDs() {
				cands[id] = c.Candidate(id)
				refs[id] = c.References(id)
			}
			_, items, err := m.Corpus(cands, refs)
			return items, err
		},
	}, nil
}

// AssessNLTKBLEU returns NLTK 3.8's sentence_bleu (ngram.NLTKBLEU with
// opts; the zero value is BLEU-4 without smoothing, whose many exact-zero
// scores the Vrank paper's BLEU accuracies count as ties) as an
// AssessRefMetric, on the text as given split at white space (Python's
// str.split()).
func AssessNLTKBLEU(opts ngram.NLTKBLEUOptions) AssessRefMetric {
	return assessNgramMetric{
		name: "NLTK-BLEU",
		score: func(c *ngram.Corpus) (map[string]float64, error) {
			s, err := ngram.NLTKBLEU(c, opts)
			return s.Items, err
		},
	}
}

// AssessMETEORVIST returns METEOR as the AREL/MSR VIST scripts compute it
// (ngram.MeteorVISTOptions, Meteor.CorpusScoresVIST: -t hter without -norm,
// each item's best reference) on the text as given, as an AssessRefMetric.
// A nil m is built with ngram.MeteorVISTOptions().
func AssessMETEORVIST(m *ngram.Meteor) (AssessRefMetric, error) {
	if m == nil {
		var err error
		if m, err = ngram.NewMeteor(ngram.MeteorVISTOptions()); err != nil {
			return nil, fmt.Errorf("METEOR-VIST: %w", err)
		}
	}
	return assessNgramMetric{
		name: "METEOR-VIST",
		score: func(c *ngram.Corpus) (map[string]float64, error) {
			s, err := m.CorpusScoresVIST(c)
			return s.Items, err
		},
	}, nil
}

// AssessRefMetricByName returns the metric named bleu (BLEU-4), bleu1 …
// bleu4, sacrebleu, meteor, rouge (or rougel, rouge-l), cider (or
// ciderd, cider-d), nltkbleu (or nltk-bleu: AssessNLTKBLEU's default) or
// meteor-vist (or meteorvist), in any case. METEOR loads its resources on
// the call.
func AssessRefMetricByName(name string) (AssessRefMetric, error) {
	switch n := strings.ToLower(strings.TrimSpace(name)); n {
	case "bleu", "bleu4", "bleu-4":
		return AssessBLEU(4)
	case "bleu1", "bleu-1", "bleu2", "bleu-2", "bleu3", "bleu-3":
		return AssessBLEU(int(n[len(n)-1] - '0'))
	case "sacrebleu":
		return AssessSacreBLEU(ngram.SacreBLEUOptions{}), nil
	case "meteor":
		return AssessMETEOR(nil)
	case "rouge", "rougel", "rouge-l", "rouge_l":
		return AssessROUGEL(), nil
	case "cider", "ciderd", "cider-d", "cider_d":
		return AssessCIDErD(), nil
	case "nltkbleu", "nltk-bleu":
		return AssessNLTKBLEU(ngram.NLTKBLEUOptions{}), nil
	case "meteor-vist", "meteorvist":
		return AssessMETEORVIST(nil)
	}
	return nil, fmt.Errorf("unknown reference metric %q (want bleu, bleu1..bleu4, sacrebleu, meteor, rouge, cider, nltkbleu or meteor-vist)", name)
}
