package vhed

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/correlation"
)

// assessOverlap is a reference metric simple enough to compute by hand:
// the number of distinct words of the candidate found in any of its
// references.
type assessOverlap struct{}

func (assessOverlap) Name() string { return "overlap" }

func (assessOverlap) ScoreItems(_ context.Context, cands []string, refs [][]string) ([]float64, error) {
	out := make([]float64, len(cands))
	for i, c := range cands {
		inRef := map[string]bool{}
		for _, r := range refs[i] {
			for _, w := range strings.Fields(r) {
				inRef[w] = true
			}
		}
		seen := map[string]bool{}
		for _, w := range strings.Fields(c) {
			if inRef[w] && !seen[w] {
				seen[w] = true
				out[i]++
			}
		}
	}
	return out, nil
}

// assessSmallRefs is the reference set of the test file's three image
// sequences, as VIST would give several per sequence: the human story of
// the file, plus others. X2 differs from H2 only by a double space, so it
// counts as identical; sequence 3 has only its human story.
//
//	seq 1: H1 = "a b c d e f", X1 = "a b c d x y", Y1 = "p q c d e f"
//	seq 2: H2 = "g h i j k l", X2 = "g h  i j k l", Y2 = "m n o p k l"
//	seq 3: H3 = "s t u v w x"
func assessSmallRefs() map[string][]string {
	return map[string][]string{
		"[101, 102, 103, 104, 105]": {"a b c d e f", "a b c d x y", "p q c d e f"},
		"[201, 202, 203, 204, 205]": {"g h i j k l", "g h  i j k l", "m n o p k l"},
		"[301, 302, 303, 304, 305]": {"s t u v w x"},
	}
}

// The Reference Absent predictions of the overlap metric on the test file,
// by hand (M_RA(s) = max over the remaining references r of overlap(s, r);
// prediction = M_RA(story 2) − M_RA(story 1)):
//
//	P1 (H1, A1="a b c d e g"): H1 removed, R'={X1,Y1}.
//	   H1: X1→{a,b,c,d}=4, Y1→{c,d,e,f}=4 → 4; A1: X1→4, Y1→{c,d,e}=3 → 4.  4−4 = 0
//	P2 (A1, B1="t u v w a z"): nothing removed, R'={H1,X1,Y1}.
//	   A1: H1→{a,b,c,d,e}=5 → 5; B1: {a}=1 → 1.                             1−5 = −4
//	P3 (B1, H1): R'={X1,Y1}. B1: X1→1, Y1→0 → 1; H1 → 4.                     4−1 = 3
//	P4 (A2="m n o p q r", H2): H2 and X2 removed, R'={Y2}.
//	   A2: {m,n,o,p}=4; H2: {k,l}=2.                                          2−4 = −2
//	P5 (B2="g h i s t k", A2): R'={H2,X2,Y2}.
//	   B2: H2→{g,h,i,k}=4; A2: Y2→4.                                          4−4 = 0
//	P6 (H2, B2): R'={Y2}. H2: 2; B2: {k}=1.                                   1−2 = −1
//	P7 (H3, A3="s t u v y z"): H3 removed, nothing left.                      NaN
//	P8 (B3="n o p q r m", H3): H3 removed, nothing left.                      NaN
//	P9 (A3, B3): R'={H3}. A3: {s,t,u,v}=4; B3: 0.                             0−4 = −4
var assessSmallRAOverlap = []float64{0, -4, 3, -2, 0, -1, math.NaN(), math.NaN(), -4}

func TestRefAbsentScorerByHand(t *testing.T) {
	pairs := vhedLoadSmall(t)
	got, err := RefAbsentScorer{Metric: assessOverlap{}, References: assessSmallRefs()}.ScorePairs(context.Background(), pairs)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range assessSmallRAOverlap {
		if !(got[i] == w || math.IsNaN(got[i]) && math.IsNaN(w)) {
			t.Errorf("pair %d: prediction %v, want %v", i+1, got[i], w)
		}
	}
}

func TestAssessRefScorerKeepsIdenticalReferences(t *testing.T) {
	// Without the Reference Absent algorithm, P1's human story meets
	// itself: H1 against the union of {H1,X1,Y1} overlaps in all 6 words,
	// A1 in {a,b,c,d,e} = 5, so the prediction is 5−6 = −1 where the
	// algorithm gives a tie.
	pairs := vhedLoadSmall(t)
	got, err := AssessRefScorer{Metric: assessOverlap{}, References: assessSmallRefs()}.ScorePairs(context.Background(), pairs[:1])
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != -1 {
		t.Errorf("prediction %v, want -1", got[0])
	}
}

