package cuda

import (
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// LibraryInfo is what Discover found of one library.
type LibraryInfo struct {
	Library cudalib.Library
	// Path is the file loaded ("" when none could be).
	Path string
	// Version is the library's version ("13.0" for the driver's CUDA
	// version, cuBLAS's "13.0.2", NVRTC's "13.0").
	Version string
	// Err says why the library cannot be used (nil when it can).
	Err error
	// Rejected lists files found under the library's names that are not
	// libraries, with why.
	Rejected []string
}

// GPU is one device the driver sees.
type GPU struct {
	Index int
	Name  string
	// ComputeCapability is 10·major + minor (90 for an H100).
	ComputeCapability int
	Multiprocessors   int
	TotalMemory       uint64
	// Unusable says why this GPU cannot run the backend ("" when it can).
	Unusable string
}

// Report is what Discover found: the libraries in cudalib.Libraries
// order, the GPUs, and the folders searched.
type Report struct {
	SearchPath []string
	Libraries  []LibraryInfo
	GPUs       []GPU
	// DriverErr says why no GPU could be listed (nil when the driver
	// answered; a driver that sees no GPU is an error here).
	DriverErr error
	// archs are the architectures NVRTC compiles for, when it loaded.
	archs []int
	// opts are the options the libraries were found with (MaxCUDAMajor
	// set from the driver), for Open to load the same files.
	opts cudalib.Options
}

// Discover looks for the CUDA libraries and GPUs. It never fails: what is
// missing or unusable is in the Report. It loads the libraries it finds
// into the process (as opening a device would).
func Discover(o cudalib.Options) Report {
	r := Report{SearchPath: o.SearchPath()}
	var drv *cudalib.DriverAPI
	for _, lib := range cudalib.Libraries {
		f := o.Find(lib)
		info := LibraryInfo{Library: lib, Rejected: f.Rejected}
		switch lib {
		case cudalib.Driver:
			d, err := cudalib.OpenDriver(o)
			info.Err = err
			if err == nil {
				drv, info.Path = d, d.Path
				if v, err := d.Version(); err == nil {
					info.Version = fmt.Sprintf("%d.%d", v/1000, v%1000/10)
					if o.MaxCUDAMajor == 0 {
						o.MaxCUDAMajor = v / 1000 // newer cuBLAS or NVRTC would not run
					}
				}
			}
		case cudalib.CuBLAS:
			b, err := cudalib.OpenBLAS(o)
			info.Err = err
			if err == nil {
				info.Path, info.Version = b.Path, b.Version
			}
		case cudalib.NVRTC:
			c, err := cudalib.OpenNVRTC(o)
			info.Err = err
			if err == nil {
				info.Path, info.Version = c.Path, c.Version
				r.archs, info.Err = c.SupportedArchs()
			}
		}
		r.Libraries = append(r.Libraries, info)
	}
	r.opts = o
	if drv == nil {
		r.DriverErr = r.Libraries[0].Err
		return r
	}
	r.GPUs, r.DriverErr = listGPUs(drv)
	nvrtcOK := r.Libraries[2].Err == nil
	for i := range r.GPUs {
		if r.GPUs[i].Unusable == "" && nvrtcOK {
			if _, err := cudalib.ChooseArch(r.archs, r.GPUs[i].ComputeCapability); err != nil {
				r.GPUs[i].Unusable = err.Error()
			}
		}
	}
	return r
}

// listGPUs reads every device's properties from the driver.
func listGPUs(d *cudalib.DriverAPI) ([]GPU, error) {
	n, err := d.DeviceCount()
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("cuda: the CUDA driver (%s) sees no GPU", d.Path)
	}
	gpus := make([]GPU, n)
	for i := range gpus {
		g := &gpus[i]
		g.Index = i
		var major, minor, mode int
		errs := []error{}
		collect := func(err error) { errs = append(errs, err) }
		g.Name, err = d.DeviceName(i)
		collect(err)
		major, err = d.DeviceAttribute(i, cudalib.AttrComputeCapabilityMajor)
		collect(err)
		minor, err = d.DeviceAttribute(i, cudalib.AttrComputeCapabilityMinor)
		collect(err)
		g.Multiprocessors, err = d.DeviceAttribute(i, cudalib.AttrMultiprocessorCount)
		collect(err)
		mode, err = d.DeviceAttribute(i, cudalib.AttrComputeMode)
		collect(err)
		g.TotalMemory, err = d.TotalMem(i)
		collect(err)
		g.ComputeCapability = 10*major + minor
		for _, e := range errs {
			if e != nil {
				g.Unusable = e.Error()
				break
			}
		}
		if g.Unusable == "" && mode == cudalib.ComputeModeProhibited {
			g.Unusable = "its compute mode is Prohibited (nvidia-smi -c): it accepts no programs"
		}
	}
	return gpus, nil
}

