// Command evalscript shows storyeval embedded in an evaluation script: it
// reads a system's stories, scores each with RoViST-NR and extracts the
// nouns RoViST grounds, and writes one JSON report with the per-story
// results and the system's mean NR with a bootstrap confidence interval —
// the file an experiment log or a dashboard picks up.
//
//	go run ./examples/evalscript -out results.json
//
// The stories are JSON {id: story} (.gz is decompressed); the default is
// 202 VIST test reference stories shipped in rovist/testdata.
package main

import (
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/storyeval/storyeval/correlation"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// storyResult is one story's entry in the report.
type storyResult struct {
	ID string `json:"id"`
	// NR is RoViST-NR, null for a story of one sentence (undefined).
	NR *float64 `json:"nr"`
	// Nouns are RoViST's nouns per sentence.
	Nouns [][]string `json:"nouns"`
}

// report is the JSON the script writes.
type report struct {
	Stories    int           `json:"stories"`
	Undefined  int           `json:"nr_undefined"`
	MeanNR     float64       `json:"mean_nr"`
	MeanNRLow  float64       `json:"mean_nr_low"`
	MeanNRHigh float64       `json:"mean_nr_high"`
	Confidence float64       `json:"confidence"`
	PerStory   []storyResult `json:"per_story"`
}

func run(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("evalscript", flag.ContinueOnError)
	path := fs.String("stories", "rovist/testdata/nouns_stories.json.gz", "JSON {id: story} (.gz is decompressed)")
	outPath := fs.String("out", "", "report file to write (default: standard output)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	stories, err := readStories(*path)
	if err != nil {
		return err
	}
	rep := report{Stories: len(stories), Confidence: correlation.DefaultConfidence}
	var defined []float64
	var nr rovist.NRScorer // reused across stories: its buffers are kept
	for _, st := range stories {
		res, err := nr.Score(st.Text)
		if err != nil {
			return fmt.Errorf("story %q: %w", st.ID, err)
		}
		nouns, err := rovist.Nouns(st.Text)
		if err != nil {
			return fmt.Errorf("story %q: %w", st.ID, err)
		}
		r := storyResult{ID: st.ID, Nouns: nouns}
		if res.Defined {
			r.NR = &res.Score
			defined = append(defined, res.Score)
		} else {
			rep.Undefined++
		}
		rep.PerStory = append(rep.PerStory, r)
	}
	if len(defined) == 0 {
		return fmt.Errorf("%s: no story has a defined NR score", *path)
	}
	iv, err := correlation.MeanInterval(defined, correlation.BootstrapOptions{Seed: 1})
	if err != nil {
		return err
	}
	rep.MeanNR, rep.MeanNRLow, rep.MeanNRHigh = iv.Estimate, iv.Low, iv.High
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if *outPath == "" {
		_, err = stdout.Write(data)
		return err
	}
	return os.WriteFile(*outPath, data, 0o644)
}

// readStories reads every story of a {id: story} file in file order.
func readStories(path string) ([]story.Story, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if in, err = gzip.NewReader(f); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	r := story.NewJSONReader(in, path, story.ReadOptions{})
	var out []story.Story
	for {
		st, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
}

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}
