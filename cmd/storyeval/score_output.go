package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/internal/atomicfile"
)

// scoresCSV renders scores.csv: a header id,system,<metric>…, then one row
// per sequence (suite order) and system (suite order); an undefined score is
// written as NaN.
func scoresCSV(run *scoreRun) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	header := []string{"id", "system"}
	for _, c := range run.columns {
		header = append(header, c.Name)
	}
	if err := w.Write(header); err != nil {
		return nil, err
	}
	for i, seq := range run.suite.All() {
		for _, sys := range run.systems {
			row := []string{seq.ID, sys}
			for _, c := range run.columns {
				row = append(row, formatFloat(c.Scores[sys][i]))
			}
			if err := w.Write(row); err != nil {
				return nil, err
			}
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// writeScoreOutputs writes scores.csv, summary.json and report.html into
// dir. Everything is rendered first and written to temporary files beside
// the targets, which are renamed into place only when all three exist, so a
// failed or interrupted run leaves no half-written output.
func writeScoreOutputs(dir string, run *scoreRun) error {
	csvData, err := scoresCSV(run)
	if err != nil {
		return err
	}
	var summary bytes.Buffer
	if err := writeJSON(&summary, run.summary); err != nil {
		return err
	}
	report, err := renderScoreReport(run)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := []struct {
		name string
		data []byte
	}{{"scores.csv", csvData}, {"summary.json", summary.Bytes()}, {"report.html", report}}
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
