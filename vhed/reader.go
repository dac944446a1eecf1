package vhed

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/internal/errtext"
	"github.com/storyeval/storyeval/limits"
)

// Reader decodes a VHED CSV one row at a time, so that a large file is
// never held whole: memory is bounded by the longest row plus what the
// caller keeps, and a small table of (story_id, model_base, model_comp)
// keys for the duplicate check.
//
// The input is a header row naming the Columns, then one pair per
// row. Fields may be quoted as RFC 4180 (and pandas) quote them; a UTF-8
// byte order mark is skipped. Every value is checked: an empty story, a
// label, rank or normalised gap that is not a finite number, an agreement
// or order that is not a non-negative whole number, an img_seq without
// ids, a row with the wrong number of fields, a missing or duplicated
// column, a row whose (story_id, model_base, model_comp) repeats an
// earlier row, an input without rows and an input above the size limit
// are errors naming the line and column, with user data quoted and cut to
// 200 bytes. Nothing is dropped.
//
// The label column's sign is checked against the rank columns as rows
// arrive; a file whose rows disagree on it, or a row whose label
// contradicts its own ranks, makes the call that reaches the end of the
// input return an error naming the rows (see LabelSign). A
// Reader is not safe for concurrent use.
type Reader struct {
	cr   *csv.Reader
	col  vhedColumnIndex
	opts ReadOptions
	rows int
	seen map[[3]string]int // row key → its line, for the duplicate check
	sign vhedSignTally
	done bool
	err  error
}

// vhedColumnIndex is the field index of each column, -1 where absent.
type vhedColumnIndex struct {
	sent1, sent2, label, storyID, model1, model2, agreement, imgSeq,
	rank1, rank2, order, rankNorm int
}

// NewReader reads the header row from r and returns a reader of the
// rows after it.
func NewReader(r io.Reader, opts ReadOptions) (*Reader, error) {
	br := bufio.NewReaderSize(limits.NewReader(r, "VHED CSV", opts.Limits.Bytes(defaultMaxBytes)), 64<<10)
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("empty input: no header row")
	}
	if err != nil {
		return nil, vhedCSVError(err)
	}
	col, err := vhedIndexColumns(header, opts)
	if err != nil {
		return nil, err
	}
	vr := &Reader{cr: cr, col: col, opts: opts}
	if !opts.StoriesOnly {
		vr.seen = make(map[[3]string]int)
	}
	return vr, nil
}

// HasRankColumns reports whether the file has avg_rank_base and
// avg_rank_comp, from which Pair.Gap is then computed.
func (r *Reader) HasRankColumns() bool { return r.col.rank1 >= 0 }

// LabelSign returns the sign convention of the label column found in the
// rows read so far; after Next has returned io.EOF it holds for the file.
func (r *Reader) LabelSign() LabelSign {
	if r.opts.StoriesOnly {
		return LabelUnchecked
	}
	s, _ := r.sign.result(r.HasRankColumns())
	return s
}

// Next returns the next pair, or io.EOF after the last one. Any other
// error is final: later calls return it again.
func (r *Reader) Next() (Pair, error) {
	if r.err != nil {
		return Pair{}, r.err
	}
	p, err := r.next()
	if err != nil {
		r.err = err
	}
	return p, err
}

func (r *Reader) next() (Pair, error) {
	rec, err := r.cr.Read()
	if err == io.EOF {
		if r.rows == 0 {
			return Pair{}, errors.New("no rows after the header")
		}
		if !r.opts.StoriesOnly {
			if _, err := r.sign.result(r.HasRankColumns()); err != nil {
				return Pair{}, err
			}
		}
		return Pair{}, io.EOF
	}
	if err != nil {
		return Pair{}, vhedCSVError(err)
	}
	line, _ := r.cr.FieldPos(0)
	p, err := r.parseRow(rec, line)
	if err != nil {
		return Pair{}, err
	}
	r.rows++
	if r.opts.StoriesOnly {
		return p, nil
	}
	key := [3]string{p.StoryID, p.Model1, p.Model2}
	if prev, dup := r.seen[key]; dup {
		return Pair{}, fmt.Errorf("line %d: story_id %s, model_base %s, model_comp %s repeat the row on line %d",
			line, errtext.Quote(p.StoryID), errtext.Quote(p.Model1), errtext.Quote(p.Model2), prev)
	}
	r.seen[key] = line
	if r.HasRankColumns() {
		r.sign.add(p.Label, p.AvgRank1, p.AvgRank2, line)
	}
	return p, nil
}

// vhedCSVError words an error of encoding/csv (which names line and
// column, not the data) or of the size limit.
func vhedCSVError(err error) error {
	var tl *limits.TooLargeError
	if errors.As(err, &tl) {
		return err
	}
	return err
}

