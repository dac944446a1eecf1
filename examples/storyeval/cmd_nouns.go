package main

import (
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
	)
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if err := requireFlags(fs, "stories"); err != nil {
		return err
	}
	set, err := story.ReadJSON(*storiesPath, story.ReadOptions{})
	if err != nil {
		return err
	}
	ids, texts := set.IDs(), set.Texts()
	out := nounsByStory{ids: ids, nouns: make(map[string][][]string, len(ids))}
	for i, id := range ids {
		nouns, err := rovist.Nouns(texts[i])
		if err != nil {
			return fmt.Errorf("story %q: %w", id, err)
		}
		out.nouns[id] = nouns
	}
	return writeJSON(stdout, out)
}

// nounsByStory marshals as a JSON object whose members keep the input
// file's order, which a Go map would lose.
type nounsByStory struct {
	ids   []string
	nouns map[string][][]string
}

// MarshalJSON implements json.Marshaler.
func (s nounsByStory) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as writeJSON: nouns such as "<3" stay readable
	buf.WriteByte('{')
	for i, id := range s.ids {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(id); err != nil {
			return nil, err
		}
		buf.WriteByte(':')
		if err := enc.Encode(s.nouns[id]); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
