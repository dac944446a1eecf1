package stylem

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomCorpus returns captions over nStyles styles: shared words plus words
// exclusive to each style ("s<k>w<j>"), one record per caption.
func randomCorpus(rng *rand.Rand, nStyles, perStyle int) []Record {
	var recs []Record
	for i := 0; i < nStyles*perStyle; i++ {
		k := rng.IntN(nStyles)
		n := 1 + rng.IntN(8)
		words := make([]string, n)
		for j := range words {
			if rng.IntN(3) == 0 {
				words[j] = fmt.Sprintf("s%dw%d", k, rng.IntN(4))
			} else {
				words[j] = fmt.Sprintf("w%d", rng.IntN(12))
			}
		}
		recs = append(recs, Record{Image: fmt.Sprint("img", i%7), Style: fmt.Sprint("style", k), Captions: []string{strings.Join(words, " ")}})
	}
	return recs
}

func TestPaperFormulaBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for trial := 0; trial < 40; trial++ {
		nS := 2 + rng.IntN(9)
		recs := randomCorpus(rng, nS, 3+rng.IntN(10))
		for _, f := range []CNGFormula{CNGSumOverStyleCount, CNGMeanOverOthers} {
			tab, err := Build(recs, BuildOptions{Step: Simple, Formula: f})
			if err != nil {
				if strings.Contains(err.Error(), "1 style") {
					continue
				}
				t.Fatal(err)
			}
			S := float64(len(tab.styles))
			lo, hi := -1/S, (S-1)/S
			if f == CNGMeanOverOthers {
				lo, hi = -1, 1
			}
			for e, v := range tab.entCNG {
				if v < lo || v > hi {
					t.Fatalf("trial %d, %v, |S|=%v: CNG %v (entry %d) outside [%v, %v]", trial, f, S, v, e, lo, hi)
				}
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Errorf("checked only %d values", checked)
	}
}

// A caption made only of one style's exclusive words ranks that style first
// under every score.
func TestExclusiveNgramsRankTheirStyleFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 30; trial++ {
		nS := 2 + rng.IntN(6)
		recs := randomCorpus(rng, nS, 20)
		for _, f := range []CNGFormula{CNGMeanOverOthers, CNGSumOverStyleCount} {
			tab, err := Build(recs, BuildOptions{Step: Simple, Formula: f})
			if err != nil {
				t.Fatal(err)
			}
			for p, style := range tab.styles {
				k := strings.TrimPrefix(style, "style")
				var words []string
				for j := 0; j < 4; j++ {
					w := fmt.Sprintf("s%sw%d", k, j)
					if tab.DocFreq(style, w) > 0 {
						words = append(words, w)
					}
				}
				if len(words) == 0 {
					continue
				}
				rng.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
				c := Tokenize(strings.Join(words, " "), Simple)
				sc, err := tab.Score(c, [][]string{c}, nil)
				if err != nil {
					t.Fatal(err)
				}
				for q := range tab.styles {
					if q == p {
						continue
					}
					if !(sc.OnlyStyle[p] > sc.OnlyStyle[q] && sc.OnlyStyleExist[p] > sc.OnlyStyleExist[q] && sc.StyleCIDEr[p] > sc.StyleCIDEr[q]) {
						t.Fatalf("trial %d %v: caption %q of %s: scores %v / %v / %v do not rank %s first",
							trial, f, c, style, sc.OnlyStyle, sc.OnlyStyleExist, sc.StyleCIDEr, style)
					}
				}
			}
		}
	}
}

