package ngram

import (
	"fmt"
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

// cocoScores computes every toolkit metric this package implements in the
// golden files' key names.
func cocoScores(c *Corpus) (corpus map[string]float64, items map[string]map[string]float64) {
	bleu := BLEU(c)
	rouge := ROUGEL(c)
	cider := CIDErD(c)
	corpus = map[string]float64{"ROUGE_L": rouge.Corpus, "CIDEr": cider.Corpus}
	for k := range maxOrder {
		corpus[fmt.Sprintf("Bleu_%d", k+1)] = bleu.Corpus[k]
	}
	items = map[string]map[string]float64{}
	for _, id := range c.IDs() {
		m := map[string]float64{"ROUGE_L": rouge.Items[id], "CIDEr": cider.Items[id]}
		for k := range maxOrder {
			m[fmt.Sprintf("Bleu_%d", k+1)] = bleu.Items[id][k]
		}
		items[id] = m
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
			corpus, items := cocoScores(c)
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
