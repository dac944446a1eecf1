package tokenize

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// cleanUp is HF's clean_up_tokenization (clean_up_tokenization_spaces is
// true in all three families' configs): the replacements one after the
// other, as Python's chained str.replace calls do.
func cleanUp(s string) string {
	for _, pair := range [][2]string{
		{" .", "."}, {" ?", "?"}, {" !", "!"}, {" ,", ","}, {" ' ", "'"},
		{" n't", "n't"}, {" 'm", "'m"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"},
	} {
		s = strings.ReplaceAll(s, pair[0], pair[1])
	}
	return s
}

// pyStrip is Python's str.strip().
func pyStrip(s string) string { return strings.TrimFunc(s, pyunicode.IsSpace) }

// nonSpecialTokens maps ids to tokens, dropping special ids (HF
// convert_ids_to_tokens with skip_special_tokens=True).
func nonSpecialTokens(ids []int, special map[int]bool, token func(int) string, size int) ([]string, error) {
	out := make([]string, 0, len(ids))
	for i, id := range ids {
		if id < 0 || id >= size {
			return nil, fmt.Errorf("id %d at position %d is outside the vocabulary of %d", id, i, size)
		}
		if !special[id] {
			out = append(out, token(id))
		}
	}
	return out, nil
}

// specialIDs collects the ids of the given tokens that the vocabulary has.
func specialIDs(lookup func(string) (int, bool), tokens ...string) map[int]bool {
	m := map[int]bool{}
	for _, t := range tokens {
		if id, ok := lookup(t); ok {
			m[id] = true
		}
	}
	return m
}

// framing is what the three tokenizers share around their own
// segmentation: the special tokens kept whole in a text, their ids (which
// decoding drops) and the pipeline that adds [CLS]/[SEP]-style tokens,
// truncates and pads.
type framing struct {
	specials   specialSplitter
	specialIDs map[int]bool
	pipe       pipeline
}

// setupSpecials builds the splitter that keeps the special tokens written
// in a text whole and the set of their ids, after checking that every
// required token has an id.
func setupSpecials(lookup func(string) (int, bool), specials, required []string) (specialSplitter, map[int]bool, error) {
	for _, tok := range required {
		if _, ok := lookup(tok); !ok {
			return specialSplitter{}, nil, fmt.Errorf("special token %q is not in the vocabulary", tok)
		}
	}
	return newSpecialSplitter(specials), specialIDs(lookup, specials...), nil
}

// Decode turns ids back into text as HF's decode(ids,
// skip_special_tokens=True) with clean_up_tokenization_spaces: special
// tokens dropped, "##" continuations joined, spaces before punctuation and
// English contractions removed.
func (t *BERT) Decode(ids []int) (string, error) {
	toks, err := nonSpecialTokens(ids, t.specialIDs, t.Token, len(t.tokens))
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(strings.ReplaceAll(strings.Join(toks, " "), " ##", ""))
	return cleanUp(text), nil
}

// Decode turns ids back into text as HF's decode(ids,
// skip_special_tokens=True) with clean_up_tokenization_spaces: special and
// unknown tokens dropped, sentencepiece's decoding of the pieces ("▁" to a
// space, the first one dropped), then HF's clean-up.
func (t *ALBERT) Decode(ids []int) (string, error) {
	toks, err := nonSpecialTokens(ids, t.specialIDs, t.Token, len(t.spm.pieces))
	if err != nil {
		return "", err
	}
	return cleanUp(pyStrip(t.spm.decodePieces(toks))), nil
}

// decodePieces is SentencePieceProcessor::DecodePieces: control pieces
// vanish, unknown ones read " ⁇ ", "▁" becomes a space and the "▁" the
// normaliser added in front of the text is dropped.
func (u *spmUnigram) decodePieces(pieces []string) string {
	var b strings.Builder
	atStart := true
	for _, p := range pieces {
		id := u.pieceID(p)
		var s string
		switch u.pieces[id].typ {
		case pieceControl:
		case pieceUnknown:
			if p == u.pieces[id].text {
				s = " \u2047 "
			} else {
				s = p
			}
		default:
			if atStart && u.normalizer.addDummyPrefix {
				p = strings.TrimPrefix(p, spmSpace)
			}
			s = strings.ReplaceAll(p, spmSpace, " ")
		}
		b.WriteString(s)
		if s != "" {
			atStart = false
		}
	}
	return b.String()
}

// runeToByte inverts byteToRune.
var runeToByte = func() map[rune]byte {
	m := make(map[rune]byte, 256)
	for b, r := range byteToRune {
		m[r] = byte(b)
	}
	return m
}()

// Decode turns ids back into text as HF's CLIPTokenizer.decode(ids,
// skip_special_tokens=True) with clean_up_tokenization_spaces: special
// tokens dropped, byte-level spelling undone (malformed UTF-8 replaced as
// Python's errors="replace" does), "</w>" read as a space, then HF's
// clean-up.
func (t *CLIP) Decode(ids []int) (string, error) {
	toks, err := nonSpecialTokens(ids, t.specialIDs, t.Token, len(t.decoder))
	if err != nil {
		return "", err
	}
	var raw []byte
	for _, tok := range toks {
		for _, r := range tok {
			if c, ok := runeToByte[r]; ok {
				raw = append(raw, c)
			}
		}
	}
	text := strings.ReplaceAll(decodeUTF8Replace(raw), "</w>", " ")
	return cleanUp(pyStrip(text)), nil
}

// decodeUTF8Replace decodes UTF-8 as Python's bytes.decode("utf-8",
// "replace"): each maximal prefix of a valid sequence that is cut short, and
// each byte that cannot start one, becomes one U+FFFD.
func decodeUTF8Replace(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r != utf8.RuneError || n > 1 {
			sb.WriteRune(r)
			b = b[n:]
			continue
		}
		sb.WriteRune(utf8.RuneError)
		b = b[maxValidPrefix(b):]
	}
	return sb.String()
}

// maxValidPrefix returns how many bytes at the start of b begin a valid
// UTF-8 sequence without completing it (at least 1).
func maxValidPrefix(b []byte) int {
	c := b[0]
	need := utf8SeqLen(c)
	if need == 0 {
		return 1
	}
	lo, hi := byte(0x80), byte(0xBF)
	switch c {
	case 0xE0:
		lo = 0xA0
	case 0xED:
		hi = 0x9F
	case 0xF0:
		lo = 0x90
	case 0xF4:
		hi = 0x8F
	}
	n := 1
	for n < need && n < len(b) && b[n] >= lo && b[n] <= hi {
		n++
		lo, hi = 0x80, 0xBF
	}
	return n
}
