package nphrase

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/postag"
	"github.com/storyeval/storyeval/internal/pyunicode"
	"github.com/storyeval/storyeval/internal/sentences"
	"github.com/storyeval/storyeval/internal/words"
)

// MaxTextBytes bounds the text one call accepts.
const MaxTextBytes = 16 << 20

// Story returns the noun phrases of text: per sentence, lower-cased and
// de-duplicated within the sentence in order, the sentences concatenated —
// the layout of GROOViST's nphrases.json.
func Story(text string) ([]string, error) {
	sents, err := Sentences(text)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range sents {
		out = append(out, s...)
	}
	return out, nil
}

// Sentences returns the noun phrases of each sentence of text (NLTK Punkt
// sentences), lower-cased and de-duplicated within the sentence.
func Sentences(text string) ([][]string, error) {
	return eachSentence(text, sentenceChunks)
}

// SentenceNouns returns the nouns (tokens tagged NN, NNS, NNP, NNPS) of each
// sentence, lower-cased and de-duplicated within the sentence: the units of
// GROOViST's +Ns ablation.
func SentenceNouns(text string) ([][]string, error) {
	return eachSentence(text, sentenceNouns)
}

// WordCount returns the number of NLTK word tokens of text that contain a
// letter or a digit (punctuation tokens are not words).
func WordCount(text string) int {
	n := 0
	for _, t := range words.Tokenize(strings.ToValidUTF8(text, "\uFFFD")) {
		for _, r := range t {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				n++
				break
			}
		}
	}
	return n
}

func sentenceNouns(_ string, toks, tags []string, _ [][2]int) []string {
	var out []string
	seen := map[string]bool{}
	for i, t := range tags {
		if !isNoun(t) {
			continue
		}
		w := pyunicode.Lower(toks[i])
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func eachSentence(text string, fn func(sent string, toks, tags []string, offs [][2]int) []string) ([][]string, error) {
	if len(text) > MaxTextBytes {
		return nil, fmt.Errorf("text of %d bytes is over the %d-byte limit", len(text), MaxTextBytes)
	}
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	tagger, err := postag.English()
	if err != nil {
		return nil, err
	}
	var tk words.Tokenizer
	var toks, tags []string
	spans := sentences.Spans(text)
	out := make([][]string, 0, len(spans))
	for _, sp := range spans {
		sent := text[sp.Start:sp.End]
		toks = tk.TokenizeSentence(toks[:0], sent)
		tags = tagger.AppendTags(tags[:0], toks)
		offs := align(sent, toks)
		// A sentence-final mark inside a Punkt sentence (text written
		// "... gotten . i even ...", as VIST's is, where Punkt keeps the
		// lower-case continuation) still ends a sentence for spaCy's parser,
		// so the chunks are de-duplicated per such piece. The tags come
		// from the whole Punkt sentence, as NLTK tags it.
		lo := 0
		for i := range toks {
			if i == len(toks)-1 || tags[i] == "." && i > lo {
				out = append(out, fn(sent, toks[lo:i+1], tags[lo:i+1], offs[lo:i+1]))
				lo = i + 1
			}
		}
	}
	return out, nil
}

// sentenceChunks chunks one tagged sentence and formats the chunks.
func sentenceChunks(sent string, toks, tags []string, offs [][2]int) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range chunkSpans(toks, tags) {
		s := pyunicode.Lower(spanText(sent, toks, offs, c[0], c[1]))
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// spanText is the text of tokens [lo, hi): the sentence's own characters
// when both ends were found in it, the tokens joined by spaces otherwise.
func spanText(sent string, toks []string, offs [][2]int, lo, hi int) string {
	if offs[lo][0] >= 0 && offs[hi-1][0] >= 0 && offs[lo][0] <= offs[hi-1][1] {
		return sent[offs[lo][0]:offs[hi-1][1]]
	}
	return strings.Join(toks[lo:hi], " ")
}

// align finds each token's byte range in the sentence, scanning forward;
// tokens the tokenizer rewrote (quotes) get -1.
func align(sent string, toks []string) [][2]int {
	offs := make([][2]int, len(toks))
	cur := 0
	for i, t := range toks {
		offs[i] = [2]int{-1, -1}
		j := cur
		for j < len(sent) {
			r, size := utf8.DecodeRuneInString(sent[j:])
			if !pyunicode.IsSpace(r) {
				break
			}
			j += size
		}
		if strings.HasPrefix(sent[j:], t) {
			offs[i] = [2]int{j, j + len(t)}
			cur = j + len(t)
			continue
		}
		if t == "``" || t == "''" {
			if strings.HasPrefix(sent[j:], `"`) {
				cur = j + 1
			}
		}
	}
	return offs
}
