package stylem

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// OnlyStyleDetail by hand: each order's mean is the sum of the CNG values
// of the caption's distinct n-grams (read back with Table.CNG) over their
// number, the score the mean over orders, and Top the weightiest n-grams.
func TestOnlyStyleDetailByHand(t *testing.T) {
	tab, err := Build([]Record{
		{Image: "1", Style: "Happy", Captions: []string{"What a happy day at the beach!"}},
		{Image: "2", Style: "Happy", Captions: []string{"Such a fun and happy party."}},
		{Image: "3", Style: "Gloomy", Captions: []string{"The sky is grey and sad."}},
		{Image: "4", Style: "Gloomy", Captions: []string{"Another sad and lonely day at the beach."}},
	}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	caption := Tokenize("A sad, sad and lonely day.", nil) // [a sad sad and lonely day <eos>]
	d, err := tab.OnlyStyleDetail("Gloomy", caption, 2)
	if err != nil {
		t.Fatal(err)
	}
	score, _ := tab.OnlyStyle("Gloomy", caption)
	if d.Score != score {
		t.Errorf("Score %v, OnlyStyle %v", d.Score, score)
	}
	var all []StyleNgram
	mean := 0.0
	for n := 1; n <= 4; n++ {
		// Distinct n-grams: "sad" counts once.
		seen := map[string]bool{}
		sum, in := 0.0, 0
		for i := 0; i+n <= len(caption); i++ {
			g := strings.Join(caption[i:i+n], " ")
			if seen[g] {
				continue
			}
			seen[g] = true
			if v, ok := tab.CNG("Gloomy", g); ok {
				sum += v
				in++
				if v > 0 {
					all = append(all, StyleNgram{g, v})
				}
			}
		}
		o := d.Orders[n-1]
		if o.N != n || o.Distinct != len(seen) || o.InStyle != in || math.Abs(o.MeanCNG-sum/float64(len(seen))) > 1e-15 {
			t.Errorf("order %d: %+v, want %d distinct, %d in style, mean %v", n, o, len(seen), in, sum/float64(len(seen)))
		}
		mean += o.MeanCNG / 4
	}
	if len(d.Orders) != 4 || d.Orders[0].Distinct != 6 || math.Abs(mean-d.Score) > 1e-15 {
		t.Errorf("orders %+v, mean %v, score %v", d.Orders, mean, d.Score)
	}
	slices.SortFunc(all, func(a, b StyleNgram) int {
		if a.CNG != b.CNG {
			if a.CNG > b.CNG {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Ngram, b.Ngram)
	})
	if len(all) < 2 || !slices.Equal(d.Top, all[:2]) {
		t.Errorf("Top = %+v, want the first two of %+v", d.Top, all)
	}
	if _, err := tab.OnlyStyleDetail("Angry", caption, 1); err == nil {
		t.Error("unknown style: no error")
	}
}
