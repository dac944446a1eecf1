// Command ngram scores a caption corpus with the COCO caption toolkit's
// metrics (BLEU-1..4, METEOR, ROUGE-L, CIDEr-D) and NLTK's BLEU in one
// call, ngram.Evaluate, and prints the corpus scores and a CSV row per
// item:
//
//	go run ./examples/ngram
//	go run ./examples/ngram -in corpus.json
//
// The corpus is JSON {"cands": {id: caption}, "refs": {id: [reference,
// ...]}}; the default is the project's 32 golden caption cases
// (ngram/testdata/captions_small.json.gz). Text is PTB-tokenized first, as
// the toolkit does.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/ngram"
)

func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("ngram", flag.ContinueOnError)
	in := fs.String("in", "ngram/testdata/captions_small.json.gz", "corpus JSON (.gz is decompressed)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	data, err := os.ReadFile(*in)
	if err != nil {
		return err
	}
	if strings.HasSuffix(*in, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("%s: %w", *in, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return fmt.Errorf("%s: %w", *in, err)
		}
	}
	raw, err := ngram.ParseCorpus(data)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	ev, err := ngram.Evaluate(raw.Tokenized(), ngram.EvaluateOptions{
		Metrics: append(ngram.DefaultMetrics(), ngram.MetricNLTKBLEU),
	})
	if err != nil {
		return err
	}
	for k, col := range ev.Columns {
		fmt.Fprintf(w, "%-10s %.6f\n", col, ev.Corpus[k])
	}
	fmt.Fprintln(w)
	cw := csv.NewWriter(w)
	cw.Write(append([]string{"id"}, ev.Columns...))
	for i, id := range ev.IDs {
		row := []string{id}
		for _, v := range ev.Items[i] {
			row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}
