package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/vhed"
	"github.com/storyeval/storyeval/vrank"
)

// vrankPredictChunk and vrankPredictChunkBytes bound what vrank predict
// reads, predicts and writes at a time: at most 2048 pairs and, once a
// chunk holds 16 MiB of story text, no more. Memory holds one chunk's
// texts and encodings, whatever the size of the file. A pair's prediction
// does not depend on the pairs it is batched with (padding is masked), so
// chunking changes no output bit (TestVrankPredictChunked).
const (
	vrankPredictChunk      = 2048
	vrankPredictChunkBytes = 16 << 20
)

// vrankPrediction is one element of vrank predict's output.
type vrankPrediction struct {
	Pair int   `json:"pair"`
	Gap  Float `json:"gap"`
}

func runVrankPredict(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("vrank predict", stderr)
	dir := fs.String("model", "", "trained Vrank model folder (required)")
	csvPath := fs.String("csv", "", "story pairs: a CSV (or .csv.gz) with columns sent1 and sent2, other columns ignored (required)")
	dev := addDeviceFlag(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval vrank predict -model DIR -csv FILE [-device cpu|cuda[:N]]")
		fmt.Fprintln(stderr, "prints the predicted ranking gap of each pair, in input order (negative: story 1 is better),")
		fmt.Fprintln(stderr, "as a JSON array written as the pairs are predicted, chunk by chunk")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *dir == "" || *csvPath == "" {
		fs.Usage()
		return errors.New("give -model and -csv")
	}
	d, err := dev.open()
	if err != nil {
		return err
	}
	defer d.Close()
	in, closeIn, err := openMaybeGzip(*csvPath)
	if err != nil {
		return err
	}
	defer closeIn()
	r, err := vhed.NewReader(in, vhed.ReadOptions{Limits: limits.Limits{MaxBytes: maxInputBytes}, StoriesOnly: true})
	if err != nil {
		return fmt.Errorf("%s: %w", *csvPath, err)
	}
	m, err := vrank.Load(*dir, d.Options)
	if err != nil {
		return err
	}
	defer m.Close()
	ctx, stop := interruptContext()
	defer stop()
	prog := newProgress(stderr, -1, "pairs")
	defer prog.Finish()
	return vrankPredictStream(ctx, m, r, *csvPath, stdout, prog, vrankPredictChunk)
}

// vrankPredictStream predicts the pairs of r in chunks of chunk pairs and
// writes each chunk's results as soon as they are
// known, as the elements of one JSON array laid out as writeJSON lays out
// a []vrankPrediction. Errors name the file.
func vrankPredictStream(ctx context.Context, m *vrank.Model, r *vhed.Reader, path string, stdout io.Writer, prog *progress, chunk int) error {
	w := bufio.NewWriterSize(stdout, 64<<10)
	s1 := make([]string, 0, chunk)
	s2 := make([]string, 0, chunk)
	n, textBytes := 0, 0
	flush := func() error {
		if len(s1) == 0 {
			return nil
		}
		base := n
		gaps, err := m.PredictWith(ctx, s1, s2, vrank.PredictOptions{Progress: func(done, _ int) { prog.Set(base + done) }})
		if err != nil {
			return fmt.Errorf("%s: pairs %d to %d: %w", path, base+1, base+len(s1), err)
		}
		for i, g := range gaps {
			sep := ",\n  "
			if base+i == 0 {
				sep = "[\n  "
			}
			elem, err := json.MarshalIndent(vrankPrediction{Pair: base + i, Gap: Float(g)}, "  ", "  ")
			if err != nil {
				return err
			}
			w.WriteString(sep)
			w.Write(elem)
		}
		n += len(s1)
		clear(s1) // release the texts before the next chunk is read
		clear(s2)
		s1, s2, textBytes = s1[:0], s2[:0], 0
		return w.Flush()
	}
	for {
		p, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		s1, s2 = append(s1, p.Story1), append(s2, p.Story2)
		textBytes += len(p.Story1) + len(p.Story2)
		if len(s1) == chunk || textBytes >= vrankPredictChunkBytes {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	// The reader returns an error rather than EOF for a file without rows,
	// so at least one element was written.
	w.WriteString("\n]\n")
	return w.Flush()
}
