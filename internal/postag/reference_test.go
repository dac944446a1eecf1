package postag

import (
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/storyeval/storyeval/internal/postag/internal/apmodel"
)

// literalTagger is a direct transcription of NLTK 3.8's tag / _get_features /
// predict, building every feature string and looking it up whole, without
// the Tagger's precomputed indexes. Tests compare the two.
type literalTagger struct {
	m     *apmodel.Model
	index map[string]int
}

var literal struct {
	once sync.Once
	t    *literalTagger
	err  error
}

func englishLiteral(tb testing.TB) *literalTagger {
	literal.once.Do(func() {
		m, err := apmodel.Decode(englishModel)
		if err != nil {
			literal.err = err
			return
		}
		lt := &literalTagger{m: m, index: map[string]int{}}
		for k, f := range m.Features {
			lt.index[f.Key] = k
		}
		literal.t = lt
	})
	if literal.err != nil {
		tb.Fatal(literal.err)
	}
	return literal.t
}

func (lt *literalTagger) tag(tokens []string) []string {
	context := []string{start1, start2}
	for _, w := range tokens {
		context = append(context, normalize(w))
	}
	context = append(context, end1, end2)
	prev, prev2 := start1, start2
	var out []string
	for i, word := range tokens {
		var tag string
		if c, ok := lt.m.TagDict[word]; ok {
			tag = lt.m.Classes[c]
		} else {
			j := i + 2
			feats := []string{
				"bias",
				"i suffix " + lastChars(word, 3),
				"i pref1 " + firstChar(word),
				"i-1 tag " + prev,
				"i-2 tag " + prev2,
				"i tag+i-2 tag " + prev + " " + prev2,
				"i word " + context[j],
				"i-1 tag+i word " + prev + " " + context[j],
				"i-1 word " + context[j-1],
				"i-1 suffix " + lastChars(context[j-1], 3),
				"i-2 word " + context[j-2],
				"i+1 word " + context[j+1],
				"i+1 suffix " + lastChars(context[j+1], 3),
				"i+2 word " + context[j+2],
			}
			scores := make([]float64, len(lt.m.Classes))
			for _, key := range feats {
				k, ok := lt.index[key]
				if !ok {
					continue
				}
				f := lt.m.Features[k]
				for n, c := range f.Classes {
					scores[c] += 1 * (float64(f.Milli[n]) / 1000)
				}
			}
			best := 0
			for c := range scores {
				if scores[c] > scores[best] || scores[c] == scores[best] && lt.m.Classes[c] > lt.m.Classes[best] {
					best = c
				}
			}
			tag = lt.m.Classes[best]
		}
		out = append(out, tag)
		prev2, prev = prev, tag
	}
	return out
}

// TestTagMatchesLiteralTranscription runs both taggers on the golden
// sentences and on random sequences of their tokens (recased, hyphenated,
// numbers), which reach contexts and features the natural text does not.
func TestTagMatchesLiteralTranscription(t *testing.T) {
	tagger, err := English()
	if err != nil {
		t.Fatal(err)
	}
	lt := englishLiteral(t)
	var vocab []string
	check := func(tokens []string) {
		t.Helper()
		if got, want := tagger.Tag(tokens), lt.tag(tokens); !slices.Equal(got, want) {
			t.Errorf("Tag(%q)\n = %q\nliteral %q", tokens, got, want)
		}
	}
	for _, name := range goldenFiles {
		_, stories := readGolden(t, name)
		for _, story := range stories {
			for _, s := range story {
				check(s.Tokens)
				vocab = append(vocab, s.Tokens...)
			}
		}
	}
	vocab = append(vocab, "1999", "42", "3-4", "-", "--", "well-known", "", "İstanbul", "²³", "Mr.", "U.S.", "'s", "n't", "``", "''")
	rng := rand.New(rand.NewSource(1))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		tokens := make([]string, 1+rng.Intn(20))
		for i := range tokens {
			w := vocab[rng.Intn(len(vocab))]
			switch rng.Intn(6) {
			case 0:
				w = strings.ToUpper(w[:min(1, len(w))]) + w[min(1, len(w)):]
			case 1:
				w = strings.ToUpper(w)
			}
			tokens[i] = w
		}
		check(tokens)
	}
}
