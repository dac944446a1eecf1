package words

import (
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"
	"github.com/storyeval/storyeval/internal/sentences"
)

// Tokenize returns the word tokens of text as nltk.word_tokenize(text)
// does: the text is split into sentences with Punkt and each sentence is
// tokenized with TokenizeSentence.
func Tokenize(text string) []string {
	var tk Tokenizer
	return tk.Tokenize(nil, text)
}

// TokenizeSentence returns the tokens of one sentence as NLTK 3.8's
// NLTKWordTokenizer().tokenize(sentence) does (convert_parentheses off).
// It does not split sentences; Tokenize does.
//
// Matches the reference implementation, which splits off only the period
// that ends the text, so a period inside a longer text stays attached to
// its word ("said." in `"Hi," she said. Bye.`).
func TokenizeSentence(sentence string) []string {
	var tk Tokenizer
	return tk.TokenizeSentence(nil, sentence)
}

// Tokenizer does what Tokenize and TokenizeSentence do, reusing its scratch
// buffers from one call to the next, which saves most of the allocation
// when many texts are tokenized. The zero value is ready to use. A
// Tokenizer must not be used by two goroutines at once; the package-level
// functions may be.
type Tokenizer struct {
	buf   passBuffers
	split sentences.Splitter
	spans []sentences.Span
}

// Tokenize appends the tokens of text (nltk.word_tokenize) to dst and
// returns the extended slice.
func (tk *Tokenizer) Tokenize(dst []string, text string) []string {
	tk.spans = tk.split.AppendSpans(tk.spans[:0], text)
	for _, s := range tk.spans {
		dst = tk.buf.appendTokens(dst, text[s.Start:s.End])
	}
	return dst
}

// Grow reserves scratch room for sentences of up to n bytes, so that the
// following calls do not grow their buffers piecemeal.
func (tk *Tokenizer) Grow(n int) {
	tk.buf.grow(n)
}

// TokenizeSentence appends the tokens of one sentence
// (NLTKWordTokenizer().tokenize) to dst and returns the extended slice.
func (tk *Tokenizer) TokenizeSentence(dst []string, sentence string) []string {
	return tk.buf.appendTokens(dst, sentence)
}

// passBuffers are the two code-point buffers the substitution passes write
// into alternately.
type passBuffers struct {
	a, b   []rune
	folded []byte // the sentence folded by foldASCII
	text   []byte // the tokens, UTF-8 encoded
}

// grow makes room for a sentence of n bytes. Padding seldom adds half
// again to a text; reserving room up front keeps the passes from growing
// their buffers.
func (pb *passBuffers) grow(n int) {
	need := n + n/2 + 32
	if cap(pb.a) < need {
		pb.a = make([]rune, 0, need)
		pb.b = make([]rune, 0, need)
	}
	if cap(pb.text) < need {
		pb.text = make([]byte, 0, need)
		pb.folded = make([]byte, 0, need)
	}
}

// appendTokens runs the substitution cascade on sentence and appends the
// whitespace-separated tokens of the result to dst.
func (pb *passBuffers) appendTokens(dst []string, sentence string) []string {
	pb.grow(len(sentence))
	src, chars := decode(pb.a[:0], sentence, pb.folded)
	pb.folded = chars.folded
	out := pb.b[:0]
	for i := range cascade {
		if !cascade[i].needs(&chars) {
			continue
		}
		out = cascade[i].run(out[:0], src)
		src, out = out, src
	}
	pb.a, pb.b = src, out
	// str.split(): runs of Python whitespace separate tokens. The tokens
	// are encoded into one buffer, separated by single spaces, and share
	// one string.
	enc := pb.text[:0]
	pending := false // a separator is due before the next token
	inToken := false
	for _, r := range src {
		if isSpace(r) {
			pending = pending || inToken
			inToken = false
			continue
		}
		if pending {
			enc = append(enc, ' ')
			pending = false
		}
		inToken = true
		if r < utf8.RuneSelf {
			enc = append(enc, byte(r))
		} else {
			enc = utf8.AppendRune(enc, r)
		}
	}
	pb.text = enc
	if len(enc) == 0 {
		return dst
	}
	text := string(enc)
	for {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			return append(dst, text)
		}
		dst = append(dst, text[:i])
		text = text[i+1:]
	}
}

// asciiSpace marks the ASCII characters that Python's str.split treats as
// whitespace.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true,
	0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true, ' ': true}

// isSpace is pyunicode.IsSpace with the ASCII case inlined.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiSpace[r]
	}
	return pyunicode.IsSpace(r)
}
