// Command stylem builds a StyleM table (the contrastive n-gram weights of
// each style) from a small styled-caption corpus and scores captions with
// OnlyStyle, OnlyStyleExist and StyleCIDEr under every style, printing CSV:
//
//	go run ./examples/stylem
//
// The corpus (stylem/testdata/toy_corpus.jsonl.gz: 12 captions in the
// styles Happy, Gloomy and Angry) and the captions to score are the toy
// case on which the original preStyleM code was run; the table is built
// with the simple tokenization that case used.
package main

import (
	"compress/gzip"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/stylem"
)

// captions are the toy case's captions to score, each with its references
// (stylem/testdata/toy_score.jsonl.gz).
var captions = []struct {
	id, caption string
	refs        []string
}{
	{"t1", "what a happy dog", []string{"i love this happy dog so much"}},
	{"t2", "the beach is sad and lonely", []string{"another sad and lonely day at the beach"}},
	{"t3", "stop this loud party", []string{"this party is so loud and annoying", "why is this dog so loud"}},
}

func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("stylem", flag.ContinueOnError)
	corpus := fs.String("corpus", "stylem/testdata/toy_corpus.jsonl.gz", `JSON lines {"style", "caption", "image"}, gzipped`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	f, err := os.Open(*corpus)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", *corpus, err)
	}
	recs, err := stylem.ReadCorpusJSONL(zr, limits.Limits{})
	if err != nil {
		return fmt.Errorf("%s: %w", *corpus, err)
	}
	tab, err := stylem.Build(recs, stylem.BuildOptions{Step: stylem.Simple, StepName: "simple"})
	if err != nil {
		return err
	}
	out := csv.NewWriter(w)
	out.Write([]string{"id", "style", "onlystyle", "onlystyle_exist", "stylecider"})
	var s *stylem.Scores // reused: Score fills it
	for _, c := range captions {
		// Captions and references are tokenized as the table was built.
		refs := make([][]string, len(c.refs))
		for i, r := range c.refs {
			refs[i] = stylem.Tokenize(r, stylem.Simple)
		}
		if s, err = tab.Score(stylem.Tokenize(c.caption, stylem.Simple), refs, s); err != nil {
			return fmt.Errorf("%s: %w", c.id, err)
		}
		for i, style := range tab.Styles() {
			out.Write([]string{c.id, style, format(s.OnlyStyle[i]), format(s.OnlyStyleExist[i]), format(s.StyleCIDEr[i])})
		}
	}
	out.Flush()
	return out.Error()
}

func format(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}
