package compare

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/storyeval/storyeval/internal/atomicfile"
)

// WriteScoresCSV writes scores.csv: a header id,system,<metric>…, then
// one row per sequence (suite order) and system (suite order); a score is
// written in shortest round-trip form, an undefined one as NaN.
func (r *Report) WriteScoresCSV(out io.Writer) error {
	w := csv.NewWriter(out)
	header := []string{"id", "system"}
	for _, c := range r.Columns {
		header = append(header, c.Name)
	}
	if err := w.Write(header); err != nil {
		return err
	}
	for i, seq := range r.Suite.All() {
		for _, sys := range r.Systems {
			row := []string{seq.ID, sys}
			for _, c := range r.Columns {
				row = append(row, formatFloat(c.Scores[sys][i]))
			}
			if err := w.Write(row); err != nil {
				return err
			}
		}
	}
	w.Flush()
	return w.Error()
}

// formatFloat writes x for CSV output: shortest round-trip, "NaN" when
// undefined.
func formatFloat(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// WriteSummaryJSON writes summary.json: the Summary as indented JSON
// (map keys sorted, so the output is deterministic) and a newline.
func (r *Report) WriteSummaryJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r.Summary)
}

// WriteFiles writes scores.csv, summary.json and report.html into dir
// (created). Everything is rendered first and written to temporary files beside
// the targets, which are renamed into place only when all three exist, so a
// failed or interrupted run leaves no half-written output. The three
// renames follow one another: a process killed (SIGKILL, power loss)
// between them leaves the first files new and the others old, each
// complete.
func (r *Report) WriteFiles(dir string) error {
	var scores, summary, report bytes.Buffer
	if err := r.WriteScoresCSV(&scores); err != nil {
		return err
	}
	if err := r.WriteSummaryJSON(&summary); err != nil {
		return err
	}
	if err := r.WriteHTML(&report); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := []struct {
		name string
		data []byte
	}{{"scores.csv", scores.Bytes()}, {"summary.json", summary.Bytes()}, {"report.html", report.Bytes()}}
	// All three are written to temporary files first and renamed only
	// then, so a failure while writing replaces none of them.
	var pending []*atomicfile.File
	defer func() {
		for _, f := range pending {
			f.Abort() // no-op once committed
		}
	}()
	for _, f := range files {
		af, err := atomicfile.Create(filepath.Join(dir, f.name))
		if err != nil {
			return err
		}
		pending = append(pending, af)
		if _, err := af.Write(f.data); err != nil {
			return fmt.Errorf("writing %s: %w", af.Name(), err)
		}
	}
	// Every file reaches the disk before the first rename, so the three
	// renames follow one another without a disk wait between them (a
	// kill during the syncs replaces none of the files).
	for _, af := range pending {
		if err := af.Sync(); err != nil {
			return err
		}
	}
	for _, af := range pending {
		if err := af.Commit(); err != nil {
			return err
		}
	}
	return nil
}
