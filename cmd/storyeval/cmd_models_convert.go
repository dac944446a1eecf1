package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/encoders/checkpoint"
	"github.com/storyeval/storyeval/internal/safetensors"
)

// runModelsConvert is `storyeval models convert`: it rewrites a checkpoint
// (a released .pth.tar, a pytorch_model.bin, …) as safetensors, which
// loads by memory mapping instead of unpickling. Float tensors are written
// as float32 (what the encoders compute in), integer buffers as int64;
// non-tensor entries of a torch.save dict (epoch, losses, argparse
// options) are left out. The torch.save dict's "model." prefix is dropped by
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
	st, err := checkpoint.Open(*in)
	if err != nil {
		return err
	}
	defer st.Close()
	names := st.Names()
	if len(names) == 0 {
		return fmt.Errorf("%s holds no tensors", *in)
	}
	prefix := *strip
	for _, n := range names {
		if !strings.HasPrefix(n, prefix) {
			prefix = ""
			break
		}
	}
	tensors := make([]safetensors.Tensor, 0, len(names))
	for _, n := range names {
		info, _ := st.Info(n)
		t := safetensors.Tensor{Name: strings.TrimPrefix(n, prefix), Shape: info.Shape}
		if info.DType.IsFloat() {
			d, err := st.Float32(n)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", *in, n, err)
			}
			var ok bool
			if t.F32, ok = d.Data().([]float32); !ok {
				return fmt.Errorf("%s: %s: not read as float32", *in, n)
			}
		} else {
			d, err := st.Int64(n)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", *in, n, err)
			}
			var ok bool
			if t.I64, ok = d.Data().([]int64); !ok {
				return fmt.Errorf("%s: %s: not read as int64", *in, n)
			}
		}
		tensors = append(tensors, t)
	}
	if err := safetensors.WriteFile(*out, tensors, map[string]string{"converted_from": *in}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d tensors to %s\n", len(tensors), *out)
	return nil
}
