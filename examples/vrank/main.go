// Command vrank ranks pairs of stories with a Vrank model: for each pair it
// predicts the human ranking gap (rank of story 1 − rank of story 2; lower
// rank is better, so a negative gap means story 1 is the better story).
//
//	go run ./examples/vrank
//
// The default pairs and model are the end-to-end fixture in
// testdata/e2e/vrank: twelve VHED story pairs and a tiny BERT-based Vrank
// with random weights (the gaps demonstrate the pipeline, not story
// quality); -model takes any folder vrank.Load reads, such as one written
// by vrank/train.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/storyeval/storyeval/vrank"
)

func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("vrank", flag.ContinueOnError)
	pairsPath := fs.String("pairs", "testdata/e2e/vrank/pairs.json", `JSON list of {"sent1": story 1, "sent2": story 2}`)
	modelDir := fs.String("model", "testdata/e2e/vrank/model", "Vrank model folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	data, err := os.ReadFile(*pairsPath)
	if err != nil {
		return err
	}
	var pairs []struct {
		Sent1 string `json:"sent1"`
		Sent2 string `json:"sent2"`
	}
	if err := json.Unmarshal(data, &pairs); err != nil {
		return fmt.Errorf("%s: %w", *pairsPath, err)
	}
	m, err := vrank.Load(*modelDir)
	if err != nil {
		return err
	}
	story1, story2 := make([]string, len(pairs)), make([]string, len(pairs))
	for i, p := range pairs {
		story1[i], story2[i] = p.Sent1, p.Sent2
	}
	gaps, err := m.Predict(context.Background(), story1, story2)
	if err != nil {
		return err
	}
	for i, g := range gaps {
		better := "story 2"
		if g < 0 {
			better = "story 1"
		}
		fmt.Fprintf(w, "pair %2d  gap %+.6f  %s ranks better\n", i+1, g, better)
	}
	return nil
}

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}
