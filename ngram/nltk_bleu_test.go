package ngram

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// nltkGolden is testdata/nltk_bleu.json.gz, written by nltk_bleu_gen.py with
// NLTK 3.8 (Debian python3-nltk).
type nltkGolden struct {
	NLTKVersion string `json:"nltk_version"`
	Python      string `json:"python"`
	Corpora     map[string]struct {
		IDs  []string     `json:"ids"`
		Hyps [][]string   `json:"hyps"`
		Refs [][][]string `json:"refs"`
	} `json:"corpora"`
	Cases []struct {
		Corpus        string     `json:"corpus"`
		Weights       []float64  `json:"weights"`
		Method        int        `json:"method"`
		AutoReweigh   bool       `json:"auto_reweigh"`
		Epsilon       float64    `json:"epsilon"`
		Alpha         int        `json:"alpha"`
		K             int        `json:"k"`
		Sentence      []*float64 `json:"sentence"`
		SentenceError []*string  `json:"sentence_error"`
		CorpusValue   *float64   `json:"corpus_value"`
		CorpusError   *string    `json:"corpus_error"`
	} `json:"cases"`
}

// TestNLTKBLEUFixtures checks sentence_bleu and corpus_bleu, every smoothing
// method, weights and auto_reweigh against NLTK on the captions corpus and
// random token corpora (zero matches, empty hypotheses and references,
// hypotheses shorter than four tokens), including where NLTK raises.
func TestNLTKBLEUFixtures(t *testing.T) {
	var g nltkGolden
	readGzipJSON(t, "nltk_bleu.json.gz", &g)
	t.Logf("testdata/nltk_bleu.json.gz: NLTK %s, Python %s, %d cases", g.NLTKVersion, g.Python, len(g.Cases))
	if len(g.Cases) == 0 {
		t.Fatal("no cases")
	}
	const tol = 1e-12
	checked, exact, errs, zeros := 0, 0, 0, 0
	check := func(what string, got float64, err error, want *float64, wantErr *string) {
		t.Helper()
		if wantErr != nil {
			if err == nil {
				t.Errorf("%s: got %v, NLTK raises %s", what, got, *wantErr)
			}
			errs++
			return
		}
		if want == nil {
			t.Fatalf("%s: fixture has neither value nor error", what)
		}
		if err != nil {
			t.Errorf("%s: %v, NLTK gives %v", what, err, *want)
			return
		}
		checked++
		if got == *want {
			exact++
		}
		if *want == 0 {
			zeros++
		}
		if math.Abs(got-*want) > tol {
			t.Errorf("%s: got %.17g, NLTK %.17g", what, got, *want)
		}
	}
	for ci, c := range g.Cases {
		corp, ok := g.Corpora[c.Corpus]
		if !ok {
			t.Fatalf("case %d: unknown corpus %q", ci, c.Corpus)
		}
		opts := NLTKBLEUOptions{Weights: c.Weights, Smoothing: NLTKSmoothing(c.Method), AutoReweigh: c.AutoReweigh, Epsilon: c.Epsilon, Alpha: c.Alpha, K: c.K}
		name := fmt.Sprintf("%s w=%v method%d auto=%v eps=%g", c.Corpus, c.Weights, c.Method, c.AutoReweigh, c.Epsilon)
		if len(c.Sentence) != len(corp.Hyps) {
			t.Fatalf("%s: %d sentence values for %d hypotheses", name, len(c.Sentence), len(corp.Hyps))
		}
		for i, h := range corp.Hyps {
			got, err := NLTKSentenceBLEU(corp.Refs[i], h, opts)
			check(fmt.Sprintf("%s sentence %d", name, i), got, err, c.Sentence[i], c.SentenceError[i])
		}
		got, err := NLTKCorpusBLEU(corp.Refs, corp.Hyps, opts)
		check(name+" corpus", got, err, c.CorpusValue, c.CorpusError)
	}
	t.Logf("%d values within %g (%d bit-identical, %d exactly 0), %d NLTK exceptions reproduced as errors", checked, tol, exact, zeros, errs)
}

// TestSplitNLTK checks that SplitNLTK splits the captions corpus as the
// generator's Python str.split() did.
func TestSplitNLTK(t *testing.T) {
	var g nltkGolden
	readGzipJSON(t, "nltk_bleu.json.gz", &g)
	var cf caseFile
	readGzipJSON(t, "captions_small.json.gz", &cf)
	corp := g.Corpora["captions_split"]
	if len(corp.IDs) == 0 {
		t.Fatal("no captions_split corpus")
	}
	n := 0
	for i, id := range corp.IDs {
		if got := SplitNLTK(cf.Cands[id]); !slices.Equal(got, corp.Hyps[i]) {
			t.Errorf("%s: SplitNLTK(%q) = %q, Python %q", id, cf.Cands[id], got, corp.Hyps[i])
		}
		n++
		for j, r := range cf.Refs[id] {
			if got := SplitNLTK(r); !slices.Equal(got, corp.Refs[i][j]) {
				t.Errorf("%s ref %d: SplitNLTK(%q) = %q, Python %q", id, j, r, got, corp.Refs[i][j])
			}
			n++
		}
	}
	t.Logf("%d strings split as Python", n)
}

