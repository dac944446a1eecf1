package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/internal/demomodels"
)

// scoreDemo is what score -demo adds to the embedded story set: synthetic
// images with regions and crops for its sequences and, without -models,
// the demonstration models (random weights), all in a temporary folder
// that remove deletes.
type scoreDemo struct {
	dir                   string
	regions, crops        string
	models, demonstration string
}

// writeScoreDemo writes the demo's images, regions and crops, and its
// demonstration models unless modelsDir names real ones, for in's suite
// (which it replaces with the suite holding the images). The folder is
// built from a fixed seed: two runs score the same.
func writeScoreDemo(in *scoreInputs, modelsDir string) (*scoreDemo, error) {
	dir, err := os.MkdirTemp("", "storyeval-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo models: %w", err)
	}
	d, err := demomodels.Write(dir, in.suite)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	in.suite = d.Suite
	out := &scoreDemo{dir: dir, regions: d.Regions, crops: d.Crops, models: modelsDir}
	if modelsDir == "" {
		out.models, out.demonstration = d.Models, demomodels.DemonstrationLabel
	}
	return out, nil
}

// remove deletes the demo's folder.
func (d *scoreDemo) remove() {
	if d != nil {
		os.RemoveAll(d.dir)
	}
}

// printClosing says, after a run on the demonstration models, which
// columns they computed and where the real models come from.
func (d *scoreDemo) printClosing(w io.Writer, r *compare.Report) {
	if d == nil || d.demonstration == "" {
		return
	}
	var cols []string
	for _, m := range r.Summary.Metrics {
		if r.Summary.Demonstration[m] != "" {
			cols = append(cols, m)
		}
	}
	if len(cols) == 0 {
		return
	}
	fmt.Fprintf(w, "%s: demonstration models (%s)\n", strings.Join(cols, ", "), d.demonstration)
	fmt.Fprintln(w, "real models: 'storyeval models -dir DIR' lists each file a models folder DIR lacks and where it comes from; with them, 'storyeval score -demo -models DIR'")
}

// label is the label of the demonstration models' columns: "" for a run
// without them (no -demo, or -demo -models DIR).
func (d *scoreDemo) label() string {
	if d == nil {
		return ""
	}
	return d.demonstration
}
