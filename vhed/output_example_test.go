package vhed_test

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/vhed"
)

// testOutput is one scorer's report: 3 of 4 pairs right (no bootstrap
// interval), an empty Ω^3 subset, two gap buckets, the last unbounded,
// and one error label.
func testOutput() vhed.Output {
	nan := math.NaN()
	acc := func(correct, total int) vhed.Accuracy {
		return vhed.Accuracy{Correct: correct, Total: total, Value: float64(correct) / float64(total), Low: nan, High: nan}
	}
	rep := vhed.AssessReport{
		Pairs: 4, PredictedTies: 1, Overall: acc(3, 4),
		Omega:            []vhed.OmegaAccuracy{{K: 3, Accuracy: vhed.Accuracy{Value: nan, Low: nan, High: nan}}},
		OmegaUnion:       vhed.OmegaUnionAccuracy{Ks: []int{4, 5}, Accuracy: acc(2, 2)},
		Buckets:          []vhed.BucketAccuracy{{MinGap: 0, MaxGap: 0.5, Accuracy: acc(1, 2)}, {MinGap: 0.5, MaxGap: math.Inf(1), Accuracy: acc(2, 2)}},
		ReferenceMachine: acc(1, 1), MachineMachine: acc(1, 1),
		Outrank:  vhed.AssessOutrank{Pairs: 1, Human: 1, Predicted: 0},
		ErrorGap: correlation.Result{Statistic: 0.25, P: 0.5},
	}
	errs := []vhed.ErrorCorrelation{{Error: "repetition", Stories: 6, Result: correlation.Result{Statistic: -0.5, P: 0.04}}}
	return vhed.Output{CSV: "vhed.csv", Rows: 5, HumanTies: 1, LabelSign: "positive", Gap: "|rank_norm|", Split: "Ω^{4,5}",
		Scorers: []vhed.ScorerOutput{vhed.NewScorerOutput("bleu", "test", rep, errs)}}
}

// ExampleNewScorerOutput converts a report for JSON output: undefined
// numbers (an interval without a bootstrap, the last bucket's open end)
// are null.
func ExampleNewScorerOutput() {
	s := testOutput().Scorers[0]
	for _, v := range []any{s.Accuracy, s.Buckets[1], s.ErrorLabels} {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		fmt.Println(string(b))
	}
	// Output:
	// {"correct":3,"total":4,"value":0.75,"low":null,"high":null}
	// {"min_gap":0.5,"max_gap":null,"correct":2,"total":2,"value":1,"low":null,"high":null}
	// [{"error":"repetition","stories":6,"r":-0.5,"p":0.04}]
}
