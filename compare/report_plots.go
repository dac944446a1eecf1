package compare

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// inlineSVG renders a plot as SVG markup for embedding in HTML (the XML
// declaration a standalone file needs is dropped).
func inlineSVG(p *plot.Plot, w, h vg.Length) (template.HTML, error) {
	wt, err := p.WriterTo(w, h, "svg")
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return "", err
	}
	svg := buf.Bytes()
	if i := bytes.Index(svg, []byte("<svg")); i > 0 {
		svg = svg[i:]
	}
	return template.HTML(svg), nil //nolint:gosec // markup produced by gonum/plot from numbers and our own labels
}

// distributionPlot draws one box per system of a metric's defined scores.
func distributionPlot(col Column, systems []string) (template.HTML, error) {
	p := plot.New()
	p.Title.Text = col.Name
	p.Y.Label.Text = "score per story"
	var names []string
	for i, sys := range systems {
		var vals plotter.Values
		for _, v := range col.Scores[sys] {
			if !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		names = append(names, fmt.Sprintf("%s (n=%d)", sys, len(vals)))
		if len(vals) == 0 {
			continue
		}
		box, err := plotter.NewBoxPlot(vg.Points(28), float64(i), vals)
		if err != nil {
			return "", err
		}
		box.FillColor = color.RGBA{R: 0x9e, G: 0xc5, B: 0xe8, A: 0xff}
		p.Add(box)
	}
	p.NominalX(names...)
	// Room for the outer boxes' labels.
	p.X.Min, p.X.Max = -0.7, float64(len(systems))-0.3
	return inlineSVG(p, vg.Points(120*float64(len(systems))+60), vg.Points(240))
}

// scatterPlot draws a metric's scores against the human ratings.
func scatterPlot(name string, metric, human []float64, r float64) (template.HTML, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s vs human (Pearson r = %.3f)", name, r)
	p.X.Label.Text = name
	p.Y.Label.Text = "human rating"
	x, y := definedPairs(metric, human)
	pts := make(plotter.XYs, len(x))
	for i := range x {
		pts[i].X, pts[i].Y = x[i], y[i]
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return "", err
	}
	s.GlyphStyle.Shape = draw.CircleGlyph{}
	s.GlyphStyle.Radius = vg.Points(2.5)
	s.GlyphStyle.Color = color.RGBA{R: 0x1f, G: 0x5f, B: 0xa8, A: 0xff}
	p.Add(s)
	return inlineSVG(p, vg.Points(300), vg.Points(240))
}
