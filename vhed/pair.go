package vhed

import (
	"fmt"
	"io"
	"os"

	"github.com/storyeval/storyeval/limits"
)

// defaultMaxBytes is the size limit Reader applies when
// ReadOptions.Limits.MaxBytes is zero. The published VHED file is about
// 15 MB.
const defaultMaxBytes = 1 << 30

// Pair is one row of the VHED CSV: two stories written for the same
// image sequence and how human annotators ranked them.
type Pair struct {
	// Story1 and Story2 are the texts (columns sent1 and sent2).
	Story1, Story2 string
	// Gap is the human ranking gap rank(story 1) − rank(story 2) (lower
	// rank is better, so Gap < 0 means the annotators ranked story 1
	// better), unnormalised. It is AvgRank1 − AvgRank2 when the file has
	// the rank columns, which decide the human order unambiguously;
	// otherwise it is the label column read as avg_rank_base −
	// avg_rank_comp, the convention of the paper's text (§3) and of the
	// dataset README ("difference between the two average rankings").
	Gap float64
	// Label is the label column as written. Its sign convention is checked
	// against the rank columns on load (see LabelSign): the paper's
	// text and the official VHED figure disagree on it.
	Label float64
	// StoryID identifies the ranking task both stories belong to (story_id).
	StoryID string
	// Model1 and Model2 name the systems that wrote story 1 and story 2
	// (model_base and model_comp); human references carry a reference name
	// such as "human" (see IsReferenceModel).
	Model1, Model2 string
	// Agreement is the number of annotators who agree on the pair's order
	// (agreement); the subset Ω^k holds the pairs with Agreement = k
	// (paper §3, "Worker Ranking Analysis").
	Agreement int
	// ImageSeq identifies the image sequence (img_seq), kept as written.
	ImageSeq string
	// ImageSeqKey is ImageSeq parsed into its ids and joined by commas
	// ("[101, 102]" and "['101','102']" are both "101,102"; see
	// ImageIDs); references are matched on it.
	ImageSeqKey string
	// AvgRank1 and AvgRank2 are the stories' average rankings
	// (avg_rank_base, avg_rank_comp); NaN when the file lacks the columns.
	AvgRank1, AvgRank2 float64
	// Order is the column order, the number of rankers of the task.
	Order int
	// RankNorm is the normalised ranking gap (rank_norm), on which the
	// paper analyses accuracy by ranking gap (Table 2, Figure 3).
	RankNorm float64
	// Line is the line of the CSV the row starts on (the header is line 1),
	// for error messages.
	Line int
}

// vhedColumns are the columns a VHED CSV has, in the order of the
// dataset's README. avg_rank_base and avg_rank_comp may be absent together
// (see Pair.Gap).
var vhedColumns = [...]string{
	"sent1", "sent2", "label", "story_id", "model_base", "model_comp",
	"agreement", "img_seq", "avg_rank_base", "avg_rank_comp", "order", "rank_norm",
}

// Columns returns the names of the columns of a VHED CSV, in the order
// of the dataset's README. All are required except the pair avg_rank_base,
// avg_rank_comp, which may be absent together. Other columns (such as a
// pandas index) are ignored, and the order of the columns in a file does
// not matter.
func Columns() []string { return append([]string(nil), vhedColumns[:]...) }

// ReadOptions configures Reader, Read and Load. The
// zero value reads every column with a 1 GiB limit.
type ReadOptions struct {
	// Limits bounds the bytes read (MaxBytes 0: 1 GiB); a larger input
	// fails with a *limits.TooLargeError.
	Limits limits.Limits
	// StoriesOnly reads only sent1 and sent2, as a pair predictor needs:
	// the other columns are neither required nor checked, and rows are not
	// checked for duplicates. The other fields of the pairs are zero.
	StoriesOnly bool
	// Label, with StoriesOnly, also requires the label column and reads it
	// into Pair.Label and Pair.Gap as written, unchecked against the rank
	// columns: the regression target a Vrank trainer fits (vrank/train).
	Label bool
}

// Load reads the VHED CSV at path (see Read). Errors name the
// file.
func Load(path string, opts ReadOptions) ([]Pair, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pairs, _, err := ReadAll(f, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pairs, nil
}

// Read reads a whole VHED CSV from r with a Reader and returns
// its pairs in file order.
func Read(r io.Reader, opts ReadOptions) ([]Pair, error) {
	pairs, _, err := ReadAll(r, opts)
	return pairs, err
}

// ReadAll is Read that also returns the sign convention the
// file's label column follows.
func ReadAll(r io.Reader, opts ReadOptions) ([]Pair, LabelSign, error) {
	vr, err := NewReader(r, opts)
	if err != nil {
		return nil, 0, err
	}
	var pairs []Pair
	for {
		p, err := vr.Next()
		if err == io.EOF {
			return pairs, vr.LabelSign(), nil
		}
		if err != nil {
			return nil, 0, err
		}
		pairs = append(pairs, p)
	}
}
