package tokenize

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/storyeval/storyeval/internal/errtext"
	"github.com/storyeval/storyeval/internal/pyunicode"
)

// CLIPCleaner selects how CLIP text is cleaned before the byte-level BPE.
type CLIPCleaner int

const (
	// CleanOpenAI is OpenAI's clip/simple_tokenizer.py: ftfy.fix_text, HTML
	// unescaping twice, white space collapsed, lower-case; "<|startoftext|>"
	// and "<|endoftext|>" are recognised by the pattern anywhere in the
	// text. It is the default.
	//
	// ftfy is reproduced for what it does to ordinary text (HTML entities,
	// UTF-8 read as Windows-1252 or Latin-1 such as "Ã©", C1 controls, Latin
	// ligatures, full-width forms, curly quotes, line breaks, terminal
	// escapes, control characters, NFC); its statistical detection of other
	// mis-decodings (Windows-1251, MacRoman, lost bytes) is not, so text
	// carrying such mojibake may tokenize differently.
	CleanOpenAI CLIPCleaner = iota
	// CleanHF is HF's CLIPTokenizer (slow) with ftfy installed: special
	// tokens split out first, then ftfy.fix_text, white space collapsed,
	// lower-case, without HTML unescaping beyond ftfy's own.
	CleanHF
	// CleanHFNoFTFY is HF's CLIPTokenizer when ftfy is not installed: it
	// falls back to BERT's BasicTokenizer (lower-case, accents stripped,
	// punctuation split), which changes many tokenizations.
	CleanHFNoFTFY
)

// CLIPOptions configures a CLIP tokenizer; the zero value is OpenAI's
// behaviour.
type CLIPOptions struct {
	// Cleaner selects the text cleaning.
	Cleaner CLIPCleaner
}

// CLIP is CLIP's byte-level BPE tokenizer (OpenAI's bpe_simple_vocab_16e6
// as HF's vocab.json + merges.txt): cleaned, lower-cased text split by
// CLIP's pattern, each word spelled in bytes and merged, the last piece of
// a word marked "</w>"; <|startoftext|> … <|endoftext|> around it.
type CLIP struct {
	encoder map[string]int
	decoder []string
	merger  *bpeMerger
	cleaner CLIPCleaner
	basic   basicTokenizer
	unkID   int
	framing
}

var _ Encoder = (*CLIP)(nil)

// clipMaxMerges is how many lines of merges.txt CLIP reads after the
// version line: 49152 − 256 − 2.
const clipMaxMerges = 49152 - 256 - 2

// LoadCLIP loads a CLIP tokenizer from a HF model directory: vocab.json and
// merges.txt (or their .gz copies) and the optional tokenizer_config.json
// and special_tokens_map.json.
func LoadCLIP(dir string, opt CLIPOptions) (*CLIP, error) {
	return loadTokenizer(dir, "CLIP", []string{"vocab.json", "merges.txt"}, func(data [][]byte, cfg hfConfig) (*CLIP, error) {
		return newCLIP(data[0], string(data[1]), cfg, opt)
	})
}

func newCLIP(vocabJSON []byte, merges string, cfg hfConfig, opt CLIPOptions) (*CLIP, error) {
	if opt.Cleaner < CleanOpenAI || opt.Cleaner > CleanHFNoFTFY {
		return nil, fmt.Errorf("unknown CLIP cleaner %d", int(opt.Cleaner))
	}
	t := &CLIP{cleaner: opt.Cleaner}
	if err := json.Unmarshal(vocabJSON, &t.encoder); err != nil {
		return nil, fmt.Errorf("vocab.json: %w", err)
	}
	if len(t.encoder) == 0 {
		return nil, fmt.Errorf("vocab.json: empty vocabulary")
	}
	t.decoder = make([]string, len(t.encoder))
	for tok, id := range t.encoder {
		if id < 0 || id >= len(t.encoder) {
			return nil, fmt.Errorf("vocab.json: id %d of %q outside 0…%d", id, tok, len(t.encoder)-1)
		}
		t.decoder[id] = tok
	}
	// Matches the reference implementation, which reads
	// merges.strip().split("\n")[1 : 49152-256-2+1].
	lines := strings.Split(strings.TrimSpace(merges), "\n")
	if len(lines) > 0 {
		lines = lines[1:]
	}
	if len(lines) > clipMaxMerges {
		lines = lines[:clipMaxMerges]
	}
	ranks := make(map[symbolPair]int, len(lines))
	for i, line := range lines {
		parts := strings.Fields(line)
		if len(parts) != 2 {
			return nil, fmt.Errorf("merges.txt line %d: want two symbols, got %q", i+2, line)
		}
		key := symbolPair{parts[0], parts[1]}
		if _, dup := ranks[key]; !dup {
			ranks[key] = i
		}
	}
	bos, eos := cfg.token("bos_token", "<|startoftext|>"), cfg.token("eos_token", "<|endoftext|>")
	unk, pad := cfg.token("unk_token", "<|endoftext|>"), cfg.token("pad_token", "<|endoftext|>")
	for _, tok := range []string{bos, eos, unk, pad} {
		if _, ok := t.encoder[tok]; !ok {
			return nil, fmt.Errorf("special token %q is not in vocab.json", tok)
		}
	}
	t.unkID = t.encoder[unk]
	t.merger = &bpeMerger{
		ranks:    ranks,
		specials: map[string]bool{"<|startoftext|>": true, "<|endoftext|>": true},
		cache:    map[string][]string{},
	}
	t.specials = newSpecialSplitter([]string{bos, eos, unk, pad})
	t.specialIDs = specialIDs(t.TokenID, bos, eos, unk, pad)
	t.basic = basicTokenizer{lowerCase: true, stripAccents: true, chineseChars: true, splitPunct: true}
	t.pipe = pipeline{
		name:     "CLIP",
		tokenize: t.Tokenize,
		lookup:   t.lookup,
		tokenOf:  t.Token,
		open:     bos, openID: t.encoder[bos],
		close: eos, closeID: t.encoder[eos],
		doubleClose: true,
		padToken:    pad, padID: t.encoder[pad],
		modelMax: cfg.integer("model_max_length", 77),
	}
	return t, nil
}

