package correlation

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/storyeval/storyeval/internal/jsonfloat"
)

// SummaryReport is a Summary with, when Intervals is set, its bootstrap
// intervals and the options that made them (Resamples, Confidence, Seed):
// what the storyeval correlate command prints.
type SummaryReport struct {
	Summary
	Intervals *SummaryIntervals
	Bootstrap BootstrapOptions
}

// coefficientRow is one coefficient of a SummaryReport as it is written.
type coefficientRow struct {
	name, stat string // output name; JSON key of the statistic
	res        Result
	iv         *Interval // nil without intervals
}

// rows lists r's coefficients in output order; the point-biserial r,
// Pearson's r on 0/1 data, shares Pearson's interval.
func (r SummaryReport) rows() []coefficientRow {
	var iv SummaryIntervals
	if r.Intervals != nil {
		iv = *r.Intervals
	}
	rows := []coefficientRow{{"pearson", "r", r.Pearson, &iv.Pearson}, {"spearman", "rho", r.Spearman, &iv.Spearman},
		{"kendall_b", "tau", r.KendallB, &iv.KendallB}, {"kendall_c", "tau", r.KendallC, &iv.KendallC}}
	if pb := r.PointBiserial; pb != nil {
		rows = append(rows, coefficientRow{"pointbiserial", "r", *pb, &iv.Pearson})
	}
	if r.Intervals == nil {
		for i := range rows {
			rows[i].iv = nil
		}
	}
	return rows
}

// WriteJSON writes r as indented JSON: {"n": …, "pearson": {"r", "p"},
// "spearman": {"rho", "p"}, "kendall_b" and "kendall_c": {"tau", "p"},
// "pointbiserial" when defined and, with intervals, "bootstrap":
// {resamples, confidence, seed, and {low, high, undefined} for each of the
// first four coefficients}}; undefined values are null.
func (r SummaryReport) WriteJSON(w io.Writer) error {
	type interval struct {
		Low       jsonfloat.Float `json:"low"`
		High      jsonfloat.Float `json:"high"`
		Undefined int             `json:"undefined"`
	}
	type bootstrap struct {
		Resamples  int      `json:"resamples"`
		Confidence float64  `json:"confidence"`
		Seed       uint64   `json:"seed"`
		Pearson    interval `json:"pearson"`
		Spearman   interval `json:"spearman"`
		KendallB   interval `json:"kendall_b"`
		KendallC   interval `json:"kendall_c"`
	}
	out := struct {
		N             int              `json:"n"`
		Pearson       coefficientJSON  `json:"pearson"`
		Spearman      coefficientJSON  `json:"spearman"`
		KendallB      coefficientJSON  `json:"kendall_b"`
		KendallC      coefficientJSON  `json:"kendall_c"`
		PointBiserial *coefficientJSON `json:"pointbiserial,omitempty"`
		Bootstrap     *bootstrap       `json:"bootstrap,omitempty"`
	}{N: r.N}
	rows := r.rows()
	for i, dst := range []*coefficientJSON{&out.Pearson, &out.Spearman, &out.KendallB, &out.KendallC} {
		*dst = coefficientJSON(rows[i])
	}
	if len(rows) == 5 {
		out.PointBiserial = (*coefficientJSON)(&rows[4])
	}
	if r.Intervals != nil {
		b := &bootstrap{Resamples: r.Bootstrap.Resamples, Confidence: r.Bootstrap.Confidence, Seed: r.Bootstrap.Seed}
		for i, dst := range []*interval{&b.Pearson, &b.Spearman, &b.KendallB, &b.KendallC} {
			*dst = interval{jsonfloat.Float(rows[i].iv.Low), jsonfloat.Float(rows[i].iv.High), rows[i].iv.Undefined}
		}
		out.Bootstrap = b
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// coefficientJSON marshals a coefficient as {"<stat>": value, "p": p}.
type coefficientJSON coefficientRow

func (c coefficientJSON) MarshalJSON() ([]byte, error) {
	v, _ := jsonfloat.Float(c.res.Statistic).MarshalJSON()
	p, _ := jsonfloat.Float(c.res.P).MarshalJSON()
	return fmt.Appendf(nil, `{%q:%s,"p":%s}`, c.stat, v, p), nil
}

// WriteCSV writes one row per coefficient (header coefficient,n,value,p),
// with intervals adding low,high,undefined,resamples,confidence,seed; the
// point-biserial row carries Pearson's interval. Undefined values are NaN.
func (r SummaryReport) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := []string{"coefficient", "n", "value", "p"}
	if r.Intervals != nil {
		header = append(header, "low", "high", "undefined", "resamples", "confidence", "seed")
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, row := range r.rows() {
		rec := []string{row.name, strconv.Itoa(r.N), jsonfloat.CSV(row.res.Statistic), jsonfloat.CSV(row.res.P)}
		if iv, b := row.iv, r.Bootstrap; iv != nil {
			rec = append(rec, jsonfloat.CSV(iv.Low), jsonfloat.CSV(iv.High), strconv.Itoa(iv.Undefined),
				strconv.Itoa(b.Resamples), jsonfloat.CSV(b.Confidence), strconv.FormatUint(b.Seed, 10))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Write writes r as CSV (WriteCSV) when csv is set, as JSON (WriteJSON)
// otherwise.
func (r SummaryReport) Write(w io.Writer, csv bool) error {
	if csv {
		return r.WriteCSV(w)
	}
	return r.WriteJSON(w)
}
