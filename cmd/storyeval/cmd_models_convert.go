package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

// runModelsConvert is `storyeval models convert`: it rewrites a checkpoint
// (a released .pth.tar, a pytorch_model.bin, …) as safetensors with
// checkpoint.ConvertFile. The torch.save dict's "model." prefix is dropped by
// default, so the file holds the state_dict the scorers read either way.
func runModelsConvert(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("models convert", stderr)
	in := fs.String("in", "", "checkpoint to convert (required)")
	out := fs.String("out", "", "safetensors file to write (required; written to a temporary file, then renamed)")
	strip := fs.String("strip", "model.", "prefix removed from every tensor name when all of them have it (\"\" keeps names as stored)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval models convert -in CHECKPOINT -out FILE.safetensors [-strip PREFIX]")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *in == "" || *out == "" {
		fs.Usage()
		return errors.New("-in and -out are required")
	}
	n, err := checkpoint.ConvertFile(*in, *out, checkpoint.ConvertOptions{StripPrefix: *strip, Metadata: map[string]string{"converted_from": *in}})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d tensors to %s\n", n, *out)
	return nil
}
