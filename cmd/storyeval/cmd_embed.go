package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"gorgonia.org/tensor"
)

func init() {
	register(command{
		name:    "embed",
		summary: "embed a text or an image with a HuggingFace model directory (BERT, ALBERT, ViT, CLIP)",
		run:     runEmbed,
	})
}

// embedOutput is what the embed subcommand prints.
type embedOutput struct {
	ModelType string  `json:"model_type"`
	Kind      string  `json:"kind"` // what the vector is
	Dim       int     `json:"dim"`
	Embedding []Float `json:"embedding"`
}

func runEmbed(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("embed", stderr)
	dir := fs.String("model", "", "HuggingFace model directory: config.json, weights, tokenizer or preprocessor files (required)")
	text := fs.String("text", "", "text to embed (BERT, ALBERT, CLIP)")
	image := fs.String("image", "", "PNG or JPEG file to embed (ViT, CLIP)")
	pooling := fs.String("pooling", "cls", "BERT sentence embedding: cls, cls_before_pooler or avg (SimCSE's choices)")
	dev := addDeviceFlag(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval embed -model DIR (-text \"...\" | -image FILE) [-pooling cls|cls_before_pooler|avg] [-device cpu|cuda[:N]]")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *dir == "" || (*text == "") == (*image == "") {
		fs.Usage()
		return errors.New("give -model and exactly one of -text or -image")
	}
	d, err := dev.open()
	if err != nil {
		return err
	}
	defer d.Close()
	o := d.Options
	var cfg struct {
		ModelType string `json:"model_type"`
	}
	if err := encoders.LoadConfig(*dir, &cfg); err != nil {
		return err
	}
	ctx := context.Background()
	var (
		vec  *tensor.Dense
		kind string
	)
	switch {
	case *text != "" && cfg.ModelType == "bert":
		vec, kind, err = embedBERT(ctx, *dir, *text, *pooling, o)
	case *text != "" && cfg.ModelType == "albert":
		vec, kind, err = embedALBERT(ctx, *dir, *text, o)
	case *text != "" && cfg.ModelType == "clip":
		vec, kind, err = embedCLIPText(ctx, *dir, *text, o)
	case *image != "" && (cfg.ModelType == "vit" || cfg.ModelType == "clip"):
		vec, kind, err = embedImage(ctx, *dir, cfg.ModelType, *image, o)
	default:
		what := "text"
		if *image != "" {
			what = "image"
		}
		return fmt.Errorf("%s: model_type %q cannot embed an %s (BERT, ALBERT and CLIP embed texts; ViT and CLIP images)", *dir, cfg.ModelType, what)
	}
	if err != nil {
		return err
	}
	data := vec.Data().([]float32)
	out := embedOutput{ModelType: cfg.ModelType, Kind: kind, Dim: len(data), Embedding: make([]Float, len(data))}
	for i, v := range data {
		out.Embedding[i] = Float(v)
	}
	return writeJSON(stdout, out)
}

func embedBERT(ctx context.Context, dir, text, pooling string, o encoders.Options) (*tensor.Dense, string, error) {
	p := map[string]encoders.Pooling{"cls": encoders.PoolCLS, "cls_before_pooler": encoders.PoolCLSBeforePooler, "avg": encoders.PoolMean}
	pool, ok := p[pooling]
	if !ok {
		return nil, "", fmt.Errorf("-pooling: want cls, cls_before_pooler or avg, got %q", pooling)
	}
	m, err := encoders.LoadBERT(dir, o)
	if err != nil {
		return nil, "", err
	}
	defer m.Close()
	tok, err := tokenize.LoadBERT(dir)
	if err != nil {
		return nil, "", err
	}
	// SentenceEncoder's steps, so that a missing pooler is reported as
	// the flag to change rather than as the library's Pooling constant.
	encs, err := tok.EncodeBatch([]string{text}, tokenize.Options{Truncation: tokenize.LongestFirst, Padding: tokenize.PadLongest})
	if err != nil {
		return nil, "", fmt.Errorf("-text: %w", err)
	}
	out, err := m.Forward(ctx, encs, encoders.ForwardOptions{})
	if err != nil {
		return nil, "", err
	}
	if pool == encoders.PoolCLS && out.PoolerOutput == nil {
		return nil, "", fmt.Errorf("-pooling cls: the model in %s has no pooler layer; use -pooling cls_before_pooler (the [CLS] hidden state, as SimCSE's unsupervised models) or avg", dir)
	}
	v, err := out.SentenceEmbedding(pool)
	return v, "sentence embedding (" + pooling + ")", err
}

func embedALBERT(ctx context.Context, dir, text string, o encoders.Options) (*tensor.Dense, string, error) {
	m, err := encoders.LoadALBERT(dir, o)
	if err != nil {
		return nil, "", err
	}
	defer m.Close()
	tok, err := tokenize.LoadALBERT(dir)
	if err != nil {
		return nil, "", err
	}
	out, err := m.Forward(ctx, []tokenize.Encoding{tok.Encode(text)}, encoders.ForwardOptions{})
	if err != nil {
		return nil, "", err
	}
	if out.PoolerOutput != nil {
		return out.PoolerOutput, "pooler_output", nil
	}
	v, err := out.SentenceEmbedding(encoders.PoolCLSBeforePooler)
	return v, "last_hidden_state[CLS]", err
}

func embedCLIPText(ctx context.Context, dir, text string, o encoders.Options) (*tensor.Dense, string, error) {
	m, err := encoders.LoadCLIP(dir, o)
	if err != nil {
		return nil, "", err
	}
	defer m.Close()
	tok, err := tokenize.LoadCLIP(dir, tokenize.CLIPOptions{})
	if err != nil {
		return nil, "", err
	}
	v, err := (&encoders.CLIPTextEncoder{Model: m, Tokenizer: tok}).EmbedTexts(ctx, []string{text})
	return v, "text_embeds (unit length)", err
}

func embedImage(ctx context.Context, dir, modelType, path string, o encoders.Options) (*tensor.Dense, string, error) {
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
	var enc encoders.ImageEncoder
	kind := "image_embeds (unit length)"
	if modelType == "vit" {
		m, err := encoders.LoadViT(dir, o)
		if err != nil {
			return nil, "", err
		}
		defer m.Close()
		enc, kind = m, "pooler_output"
	} else {
		m, err := encoders.LoadCLIP(dir, o)
		if err != nil {
			return nil, "", err
		}
		defer m.Close()
		enc = m
	}
	v, err := enc.EmbedImages(ctx, []imageproc.PixelValues{px})
	return v, kind, err
}
