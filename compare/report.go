package compare

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"
)

//go:embed report.html.tmpl
var reportTemplate string

// reportWorstStories is how many lowest-scoring stories the report lists per
// metric.
const reportWorstStories = 5

// reportData is what score_report.html.tmpl renders.
type reportData struct {
	Sequences   int
	Systems     []string
	Metrics     []string
	Unavailable []Unavailable
	Table       []reportSystemRow
	Matrices    []reportMatrix
	Plots       []reportPlot
	Human       *reportHuman
	Worst       []reportWorst
	Settings    Settings
}

type reportCell struct {
	Text string
	Best bool
}

type reportSystemRow struct {
	System string
	Cells  []reportCell
}

// reportMatrix is one metric's pairwise significance matrix: row system vs
// column system, the p-value of the paired randomization test and the sign
// of the mean difference.
type reportMatrix struct {
	Metric string
	Rows   []reportMatrixRow
}

type reportMatrixRow struct {
	System string
	Cells  []reportMatrixCell
}

type reportMatrixCell struct {
	Text        string
	Significant bool
	Diagonal    bool
}

type reportPlot struct {
	Title string
	SVG   template.HTML
}

type reportHuman struct {
	Ratings  int
	Rows     []reportHumanRow
	Scatter  []reportPlot
	Williams []WilliamsTest
}

type reportHumanRow struct {
	Metric string
	N      int
	Cells  []string
}

type reportWorst struct {
	Metric  string
	Stories []reportStory
}

type reportStory struct {
	ID, System, Score, Text, Note string
}

func fmtScore(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return fmt.Sprintf("%.4g", v)
}

// WriteHTML writes report.html: a self-contained page (inline CSS and SVG,
// no scripts, no network) with the system table, the significance
// matrices, score distributions, the human-rating correlations and the
// worst-scoring stories with their diagnostics.
func (r *Report) WriteHTML(w io.Writer) error {
	sum := r.Summary
	d := reportData{Sequences: sum.Sequences, Systems: r.Systems, Metrics: sum.Metrics, Unavailable: sum.Unavailable, Settings: sum.Settings}
	for _, sys := range r.Systems {
		row := reportSystemRow{System: sys}
		for _, m := range sum.Metrics {
			st := sum.PerSystem[sys][m]
			best := true
			for _, other := range r.Systems {
				if float64(sum.PerSystem[other][m].Mean) > float64(st.Mean) {
					best = false
				}
			}
			row.Cells = append(row.Cells, reportCell{Text: fmt.Sprintf("%s [%s, %s]", fmtScore(float64(st.Mean)), fmtScore(float64(st.Low)), fmtScore(float64(st.High))), Best: best && !math.IsNaN(float64(st.Mean))})
		}
		d.Table = append(d.Table, row)
	}
	for _, m := range sum.Metrics {
		mx := reportMatrix{Metric: m}
		for _, a := range r.Systems {
			row := reportMatrixRow{System: a}
			for _, b := range r.Systems {
				if a == b {
					row.Cells = append(row.Cells, reportMatrixCell{Text: "", Diagonal: true})
					continue
				}
				t, flip := findPair(sum.Pairs, m, a, b)
				diff := float64(t.MeanDifference)
				if flip {
					diff = -diff
				}
				sign := "="
				switch {
				case diff > 0:
					sign = ">"
				case diff < 0:
					sign = "<"
				}
				row.Cells = append(row.Cells, reportMatrixCell{Text: fmt.Sprintf("%s p=%s", sign, fmtScore(float64(t.P))), Significant: float64(t.P) < 0.05})
			}
			mx.Rows = append(mx.Rows, row)
		}
		d.Matrices = append(d.Matrices, mx)
	}
	for _, col := range r.Columns {
		svg, err := distributionPlot(col, r.Systems)
		if err != nil {
			return err
		}
		d.Plots = append(d.Plots, reportPlot{Title: col.Name, SVG: svg})
		d.Worst = append(d.Worst, worstStories(r, col))
	}
	if sum.Human != nil {
		h := &reportHuman{Ratings: sum.Human.Ratings, Williams: sum.Human.Williams}
		ratings := ratingsVector(r.Suite, r.Systems, r.Ratings)
		for i, hm := range sum.Human.Metrics {
			row := reportHumanRow{Metric: hm.Metric, N: hm.N}
			for _, c := range hm.Correlations {
				row.Cells = append(row.Cells, fmt.Sprintf("%s [%s, %s] (p=%s)", fmtScore(float64(c.Value)), fmtScore(float64(c.Low)), fmtScore(float64(c.High)), fmtScore(float64(c.P))))
			}
			h.Rows = append(h.Rows, row)
			svg, err := scatterPlot(hm.Metric, columnVector(r.Columns[i], r.Systems), ratings, float64(hm.Correlations[0].Value))
			if err != nil {
				return err
			}
			h.Scatter = append(h.Scatter, reportPlot{Title: hm.Metric, SVG: svg})
		}
		d.Human = h
	}
	t, err := template.New("report").Parse(reportTemplate)
	if err != nil {
		return err
	}
	return t.Execute(w, d)
}

// findPair returns the test of systems a and b on a metric, and whether it
// was stored as (b, a).
func findPair(pairs []PairTest, metric, a, b string) (PairTest, bool) {
	for _, p := range pairs {
		if p.Metric != metric {
			continue
		}
		if p.A == a && p.B == b {
			return p, false
		}
		if p.A == b && p.B == a {
			return p, true
		}
	}
	return PairTest{MeanDifference: Float(math.NaN()), P: Float(math.NaN())}, false
}

// worstStories lists the lowest defined scores of a metric over all systems
// with the story text and the metric's diagnostic.
func worstStories(r *Report, col Column) reportWorst {
	type item struct {
		seq   int
		sys   string
		score float64
	}
	var items []item
	for _, sys := range r.Systems {
		for i, v := range col.Scores[sys] {
			if !math.IsNaN(v) {
				items = append(items, item{i, sys, v})
			}
		}
	}
	sort.SliceStable(items, func(a, b int) bool { return items[a].score < items[b].score })
	w := reportWorst{Metric: col.Name}
	for _, it := range items[:min(len(items), reportWorstStories)] {
		seq := r.Suite.At(it.seq)
		text := seq.Stories[it.sys]
		if len(text) > 400 {
			text = strings.TrimSpace(text[:400]) + " …"
		}
		w.Stories = append(w.Stories, reportStory{ID: seq.ID, System: it.sys, Score: fmtScore(it.score), Text: text, Note: col.Notes[it.sys][it.seq]})
	}
	return w
}
