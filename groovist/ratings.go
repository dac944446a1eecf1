package groovist

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/storyeval/storyeval/internal/pyunicode"
	"github.com/storyeval/storyeval/internal/wnlemma"
)

//go:embed data/concreteness_ratings.csv.gz
var ratingsGz []byte

// MaxRatingsBytes bounds a ratings file (the Brysbaert file is 0.6 MB).
const MaxRatingsBytes = 64 << 20

// Ratings are word concreteness ratings: GROOViST's cr_dict.
// A Ratings is immutable and safe for concurrent use.
type Ratings struct {
	words map[string]float64
}

var (
	defaultRatingsOnce sync.Once
	defaultRatings     *Ratings
	defaultRatingsErr  error
)

// DefaultRatings returns the concreteness ratings GROOViST ships
// (data/concreteness_ratings.csv: Brysbaert, Warriner & Kuperman 2014,
// 39,954 words, 1 = abstract … 5 = concrete), embedded in this package.
func DefaultRatings() (*Ratings, error) {
	defaultRatingsOnce.Do(func() {
		zr, err := gzip.NewReader(bytes.NewReader(ratingsGz))
		if err != nil {
			defaultRatingsErr = fmt.Errorf("embedded ratings: %w", err)
			return
		}
		defaultRatings, defaultRatingsErr = ReadRatings(zr)
		if defaultRatingsErr != nil {
			defaultRatingsErr = fmt.Errorf("embedded ratings: %w", defaultRatingsErr)
		}
	})
	return defaultRatings, defaultRatingsErr
}

// LoadRatings reads a ratings file (see ReadRatings).
func LoadRatings(path string) (*Ratings, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	defer f.Close()
	r, err := ReadRatings(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// ReadRatings parses ratings as GROOViST's utils.py does: the first line
// (the header, "Word;Conc.M" after a UTF-8 BOM) is skipped; every other line
// is stripped of surrounding whitespace (CRLF included) and split on ';', the
// first field being the word and the second its rating; further fields are
// ignored and a later line for the same word wins. Where the reference
// crashes, ReadRatings returns an error naming the line: a line without ';',
// a rating that is not a finite number. Blank lines, on which the
// reference raises IndexError, are skipped. Input over MaxRatingsBytes is
// refused.
func ReadRatings(r io.Reader) (*Ratings, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxRatingsBytes+1))
	out := &Ratings{words: make(map[string]float64, 40000)}
	total := 0
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadString('\n')
		total += len(line)
		if total > MaxRatingsBytes {
			return nil, fmt.Errorf("ratings: more than %d bytes", MaxRatingsBytes)
		}
		if lineNo > 1 {
			if perr := out.addLine(line, lineNo); perr != nil {
				return nil, perr
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("ratings: %w", err)
		}
	}
	if len(out.words) == 0 {
		return nil, fmt.Errorf("ratings: no rated word after the header line")
	}
	return out, nil
}

func (r *Ratings) addLine(line string, lineNo int) error {
	rec := strings.TrimFunc(line, pyunicode.IsSpace)
	if rec == "" {
		return nil
	}
	fields := strings.Split(rec, ";")
	if len(fields) < 2 {
		return fmt.Errorf("ratings line %d: %q has no ';' between word and rating", lineNo, truncate(rec))
	}
	v, err := parsePythonFloat(fields[1])
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("ratings line %d: rating %q of %q is not a finite number", lineNo, truncate(fields[1]), truncate(fields[0]))
	}
	r.words[fields[0]] = v
	return nil
}

// parsePythonFloat parses what Python's float() accepts for plain decimal
// numbers (surrounding whitespace allowed); hexadecimal forms, which Go
// would accept and Python would not, are refused.
func parsePythonFloat(s string) (float64, error) {
	s = strings.TrimFunc(s, pyunicode.IsSpace)
	if strings.ContainsAny(s, "xXpP") {
		return 0, fmt.Errorf("not a decimal number")
	}
	return strconv.ParseFloat(s, 64)
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Len returns the number of rated words.
func (r *Ratings) Len() int { return len(r.words) }

// Rating returns the rating of word, exactly as written (no case folding).
func (r *Ratings) Rating(word string) (float64, bool) {
	v, ok := r.words[word]
	return v, ok
}

// WordRating is how one word of a noun phrase was rated.
type WordRating struct {
	Word string
	// Lemma is the WordNet noun lemma tried when Word itself is not rated
	// ("" when Word was rated directly).
	Lemma string
	// Rating is the rating used; meaningful only when Found.
	Rating float64
	// Found reports whether Word or its lemma was rated.
	Found bool
}

// Weight returns a noun phrase's concreteness weight as GROOViST's
// get_concreteness_ratings computes it: the phrase is stripped and split on
// single spaces; each word is looked up as written, else as its WordNet noun
// lemma (NLTK's WordNetLemmatizer); the weight is the mean of the ratings
// found, or 1 when none is. Determiners count ("the" is rated 1.43).
// The per-word detail is returned in order.
func (r *Ratings) Weight(np string) (float64, []WordRating, error) {
	lem, err := wnlemma.English()
	if err != nil {
		return 0, nil, err
	}
	words := strings.Split(strings.TrimFunc(np, pyunicode.IsSpace), " ")
	detail := make([]WordRating, len(words))
	sum, cnt := 0.0, 0
	for i, w := range words {
		d := WordRating{Word: w}
		if v, ok := r.words[w]; ok {
			d.Rating, d.Found = v, true
		} else {
			d.Lemma = lem.Lemma(w)
			if v, ok := r.words[d.Lemma]; ok {
				d.Rating, d.Found = v, true
			}
		}
		if d.Found {
			sum += d.Rating // the reference adds in order in float64
			cnt++
		}
		detail[i] = d
	}
	if cnt == 0 {
		return 1, detail, nil
	}
	return sum / float64(cnt), detail, nil
}
