package groovist

import (
	"reflect"
	"testing"

	"github.com/storyeval/storyeval/story"
)

// TestAblationsOptions checks each ablation's option, the idf weights
// over the inputs (+idf, with +Ns counting single nouns) and the
// exclusion of −C and +idf.
func TestAblationsOptions(t *testing.T) {
	inputs := []Input{{Story: story.Story{ID: "a"}, NPs: []string{"the dog", "a park"}}, {Story: story.Story{ID: "b"}, NPs: []string{"the dog"}}}
	theta := ThetaOf(0.3)
	for _, tc := range []struct {
		a    Ablations
		want Options
	}{
		{Ablations{}, Options{Theta: theta}},
		{Ablations{NoConcreteness: true, NoPenalty: true, Tanh: true}, Options{Theta: theta, Weighting: Uniform, NoPenalty: true, Tanh: true}},
		{Ablations{Nouns: true}, Options{Theta: theta, Units: Nouns}},
	} {
		if got, err := tc.a.Options(theta, inputs); err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v.Options = %+v, %v; want %+v", tc.a, got, err, tc.want)
		}
	}
	for _, units := range []Units{NounPhrases, Nouns} {
		got, err := Ablations{IDF: true, Nouns: units == Nouns}.Options(theta, inputs)
		idf, err2 := InputsIDF(inputs, units)
		if err != nil || err2 != nil || got.Weighting != IDF || len(idf) == 0 || !reflect.DeepEqual(got.IDF, idf) {
			t.Errorf("+idf (units %v): %+v, %v; want the weights %v", units, got, err, idf)
		}
	}
	if _, err := (Ablations{NoConcreteness: true, IDF: true}).Options(theta, inputs); err == nil {
		t.Error("−C with +idf: no error")
	}
}
