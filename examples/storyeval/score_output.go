package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
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
	var temps []string
	defer func() {
		for _, t := range temps {
			os.Remove(t) // no-op once renamed
		}
	}()
	for _, f := range files {
		tmp, err := os.CreateTemp(dir, "."+f.name+".*")
		if err != nil {
			return err
		}
		temps = append(temps, tmp.Name())
		if err := tmp.Chmod(0o644); err != nil { // CreateTemp makes files private
			tmp.Close()
			return err
		}
		_, werr := tmp.Write(f.data)
		cerr := tmp.Close()
		if werr != nil || cerr != nil {
			return fmt.Errorf("writing %s: %v", filepath.Join(dir, f.name), firstErr(werr, cerr))
		}
	}
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.name)); err != nil {
			return err
		}
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
