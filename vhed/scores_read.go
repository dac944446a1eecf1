package vhed

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/internal/errtext"
)

// ScoreColumn is one scorer's column of a scores CSV (ReadScores): one
// predicted gap per VHED pair (< 0: story 1 is better, as Pair.Gap) and,
// when the file is keyed by story, the per-story scores the gaps were
// computed from.
type ScoreColumn struct {
	// Name is the column's header.
	Name string
	// Gaps holds one prediction per pair, in the pairs' order; it is an
	// AssessFixedGaps scorer as it stands.
	Gaps []float64
	// Stories holds the per-story scores of a file keyed by story_id and
	// model (higher is better), nil for a file of gaps; it is what
	// AssessErrorCorrelation takes.
	Stories map[StoryKey]float64
}

// ReadScores reads a CSV of scores to assess against pairs and returns one
// ScoreColumn per scorer, in the file's column order. A file with columns
// story_id and model holds one row per story and one column per metric
// (higher is better), turned into gaps by AssessGapsFromKeyedScores; any
// other file holds one row per pair, in the pairs' order, and one column of
// predicted gaps per scorer. Every value must be a finite number. A UTF-8
// byte-order mark is skipped. Errors name the row and column; the caller
// adds the file's name.
func ReadScores(r io.Reader, pairs []Pair) ([]ScoreColumn, error) {
	cr, header, err := readCSVHeader(r)
	if err != nil {
		return nil, err
	}
	idCol, modelCol := -1, -1
	var cols []int
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		header[i] = h
		if seen[h] {
			return nil, fmt.Errorf("column %s appears twice in the header", errtext.Quote(h))
		}
		seen[h] = true
		switch h {
		case "story_id":
			idCol = i
		case "model":
			modelCol = i
		default:
			cols = append(cols, i)
		}
	}
	keyed := idCol >= 0 && modelCol >= 0
	if !keyed {
		// Without both key columns every column is a scorer.
		cols = cols[:0]
		for i := range header {
			cols = append(cols, i)
		}
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("no score columns besides story_id and model")
	}
	values := make([][]float64, len(cols))
	keys := map[StoryKey]int{}
	for row := 2; ; row++ { // row 1 is the header
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if keyed {
			k := recordKey(rec, idCol, modelCol)
			if prev, dup := keys[k]; dup {
				return nil, fmt.Errorf("row %d: story_id %s, model %s already scored in row %d", row, errtext.Quote(k.StoryID), errtext.Quote(k.Model), prev)
			}
			keys[k] = row
		}
		for j, c := range cols {
			field := strings.TrimSpace(rec[c])
			v, err := strconv.ParseFloat(field, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("row %d, column %s: %s is not a finite number", row, errtext.Quote(header[c]), errtext.Quote(field))
			}
			values[j] = append(values[j], v)
		}
	}
	out := make([]ScoreColumn, len(cols))
	for j, c := range cols {
		out[j].Name = header[c]
		if !keyed {
			if len(values[j]) != len(pairs) {
				return nil, fmt.Errorf("%d rows of predicted gaps for %d VHED pairs (a per-story file needs columns story_id and model)", len(values[j]), len(pairs))
			}
			out[j].Gaps = values[j]
			continue
		}
		scores := make(map[StoryKey]float64, len(keys))
		for k, row := range keys {
			scores[k] = values[j][row-2]
		}
		out[j].Stories = scores
		if out[j].Gaps, err = AssessGapsFromKeyedScores(pairs, scores); err != nil {
			return nil, fmt.Errorf("column %s: %w", errtext.Quote(header[c]), err)
		}
	}
	return out, nil
}

// ErrorLabels is one error type's column of an error-labels CSV
// (ReadErrorLabels): true where annotators found the error in the story.
type ErrorLabels struct {
	// Name is the column's header, the error type.
	Name string
	// Labels holds one label per story; it is what AssessErrorCorrelation
	// takes.
	Labels map[StoryKey]bool
}

// ReadErrorLabels reads a CSV of error labels: columns story_id and model,
// then one column per error type holding 0 or 1 (or false/true, as
// strconv.ParseBool), and returns one ErrorLabels per error column in the
// file's order. A UTF-8 byte-order mark is skipped. Errors name the row and
// column; the caller adds the file's name.
func ReadErrorLabels(r io.Reader) ([]ErrorLabels, error) {
	cr, header, err := readCSVHeader(r)
	if err != nil {
		return nil, err
	}
	idCol, modelCol := -1, -1
	var out []ErrorLabels
	var cols []int
	for i, h := range header {
		switch h = strings.TrimSpace(h); h {
		case "story_id":
			idCol = i
		case "model":
			modelCol = i
		default:
			cols = append(cols, i)
			out = append(out, ErrorLabels{h, map[StoryKey]bool{}})
		}
	}
	if idCol < 0 || modelCol < 0 || len(cols) == 0 {
		return nil, fmt.Errorf("want columns story_id, model and at least one error column")
	}
	for row := 2; ; row++ { // row 1 is the header
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		k := recordKey(rec, idCol, modelCol)
		for j, c := range cols {
			v, err := strconv.ParseBool(strings.TrimSpace(rec[c]))
			if err != nil {
				return nil, fmt.Errorf("row %d, column %s: %s is not 0 or 1", row, errtext.Quote(out[j].Name), errtext.Quote(rec[c]))
			}
			if _, dup := out[j].Labels[k]; dup {
				return nil, fmt.Errorf("row %d: story_id %s, model %s labelled twice", row, errtext.Quote(k.StoryID), errtext.Quote(k.Model))
			}
			out[j].Labels[k] = v
		}
	}
	return out, nil
}

// recordKey is the story a keyed CSV row is about.
func recordKey(rec []string, idCol, modelCol int) StoryKey {
	return StoryKey{StoryID: strings.TrimSpace(rec[idCol]), Model: strings.TrimSpace(rec[modelCol])}
}

// readCSVHeader starts reading a CSV, skipping a UTF-8 byte-order mark
// (spreadsheet exports start with one, which would otherwise become part of
// the first column's name), and returns the reader and its header row; an
// input without a header row is an error.
func readCSVHeader(r io.Reader) (*csv.Reader, []string, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("empty CSV: no header row")
	}
	if err != nil {
		return nil, nil, err
	}
	return cr, header, nil
}
