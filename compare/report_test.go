package compare

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/ngram"
)

// The report answers "which system is better, and is it real": each
// unordered pair once with its raw and Holm-adjusted p (the adjustment
// being correlation.AdjustP over every test), corpus-level BLEU-4 and
// CIDEr-D as ngram computes them, no best system where per-story BLEU-4 is
// degenerate, one Williams test per pair of metrics, BLEU-4 diagnostics.
func TestReportAnswers(t *testing.T) {
	s := testSuite(t)
	ratings := Ratings{}
	for i, seq := range s.All() {
		for k, sys := range s.Systems() {
			ratings[[2]string{seq.ID, sys}] = float64(3 - k + i)
		}
	}
	for _, method := range []correlation.Correction{correlation.Holm, correlation.BenjaminiHochberg} {
		r, err := Compare(t.Context(), s, []Metric{BLEU(), ROUGEL(), CIDErD(), NonRedundancy()}, Options{Resamples: 20, Rounds: 20, Ratings: ratings, Correction: method})
		if err != nil {
			t.Fatal(err)
		}
		sum := r.Summary
		if len(sum.Pairs) != 4*3 || sum.PairCorrection == nil || len(sum.PairCorrection.P) != len(sum.Pairs) || sum.PairCorrection.Method != method.String() {
			t.Fatalf("%d pairs, correction %+v", len(sum.Pairs), sum.PairCorrection)
		}
		raw := make([]float64, len(sum.Pairs))
		for i, p := range sum.Pairs {
			raw[i] = float64(p.P)
		}
		want, err := correlation.AdjustP(raw, method)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range sum.PairCorrection.P {
			if float64(p) != want[i] && !(math.IsNaN(want[i]) && math.IsNaN(float64(p))) {
				t.Errorf("%v: adjusted p %d = %v, want %v", method, i, p, want[i])
			}
		}
		for _, sys := range s.Systems() {
			cands, refs := map[string]string{}, map[string][]string{}
			for _, seq := range s.All() {
				cands[seq.ID], refs[seq.ID] = seq.Stories[sys], seq.References
			}
			c, err := ngram.NewCorpus(cands, refs)
			if err != nil {
				t.Fatal(err)
			}
			tc := c.Tokenized()
			if b, got := ngram.BLEU(tc).Corpus[3], float64(sum.Corpus["BLEU-4"][sys]); b != got {
				t.Errorf("corpus BLEU-4 of %s: %v, ngram %v", sys, got, b)
			}
			if cd, got := ngram.CIDErD(tc).Corpus, float64(sum.Corpus["CIDEr-D"][sys]); cd != got {
				t.Errorf("corpus CIDEr-D of %s: %v, ngram %v", sys, got, cd)
			}
		}
		if _, ok := sum.Corpus["ROUGE-L"]; ok {
			t.Errorf("ROUGE-L has a corpus score")
		}
		var html bytes.Buffer
		if err := r.WriteHTML(&html); err != nil {
			t.Fatal(err)
		}
		page := html.String()
		name := map[correlation.Correction]string{correlation.Holm: "Holm", correlation.BenjaminiHochberg: "Benjamini–Hochberg"}[method]
		for _, w := range []string{"<th>p (" + name + ")</th>", "Corpus-level scores", "Which system is better", "BLEU-1 "} {
			if !strings.Contains(page, w) {
				t.Errorf("%v: report lacks %q", method, w)
			}
		}
		if n := strings.Count(page, "<tr><td>ROUGE-L</td>"); n != 3 {
			t.Errorf("%d ROUGE-L pair rows, want 3 (each unordered pair once)", n)
		}
		if got, want := len(unorderedWilliams(sum.Human)), 4*3/2; got != want || len(sum.Human.Williams) != 2*want {
			t.Errorf("%d Williams rows of %d tests, want %d", got, len(sum.Human.Williams), want)
		}
	}
}

// Where most per-story BLEU-4 scores are the toolkit's tiny constant, the
// report names no best system for it and says why.
func TestReportDegenerateBLEU(t *testing.T) {
	s := testSuite(t) // system c's one-word stories share no 4-gram; b's neither
	r, err := Compare(t.Context(), s, []Metric{BLEU()}, Options{Resamples: 5, Rounds: 5})
	if err != nil {
		t.Fatal(err)
	}
	// a's stories share 4-grams with their references ("a dog ran in",
	// "we went to the"), b's and c's do not (c's are shorter than 4 words).
	for sys, want := range map[string]bool{"a": false, "b": true, "c": true} {
		for i, note := range r.Columns[0].Notes[sys] {
			if got := strings.HasSuffix(note, "; no 4-gram in common with the references"); got != want {
				t.Errorf("%s/%d: note %q", sys, i, note)
			}
		}
	}
	why := r.Summary.Degenerate["BLEU-4"]
	if !strings.HasPrefix(why, "4 of 6 stories have no 4-gram in common") {
		t.Fatalf("degenerate: %q", why)
	}
	nltk, err := Compare(t.Context(), s, []Metric{NLTKBLEU()}, Options{Resamples: 5, Rounds: 5})
	if err != nil {
		t.Fatal(err)
	}
	if why := nltk.Summary.Degenerate["NLTK-BLEU-4"]; !strings.HasPrefix(why, "4 of 6 stories have no 4-gram in common") {
		t.Errorf("NLTK BLEU degenerate: %q", why)
	}
	var html bytes.Buffer
	if err := r.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(html.String(), `class="best"`) || !strings.Contains(html.String(), "BLEU-4: no best system.") {
		t.Errorf("report highlights a best BLEU-4 or does not say why not")
	}
}
