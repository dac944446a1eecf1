package compare

import (
	"fmt"
	"os"

	"github.com/storyeval/storyeval/internal/demomodels"
)

// DemoRun is what a run on a demo story set adds to its Sources: synthetic
// images with regions and crops for its sequences and, unless real models
// are given, demonstration models (random weights), all in a temporary
// folder that Remove deletes.
type DemoRun struct {
	dir string
	// Regions and Crops are the regions CSV and crops folder of the images.
	Regions, Crops string
	// Models is the models folder: the demonstration models', or the one
	// given to WriteDemo.
	Models string
	// Demonstration labels the demonstration models' columns
	// (ModelsOptions.Demonstration); "" when real models were given.
	Demonstration string
}

// WriteDemo writes the images, regions and crops of s's story set, and
// the demonstration models unless modelsDir names real ones, replacing
// s.Suite with the suite that holds the images. Everything is built from
// a fixed seed: two runs score the same.
func WriteDemo(s *Sources, modelsDir string) (*DemoRun, error) {
	dir, err := os.MkdirTemp("", "storyeval-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo models: %w", err)
	}
	d, err := demomodels.Write(dir, s.Suite)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.Suite = d.Suite
	out := &DemoRun{dir: dir, Regions: d.Regions, Crops: d.Crops, Models: modelsDir}
	if modelsDir == "" {
		out.Models, out.Demonstration = d.Models, demomodels.DemonstrationLabel
	}
	return out, nil
}

// Remove deletes the demo's folder; it does nothing on a nil DemoRun.
func (d *DemoRun) Remove() {
	if d != nil {
		os.RemoveAll(d.dir)
	}
}

// Label is the label of the demonstration models' columns: "" on a nil
// DemoRun or one with real models.
func (d *DemoRun) Label() string {
	if d == nil {
		return ""
	}
	return d.Demonstration
}

// DemonstrationColumns are the metrics of r computed by demonstration
// models, in report order.
func (r *Report) DemonstrationColumns() []string {
	var cols []string
	for _, m := range r.Summary.Metrics {
		if r.Summary.Demonstration[m] != "" {
			cols = append(cols, m)
		}
	}
	return cols
}
