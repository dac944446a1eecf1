package sentences

import (
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// Span is the byte range text[Start:End] of one sentence.
type Span struct {
	Start, End int
}

// Split returns the sentences of text as nltk.sent_tokenize(text) does
// (NLTK 3.8, English). Each sentence is a substring of text; whitespace
// between sentences is dropped, and so is trailing whitespace.
//
// Matches the reference implementation, which keeps leading whitespace of
// the text in the first sentence and keeps line breaks inside sentences.
// Matches the reference implementation, which moves closing quotes and
// brackets that follow a break back into the sentence they close, as in
// "(Sent1.) Sent2." and `"Hi." He left.`.
func Split(text string) []string {
	spans := Spans(text)
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = text[s.Start:s.End]
	}
	return out
}

// Spans returns the byte ranges of the sentences that Split returns
// (PunktSentenceTokenizer.span_tokenize with boundary realignment).
func Spans(text string) []Span {
	var sp Splitter
	return sp.AppendSpans(nil, text)
}

// Splitter does what Spans does, reusing its scratch space from one call to
// the next; the zero value is ready to use. A Splitter must not be used by
// two goroutines at once; the package-level functions may be.
type Splitter struct {
	buf buffers
}

// AppendSpans appends the sentence spans of text to dst and returns the
// extended slice.
func (sp *Splitter) AppendSpans(dst []Span, text string) []Span {
	start := len(dst)
	dst = english().appendSlices(dst, text, &sp.buf)
	// realign works in place and returns a prefix of what it is given.
	return dst[:start+len(realign(text, dst[start:]))]
}

// buffers holds scratch space reused across the candidate breaks of a text.
type buffers struct {
	words []string
	toks  []token
}

// candidate is one match of punkt.py's period-context pattern
// [.?!](?=(?P<after_tok>NonWord|\s+(?P<next_tok>\S+))): a sentence-end mark
// at text[pos] followed by either a non-word character or whitespace and a
// token.
type candidate struct {
	pos      int // offset of the mark; the match ends at pos+1
	afterEnd int // end of after_tok
	nextTok  int // start of next_tok, or -1 when after_tok is punctuation
}

// matchCandidate tests the period-context pattern at text[i].
func matchCandidate(text string, i int) (candidate, bool) {
	switch text[i] {
	case '.', '?', '!':
	default:
		return candidate{}, false
	}
	j := i + 1
	if j >= len(text) {
		return candidate{}, false
	}
	r, size := utf8.DecodeRuneInString(text[j:])
	if isNonWord(r) {
		return candidate{pos: i, afterEnd: j + size, nextTok: -1}, true
	}
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		if !pyunicode.IsSpace(r) {
			break
		}
		j += size
	}
	if j == i+1 || j == len(text) {
		return candidate{}, false
	}
	k := j
	for k < len(text) {
		r, size := utf8.DecodeRuneInString(text[k:])
		if pyunicode.IsSpace(r) {
			break
		}
		k += size
	}
	return candidate{pos: i, afterEnd: k, nextTok: j}, true
}

// markFinder finds the sentence-end marks '.', '?' and '!' of a text in
// order, with one vectorised strings.IndexByte search per mark kind and
// occurrence rather than a test of every byte.
type markFinder struct {
	text string
	// at[k] is the offset of the next occurrence of mark k at or after
	// the last search start, -1 when there is none, and valid only when
	// searched[k] is set.
	at       [3]int
	searched [3]bool
}

var markBytes = [3]byte{'.', '?', '!'}

// next returns the offset of the first mark at or after from, or -1.
func (m *markFinder) next(from int) int {
	best := -1
	for k := range markBytes {
		if !m.searched[k] || (m.at[k] >= 0 && m.at[k] < from) {
			m.searched[k] = true
			m.at[k] = -1
			if from < len(m.text) {
				if j := strings.IndexByte(m.text[from:], markBytes[k]); j >= 0 {
					m.at[k] = from + j
				}
			}
		}
		if a := m.at[k]; a >= 0 && (best < 0 || a < best) {
			best = a
		}
	}
	return best
}

// lastASCIISpace is _get_last_whitespace_index: the offset of the last
// character of s in Python's string.whitespace, or 0 when there is none.
func lastASCIISpace(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			return i
		}
	}
	return 0
}

// appendSlices is PunktSentenceTokenizer._slices_from_text combined with
// _match_potential_end_contexts: it finds the candidate breaks, pairs each
// with the word before it (dropping a candidate whose word overlaps the
// next candidate's, so that "!!!" is decided once, at its last mark), asks
// whether the context holds a sentence break, and cuts there.
func (p *params) appendSlices(out []Span, text string, buf *buffers) []Span {
	lastBreak := 0
	var prev candidate
	havePrev := false
	prevStart, prevStop := 0, 0
	decide := func(c candidate, wordStart int) {
		// The context is the word before the mark, the mark and after_tok;
		// the word ends where the mark starts, so it is one substring.
		if !p.containsSentbreak(text[wordStart:c.afterEnd], buf) {
			return
		}
		out = append(out, Span{lastBreak, c.pos + 1})
		if c.nextTok >= 0 {
			lastBreak = c.nextTok
		} else {
			lastBreak = c.pos + 1
		}
	}
	marks := markFinder{text: text}
	for i := marks.next(0); i >= 0; i = marks.next(i + 1) {
		c, ok := matchCandidate(text, i)
		if !ok {
			continue
		}
		// Matches the reference implementation, which treats whitespace
		// at offset 0 of the text between candidates as no whitespace.
		wordStart := prevStart
		if idx := lastASCIISpace(text[prevStop:c.pos]); idx != 0 {
			wordStart = prevStop + idx + 1
		}
		if havePrev && prevStop <= wordStart {
			decide(prev, prevStart)
		}
		prev, havePrev = c, true
		prevStart, prevStop = wordStart, c.pos
	}
	if havePrev {
		decide(prev, prevStart)
	}
	end := len(strings.TrimRightFunc(text, pyunicode.IsSpace))
	if lastBreak > end {
		end = lastBreak
	}
	return append(out, Span{lastBreak, end})
}

// closersLen matches re_boundary_realignment, ["')\]}]+?(?:\s+|(?=--)|$),
// at the start of s. It returns the number of closing characters and the
// length of the whole match, or zeros when it does not match.
func closersLen(s string) (closers, matched int) {
	k := 0
	for k < len(s) {
		switch s[k] {
		case '"', '\'', ')', ']', '}':
			k++
			continue
		}
		break
	}
	if k == 0 {
		return 0, 0
	}
	if k == len(s) || strings.HasPrefix(s[k:], "--") {
		return k, k
	}
	j := k
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if !pyunicode.IsSpace(r) {
			break
		}
		j += size
	}
	if j == k {
		return 0, 0
	}
	return k, j
}

// realign is PunktSentenceTokenizer._realign_boundaries: closing quotes and
// brackets at the start of a sentence (followed by whitespace, "--" or the
// end) move to the end of the sentence before; empty sentences are dropped.
func realign(text string, slices []Span) []Span {
	out := slices[:0]
	shift := 0
	for k, s1 := range slices {
		start := s1.Start + shift
		if k == len(slices)-1 {
			if start < s1.End {
				out = append(out, Span{start, s1.End})
			}
			continue
		}
		s2 := slices[k+1]
		if closers, matched := closersLen(text[s2.Start:s2.End]); closers > 0 {
			out = append(out, Span{start, s2.Start + closers})
			shift = matched
			continue
		}
		shift = 0
		if start < s1.End {
			out = append(out, Span{start, s1.End})
		}
	}
	return out
}
