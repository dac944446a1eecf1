package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
	"github.com/storyeval/storyeval/encoders/compute/device"
)

// deviceFlag is the -device flag of the commands that run encoders.
type deviceFlag struct{ name *string }

// envDevice sets -device's default (cpu when unset), so that a GPU
// machine's scripts run every command on CUDA without changing arguments.
const envDevice = "STORYEVAL_DEVICE"

// addDeviceFlag defines -device on fs.
func addDeviceFlag(fs *flag.FlagSet) deviceFlag {
	return deviceFlag{name: fs.String("device", cmp.Or(os.Getenv(envDevice), "cpu"), "where the models run: cpu, cuda (GPU 0) or cuda:N (default $"+envDevice+", else cpu); the CUDA libraries are looked for in $"+
		cudalib.EnvLibPath+", CUDA_HOME and the system folders ('storyeval devices' lists what it finds)")}
}

// openDevice is an opened device: the options its models load with (the
// zero value, the reference default, for the CPU) and Close, which
// releases it (a GPU's memory) when the command ends.
type openDevice struct {
	encoders.Options
	io.Closer
}

// open opens the device -device names; an unknown name or an unusable GPU
// is a one-line error naming the flag.
func (f deviceFlag) open() (*openDevice, error) {
	opts, c, err := device.EncoderOptions(*f.name, cuda.Options{})
	if err != nil {
		return nil, fmt.Errorf("-device %w", err)
	}
	return &openDevice{opts, c}, nil
}
