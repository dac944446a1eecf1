package rovist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// NounsWriter writes the nouns of many stories as one JSON object {id:
// [[sorted unique nouns of sentence 1], ...]}, a story at a time, so that
// a caller streaming stories keeps none of them: the members come out in
// the order written, in the layout of json.MarshalIndent with a two-space
// indent and without HTML escaping (a noun such as "<3" stays readable).
// It is the output of `storyeval nouns`. Close ends the object.
type NounsWriter struct {
	bw       *bufio.Writer
	n        int
	val, ind bytes.Buffer
	enc      *json.Encoder
}

// NewNounsWriter returns a writer of the object to w.
func NewNounsWriter(w io.Writer) *NounsWriter {
	o := &NounsWriter{bw: bufio.NewWriterSize(w, 1<<16)}
	o.enc = json.NewEncoder(&o.val)
	o.enc.SetEscapeHTML(false)
	return o
}

// Write adds the member id: nouns (Nouns' result for the story id).
func (o *NounsWriter) Write(id string, nouns [][]string) error {
	o.val.Reset()
	if err := o.enc.Encode(id); err != nil {
		return err
	}
	key := bytes.TrimSuffix(o.val.Bytes(), []byte("\n"))
	o.ind.Reset()
	o.ind.WriteString(",\n  ")
	if o.n == 0 {
		o.ind.Reset()
		o.ind.WriteString("{\n  ")
	}
	o.ind.Write(key)
	o.ind.WriteString(": ")
	o.val.Reset()
	if err := o.enc.Encode(nouns); err != nil {
		return err
	}
	if err := json.Indent(&o.ind, bytes.TrimSuffix(o.val.Bytes(), []byte("\n")), "  ", "  "); err != nil {
		return err
	}
	o.n++
	_, err := o.bw.Write(o.ind.Bytes())
	return err
}

// Close ends the object ({} when nothing was written) and flushes it.
func (o *NounsWriter) Close() error {
	if o.n == 0 {
		o.bw.WriteString("{}\n")
	} else {
		o.bw.WriteString("\n}\n")
	}
	return o.bw.Flush()
}
