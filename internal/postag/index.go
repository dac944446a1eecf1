package postag

import (
	"fmt"
	"strings"

	"github.com/storyeval/storyeval/internal/postag/internal/apmodel"
)

// featureIndex finds a token's features without building their strings.
// Every field holds feature numbers (-1 where the model has no such feature).
type featureIndex struct {
	// biasScores are the scores after the "bias" feature, one per class.
	biasScores []float64

	// Features of the token itself, by its raw text: "i suffix" (last three
	// characters) and "i pref1" (first character).
	suffix, pref1 map[string]int32

	// Tag numbers are class indexes, then START's two tags. prevTag and
	// prev2Tag are "i-1 tag" and "i-2 tag" by tag number; tagPair is
	// "i tag+i-2 tag" at prev*numTags+prev2.
	numTags           int
	start1, start2    int
	prevTag, prev2Tag []int32
	tagPair           []int32

	// Context words (normalised tokens and the START/END padding): words
	// maps a word to its entry in wordFeats, suffixes a word's last three
	// characters to its entry in suffixFeats.
	words       map[string]int32
	wordFeats   []wordFeatures
	tagWords    []tagWord
	suffixes    map[string]int32
	suffixFeats []suffixFeatures
}

// wordFeatures are the features a context word fires from each position of
// the window, and its "i-1 tag+i word" features, tagWords[tagLo:tagHi].
type wordFeatures struct {
	asCurrent, asPrev, asPrev2, asNext, asNext2 int32
	tagLo, tagHi                                int32
}

// tagWord is one "i-1 tag+i word" feature of a word: the previous tag's
// number and the feature number.
type tagWord struct {
	tag  int32
	feat int32
}

// suffixFeatures are a context word's "i-1 suffix" and "i+1 suffix" features.
type suffixFeatures struct {
	asPrev, asNext int32
}

var noWordFeatures = wordFeatures{-1, -1, -1, -1, -1, 0, 0}
var noSuffixFeatures = suffixFeatures{-1, -1}

