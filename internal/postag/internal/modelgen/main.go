// Command modelgen converts NLTK's averaged-perceptron model, exported as JSON
// ({"weights": {feature: {tag: weight}}, "tagdict": {word: tag},
// "classes": [tag, ...]}), into the compact gzip encoding that package postag
// embeds (see package apmodel).
//
// Usage, from the repository root:
//
//	go run ./internal/postag/internal/modelgen -in nltk_averaged_perceptron_tagger.json \
//	    -out internal/postag/nltk_english.apm.gz
//
// It refuses any weight that is not an exact multiple of 0.001 and re-reads
// what it wrote to check that every weight decodes to the same float64.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"

	"github.com/storyeval/storyeval/internal/postag/internal/apmodel"
)

type nltkModel struct {
	Weights map[string]map[string]json.Number `json:"weights"`
	TagDict map[string]string                 `json:"tagdict"`
	Classes []string                          `json:"classes"`
}

func main() {
	in := flag.String("in", "", "NLTK model as JSON")
	out := flag.String("out", "nltk_english.apm.gz", "encoded model to write")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "modelgen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var src nltkModel
	if err := dec.Decode(&src); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	m, err := convert(&src)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	var buf bytes.Buffer
	if err := apmodel.Encode(&buf, m); err != nil {
		return err
	}
	back, err := apmodel.Decode(buf.Bytes())
	if err != nil {
		return fmt.Errorf("re-reading the encoded model: %w", err)
	}
	if err := check(&src, back); err != nil {
		return fmt.Errorf("encoded model differs from %s: %w", in, err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d classes, %d tag-dictionary words, %d features, %d bytes\n",
		out, len(back.Classes), len(back.TagDict), len(back.Features), buf.Len())
	return nil
}

func convert(src *nltkModel) (*apmodel.Model, error) {
	classes := append([]string(nil), src.Classes...)
	sort.Strings(classes)
	index := map[string]uint8{}
	for i, c := range classes {
		index[c] = uint8(i)
	}
	m := &apmodel.Model{Classes: classes, TagDict: map[string]uint8{}}
	for w, tag := range src.TagDict {
		c, ok := index[tag]
		if !ok {
			return nil, fmt.Errorf("tagdict word %q has unknown tag %q", w, tag)
		}
		m.TagDict[w] = c
	}
	for key, weights := range src.Weights {
		if len(weights) == 0 {
			continue // contributes nothing to any score
		}
		f := apmodel.Feature{Key: key}
		tags := make([]string, 0, len(weights))
		for tag := range weights {
			tags = append(tags, tag)
		}
		sort.Slice(tags, func(i, j int) bool { return index[tags[i]] < index[tags[j]] })
		for _, tag := range tags {
			c, ok := index[tag]
			if !ok {
				return nil, fmt.Errorf("feature %q has unknown tag %q", key, tag)
			}
			x, err := strconv.ParseFloat(string(weights[tag]), 64)
			if err != nil {
				return nil, fmt.Errorf("feature %q tag %q: %w", key, tag, err)
			}
			milli := math.Round(x * 1000)
			if math.Abs(milli) > math.MaxInt32/2 || milli/1000 != x {
				return nil, fmt.Errorf("feature %q tag %q: weight %v is not a multiple of 0.001", key, tag, x)
			}
			f.Classes = append(f.Classes, c)
			f.Milli = append(f.Milli, int32(milli))
		}
		m.Features = append(m.Features, f)
	}
	return m, nil
}

func check(src *nltkModel, m *apmodel.Model) error {
	n := 0
	for _, f := range m.Features {
		want := src.Weights[f.Key]
		if len(want) != len(f.Classes) {
			return fmt.Errorf("feature %q: %d weights, want %d", f.Key, len(f.Classes), len(want))
		}
		for j, c := range f.Classes {
			x, _ := strconv.ParseFloat(string(want[m.Classes[c]]), 64)
			if got := float64(f.Milli[j]) / 1000; got != x {
				return fmt.Errorf("feature %q tag %q: %v, want %v", f.Key, m.Classes[c], got, x)
			}
		}
		n++
	}
	for _, w := range src.Weights {
		if len(w) > 0 {
			n--
		}
	}
	if n != 0 {
		return fmt.Errorf("feature count differs by %d", n)
	}
	for w, tag := range src.TagDict {
		c, ok := m.TagDict[w]
		if !ok || m.Classes[c] != tag {
			return fmt.Errorf("tagdict word %q", w)
		}
	}
	if len(m.TagDict) != len(src.TagDict) {
		return fmt.Errorf("tagdict has %d words, want %d", len(m.TagDict), len(src.TagDict))
	}
	return nil
}
