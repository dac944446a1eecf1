package tokenize

import (
	"fmt"
	"strings"
)

// BERT is the BERT WordPiece tokenizer (HF BertTokenizer, slow): the
// BasicTokenizer (clean text, CJK split, lower-case, NFD accent strip,
// punctuation split) followed by greedy longest-match WordPiece, a word of
// more than 100 characters or with an unmatched part becoming [UNK].
//
// Matches the reference implementation (transformers 4.29), whose
// BasicTokenizer does not NFC-normalise the text first (later versions do;
// this only matters for cased vocabularies, where accents are kept).
type BERT struct {
	vocab  map[string]int
	tokens []string // id to token
	basic  basicTokenizer
	wp     wordPiece
	lower  bool
	framing
}

var _ Encoder = (*BERT)(nil)

// LoadBERT loads a BERT tokenizer from a HF model directory: vocab.txt
// (or vocab.txt.gz) and the optional tokenizer_config.json and
// special_tokens_map.json (do_lower_case, strip_accents,
// tokenize_chinese_chars, special tokens, model_max_length).
func LoadBERT(dir string) (*BERT, error) {
	return loadTokenizer(dir, "BERT", []string{"vocab.txt"}, func(data [][]byte, cfg hfConfig) (*BERT, error) {
		return newBERT(string(data[0]), cfg)
	})
}

// splitPyLines splits text into lines as Python's universal-newline reading
// does ("\n", "\r\n" and "\r" all end a line), without the final empty line.
func splitPyLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	lines := strings.Split(text, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	return lines
}

func newBERT(vocabText string, cfg hfConfig) (*BERT, error) {
	lines := splitPyLines(vocabText)
	if len(lines) == 0 {
		return nil, fmt.Errorf("empty BERT vocabulary")
	}
	t := &BERT{vocab: make(map[string]int, len(lines)), tokens: lines}
	maxLen := 0
	for i, tok := range lines {
		t.vocab[tok] = i // a repeated token keeps its last line, as HF's load_vocab
		maxLen = max(maxLen, len(tok))
	}
	t.lower = cfg.boolean("do_lower_case", true)
	t.basic = basicTokenizer{
		lowerCase:    t.lower,
		stripAccents: cfg.boolean("strip_accents", t.lower),
		chineseChars: cfg.boolean("tokenize_chinese_chars", true),
		splitPunct:   true,
	}
	unk := cfg.token("unk_token", "[UNK]")
	t.wp = wordPiece{vocab: t.vocab, unk: unk, maxWordChars: 100, maxPieceLen: maxLen}
	cls, sep := cfg.token("cls_token", "[CLS]"), cfg.token("sep_token", "[SEP]")
	pad, mask := cfg.token("pad_token", "[PAD]"), cfg.token("mask_token", "[MASK]")
	var err error
	t.specials, t.specialIDs, err = setupSpecials(t.TokenID, []string{unk, sep, pad, cls, mask}, []string{unk, cls, sep, pad})
	if err != nil {
		return nil, err
	}
	t.pipe = pipeline{
		name:     "BERT",
		tokenize: t.Tokenize,
		lookup:   t.lookup,
		tokenOf:  t.Token,
		open:     cls, openID: t.vocab[cls],
		close: sep, closeID: t.vocab[sep],
		padToken: pad, padID: t.vocab[pad],
		modelMax: cfg.integer("model_max_length", 512),
	}
	return t, nil
}

func (t *BERT) lookup(tok string) int {
	if id, ok := t.vocab[tok]; ok {
		return id
	}
	return t.vocab[t.wp.unk]
}

// Tokenize returns the WordPiece tokens of text; special tokens written in
// the text ("[SEP]") are kept whole. Matches the reference implementation,
// which lower-cases everything else one character at a time first.
func (t *BERT) Tokenize(text string) []string {
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
		for _, w := range t.basic.tokenize(seg) {
			out = t.wp.appendPieces(out, w)
		}
	}
	return out
}

// TokenID returns the id of a vocabulary token.
func (t *BERT) TokenID(token string) (int, bool) {
	id, ok := t.vocab[token]
	return id, ok
}

// Token returns the vocabulary token of id, or "" when id is out of range.
func (t *BERT) Token(id int) string {
	return tokenAt(t.tokens, id)
}

// VocabSize returns the number of distinct vocabulary tokens (HF
// vocab_size).
func (t *BERT) VocabSize() int { return len(t.vocab) }
