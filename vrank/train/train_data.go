package train

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// MaxPairsCSVBytes bounds what ReadPairsCSV reads (VHED's CSV files
// are a few megabytes).
const MaxPairsCSVBytes = 256 << 20

// ReadPairsCSV reads training pairs from a CSV with a header row naming
// at least the VHED columns sent1, sent2 and label (the gap: average rank of
// story 1 minus that of story 2); other columns are ignored. Errors name the
// row and column of a bad value. This is the minimal reader training needs;
// the VHED assessments have their own full loader.
func ReadPairsCSV(r io.Reader) ([]Pair, error) {
	cr := csv.NewReader(io.LimitReader(r, MaxPairsCSVBytes+1))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("vrank: training CSV is empty")
	}
	if err != nil {
		return nil, fmt.Errorf("vrank: training CSV header: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	var missing []string
	for _, name := range []string{"sent1", "sent2", "label"} {
		if _, ok := col[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("vrank: training CSV has no column %s (header: %q)", strings.Join(missing, ", "), header)
	}
	var out []Pair
	var read int64
	for row := 2; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("vrank: training CSV: %w", err)
		}
		for _, f := range rec {
			read += int64(len(f))
		}
		if read > MaxPairsCSVBytes {
			return nil, fmt.Errorf("vrank: training CSV is larger than %d bytes", MaxPairsCSVBytes)
		}
		field := func(name string) (string, error) {
			i := col[name]
			if i >= len(rec) {
				return "", fmt.Errorf("vrank: training CSV row %d has %d fields, no column %q", row, len(rec), name)
			}
			return rec[i], nil
		}
		s1, err := field("sent1")
		if err != nil {
			return nil, err
		}
		s2, err := field("sent2")
		if err != nil {
			return nil, err
		}
		label, err := field("label")
		if err != nil {
			return nil, err
		}
		gap, err := strconv.ParseFloat(strings.TrimSpace(label), 64)
		if err != nil || math.IsNaN(gap) || math.IsInf(gap, 0) {
			return nil, fmt.Errorf("vrank: training CSV row %d, column label: %q is not a finite number", row, label)
		}
		out = append(out, Pair{Story1: s1, Story2: s2, Gap: gap})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("vrank: training CSV has a header but no pairs")
	}
	return out, nil
}

// ReadPairsFile reads training pairs from a CSV file (see
// ReadPairsCSV).
func ReadPairsFile(path string) ([]Pair, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("vrank: %w", err)
	}
	defer f.Close()
	ex, err := ReadPairsCSV(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ex, nil
}
