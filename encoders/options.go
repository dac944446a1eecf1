package encoders

import "github.com/storyeval/storyeval/encoders/compute"

// Options configure where a model runs. The zero value is the reference
// default: the CPU backend (compute.CPU), whose numbers are those the
// golden tests check.
type Options struct {
	// Backend runs the model's operations and holds its weights; nil
	// means compute.CPU() (the project's SGEMM, or OpenBLAS in a build
	// with the openblas tag). It is chosen per model: two models of one
	// program may run on different backends.
	Backend compute.Backend
}

// backend returns the backend the options choose.
func (o Options) backend() compute.Backend {
	if o.Backend == nil {
		return compute.CPU()
	}
	return o.Backend
}

// optionsOf returns the options of a variadic Load*/New* call: the last
// given, or the zero value.
func optionsOf(opts []Options) Options {
	if len(opts) == 0 {
		return Options{}
	}
	return opts[len(opts)-1]
}
