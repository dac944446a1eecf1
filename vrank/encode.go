package vrank

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/parallel"
)

// pairSeparator joins the two stories of a pair into one text; the
// tokenizer keeps the literal [SEP] whole as the separator token.
const pairSeparator = " [SEP] "

// Encode returns the model inputs of the pairs (story1[i], story2[i]),
// unpadded: with JoinedText the one text story1 + " [SEP] " + story2
// (transformers' encode_plus with add_special_tokens and truncation to
// MaxLength; token types all 0), with TextPair BERT's pair encoding.
func (m *Model) Encode(story1, story2 []string) ([]tokenize.Encoding, error) {
	if len(story1) != len(story2) {
		return nil, fmt.Errorf("%d first stories but %d second stories", len(story1), len(story2))
	}
	opt := tokenize.Options{Truncation: tokenize.LongestFirst, MaxLength: m.cfg.maxLength()}
	out := make([]tokenize.Encoding, len(story1))
	err := parallel.Each(len(story1), 8, func(i int) error {
		var err error
		if m.cfg.Encoding == TextPair {
			out[i], err = m.tok.EncodePairWith(story1[i], story2[i], opt)
		} else {
			out[i], err = m.tok.EncodeWith(story1[i]+pairSeparator+story2[i], opt)
			for j := range out[i].TypeIDs {
				out[i].TypeIDs[j] = 0
			}
		}
		if err != nil {
			return fmt.Errorf("pair %d: %w", i, err)
		}
		return nil
	})
	return out, err
}

// padEncodings pads encodings to the longest one for encoders.BERT.
func padEncodings(encs []tokenize.Encoding) []tokenize.Encoding {
	S := 0
	for _, e := range encs {
		S = max(S, e.Len())
	}
	out := make([]tokenize.Encoding, len(encs))
	for i, e := range encs {
		p := tokenize.Encoding{IDs: make([]int, S), Tokens: make([]string, S), TypeIDs: make([]int, S), AttentionMask: make([]int, S)}
		copy(p.IDs, e.IDs)
		copy(p.Tokens, e.Tokens)
		copy(p.TypeIDs, e.TypeIDs)
		copy(p.AttentionMask, e.AttentionMask)
		out[i] = p
	}
	return out
}
