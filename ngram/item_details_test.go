package ngram

import (
	"math"
	"testing"
)

func detailCorpus(t *testing.T, cands map[string]string, refs map[string][]string) *Corpus {
	t.Helper()
	c, err := NewCorpus(cands, refs)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A hand-worked ROUGE-L: precision and recall are maximised over
// different references, and the scores are ROUGEL's.
func TestROUGELDetailsByHand(t *testing.T) {
	c := detailCorpus(t, map[string]string{"x": "a b c d"}, map[string][]string{"x": {"a c d e f", "b c"}})
	s, d := ROUGELDetails(c)
	// Reference 0: LCS "a c d" = 3, P 3/4, R 3/5; reference 1: LCS
	// "b c" = 2, P 2/4, R 2/2.
	want := ROUGELDetail{Words: 4, Precision: 0.75, Recall: 1, PrecisionRef: 0, PrecisionLCS: 3, RecallRef: 1, RecallLCS: 2, RecallRefWords: 2}
	if d["x"] != want {
		t.Errorf("detail = %+v, want %+v", d["x"], want)
	}
	// F = (1+β²)PR / (R + β²P), β = 1.2: 2.44·0.75 / (1 + 1.44·0.75).
	if f := 2.44 * 0.75 / (1 + 1.44*0.75); math.Abs(s.Items["x"]-f) > 1e-15 || s.Items["x"] != ROUGEL(c).Items["x"] {
		t.Errorf("score %v, want %v (ROUGEL %v)", s.Items["x"], f, ROUGEL(c).Items["x"])
	}
}

// A hand-worked CIDEr-D on two items: idf = ln 2 for every n-gram (each
// in one item's references of two); item a matches its reference exactly
// on orders 1 and 2 and has no 3-grams; item b matches nothing and is
// longer than one reference and shorter than the other.
func TestCIDErDDetailsByHand(t *testing.T) {
	c := detailCorpus(t,
		map[string]string{"a": "a b", "b": "c d g"},
		map[string][]string{"a": {"a b"}, "b": {"e f", "e f h i j"}})
	s, d := CIDErDDetails(c)
	plain := CIDErD(c)
	for id, v := range plain.Items {
		if s.Items[id] != v {
			t.Errorf("%s: score %v, CIDErD %v", id, s.Items[id], v)
		}
	}
	if s.Corpus != plain.Corpus {
		t.Errorf("corpus %v, CIDErD %v", s.Corpus, plain.Corpus)
	}
	// Item a: cosine 1 on unigrams and bigrams, ×10; equal lengths.
	if got := d["a"]; !near(got.Orders[:], []float64{10, 10, 0, 0}) || got.Penalty != 1 || got.Words != 2 || got.References != 1 {
		t.Errorf("a: %+v", got)
	}
	if s.Items["a"] != 5 {
		t.Errorf("a: score %v, want 5 (mean of 10, 10, 0, 0)", s.Items["a"])
	}
	// Item b: 2 bigrams against 1 and 4: δ = 1 and −2, σ = 6.
	pen := (math.Exp(-1.0/72) + math.Exp(-4.0/72)) / 2
	if got := d["b"]; got.Orders != [4]float64{} || math.Abs(got.Penalty-pen) > 1e-15 || got.Words != 3 || got.References != 2 {
		t.Errorf("b: %+v, want penalty %v", got, pen)
	}
}

// Meteor's statistics per item: a candidate whose words all match, in
// two chunks, against a reference with one more (function) word.
func TestMeteorItemStatsByHand(t *testing.T) {
	m, err := NewMeteor(MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := detailCorpus(t, map[string]string{"x": "cat sat mat", "y": "a dog"}, map[string][]string{"x": {"cat sat on mat"}, "y": {"a dog ran", "the dog"}})
	st, err := m.ItemStats(c)
	if err != nil {
		t.Fatal(err)
	}
	scores, err := m.CorpusScores(c)
	if err != nil {
		t.Fatal(err)
	}
	for id, v := range scores.Items {
		if st[id].Score != v {
			t.Errorf("%s: Score %v, CorpusScores %v", id, st[id].Score, v)
		}
	}
	x, p := st["x"], m.params
	// P = 1 (every test word matched); R = 3δ / (3δ + (1−δ)) with "on" a
	// function word; "cat sat" + "mat" are 2 chunks over 3 matches.
	wantR := 3 * p.delta / (3*p.delta + (1 - p.delta))
	wantPen := p.gamma * math.Pow(2.0/3, p.beta)
	if x.Precision != 1 || math.Abs(x.Recall-wantR) > 1e-12 || x.Chunks != 2 || x.TestTotalMatches != 3 || math.Abs(x.FragPenalty-wantPen) > 1e-12 {
		t.Errorf("x: P %v R %v (want %v) chunks %v matches %v penalty %v (want %v)", x.Precision, x.Recall, wantR, x.Chunks, x.TestTotalMatches, x.FragPenalty, wantPen)
	}
	if _, err := m.ItemStats(&Corpus{ids: []string{"z"}, cands: map[string]string{"z": "a"}, refs: map[string][]string{}}); err == nil || err.Error() != `item "z" has no references` {
		t.Errorf("no references: err = %v", err)
	}
}

// near reports whether a and b agree to 1e-12 (relative to 1).
func near(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return len(a) == len(b)
}
