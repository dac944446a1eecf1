package device_test

import (
	"fmt"
	"os"

	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/device"
)

// A program loads its models with the options of the device its user
// named: the zero Options (the reference's CPU numbers) for "cpu".
func ExampleEncoderOptions() {
	opts, closer, err := device.EncoderOptions("cpu", cuda.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer closer.Close()
	fmt.Println(opts.Backend == nil)
	// Output: true
}

// WriteReport checks the device name before it looks for any library.
func ExampleWriteReport() {
	err := device.WriteReport(os.Stdout, device.ReportOptions{Check: "tpu"})
	fmt.Println(err)
	// Output: device "tpu": want cpu, cuda or cuda:N (N the GPU's index, from 0)
}
