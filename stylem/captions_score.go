package stylem

import (
	"fmt"
	"io"
)

// ScoreCaptions scores every caption of r, JSON lines read as
// NewCaptionReader does, against the table, tokenizing captions and
// references with step, and calls fn with each caption's id and scores (one
// per style, reused by the next call) in input order. It returns the
// number of captions; errors name the line.
func (t *Table) ScoreCaptions(r io.Reader, step PTBStep, fn func(id string, s *Scores) error) (int, error) {
	cr := NewCaptionReader(r)
	var scores *Scores
	n := 0
	for {
		c, err := cr.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		refs := make([][]string, len(c.Refs))
		for i, ref := range c.Refs {
			refs[i] = Tokenize(ref, step)
		}
		if scores, err = t.Score(Tokenize(c.Caption, step), refs, scores); err != nil {
			return n, fmt.Errorf("line %d: %w", cr.Line(), err)
		}
		if err := fn(c.ID, scores); err != nil {
			return n, err
		}
		n++
	}
}
