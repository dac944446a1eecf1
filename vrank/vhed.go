// VHED, the VIST Human Evaluation Data of Hsu et al., "Learning to Rank
// Visual Stories From Human Ranking Data" (ACL 2022), and the assessments
// that paper applies to story metrics. The files vhed*.go read the VHED CSV
// (github.com/AcademiaSinicaNLPLab/VHED); assess*.go compute, for any
// scorer — the Vrank model, an n-gram metric from package ngram, RoViST,
// GROOViST or a column of scores read from a file — the story-pair ranking
// accuracy overall, on the agreement subsets Ω^k, per ranking-gap bucket and
// for reference–machine versus machine–machine pairs, the Reference Absent
// algorithm for reference-based metrics, point-biserial correlations and
// bootstrap confidence intervals; plot*.go draws the accuracy figures.
//
// Sign convention, shared with the Vrank model: a ranking gap is
// rank(story 1) − rank(story 2) where a lower rank is better, so a gap < 0
// means story 1 is the better story. The CSV's label column follows it.

package vrank

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// VHEDDefaultMaxBytes is the size limit VHEDDecode applies when
// VHEDReadOptions.MaxBytes is zero. The published VHED file is about 15 MB.
const VHEDDefaultMaxBytes = 1 << 30

// VHEDPair is one row of the VHED CSV: two stories written for the same
// image sequence and how human annotators ranked them.
type VHEDPair struct {
	// Story1 and Story2 are the texts (columns sent1 and sent2).
	Story1, Story2 string
	// Gap is the column label: the difference between the two average
	// rankings, story 1's minus story 2's, without normalisation. Gap < 0
	// means the annotators ranked story 1 better.
	Gap float64
	// StoryID identifies the ranking task both stories belong to (story_id).
	StoryID string
	// Model1 and Model2 name the systems that wrote story 1 and story 2
	// (model_base and model_comp); human references carry a reference name
	// such as "human" (see VHEDIsReferenceModel).
	Model1, Model2 string
	// Agreement is the number of annotators who agree on the pair's order
	// (agreement); the subset Ω^k holds the pairs with Agreement ≥ k.
	Agreement int
	// ImageSeq identifies the image sequence (img_seq), kept as written.
	ImageSeq string
	// AvgRank1 and AvgRank2 are the stories' average rankings
	// (avg_rank_base, avg_rank_comp).
	AvgRank1, AvgRank2 float64
	// Order is the column order, the number of rankers of the task.
	Order int
	// RankNorm is the normalised ranking gap (rank_norm).
	RankNorm float64
	// Line is the line of the CSV the row starts on (the header is line 1),
	// for error messages.
	Line int
}

// vhedColumns are the columns a VHED CSV must have, in the order of the
// dataset's README.
var vhedColumns = [...]string{
	"sent1", "sent2", "label", "story_id", "model_base", "model_comp",
	"agreement", "img_seq", "avg_rank_base", "avg_rank_comp", "order", "rank_norm",
}

// VHEDColumns returns the names of the columns a VHED CSV must have, in the
// order of the dataset's README. Other columns (such as a pandas index) are
// ignored, and the order of the columns in a file does not matter.
func VHEDColumns() []string { return append([]string(nil), vhedColumns[:]...) }

// VHEDReadOptions configures VHEDDecode and VHEDReadFile. The zero value
// applies VHEDDefaultMaxBytes.
type VHEDReadOptions struct {
	// MaxBytes bounds the bytes read; a larger input is an error
	// (0: VHEDDefaultMaxBytes).
	MaxBytes int64
}

// VHEDReadFile reads the VHED CSV at path (see VHEDDecode). Errors name the
// file.
func VHEDReadFile(path string, opts VHEDReadOptions) ([]VHEDPair, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("vrank: VHED: %w", err)
	}
	defer f.Close()
	pairs, err := VHEDDecode(f, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pairs, nil
}

// errVHEDTooLarge marks the input passing its size limit.
var errVHEDTooLarge = errors.New("input larger than the size limit")

// vhedLimitReader returns errVHEDTooLarge once more than n bytes are read,
// so that a too-large file is an error rather than silently truncated.
type vhedLimitReader struct {
	r io.Reader
	n int64
}

func (l *vhedLimitReader) Read(p []byte) (int, error) {
	if l.n < 0 {
		return 0, errVHEDTooLarge
	}
	if int64(len(p)) > l.n+1 {
		p = p[:l.n+1]
	}
	k, err := l.r.Read(p)
	l.n -= int64(k)
	if l.n < 0 {
		return 0, errVHEDTooLarge
	}
	return k, err
}