func TestAssessRefScorersWithoutReferences(t *testing.T) {
	// Sequence 2 has no references: its pairs P4..P6 are undecided (NaN);
	// with the Reference Absent algorithm P7 and P8, which lose sequence
	// 3's only reference, are too.
	pairs := vhedLoadSmall(t)
	refs := assessSmallRefs()
	delete(refs, "[201, 202, 203, 204, 205]")
	for _, c := range []struct {
		scorer    AssessPairScorer
		undecided map[int]bool
	}{
		{RefAbsentScorer{Metric: assessOverlap{}, References: refs}, map[int]bool{4: true, 5: true, 6: true, 7: true, 8: true}},
		{AssessRefScorer{Metric: assessOverlap{}, References: refs}, map[int]bool{4: true, 5: true, 6: true}},
	} {
		got, err := c.scorer.ScorePairs(context.Background(), pairs)
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range got {
			if c.undecided[i+1] != math.IsNaN(g) {
				t.Errorf("%T: P%d: prediction %v", c.scorer, i+1, g)
			}
		}
	}
}

func TestReferencesFromPairs(t *testing.T) {
	refs := References(vhedLoadSmall(t), nil)
	// Keyed by the sequences' ids.
	want := map[string]string{
		"101,102,103,104,105": "a b c d e f",
		"201,202,203,204,205": "g h i j k l",
		"301,302,303,304,305": "s t u v w x",
	}
	if len(refs) != len(want) {
		t.Fatalf("got %d sequences, want %d", len(refs), len(want))
	}
	for seq, w := range want {
		if len(refs[seq]) != 1 || refs[seq][0] != w {
			t.Errorf("%s: %q, want [%q]", seq, refs[seq], w)
		}
	}
}

func assessCheckAccuracy(t *testing.T, what string, a Accuracy, correct, total int) {
	t.Helper()
	want := math.NaN()
	if total > 0 {
		want = float64(correct) / float64(total)
	}
	if a.Correct != correct || a.Total != total || !(a.Value == want || math.IsNaN(a.Value) && math.IsNaN(want)) {
		t.Errorf("%s: %d/%d = %v, want %d/%d", what, a.Correct, a.Total, a.Value, correct, total)
	}
}

