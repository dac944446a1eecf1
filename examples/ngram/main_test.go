package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// golden reads one of the ngram package's golden files.
func golden(t *testing.T, name string, v any) {
	t.Helper()
	f, err := os.Open("../../ngram/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.NewDecoder(zr).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// TestRunMatchesToolkits checks the example's output on the 32 golden
// caption cases against pycocoevalcap (Bleu_1..4, METEOR, ROUGE_L, CIDEr:
// corpus scores to the 6 printed decimals, every item's within 1e-9) and
// NLTK 3.8's corpus_bleu on the PTB-tokenized text.
func TestRunMatchesToolkits(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-in", "../../ngram/testdata/captions_small.json.gz"}); err != nil {
		t.Fatal(err)
	}
	type mode struct {
		Corpus map[string]float64            `json:"corpus"`
		Items  map[string]map[string]float64 `json:"items"`
	}
	var coco, nltk struct {
		Modes map[string]mode `json:"modes"`
	}
	golden(t, "captions_small.coco.json.gz", &coco)
	golden(t, "captions_small.nltk.json.gz", &nltk)
	want := coco.Modes["ptb"]
	want.Corpus["NLTK_BLEU"] = nltk.Modes["ptb"].Corpus["Bleu_4"]

	summary, table, _ := strings.Cut(out.String(), "\n\n")
	corpusChecked := 0
	for _, line := range strings.Split(summary, "\n") {
		var col string
		var v float64
		if _, err := fmt.Sscanf(line, "%s %g", &col, &v); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		w, ok := want.Corpus[col]
		if !ok {
			t.Errorf("column %s has no golden value", col)
			continue
		}
		if math.Abs(v-w) > 5e-7 { // printed to 6 decimals
			t.Errorf("corpus %s = %v, golden %v", col, v, w)
		}
		corpusChecked++
	}
	if corpusChecked != 8 {
		t.Errorf("%d corpus scores checked, want 8", corpusChecked)
	}
	rows, err := csv.NewReader(strings.NewReader(table)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header, itemsChecked := rows[0], 0
	for _, row := range rows[1:] {
		for k, col := range header[1:] {
			w, ok := want.Items[row[0]][col]
			if !ok {
				continue // NLTK_BLEU per item: sentence_bleu, not in the COCO file
			}
			v, err := strconv.ParseFloat(row[k+1], 64)
			if err != nil || math.Abs(v-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("item %s %s = %s, golden %v", row[0], col, row[k+1], w)
			}
			itemsChecked++
		}
	}
	if itemsChecked != 32*7 {
		t.Errorf("%d item scores checked, want 32 items x 7 COCO columns", itemsChecked)
	}
}
