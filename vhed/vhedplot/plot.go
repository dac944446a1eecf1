package vhedplot

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/vhed"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Width and Height are the size Write and Save draw at.
const (
	Width  = 16 * vg.Centimeter
	Height = 10 * vg.Centimeter
)

// Series is the assessment of one scorer, named in the legend.
type Series struct {
	Name   string
	Report vhed.AssessReport
}

// AccuracyByGap draws the story-pair ranking accuracy per ranking-gap
// bucket, one line per series, as the Vrank paper's figure of accuracy
// against the human ranking gap (Figure 3). Every series must have the
// same buckets (the same vhed.AssessOptions.GapEdges and RawGap). An empty
// bucket leaves a gap in the line.
func AccuracyByGap(series []Series) (*plot.Plot, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("no series")
	}
	ref := series[0].Report.Buckets
	labels := make([]string, len(ref))
	for i, b := range ref {
		labels[i] = plotBucketLabel(b.MinGap, b.MaxGap)
	}
	p := plot.New()
	p.Title.Text = "Story-pair ranking accuracy by human ranking gap"
	p.X.Label.Text = "|normalised ranking gap| (rank_norm)"
	if series[0].Report.RawGap() {
		p.X.Label.Text = "|ranking gap| (difference of average ranks)"
	}
	p.Y.Label.Text = "accuracy"
	p.Y.Min, p.Y.Max = 0, 1.12 // headroom for the legend above accuracy 1
	p.Legend.Top = true
	for si, s := range series {
		bs := s.Report.Buckets
		if len(bs) != len(ref) {
			return nil, fmt.Errorf("series %q has %d gap buckets, %q has %d", s.Name, len(bs), series[0].Name, len(ref))
		}
		var run plotter.XYs
		legend := true
		flush := func() error {
			if len(run) == 0 {
				return nil
			}
			l, pts, err := plotter.NewLinePoints(run)
			if err != nil {
				return err
			}
			l.Color = plotutil.Color(si)
			l.Dashes = plotutil.Dashes(si)
			pts.Color = plotutil.Color(si)
			pts.Shape = plotutil.Shape(si)
			p.Add(l, pts)
			if legend {
				p.Legend.Add(s.Name, l, pts)
				legend = false
			}
			run = nil
			return nil
		}
		for i, b := range bs {
			if b.MinGap != ref[i].MinGap || b.MaxGap != ref[i].MaxGap {
				return nil, fmt.Errorf("series %q and %q have different gap buckets", s.Name, series[0].Name)
			}
			if math.IsNaN(b.Value) {
				if err := flush(); err != nil {
					return nil, err
				}
				continue
			}
			run = append(run, plotter.XY{X: float64(i), Y: b.Value})
		}
		if err := flush(); err != nil {
			return nil, err
		}
	}
	p.NominalX(labels...)
	return p, nil
}

// AccuracyByOmega draws, as grouped bars, the accuracy on all pairs,
// on each Ω^k (agreement exactly k) and on their union Ω^{4,5}, one bar per
// series in each group (paper Table 4). Every series must have the same
// subsets (vhed.AssessOptions.Agreements and Union). An empty subset draws no
// bar.
func AccuracyByOmega(series []Series) (*plot.Plot, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("no series")
	}
	ref := series[0].Report.Omega
	labels := []string{"all pairs"}
	for _, o := range ref {
		labels = append(labels, "Ω"+strconv.Itoa(o.K)+" ("+strconv.Itoa(o.K)+" agree)")
	}
	labels = append(labels, "Ω"+vhed.JoinInts(series[0].Report.OmegaUnion.Ks))
	p := plot.New()
	p.Title.Text = "Story-pair ranking accuracy by human agreement"
	p.Y.Label.Text = "accuracy"
	p.Y.Min, p.Y.Max = 0, 1.12 // headroom for the legend above accuracy 1
	p.Legend.Top = true
	width := vg.Points(math.Max(4, 240/float64(len(series)*len(labels))))
	for si, s := range series {
		if len(s.Report.Omega) != len(ref) {
			return nil, fmt.Errorf("series %q has %d Ω subsets, %q has %d", s.Name, len(s.Report.Omega), series[0].Name, len(ref))
		}
		vals := plotter.Values{plotZeroNaN(s.Report.Overall.Value)}
		for i, o := range s.Report.Omega {
			if o.K != ref[i].K {
				return nil, fmt.Errorf("series %q and %q have different Ω subsets", s.Name, series[0].Name)
			}
			vals = append(vals, plotZeroNaN(o.Value))
		}
		if !slices.Equal(s.Report.OmegaUnion.Ks, series[0].Report.OmegaUnion.Ks) {
			return nil, fmt.Errorf("series %q and %q have different Ω unions", s.Name, series[0].Name)
		}
		vals = append(vals, plotZeroNaN(s.Report.OmegaUnion.Value))
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		bars.LineStyle.Width = 0
		bars.Color = plotutil.Color(si)
		bars.Offset = width * vg.Length(float64(si)-float64(len(series)-1)/2)
		p.Add(bars)
		p.Legend.Add(s.Name, bars)
	}
	p.NominalX(labels...)
	return p, nil
}

func plotZeroNaN(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// plotBucketLabel names a bucket [lo, hi) for the axis.
func plotBucketLabel(lo, hi float64) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	if math.IsInf(hi, 1) {
		return "≥ " + f(lo)
	}
	return "[" + f(lo) + ", " + f(hi) + ")"
}

// Write draws p at Width × Height to w in format "png" or
// "svg".
func Write(w io.Writer, p *plot.Plot, format string) error {
	format = strings.ToLower(format)
	if format != "png" && format != "svg" {
		return fmt.Errorf("format %q is not png or svg", format)
	}
	wt, err := p.WriterTo(Width, Height, format)
	if err != nil {
		return err
	}
	if _, err := wt.WriteTo(w); err != nil {
		return err
	}
	return nil
}

// Save writes p to path in the format its extension names (.png or
// .svg), through a temporary file renamed into place, so that a failed
// write leaves no partial figure.
func Save(path string, p *plot.Plot) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "png" && format != "svg" {
		return fmt.Errorf("%s: extension is not .png or .svg", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".plot-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = f.Chmod(0o644) // CreateTemp's 0600 suits no figure
	if err == nil {
		err = Write(f, p, format)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
