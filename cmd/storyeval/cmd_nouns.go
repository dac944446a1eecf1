package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

func init() {
	register(command{
		name:    "nouns",
		summary: "RoViST's nouns per sentence (NLTK sentences, words, POS tags) of each story",
		run:     runNouns,
	})
}

func runNouns(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("nouns", stderr)
	storiesPath := fs.String("stories", "", "JSON file {id: story text} (required)")
	setUsage(fs,
		"usage: storyeval nouns -stories FILE.json",
		"\nPrints {id: [[sorted unique nouns of sentence 1], ...]} in the input's order.",
		streamedNote,
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := requireFlags(fs, "stories"); err != nil {
		return err
	}
	// The stories are tagged a batch at a time, in parallel, and each
	// batch printed before the next is read.
	out := newJSONObjectWriter(stdout)
	err := eachStoryBatch(*storiesPath, func(batch []story.Story) error {
		texts := make([]string, len(batch))
		for i, st := range batch {
			texts[i] = st.Text
		}
		nouns, errs := rovist.NounsAll(texts)
		for i, st := range batch {
			if errs[i] != nil {
				return fmt.Errorf("story %q: %w", st.ID, errs[i])
			}
		}
		for i, st := range batch {
			if err := out.member(st.ID, nouns[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return out.close()
}

// jsonObjectWriter writes a JSON object member by member, in the layout
// writeJSON gives the whole object (two-space indent, no HTML escaping),
// so that members keep their input order and none needs to be kept.
type jsonObjectWriter struct {
	bw      *bufio.Writer
	n       int
	val     bytes.Buffer
	ind     bytes.Buffer
	enc     *json.Encoder
	written bool
}

func newJSONObjectWriter(w io.Writer) *jsonObjectWriter {
	o := &jsonObjectWriter{bw: bufio.NewWriterSize(w, 1<<16)}
	o.enc = json.NewEncoder(&o.val)
	o.enc.SetEscapeHTML(false) // as writeJSON: nouns such as "<3" stay readable
	return o
}

// member writes "key": value.
func (o *jsonObjectWriter) member(key string, v any) error {
	o.val.Reset()
	if err := o.enc.Encode(v); err != nil {
		return err
	}
	o.ind.Reset()
	if err := json.Indent(&o.ind, bytes.TrimSuffix(o.val.Bytes(), []byte("\n")), "  ", "  "); err != nil {
		return err
	}
	if o.n == 0 {
		o.bw.WriteString("{\n  ")
	} else {
		o.bw.WriteString(",\n  ")
	}
	o.n++
	o.bw.Write(appendJSONString(nil, key))
	o.bw.WriteString(": ")
	_, err := o.bw.Write(o.ind.Bytes())
	return err
}

// close ends the object and flushes it.
func (o *jsonObjectWriter) close() error {
	if o.n == 0 {
		o.bw.WriteString("{}\n")
	} else {
		o.bw.WriteString("\n}\n")
	}
	return o.bw.Flush()
}
