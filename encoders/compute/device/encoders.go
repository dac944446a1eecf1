package device

import (
	"io"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/compute/cuda"
)

// EncoderOptions opens the device name chooses (Open) and returns the
// encoders.Options the models load with, and what releases the device.
// For the CPU the options are the zero value, the reference default, so
// that a model loaded on "cpu" is the one loaded without a device.
func EncoderOptions(name string, o cuda.Options) (encoders.Options, io.Closer, error) {
	b, c, err := Open(name, o)
	if err != nil {
		return encoders.Options{}, nil, err
	}
	var opts encoders.Options
	if b.Name() != compute.CPU().Name() {
		opts.Backend = b
	}
	return opts, c, nil
}
