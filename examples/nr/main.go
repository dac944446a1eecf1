// Command nr scores every story of a story file with RoViST-NR
// (non-redundancy: 1 for no repetition), reading the file a batch of
// stories at a time so that a file of any size runs in bounded memory, and
// prints CSV id,nr in the file's order:
//
//	go run ./examples/nr
//	go run ./examples/nr -stories stories.json
//
// The file is JSON {id: story} (.gz is decompressed); the default is 202
// VIST test reference stories shipped in rovist/testdata, whose published
// RoViST-NR scores the example reproduces bit for bit. A story of one
// sentence has no score (NaN), as in the reference.
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
	"strings"

	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("nr", flag.ContinueOnError)
	path := fs.String("stories", "rovist/testdata/nouns_stories.json.gz", "JSON {id: story} (.gz is decompressed)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	f, err := os.Open(*path)
	if err != nil {
		return err
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(*path, ".gz") {
		if in, err = gzip.NewReader(f); err != nil {
			return fmt.Errorf("%s: %w", *path, err)
		}
	}
	out := csv.NewWriter(w)
	out.Write([]string{"id", "nr"})
	r := story.NewJSONReader(in, *path, story.ReadOptions{})
	err = r.EachBatch(story.BatchOptions{}, func(batch []story.Story) error {
		texts := make([]string, len(batch))
		for i, st := range batch {
			texts[i] = st.Text
		}
		// The reference scorer's defaults; the batch is scored in parallel.
		scores, errs := rovist.NonRedundancyAll(texts, rovist.NROptions{})
		for i, st := range batch {
			if errs[i] != nil {
				return fmt.Errorf("story %q: %w", st.ID, errs[i])
			}
			out.Write([]string{st.ID, strconv.FormatFloat(scores[i].Score, 'g', -1, 64)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	out.Flush()
	return out.Error()
}

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}
