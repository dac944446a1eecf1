package encoders

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"gorgonia.org/tensor"
)

// TextEncoder maps texts to one embedding each, [len(texts), dim]. The
// metric packages depend on this interface rather than on an architecture,
// so any model can be plugged in.
type TextEncoder interface {
	EmbedTexts(ctx context.Context, texts []string) (*tensor.Dense, error)
}

// ImageEncoder maps preprocessed images to one embedding each,
// [len(images), dim].
type ImageEncoder interface {
	EmbedImages(ctx context.Context, images []imageproc.PixelValues) (*tensor.Dense, error)
}

// SentenceEncoder embeds texts with a BERT model as SimCSE does: tokenize
// with padding to the longest text (truncating at the tokenizer's
// model_max_length), run the model, pool.
type SentenceEncoder struct {
	Model     *BERT
	Tokenizer *tokenize.BERT
	Pooling   Pooling
}

// EmbedTexts implements TextEncoder.
func (e *SentenceEncoder) EmbedTexts(ctx context.Context, texts []string) (*tensor.Dense, error) {
	if e == nil || e.Model == nil || e.Tokenizer == nil {
		return nil, fmt.Errorf("SentenceEncoder needs a Model and a Tokenizer")
	}
	encs, err := e.Tokenizer.EncodeBatch(texts, tokenize.Options{Truncation: tokenize.LongestFirst, Padding: tokenize.PadLongest})
	if err != nil {
		return nil, fmt.Errorf("tokenizing: %w", err)
	}
	out, err := e.Model.Forward(ctx, encs, ForwardOptions{})
	if err != nil {
		return nil, err
	}
	return out.SentenceEmbedding(e.Pooling)
}

// CLIPTextEncoder embeds texts with CLIP's text tower: the unit-length
// text_embeds of texts tokenized to at most 77 tokens (end-of-text kept).
type CLIPTextEncoder struct {
	Model     *CLIP
	Tokenizer *tokenize.CLIP
}

// EmbedTexts implements TextEncoder.
func (e *CLIPTextEncoder) EmbedTexts(ctx context.Context, texts []string) (*tensor.Dense, error) {
	if e == nil || e.Model == nil || e.Tokenizer == nil {
		return nil, fmt.Errorf("CLIPTextEncoder needs a Model and a Tokenizer")
	}
	encs, err := e.Tokenizer.EncodeBatch(texts, tokenize.Options{Truncation: tokenize.LongestFirst, MaxLength: e.Model.cfg.TextConfig.MaxPositionEmbeddings, Padding: tokenize.PadLongest})
	if err != nil {
		return nil, fmt.Errorf("tokenizing: %w", err)
	}
	out, err := e.Model.EncodeText(ctx, encs, ForwardOptions{})
	if err != nil {
		return nil, err
	}
	return out.Embeds, nil
}

// EmbedImages implements ImageEncoder with CLIP's unit-length image_embeds.
func (m *CLIP) EmbedImages(ctx context.Context, images []imageproc.PixelValues) (*tensor.Dense, error) {
	out, err := m.EncodeImages(ctx, images, ForwardOptions{})
	if err != nil {
		return nil, err
	}
	return out.Embeds, nil
}

// EmbedImages implements ImageEncoder with ViT's pooler_output, or the final-LayerNorm [CLS] state when the
// checkpoint has no pooler.
func (m *ViT) EmbedImages(ctx context.Context, images []imageproc.PixelValues) (*tensor.Dense, error) {
	out, err := m.Forward(ctx, images, ForwardOptions{})
	if err != nil {
		return nil, err
	}
	if out.PoolerOutput != nil {
		return out.PoolerOutput, nil
	}
	return out.CLS()
}

var (
	_ TextEncoder  = (*SentenceEncoder)(nil)
	_ TextEncoder  = (*CLIPTextEncoder)(nil)
	_ ImageEncoder = (*CLIP)(nil)
	_ ImageEncoder = (*ViT)(nil)
)
