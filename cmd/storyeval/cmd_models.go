package main

import (
	"fmt"
	"io"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/encoders/checkpoint"
)

func runModels(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "convert" {
		return runModelsConvert(args[1:], stdout, stderr)
	}
	fs := newFlagSet("models", stderr)
	dir := fs.String("dir", "", "models folder to check (required)")
	format := fs.String("format", "table", "output format: table or json")
	setUsage(fs,
		"usage: storyeval models -dir DIR [-format table|json]",
		"       storyeval models convert -in CHECKPOINT -out FILE.safetensors   (memory-mapped, faster to load)",
		"\nLists, for each learned metric, the files of the models folder layout that were found,",
		"whether the metric is enabled, and for each missing file where the original release",
		"publishes it and the name to give it. Flags go before positional arguments; there are none.",
	)
	if err := parseRequired(fs, args, nil, "dir"); err != nil {
		return err
	}
	status, err := compare.CheckModels(*dir)
	if err != nil {
		return err
	}
	switch *format {
	case "json":
		return writeJSON(stdout, status)
	case "table":
		return compare.WriteModelsTable(stdout, *dir, status)
	}
	return fmt.Errorf("-format %q: want table or json", *format)
}

// runModelsConvert is `storyeval models convert`: checkpoint.ConvertFile
// rewrites a checkpoint (a released .pth.tar, a pytorch_model.bin, …) as
// safetensors, by default without the torch.save dict's "model." prefix,
// so the file holds the state_dict the scorers read either way.
func runModelsConvert(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("models convert", stderr)
	in := fs.String("in", "", "checkpoint to convert (required)")
	out := fs.String("out", "", "safetensors file to write (required; written to a temporary file, then renamed)")
	strip := fs.String("strip", "model.", "prefix removed from every tensor name when all of them have it (\"\" keeps names as stored)")
	setUsage(fs, "usage: storyeval models convert -in CHECKPOINT -out FILE.safetensors [-strip PREFIX]")
	if err := parseRequired(fs, args, nil, "in", "out"); err != nil {
		return err
	}
	n, err := checkpoint.ConvertFile(*in, *out, checkpoint.ConvertOptions{StripPrefix: *strip, Metadata: map[string]string{"converted_from": *in}})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d tensors to %s\n", n, *out)
	return nil
}