// VHEDDecode reads a VHED CSV from r as a stream: a header row naming at
// least the VHEDColumns, then one pair per row. Fields may be quoted as
// RFC 4180 (and pandas) quote them; a UTF-8 byte order mark is skipped.
//
// Every value is checked: an empty story, a label, rank or normalised gap
// that is not a finite number, an agreement or order that is not a
// non-negative whole number, a row with the wrong number of fields, a
// missing or duplicated column, an input without rows, and an input above
// the size limit are errors naming the line and column. Nothing is dropped.
func VHEDDecode(r io.Reader, opts VHEDReadOptions) ([]VHEDPair, error) {
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = VHEDDefaultMaxBytes
	}
	br := bufio.NewReader(&vhedLimitReader{r: r, n: limit})
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("vrank: VHED: empty input: no header row")
	}
	if err != nil {
		return nil, vhedCSVError(err, limit)
	}
	col, err := vhedColumnIndex(header)
	if err != nil {
		return nil, err
	}
	var pairs []VHEDPair
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, vhedCSVError(err, limit)
		}
		line, _ := cr.FieldPos(0)
		p, err := vhedParseRow(rec, col, line)
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, p)
	}
	if len(pairs) == 0 {
		return nil, errors.New("vrank: VHED: no rows after the header")
	}
	return pairs, nil
}

// vhedCSVError words an error of encoding/csv (which names line and
// column) or of the size limit.
func vhedCSVError(err error, limit int64) error {
	if errors.Is(err, errVHEDTooLarge) {
		return fmt.Errorf("vrank: VHED: input larger than the %d-byte limit", limit)
	}
	return fmt.Errorf("vrank: VHED: %w", err)
}

// vhedColumnIndex maps each of VHEDColumns to its field index.
func vhedColumnIndex(header []string) (map[string]int, error) {
	col := make(map[string]int, len(vhedColumns))
	for i, name := range header {
		name = strings.TrimSpace(name)
		if _, dup := col[name]; dup && vhedIsColumn(name) {
			return nil, fmt.Errorf("vrank: VHED: header: column %q appears twice", name)
		}
		col[name] = i
	}
	var missing []string
	for _, name := range vhedColumns {
		if _, ok := col[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("vrank: VHED: header: missing column(s) %s (need %s)",
			strings.Join(missing, ", "), strings.Join(vhedColumns[:], ","))
	}
	return col, nil
}

func vhedIsColumn(name string) bool {
	for _, c := range vhedColumns {
		if c == name {
			return true
		}
	}
	return false
}

// vhedParseRow converts one record; line is its first line in the file.
func vhedParseRow(rec []string, col map[string]int, line int) (VHEDPair, error) {
	p := VHEDPair{Line: line}
	field := func(name string) string { return rec[col[name]] }
	bad := func(name, why string) error {
		return fmt.Errorf("vrank: VHED: line %d, column %s: %s", line, name, why)
	}
	text := func(name string) (string, error) {
		s := field(name)
		if strings.TrimSpace(s) == "" {
			return "", bad(name, "empty story")
		}
		return s, nil
	}
	num := func(name string) (float64, error) {
		s := strings.TrimSpace(field(name))
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, bad(name, fmt.Sprintf("%q is not a finite number", s))
		}
		return x, nil
	}
	count := func(name string) (int, error) {
		s := strings.TrimSpace(field(name))
		// pandas writes an integer column as 5.0 once it has held a NaN.
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || x < 0 || x != math.Trunc(x) || x > math.MaxInt32 {
			return 0, bad(name, fmt.Sprintf("%q is not a non-negative whole number", s))
		}
		return int(x), nil
	}
	var err error
	if p.Story1, err = text("sent1"); err != nil {
		return p, err
	}
	if p.Story2, err = text("sent2"); err != nil {
		return p, err
	}
	if p.Gap, err = num("label"); err != nil {
		return p, err
	}
	p.StoryID = strings.TrimSpace(field("story_id"))
	p.Model1 = strings.TrimSpace(field("model_base"))
	p.Model2 = strings.TrimSpace(field("model_comp"))
	p.ImageSeq = strings.TrimSpace(field("img_seq"))
	for _, c := range []struct {
		name string
		v    string
	}{{"story_id", p.StoryID}, {"model_base", p.Model1}, {"model_comp", p.Model2}, {"img_seq", p.ImageSeq}} {
		if c.v == "" {
			return p, bad(c.name, "empty value")
		}
	}
	if p.Agreement, err = count("agreement"); err != nil {
		return p, err
	}
	if p.AvgRank1, err = num("avg_rank_base"); err != nil {
		return p, err
	}
	if p.AvgRank2, err = num("avg_rank_comp"); err != nil {
		return p, err
	}
	if p.Order, err = count("order"); err != nil {
		return p, err
	}
	if p.RankNorm, err = num("rank_norm"); err != nil {
		return p, err
	}
	return p, nil
}
