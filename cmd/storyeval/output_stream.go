package main

import (
	"bufio"
	"encoding/csv"
	"io"
)

// tableWriter writes a score table row by row, so that a command can print
// each item's scores as soon as they are computed and keep none of them:
// the layout is scoreTable's (JSON {"corpus": …, "items": {id: {metric:
// value}}}, or CSV id,metrics… with the corpus row last).
type tableWriter struct {
	bw      *bufio.Writer
	csv     *csv.Writer // nil for JSON
	metrics []string
	corpus  []float64
	rows    int
	buf     []byte
	row     []string
}

// newTableWriter starts a table on w: the CSV header, or the JSON object's
// opening with the corpus scores (nil when there are none).
func newTableWriter(w io.Writer, format string, metrics []string, corpus []float64) (*tableWriter, error) {
	t := &tableWriter{bw: bufio.NewWriterSize(w, 1<<16), metrics: metrics, corpus: corpus}
	if format == formatCSV {
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

// add writes one item's row.
func (t *tableWriter) add(id string, values []float64) error {
	t.rows++
	if t.csv != nil {
		t.row = append(t.row[:0], id)
		for _, v := range values {
			t.row = append(t.row, formatFloat(v))
		}
		return t.csv.Write(t.row)
	}
	if t.rows > 1 {
		t.buf = append(t.buf, ',')
	}
	t.buf = append(t.buf, "\n    "...)
	t.buf = appendJSONString(t.buf, id)
	t.buf = append(t.buf, ": "...)
	t.buf = appendMetrics(t.buf, t.metrics, values, "    ")
	if len(t.buf) > 1<<15 {
		return t.flushBuf()
	}
	return nil
}

func (t *tableWriter) flushBuf() error {
	_, err := t.bw.Write(t.buf)
	t.buf = t.buf[:0]
	return err
}

// close ends the table (the CSV corpus row, or the JSON object's end, with
// extraJSON's members when it is not nil) and flushes it.
func (t *tableWriter) close(extraJSON func(w io.Writer) error) error {
	if t.csv != nil {
		if t.corpus != nil {
			t.row = append(t.row[:0], "")
			for _, v := range t.corpus {
				t.row = append(t.row, formatFloat(v))
			}
			if err := t.csv.Write(t.row); err != nil {
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
