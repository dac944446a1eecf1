package rovist

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/internal/pyunicode"
	"github.com/storyeval/storyeval/limits"
)

// Limits of the GloVe reader when GloVeOptions leaves them zero.
const (
	// defaultGloVeMaxBytes bounds the (decompressed) text read: the largest
	// public GloVe file, glove.840B.300d.txt, is 5.6 GB.
	defaultGloVeMaxBytes int64 = 8 << 30
	// defaultGloVeMaxLineBytes bounds one row (a 300-d row is about 3 KB).
	defaultGloVeMaxLineBytes = 1 << 20
	// DefaultGloVeMaxDim bounds the vector width.
	DefaultGloVeMaxDim = 4096
)

// GloVeUnknown is the word whose vector stands in for a word GloVe lacks.
//
// Matches the reference implementation (usydnlp/rovist
// scripts/visual_grounding_scorer.py get_text_embs), which looks a missing
// noun up as "unk", a word of the GloVe 6B vocabulary.
const GloVeUnknown = "unk"

// GloVeOptions bounds what ReadGloVe accepts. The zero value gives the
// defaults documented on each field.
type GloVeOptions struct {
	// Limits bounds the text read, after decompression (MaxBytes 0:
	// 8 GiB; the largest public GloVe file is 5.6 GB), and one row
	// (MaxLineBytes 0: 1 MiB). Past either, reading fails with a
	// *limits.TooLargeError.
	Limits limits.Limits
	// Dim is the expected vector width; 0 takes it from the first row
	// (at most DefaultGloVeMaxDim).
	Dim int
}

// GloVe holds the word vectors of a GloVe text file that a run needs. It is
// immutable after loading and safe for concurrent use.
type GloVe struct {
	dim  int
	vecs map[string][]float32
}

// LoadGloVe reads a GloVe text file (glove.6B.300d.txt, plain or gzipped:
// the format is sniffed) keeping only the vectors of words and of
// GloVeUnknown; a nil words keeps every vector. The file is streamed: memory
// is spent only on the words kept.
func LoadGloVe(path string, words []string, opts GloVeOptions) (*GloVe, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("GloVe: %w", err)
	}
	defer f.Close()
	return ReadGloVe(f, path, words, opts)
}

// ReadGloVe is LoadGloVe on a reader; name labels errors.
//
// Every row is "word v1 … vD" separated by single spaces. Matches the
// reference implementation (gensim 4.2 KeyedVectors.load_word2vec_format
// after glove2word2vec, as usydnlp/rovist rovist_vg.py init_glove_model
// calls it): trailing white space is stripped, a row of another width is an
// error naming its line, values are parsed as decimal floats rounded to
// float32, and a repeated word keeps its first vector. Non-finite values,
// invalid UTF-8 and a row longer than the limit are errors as well.
func ReadGloVe(r io.Reader, name string, words []string, opts GloVeOptions) (*GloVe, error) {
	maxBytes := opts.Limits.Bytes(defaultGloVeMaxBytes)
	maxLine := opts.Limits.LineBytes(defaultGloVeMaxLineBytes)
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("GloVe %s: %w", name, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	lr := &io.LimitedReader{R: br, N: maxBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, min(1<<16, maxLine+1)), maxLine+1)
	var want map[string]bool
	if words != nil {
		want = make(map[string]bool, len(words)+1)
		for _, w := range words {
			want[w] = true
		}
		want[GloVeUnknown] = true
	}
	g := &GloVe{dim: opts.Dim, vecs: map[string][]float32{}}
	line := 0
	for sc.Scan() {
		line++
		row := sc.Bytes()
		if !utf8.Valid(row) {
			return nil, fmt.Errorf("GloVe %s line %d: not valid UTF-8", name, line)
		}
		row = bytes.TrimRightFunc(row, pyunicode.IsSpace)
		width := bytes.Count(row, []byte{' '})
		if g.dim == 0 {
			if width < 1 || width > DefaultGloVeMaxDim {
				return nil, fmt.Errorf("GloVe %s line %d: %d values in the first row (want 1 to %d)", name, line, width, DefaultGloVeMaxDim)
			}
			g.dim = width
		}
		if width != g.dim {
			return nil, fmt.Errorf("GloVe %s line %d: %d values, want %d (is this really the GloVe text format?)", name, line, width, g.dim)
		}
		sp := bytes.IndexByte(row, ' ')
		word := string(row[:sp])
		if want != nil && !want[word] {
			continue
		}
		if _, dup := g.vecs[word]; dup {
			continue
		}
		vec := make([]float32, g.dim)
		rest := string(row[sp+1:])
		for i := range vec {
			field, tail, _ := strings.Cut(rest, " ")
			rest = tail
			// Parsed as a double, then rounded to float32: numpy's
			// float32(str) as gensim calls it.
			v, err := strconv.ParseFloat(field, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.IsInf(float64(float32(v)), 0) {
				return nil, fmt.Errorf("GloVe %s line %d: value %d of %q is %q, not a finite number", name, line, i+1, word, field)
			}
			vec[i] = float32(v)
		}
		g.vecs[word] = vec
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &limits.TooLargeError{Name: fmt.Sprintf("GloVe %s line %d", name, line+1), Limit: int64(maxLine), Line: true}
		}
		return nil, fmt.Errorf("GloVe %s: %w", name, err)
	}
	if lr.N <= 0 {
		return nil, &limits.TooLargeError{Name: "GloVe " + name, Limit: maxBytes}
	}
	if line == 0 {
		return nil, fmt.Errorf("GloVe %s: no vectors", name)
	}
	return g, nil
}

// Dim returns the vector width.
func (g *GloVe) Dim() int { return g.dim }

// Len returns the number of vectors kept.
func (g *GloVe) Len() int { return len(g.vecs) }

// Vector returns the vector of word (case-sensitive, as the reference looks
// it up) and whether GloVe has it. The slice must not be modified.
func (g *GloVe) Vector(word string) ([]float32, bool) {
	v, ok := g.vecs[word]
	return v, ok
}

// lookup returns the vector of word, or GloVeUnknown's when GloVe lacks it.
func (g *GloVe) lookup(word string) ([]float32, bool, error) {
	if v, ok := g.vecs[word]; ok {
		return v, true, nil
	}
	if v, ok := g.vecs[GloVeUnknown]; ok {
		return v, false, nil
	}
	return nil, false, fmt.Errorf("GloVe has neither %q nor the fallback %q", word, GloVeUnknown)
}
