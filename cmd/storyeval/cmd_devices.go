package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
	"github.com/storyeval/storyeval/encoders/compute/device"
)

func runDevices(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("devices", stderr)
	verbose := fs.Bool("v", false, "also list every library, the files rejected and the folders searched")
	libPath := fs.String("cuda-lib-path", "", "folders (separated by ':') searched first for libcuda.so.1, libcublas and libnvrtc, before $"+cudalib.EnvLibPath+" and the system folders")
	format := fs.String("format", "text", "output format: text or json")
	dev := fs.String("device", "", "check that this device can be used (cpu, cuda or cuda:N): exit status 1 and the reason when it cannot")
	setUsage(fs,
		"usage: storyeval devices [-v] [-format text|json] [-cuda-lib-path DIRS] [-device cuda[:N]]",
		"\nPrints one line saying which GPUs are usable or why none is; when one is, or with -v,",
		"one line per CUDA library (path, version) and per GPU. Nothing is needed at build time:",
		"the CUDA driver, cuBLAS and NVRTC are looked for when the command runs.",
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *format != "text" && *format != "json" {
		return fmt.Errorf("-format %s: want text or json", quoteShort(*format))
	}
	return device.WriteReport(stdout, device.ReportOptions{JSON: *format == "json", Verbose: *verbose, Check: *dev,
		Libraries: cudalib.Options{Paths: filepath.SplitList(*libPath)}})
}
