package cuda

import (
	"fmt"
	"io"
)

// ReportJSON is the JSON form of a Report, what `storyeval devices
// -format json` prints: errors as their one-line messages, "" when there
// is none; empty lists as [] rather than null.
type ReportJSON struct {
	Summary    string        `json:"summary"`
	Libraries  []LibraryJSON `json:"libraries"`
	GPUs       []GPUJSON     `json:"gpus"`
	SearchPath []string      `json:"search_path"`
}

// LibraryJSON is one LibraryInfo in ReportJSON.
type LibraryJSON struct {
	Name     string   `json:"name"`
	Path     string   `json:"path"`
	Version  string   `json:"version"`
	Error    string   `json:"error"`
	Rejected []string `json:"rejected"`
}

// GPUJSON is one GPU in ReportJSON; Error is Usable's message.
type GPUJSON struct {
	Device            string  `json:"device"`
	Name              string  `json:"name"`
	ComputeCapability string  `json:"compute_capability"`
	Multiprocessors   int     `json:"multiprocessors"`
	MemoryGiB         float64 `json:"memory_gib"`
	Error             string  `json:"error"`
}

// JSON returns the report's JSON form.
func (r Report) JSON() ReportJSON {
	out := ReportJSON{Summary: r.Summary(), SearchPath: r.SearchPath, Libraries: []LibraryJSON{}, GPUs: []GPUJSON{}}
	for _, l := range r.Libraries {
		dl := LibraryJSON{Name: l.Library.String(), Path: l.Path, Version: l.Version, Rejected: l.Rejected}
		if l.Err != nil {
			dl.Error = l.Err.Error()
		}
		if dl.Rejected == nil {
			dl.Rejected = []string{}
		}
		out.Libraries = append(out.Libraries, dl)
	}
	for i, g := range r.GPUs {
		dg := GPUJSON{Device: fmt.Sprintf("cuda:%d", g.Index), Name: g.Name, Multiprocessors: g.Multiprocessors,
			ComputeCapability: fmt.Sprintf("%d.%d", g.ComputeCapability/10, g.ComputeCapability%10),
			MemoryGiB:         float64(g.TotalMemory) / (1 << 30)}
		if err := r.Usable(i); err != nil {
			dg.Error = err.Error()
		}
		out.GPUs = append(out.GPUs, dg)
	}
	return out
}

// WriteBrief writes the report as `storyeval devices` prints it: the
// summary line alone when no GPU is usable (what is missing), else, or
// with verbose, WriteText's whole report.
func (r Report) WriteBrief(w io.Writer, verbose bool) error {
	if !verbose && !r.anyUsable() {
		_, err := fmt.Fprintln(w, r.Summary())
		return err
	}
	return r.WriteText(w, verbose)
}

// anyUsable reports whether some GPU can run the backend.
func (r Report) anyUsable() bool {
	for i := range r.GPUs {
		if r.Usable(i) == nil {
			return true
		}
	}
	return false
}
