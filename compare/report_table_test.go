package compare

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// The Systems table has systems as rows while they are at least as many
// as the metrics, and metrics as rows (systems as columns) when there are
// more metrics: every cell keeps its system and metric either way.
func TestReportSystemsTableOrientation(t *testing.T) {
	s := testSuite(t) // 3 systems: a, b, c
	for _, tc := range []struct {
		metrics []Metric
		corner  string
	}{
		{[]Metric{BLEU(), ROUGEL(), CIDErD()}, "system"},
		{[]Metric{BLEU(), ROUGEL(), CIDErD(), NonRedundancy()}, "metric"},
	} {
		r, err := Compare(t.Context(), s, tc.metrics, Options{Resamples: 20, Rounds: 20})
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := r.WriteHTML(&page); err != nil {
			t.Fatal(err)
		}
		html := page.String()
		start := strings.Index(html, `<table class="grid">`)
		table := html[start : start+strings.Index(html[start:], "</table>")]
		rows := strings.Split(strings.TrimSpace(table), "\n")[1:]
		var header []string
		if tc.corner == "system" {
			header = append([]string{"system"}, r.Summary.Metrics...)
		} else {
			header = append([]string{"metric"}, r.Systems...)
		}
		if want := "<tr><th>" + strings.Join(header, "</th><th>") + "</th></tr>"; rows[0] != want {
			t.Errorf("%d metrics: header %s, want %s", len(tc.metrics), rows[0], want)
		}
		if len(rows) != len(r.Systems)*len(r.Summary.Metrics)/(len(header)-1)+1 {
			t.Errorf("%d metrics: %d rows", len(tc.metrics), len(rows)-1)
		}
		// ROUGE-L of system b, in its row or column.
		st := r.Summary.PerSystem["b"]["ROUGE-L"]
		cell := fmt.Sprintf("%s [%s, %s]", fmtScore(float64(st.Mean)), fmtScore(float64(st.Low)), fmtScore(float64(st.High)))
		row, col := "b", 2 // systems as rows: b's row, ROUGE-L the 2nd metric
		if tc.corner == "metric" {
			row, col = "ROUGE-L", 2 // metrics as rows: ROUGE-L's row, b the 2nd system
		}
		found := false
		for _, line := range rows[1:] {
			if strings.HasPrefix(line, "<tr><th>"+row+"</th>") {
				found = true
				cells := strings.Split(line, "<td")
				if !strings.Contains(cells[col], ">"+cell+"</td>") {
					t.Errorf("%d metrics: row %s cell %d = %q, want %s", len(tc.metrics), row, col, cells[col], cell)
				}
			}
		}
		if !found {
			t.Errorf("%d metrics: no row %s", len(tc.metrics), row)
		}
	}
}
