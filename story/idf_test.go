package story

import (
	"math"
	"reflect"
	"testing"
)

// Hand computations of both formulas on the same corpus.
func TestComputeIDF(t *testing.T) {
	// Four stories; "dog" in three (twice in one), "cat" and "sky" in one.
	docs := [][]string{{"dog", "dog"}, {"dog", "cat"}, {"dog"}, {"sky"}}
	// RoViST's log(N/(1+df)): dog log(4/4) = 0, cat and sky log(4/2).
	if got, want := ComputeIDF(docs, IDFOptions{AddOne: true}), (IDF{"dog": 0, "cat": math.Log(2), "sky": math.Log(2)}); !reflect.DeepEqual(got, want) {
		t.Errorf("AddOne: %v, want %v", got, want)
	}
	// log(N/df): dog log(4/3), cat and sky log(4).
	if got, want := ComputeIDF(docs, IDFOptions{}), (IDF{"dog": math.Log(4.0 / 3), "cat": math.Log(4), "sky": math.Log(4)}); !reflect.DeepEqual(got, want) {
		t.Errorf("zero options: %v, want %v", got, want)
	}
	// GROOViST's phrases, split into words: "the" in both stories.
	phrases := [][]string{{"the dog"}, {" the cat "}}
	if got, want := ComputeIDF(phrases, IDFOptions{SplitWords: true}), (IDF{"the": 0, "dog": math.Log(2), "cat": math.Log(2)}); !reflect.DeepEqual(got, want) {
		t.Errorf("SplitWords: %v, want %v", got, want)
	}
	// Unsplit, each phrase is one term, with its white space.
	if got := ComputeIDF(phrases, IDFOptions{}); len(got) != 2 || got["the dog"] != math.Log(2) {
		t.Errorf("phrases as terms: %v", got)
	}
	if got := ComputeIDF(nil, IDFOptions{}); len(got) != 0 {
		t.Errorf("empty corpus: %v", got)
	}
}
