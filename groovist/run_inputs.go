package groovist

import (
	"fmt"

	"github.com/storyeval/storyeval/limits"
)

// InputFiles names what a run reads before it scores (InputFiles.Load): the
// phrases and/or stories (LoadInputs), the dataset's name (ParseDataset)
// and its image table file (LoadImageTable), and θ (ParseTheta).
type InputFiles struct {
	Phrases, Stories string
	Dataset          string
	ImageTable       string
	Theta            string
	// Limits bounds the files read (see LoadInputs).
	Limits limits.Limits
}

// RunInputs are a run's inputs with their image ids assigned, and its θ:
// with EstimateTheta ("estimate"), the caller scores with any θ, then
// sets EstimateTheta's value and calls Rescore.
type RunInputs struct {
	Inputs        []Input
	Theta         Theta
	EstimateTheta bool
}

// NoImageTableError is InputFiles.Load's error for a dataset that needs an
// image table when InputFiles names none.
type NoImageTableError struct{ Dataset Dataset }

// Error names the dataset.
func (e *NoImageTableError) Error() string {
	return fmt.Sprintf("dataset %s needs an image table", e.Dataset)
}

// Load reads f in the order the reference's command line checks
// them: the inputs, the dataset, its image table, whose ids it assigns
// (AssignImageIDs), then θ. A bad dataset, table or θ is an *InputError
// whose Input is "dataset", "image table" or "theta" (a missing table a
// *NoImageTableError in it); the errors of the inputs and of assigning
// image ids are LoadInputs's and AssignImageIDs's.
func (f InputFiles) Load() (RunInputs, error) {
	in, err := LoadInputs(f.Phrases, f.Stories, f.Limits)
	if err != nil {
		return RunInputs{}, err
	}
	d, err := ParseDataset(f.Dataset)
	if err != nil {
		return RunInputs{}, &InputError{"dataset", err}
	}
	if d.NeedsTable() && f.ImageTable == "" {
		return RunInputs{}, &InputError{"image table", &NoImageTableError{d}}
	}
	table, err := LoadImageTable(f.ImageTable, d, f.Limits)
	if err != nil {
		return RunInputs{}, &InputError{"image table", err}
	}
	if err := AssignImageIDs(in, d, table); err != nil {
		return RunInputs{}, err
	}
	r := RunInputs{Inputs: in}
	if r.Theta, r.EstimateTheta, err = ParseTheta(f.Theta, d); err != nil {
		return RunInputs{}, &InputError{"theta", err}
	}
	return r, nil
}

// Finish ends a run scored with opts: with EstimateTheta, it sets
// opts.Theta to the estimate of results (EstimateTheta) and returns them
// rescored with it (Rescore); otherwise it returns results as they are.
func (r RunInputs) Finish(results []Result, opts *Options) []Result {
	if !r.EstimateTheta {
		return results
	}
	opts.Theta = ThetaOf(EstimateTheta(results))
	return Rescore(results, *opts)
}
