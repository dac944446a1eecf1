package encoders

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/dense"
	"gorgonia.org/tensor"
)

// ErrNoPooler is the error of a PoolCLS text embedding from a model without
// a pooler layer (such as SimCSE's unsupervised models, whose embedding is
// PoolCLSBeforePooler).
var ErrNoPooler = errors.New("the model has no pooler layer (use PoolCLSBeforePooler or PoolMean)")

// poolingNames are SimCSE's names of the poolings (simcse/tool.py).
var poolingNames = [...]string{PoolCLS: "cls", PoolCLSBeforePooler: "cls_before_pooler", PoolMean: "avg"}

// PoolingByName returns the pooling SimCSE's code names name: "cls",
// "cls_before_pooler" or "avg".
func PoolingByName(name string) (Pooling, error) {
	for p, n := range poolingNames {
		if n == name {
			return Pooling(p), nil
		}
	}
	return 0, fmt.Errorf("unknown pooling %q (want cls, cls_before_pooler or avg)", name)
}

// FolderEmbedding is an embedding computed by EmbedFolderText or
// EmbedFolderImage.
type FolderEmbedding struct {
	// ModelType is config.json's model_type: bert, albert, clip or vit.
	ModelType string
	// Kind says what the vector is: "sentence embedding (cls)",
	// "pooler_output", "text_embeds (unit length)", ….
	Kind string
	// Vector is the embedding.
	Vector []float32
}

// FolderOptions configures EmbedFolderText and EmbedFolderImage. The zero
// value embeds BERT texts with the pooler output (PoolCLS) and loads models
// with the default Options.
type FolderOptions struct {
	// Pooling selects a BERT text's sentence embedding; ALBERT and CLIP
	// have one embedding each and ignore it.
	Pooling Pooling
	// Model configures the model's loader.
	Model Options
}

// EmbedFolderText embeds one text with the model and tokenizer of a
// HuggingFace model folder, chosen by config.json's model_type: a BERT
// sentence embedding (opts.Pooling, SimCSE's choices, on the text
// truncated to the model's length), ALBERT's pooler output (the [CLS]
// hidden state when it has no pooler), or CLIP's unit-length text_embeds.
// It loads the model on every call: a program embedding many texts loads
// the model once and calls its methods. A PoolCLS embedding from a BERT
// without a pooler is an error wrapping ErrNoPooler.
func EmbedFolderText(ctx context.Context, dir, text string, opts FolderOptions) (FolderEmbedding, error) {
	modelType, err := folderModelType(dir)
	if err != nil {
		return FolderEmbedding{}, err
	}
	var v *tensor.Dense
	kind := ""
	switch modelType {
	case "bert":
		v, kind, err = embedBERTText(ctx, dir, text, opts)
	case "albert":
		v, kind, err = embedALBERTText(ctx, dir, text, opts.Model)
	case "clip":
		v, kind, err = embedCLIPText(ctx, dir, text, opts.Model)
	default:
		return FolderEmbedding{}, fmt.Errorf("%s: model_type %q cannot embed a text (BERT, ALBERT and CLIP embed texts; ViT and CLIP images)", dir, modelType)
	}
	return folderEmbedding(modelType, kind, v, err)
}

// EmbedFolderImage embeds one PNG or JPEG image with the model and
// preprocessor_config.json of a HuggingFace model folder: ViT's
// pooler_output or CLIP's unit-length image_embeds, by config.json's
// model_type. It loads the model on every call, as EmbedFolderText.
func EmbedFolderImage(ctx context.Context, dir, imagePath string, opts FolderOptions) (FolderEmbedding, error) {
	modelType, err := folderModelType(dir)
	if err != nil {
		return FolderEmbedding{}, err
	}
	if modelType != "vit" && modelType != "clip" {
		return FolderEmbedding{}, fmt.Errorf("%s: model_type %q cannot embed an image (BERT, ALBERT and CLIP embed texts; ViT and CLIP images)", dir, modelType)
	}
	v, kind, err := embedImage(ctx, dir, modelType, imagePath, opts.Model)
	return folderEmbedding(modelType, kind, v, err)
}

