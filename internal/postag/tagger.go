package postag

import (
	"fmt"

	"github.com/storyeval/storyeval/internal/postag/internal/apmodel"
)

// Tagger tags token sequences with an averaged-perceptron model. It is
// immutable after construction and safe for concurrent use.
type Tagger struct {
	// classes are the tags in ascending order; ties are broken towards the
	// later one.
	classes []string
	tagDict map[string]uint8

	// The weights of feature k are cls[start[k]:start[k+1]] and
	// wt[start[k]:start[k+1]].
	start []int32
	cls   []uint8
	wt    []float64

	// byArgs[t] maps the argument string of a template-t feature to its
	// index k; bias is the index of the "bias" feature or -1.
	byArgs [numTemplates]map[string]int32
	bias   int32
}

// newTagger builds a Tagger from a decoded model.
func newTagger(m *apmodel.Model) (*Tagger, error) {
	t := &Tagger{classes: m.Classes, tagDict: m.TagDict, bias: -1}
	for i := range t.byArgs {
		t.byArgs[i] = map[string]int32{}
	}
	t.start = make([]int32, 0, len(m.Features)+1)
	for k, f := range m.Features {
		tmpl, args, ok := splitFeature(f.Key)
		if !ok {
			return nil, fmt.Errorf("postag: model feature %q matches no NLTK feature template", f.Key)
		}
		if tmpl == tmplBias {
			t.bias = int32(k)
		} else {
			t.byArgs[tmpl][args] = int32(k)
		}
		t.start = append(t.start, int32(len(t.cls)))
		t.cls = append(t.cls, f.Classes...)
		for _, milli := range f.Milli {
			// Correctly rounded, so exactly the double Python parsed from
			// the three-decimal literal (see package apmodel).
			t.wt = append(t.wt, float64(milli)/1000)
		}
	}
	t.start = append(t.start, int32(len(t.cls)))
	return t, nil
}

// Classes returns the tags the model can assign, in ascending order.
func (t *Tagger) Classes() []string {
	return append([]string(nil), t.classes...)
}

// Tag returns one Penn Treebank tag per token, as NLTK 3.8's
// PerceptronTagger.tag (nltk.pos_tag) does.
//
// Matches the reference implementation, which takes a word's tag from the
// tag dictionary (frequent, unambiguous words, looked up case-sensitively)
// without scoring it, and otherwise scores every tag on the model's features
// given the two previous predicted tags.
func (t *Tagger) Tag(tokens []string) []string {
	return t.AppendTags(make([]string, 0, len(tokens)), tokens)
}

// AppendTags appends one tag per token to dst and returns the extended
// slice, like Tag.
func (t *Tagger) AppendTags(dst []string, tokens []string) []string {
	if len(tokens) == 0 {
		return dst
	}
	// context is NLTK's START + normalised tokens + END.
	context := make([]string, len(tokens)+4)
	context[0], context[1] = start1, start2
	for i, w := range tokens {
		context[i+2] = normalize(w)
	}
	context[len(tokens)+2], context[len(tokens)+3] = end1, end2

	var sc scorer
	prev, prev2 := start1, start2
	for i, word := range tokens {
		tag := ""
		if c, ok := t.tagDict[word]; ok {
			tag = t.classes[c]
		} else {
			tag = t.predict(&sc, word, context[i:i+5], prev, prev2)
		}
		dst = append(dst, tag)
		prev2, prev = prev, tag
	}
	return dst
}

// scorer holds the per-call scratch space of predict.
type scorer struct {
	scores [256]float64
	key    []byte
}

// predict is NLTK's AveragedPerceptron.predict over the features of
// PerceptronTagger._get_features. ctx is the context window i-2 .. i+2.
func (t *Tagger) predict(sc *scorer, word string, ctx []string, prev, prev2 string) string {
	scores := sc.scores[:len(t.classes)]
	clear(scores)
	// Features are visited in NLTK's insertion order so that every tag's
	// score is summed in the same order, hence to the same double.
	t.add(scores, t.bias)
	t.addArgs(scores, tmplSuffix, lastChars(word, 3))
	t.addArgs(scores, tmplPref1, firstChar(word))
	t.addArgs(scores, tmplPrevTag, prev)
	t.addArgs(scores, tmplPrev2Tag, prev2)
	sc.key = append(append(append(sc.key[:0], prev...), ' '), prev2...)
	t.addKey(scores, tmplTagPair, sc.key)
	t.addArgs(scores, tmplWord, ctx[2])
	sc.key = append(append(append(sc.key[:0], prev...), ' '), ctx[2]...)
	t.addKey(scores, tmplPrevTagWord, sc.key)
	t.addArgs(scores, tmplPrevWord, ctx[1])
	t.addArgs(scores, tmplPrevSuffix, lastChars(ctx[1], 3))
	t.addArgs(scores, tmplPrev2Word, ctx[0])
	t.addArgs(scores, tmplNextWord, ctx[3])
	t.addArgs(scores, tmplNextSuffix, lastChars(ctx[3], 3))
	t.addArgs(scores, tmplNext2Word, ctx[4])

	// max(classes, key=lambda label: (scores[label], label)): classes are
	// ascending, so on equal scores the later (greater) label wins.
	best := 0
	for c := 1; c < len(scores); c++ {
		if scores[c] >= scores[best] {
			best = c
		}
	}
	return t.classes[best]
}

func (t *Tagger) addArgs(scores []float64, tmpl template, args string) {
	if k, ok := t.byArgs[tmpl][args]; ok {
		t.add(scores, k)
	}
}

func (t *Tagger) addKey(scores []float64, tmpl template, args []byte) {
	if k, ok := t.byArgs[tmpl][string(args)]; ok {
		t.add(scores, k)
	}
}

func (t *Tagger) add(scores []float64, k int32) {
	if k < 0 {
		return
	}
	lo, hi := t.start[k], t.start[k+1]
	for j := lo; j < hi; j++ {
		scores[t.cls[j]] += t.wt[j]
	}
}
