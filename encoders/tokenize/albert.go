package tokenize

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"
)

// ALBERT is the ALBERT SentencePiece tokenizer (HF AlbertTokenizer, slow,
// over sentencepiece 0.1.97): HF's preprocess_text (white space collapsed,
// “ and ” turned into ", accents removed, lower-cased), the model's own
// normaliser (nmt_nfkc with its precompiled charsmap) and the unigram
// Viterbi segmentation.
type ALBERT struct {
	spm         *spmUnigram
	lower       bool
	removeSpace bool
	keepAccents bool
	framing
}

var _ Encoder = (*ALBERT)(nil)

// LoadALBERT loads an ALBERT tokenizer from a HF model directory:
// spiece.model (or spiece.model.gz) and the optional tokenizer_config.json
// and special_tokens_map.json (do_lower_case, remove_space, keep_accents,
// special tokens, model_max_length).
func LoadALBERT(dir string) (*ALBERT, error) {
	return loadTokenizer(dir, "ALBERT", []string{"spiece.model"}, func(data [][]byte, cfg hfConfig) (*ALBERT, error) {
		return newALBERT(data[0], cfg)
	})
}

func newALBERT(model []byte, cfg hfConfig) (*ALBERT, error) {
	m, err := parseSPMModel(model)
	if err != nil {
		return nil, fmt.Errorf("spiece.model: %w", err)
	}
	u, err := newSPMUnigram(m)
	if err != nil {
		return nil, fmt.Errorf("spiece.model: %w", err)
	}
	t := &ALBERT{
		spm:         u,
		lower:       cfg.boolean("do_lower_case", true),
		removeSpace: cfg.boolean("remove_space", true),
		keepAccents: cfg.boolean("keep_accents", false),
	}
	cls, sep := cfg.token("cls_token", "[CLS]"), cfg.token("sep_token", "[SEP]")
	unk, pad := cfg.token("unk_token", "<unk>"), cfg.token("pad_token", "<pad>")
	mask := cfg.token("mask_token", "[MASK]")
	bos, eos := cfg.token("bos_token", "[CLS]"), cfg.token("eos_token", "[SEP]")
	t.specials, t.specialIDs, err = setupSpecials(t.TokenID, []string{bos, eos, unk, sep, pad, cls, mask}, []string{cls, sep, pad})
	if err != nil {
		return nil, err
	}
	t.pipe = pipeline{
		name:     "ALBERT",
		tokenize: t.Tokenize,
		lookup:   u.pieceID,
		tokenOf:  t.Token,
		open:     cls, openID: u.all[cls],
		close: sep, closeID: u.all[sep],
		padToken: pad, padID: u.all[pad],
		modelMax: cfg.integer("model_max_length", 512),
	}
	return t, nil
}

// Tokenize returns the SentencePiece pieces of text; special tokens written
// in the text ("[SEP]", "<pad>") are kept whole and a piece outside the
// vocabulary keeps its text. Matches the reference implementation, which
// lower-cases the rest one character at a time first, and which splits a
// piece ending in a digit and a comma ("9," → "9", ",") by encoding it again
// without the comma.
func (t *ALBERT) Tokenize(text string) []string {
	var out []string
	pieces := t.specials.split
	if t.lower {
		pieces = t.specials.lowerOutside
	}
	for _, p := range pieces(text) {
		if p.special {
			out = append(out, p.text)
			continue
		}
		seg := p.text
		out = t.appendPieces(out, t.preprocess(seg))
	}
	return out
}

// preprocess is AlbertTokenizer.preprocess_text.
func (t *ALBERT) preprocess(s string) string {
	if t.removeSpace {
		s = strings.Join(pyunicode.Fields(s), " ")
	}
	s = strings.ReplaceAll(s, "``", `"`)
	s = strings.ReplaceAll(s, "''", `"`)
	if !t.keepAccents {
		s = dropCombining(s)
	}
	if t.lower {
		s = pyunicode.Lower(s)
	}
	return s
}

// appendPieces is AlbertTokenizer._tokenize after preprocessing.
func (t *ALBERT) appendPieces(dst []string, text string) []string {
	for _, piece := range t.spm.encode(text) {
		rs := []rune(piece)
		n := len(rs)
		if n > 1 && rs[n-1] == ',' && isPyDigit(rs[n-2]) {
			cur := t.spm.encode(strings.ReplaceAll(string(rs[:n-1]), spmSpace, ""))
			if !strings.HasPrefix(piece, spmSpace) && len(cur) > 0 && strings.HasPrefix(cur[0], spmSpace) {
				if cur[0] == spmSpace {
					cur = cur[1:]
				} else {
					cur[0] = cur[0][len(spmSpace):]
				}
			}
			dst = append(dst, cur...)
			dst = append(dst, ",")
			continue
		}
		dst = append(dst, piece)
	}
	return dst
}

// isPyDigit approximates Python's str.isdigit: decimal digits, and the
// other digit characters (superscripts, circled digits), which all have a
// compatibility decomposition to a decimal digit.
func isPyDigit(r rune) bool {
	if unicode.IsDigit(r) {
		return true
	}
	if !unicode.Is(unicode.No, r) {
		return false
	}
	d := dropCombining(string(r))
	c, n := utf8.DecodeRuneInString(d)
	return n == len(d) && unicode.IsDigit(c)
}

// TokenID returns the id of a piece.
func (t *ALBERT) TokenID(token string) (int, bool) {
	id, ok := t.spm.all[token]
	return id, ok
}

// Token returns the piece of id, or "" when id is out of range.
func (t *ALBERT) Token(id int) string {
	if id < 0 || id >= len(t.spm.pieces) {
		return ""
	}
	return t.spm.pieces[id].text
}

// VocabSize returns the number of pieces of the model.
func (t *ALBERT) VocabSize() int { return len(t.spm.pieces) }
