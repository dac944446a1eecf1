package compare

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
)

//go:embed report.html.tmpl
var reportTemplate string

// reportWorstStories is how many lowest-scoring stories the report lists per
// metric.
const reportWorstStories = 5

// significance is the level below which an adjusted p-value marks a
// difference significant.
const significance = 0.05

// reportData is what report.html.tmpl renders.
type reportData struct {
	Sequences   int
	Systems     []string
	Metrics     []string
	Unavailable []Unavailable
	// Table is the Systems table: systems as rows, or metrics as rows
	// when there are more metrics than systems (12 metric columns do not
	// fit a page; a few system columns do).
	Table      reportGrid
	Degenerate []reportNote
	// Demo maps the columns of demonstration models to their label;
	// Demonstration groups those columns by label for the page's banner.
	Demo          map[string]string
	Demonstration []reportNote
	Corpus        []reportCorpusRow
	Ranking       []reportRanking
	Correction    string
	Pairs         []reportPair
	Plots         []reportPlot
	Human         *reportHuman
	Worst         []reportWorst
	Settings      Settings
	Cache         []string
}

type reportCell struct {
	Text string
	Best bool
}

// reportGrid is a table of cells with a header row and a header column;
// Corner names what the rows are.
type reportGrid struct {
	Corner  string
	Columns []reportHeader
	Rows    []reportGridRow
}

// reportHeader is a row or column name, Demo marking a demonstration
// model's metric.
type reportHeader struct {
	Name string
	Demo bool
}

type reportGridRow struct {
	Header reportHeader
	Cells  []reportCell
}