func TestGroupingMatchesReference(t *testing.T) {
	recs := []Record{
		{Image: "i1", Style: "A", Captions: []string{"alpha beta", "gamma"}},
		{Image: "i2", Style: "A", Captions: []string{"first"}},
		{Image: "i2", Style: "A", Captions: []string{"second"}},
		{Image: "i1", Style: "B", Captions: []string{"gamma delta"}},
	}
	tests := []struct {
		keepAll bool
		df      map[string]int // style A
	}{
		// Reference: a record counts the last caption of the last record
		// with its image+style key, once per record with that key.
		{false, map[string]int{"alpha": 0, "gamma": 1, "first": 0, "second": 2, "<eos>": 3}},
		{true, map[string]int{"alpha": 1, "gamma": 1, "first": 1, "second": 1, "<eos>": 3}},
	}
	for _, tt := range tests {
		tab, err := Build(recs, BuildOptions{Step: Simple, KeepAllCaptions: tt.keepAll})
		if err != nil {
			t.Fatal(err)
		}
		for g, want := range tt.df {
			if got := tab.DocFreq("A", g); got != want {
				t.Errorf("KeepAllCaptions=%v: df[A][%q] = %d, want %d", tt.keepAll, g, got, want)
			}
		}
		if _, ok := tab.CNG("A", "alpha beta"); ok != tt.keepAll {
			t.Errorf("KeepAllCaptions=%v: CNG of an overwritten caption present = %v", tt.keepAll, ok)
		}
	}
}

func TestSkipsBracketTriples(t *testing.T) {
	recs := []Record{
		{Image: "1", Style: "A", Captions: []string{"[ disconnect ]"}},
		{Image: "2", Style: "A", Captions: []string{"ok then"}},
		{Image: "3", Style: "B", Captions: []string{"[ two words ]"}}, // four tokens: kept
	}
	tab, err := Build(recs, BuildOptions{Step: Simple})
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.DocFreq("A", "disconnect"); got != 0 {
		t.Errorf("df of a skipped caption = %d, want 0", got)
	}
	if got := tab.DocFreq("B", "["); got != 1 {
		t.Errorf("df[B][\"[\"] = %d, want 1", got)
	}
}

