package compare

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/story"
)

// Ratings maps (sequence id, system) to a human rating.
type Ratings map[[2]string]float64

// OpenRatings reads a human-ratings CSV file (see ReadRatings).
func OpenRatings(path string, s *story.Suite) (Ratings, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadRatings(f, path, s)
}

// maxRatingsBytes bounds a ratings file, so that a wrong path (a model
// checkpoint) fails fast instead of exhausting memory.
const maxRatingsBytes = 1 << 30

// ReadRatings reads human ratings as CSV with a header naming the columns
// id, system and rating (any order, other columns ignored); every row must
// name a sequence and system of the suite s, once, with a finite rating.
// name labels errors (the file's path).
func ReadRatings(r io.Reader, name string, s *story.Suite) (Ratings, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxRatingsBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxRatingsBytes {
		return nil, fmt.Errorf("%s: larger than the %d-byte limit", name, maxRatingsBytes)
	}
	return decodeRatings(data, name, s)
}

// decodeRatings parses ratings CSV data; path labels errors.
func decodeRatings(data []byte, path string, s *story.Suite) (Ratings, error) {
	fail := func(format string, a ...any) error { return fmt.Errorf("%s: %s", path, fmt.Sprintf(format, a...)) }
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, fail("empty file: want a header id,system,rating")
	}
	if err != nil {
		return nil, fail("%v", err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	for _, need := range []string{"id", "system", "rating"} {
		if _, ok := col[need]; !ok {
			return nil, fail("no %q column in the header %q", need, header)
		}
	}
	systems := map[string]bool{}
	for _, sys := range s.Systems() {
		systems[sys] = true
	}
	out := Ratings{}
	for row := 2; ; row++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fail("%v", err)
		}
		if len(rec) != len(header) {
			return nil, fail("row %d has %d fields, the header %d", row, len(rec), len(header))
		}
		id, sys, val := rec[col["id"]], rec[col["system"]], rec[col["rating"]]
		if _, ok := s.Get(id); !ok {
			return nil, fail("row %d: id %q is not in the story set", row, id)
		}
		if !systems[sys] {
			return nil, fail("row %d: system %q is not in the story set", row, sys)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fail("row %d, column rating: %q is not a finite number", row, val)
		}
		key := [2]string{id, sys}
		if _, dup := out[key]; dup {
			return nil, fail("row %d: a second rating for id %q, system %q", row, id, sys)
		}
		out[key] = v
	}
	if len(out) == 0 {
		return nil, fail("no ratings")
	}
	return out, nil
}

// HumanCorrelation is one metric's correlation with the human ratings under
// one coefficient, with its bootstrap interval.
type HumanCorrelation struct {
	Coefficient string `json:"coefficient"`
	Value       Float  `json:"value"`
	P           Float  `json:"p"`
	Low         Float  `json:"ci_low"`
	High        Float  `json:"ci_high"`
}

// HumanMetric is one metric against the human ratings.
type HumanMetric struct {
	Metric       string             `json:"metric"`
	N            int                `json:"n"`
	Correlations []HumanCorrelation `json:"correlations"`
}

// WilliamsTest compares two metrics' Pearson correlations with the ratings.
type WilliamsTest struct {
	A         string `json:"metric_a"`
	B         string `json:"metric_b"`
	N         int    `json:"n"`
	T         Float  `json:"t"`
	P         Float  `json:"p_one_sided"`
	PTwoSided Float  `json:"p_two_sided"`
}

// HumanSummary is the human-rating section of summary.json.
type HumanSummary struct {
	Ratings  int            `json:"ratings"`
	Metrics  []HumanMetric  `json:"metrics"`
	Williams []WilliamsTest `json:"williams"`
}

var humanCoefficients = []struct {
	name string
	coef correlation.Coefficient
}{
	{"pearson", correlation.Pearson},
	{"spearman", correlation.Spearman},
	{"kendall_tau_b", correlation.KendallTauB},
}

// ratingsVector lines up the ratings with a column's rows (sequences in
// suite order, then systems), NaN where a row has no rating.
func ratingsVector(s *story.Suite, systems []string, h Ratings) []float64 {
	var v []float64
	for _, sys := range systems {
		for _, seq := range s.All() {
			r, ok := h[[2]string{seq.ID, sys}]
			if !ok {
				r = math.NaN()
			}
			v = append(v, r)
		}
	}
	return v
}

// columnVector flattens a column in the order of ratingsVector.
func columnVector(col Column, systems []string) []float64 {
	var v []float64
	for _, sys := range systems {
		v = append(v, col.Scores[sys]...)
	}
	return v
}

// correlateWithHumans computes every metric's correlation with the ratings
// (Pearson, Spearman, Kendall τ-b with bootstrap intervals) and the Williams
// test between every two metrics.
func correlateWithHumans(ctx context.Context, s *story.Suite, systems []string, cols []Column, h Ratings, set Settings) (*HumanSummary, error) {
	human := ratingsVector(s, systems, h)
	out := &HumanSummary{Ratings: len(h)}
	for _, col := range cols {
		x, y := definedPairs(columnVector(col, systems), human)
		hm := HumanMetric{Metric: col.Name, N: len(x)}
		for _, c := range humanCoefficients {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			hc := HumanCorrelation{Coefficient: c.name, Value: Float(math.NaN()), P: Float(math.NaN()), Low: Float(math.NaN()), High: Float(math.NaN())}
			if len(x) >= 3 {
				r, err := c.coef(x, y)
				if err != nil {
					return nil, fmt.Errorf("%s of %s with the ratings: %w", c.name, col.Name, err)
				}
				hc.Value, hc.P = Float(r.Statistic), Float(r.P)
				if r.Defined() {
					iv, err := correlation.Bootstrap(x, y, c.coef, correlation.BootstrapOptions{Resamples: set.Resamples, Confidence: set.Confidence, Seed: set.Seed})
					if err != nil {
						return nil, err
					}
					hc.Low, hc.High = Float(iv.Low), Float(iv.High)
				}
			}
			hm.Correlations = append(hm.Correlations, hc)
		}
		out.Metrics = append(out.Metrics, hm)
	}
	for i := range cols {
		for j := range cols {
			if i == j {
				continue
			}
			a, b := columnVector(cols[i], systems), columnVector(cols[j], systems)
			var hs, as, bs []float64
			for k := range human {
				if !math.IsNaN(human[k]) && !math.IsNaN(a[k]) && !math.IsNaN(b[k]) {
					hs, as, bs = append(hs, human[k]), append(as, a[k]), append(bs, b[k])
				}
			}
			w := WilliamsTest{A: cols[i].Name, B: cols[j].Name, N: len(hs), T: Float(math.NaN()), P: Float(math.NaN()), PTwoSided: Float(math.NaN())}
			if len(hs) > 3 {
				if r, err := correlation.Williams(hs, as, bs, correlation.Pearson); err == nil {
					w.T, w.P, w.PTwoSided = Float(r.T), Float(r.P), Float(r.PTwoSided)
				}
				// An undefined correlation (a constant metric) leaves the
				// test undefined: reported as null, not an error.
			}
			out.Williams = append(out.Williams, w)
		}
	}
	return out, nil
}
