package postag

// Tagger tags token sequences with an averaged-perceptron model. It is
// immutable after construction and safe for concurrent use.
//
// NLTK builds fourteen feature strings per token and looks each up in a
// dict. Tagger reaches the same features through indexes built once from the
// model (see index.go): tag features by tag number, context-word features
// through one lookup per word of the sentence. The features, and the order
// their weights are added in, are NLTK's.
type Tagger struct {
	// classes are the tags in ascending order; ties are broken towards the
	// later one.
	classes []string
	tagDict map[string]uint8

	// The weights of feature k are cls[start[k]:start[k+1]] and
	// wt[start[k]:start[k+1]]; feature -1 (absent) has none.
	start []int32
	cls   []uint8
	wt    []float64

	idx featureIndex
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

// contextWord is one position of NLTK's context (START + normalised tokens +
// END): the indexes of its word and suffix features.
type contextWord struct {
	word, suffix int32
}

// AppendTags appends one tag per token to dst and returns the extended
// slice, like Tag.
func (t *Tagger) AppendTags(dst []string, tokens []string) []string {
	if len(tokens) == 0 {
		return dst
	}
	var buf [64]contextWord
	ctx := buf[:0]
	if len(tokens)+4 > len(buf) {
		ctx = make([]contextWord, 0, len(tokens)+4)
	}
	ctx = append(ctx, t.idx.contextWord(start1), t.idx.contextWord(start2))
	for _, w := range tokens {
		ctx = append(ctx, t.idx.contextWord(normalize(w)))
	}
	ctx = append(ctx, t.idx.contextWord(end1), t.idx.contextWord(end2))

	var scores [maxClasses]float64
	prev, prev2 := t.idx.start1, t.idx.start2
	for i, word := range tokens {
		c, ok := t.tagDict[word]
		if !ok {
			c = t.predict(scores[:len(t.classes)], word, ctx[i:i+5], prev, prev2)
		}
		dst = append(dst, t.classes[c])
		prev2, prev = prev, int(c)
	}
	return dst
}

// maxClasses is the most tags a model can have (package apmodel stores a
// tag in a byte).
const maxClasses = 256

// predict is NLTK's AveragedPerceptron.predict over the features of
// PerceptronTagger._get_features; ctx is the context window i-2 .. i+2 and
// prev, prev2 are tag numbers (START tags included).
func (t *Tagger) predict(scores []float64, word string, ctx []contextWord, prev, prev2 int) uint8 {
	x := &t.idx
	// The bias is the first feature, so its weights land on zeros:
	// copying them is the same as adding them.
	copy(scores, x.biasScores)
	// Features are visited in NLTK's insertion order so that every tag's
	// score is summed in the same order, hence to the same double. NLTK
	// multiplies each weight by the feature's count, which is always 1: no
	// two templates can produce the same string.
	t.add(scores, x.lookup(x.suffix, lastChars(word, 3)))
	t.add(scores, x.lookup(x.pref1, firstChar(word)))
	t.add(scores, x.prevTag[prev])
	t.add(scores, x.prev2Tag[prev2])
	t.add(scores, x.tagPair[prev*x.numTags+prev2])
	cur := x.wordFeatures(ctx[2].word)
	t.add(scores, cur.asCurrent)
	t.add(scores, x.prevTagWord(cur, prev))
	t.add(scores, x.wordFeatures(ctx[1].word).asPrev)
	t.add(scores, x.suffixFeatures(ctx[1].suffix).asPrev)
	t.add(scores, x.wordFeatures(ctx[0].word).asPrev2)
	t.add(scores, x.wordFeatures(ctx[3].word).asNext)
	t.add(scores, x.suffixFeatures(ctx[3].suffix).asNext)
	t.add(scores, x.wordFeatures(ctx[4].word).asNext2)

	// max(classes, key=lambda label: (scores[label], label)): classes are
	// ascending, so on equal scores the later (greater) label wins.
	best := 0
	for c := 1; c < len(scores); c++ {
		if scores[c] >= scores[best] {
			best = c
		}
	}
	return uint8(best)
}

// add adds the weights of feature k (none when k < 0) to the scores.
func (t *Tagger) add(scores []float64, k int32) {
	if k < 0 {
		return
	}
	lo, hi := t.start[k], t.start[k+1]
	cls, wt := t.cls[lo:hi], t.wt[lo:hi]
	for j, c := range cls {
		scores[c] += wt[j]
	}
}
