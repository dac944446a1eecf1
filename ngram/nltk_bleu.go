package ngram

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/storyeval/storyeval/internal/parallel"
	"github.com/storyeval/storyeval/internal/pyunicode"
)

// NLTKSmoothing selects one of the methods of NLTK's
// nltk.translate.bleu_score.SmoothingFunction (Chen & Cherry 2014). The zero
// value is method0, NLTK's default (no smoothing).
type NLTKSmoothing int

// NLTK's smoothing methods, as SmoothingFunction().method0 … method7.
const (
	// NLTKMethod0 is no smoothing: a precision without matches becomes
	// sys.float_info.min (NLTK warns), so each such order multiplies the
	// score by about 1e-77 (weight 0.25): NLTK's "zero" BLEU, 0 at any
	// printed precision.
	NLTKMethod0 NLTKSmoothing = iota
	// NLTKMethod1 adds Epsilon to the numerator of zero precisions.
	NLTKMethod1
	// NLTKMethod2 adds 1 to numerator and denominator of every order but
	// unigrams (Lin & Och 2004).
	NLTKMethod2
	// NLTKMethod3 is NIST's geometric smoothing: the k-th zero precision
	// becomes 1/(2^k·denominator).
	NLTKMethod3
	// NLTKMethod4 divides the k-th zero precision's smoothed count by
	// K/ln(hypothesis length).
	NLTKMethod4
	// NLTKMethod5 averages each precision with its neighbours (the 5-gram
	// precision past the last order).
	NLTKMethod5
	// NLTKMethod6 interpolates orders 3 and up with a prior from the two
	// orders below (Gao & He 2013); it needs three orders and a non-zero
	// trigram precision.
	NLTKMethod6
	// NLTKMethod7 is method4 then method5.
	NLTKMethod7
)

// NLTKBLEUOptions configures NLTKSentenceBLEU and NLTKCorpusBLEU. The zero
// value is NLTK's default: BLEU-4 with uniform weights, no smoothing.
type NLTKBLEUOptions struct {
	// Weights are the weights of the 1-gram, 2-gram, … log precisions; nil
	// means (0.25, 0.25, 0.25, 0.25). Their number is the highest order.
	Weights []float64
	// Smoothing is the SmoothingFunction method.
	Smoothing NLTKSmoothing
	// Epsilon (method1), Alpha (method6) and K (method4) are
	// SmoothingFunction's parameters; 0 means NLTK's defaults 0.1, 5 and 5.
	Epsilon float64
	Alpha   int
	K       int
	// AutoReweigh is auto_reweigh: with uniform BLEU-4 weights and a
	// hypothesis (corpus: all hypotheses together) of n < 4 tokens, the
	// weights become n times 1/n.
	AutoReweigh bool
}

// NLTKSentenceBLEU is NLTK 3.8's nltk.translate.bleu_score.sentence_bleu:
// the BLEU of one tokenized hypothesis against its tokenized references
// (at least one), that is NLTKCorpusBLEU of a one-item corpus.
//
// NLTK takes token lists and does not tokenize; SplitNLTK splits text the
// way NLTK users commonly do (Python's str.split()).
func NLTKSentenceBLEU(refs [][]string, hyp []string, opts NLTKBLEUOptions) (float64, error) {
	return NLTKCorpusBLEU([][][]string{refs}, [][]string{hyp}, opts)
}

