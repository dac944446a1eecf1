package ngram

import (
	"fmt"
	"math"
	"strings"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// SacreBLEUTokenizer names a SacreBLEU tokenizer.
type SacreBLEUTokenizer string

// The tokenizers SacreBLEU offers that this package implements.
const (
	// Tokenizer13a is SacreBLEU's default (mteval-v13a), see Tokenize13a.
	Tokenizer13a SacreBLEUTokenizer = "13a"
	// TokenizerNone splits on whitespace only, for pre-tokenized text.
	TokenizerNone SacreBLEUTokenizer = "none"
)

// SacreBLEUOptions are the choices of sacrebleu.BLEU that matter here; the
// zero value is SacreBLEU's default signature
// "nrefs:var|case:mixed|eff:no|tok:13a|smooth:exp".
type SacreBLEUOptions struct {
	// Lowercase lower-cases candidates and references before tokenizing
	// (case:lc).
	Lowercase bool
	// Tokenizer is Tokenizer13a when empty.
	Tokenizer SacreBLEUTokenizer
	// ItemsWithoutEffectiveOrder scores items as BLEU(...).sentence_score
	// does with the default effective_order=False. By default items are
	// scored as sacrebleu.sentence_bleu, which uses the effective order: the
	// geometric mean runs only over the n-gram orders the candidate has.
	ItemsWithoutEffectiveOrder bool
}

// SacreBLEU computes SacreBLEU 2.x's BLEU on the 0–100 scale with exp
// smoothing and 4-grams: the corpus score from summed statistics
// (corpus_score) and one score per item (sentence_bleu).
//
// Matches the reference implementation, which strips trailing whitespace
// before tokenizing; takes the closest reference length, the shorter on
// ties; uses brevity penalty exp(1 − ref/sys) when sys < ref and 0 for an
// empty candidate; scores 0 when no n-gram matches; and smooths an order
// with no matches as 100 / (2^k · total), k counting such orders.
func SacreBLEU(c *Corpus, o SacreBLEUOptions) (Scores, error) {
	none := false
	switch o.Tokenizer {
	case "", Tokenizer13a:
	case TokenizerNone:
		none = true
	default:
		return Scores{}, fmt.Errorf("unknown SacreBLEU tokenizer %q (want %q or %q)", o.Tokenizer, Tokenizer13a, TokenizerNone)
	}
	// SacreBLEU's _preprocess_segment: lower-case, strip trailing
	// whitespace, tokenize; then split on whitespace.
	prep := func(buf *tokenizeBuffers, dst []string, s string) []string {
		if o.Lowercase {
			s = strings.ToLower(s)
		}
		s = strings.TrimRightFunc(s, pyunicode.IsSpace)
		if !none {
			s = string(buf.tokenize13a(s))
		}
		return pyunicode.AppendFields(dst, s)
	}
	stats := c.itemStats(prep)
	out := Scores{Items: make(map[string]float64, len(c.ids))}
	var sum bleuStats
	for i, id := range c.ids {
		out.Items[id] = sacreBLEUScore(stats[i], !o.ItemsWithoutEffectiveOrder)
		sum.add(stats[i])
	}
	out.Corpus = sacreBLEUScore(sum, false)
	return out, nil
}

// sacreLog is SacreBLEU's my_log: log(0) is taken as −9999999999.
func sacreLog(x float64) float64 {
	if x == 0 {
		return -9999999999
	}
	return math.Log(x)
}

// sacreBLEUScore is BLEU.compute_bleu with smooth_method "exp". SacreBLEU's
// sys_len, ref_len, correct and total are the toolkit's testLen, refLen,
// correct and guess.
func sacreBLEUScore(s bleuStats, effectiveOrder bool) float64 {
	bp := 1.0
	if s.testLen < s.refLen {
		bp = 0
		if s.testLen > 0 {
			bp = math.Exp(1 - float64(s.refLen)/float64(s.testLen))
		}
	}
	anyCorrect := false
	for _, c := range s.correct {
		anyCorrect = anyCorrect || c != 0
	}
	if !anyCorrect {
		return 0
	}
	var prec [maxOrder]float64
	smooth := 1.0
	effOrder := maxOrder
	for n := 1; n <= maxOrder; n++ {
		if s.guess[n-1] == 0 {
			break
		}
		if effectiveOrder {
			effOrder = n
		}
		if s.correct[n-1] == 0 {
			smooth *= 2
			prec[n-1] = 100 / (smooth * float64(s.guess[n-1]))
		} else {
			prec[n-1] = 100 * float64(s.correct[n-1]) / float64(s.guess[n-1])
		}
	}
	// Python's sum() adds left to right.
	logSum := 0.0
	for _, p := range prec[:effOrder] {
		logSum += sacreLog(p)
	}
	return bp * math.Exp(logSum/float64(effOrder))
}
