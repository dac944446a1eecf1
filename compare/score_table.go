package compare

import (
	"bufio"
	"encoding/csv"
	"io"

	"github.com/storyeval/storyeval/internal/jsonfloat"
)

// ScoreTable is one row of metric values per item, in input order, and,
// for metrics with a corpus-level score, the corpus row: what storyeval's
// per-metric commands print.
type ScoreTable struct {
	Metrics []string
	Corpus  []float64   // one per metric; nil when there is no corpus score
	IDs     []string    // the items' ids
	Items   [][]float64 // Items[i][m] is metric m of item IDs[i]
	// ExtraJSON, when set, writes more members of the JSON object (each
	// starting with ",\n  "); CSV output leaves them out.
	ExtraJSON func(w io.Writer) error
}

// Write prints t as JSON ({"corpus": {metric: value}, "items": {id:
// {metric: value}}}, members in input order, undefined values null) or,
// with csv, as CSV (header id,metrics…, one row per item, then the corpus
// row with an empty id; undefined values NaN).
func (t *ScoreTable) Write(w io.Writer, csv bool) error {
	tw, err := NewTableWriter(w, csv, t.Metrics, t.Corpus)
	if err != nil {
		return err
	}
	for i, id := range t.IDs {
		if err := tw.Add(id, t.Items[i]); err != nil {
			return err
		}
	}
	return tw.Close(t.ExtraJSON)
}

// TableWriter writes a ScoreTable row by row, so that a program can print
// each item's scores as soon as they are computed and keep none of them.
type TableWriter struct {
	bw      *bufio.Writer
	csv     *csv.Writer // nil for JSON
	metrics []string
	corpus  []float64
	rows    int
	buf     []byte
	row     []string
}

// NewTableWriter starts a table on w: the CSV header, or the JSON
// object's opening with the corpus scores (nil when there are none).
func NewTableWriter(w io.Writer, csvFormat bool, metrics []string, corpus []float64) (*TableWriter, error) {
	t := &TableWriter{bw: bufio.NewWriterSize(w, 1<<16), metrics: metrics, corpus: corpus}
	if csvFormat {
		t.csv = csv.NewWriter(t.bw)
		t.row = append(t.row, "id")
		return t, t.csv.Write(append(t.row, metrics...))
	}
	t.buf = append(t.buf, "{\n"...)
	if corpus != nil {
		t.buf = append(t.buf, `  "corpus": `...)
		t.buf = appendMetrics(t.buf, metrics, corpus, "  ")
		t.buf = append(t.buf, ",\n"...)
	}
	t.buf = append(t.buf, `  "items": {`...)
	return t, nil
}

// Add writes one item's row.
func (t *TableWriter) Add(id string, values []float64) error {
	t.rows++
	if t.csv != nil {
		return t.writeCSV(id, values)
	}
	if t.rows > 1 {
		t.buf = append(t.buf, ',')
	}
	t.buf = append(t.buf, "\n    "...)
	t.buf = jsonfloat.AppendString(t.buf, id)
	t.buf = append(t.buf, ": "...)
	t.buf = appendMetrics(t.buf, t.metrics, values, "    ")
	if len(t.buf) > 1<<15 {
		return t.flushBuf()
	}
	return nil
}

func (t *TableWriter) writeCSV(id string, values []float64) error {
	t.row = append(t.row[:0], id)
	for _, v := range values {
		t.row = append(t.row, jsonfloat.CSV(v))
	}
	return t.csv.Write(t.row)
}

func (t *TableWriter) flushBuf() error {
	_, err := t.bw.Write(t.buf)
	t.buf = t.buf[:0]
	return err
}

// Close ends the table (the CSV corpus row, or the JSON object's end, with
// extraJSON's members when it is not nil) and flushes it.
func (t *TableWriter) Close(extraJSON func(w io.Writer) error) error {
	if t.csv != nil {
		if t.corpus != nil {
			if err := t.writeCSV("", t.corpus); err != nil {
				return err
			}
		}
		t.csv.Flush()
		if err := t.csv.Error(); err != nil {
			return err
		}
		return t.bw.Flush()
	}
	if t.rows > 0 {
		t.buf = append(t.buf, "\n  "...)
	}
	t.buf = append(t.buf, '}')
	if extraJSON != nil {
		if err := t.flushBuf(); err != nil {
			return err
		}
		if err := extraJSON(t.bw); err != nil {
			return err
		}
	}
	t.buf = append(t.buf, "\n}\n"...)
	if err := t.flushBuf(); err != nil {
		return err
	}
	return t.bw.Flush()
}

// appendMetrics appends {"metric": value, ...} indented under indent.
func appendMetrics(buf []byte, metrics []string, values []float64, indent string) []byte {
	buf = append(buf, '{')
	for m, name := range metrics {
		if m > 0 {
			buf = append(buf, ',')
		}
		buf = append(append(append(buf, '\n'), indent...), "  "...)
		buf = jsonfloat.AppendString(buf, name)
		buf = jsonfloat.Append(append(buf, ": "...), values[m])
	}
	return append(append(append(buf, '\n'), indent...), '}')
}
