package compare

import (
	"cmp"
	"slices"
)

// RunOptions are the inputs of a scoring run: its sources, the metric names
// (ParseMetricNames), the models folder and the options of its models.
type RunOptions struct {
	Sources SourcesOptions
	Metrics []string
	// ModelsDir is the models folder ("" : the learned metrics are Absent;
	// with a demo, WriteDemo's demonstration models).
	ModelsDir string
	// Models are OpenModels' options; Open sets Metrics and
	// Demonstration, and the demo's Regions and Crops where these are "".
	Models ModelsOptions
	// Paraphrase is METEOR's paraphrase table (Sources.Metrics).
	Paraphrase string
	// Opened, when not nil, is called once the models are open and before
	// the metrics are built: to point them at a cache (Models.UseCache) or
	// bound the heap when they decode images.
	Opened func(*Run) error
}

// Run is an opened scoring run: its sources, the demo's files (nil unless a
// demo runs learned metrics), its models and metrics, ready for Compare.
type Run struct {
	Sources *Sources
	Demo    *DemoRun
	Models  *Models
	Metrics []Metric
}

// ModelsError is an error of OpenModels on the folder Dir.
type ModelsError struct {
	Dir string
	Err error
}

// Error is Err's message: the caller names the folder (Dir) its own way.
func (e *ModelsError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ModelsError) Unwrap() error { return e.Err }

// Open reads and checks every input (SourcesOptions.Load) before any
// model or table is loaded, writes the demo's images, crops and models when
// a demo runs learned metrics (only those use them), opens the models and
// builds the metrics. Close removes the demo's files.
func (o RunOptions) Open() (*Run, error) {
	src, err := o.Sources.Load()
	if err != nil {
		return nil, err
	}
	r := &Run{Sources: src}
	if o.Sources.Demo != nil && slices.ContainsFunc(o.Metrics, func(m string) bool { return slices.Contains(LearnedMetricNames(), m) }) {
		if r.Demo, err = WriteDemo(src, o.ModelsDir); err != nil {
			return nil, err
		}
		o.ModelsDir, o.Models.Regions, o.Models.Crops = r.Demo.Models, cmp.Or(o.Models.Regions, r.Demo.Regions), cmp.Or(o.Models.Crops, r.Demo.Crops)
	}
	o.Models.Metrics, o.Models.Demonstration = o.Metrics, r.Demo.Label()
	if r.Models, err = OpenModels(o.ModelsDir, src.Suite, o.Models); err != nil {
		r.Close()
		return nil, &ModelsError{Dir: o.ModelsDir, Err: err}
	}
	if o.Opened != nil {
		err = o.Opened(r)
	}
	if err == nil {
		r.Metrics, err = src.Metrics(o.Metrics, r.Models, o.Paraphrase)
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Close removes the demo's files, if any; it does nothing on a nil Run.
func (r *Run) Close() {
	if r != nil {
		r.Demo.Remove()
	}
}
