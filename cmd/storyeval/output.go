package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/internal/gzipbound"
)

// maxInputBytes bounds every input file the command reads, so that a wrong
// path (a model checkpoint, a device) fails fast instead of exhausting memory.
const maxInputBytes = 1 << 30

// Float is compare.Float: a float64 that marshals in shortest round-trip
// form and as null when NaN or infinite, since JSON has no literal for
// them; every command's JSON writes numbers through it.
type Float = compare.Float

// formatFloat writes x for CSV output: shortest round-trip, "NaN" when undefined.
func formatFloat(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// readFile reads a whole input file, refusing files above maxInputBytes.
func readFile(path string) ([]byte, error) {
	if path == "" {
		return nil, fmt.Errorf("no input file given")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if st.Size() > maxInputBytes {
		return nil, fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", path, st.Size(), maxInputBytes)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return buf.Bytes(), nil
}

// gunzipBounded decompresses a .gz input held in memory, within
// maxInputBytes and gzipbound's default ratio of the compressed size, so a
// small decompression bomb fails after a few megabytes.
func gunzipBounded(data []byte) ([]byte, error) {
	zr, err := gzipbound.NewReader(bytes.NewReader(data), gzipbound.Options{Max: maxInputBytes})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// openMaybeGzip opens path, decompressing it when the name ends in .gz
// (bounded as gunzipBounded).
func openMaybeGzip(path string) (io.Reader, func() error, error) {
	if path == "" {
		return nil, nil, fmt.Errorf("no input file given")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, f.Close, nil
	}
	zr, err := gzipbound.NewReader(bufio.NewReaderSize(f, 1<<16), gzipbound.Options{Max: maxInputBytes})
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return zr, f.Close, nil
}

// openBounded opens path as openMaybeGzip does, refusing a regular file
// above maxInputBytes and reading at most maxInputBytes of it (of a .gz
// file's decompressed bytes too).
func openBounded(path string) (io.Reader, func() error, error) {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() > maxInputBytes {
		return nil, nil, fmt.Errorf("%s: %d bytes is larger than the %d-byte limit", path, st.Size(), maxInputBytes)
	}
	in, closeIn, err := openMaybeGzip(path)
	if err != nil {
		return nil, nil, err
	}
	return io.LimitReader(in, maxInputBytes), closeIn, nil
}

// writeJSON writes v as indented JSON followed by a newline. Map keys come
// out sorted, so output is deterministic.
func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Output formats of the scoring subcommands (-format).
const (
	formatJSON = "json"
	formatCSV  = "csv"
)

// formatFlag adds the -format flag every scoring subcommand has.
func formatFlag(fs *flag.FlagSet) *string {
	return fs.String("format", formatJSON, "output format: json, or csv (one row per item in input order)")
}

// checkFormat validates a -format value.
func checkFormat(format string) error {
	if format != formatJSON && format != formatCSV {
		return fmt.Errorf("-format: want json or csv, got %q", format)
	}
	return nil
}

// scoreTable is what a scoring subcommand prints: one row of metric values
// per item, in input order, and for metrics with a corpus-level score the
// corpus row.
type scoreTable struct {
	metrics []string
	corpus  []float64 // one per metric; nil when there is no corpus score
	ids     []string
	items   [][]float64 // items[i][m] is metric m of item ids[i]
	// extraJSON, when set, writes more members of the JSON object (each
	// starting with ",\n  "); CSV output leaves them out.
	extraJSON func(w io.Writer) error
}

// write prints t as JSON ({"corpus": {metric: value}, "items": {id:
// {metric: value}}}, members in input order) or as CSV (header id,metrics…,
// one row per item, then the corpus row with an empty id).
func (t *scoreTable) write(w io.Writer, format string) error {
	tw, err := newTableWriter(w, format, t.metrics, t.corpus)
	if err != nil {
		return err
	}
	for i, id := range t.ids {
		if err := tw.add(id, t.items[i]); err != nil {
			return err
		}
	}
	return tw.close(t.extraJSON)
}

// appendMetrics appends {"metric": value, ...} indented under indent.
func appendMetrics(buf []byte, metrics []string, values []float64, indent string) []byte {
	buf = append(buf, '{')
	for m, name := range metrics {
		if m > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '\n')
		buf = append(buf, indent...)
		buf = append(buf, "  "...)
		buf = appendJSONString(buf, name)
		buf = append(buf, ": "...)
		buf = appendJSONFloat(buf, values[m])
	}
	buf = append(buf, '\n')
	buf = append(buf, indent...)
	return append(buf, '}')
}

// appendJSONFloat appends x as Float marshals it.
func appendJSONFloat(buf []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(buf, "null"...)
	}
	return strconv.AppendFloat(buf, x, 'g', -1, 64)
}

// appendJSONString appends s as a JSON string, escaping as writeJSON does
// (no HTML escaping).
func appendJSONString(buf []byte, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(buf, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}

// parseList reads a comma-separated flag value of numbers with parse;
// what names one ("a number") in the error, which quotes the bad item.
func parseList[T any](s string, parse func(string) (T, error), what string) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not %s", f, what)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseFloat is strconv.ParseFloat for 64 bits, as parseList takes it.
func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
