package device

import (
	"encoding/json"
	"io"

	"github.com/storyeval/storyeval/encoders/compute/cuda"
	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// ReportOptions configure WriteReport. The zero value writes the brief
// text report of the libraries found on the default search path.
type ReportOptions struct {
	// JSON writes cuda.ReportJSON (indented, HTML left as is) instead of
	// the text report.
	JSON bool
	// Verbose lists every library, the files rejected and the folders
	// searched even when no GPU is usable (cuda.Report.WriteBrief).
	Verbose bool
	// Check, when set, names a device ("cpu", "cuda" or "cuda:N") whose
	// use WriteReport checks after writing the report.
	Check string
	// Libraries chooses where the CUDA libraries are looked for.
	Libraries cudalib.Options
}

// WriteReport writes to w what `storyeval devices` prints: the GPUs and
// CUDA libraries found (cuda.Discover). A Check that is no device name is
// an error before anything is written; a GPU that cannot be used is the
// error after the report (cuda.Report.Usable).
func WriteReport(w io.Writer, o ReportOptions) error {
	check, index := false, 0
	if o.Check != "" {
		var err error
		if check, index, err = cuda.ParseDevice(o.Check); err != nil {
			return err
		}
	}
	r := cuda.Discover(o.Libraries)
	var err error
	if o.JSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err = enc.Encode(r.JSON())
	} else {
		err = r.WriteBrief(w, o.Verbose)
	}
	if err != nil || !check {
		return err
	}
	return r.Usable(index)
}
