// Package nltkgolden loads the NLTK 3.8 tokenization goldens that the tests
// of the sentence splitter and the word tokenizer share: the VIST and LLaVA
// stories with NLTK's sentences and per-sentence word tokens.
package nltkgolden

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Story is one line of nltk38_tokens_vist.jsonl.gz with its story text.
type Story struct {
	File      string     `json:"file"`
	ID        string     `json:"story_id"`
	Sentences []string   `json:"sentences"`
	Words     [][]string `json:"word_tokens_per_sentence"`
	Text      string     `json:"-"`
}

// ReadGzipJSON decodes the gzipped JSON file dir/name into v.
func ReadGzipJSON(dir, name string, v any) error {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := json.NewDecoder(zr).Decode(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Load returns the golden stories (5,055 VIST test references and 500
// LLaVA stories in the project's copy), each with its text: the story files
// are read from storiesDir, NLTK's outputs (nltk38_tokens_vist.jsonl.gz,
// kept in the repository-root testdata module for its size) from
// tokensDir.
func Load(storiesDir, tokensDir string) ([]Story, error) {
	texts := map[string]map[string]string{}
	for file, name := range map[string]string{
		"vist/gt_test":     "vist_gt_test.json.gz",
		"vist/llava_vc_p3": "vist_llava_first500.json.gz",
	} {
		m := map[string]string{}
		if err := ReadGzipJSON(storiesDir, name, &m); err != nil {
			return nil, err
		}
		texts[file] = m
	}
	f, err := os.Open(filepath.Join(tokensDir, "nltk38_tokens_vist.jsonl.gz"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var out []Story
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var g Story
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return nil, fmt.Errorf("line %d: %w", len(out)+1, err)
		}
		text, ok := texts[g.File][g.ID]
		if !ok {
			return nil, fmt.Errorf("line %d: no story %s in %s", len(out)+1, g.ID, g.File)
		}
		g.Text = text
		out = append(out, g)
	}
	return out, sc.Err()
}