// vhedIndexColumns finds each column's field index in the header.
func vhedIndexColumns(header []string, opts ReadOptions) (vhedColumnIndex, error) {
	storiesOnly := opts.StoriesOnly
	at := make(map[string]int, len(header))
	for i, name := range header {
		name = strings.TrimSpace(name)
		if _, dup := at[name]; dup && vhedIsColumn(name) {
			return vhedColumnIndex{}, fmt.Errorf("header: column %q appears twice", name)
		}
		if _, dup := at[name]; !dup {
			at[name] = i
		}
	}
	idx := func(name string) int {
		if i, ok := at[name]; ok {
			return i
		}
		return -1
	}
	c := vhedColumnIndex{
		sent1: idx("sent1"), sent2: idx("sent2"), label: idx("label"), storyID: idx("story_id"),
		model1: idx("model_base"), model2: idx("model_comp"), agreement: idx("agreement"),
		imgSeq: idx("img_seq"), rank1: idx("avg_rank_base"), rank2: idx("avg_rank_comp"),
		order: idx("order"), rankNorm: idx("rank_norm"),
	}
	need := vhedColumns[:]
	if storiesOnly {
		need = need[:2] // sent1, sent2
		if opts.Label {
			need = vhedColumns[:3] // and label
		}
	}
	var missing []string
	for _, name := range need {
		if _, ok := at[name]; !ok && name != "avg_rank_base" && name != "avg_rank_comp" {
			missing = append(missing, name)
		}
	}
	if !storiesOnly && (c.rank1 < 0) != (c.rank2 < 0) {
		// One rank column without the other decides nothing.
		absent := "avg_rank_comp"
		if c.rank1 < 0 {
			absent = "avg_rank_base"
		}
		missing = append(missing, absent)
	}
	if len(missing) > 0 {
		return c, fmt.Errorf("header: missing column(s) %s (need %s)",
			strings.Join(missing, ", "), strings.Join(need, ","))
	}
	return c, nil
}

func vhedIsColumn(name string) bool {
	for _, c := range vhedColumns {
		if c == name {
			return true
		}
	}
	return false
}

// parseRow converts one record; line is its first line in the file.
func (r *Reader) parseRow(rec []string, line int) (Pair, error) {
	p := Pair{Line: line, AvgRank1: math.NaN(), AvgRank2: math.NaN()}
	bad := func(name, why string) error {
		return fmt.Errorf("line %d, column %s: %s", line, name, why)
	}
	text := func(i int, name string) (string, error) {
		s := rec[i]
		if strings.TrimSpace(s) == "" {
			return "", bad(name, "empty story")
		}
		return s, nil
	}
	num := func(i int, name string) (float64, error) {
		s := strings.TrimSpace(rec[i])
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, bad(name, errtext.Quote(s)+" is not a finite number")
		}
		return x, nil
	}
	count := func(i int, name string) (int, error) {
		s := strings.TrimSpace(rec[i])
		// pandas writes an integer column as 5.0 once it has held a NaN.
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || x < 0 || x != math.Trunc(x) || x > math.MaxInt32 {
			return 0, bad(name, errtext.Quote(s)+" is not a non-negative whole number")
		}
		return int(x), nil
	}
	var err error
	if p.Story1, err = text(r.col.sent1, "sent1"); err != nil {
		return p, err
	}
	if p.Story2, err = text(r.col.sent2, "sent2"); err != nil {
		return p, err
	}
	if r.opts.StoriesOnly && !r.opts.Label {
		return p, nil
	}
	if p.Label, err = num(r.col.label, "label"); err != nil {
		return p, err
	}
	if r.opts.StoriesOnly {
		p.Gap = p.Label
		return p, nil
	}
	p.StoryID = strings.TrimSpace(rec[r.col.storyID])
	p.Model1 = strings.TrimSpace(rec[r.col.model1])
	p.Model2 = strings.TrimSpace(rec[r.col.model2])
	p.ImageSeq = strings.TrimSpace(rec[r.col.imgSeq])
	for _, c := range []struct {
		name string
		v    string
	}{{"story_id", p.StoryID}, {"model_base", p.Model1}, {"model_comp", p.Model2}, {"img_seq", p.ImageSeq}} {
		if c.v == "" {
			return p, bad(c.name, "empty value")
		}
	}
	ids, err := ImageIDs(p.ImageSeq)
	if err != nil {
		return p, bad("img_seq", err.Error())
	}
	p.ImageSeqKey = strings.Join(ids, ",")
	if p.Agreement, err = count(r.col.agreement, "agreement"); err != nil {
		return p, err
	}
	if r.HasRankColumns() {
		if p.AvgRank1, err = num(r.col.rank1, "avg_rank_base"); err != nil {
			return p, err
		}
		if p.AvgRank2, err = num(r.col.rank2, "avg_rank_comp"); err != nil {
			return p, err
		}
	}
	if p.Order, err = count(r.col.order, "order"); err != nil {
		return p, err
	}
	if p.RankNorm, err = num(r.col.rankNorm, "rank_norm"); err != nil {
		return p, err
	}
	p.Gap = p.Label
	if r.HasRankColumns() {
		p.Gap = p.AvgRank1 - p.AvgRank2
	}
	return p, nil
}