// newTagger builds a Tagger and its feature index from a decoded model.
func newTagger(m *apmodel.Model) (*Tagger, error) {
	t := &Tagger{classes: m.Classes, tagDict: m.TagDict}
	x := &t.idx
	x.biasScores = make([]float64, len(m.Classes))
	x.suffix, x.pref1 = map[string]int32{}, map[string]int32{}
	x.words, x.suffixes = map[string]int32{}, map[string]int32{}

	tagNames := append(append([]string(nil), m.Classes...), start1, start2)
	x.numTags = len(tagNames)
	x.start1, x.start2 = len(m.Classes), len(m.Classes)+1
	x.prevTag = filled(x.numTags)
	x.prev2Tag = filled(x.numTags)
	x.tagPair = filled(x.numTags * x.numTags)

	tagWordsOf := map[int32][]tagWord{} // by wordFeats entry, flattened below
	word := func(w string) *wordFeatures {
		i, ok := x.words[w]
		if !ok {
			i = int32(len(x.wordFeats))
			x.words[w] = i
			x.wordFeats = append(x.wordFeats, noWordFeatures)
		}
		return &x.wordFeats[i]
	}
	suffix := func(s string) *suffixFeatures {
		i, ok := x.suffixes[s]
		if !ok {
			i = int32(len(x.suffixFeats))
			x.suffixes[s] = i
			x.suffixFeats = append(x.suffixFeats, noSuffixFeatures)
		}
		return &x.suffixFeats[i]
	}

	entries := 0
	for _, f := range m.Features {
		entries += len(f.Classes)
	}
	t.start = make([]int32, 0, len(m.Features)+1)
	t.cls = make([]uint8, 0, entries)
	t.wt = make([]float64, 0, entries)
	for k, f := range m.Features {
		t.start = append(t.start, int32(len(t.cls)))
		t.cls = append(t.cls, f.Classes...)
		for _, milli := range f.Milli {
			// Correctly rounded, so exactly the double Python parsed from
			// the three-decimal literal (see package apmodel).
			t.wt = append(t.wt, float64(milli)/1000)
		}

		tmpl, args, ok := splitFeature(f.Key)
		if !ok {
			return nil, fmt.Errorf("postag: model feature %q matches no NLTK feature template", f.Key)
		}
		kk := int32(k)
		switch tmpl {
		case tmplBias:
			for j, c := range f.Classes {
				x.biasScores[c] += float64(f.Milli[j]) / 1000
			}
		case tmplSuffix:
			x.suffix[args] = kk
		case tmplPref1:
			x.pref1[args] = kk
		case tmplPrevTag, tmplPrev2Tag:
			// A tag that is not a class can never be a previous tag, so
			// such a feature never fires.
			byTag := x.prevTag
			if tmpl == tmplPrev2Tag {
				byTag = x.prev2Tag
			}
			for a, name := range tagNames {
				if args == name {
					byTag[a] = kk
				}
			}
		case tmplTagPair:
			for a, b := range tagSplits(tagNames, args) {
				x.tagPair[a*x.numTags+b] = kk
			}
		case tmplPrevTagWord:
			// Tags hold no spaces in NLTK's model, but a name with a space
			// would make a key split two ways, and the key fires for both.
			for a, name := range tagNames {
				if w, ok := strings.CutPrefix(args, name+" "); ok {
					word(w)
					i := x.words[w]
					tagWordsOf[i] = append(tagWordsOf[i], tagWord{tag: int32(a), feat: kk})
				}
			}
		case tmplWord:
			word(args).asCurrent = kk
		case tmplPrevWord:
			word(args).asPrev = kk
		case tmplPrev2Word:
			word(args).asPrev2 = kk
		case tmplNextWord:
			word(args).asNext = kk
		case tmplNext2Word:
			word(args).asNext2 = kk
		case tmplPrevSuffix:
			suffix(args).asPrev = kk
		case tmplNextSuffix:
			suffix(args).asNext = kk
		}
	}
	t.start = append(t.start, int32(len(t.cls)))
	for i := range x.wordFeats {
		tw := tagWordsOf[int32(i)]
		x.wordFeats[i].tagLo = int32(len(x.tagWords))
		x.tagWords = append(x.tagWords, tw...)
		x.wordFeats[i].tagHi = int32(len(x.tagWords))
	}
	return t, nil
}

func filled(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

// tagSplits yields the (prev, prev2) tag numbers whose names joined by a
// space are args.
func tagSplits(tagNames []string, args string) func(yield func(int, int) bool) {
	return func(yield func(int, int) bool) {
		for a, name := range tagNames {
			rest, ok := strings.CutPrefix(args, name+" ")
			if !ok {
				continue
			}
			for b, name2 := range tagNames {
				if rest == name2 && !yield(a, b) {
					return
				}
			}
		}
	}
}

func (x *featureIndex) lookup(m map[string]int32, key string) int32 {
	if k, ok := m[key]; ok {
		return k
	}
	return -1
}

// contextWord finds the word and suffix entries of a context word.
func (x *featureIndex) contextWord(w string) contextWord {
	cw := contextWord{word: -1, suffix: -1}
	if i, ok := x.words[w]; ok {
		cw.word = i
	}
	if i, ok := x.suffixes[lastChars(w, 3)]; ok {
		cw.suffix = i
	}
	return cw
}

func (x *featureIndex) wordFeatures(i int32) wordFeatures {
	if i < 0 {
		return noWordFeatures
	}
	return x.wordFeats[i]
}

func (x *featureIndex) suffixFeatures(i int32) suffixFeatures {
	if i < 0 {
		return noSuffixFeatures
	}
	return x.suffixFeats[i]
}

// prevTagWord is the "i-1 tag+i word" feature for the current word after
// tag prev.
func (x *featureIndex) prevTagWord(cur wordFeatures, prev int) int32 {
	for _, tw := range x.tagWords[cur.tagLo:cur.tagHi] {
		if int(tw.tag) == prev {
			return tw.feat
		}
	}
	return -1
}
