package words

import (
	"github.com/storyeval/storyeval/internal/pyunicode"
	"github.com/storyeval/storyeval/internal/sentences"
)

// Tokenize returns the word tokens of text as nltk.word_tokenize(text)
// does: the text is split into sentences with Punkt and each sentence is
// tokenized with TokenizeSentence.
func Tokenize(text string) []string {
	var out []string
	var buf passBuffers
	for _, s := range sentences.Split(text) {
		out = buf.appendTokens(out, s)
	}
	return out
}

// TokenizeSentence returns the tokens of one sentence as NLTK 3.8's
// NLTKWordTokenizer().tokenize(sentence) does (convert_parentheses off).
// It does not split sentences; Tokenize does.
func TokenizeSentence(sentence string) []string {
	var buf passBuffers
	return buf.appendTokens(nil, sentence)
}

// passBuffers are the two code-point buffers the substitution passes write
// into alternately.
type passBuffers struct {
	a, b []rune
}

// appendTokens runs the substitution cascade on sentence and appends the
// whitespace-separated tokens of the result to dst.
func (pb *passBuffers) appendTokens(dst []string, sentence string) []string {
	src := append(pb.a[:0], []rune(sentence)...)
	out := pb.b[:0]
	for _, pass := range cascade {
		out = pass(out[:0], src)
		src, out = out, src
	}
	pb.a, pb.b = src, out
	// str.split(): runs of Python whitespace separate tokens.
	start := -1
	for i, r := range src {
		if pyunicode.IsSpace(r) {
			if start >= 0 {
				dst = append(dst, string(src[start:i]))
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = append(dst, string(src[start:]))
	}
	return dst
}
