package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

func init() {
	register(command{
		name:    "devices",
		summary: "the GPUs and CUDA libraries found, and why one is unusable",
		run:     runDevices,
	})
}

func runDevices(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("devices", stderr)
	verbose := fs.Bool("v", false, "also list every library, the files rejected and the folders searched")
	libPath := fs.String("cuda-lib-path", "", "folders (separated by ':') searched first for libcuda.so.1, libcublas and libnvrtc, before $"+cudalib.EnvLibPath+" and the system folders")
	format := fs.String("format", "text", "output format: text or json")
	device := fs.String("device", "", "check that this device can be used (cpu, cuda or cuda:N): exit status 1 and the reason when it cannot")
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
	check, index := false, 0
	if *device != "" {
		var err error
		if check, index, err = cuda.ParseDevice(*device); err != nil {
			return err
		}
	}
	o := cudalib.Options{Paths: filepath.SplitList(*libPath)}
	r := cuda.Discover(o)
	var err error
	if *format == "json" {
		err = writeJSON(stdout, devicesJSON(r))
	} else {
		err = writeDevices(stdout, r, *verbose)
	}
	if err != nil {
		return err
	}
	if check {
		return r.Usable(index)
	}
	return nil
}

// writeDevices prints the report: its summary alone when no GPU is usable
// (one line: what is missing), the whole report otherwise or when verbose.
func writeDevices(w io.Writer, r cuda.Report, verbose bool) error {
	if r.Usable(0) != nil && !hasUsableGPU(r) && !verbose {
		_, err := fmt.Fprintln(w, r.Summary())
		return err
	}
	return r.WriteText(w, verbose)
}

func hasUsableGPU(r cuda.Report) bool {
	for i := range r.GPUs {
		if r.Usable(i) == nil {
			return true
		}
	}
	return false
}

// devicesReport is the JSON form of the report: errors as their one-line
// messages, "" when there is none.
type devicesReport struct {
	Summary    string           `json:"summary"`
	Libraries  []devicesLibrary `json:"libraries"`
	GPUs       []devicesGPU     `json:"gpus"`
	SearchPath []string         `json:"search_path"`
}

type devicesLibrary struct {
	Name     string   `json:"name"`
	Path     string   `json:"path"`
	Version  string   `json:"version"`
	Error    string   `json:"error"`
	Rejected []string `json:"rejected"`
}

type devicesGPU struct {
	Device            string  `json:"device"`
	Name              string  `json:"name"`
	ComputeCapability string  `json:"compute_capability"`
	Multiprocessors   int     `json:"multiprocessors"`
	MemoryGiB         float64 `json:"memory_gib"`
	Error             string  `json:"error"`
}

func devicesJSON(r cuda.Report) devicesReport {
	out := devicesReport{Summary: r.Summary(), SearchPath: r.SearchPath, Libraries: []devicesLibrary{}, GPUs: []devicesGPU{}}
	for _, l := range r.Libraries {
		dl := devicesLibrary{Name: l.Library.String(), Path: l.Path, Version: l.Version, Rejected: l.Rejected}
		if l.Err != nil {
			dl.Error = l.Err.Error()
		}
		if dl.Rejected == nil {
			dl.Rejected = []string{}
		}
		out.Libraries = append(out.Libraries, dl)
	}
	for i, g := range r.GPUs {
		dg := devicesGPU{Device: fmt.Sprintf("cuda:%d", g.Index), Name: g.Name, Multiprocessors: g.Multiprocessors,
			ComputeCapability: fmt.Sprintf("%d.%d", g.ComputeCapability/10, g.ComputeCapability%10),
			MemoryGiB:         float64(g.TotalMemory) / (1 << 30)}
		if err := r.Usable(i); err != nil {
			dg.Error = err.Error()
		}
		out.GPUs = append(out.GPUs, dg)
	}
	return out
}