func folderModelType(dir string) (string, error) {
	var cfg struct {
		ModelType string `json:"model_type"`
	}
	err := LoadConfig(dir, &cfg)
	return cfg.ModelType, err
}

func folderEmbedding(modelType, kind string, v *tensor.Dense, err error) (FolderEmbedding, error) {
	if err != nil {
		return FolderEmbedding{}, err
	}
	return FolderEmbedding{ModelType: modelType, Kind: kind, Vector: dense.Data(v).([]float32)}, nil
}

func embedBERTText(ctx context.Context, dir, text string, opts FolderOptions) (*tensor.Dense, string, error) {
	if opts.Pooling < 0 || int(opts.Pooling) >= len(poolingNames) {
		return nil, "", fmt.Errorf("unknown pooling %d", opts.Pooling)
	}
	m, err := LoadBERT(dir, opts.Model)
	if err != nil {
		return nil, "", err
	}
	tok, err := tokenize.LoadBERT(dir)
	if err != nil {
		return nil, "", err
	}
	// SentenceEncoder's steps, so that a missing pooler is ErrNoPooler.
	encs, err := tok.EncodeBatch([]string{text}, tokenize.Options{Truncation: tokenize.LongestFirst, Padding: tokenize.PadLongest})
	if err != nil {
		return nil, "", fmt.Errorf("text: %w", err)
	}
	out, err := m.Forward(ctx, encs, ForwardOptions{})
	if err != nil {
		return nil, "", err
	}
	if opts.Pooling == PoolCLS && out.PoolerOutput == nil {
		return nil, "", fmt.Errorf("%s: %w", dir, ErrNoPooler)
	}
	v, err := out.SentenceEmbedding(opts.Pooling)
	return v, "sentence embedding (" + poolingNames[opts.Pooling] + ")", err
}

func embedALBERTText(ctx context.Context, dir, text string, opts Options) (*tensor.Dense, string, error) {
	m, err := LoadALBERT(dir, opts)
	if err != nil {
		return nil, "", err
	}
	tok, err := tokenize.LoadALBERT(dir)
	if err != nil {
		return nil, "", err
	}
	out, err := m.Forward(ctx, []tokenize.Encoding{tok.Encode(text)}, ForwardOptions{})
	if err != nil {
		return nil, "", err
	}
	if out.PoolerOutput != nil {
		return out.PoolerOutput, "pooler_output", nil
	}
	v, err := out.SentenceEmbedding(PoolCLSBeforePooler)
	return v, "last_hidden_state[CLS]", err
}

func embedCLIPText(ctx context.Context, dir, text string, opts Options) (*tensor.Dense, string, error) {
	m, err := LoadCLIP(dir, opts)
	if err != nil {
		return nil, "", err
	}
	tok, err := tokenize.LoadCLIP(dir, tokenize.CLIPOptions{})
	if err != nil {
		return nil, "", err
	}
	v, err := (&CLIPTextEncoder{Model: m, Tokenizer: tok}).EmbedTexts(ctx, []string{text})
	return v, "text_embeds (unit length)", err
}

func embedImage(ctx context.Context, dir, modelType, path string, opts Options) (*tensor.Dense, string, error) {
	pcfg, err := imageproc.LoadProcessorConfig(filepath.Join(dir, "preprocessor_config.json"))
	if err != nil {
		return nil, "", err
	}
	proc, err := imageproc.NewProcessor(pcfg)
	if err != nil {
		return nil, "", err
	}
	img, err := imageproc.DecodeFile(path, imageproc.DecodeOptions{})
	if err != nil {
		return nil, "", err
	}
	px, err := proc.Preprocess(img, nil)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	var enc ImageEncoder
	kind := "image_embeds (unit length)"
	if modelType == "vit" {
		m, err := LoadViT(dir, opts)
		if err != nil {
			return nil, "", err
		}
		enc, kind = m, "pooler_output"
	} else {
		m, err := LoadCLIP(dir, opts)
		if err != nil {
			return nil, "", err
		}
		enc = m
	}
	v, err := enc.EmbedImages(ctx, []imageproc.PixelValues{px})
	return v, kind, err
}
