// Command clipscore scores image captions with CLIPScore and RefCLIPScore
// (Hessel et al. 2021), as clipscore.py does: each image in a folder is
// paired with its candidate caption (and references) by file name.
//
//	go run ./examples/clipscore
//
// The default data is the end-to-end fixture in testdata/e2e: ten images,
// their captions, and a tiny CLIP with random weights (so the scores
// demonstrate the pipeline, not caption quality); point -model and
// -tokenizer at openai/clip-vit-base-patch32 for real scores.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/groovist"
)

func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("clipscore", flag.ContinueOnError)
	data := fs.String("data", "testdata/e2e/clipscore", "folder with images/, candidates.json {image id: caption} and refs.json {image id: [reference, ...]}")
	model := fs.String("model", "testdata/e2e/clip", "CLIP model folder (config.json, model.safetensors)")
	tokDir := fs.String("tokenizer", "testdata/encoders/fixtures/tokenizers/clip_full", "CLIP tokenizer folder (vocab.json, merges.txt)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	m, err := encoders.LoadCLIP(*model)
	if err != nil {
		return err
	}
	tok, err := tokenize.LoadCLIP(*tokDir, tokenize.CLIPOptions{})
	if err != nil {
		return err
	}
	scorer, err := groovist.NewCLIPScorer(m, tok)
	if err != nil {
		return err
	}
	var cands map[string]string
	var refs map[string][]string
	if err := readJSON(filepath.Join(*data, "candidates.json"), &cands); err != nil {
		return err
	}
	if err := readJSON(filepath.Join(*data, "refs.json"), &refs); err != nil {
		return err
	}
	// Image ids are the file names without extension, as clipscore.py.
	ids, paths, err := groovist.ImageFiles(filepath.Join(*data, "images"))
	if err != nil {
		return err
	}
	items := make([]groovist.Caption, len(ids))
	for i, id := range ids {
		items[i] = groovist.Caption{ID: id, Image: paths[i], Candidate: cands[id], References: refs[id]}
	}
	scores, err := scorer.Score(context.Background(), items)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "image\tCLIPScore\tRefCLIPScore")
	for _, s := range scores {
		fmt.Fprintf(w, "%s\t%.6f\t%.6f\n", s.ID, s.CLIPScore, s.RefCLIPScore)
	}
	return nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}