// TestNLTKBLEUHand checks NLTK's documented behaviours on hand-computed
// cases.
func TestNLTKBLEUHand(t *testing.T) {
	hyp := []string{"the", "cat", "sat"}
	refs := [][]string{{"the", "cat", "sat", "down"}}
	// No trigram... every order matches: p1 = 3/3, p2 = 2/2, p3 = 1/1, p4 =
	// 0/1 → method0 gives BP·exp(0.25·ln(2^-1022)) = e^(1-4/3)·2^-255.5.
	got, err := NLTKSentenceBLEU(refs, hyp, NLTKBLEUOptions{})
	want := math.Exp(1-4.0/3) * math.Exp(0.25*math.Log(0x1p-1022))
	if err != nil || math.Abs(got-want) > 1e-12*want {
		t.Errorf("method0: got %v, %v; want %v", got, err, want)
	}
	// method1: p4 = 0.1/1 → BP·0.1^0.25.
	got, _ = NLTKSentenceBLEU(refs, hyp, NLTKBLEUOptions{Smoothing: NLTKMethod1})
	if want := math.Exp(1-4.0/3) * math.Pow(0.1, 0.25); math.Abs(got-want) > 1e-15 {
		t.Errorf("method1: got %v, want %v", got, want)
	}
	// auto_reweigh: 3 tokens → weights 1/3 over p1..p3, all 1 → BP.
	got, _ = NLTKSentenceBLEU(refs, hyp, NLTKBLEUOptions{AutoReweigh: true})
	if want := math.Exp(1 - 4.0/3); math.Abs(got-want) > 1e-15 {
		t.Errorf("auto_reweigh: got %v, want %v", got, want)
	}
	// No unigram match: exactly 0 whatever the smoothing.
	for m := NLTKMethod0; m <= NLTKMethod7; m++ {
		if got, err := NLTKSentenceBLEU(refs, []string{"dog"}, NLTKBLEUOptions{Smoothing: m}); got != 0 || err != nil {
			t.Errorf("method%d, no match: got %v, %v", m, got, err)
		}
	}
	if _, err := NLTKSentenceBLEU(nil, hyp, NLTKBLEUOptions{}); err == nil {
		t.Error("no references: no error")
	}
	if _, err := NLTKCorpusBLEU([][][]string{refs}, nil, NLTKBLEUOptions{}); err == nil {
		t.Error("length mismatch: no error")
	}
}

func TestPyFsum(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{0.1, 0.2, 0.3}, 0.6},
		{[]float64{1e100, 1, -1e100, 1e-100}, 1},
		{[]float64{1e-16, 1, 1e16}, 10000000000000002},
	} {
		if got := pyFsum(c.in); got != c.want {
			t.Errorf("fsum(%v) = %.17g, want %.17g", c.in, got, c.want)
		}
	}
}

// TestNLTKBLEUSharedCaptions checks BLEU-1..4 (weights 1/n, method0 and
// method1) per item and for the corpus against the shared NLTK 3.8 golden
// of the captions corpus, on text split as given (raw), lower-cased
// (raw_lc) and PTB-tokenized (ptb).
func TestNLTKBLEUSharedCaptions(t *testing.T) {
	var g struct {
		Version string `json:"version"`
		Modes   map[string]struct {
			Corpus map[string]float64            `json:"corpus"`
			Items  map[string]map[string]float64 `json:"items"`
		} `json:"modes"`
	}
	readGzipJSON(t, "captions_small.nltk.json.gz", &g)
	var cf caseFile
	readGzipJSON(t, "captions_small.json.gz", &cf)
	c, err := NewCorpus(cf.Cands, cf.Refs)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for mode, want := range g.Modes {
		src := c
		split := SplitNLTK
		switch mode {
		case "raw":
		case "raw_lc":
			split = func(s string) []string { return SplitNLTK(strings.ToLower(s)) }
		case "ptb":
			src = c.Tokenized()
		default:
			t.Fatalf("unknown mode %q", mode)
		}
		var refs [][][]string
		var hyps [][]string
		for _, id := range src.IDs() {
			var rs [][]string
			for _, r := range src.References(id) {
				rs = append(rs, split(r))
			}
			refs, hyps = append(refs, rs), append(hyps, split(src.Candidate(id)))
		}
		cmp := func(what string, got float64, err error, w float64, ok bool) {
			t.Helper()
			if !ok {
				t.Fatalf("%s/%s: no golden value", mode, what)
			}
			if err != nil || math.Abs(got-w) > 1e-12 {
				t.Errorf("%s/%s: got %.17g (%v), NLTK %.17g", mode, what, got, err, w)
			}
			checked++
		}
		for n := 1; n <= 4; n++ {
			w := slices.Repeat([]float64{1 / float64(n)}, n)
			key := fmt.Sprintf("Bleu_%d", n)
			got, err := NLTKCorpusBLEU(refs, hyps, NLTKBLEUOptions{Weights: w})
			v, ok := want.Corpus[key]
			cmp("corpus "+key, got, err, v, ok)
			for i, id := range src.IDs() {
				for _, m := range []NLTKSmoothing{NLTKMethod0, NLTKMethod1} {
					k := key
					if m == NLTKMethod1 {
						k += "_m1"
					}
					got, err := NLTKSentenceBLEU(refs[i], hyps[i], NLTKBLEUOptions{Weights: w, Smoothing: m})
					v, ok := want.Items[id][k]
					cmp(id+" "+k, got, err, v, ok)
				}
			}
		}
	}
	t.Logf("NLTK %s captions golden: %d values within 1e-12", g.Version, checked)
}