// TestAssessPredictionsByHand assesses the overlap metric's Reference
// Absent predictions (above) on the test file, whose human order comes from
// its rank columns. Per pair (human gap, rank_norm, agreement, prediction,
// outcome):
//
//	P1 −1.2 0.24 5   0   wrong (predicted tie)     reference–machine
//	P2 −0.8 0.16 4  −4   right                     machine–machine
//	P3 +2.0 0.40 5   3   right                     reference–machine
//	P4 −0.4 0.08 2  −2   right                     reference–machine
//	P5 +3.0 0.60 3   0   wrong (predicted tie)     machine–machine
//	P6 −2.6 0.52 5  −1   right                     reference–machine
//	P7  0.0 0.00 2 NaN   left out: human tie       reference–machine
//	P8 +3.2 0.64 5 NaN   wrong (undecided)         reference–machine
//	P9 −3.2 0.64 4  −4   right                     machine–machine
//
// Overall 5/8. Ω^k holds agreement exactly k: Ω³ = {P5} 0/1, Ω⁴ = {P2, P9}
// 2/2, Ω⁵ = {P1, P3, P6, P8} 2/4; the union Ω^{4,5} 4/6. Buckets of
// |rank_norm| with edges 0, 0.1, 0.2, 0.3: P4 1/1; P2 1/1; P1 0/1; P3, P5,
// P6, P8, P9 3/5. On Ω^{4,5}, reference–machine P1, P3, P6, P8: 2/4;
// machine–machine P2, P9: 2/2; no reference–reference pair.
//
// Outrank over the 6 reference–machine pairs of the file (P7 included):
// the annotators put the machine story first only in P4 (A2, gap −0.4 <
// 0): 1/6; the prediction does so in P4 (−2, story 1 = A2) only: 1/6.
//
// Error–gap point-biserial: errors at P1,P5,P8 (|gap| 1.2, 3.0, 3.2, mean
// 7.4/3), right at P2,P3,P4,P6,P9 (0.8, 2.0, 0.4, 2.6, 3.2, mean 1.8);
// all eight have mean 2.05 and population variance 8.86/8 = 1.1075, so
// r = (7.4/3 − 1.8)·√(3/8·5/8)/√1.1075.
func TestAssessPredictionsByHand(t *testing.T) {
	pairs := vhedLoadSmall(t)
	rep, err := AssessPredictions(pairs, assessSmallRAOverlap, AssessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pairs != 8 || rep.HumanTies != 1 || rep.PredictedTies != 2 || rep.Undecided != 1 {
		t.Errorf("pairs %d, human ties %d, predicted ties %d, undecided %d; want 8, 1, 2, 1",
			rep.Pairs, rep.HumanTies, rep.PredictedTies, rep.Undecided)
	}
	assessCheckAccuracy(t, "overall", rep.Overall, 5, 8)
	wantOmega := []struct{ k, c, n int }{{3, 0, 1}, {4, 2, 2}, {5, 2, 4}}
	if len(rep.Omega) != len(wantOmega) {
		t.Fatalf("%d Ω subsets", len(rep.Omega))
	}
	for i, w := range wantOmega {
		if rep.Omega[i].K != w.k {
			t.Errorf("Ω %d: k = %d, want %d", i, rep.Omega[i].K, w.k)
		}
		assessCheckAccuracy(t, "Ω", rep.Omega[i].Accuracy, w.c, w.n)
	}
	if !slices.Equal(rep.OmegaUnion.Ks, []int{4, 5}) {
		t.Errorf("union of Ω%v, want Ω4 and Ω5", rep.OmegaUnion.Ks)
	}
	assessCheckAccuracy(t, "Ω^{4,5}", rep.OmegaUnion.Accuracy, 4, 6)
	assessCheckBuckets(t, rep.Buckets, []assessBucketWant{{0, 0.1, 1, 1}, {0.1, 0.2, 1, 1}, {0.2, 0.3, 0, 1}, {0.3, math.Inf(1), 3, 5}})
	if rep.SplitAllPairs {
		t.Error("split over all pairs by default")
	}
	assessCheckAccuracy(t, "reference–machine", rep.ReferenceMachine, 2, 4)
	assessCheckAccuracy(t, "machine–machine", rep.MachineMachine, 2, 2)
	assessCheckAccuracy(t, "reference–reference", rep.ReferenceReference, 0, 0)
	o := rep.Outrank
	if o.Pairs != 6 || o.Human != 1 || o.Predicted != 1 || o.HumanRatio != 1.0/6 || o.PredictedRatio != 1.0/6 {
		t.Errorf("outrank %+v, want 6 pairs, 1 and 1", o)
	}
	wantR := (7.4/3 - 1.8) * math.Sqrt(3.0/8*5.0/8) / math.Sqrt(1.1075)
	if math.Abs(rep.ErrorGap.Statistic-wantR) > 1e-12 {
		t.Errorf("error–gap r = %v, want %v", rep.ErrorGap.Statistic, wantR)
	}
	if !math.IsNaN(rep.Overall.Low) || !math.IsNaN(rep.Overall.High) {
		t.Errorf("interval %v..%v without Intervals", rep.Overall.Low, rep.Overall.High)
	}
}

type assessBucketWant struct {
	lo, hi float64
	c, n   int
}

func assessCheckBuckets(t *testing.T, got []BucketAccuracy, want []assessBucketWant) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d buckets, want %d", len(got), len(want))
	}
	for i, w := range want {
		b := got[i]
		if b.MinGap != w.lo || b.MaxGap != w.hi {
			t.Errorf("bucket %d: [%v, %v), want [%v, %v)", i, b.MinGap, b.MaxGap, w.lo, w.hi)
		}
		assessCheckAccuracy(t, "bucket", b.Accuracy, w.c, w.n)
	}
}