func (t *CLIP) lookup(tok string) int {
	if id, ok := t.encoder[tok]; ok {
		return id
	}
	return t.unkID
}

// Tokenize returns the BPE pieces of text (byte-level spelling, "</w>" at
// word ends).
func (t *CLIP) Tokenize(text string) []string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	var words []string
	switch t.cleaner {
	case CleanOpenAI:
		words = clipWords(t.cleanOpenAI(text), nil)
	default:
		for _, p := range t.specials.split(text) {
			if p.special {
				words = append(words, p.text)
				continue
			}
			var clean string
			if t.cleaner == CleanHF {
				clean = pyunicode.Lower(collapseSpace(fixText(p.text)))
			} else {
				clean = strings.Join(t.basic.tokenize(p.text), " ")
			}
			words = clipWords(clean, words)
		}
	}
	var out []string
	for _, w := range words {
		out = append(out, t.merger.pieces(byteLevel(w))...)
	}
	return out
}

// cleanOpenAI is simple_tokenizer's basic_clean, whitespace_clean and
// lower().
func (t *CLIP) cleanOpenAI(text string) string {
	text = fixText(text)
	text = pyUnescapeHTML(pyUnescapeHTML(text))
	return pyunicode.Lower(collapseSpace(text))
}

// collapseSpace is CLIP's whitespace_clean: runs of white space become one
// space, then the ends are stripped.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// TooLongError is OpenAITokenize's error for a text of more tokens than the
// context length when truncation is off (clip.tokenize raises
// RuntimeError there).
type TooLongError struct {
	Index                 int    // the text's index in the call
	Text                  string // the text
	Tokens, ContextLength int
}

// Error names the text and how far it exceeds the context length.
func (e *TooLongError) Error() string {
	return fmt.Sprintf("CLIP text %d (%s) has %d tokens, more than the context length %d",
		e.Index, errtext.Quote(e.Text), e.Tokens, e.ContextLength)
}

// OpenAITokenize is OpenAI's clip.tokenize: each text as <|startoftext|>
// ids <|endoftext|>, padded with 0 (not with <|endoftext|> as HF pads) to
// contextLength. A longer text is an error unless truncate is set, in which
// case it is cut to contextLength with <|endoftext|> kept last.
func (t *CLIP) OpenAITokenize(texts []string, contextLength int, truncate bool) ([][]int, error) {
	if contextLength < 2 {
		return nil, fmt.Errorf("CLIP context length %d is below 2", contextLength)
	}
	out := make([][]int, len(texts))
	for i, text := range texts {
		ids := t.Encode(text).IDs
		if len(ids) > contextLength {
			if !truncate {
				return nil, &TooLongError{Index: i, Text: text, Tokens: len(ids), ContextLength: contextLength}
			}
			ids = ids[:contextLength]
			ids[contextLength-1] = t.pipe.closeID
		}
		row := make([]int, contextLength)
		copy(row, ids)
		out[i] = row
	}
	return out, nil
}

// TokenID returns the id of a vocabulary token.
func (t *CLIP) TokenID(token string) (int, bool) {
	id, ok := t.encoder[token]
	return id, ok
}

// Token returns the vocabulary token of id, or "" when id is out of range.
func (t *CLIP) Token(id int) string {
	return tokenAt(t.decoder, id)
}

// VocabSize returns the number of vocabulary tokens.
func (t *CLIP) VocabSize() int { return len(t.encoder) }
