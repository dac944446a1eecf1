package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/encoders"
)

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
	ctx := context.Background()
	var emb encoders.FolderEmbedding
	if *text != "" {
		opts := encoders.FolderOptions{Model: d.Options}
		if opts.Pooling, err = encoders.PoolingByName(*pooling); err != nil {
			return fmt.Errorf("-pooling: want cls, cls_before_pooler or avg, got %q", *pooling)
		}
		emb, err = encoders.EmbedFolderText(ctx, *dir, *text, opts)
		if errors.Is(err, encoders.ErrNoPooler) {
			return fmt.Errorf("-pooling cls: the model in %s has no pooler layer; use -pooling cls_before_pooler (the [CLS] hidden state, as SimCSE's unsupervised models) or avg", *dir)
		}
	} else {
		emb, err = encoders.EmbedFolderImage(ctx, *dir, *image, encoders.FolderOptions{Model: d.Options})
	}
	if err != nil {
		return err
	}
	out := embedOutput{ModelType: emb.ModelType, Kind: emb.Kind, Dim: len(emb.Vector), Embedding: make([]Float, len(emb.Vector))}
	for i, v := range emb.Vector {
		out.Embedding[i] = Float(v)
	}
	return writeJSON(stdout, out)
}