// TestAssessStory2AlwaysBetter assesses the constant prediction "story 2
// is better" (+1): right exactly where the human gap is positive (P3, P5,
// P8): 3/8. It puts the machine story first in the reference–machine pairs
// whose story 2 is the machine's: P1, P6, P7 (3 of 6); the annotators
// still only in P4.
func TestAssessStory2AlwaysBetter(t *testing.T) {
	pairs := vhedLoadSmall(t)
	gaps := make(AssessFixedGaps, len(pairs))
	for i := range gaps {
		gaps[i] = 1
	}
	rep, err := Assess(context.Background(), pairs, gaps, AssessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	assessCheckAccuracy(t, "overall", rep.Overall, 3, 8)
	if rep.Outrank.Predicted != 3 || rep.Outrank.Human != 1 || rep.Outrank.PredictedRatio != 0.5 {
		t.Errorf("outrank %+v", rep.Outrank)
	}
}

func TestAssessOptions(t *testing.T) {
	pairs := vhedLoadSmall(t)
	// Ω² (agreement exactly 2) is P4 alone (P7 is a human tie): 1/1; the
	// union of Ω² and Ω³ adds P5: 1/2. Buckets on |rank_norm| split at 0.3:
	// [0, 0.3) holds P1 (0.24), P2 (0.16), P4 (0.08): 2/3; [0.3, ∞) P3, P5,
	// P6, P8, P9: 3/5. The models "modelA" count as references here, so
	// P1 (human, modelA) is reference–reference; over all pairs P4
	// (modelA, human) is one too: 1/2, and there is no machine–machine
	// pair. On the union {2, 3} only P4 (R&R, right) and P5 (modelB,
	// modelA: R&M, wrong) remain.
	isRef := func(m string) bool { return m == "human" || m == "modelA" }
	rep, err := AssessPredictions(pairs, assessSmallRAOverlap, AssessOptions{
		Agreements: []int{2}, Union: []int{2, 3}, GapEdges: []float64{0, 0.3}, IsReference: isRef,
	})
	if err != nil {
		t.Fatal(err)
	}
	assessCheckAccuracy(t, "Ω²", rep.Omega[0].Accuracy, 1, 1)
	assessCheckAccuracy(t, "Ω^{2,3}", rep.OmegaUnion.Accuracy, 1, 2)
	assessCheckBuckets(t, rep.Buckets, []assessBucketWant{{0, 0.3, 2, 3}, {0.3, math.Inf(1), 3, 5}})
	assessCheckAccuracy(t, "reference–reference on Ω^{2,3}", rep.ReferenceReference, 1, 1)
	assessCheckAccuracy(t, "reference–machine on Ω^{2,3}", rep.ReferenceMachine, 0, 1)
	assessCheckAccuracy(t, "machine–machine on Ω^{2,3}", rep.MachineMachine, 0, 0)

	rep, err = AssessPredictions(pairs, assessSmallRAOverlap, AssessOptions{SplitAllPairs: true, IsReference: isRef})
	if err != nil {
		t.Fatal(err)
	}
	// Over all pairs: reference–reference P1 (wrong), P4 (right): 1/2;
	// machine–machine none; reference–machine the other six: P2, P3, P6,
	// P9 right, P5, P8 wrong: 4/6.
	if !rep.SplitAllPairs {
		t.Error("SplitAllPairs not reported")
	}
	assessCheckAccuracy(t, "reference–reference", rep.ReferenceReference, 1, 2)
	assessCheckAccuracy(t, "reference–machine", rep.ReferenceMachine, 4, 6)
	assessCheckAccuracy(t, "machine–machine", rep.MachineMachine, 0, 0)

	// The raw gap |avg_rank_base − avg_rank_comp| with its default edges
	// 0, 1, 2, 3: [0,1) P2, P4 2/2; [1,2) P1 0/1; [2,3) P3, P6 2/2;
	// [3,∞) P5, P8, P9 1/3.
	rep, err = AssessPredictions(pairs, assessSmallRAOverlap, AssessOptions{RawGap: true})
	if err != nil {
		t.Fatal(err)
	}
	assessCheckBuckets(t, rep.Buckets, []assessBucketWant{{0, 1, 2, 2}, {1, 2, 0, 1}, {2, 3, 2, 2}, {3, math.Inf(1), 1, 3}})

	if _, err := AssessPredictions(pairs, assessSmallRAOverlap, AssessOptions{GapEdges: []float64{1, 1}}); err == nil {
		t.Error("non-increasing edges accepted")
	}
	if _, err := AssessPredictions(pairs, assessSmallRAOverlap, AssessOptions{GapEdges: []float64{0, math.NaN()}}); err == nil {
		t.Error("NaN edge accepted")
	}
	if _, err := AssessPredictions(pairs, assessSmallRAOverlap[:3], AssessOptions{}); err == nil {
		t.Error("3 predictions for 9 pairs accepted")
	}
}

// TestAssessOnePair: a single assessed pair defines its accuracies but no
// error–gap correlation, which is undefined (NaN) rather than an error;
// the subsets it is not in are undefined too.
func TestAssessOnePair(t *testing.T) {
	pairs := vhedLoadSmall(t)[1:2] // P2: gap −0.8, agreement 4, machine–machine
	rep, err := AssessPredictions(pairs, []float64{-1}, AssessOptions{Intervals: true, Bootstrap: correlation.BootstrapOptions{Resamples: 50}})
	if err != nil {
		t.Fatal(err)
	}
	assessCheckAccuracy(t, "overall", rep.Overall, 1, 1)
	assessCheckAccuracy(t, "Ω³", rep.Omega[0].Accuracy, 0, 0)
	assessCheckAccuracy(t, "Ω⁴", rep.Omega[1].Accuracy, 1, 1)
	assessCheckAccuracy(t, "reference–machine", rep.ReferenceMachine, 0, 0)
	if !math.IsNaN(rep.ErrorGap.Statistic) || !math.IsNaN(rep.ErrorGap.P) {
		t.Errorf("error–gap correlation of one pair: %+v, want NaN", rep.ErrorGap)
	}
	if rep.Overall.Low != 1 || rep.Overall.High != 1 || !math.IsNaN(rep.Omega[0].Low) {
		t.Errorf("intervals: overall [%v, %v], Ω³ low %v", rep.Overall.Low, rep.Overall.High, rep.Omega[0].Low)
	}
}

func TestAssessBootstrapIntervals(t *testing.T) {
	pairs := vhedLoadSmall(t)
	opts := AssessOptions{Intervals: true, Bootstrap: correlation.BootstrapOptions{Resamples: 2000, Seed: 7}}
	rep, err := AssessPredictions(pairs, assessSmallRAOverlap, opts)
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Overall
	if !(o.Low < o.Value && o.Value < o.High && o.Low >= 0 && o.High <= 1) {
		t.Errorf("overall %v not inside its interval [%v, %v] within [0, 1]", o.Value, o.Low, o.High)
	}
	// Every resample of an all-correct subset is all correct.
	if b := rep.OmegaUnion.Ks; len(b) != 2 {
		t.Fatalf("union %v", b)
	}
	if b := rep.Omega[1].Accuracy; b.Low != 1 || b.High != 1 {
		t.Errorf("Ω⁴ (2/2 right): interval [%v, %v], want [1, 1]", b.Low, b.High)
	}
	// The same seed gives the same interval; another seed another one.
	again, err := AssessPredictions(pairs, assessSmallRAOverlap, opts)
	if err != nil {
		t.Fatal(err)
	}
	if again.Overall != rep.Overall {
		t.Errorf("same seed: %+v then %+v", rep.Overall, again.Overall)
	}
	// The interval agrees with correlation.Bootstrap run directly on the
	// eight 0/1 outcomes in pair order.
	x := []float64{0, 1, 1, 1, 0, 1, 0, 1}
	iv, err := correlation.Bootstrap(x, x, assessMean, opts.Bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	if iv.Low != o.Low || iv.High != o.High {
		t.Errorf("interval [%v, %v], direct bootstrap [%v, %v]", o.Low, o.High, iv.Low, iv.High)
	}
}

func TestAssessStoryFunc(t *testing.T) {
	// Score = number of distinct letters before "m" in the alphabet, a
	// per-story metric: P2 (A1 "a b c d e g" 6, B1 "t u v w a z" 1) gives
	// 1−6 = −5; P9 (A3 "s t u v y z" 0, B3 "n o p q r m" 0) a tie.
	pairs := vhedLoadSmall(t)
	calls := 0
	f := AssessStoryFunc(func(_ context.Context, stories []string) ([]float64, error) {
		calls++
		out := make([]float64, len(stories))
		for i, s := range stories {
			for _, w := range strings.Fields(s) {
				if w < "m" {
					out[i]++
				}
			}
		}
		return out, nil
	})
	got, err := f.ScorePairs(context.Background(), pairs)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || got[1] != -5 || got[8] != 0 {
		t.Errorf("calls %d, P2 %v, P9 %v; want 1, -5, 0", calls, got[1], got[8])
	}
}

func TestAssessGapFunc(t *testing.T) {
	pairs := vhedLoadSmall(t)
	// A predictor that prefers the shorter story 1 text by byte length
	// difference: len(s1) − len(s2), all 11-byte stories → 0.
	g := AssessGapFunc(func(_ context.Context, s1, s2 []string) ([]float64, error) {
		out := make([]float64, len(s1))
		for i := range s1 {
			out[i] = float64(len(s1[i]) - len(s2[i]))
		}
		return out, nil
	})
	rep, err := Assess(context.Background(), pairs, g, AssessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.PredictedTies != 8 || rep.Overall.Correct != 0 {
		t.Errorf("ties %d, correct %d; want 8 ties (ties count as wrong)", rep.PredictedTies, rep.Overall.Correct)
	}
	short := AssessGapFunc(func(_ context.Context, s1, _ []string) ([]float64, error) { return make([]float64, 1), nil })
	if _, err := short.ScorePairs(context.Background(), pairs); err == nil {
		t.Error("1 prediction for 9 pairs accepted")
	}
}

func TestAssessErrorCorrelationByHand(t *testing.T) {
	// Errors in stories with scores 1 and 2, none in 3 and 4: group means
	// 1.5 and 3.5, population variance of 1..4 is 1.25, p = q = 1/2, so
	// r = (1.5 − 3.5)·(1/2)/√1.25 = −1/√1.25.
	k := func(m string) StoryKey { return StoryKey{StoryID: "1", Model: m} }
	labels := map[StoryKey]bool{k("a"): true, k("b"): false, k("c"): true, k("d"): false}
	scores := map[StoryKey]float64{k("a"): 1, k("b"): 3, k("c"): 2, k("d"): 4, k("e"): 9}
	r, n, err := AssessErrorCorrelation(labels, scores)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 || math.Abs(r.Statistic-(-1/math.Sqrt(1.25))) > 1e-14 {
		t.Errorf("r = %v over %d, want %v over 4", r.Statistic, n, -1/math.Sqrt(1.25))
	}
	delete(scores, k("c"))
	if _, _, err := AssessErrorCorrelation(labels, scores); err == nil || !strings.Contains(err.Error(), `model "c"`) {
		t.Errorf("missing score: err = %v", err)
	}
}

func TestAssessGapsFromKeyedScores(t *testing.T) {
	pairs := vhedLoadSmall(t)[:3]
	scores := map[StoryKey]float64{{"100", "human"}: 3, {"100", "modelA"}: 2, {"100", "modelB"}: 1}
	got, err := AssessGapsFromKeyedScores(pairs, scores)
	if err != nil {
		t.Fatal(err)
	}
	// P1 (human, modelA): 2−3; P2 (modelA, modelB): 1−2; P3 (modelB, human): 3−1.
	if got[0] != -1 || got[1] != -1 || got[2] != 2 {
		t.Errorf("got %v, want [-1 -1 2]", got)
	}
	delete(scores, StoryKey{"100", "modelB"})
	if _, err := AssessGapsFromKeyedScores(pairs, scores); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("missing score: err = %v", err)
	}
}

func TestAssessStoryScorer(t *testing.T) {
	// Each of the 9 distinct stories (3 tasks × 3 models) is scored once,
	// in order of first appearance: P1 brings (100, human) then
	// (100, modelA), P2 (100, modelB). Scoring by that order (0, 1, 2, …)
	// makes P1's prediction 1 − 0 and P3's (modelB, human) 0 − 2.
	pairs := vhedLoadSmall(t)
	var seen []AssessStory
	f := AssessStoryScorer(func(_ context.Context, stories []AssessStory) ([]float64, error) {
		seen = stories
		out := make([]float64, len(stories))
		for i := range out {
			out[i] = float64(i)
		}
		return out, nil
	})
	got, err := f.ScorePairs(context.Background(), pairs)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 9 || seen[2] != (AssessStory{StoryKey{"100", "modelB"}, "t u v w a z", "[101, 102, 103, 104, 105]", "101,102,103,104,105"}) {
		t.Errorf("stories %+v", seen)
	}
	if got[0] != 1 || got[2] != -2 {
		t.Errorf("P1 %v, P3 %v; want 1, -2", got[0], got[2])
	}
}
