package ngram

import (
	"fmt"
	"slices"
	"strings"
)

// The metric names Evaluate accepts, in the order it computes and reports
// them.
const (
	// MetricBLEU is COCO's BLEU-1..4 (BLEU), columns Bleu_1 to Bleu_4.
	MetricBLEU = "bleu"
	// MetricMETEOR is Meteor 1.5 as configured by EvaluateOptions.Meteor
	// (CorpusScores), column METEOR.
	MetricMETEOR = "meteor"
	// MetricROUGE is ROUGE-L (ROUGEL), column ROUGE_L.
	MetricROUGE = "rouge"
	// MetricCIDEr is CIDEr-D (CIDErD), column CIDEr.
	MetricCIDEr = "cider"
	// MetricNLTKBLEU is NLTK 3.8's sentence and corpus BLEU (NLTKBLEU),
	// column NLTK_BLEU.
	MetricNLTKBLEU = "nltkbleu"
	// MetricMETEORVIST is METEOR as the AREL/MSR VIST scripts run it
	// (CorpusScoresVIST with MeteorVISTOptions), column METEOR_VIST.
	MetricMETEORVIST = "meteor-vist"
)

// Metrics returns the names of every metric Evaluate computes, in its
// order.
func Metrics() []string {
	return []string{MetricBLEU, MetricMETEOR, MetricROUGE, MetricCIDEr, MetricNLTKBLEU, MetricMETEORVIST}
}

// DefaultMetrics returns the COCO caption toolkit's four metrics, what
// Evaluate computes when EvaluateOptions.Metrics is empty.
func DefaultMetrics() []string { return Metrics()[:4] }

// EvaluateOptions configures Evaluate. The zero value computes the COCO
// caption toolkit's metrics as it does, without METEOR's paraphrase table.
type EvaluateOptions struct {
	// Metrics names the metrics to compute (see Metrics), in any order and
	// case; nil or empty means DefaultMetrics.
	Metrics []string
	// Meteor configures MetricMETEOR. Its ParaphraseTable is
	// MetricMETEORVIST's paraphrase table too.
	Meteor MeteorOptions
	// NLTKBLEU configures MetricNLTKBLEU.
	NLTKBLEU NLTKBLEUOptions
	// Progress, when set, is called with a metric's name when it is done,
	// from the goroutine that called Evaluate.
	Progress func(metric string)
}

// Evaluation is what Evaluate returns: one column per score, the corpus
// score of each, and each item's, in the corpus's item order.
type Evaluation struct {
	// Columns names the scores as the COCO caption toolkit does (Bleu_1 …
	// Bleu_4, METEOR, ROUGE_L, CIDEr), then NLTK_BLEU and METEOR_VIST.
	Columns []string
	// Corpus holds the corpus-level score of each column.
	Corpus []float64
	// IDs are the corpus's items in its order.
	IDs []string
	// Items[i][k] is column k's score of item IDs[i].
	Items [][]float64
}

// Evaluate computes the requested metrics on c (tokenize it first, with
// Corpus.Tokenized, for the COCO toolkit's PTB tokenization), as the COCO
// caption toolkit's COCOEvalCap does for its four. ROUGE-L and CIDEr-D run
// on goroutines of their own beside the others: each is parallel, but has
// serial stretches the others fill. An unknown metric name is an error
// before anything is computed.
func Evaluate(c *Corpus, opts EvaluateOptions) (*Evaluation, error) {
	want := map[string]bool{}
	names := opts.Metrics
	if len(names) == 0 {
		names = DefaultMetrics()
	}
	for _, m := range names {
		m = strings.ToLower(strings.TrimSpace(m))
		if !slices.Contains(Metrics(), m) {
			return nil, fmt.Errorf("unknown metric %q (available: %s)", m, strings.Join(Metrics(), ", "))
		}
		want[m] = true
	}
	rouge := inBackground(want[MetricROUGE], ROUGEL, c)
	cider := inBackground(want[MetricCIDEr], CIDErD, c)
	ev := &Evaluation{IDs: c.IDs(), Items: make([][]float64, c.Len())}
	add := func(column string, corpus float64, item func(id string) float64) {
		ev.Columns = append(ev.Columns, column)
		ev.Corpus = append(ev.Corpus, corpus)
		for i, id := range ev.IDs {
			ev.Items[i] = append(ev.Items[i], item(id))
		}
	}
	addScores := func(metric, column string, s Scores) {
		add(column, s.Corpus, func(id string) float64 { return s.Items[id] })
		if opts.Progress != nil {
			opts.Progress(metric)
		}
	}
	if want[MetricBLEU] {
		b := BLEU(c)
		for k := range b.Corpus {
			add(fmt.Sprintf("Bleu_%d", k+1), b.Corpus[k], func(id string) float64 { return b.Items[id][k] })
		}
		if opts.Progress != nil {
			opts.Progress(MetricBLEU)
		}
	}
	if want[MetricMETEOR] {
		m, err := NewMeteor(opts.Meteor)
		if err != nil {
			return nil, err
		}
		s, err := m.CorpusScores(c)
		if err != nil {
			return nil, err
		}
		addScores(MetricMETEOR, "METEOR", s)
	}
	if want[MetricROUGE] {
		addScores(MetricROUGE, "ROUGE_L", rouge())
	}
	if want[MetricCIDEr] {
		addScores(MetricCIDEr, "CIDEr", cider())
	}
	if want[MetricNLTKBLEU] {
		s, err := NLTKBLEU(c, opts.NLTKBLEU)
		if err != nil {
			return nil, err
		}
		addScores(MetricNLTKBLEU, "NLTK_BLEU", s)
	}
	if want[MetricMETEORVIST] {
		mo := MeteorVISTOptions()
		mo.ParaphraseTable = opts.Meteor.ParaphraseTable
		m, err := NewMeteor(mo)
		if err != nil {
			return nil, err
		}
		s, err := m.CorpusScoresVIST(c)
		if err != nil {
			return nil, err
		}
		addScores(MetricMETEORVIST, "METEOR_VIST", s)
	}
	return ev, nil
}

// inBackground starts f(x) on a goroutine of its own when run is true and
// returns a function that waits for its result (the zero value when run
// is false).
func inBackground[X, T any](run bool, f func(X) T, x X) func() T {
	if !run {
		return func() (zero T) { return }
	}
	done := make(chan T, 1)
	go func() { done <- f(x) }()
	return func() T { return <-done }
}
