package stylem

import (
	"strings"
	"sync"
	"testing"
)

func TestOwnStyleShareOnToyCorpus(t *testing.T) {
	fx := loadToy(t)
	tab := buildToy(t, fx, ECDFCountRatio)
	var caps []LabeledCaption
	for i, style := range fx.Corpus.Keys {
		for _, c := range fx.Corpus.Values[i] {
			caps = append(caps, LabeledCaption{Style: style, Tokens: Tokenize(c, Simple)})
		}
	}
	// Every training caption scores highest under its own style: 12
	// captions × 2 other styles, all won.
	for _, exist := range []bool{false, true} {
		got, err := tab.OwnStyleShare(caps, exist)
		if err != nil || got != 1 {
			t.Errorf("OwnStyleShare(exist=%v) = %v, %v; want 1", exist, got, err)
		}
	}
	// The fixture's test captions: t1 is Happy, t2 Gloomy, t3 Angry; from
	// the fixture's OnlyStyle values, t1 and t2 win both comparisons and t3
	// loses neither (0.105 > 0.075 > 0).
	tests := []LabeledCaption{
		{"Happy", strings.Fields(fx.Tests.Values[0].Hyp)},
		{"Gloomy", strings.Fields(fx.Tests.Values[1].Hyp)},
		{"Angry", strings.Fields(fx.Tests.Values[2].Hyp)},
	}
	if got, err := tab.OwnStyleShare(tests, false); err != nil || got != 1 {
		t.Errorf("OwnStyleShare(tests) = %v, %v; want 1", got, err)
	}
	// Labelled wrongly (t1 as Angry), t1 loses both of its comparisons:
	// OnlyStyle(t1) is 0.3967 Happy, 0.0005 Gloomy, 0.0011 Angry, so
	// Angry beats Gloomy only: 1 win of 2, plus 4 of 4 for t2 and t3.
	tests[0].Style = "Angry"
	if got, err := tab.OwnStyleShare(tests, false); err != nil || got != 5.0/6 {
		t.Errorf("OwnStyleShare(mislabelled) = %v, %v; want 5/6", got, err)
	}
	if _, err := tab.OwnStyleShare(nil, false); err == nil {
		t.Error("OwnStyleShare(nil): no error")
	}
	if _, err := tab.OwnStyleShare([]LabeledCaption{{"Bored", []string{"<eos>"}}}, false); err == nil {
		t.Error("OwnStyleShare with an unknown style: no error")
	}
}

func TestStyleCIDErShareOnToyCorpus(t *testing.T) {
	fx := loadToy(t)
	tab := buildToy(t, fx, ECDFCountRatio)
	tok := func(s ...string) [][]string {
		var out [][]string
		for _, x := range s {
			out = append(out, Tokenize(x, Simple))
		}
		return out
	}
	cases := []StyleCIDErCase{
		{"Happy", Tokenize("what a happy dog", Simple), tok("i love this happy dog so much"), tok("the dog looks sad and lonely")},
		{"Gloomy", Tokenize("the beach is sad and lonely", Simple), tok("another sad and lonely day at the beach"), tok("what a happy day at the beach !")},
		// Same reference on both sides: a tie, which counts as a failure.
		{"Angry", Tokenize("stop this loud party", Simple), tok("this party is so loud and annoying"), tok("this party is so loud and annoying")},
	}
	got, err := tab.StyleCIDErShare(cases)
	if err != nil || got != 2.0/3 {
		t.Errorf("StyleCIDErShare = %v, %v; want 2/3", got, err)
	}
	cases[0].OtherRefs = nil
	if _, err := tab.StyleCIDErShare(cases); err == nil {
		t.Error("StyleCIDErShare without other-style references: no error")
	}
}

// Score is safe for concurrent use: goroutines sharing a table get the
// fixture's values (run with -race to check for races).
func TestScoreConcurrent(t *testing.T) {
	fx := loadToy(t)
	tab := buildToy(t, fx, ECDFCountRatio)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				ti := (g + i) % 3
				tc := fx.Tests.Values[ti]
				var refs [][]string
				for _, r := range tc.Refs {
					refs = append(refs, strings.Fields(r))
				}
				sc, err := tab.Score(strings.Fields(tc.Hyp), refs, nil)
				if err != nil {
					errs <- err.Error()
					return
				}
				if sc.StyleCIDEr[2] != fx.StyleCIDEr["Angry"][ti] {
					errs <- "wrong value under concurrency"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
