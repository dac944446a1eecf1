package ngram

import (
	"bytes"
	"encoding/json"
	"io"
)

// WriteJSON writes the corpus in the layout LoadCorpus reads, items in the
// corpus's order: {"cands": {id: text}, "refs": {id: [text, ...]}}, one
// member per line, indented by two spaces per level and by prefix after
// each newline (so that it can be nested in a larger document), with no
// final newline and no HTML escaping. It writes as it goes, so a large
// corpus is not held twice.
func (c *Corpus) WriteJSON(w io.Writer, prefix string) error {
	buf := append([]byte("{\n"+prefix), `  "cands": {`...)
	flush := func() error {
		if len(buf) < 1<<15 {
			return nil
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	members := func(value func(id string)) error {
		for i, id := range c.ids {
			if err := flush(); err != nil {
				return err
			}
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, "\n"+prefix+"    "...)
			buf = appendJSONString(buf, id)
			buf = append(buf, ": "...)
			value(id)
		}
		return nil
	}
	if err := members(func(id string) { buf = appendJSONString(buf, c.cands[id]) }); err != nil {
		return err
	}
	buf = append(buf, "\n"+prefix+"  },\n"+prefix+`  "refs": {`...)
	err := members(func(id string) {
		buf = append(buf, '[')
		for j, r := range c.refs[id] {
			if j > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendJSONString(buf, r)
		}
		buf = append(buf, ']')
	})
	if err != nil {
		return err
	}
	buf = append(buf, "\n"+prefix+"  }\n"+prefix+"}"...)
	_, err = w.Write(buf)
	return err
}

// appendJSONString appends s as a JSON string without HTML escaping.
func appendJSONString(buf []byte, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(buf, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}
