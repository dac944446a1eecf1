package ngram

import (
	"slices"
	"strings"
	"testing"
)

// TestEvaluateColumns: columns come in Evaluate's order whatever the
// request's order and case, each equal to its metric computed alone, and
// Progress names each metric once, in that order.
func TestEvaluateColumns(t *testing.T) {
	c, err := NewCorpusInOrder([]string{"b", "a"},
		map[string]string{"a": "a man riding a horse", "b": "two dogs in the park"},
		map[string][]string{"a": {"a man rides a horse", "a person on a horse"}, "b": {"two dogs play in a park"}})
	if err != nil {
		t.Fatal(err)
	}
	var done []string
	ev, err := Evaluate(c, EvaluateOptions{Metrics: []string{" NLTKBLEU", "cider", "bleu", "rouge"}, Progress: func(m string) { done = append(done, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr", "NLTK_BLEU"}; !slices.Equal(ev.Columns, want) {
		t.Errorf("columns %v, want %v", ev.Columns, want)
	}
	if want := []string{MetricBLEU, MetricROUGE, MetricCIDEr, MetricNLTKBLEU}; !slices.Equal(done, want) {
		t.Errorf("progress %v, want %v", done, want)
	}
	if !slices.Equal(ev.IDs, []string{"b", "a"}) || len(ev.Items) != 2 {
		t.Fatalf("ids %v, %d item rows", ev.IDs, len(ev.Items))
	}
	bleu, rouge, cider := BLEU(c), ROUGEL(c), CIDErD(c)
	nltk, err := NLTKBLEU(c, NLTKBLEUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCorpus := []float64{bleu.Corpus[0], bleu.Corpus[1], bleu.Corpus[2], bleu.Corpus[3], rouge.Corpus, cider.Corpus, nltk.Corpus}
	if !slices.Equal(ev.Corpus, wantCorpus) {
		t.Errorf("corpus %v, alone %v", ev.Corpus, wantCorpus)
	}
	for i, id := range ev.IDs {
		b := bleu.Items[id]
		want := []float64{b[0], b[1], b[2], b[3], rouge.Items[id], cider.Items[id], nltk.Items[id]}
		if !slices.Equal(ev.Items[i], want) {
			t.Errorf("item %s: %v, alone %v", id, ev.Items[i], want)
		}
	}
}

func TestEvaluateErrors(t *testing.T) {
	c, err := NewCorpus(map[string]string{"a": "x"}, map[string][]string{"a": {"x"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Evaluate(c, EvaluateOptions{Metrics: []string{"bleu", "spice"}})
	if err == nil || !strings.Contains(err.Error(), `unknown metric "spice" (available: bleu, meteor, rouge, cider, nltkbleu, meteor-vist)`) {
		t.Errorf("unknown metric: error %v", err)
	}
}

func TestMeteorNames(t *testing.T) {
	for name, want := range map[string]MeteorNormalization{"norm": MeteorNormalize, "NoPunct": MeteorNormalizeNoPunct, "lower": MeteorLowerCase, "none": MeteorNoNormalize} {
		if got, err := MeteorNormalizationByName(name); err != nil || got != want {
			t.Errorf("MeteorNormalizationByName(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	if _, err := MeteorNormalizationByName("nfkc"); err == nil || !strings.Contains(err.Error(), `want norm, nopunct, lower or none, got "nfkc"`) {
		t.Errorf("nfkc: error %v", err)
	}
	for _, task := range MeteorTasks {
		if got, err := MeteorTaskByName(strings.ToUpper(string(task))); err != nil || got != task {
			t.Errorf("MeteorTaskByName(%q) = %q, %v", strings.ToUpper(string(task)), got, err)
		}
	}
	if _, err := MeteorTaskByName("bleu"); err == nil || !strings.Contains(err.Error(), `want one of adq, rank, hter, util, li, tune, got "bleu"`) {
		t.Errorf("bleu task: error %v", err)
	}
}