func TestMarkUnk(t *testing.T) {
	// Expected values are Python's str.replace(' unk ', ' UNK ').
	tests := []struct{ in, want string }{
		{"a unk unk b", "a UNK unk b"},
		{"a unk unk unk b", "a UNK unk UNK b"},
		{"unk x", "unk x"},
		{"a unk", "a unk"},
		{"a UNK unk b", "a UNK UNK b"},
		{"x unk y unk z", "x UNK y UNK z"},
	}
	for _, tt := range tests {
		if got := strings.Join(markUnk(nil, strings.Fields(tt.in)), " "); got != tt.want {
			t.Errorf("markUnk(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		recs []Record
		opts BuildOptions
		want string
	}{
		{nil, BuildOptions{}, "empty corpus"},
		{[]Record{{Image: "1", Style: "A", Captions: []string{"x"}}}, BuildOptions{}, `1 style ("A")`},
		{[]Record{{Image: "1", Captions: []string{"x"}}}, BuildOptions{}, "record 0 (image \"1\") has an empty style"},
		{[]Record{{Image: "1", Style: "A"}}, BuildOptions{}, "has no caption"},
		{[]Record{{Image: "1", Style: "A", Captions: []string{"x"}}}, BuildOptions{Formula: 5}, "unknown CNG formula"},
		{[]Record{{Image: "1", Style: "A", Captions: []string{"x"}}}, BuildOptions{ECDF: 5}, "unknown ECDF kind"},
	}
	for _, tt := range tests {
		_, err := Build(tt.recs, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Build error = %v, want one containing %q", err, tt.want)
		}
	}
}

func TestScoreEdgeCases(t *testing.T) {
	fx := loadToy(t)
	tab := buildToy(t, fx, ECDFCountRatio)
	if _, err := tab.Score(nil, nil, nil); err == nil {
		t.Error("Score of an empty caption: no error")
	}
	if _, err := tab.Score([]string{"<eos>"}, [][]string{{}}, nil); err == nil {
		t.Error("Score with an empty reference: no error")
	}
	// Unknown words count in the means but weigh 0.
	sc, err := tab.Score([]string{"zzz", "happy", "<eos>"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Happy: unigrams zzz=0, happy=1, <eos>=0 → 1/3; no bigram or trigram is known.
	if want := (1.0/3 + 0 + 0) / 3; sc.OnlyStyle[0] != want {
		t.Errorf("OnlyStyle(Happy) = %v, want %v", sc.OnlyStyle[0], want)
	}
	if want := 1.0; sc.OnlyStyleExist[0] != want {
		t.Errorf("OnlyStyleExist(Happy) = %v, want %v", sc.OnlyStyleExist[0], want)
	}
	for s := range sc.StyleCIDEr {
		if sc.StyleCIDEr[s] == sc.StyleCIDEr[s] {
			t.Errorf("StyleCIDEr without references = %v, want NaN", sc.StyleCIDEr[s])
		}
	}
	if _, err := tab.OnlyStyle("Bored", []string{"<eos>"}); err == nil || !strings.Contains(err.Error(), `"Bored"`) {
		t.Errorf("OnlyStyle of an unknown style: error = %v", err)
	}
	if _, err := tab.StyleCIDEr("Happy", []string{"<eos>"}, nil); err == nil {
		t.Error("StyleCIDEr without references: no error")
	}
	v, err := tab.StyleCIDEr("Gloomy", strings.Fields(fx.Tests.Values[1].Hyp), [][]string{strings.Fields(fx.Tests.Values[1].Refs[0])})
	if err != nil || v != fx.StyleCIDEr["Gloomy"][1] {
		t.Errorf("StyleCIDEr(Gloomy, t2) = %v, %v; want %v", v, err, fx.StyleCIDEr["Gloomy"][1])
	}
}

// A style whose captions are all empty has only the unigram "<eos>"; the
// reference raises KeyError on its missing bigram ECDF, Build treats it as 0.
func TestStyleWithoutLongerNgrams(t *testing.T) {
	recs := []Record{
		{Image: "1", Style: "A", Captions: []string{"sunny day"}},
		{Image: "2", Style: "A", Captions: []string{"sunny beach"}},
		{Image: "3", Style: "B", Captions: []string{"..."}},
	}
	tab, err := Build(recs, BuildOptions{Step: Simple, ECDF: ECDFCountRatio})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 4} {
		want := map[int]int{1: 1, 2: 0, 3: 0, 4: 0}[n]
		if got := tab.Count("B", n); got != want {
			t.Errorf("style B has %d %d-grams, want %d", got, n, want)
		}
	}
	// "sunny day" (df 1 of A's bigrams {1,1,1,1}) has ECDF 1 in A and 0 in B.
	if got, ok := tab.CNG("A", "sunny day"); !ok || got != 1 {
		t.Errorf("CNG(A, sunny day) = %v, %v; want 1", got, ok)
	}
	// "<eos>" is in every caption of both styles: ECDF 1 in each, occur 2,
	// so (1/2 − 1/2) = 0.
	if got, _ := tab.CNG("B", "<eos>"); got != 0 {
		t.Errorf("CNG(B, <eos>) = %v, want 0", got)
	}
}

// TestBuildMaxNgramsBoundsTheTable: a corpus with N distinct n-grams
// builds with MaxNgrams N and fails with N-1, naming the bound.
func TestBuildMaxNgramsBoundsTheTable(t *testing.T) {
	recs := syntheticCorpus(3, 500, 4)
	tab, err := Build(recs, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := tab.NumNgrams()
	if _, err := Build(recs, BuildOptions{MaxNgrams: n}); err != nil {
		t.Fatalf("MaxNgrams = the table's %d n-grams: %v", n, err)
	}
	_, err = Build(recs, BuildOptions{MaxNgrams: n - 1})
	if !errors.Is(err, ErrTooManyNgrams) || !strings.Contains(err.Error(), fmt.Sprintf("more than %d", n-1)) {
		t.Fatalf("MaxNgrams %d below the table's %d n-grams: err %v, want ErrTooManyNgrams", n-1, n, err)
	}
	// Few n-grams in many styles: the entries are bounded at twice the
	// n-grams.
	var many []Record
	for s := 0; s < 50; s++ {
		many = append(many, Record{Image: fmt.Sprint(s), Style: fmt.Sprint("S", s), Captions: []string{"a b c d ."}})
	}
	few, err := Build(many, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(many, BuildOptions{MaxNgrams: few.NumNgrams()})
	if !errors.Is(err, ErrTooManyNgrams) || !strings.Contains(err.Error(), "(n-gram, style) entries") {
		t.Fatalf("%d n-grams in 50 styles with MaxNgrams %d: err %v, want the entries bound", few.NumNgrams(), few.NumNgrams(), err)
	}
}