// NLTKCorpusBLEU is NLTK 3.8's corpus_bleu: clipped n-gram matches and
// n-gram counts summed over the corpus, the brevity penalty of the summed
// hypothesis lengths against the summed closest reference lengths (the
// shorter on ties), and the weighted geometric mean of the precisions that
// are above zero.
//
// Matches the reference implementation, which:
//   - returns 0 when no unigram matches at all, whatever the smoothing;
//   - keeps the precisions as unreduced fractions (Fraction with
//     _normalize=False), so method1–method4 add to the raw counts;
//   - hands the smoothing function the last item's references and
//     hypothesis and the corpus's total hypothesis length: method4 uses the
//     total length, method5 the last item's 5-gram precision and method6 the
//     last hypothesis's n-gram counts;
//   - computes exactly (fractions) where NLTK's arithmetic stays in
//     fractions and in floats where NLTK's turns into floats;
//   - sums the weighted logs with math.fsum (correctly rounded).
//
// NLTK raises for an item without references and for method6 with fewer
// than three orders or a zero trigram precision; those are errors here.
func NLTKCorpusBLEU(refs [][][]string, hyps [][]string, opts NLTKBLEUOptions) (float64, error) {
	if len(refs) != len(hyps) {
		return 0, fmt.Errorf("nltk bleu: %d hypotheses and %d reference lists", len(hyps), len(refs))
	}
	weights, err := opts.weights()
	if err != nil {
		return 0, err
	}
	total := nltkStats{num: make([]int64, len(weights)), den: make([]int64, len(weights))}
	for i, h := range hyps {
		st, err := nltkItemStats(refs[i], h, len(weights))
		if err != nil {
			return 0, fmt.Errorf("nltk bleu: hypothesis %d: %w", i, err)
		}
		total.add(st)
	}
	if len(hyps) == 0 {
		return 0, nil
	}
	v, err := total.score(opts, weights, refs[len(refs)-1], hyps[len(hyps)-1])
	if err != nil {
		return 0, fmt.Errorf("nltk bleu: %w", err)
	}
	return v, nil
}

// weights checks opts and returns its weights.
func (opts NLTKBLEUOptions) weights() ([]float64, error) {
	if opts.Smoothing < NLTKMethod0 || opts.Smoothing > NLTKMethod7 {
		return nil, fmt.Errorf("nltk bleu: smoothing method %d outside 0..7", opts.Smoothing)
	}
	if opts.Weights == nil {
		return []float64{0.25, 0.25, 0.25, 0.25}, nil
	}
	if len(opts.Weights) == 0 {
		return nil, errors.New("nltk bleu: empty weights")
	}
	return opts.Weights, nil
}

// nltkStats are corpus_bleu's sums: clipped matches and n-gram counts per
// order, hypothesis and closest reference lengths.
type nltkStats struct {
	num, den       []int64
	hypLen, refLen int
}

// nltkItemStats are one item's statistics for orders 1..n.
func nltkItemStats(refs [][]string, hyp []string, n int) (nltkStats, error) {
	if len(refs) == 0 {
		return nltkStats{}, errors.New("no references")
	}
	st := nltkStats{num: make([]int64, n), den: make([]int64, n), hypLen: len(hyp), refLen: nltkClosestRefLength(refs, len(hyp))}
	for k := 1; k <= n; k++ {
		st.num[k-1], st.den[k-1] = nltkModifiedPrecision(refs, hyp, k)
	}
	return st, nil
}

func (s *nltkStats) add(o nltkStats) {
	for k := range s.num {
		s.num[k] += o.num[k]
		s.den[k] += o.den[k]
	}
	s.hypLen += o.hypLen
	s.refLen += o.refLen
}

// score is the end of corpus_bleu: the early 0, smoothing (with the last
// item's references and hypothesis), auto_reweigh and the weighted
// geometric mean times the brevity penalty.
func (s nltkStats) score(opts NLTKBLEUOptions, weights []float64, lastRefs [][]string, lastHyp []string) (float64, error) {
	if s.num[0] == 0 {
		return 0, nil
	}
	p, err := nltkSmooth(opts, s.num, s.den, lastRefs, lastHyp, s.hypLen)
	if err != nil {
		return 0, err
	}
	if opts.AutoReweigh && s.hypLen < 4 && slices.Equal(weights, []float64{0.25, 0.25, 0.25, 0.25}) {
		weights = make([]float64, s.hypLen)
		for i := range weights {
			weights[i] = 1 / float64(s.hypLen)
		}
	}
	var terms []float64
	for i := 0; i < len(weights) && i < len(p); i++ {
		if p[i].sign() > 0 {
			terms = append(terms, weights[i]*math.Log(p[i].float()))
		}
	}
	return nltkBrevityPenalty(s.refLen, s.hypLen) * math.Exp(pyFsum(terms)), nil
}

