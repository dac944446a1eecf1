package ngram

import (
	"math"
	"testing"
)

// relClose reports whether got is within tol of want, relative to |want|
// (absolute when want is 0).
func relClose(got, want, tol float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= tol*math.Max(math.Abs(want), math.SmallestNonzeroFloat64)
}

// cocoScores computes every toolkit metric this package implements, with
// Evaluate, in the golden files' key names (Evaluate's column names).
func cocoScores(t *testing.T, c *Corpus) (corpus map[string]float64, items map[string]map[string]float64) {
	t.Helper()
	ev, err := Evaluate(c, EvaluateOptions{Metrics: []string{MetricCIDEr, MetricROUGE, MetricBLEU}})
	if err != nil {
		t.Fatal(err)
	}
	corpus = map[string]float64{}
	items = map[string]map[string]float64{}
	for k, col := range ev.Columns {
		corpus[col] = ev.Corpus[k]
		for i, id := range ev.IDs {
			if items[id] == nil {
				items[id] = map[string]float64{}
			}
			items[id][col] = ev.Items[i][k]
		}
	}
	return corpus, items
}

var cocoMetricKeys = []string{"Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr"}

func TestCocoMetricsMatchToolkit(t *testing.T) {
	const tol = 1e-12
	for _, name := range goldenCases {
		var in caseFile
		var gold cocoGolden
		readGzipJSON(t, name+".json.gz", &in)
		readGzipJSON(t, name+".coco.json.gz", &gold)
		raw, err := NewCorpus(in.Cands, in.Refs)
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []string{"raw", "ptb"} {
			c := raw
			if mode == "ptb" {
				c = raw.Tokenized()
			}
			g := gold.Modes[mode]
			corpus, items := cocoScores(t, c)
			checked, exact := 0, 0
			for _, key := range cocoMetricKeys {
				want, ok := g.Corpus[key]
				if !ok {
					t.Fatalf("%s/%s: golden lacks corpus %s", name, mode, key)
				}
				checked++
				if corpus[key] == want {
					exact++
				}
				if !relClose(corpus[key], want, tol) {
					t.Errorf("%s/%s corpus %s = %.17g, want %.17g", name, mode, key, corpus[key], want)
				}
			}
			if len(g.Items) != c.Len() {
				t.Fatalf("%s/%s: golden has %d items, corpus %d", name, mode, len(g.Items), c.Len())
			}
			for id, wantItem := range g.Items {
				for _, key := range cocoMetricKeys {
					checked++
					got := items[id][key]
					if got == wantItem[key] {
						exact++
					}
					if !relClose(got, wantItem[key], tol) {
						t.Errorf("%s/%s item %s %s = %.17g, want %.17g", name, mode, id, key, got, wantItem[key])
					}
				}
			}
			t.Logf("%s/%s: %d values within %g, %d bit-identical", name, mode, checked, tol, exact)
		}
	}
}
