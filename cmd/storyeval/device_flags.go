package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/compute"
	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
	"github.com/storyeval/storyeval/encoders/compute/device"
)

// deviceFlag is the -device flag of the commands that run encoders.
type deviceFlag struct{ name *string }

// envDevice names the environment variable that sets -device's default
// (cpu when unset): a GPU machine's scripts, and the prepared GPU check,
// run every command on CUDA without changing their arguments.
const envDevice = "STORYEVAL_DEVICE"

// addDeviceFlag defines -device on fs.
func addDeviceFlag(fs *flag.FlagSet) deviceFlag {
	def := os.Getenv(envDevice)
	if def == "" {
		def = "cpu"
	}
	return deviceFlag{name: fs.String("device", def, "where the models run: cpu, cuda (GPU 0) or cuda:N (default $"+envDevice+", else cpu); the CUDA libraries are looked for in $"+
		cudalib.EnvLibPath+", CUDA_HOME and the system folders ('storyeval devices' lists what it finds)")}
}

// openDevice is a device a command opened: the options its models load
// with, and Close, which releases the device (a GPU's memory) when the
// command ends.
type openDevice struct {
	encoders.Options
	closer io.Closer
}

// open opens the device -device names; a name that is no device, or a GPU
// that cannot be used, is a one-line error naming the flag. For the CPU
// the options are the zero value, the libraries' reference default.
func (f deviceFlag) open() (*openDevice, error) {
	be, c, err := device.Open(*f.name, cuda.Options{})
	if err != nil {
		return nil, fmt.Errorf("-device %w", err)
	}
	d := &openDevice{closer: c}
	if be.Name() != compute.CPU().Name() {
		d.Backend = be
	}
	return d, nil
}

// Close releases the device.
func (d *openDevice) Close() error { return d.closer.Close() }