// Usable returns nil when GPU index can run the backend, else one line
// naming what is missing: a library (with where it was looked for), the
// GPU, or why the GPU cannot be used. It is the error of `-device cuda:N`.
func (r Report) Usable(index int) error {
	if err := r.problem(); err != nil {
		return err
	}
	if index < 0 || index >= len(r.GPUs) {
		return fmt.Errorf("cuda: no GPU %d: the driver sees %d (cuda:0 to cuda:%d)", index, len(r.GPUs), len(r.GPUs)-1)
	}
	if g := r.GPUs[index]; g.Unusable != "" {
		return fmt.Errorf("cuda: GPU %d (%s) cannot be used: %s", index, g.Name, g.Unusable)
	}
	return nil
}

// problem is what stops every GPU: the first library that failed to load,
// or the driver's failure to list GPUs.
func (r Report) problem() error {
	for _, l := range r.Libraries {
		if l.Err != nil {
			return l.Err
		}
	}
	return r.DriverErr
}

// Summary is one line: the usable GPUs, or why there is none.
func (r Report) Summary() string {
	if err := r.problem(); err != nil {
		return "no usable GPU: " + strings.TrimPrefix(err.Error(), "cuda: ")
	}
	var ok, bad []string
	for _, g := range r.GPUs {
		if g.Unusable == "" {
			ok = append(ok, fmt.Sprintf("cuda:%d (%s)", g.Index, g.Name))
		} else {
			bad = append(bad, fmt.Sprintf("cuda:%d (%s) %s", g.Index, g.Name, g.Unusable))
		}
	}
	if len(ok) == 0 {
		return "no usable GPU: " + strings.Join(bad, "; ")
	}
	return fmt.Sprintf("%d usable GPU(s): %s", len(ok), strings.Join(ok, ", "))
}

// WriteText writes the report: the summary line, then one line per library
// and GPU, and with verbose the folders searched and the files rejected.
func (r Report) WriteText(w io.Writer, verbose bool) error {
	var b strings.Builder
	fmt.Fprintln(&b, r.Summary())
	for _, l := range r.Libraries {
		switch {
		case l.Err != nil && l.Path == "":
			fmt.Fprintf(&b, "  %-12s %s\n", l.Library.String()+":", strings.TrimPrefix(l.Err.Error(), "cuda: "))
		case l.Err != nil:
			fmt.Fprintf(&b, "  %-12s %s %s: %s\n", l.Library.String()+":", l.Path, l.Version, strings.TrimPrefix(l.Err.Error(), "cuda: "))
		default:
			fmt.Fprintf(&b, "  %-12s %s (%s)\n", l.Library.String()+":", l.Path, l.Version)
		}
		if verbose {
			for _, rej := range l.Rejected {
				fmt.Fprintf(&b, "      rejected %s\n", rej)
			}
		}
	}
	for _, g := range r.GPUs {
		state := "usable"
		if g.Unusable != "" {
			state = "unusable: " + g.Unusable
		}
		fmt.Fprintf(&b, "  cuda:%d       %s, compute capability %d.%d, %d multiprocessors, %.1f GiB: %s\n",
			g.Index, g.Name, g.ComputeCapability/10, g.ComputeCapability%10, g.Multiprocessors, float64(g.TotalMemory)/(1<<30), state)
	}
	if verbose {
		fmt.Fprintf(&b, "  searched (then the dynamic loader): %s\n", strings.Join(r.SearchPath, ":"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
