package vrank

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/storyeval/storyeval/internal/jsonfloat"
)

// Default bounds of a StreamOptions chunk: memory holds one chunk's texts
// and encodings, whatever the size of the input.
const (
	defaultStreamChunk      = 2048
	defaultStreamChunkBytes = 16 << 20
)

// StreamOptions configure WritePredictionsJSON. The zero value predicts
// 2048 pairs at a time.
type StreamOptions struct {
	// Name names the input in errors, e.g. its file name.
	Name string
	// Chunk is the most pairs predicted and written at a time (0: 2048);
	// a chunk also ends once its stories hold 16 MiB of text. A pair's
	// gap does not depend on the pairs batched with it (padding is
	// masked), so the chunk size changes no output bit.
	Chunk int
	// Progress, when set, receives the number of pairs predicted so far.
	Progress func(done int)
}

// prediction is one element of WritePredictionsJSON's array.
type prediction struct {
	Pair int             `json:"pair"`
	Gap  jsonfloat.Float `json:"gap"`
}

// WritePredictionsJSON predicts the ranking gap of every pair that next
// returns, until io.EOF, and writes them to w as one JSON array of
// {"pair": index from 0, "gap": gap (null when undefined)} in input order,
// indented by two spaces, each chunk as soon as it is predicted. Errors
// from next and from prediction name opts.Name and, for the latter, the
// pairs.
func (m *Model) WritePredictionsJSON(ctx context.Context, next func() (story1, story2 string, err error), w io.Writer, opts StreamOptions) error {
	chunk := opts.Chunk
	if chunk <= 0 {
		chunk = defaultStreamChunk
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	s1, s2 := make([]string, 0, chunk), make([]string, 0, chunk)
	n, textBytes := 0, 0
	flush := func() error {
		base := n
		gaps, err := m.PredictWith(ctx, s1, s2, PredictOptions{Progress: func(done, _ int) {
			if opts.Progress != nil {
				opts.Progress(base + done)
			}
		}})
		if err != nil {
			return fmt.Errorf("%s: pairs %d to %d: %w", opts.Name, base+1, base+len(s1), err)
		}
		for i, g := range gaps {
			sep := ",\n  "
			if base+i == 0 {
				sep = "[\n  "
			}
			elem, err := json.MarshalIndent(prediction{Pair: base + i, Gap: jsonfloat.Float(g)}, "  ", "  ")
			if err != nil {
				return err
			}
			bw.WriteString(sep)
			bw.Write(elem)
		}
		n += len(s1)
		clear(s1) // release the texts before the next chunk is read
		clear(s2)
		s1, s2, textBytes = s1[:0], s2[:0], 0
		return bw.Flush()
	}
	for {
		a, b, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", opts.Name, err)
		}
		s1, s2 = append(s1, a), append(s2, b)
		textBytes += len(a) + len(b)
		if len(s1) == chunk || textBytes >= defaultStreamChunkBytes {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if len(s1) > 0 {
		if err := flush(); err != nil {
			return err
		}
	}
	if n == 0 {
		bw.WriteString("[]\n")
	} else {
		bw.WriteString("\n]\n")
	}
	return bw.Flush()
}
