package stylem

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"

	"github.com/storyeval/storyeval/internal/jsonfloat"
)

// CaptionScores are the scores of a file of captions under every style of
// a table, in input order: what the storyeval stylem score command prints.
type CaptionScores struct {
	// Styles are the table's styles, in table order.
	Styles []string
	// IDs are the captions' ids, in input order.
	IDs []string
	// Scores[i][s] holds caption IDs[i]'s OnlyStyle, OnlyStyleExist and
	// StyleCIDEr under Styles[s], in that order; StyleCIDEr is NaN when
	// the caption has no references.
	Scores [][][3]float64
}

// captionMetrics label the three values of CaptionScores.Scores in the
// JSON and CSV outputs.
var captionMetrics = [3]string{"onlystyle", "onlystyle_exist", "stylecider"}

// ScoreAll scores every caption of r as ScoreCaptions does and returns
// their scores. A file without captions is an error.
func (t *Table) ScoreAll(r io.Reader, step PTBStep) (*CaptionScores, error) {
	out := &CaptionScores{Styles: t.Styles()}
	n, err := t.ScoreCaptions(r, step, func(id string, s *Scores) error {
		row := make([][3]float64, len(out.Styles))
		for i := range row {
			row[i] = [3]float64{s.OnlyStyle[i], s.OnlyStyleExist[i], s.StyleCIDEr[i]}
		}
		out.IDs = append(out.IDs, id)
		out.Scores = append(out.Scores, row)
		return nil
	})
	if err == nil && n == 0 {
		err = errors.New("no captions to score (the file is empty)")
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// WriteCSV writes the scores as CSV: a header id,style,onlystyle,
// onlystyle_exist,stylecider, then one row per caption and style, NaN for
// an undefined score.
func (c *CaptionScores) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := csv.NewWriter(bw)
	if err := cw.Write(append([]string{"id", "style"}, captionMetrics[:]...)); err != nil {
		return err
	}
	for i, id := range c.IDs {
		for s, style := range c.Styles {
			v := c.Scores[i][s]
			if err := cw.Write([]string{id, style, jsonfloat.CSV(v[0]), jsonfloat.CSV(v[1]), jsonfloat.CSV(v[2])}); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteJSON writes the scores as indented JSON {"items": {id: {style:
// {metric: value}}}}, members in input and table order, null for an
// undefined score.
func (c *CaptionScores) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	buf := []byte("{\n  \"items\": {")
	for i, id := range c.IDs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, "\n    "...)
		buf = appendJSONString(buf, id)
		buf = append(buf, ": {"...)
		for s, style := range c.Styles {
			if s > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, "\n      "...)
			buf = appendJSONString(buf, style)
			buf = append(buf, ": {"...)
			for m, name := range captionMetrics {
				if m > 0 {
					buf = append(buf, ", "...)
				}
				buf = appendJSONString(buf, name)
				buf = append(buf, ": "...)
				f, _ := jsonfloat.Float(c.Scores[i][s][m]).MarshalJSON()
				buf = append(buf, f...)
			}
			buf = append(buf, '}')
		}
		buf = append(buf, "\n    }"...)
		if len(buf) > 1<<15 {
			if _, err := bw.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	buf = append(buf, "\n  }\n}\n"...)
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	return bw.Flush()
}

// appendJSONString appends s as a JSON string without HTML escaping, as
// the command's other JSON outputs write strings.
func appendJSONString(buf []byte, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(buf, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}
