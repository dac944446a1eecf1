package groovist

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"gorgonia.org/tensor"
)

// ContextLength is CLIP's text context: clip.tokenize's context_length.
const ContextLength = 77

// CLIPText embeds texts with a CLIP text tower as OpenAI's
// model.encode_text(clip.tokenize(texts)) followed by L2 normalisation,
// which is what GROOViST and clipscore.py run. It implements
// encoders.TextEncoder and is safe for concurrent use.
type CLIPText struct {
	Model     *encoders.CLIP
	Tokenizer *tokenize.CLIP
	// Truncate cuts texts longer than ContextLength tokens, keeping the
	// end-of-text token last (clip.tokenize(..., truncate=True), as
	// clipscore.py calls it). Without it a longer text is an error, as
	// clip.tokenize raises in GROOViST.
	Truncate bool

	// forwards, when set (tests), is told how many texts go through the
	// text tower.
	forwards func(n int)
}

// Tokens returns clip.tokenize(texts): ContextLength ids per text,
// <|startoftext|> … <|endoftext|> and zero padding.
func (c *CLIPText) Tokens(texts []string) ([][]int, error) {
	ids, err := c.Tokenizer.OpenAITokenize(texts, ContextLength, c.Truncate)
	if err != nil {
		return nil, fmt.Errorf("clip.tokenize: %w", err)
	}
	return ids, nil
}

// EmbedTexts implements encoders.TextEncoder: unit-length text embeddings,
// [len(texts), projection_dim].
func (c *CLIPText) EmbedTexts(ctx context.Context, texts []string) (*tensor.Dense, error) {
	if len(texts) == 0 {
		return nil, fmt.Errorf("no text to embed")
	}
	ids, err := c.Tokens(texts)
	if err != nil {
		return nil, err
	}
	return c.embedIDs(ctx, ids)
}

// embedIDs returns the unit-length embeddings of OpenAI-tokenized ids.
func (c *CLIPText) embedIDs(ctx context.Context, ids [][]int) (*tensor.Dense, error) {
	out, err := c.run(ctx, ids)
	if err != nil {
		return nil, err
	}
	return out.Embeds, nil
}

// run runs the text tower on OpenAI-tokenized ids. The padding after the
// end-of-text token cannot change the pooled (end-of-text) state under
// CLIP's causal mask, so the batch is cut after the longest text (the
// end-of-text token is each row's last non-zero id).
func (c *CLIPText) run(ctx context.Context, ids [][]int) (*encoders.CLIPOutput, error) {
	seq := 1
	for _, row := range ids {
		n := len(row)
		for n > 0 && row[n-1] == 0 {
			n--
		}
		if n > seq {
			seq = n
		}
	}
	// No padding mask: the reference passes input_ids alone (id 0 is
	// also the token "!", so zeros cannot be told from padding), and the
	// causal mask keeps the end-of-text state clear of what follows it.
	mask := make([]int, seq)
	for t := range mask {
		mask[t] = 1
	}
	encs := make([]tokenize.Encoding, len(ids))
	for i, row := range ids {
		encs[i] = tokenize.Encoding{IDs: row[:seq:seq], AttentionMask: mask}
	}
	if c.forwards != nil {
		c.forwards(len(ids))
	}
	out, err := c.Model.EncodeText(ctx, encs, encoders.ForwardOptions{})
	if err != nil {
		return nil, fmt.Errorf("CLIP text tower: %w", err)
	}
	return out, nil
}
