package vhed

import (
	"context"
	"math"
	"testing"

	"github.com/storyeval/storyeval/ngram"
)

// TestAssessNgramRefAbsentByHand runs COCO BLEU-4 and SacreBLEU through
// package ngram with the Reference Absent algorithm on the test file and
// the references of assessSmallRefs. Per pair, which story wins follows
// from n-gram counts alone (every story has 6 tokens, so no brevity
// penalty):
//
//	P1 (H1, A1): both best against X1 = "a b c d x y" with the same counts
//	   (1-gram 4/6, 2-gram 3/5, 3-gram 2/4, 4-gram 1/3; H1 ties this
//	   against Y1): equal scores, a predicted tie: wrong.
//	P2 (A1, B1): A1 shares the 5-gram "a b c d e" with H1; B1 shares only
//	   the word "a" with any reference: story 1 wins: right (gap −0.8).
//	P3 (B1, H1): H1 shares the 4-gram "a b c d" with X1, B1 only "a":
//	   story 2 wins: right (gap +2.0).
//	P4 (A2, H2): only Y2 remains; A2 shares "m n o p" with it, H2 only
//	   "k l": story 1 wins: right (gap −0.4).
//	P5 (B2, A2): A2 shares a 4-gram with Y2; B2's best is the 3-gram
//	   "g h i" with H2: story 2 wins: right (gap +3.0). (SacreBLEU: A2
//	   (4/6·3/5·2/4·1/3)^¼ = 0.508 against B2 (4/6·2/5·1/4·1/6)^¼ = 0.325,
//	   the zero 4-gram count smoothed to 1/(2·3).)
//	P6 (H2, B2): only Y2 remains; H2 matches 2 words and the bigram
//	   "k l", B2 the word "k" only: story 1 wins: right (gap −2.6).
//	P8 (B3, H3): sequence 3's only reference is H3: undecided: wrong.
//	P9 (A3, B3): A3 shares "s t u v" with H3, B3 nothing: right (−3.2).
//
// So both metrics rank 6 of the 8 assessed pairs right, with one tie and
// one undecided pair.
func TestAssessNgramRefAbsentByHand(t *testing.T) {
	pairs := vhedLoadSmall(t)
	bleu, err := AssessBLEU(4)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []AssessRefMetric{bleu, AssessSacreBLEU(ngram.SacreBLEUOptions{})} {
		t.Run(m.Name(), func(t *testing.T) {
			pred, err := RefAbsentScorer{Metric: m, References: assessSmallRefs()}.ScorePairs(context.Background(), pairs)
			if err != nil {
				t.Fatal(err)
			}
			if pred[0] != 0 || !math.IsNaN(pred[7]) {
				t.Errorf("P1 %v (want an exact tie), P8 %v (want NaN)", pred[0], pred[7])
			}
			rep, err := AssessPredictions(pairs, pred, AssessOptions{})
			if err != nil {
				t.Fatal(err)
			}
			assessCheckAccuracy(t, m.Name(), rep.Overall, 6, 8)
			if rep.PredictedTies != 1 || rep.Undecided != 1 {
				t.Errorf("ties %d, undecided %d; want 1 and 1", rep.PredictedTies, rep.Undecided)
			}
		})
	}
}

// TestAssessSacreBLEUValue checks one SacreBLEU score by hand: A2 =
// "m n o p q r" against Y2 = "m n o p k l" matches 4/6 words, 3/5
// bigrams, 2/4 trigrams and 1/3 4-grams, equal lengths: the geometric
// mean of the precisions, 100·(2/3·3/5·1/2·1/3)^¼ = 100·(1/15)^¼.
func TestAssessSacreBLEUValue(t *testing.T) {
	got, err := AssessSacreBLEU(ngram.SacreBLEUOptions{}).ScoreItems(context.Background(),
		[]string{"m n o p q r"}, [][]string{{"m n o p k l"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := 100 * math.Pow(1.0/15, 0.25); math.Abs(got[0]-want) > 1e-9 {
		t.Errorf("SacreBLEU %v, want %v", got[0], want)
	}
}

// TestAssessNgramMetricsRun runs every named metric over the test file,
// with and without the Reference Absent algorithm: predictions for every
// pair, the same undecided pair P8 under the algorithm.
func TestAssessNgramMetricsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: METEOR loads its 1.5 MB resources; the BLEU and SacreBLEU assessment tests still run")
	}
	pairs := vhedLoadSmall(t)
	for _, name := range []string{"bleu", "bleu1", "meteor", "rouge", "cider", "sacrebleu"} {
		m, err := AssessRefMetricByName(name)
		if err != nil {
			t.Fatal(err)
		}
		ra, err := Assess(context.Background(), pairs, RefAbsentScorer{Metric: m, References: assessSmallRefs()}, AssessOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if ra.Pairs != 8 || ra.Undecided != 1 {
			t.Errorf("%s: %d pairs, %d undecided; want 8, 1", name, ra.Pairs, ra.Undecided)
		}
		plain, err := Assess(context.Background(), pairs, AssessRefScorer{Metric: m, References: assessSmallRefs()}, AssessOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if plain.Undecided != 0 {
			t.Errorf("%s without the algorithm: %d undecided", name, plain.Undecided)
		}
	}
	if _, err := AssessRefMetricByName("bertscore"); err == nil {
		t.Error("unknown metric accepted")
	}
}
