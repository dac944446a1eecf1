package vhed_test

import (
	"strings"
	"testing"

	"github.com/storyeval/storyeval/vhed"
)

// TestWriteTable checks the table of testOutput against the layout worked
// out by hand: accuracies with 3 decimals and their counts, "–" for the
// empty Ω^3, the union named Ω4,5, ties, the outrank counts human vs
// metric, the error label line and the buckets' half-open ranges, columns
// two spaces apart.
func TestWriteTable(t *testing.T) {
	var b strings.Builder
	if err := vhed.WriteTable(&b, testOutput()); err != nil {
		t.Fatal(err)
	}
	want := "vhed.csv: 5 pairs, 1 human ties left out; label: positive\n\n" +
		"scorer  accuracy     Ω3  Ω4,5         ref–machine (Ω^{4,5})  machine–machine (Ω^{4,5})  ties  undecided  machine>ref (human/metric)  error–gap r  \n" +
		"bleu    0.750 (3/4)  –   1.000 (2/2)  1.000 (1/1)            1.000 (1/1)                1     0          1/1 vs 0/1                  0.250        \n" +
		"\n" +
		"bleu vs error \"repetition\": point-biserial r -0.500 (p 0.04) over 6 stories\n" +
		"\n" +
		"accuracy by |rank_norm|  [0, 0.5)     ≥ 0.5        \n" +
		"bleu                     0.500 (1/2)  1.000 (2/2)  \n"
	if got := b.String(); got != want {
		t.Fatalf("table:\n%s\nwant:\n%s", got, want)
	}
	var empty strings.Builder
	if err := vhed.WriteTable(&empty, vhed.Output{CSV: "x.csv"}); err != nil || !strings.HasPrefix(empty.String(), "x.csv: 0 pairs") {
		t.Fatalf("no scorers: %q, %v", empty.String(), err)
	}
}