// systemsTable lays out cells[system][metric] with systems as rows, or
// transposed (metrics as rows) when there are more metrics than systems.
func systemsTable(systems, metrics []string, demo map[string]string, cells [][]reportCell) reportGrid {
	sys := make([]reportHeader, len(systems))
	for i, name := range systems {
		sys[i] = reportHeader{Name: name}
	}
	met := make([]reportHeader, len(metrics))
	for j, name := range metrics {
		met[j] = reportHeader{Name: name, Demo: demo[name] != ""}
	}
	if len(metrics) <= len(systems) {
		g := reportGrid{Corner: "system", Columns: met}
		for i, h := range sys {
			g.Rows = append(g.Rows, reportGridRow{Header: h, Cells: cells[i]})
		}
		return g
	}
	g := reportGrid{Corner: "metric", Columns: sys}
	for j, h := range met {
		row := reportGridRow{Header: h}
		for i := range systems {
			row.Cells = append(row.Cells, cells[i][j])
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

type reportNote struct{ Metric, Text string }

// reportCorpusRow is one metric's corpus-level score per system.
type reportCorpusRow struct {
	Metric string
	Cells  []string
}

// reportRanking is one metric's systems from the highest mean down, each
// step marked significant (">") or not ("≈") by the adjusted p-value of
// the two neighbours' test.
type reportRanking struct {
	Metric     string
	Order      template.HTML
	Degenerate bool
}

// reportPair is one unordered pair of systems on one metric.
type reportPair struct {
	Metric, A, B, Diff, P, PAdjusted string
	Significant                      bool
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
// no scripts, no network) with the system table, the corpus-level scores,
// a ranking of the systems per metric, each pair of systems' test with
// its raw and adjusted p-value, score distributions, the human-rating
// correlations and the worst-scoring stories with their diagnostics.
func (r *Report) WriteHTML(w io.Writer) error {
	sum := r.Summary
	d := reportData{Sequences: sum.Sequences, Systems: r.Systems, Metrics: sum.Metrics, Unavailable: sum.Unavailable, Settings: sum.Settings}
	for _, m := range sum.Metrics {
		if why := sum.Degenerate[m]; why != "" {
			d.Degenerate = append(d.Degenerate, reportNote{m, why})
		}
	}
	d.Demo, d.Demonstration = sum.Demonstration, demonstrationNotes(sum)
	var cells [][]reportCell
	for _, sys := range r.Systems {
		var row []reportCell
		for _, m := range sum.Metrics {
			st := sum.PerSystem[sys][m]
			best := sum.Degenerate[m] == "" && !math.IsNaN(float64(st.Mean))
			for _, other := range r.Systems {
				if float64(sum.PerSystem[other][m].Mean) > float64(st.Mean) {
					best = false
				}
			}
			row = append(row, reportCell{Text: fmt.Sprintf("%s [%s, %s]", fmtScore(float64(st.Mean)), fmtScore(float64(st.Low)), fmtScore(float64(st.High))), Best: best})
		}
		cells = append(cells, row)
	}
	d.Table = systemsTable(r.Systems, sum.Metrics, sum.Demonstration, cells)
	for _, m := range sum.Metrics {
		if c, ok := sum.Corpus[m]; ok {
			row := reportCorpusRow{Metric: m}
			for _, sys := range r.Systems {
				row.Cells = append(row.Cells, fmtScore(float64(c[sys])))
			}
			d.Corpus = append(d.Corpus, row)
		}
	}
	d.Pairs, d.Ranking = r.pairsAndRanking()
	if pc := sum.PairCorrection; pc != nil {
		d.Correction = map[string]string{"holm": "Holm", "BH": "Benjamini–Hochberg", "none": "none"}[pc.Method]
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
		h := &reportHuman{Ratings: sum.Human.Ratings, Williams: unorderedWilliams(sum.Human)}
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
	for _, kind := range []string{ImageEmbeddings, TextEmbeddings} {
		if c, ok := r.Cache[kind]; ok && c.Lookups > 0 {
			d.Cache = append(d.Cache, fmt.Sprintf("%d of %d %s embeddings from the cache", c.Hits, c.Lookups, kind))
		}
	}
	t, err := template.New("report").Parse(reportTemplate)
	if err != nil {
		return err
	}
	return t.Execute(w, d)
}

// pairsAndRanking lists each unordered pair of systems per metric once
// (as the summary's tests are stored: a before b in suite order) with its
// raw and adjusted p-value, and ranks the systems per metric.
func (r *Report) pairsAndRanking() ([]reportPair, []reportRanking) {
	sum := r.Summary
	adjusted := func(i int) float64 {
		if sum.PairCorrection == nil {
			return float64(sum.Pairs[i].P)
		}
		return float64(sum.PairCorrection.P[i])
	}
	var pairs []reportPair
	sig := map[[3]string]bool{}
	for i, t := range sum.Pairs {
		p := adjusted(i)
		s := p < significance
		sig[[3]string{t.Metric, t.A, t.B}], sig[[3]string{t.Metric, t.B, t.A}] = s, s
		pairs = append(pairs, reportPair{Metric: t.Metric, A: t.A, B: t.B, Diff: fmtScore(float64(t.MeanDifference)), P: fmtScore(float64(t.P)), PAdjusted: fmtScore(p), Significant: s})
	}
	var ranking []reportRanking
	for _, m := range sum.Metrics {
		order := slices.Clone(r.Systems)
		mean := func(sys string) float64 {
			v := float64(sum.PerSystem[sys][m].Mean)
			if math.IsNaN(v) {
				return math.Inf(-1)
			}
			return v
		}
		slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(mean(b), mean(a)) })
		rk := reportRanking{Metric: m, Degenerate: sum.Degenerate[m] != ""}
		var b strings.Builder
		for i, sys := range order {
			if i > 0 {
				if sig[[3]string{m, order[i-1], sys}] {
					b.WriteString(" <b>&gt;</b> ")
				} else {
					b.WriteString(" ≈ ")
				}
			}
			b.WriteString(template.HTMLEscapeString(fmt.Sprintf("%s (%s)", sys, fmtScore(float64(sum.PerSystem[sys][m].Mean)))))
		}
		rk.Order = template.HTML(b.String()) //nolint:gosec // escaped names and numbers, and our own marks
		ranking = append(ranking, rk)
	}
	return pairs, ranking
}

// unorderedWilliams keeps one Williams test per unordered pair of
// metrics: the one asking whether the metric with the higher Pearson
// correlation correlates better than the other.
func unorderedWilliams(h *HumanSummary) []WilliamsTest {
	r := map[string]float64{}
	for _, m := range h.Metrics {
		if len(m.Correlations) > 0 {
			r[m.Metric] = float64(m.Correlations[0].Value)
		}
	}
	var out []WilliamsTest
	for _, w := range h.Williams {
		// Of (A, B) and (B, A) keep the one whose A correlates more
		// (the first on a tie or an undefined correlation).
		ra, rb := r[w.A], r[w.B]
		if ra > rb || (!(rb > ra) && slices.IndexFunc(h.Metrics, func(m HumanMetric) bool { return m.Metric == w.A }) < slices.IndexFunc(h.Metrics, func(m HumanMetric) bool { return m.Metric == w.B })) {
			out = append(out, w)
		}
	}
	return out
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

// demonstrationNotes groups the columns of demonstration models by their
// label, in column order: {"RoViST-C, GROOViST", label}.
func demonstrationNotes(sum Summary) []reportNote {
	var out []reportNote
	for _, m := range sum.Metrics {
		label := sum.Demonstration[m]
		if label == "" {
			continue
		}
		i := slices.IndexFunc(out, func(n reportNote) bool { return n.Text == label })
		if i < 0 {
			out = append(out, reportNote{m, label})
		} else {
			out[i].Metric += ", " + m
		}
	}
	return out
}
