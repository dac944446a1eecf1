package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/encoders"
)

func runEmbed(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("embed", stderr)
	dir := fs.String("model", "", "HuggingFace model directory: config.json, weights, tokenizer or preprocessor files (required)")
	text := fs.String("text", "", "text to embed (BERT, ALBERT, CLIP)")
	image := fs.String("image", "", "PNG or JPEG file to embed (ViT, CLIP)")
	pooling := fs.String("pooling", "cls", "BERT sentence embedding: cls, cls_before_pooler or avg (SimCSE's choices)")
	dev := addDeviceFlag(fs)
	setUsage(fs, "usage: storyeval embed -model DIR (-text \"...\" | -image FILE) [-pooling cls|cls_before_pooler|avg] [-device cpu|cuda[:N]]")
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
	opts := encoders.FolderOptions{Model: d.Options}
	var emb encoders.FolderEmbedding
	if *image != "" {
		emb, err = encoders.EmbedFolderImage(context.Background(), *dir, *image, opts)
	} else if opts.Pooling, err = encoders.PoolingByName(*pooling); err != nil {
		return fmt.Errorf("-pooling: want cls, cls_before_pooler or avg, got %q", *pooling)
	} else if emb, err = encoders.EmbedFolderText(context.Background(), *dir, *text, opts); errors.Is(err, encoders.ErrNoPooler) {
		return fmt.Errorf("-pooling cls: the model in %s has no pooler layer; use -pooling cls_before_pooler (the [CLS] hidden state, as SimCSE's unsupervised models) or avg", *dir)
	}
	if err != nil {
		return err
	}
	return writeJSON(stdout, emb)
}
