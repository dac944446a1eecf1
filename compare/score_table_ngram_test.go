package compare_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/ngram"
)

// ExampleEvaluationTable prints a one-item corpus's BLEU-1 and ROUGE-L
// (by hand: 4 of the candidate's 4 words are in the reference of 5, so
// BLEU-1 is the brevity penalty e^(1-5/4) = 0.7788; the longest common
// subsequence is 4 words, so ROUGE-L is F_1.2 of P = 1, R = 0.8: 0.8714)
// as CSV, the item's row and the corpus row.
func ExampleEvaluationTable() {
	c, err := ngram.NewCorpus(map[string]string{"s1": "a dog on grass"}, map[string][]string{"s1": {"a dog on the grass"}})
	if err != nil {
		panic(err)
	}
	ev, err := ngram.Evaluate(c, ngram.EvaluateOptions{Metrics: []string{"bleu", "rouge"}})
	if err != nil {
		panic(err)
	}
	if err := compare.EvaluationTable(ev, nil).Write(os.Stdout, true); err != nil {
		panic(err)
	}
	// Output:
	// id,Bleu_1,Bleu_2,Bleu_3,Bleu_4,ROUGE_L
	// s1,0.7788007826820048,0.6358881762571986,0.5399903030856679,0.00010523157378387632,0.8714285714285713
	// ,0.7788007826820048,0.6358881762571986,0.5399903030856679,0.00010523157378387632,0.8714285714285713
}

// TestEvaluationTableTokenized checks that the JSON output holds the
// scores of the evaluation and, with a tokenized corpus, that corpus as
// "tokenized", which reads back as the same corpus; CSV leaves it out.
func TestEvaluationTableTokenized(t *testing.T) {
	c, err := ngram.NewCorpus(map[string]string{"s1": "A dog, on grass."}, map[string][]string{"s1": {"A dog on the grass."}})
	if err != nil {
		t.Fatal(err)
	}
	tok := c.Tokenized()
	ev, err := ngram.Evaluate(tok, ngram.EvaluateOptions{Metrics: []string{"bleu"}})
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := compare.EvaluationTable(ev, tok).Write(&js, false); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Corpus    map[string]float64            `json:"corpus"`
		Items     map[string]map[string]float64 `json:"items"`
		Tokenized json.RawMessage               `json:"tokenized"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatalf("%v in\n%s", err, js.String())
	}
	if got.Corpus["Bleu_1"] != ev.Corpus[0] || got.Items["s1"]["Bleu_4"] != ev.Items[0][3] {
		t.Errorf("scores %v %v, want the evaluation's %v %v", got.Corpus, got.Items, ev.Corpus, ev.Items)
	}
	back, err := ngram.ParseCorpus(got.Tokenized)
	if err != nil {
		t.Fatal(err)
	}
	if back.Candidate("s1") != "a dog on grass" || !reflect.DeepEqual(back.References("s1"), []string{"a dog on the grass"}) {
		t.Errorf("tokenized member reads back as %q, %q; want the PTB-tokenized text", back.Candidate("s1"), back.References("s1"))
	}
	var csv bytes.Buffer
	if err := compare.EvaluationTable(ev, tok).Write(&csv, true); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(csv.Bytes(), []byte("dog")) {
		t.Errorf("CSV holds the tokenized text:\n%s", csv.String())
	}
}
