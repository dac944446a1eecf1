package compare

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/ngram"
	"github.com/storyeval/storyeval/stylem"
)

// notesOf runs Compare with the metrics and returns the notes of system
// c's story 1 ("the park .", against "a dog ran in the park . it was
// happy .") by column.
func notesOf(t *testing.T, metrics ...Metric) map[string]string {
	t.Helper()
	r, err := Compare(t.Context(), testSuite(t), metrics, Options{Resamples: 5, Rounds: 5})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, c := range r.Columns {
		out[c.Name] = c.Notes["c"][0]
	}
	return out
}

// The n-gram metrics' diagnostics, worked by hand on the PTB-tokenized
// "the park" against the 9 words "a dog ran in the park it was happy".
func TestNgramNotesByHand(t *testing.T) {
	m, err := ngram.NewMeteor(ngram.MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := notesOf(t, ROUGEL(), CIDErD(), METEOR(m))
	// ROUGE-L: the LCS is the whole story, 2 words: P 2/2, R 2/9.
	if want := "P 1.000 (LCS 2 of the story's 2 words, reference 1), R 0.222 (LCS 2 of reference 1's 9 words)"; got["ROUGE-L"] != want {
		t.Errorf("ROUGE-L note %q, want %q", got["ROUGE-L"], want)
	}
	// CIDEr-D: no 3- or 4-grams in a 2-word story; 1 bigram against 8:
	// penalty exp(−7²/72).
	pen := fmt.Sprintf("%.3f", math.Exp(-49.0/72))
	if c := got["CIDEr-D"]; !strings.HasPrefix(c, "1- to 4-gram similarity ") || !strings.HasSuffix(c, ", 0.000, 0.000 (mean over 1 reference); length penalty "+pen) {
		t.Errorf("CIDEr-D note %q, want orders 3 and 4 zero and penalty %s", c, pen)
	}
	// METEOR: both words match, in one chunk, so precision is 1.
	if c := got["METEOR"]; !strings.HasPrefix(c, "best reference: P 1.000, R ") || !strings.Contains(c, "; 2 of 2 words matched in 1 chunk, fragmentation penalty ") {
		t.Errorf("METEOR note %q", c)
	}
}

// OnlyStyle's diagnostic: each order's mean CNG, and the weightiest
// n-grams with their CNG read back from the table.
func TestOnlyStyleNoteByHand(t *testing.T) {
	tab, err := stylem.Build([]stylem.Record{
		{Image: "1", Style: "Outdoor", Captions: []string{"a walk in the park"}},
		{Image: "2", Style: "Indoor", Captions: []string{"the cat sat on the sofa"}},
	}, stylem.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := notesOf(t, OnlyStyle(tab, "Outdoor"))["OnlyStyle"]
	// "the park ." tokenizes to [the park <eos>]. "the" and "<eos>" are in
	// both styles' captions and weigh 0, "park" only in Outdoor's and
	// weighs 1, so the unigrams' mean is 1/3; the bigrams and the trigram
	// are only Outdoor's (1 each). Ties list in text order.
	for g, want := range map[string]float64{"the": 0, "<eos>": 0, "park": 1, "the park": 1, "park <eos>": 1, "the park <eos>": 1} {
		if v, _ := tab.CNG("Outdoor", g); v != want {
			t.Fatalf("CNG(Outdoor, %q) = %v, want %v", g, v, want)
		}
	}
	want := `mean CNG of the distinct 1-grams 0.333 (3 of 3 in the style), 2-grams 1.000 (2 of 2 in the style), 3-grams 1.000 (1 of 1 in the style); most "Outdoor": "park" 1.000, "park <eos>" 1.000, "the park" 1.000`
	if got != want {
		t.Errorf("OnlyStyle note\n%s\nwant\n%s", got, want)
	}
}
