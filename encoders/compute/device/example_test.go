package device_test

import (
	"fmt"

	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/device"
)

// A program opens the device its user named, passes the backend to the
// models (encoders.Options{Backend: b}) and closes it at the end.
func ExampleOpen() {
	b, closer, err := device.Open("cpu", cuda.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer closer.Close()
	fmt.Println(b.Name() != "")

	_, _, err = device.Open("gpu", cuda.Options{})
	fmt.Println(err)
	// Output:
	// true
	// gpu: unknown device: want cpu, cuda or cuda:N (N the GPU's index, from 0)
}
