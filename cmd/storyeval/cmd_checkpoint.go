package main

import (
	"fmt"
	"io"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

func runCheckpoint(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("checkpoint", stderr)
	var opts checkpoint.SummaryOptions
	fs.StringVar(&opts.Prefix, "prefix", "", `only names starting with this prefix, shown without it (e.g. "model.albert_model.")`)
	fs.BoolVar(&opts.Stats, "stats", false, "read every tensor and report mean, min, max and the first 4 elements")
	setUsage(fs, "usage: storyeval checkpoint [-prefix P] [-stats] FILE|MODEL_DIR...")
	if err := parseFlags(fs, args, -1); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("no checkpoint file or model directory given")
	}
	var out []*checkpoint.Summary
	for _, path := range fs.Args() {
		s, err := checkpoint.LoadSummary(path, opts)
		if err != nil {
			return err
		}
		out = append(out, s)
	}
	return writeJSON(stdout, out)
}