// nltkModifiedPrecision is modified_precision's numerator and (unreduced)
// denominator: hypothesis n-grams clipped by their highest count in any
// reference, over max(1, number of hypothesis n-grams).
func nltkModifiedPrecision(refs [][]string, hyp []string, n int) (num, den int64) {
	counts := nltkNgramCounts(hyp, n)
	maxRef := make(map[string]int64, len(counts))
	for _, r := range refs {
		rc := nltkNgramCounts(r, n)
		for g := range counts {
			maxRef[g] = max(maxRef[g], rc[g])
		}
	}
	var total int64
	for g, c := range counts {
		num += min(c, maxRef[g])
		total += c
	}
	return num, max(1, total)
}

// nltkNgramCounts counts the n-grams of toks, each keyed by its tokens with
// their lengths (so that no two n-grams share a key).
func nltkNgramCounts(toks []string, n int) map[string]int64 {
	out := map[string]int64{}
	var key []byte
	for i := 0; i+n <= len(toks); i++ {
		key = key[:0]
		for _, t := range toks[i : i+n] {
			key = strconv.AppendInt(key, int64(len(t)), 10)
			key = append(key, ':')
			key = append(key, t...)
		}
		out[string(key)]++
	}
	return out
}

// nltkClosestRefLength is closest_ref_length: the reference length nearest
// the hypothesis length, the shorter on ties.
func nltkClosestRefLength(refs [][]string, hypLen int) int {
	best := len(refs[0])
	for _, r := range refs[1:] {
		d, bd := abs(len(r)-hypLen), abs(best-hypLen)
		if d < bd || (d == bd && len(r) < best) {
			best = len(r)
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// nltkBrevityPenalty is brevity_penalty: 1 when the hypothesis is longer
// than the reference, 0 when it is empty, else exp(1 − r/c).
func nltkBrevityPenalty(refLen, hypLen int) float64 {
	switch {
	case hypLen > refLen:
		return 1
	case hypLen == 0:
		return 0
	}
	return math.Exp(1 - float64(refLen)/float64(hypLen))
}

// SplitNLTK splits text into tokens as Python's str.split() does (runs of
// Unicode whitespace), the tokenization the storyeval commands use before
// NLTK BLEU; NLTK itself takes token lists.
func SplitNLTK(text string) []string { return pyunicode.AppendFields(nil, text) }

// NLTKBLEU scores a Corpus with NLTK's BLEU: each item's sentence_bleu and
// the corpus's corpus_bleu (items in corpus order, which decides the "last
// item" the smoothing methods see), on the text of candidates and
// references split by SplitNLTK. Tokenize the corpus first
// (Corpus.Tokenized) to score PTB tokens instead.
func NLTKBLEU(c *Corpus, opts NLTKBLEUOptions) (Scores, error) {
	weights, err := opts.weights()
	if err != nil {
		return Scores{}, err
	}
	n := len(c.ids)
	refs := make([][][]string, n)
	hyps := make([][]string, n)
	stats := make([]nltkStats, n)
	scores := make([]float64, n)
	errs := make([]error, n)
	parallel.Chunks(n, minItemsPerWorker, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			id := c.ids[i]
			hyps[i] = SplitNLTK(c.cands[id])
			for _, r := range c.refs[id] {
				refs[i] = append(refs[i], SplitNLTK(r))
			}
			if stats[i], errs[i] = nltkItemStats(refs[i], hyps[i], len(weights)); errs[i] == nil {
				scores[i], errs[i] = stats[i].score(opts, weights, refs[i], hyps[i])
			}
		}
	})
	out := Scores{Items: make(map[string]float64, n)}
	total := nltkStats{num: make([]int64, len(weights)), den: make([]int64, len(weights))}
	for i, id := range c.ids {
		if errs[i] != nil {
			return Scores{}, fmt.Errorf("nltk bleu: item %q: %w", id, errs[i])
		}
		out.Items[id] = scores[i]
		total.add(stats[i])
	}
	if n > 0 {
		if out.Corpus, err = total.score(opts, weights, refs[n-1], hyps[n-1]); err != nil {
			return Scores{}, fmt.Errorf("nltk bleu: corpus: %w", err)
		}
	}
	return out, nil
}
