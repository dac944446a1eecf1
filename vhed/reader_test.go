package vhed

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
)

// vhedSmallPath is a VHED-format file written for these tests: three
// ranking tasks (story_id 100, 200, 300) of a human reference and two
// machine stories each, with a pandas index column in front and img_seq
// lists quoted as pandas writes them.
const vhedSmallPath = "testdata/vhed_small.csv"

func vhedLoadSmall(t testing.TB) []Pair {
	t.Helper()
	pairs, err := Load(vhedSmallPath, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return pairs
}

func TestReadFile(t *testing.T) {
	pairs := vhedLoadSmall(t)
	if len(pairs) != 9 {
		t.Fatalf("read %d pairs, want 9", len(pairs))
	}
	// The gap is avg_rank_base − avg_rank_comp in float64 arithmetic.
	diff := func(a, b float64) float64 { return a - b }
	want := Pair{
		Story1: "n o p q r m", Story2: "s t u v w x", Gap: diff(4.6, 1.4), Label: 3.2, StoryID: "300",
		Model1: "modelB", Model2: "human", Agreement: 5, ImageSeq: "[301, 302, 303, 304, 305]",
		ImageSeqKey: "301,302,303,304,305", AvgRank1: 4.6, AvgRank2: 1.4, Order: 5, RankNorm: 0.64, Line: 9,
	}
	if pairs[7] != want {
		t.Errorf("row 8:\n got %+v\nwant %+v", pairs[7], want)
	}
	if pairs[0].Line != 2 || pairs[0].Gap != diff(1, 2.2) || pairs[0].Label != -1.2 || pairs[0].Model1 != "human" {
		t.Errorf("row 1: %+v", pairs[0])
	}
}

func TestDecodeQuotedAndReordered(t *testing.T) {
	// Columns in another order, a BOM, CRLF line ends, a quoted story with
	// a comma, a quote and a line break, and pandas' "5.0" for an integer.
	in := "\ufeffrank_norm,order,avg_rank_comp,avg_rank_base,img_seq,agreement,model_comp,model_base,story_id,label,sent2,sent1\r\n" +
		"0.2,5.0,1.0,2.0,\"[1, 2]\",3,human,m,7,1.0,\"the end , \"\"quoted\"\"\nnext line\",first story\r\n"
	pairs, err := Read(strings.NewReader(in), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := pairs[0]
	if p.Story1 != "first story" || p.Story2 != "the end , \"quoted\"\nnext line" || p.Order != 5 ||
		p.Agreement != 3 || p.ImageSeq != "[1, 2]" || p.Gap != 1 || p.RankNorm != 0.2 || p.Line != 2 {
		t.Errorf("got %+v", p)
	}
}

func TestDecodeErrors(t *testing.T) {
	header := strings.Join(vhedColumns[:], ",")
	good := "a b,b c,-1,7,m1,m2,3,s,1,2,5,-0.2"
	if len(strings.Split(good, ",")) != len(vhedColumns) {
		t.Fatal("test row does not match the header")
	}
	cases := []struct {
		name, in string
		want     []string // substrings of the error
	}{
		{"empty file", "", []string{"empty input"}},
		{"header only", header + "\n", []string{"no rows"}},
		{"missing columns", "sent1,sent2,story_id,model_base,model_comp,agreement,img_seq,avg_rank_base,avg_rank_comp,rank_norm\na,b,1,m,n,3,s,1,2,0\n",
			[]string{"missing column(s) label, order"}},
		{"one rank column", strings.Replace(header, ",avg_rank_comp", "", 1) + "\n", []string{"missing column(s) avg_rank_comp"}},
		{"duplicate row", header + "\n" + good + "\n" + strings.Replace(good, "a b,", "other,", 1) + "\n",
			[]string{"line 3", `story_id "7", model_base "m1", model_comp "m2" repeat the row on line 2`}},
		{"img_seq without ids", header + "\n" + strings.Replace(good, ",s,", ",[],", 1) + "\n", []string{"line 2", "column img_seq", "no ids"}},
		{"img_seq with a bracket inside", header + "\n" + strings.Replace(good, ",s,", ",\"[1, [2]]\",", 1) + "\n", []string{"column img_seq", "id 2"}},
		{"long value quoted and cut", header + "\n" + strings.Replace(good, "-1", strings.Repeat("x", 5000), 1) + "\n",
			[]string{"line 2", "column label", `"` + strings.Repeat("x", 200) + `"… (5000 bytes) is not a finite number`}},
		{"duplicate column", header + ",label\n" + good + ",1\n", []string{`column "label" appears twice`}},
		{"non-numeric label", header + "\n" + good + "\n" + strings.Replace(good, "-1", "better", 1) + "\n",
			[]string{"line 3", "column label", `"better" is not a finite number`}},
		{"NaN label", header + "\n" + strings.Replace(good, "-1", "NaN", 1) + "\n", []string{"line 2", "column label"}},
		{"empty label", header + "\n" + strings.Replace(good, "-1", "", 1) + "\n", []string{"line 2", "column label"}},
		{"fractional agreement", header + "\n" + strings.Replace(good, ",3,", ",3.5,", 1) + "\n",
			[]string{"line 2", "column agreement", "whole number"}},
		{"negative order", header + "\n" + strings.Replace(good, ",5,", ",-5,", 1) + "\n", []string{"column order"}},
		{"bad rank", header + "\n" + strings.Replace(good, ",1,2,", ",x,2,", 1) + "\n", []string{"column avg_rank_base"}},
		{"empty story", header + "\n" + strings.Replace(good, "a b,", " ,", 1) + "\n", []string{"line 2", "column sent1", "empty story"}},
		{"empty model", header + "\n" + strings.Replace(good, ",m2,", ",,", 1) + "\n", []string{"column model_comp", "empty"}},
		{"short row", header + "\n" + good + "\n" + "a,b,1\n", []string{"line 3", "wrong number of fields"}},
		{"bad quote", header + "\n" + "\"a\"b" + good[3:] + "\n", []string{"line 2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.in), ReadOptions{})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestDecodeSizeLimit(t *testing.T) {
	data, err := os.ReadFile(vhedSmallPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bytes.NewReader(data), ReadOptions{Limits: limits.Limits{MaxBytes: int64(len(data))}}); err != nil {
		t.Errorf("file of exactly the limit: %v", err)
	}
	_, err = Read(bytes.NewReader(data), ReadOptions{Limits: limits.Limits{MaxBytes: int64(len(data) - 1)}})
	var tl *limits.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != int64(len(data)-1) {
		t.Errorf("file one byte over the limit: err = %v, want a TooLargeError of %d bytes", err, len(data)-1)
	}
}

func TestReadFileNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.csv")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path, ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want it to name %s", err, path)
	}
	_, err = Load(filepath.Join(t.TempDir(), "absent.csv"), ReadOptions{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: err = %v", err)
	}
}

func TestColumnsIsACopy(t *testing.T) {
	c := Columns()
	c[0] = "changed"
	if Columns()[0] != "sent1" {
		t.Error("Columns exposes the package's table")
	}
}

// FuzzReader feeds arbitrary bytes to the streaming reader, in both
// modes, and checks what it accepts: valid pairs in increasing line order,
// gaps that follow the rank columns, no repeated row key, and the same
// pairs as Read.
func FuzzReader(f *testing.F) {
	data, err := os.ReadFile(vhedSmallPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(strings.Join(vhedColumns[:], ",") + "\n\"a\",b,1,2,m,n,3,s,1,2,5,0\n"))
	f.Add([]byte("sent1,sent2,label,story_id,model_base,model_comp,agreement,img_seq,order,rank_norm\na,b,-1,1,m,n,3,\"['1', '2']\",5,-0.2\n"))
	f.Add([]byte("sent2,sent1\nx,\"y\nz\"\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, storiesOnly := range []bool{false, true} {
			opts := ReadOptions{Limits: limits.Limits{MaxBytes: 1 << 16}, StoriesOnly: storiesOnly}
			r, err := NewReader(bytes.NewReader(in), opts)
			if err != nil {
				continue
			}
			var pairs []Pair
			keys := map[[3]string]bool{}
			for {
				p, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					pairs = nil
					if _, again := r.Next(); again == nil || again == io.EOF {
						t.Fatalf("error %v not repeated", err)
					}
					break
				}
				if strings.TrimSpace(p.Story1) == "" || strings.TrimSpace(p.Story2) == "" || p.Line < 2 ||
					len(pairs) > 0 && p.Line <= pairs[len(pairs)-1].Line {
					t.Fatalf("invalid pair accepted: %+v", p)
				}
				if !storiesOnly {
					k := [3]string{p.StoryID, p.Model1, p.Model2}
					if keys[k] || p.Agreement < 0 || p.Order < 0 || p.ImageSeqKey == "" ||
						r.HasRankColumns() && p.Gap != p.AvgRank1-p.AvgRank2 || !r.HasRankColumns() && p.Gap != p.Label {
						t.Fatalf("invalid pair accepted: %+v", p)
					}
					keys[k] = true
				}
				pairs = append(pairs, p)
			}
			whole, err := Read(bytes.NewReader(in), opts)
			if (err == nil) != (pairs != nil) || len(whole) != len(pairs) {
				t.Fatalf("Read: %d pairs, %v; the reader: %d pairs", len(whole), err, len(pairs))
			}
		}
	})
}

// vhedSmallVariant returns the test file with edit applied to each data
// row's fields (keyed by column name), and the header kept or changed by
// header.
func vhedSmallVariant(t *testing.T, edit func(row int, f map[string]string), drop ...string) string {
	t.Helper()
	data, err := os.ReadFile(vhedSmallPath)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	header := recs[0]
	var keep []int
	for i, h := range header {
		if !slices.Contains(drop, h) {
			keep = append(keep, i)
		}
	}
	for r, rec := range recs {
		f := map[string]string{}
		for i, h := range header {
			f[h] = rec[i]
		}
		if r > 0 && edit != nil {
			edit(r, f)
		}
		out := make([]string, len(keep))
		for j, i := range keep {
			out[j] = f[header[i]]
		}
		w.Write(out)
	}
	w.Flush()
	return buf.String()
}

// negateLabel flips the sign of a label written like "-1.2" or "2.0".
func negateLabel(f map[string]string) {
	if l := f["label"]; strings.HasPrefix(l, "-") {
		f["label"] = l[1:]
	} else if l != "0.0" {
		f["label"] = "-" + l
	}
}

// TestLabelSign covers the four cases of the label's sign check:
// consistent with the rank columns (the test file), reversed throughout
// (the VHED figure's convention: recognised, same gaps), contradictory
// (an error naming the rows) and without rank columns (label read as
// avg_rank_base − avg_rank_comp, unchecked).
func TestLabelSign(t *testing.T) {
	base := vhedLoadSmall(t)
	read := func(in string) ([]Pair, LabelSign, error) {
		return ReadAll(strings.NewReader(in), ReadOptions{})
	}
	_, sign, err := read(vhedSmallVariant(t, nil))
	if err != nil || sign != LabelRank1MinusRank2 {
		t.Errorf("test file: %v, %v; want %v", sign, err, LabelRank1MinusRank2)
	}

	pairs, sign, err := read(vhedSmallVariant(t, func(_ int, f map[string]string) { negateLabel(f) }))
	if err != nil || sign != LabelRank2MinusRank1 {
		t.Fatalf("reversed labels: %v, %v; want %v", sign, err, LabelRank2MinusRank1)
	}
	for i, p := range pairs {
		if p.Gap != base[i].Gap || p.Label != -base[i].Label {
			t.Errorf("reversed, row %d: gap %v label %v; want gap %v label %v", i+1, p.Gap, p.Label, base[i].Gap, -base[i].Label)
		}
	}
	if !strings.Contains(sign.String(), "reversed") {
		t.Errorf("reversed convention described as %q", sign)
	}

	// Rows 2 and 5 (lines 3 and 6) flipped: two rows against seven.
	_, _, err = read(vhedSmallVariant(t, func(r int, f map[string]string) {
		if r == 2 || r == 5 {
			negateLabel(f)
		}
	}))
	for _, w := range []string{"2 row(s), line(s) 3, 6", "other 6 rows", "label = avg_rank_base − avg_rank_comp"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("two reversed rows: err = %v, want it to say %q", err, w)
		}
	}
	// A non-zero label with equal ranks (row 7, line 8) contradicts them
	// whatever the convention.
	_, _, err = read(vhedSmallVariant(t, func(r int, f map[string]string) {
		if r == 7 {
			f["label"] = "0.4"
		}
	}))
	if err == nil || !strings.Contains(err.Error(), "1 row(s), line(s) 8: one is zero and the other is not") {
		t.Errorf("label 0.4 with equal ranks: err = %v", err)
	}

	// Without the rank columns the label decides, read as rank(story 1) −
	// rank(story 2), and the ranks are NaN.
	pairs, sign, err = read(vhedSmallVariant(t, nil, "avg_rank_base", "avg_rank_comp"))
	if err != nil || sign != LabelUnchecked {
		t.Fatalf("no rank columns: %v, %v", sign, err)
	}
	for i, p := range pairs {
		if p.Gap != base[i].Label || !math.IsNaN(p.AvgRank1) || !math.IsNaN(p.AvgRank2) {
			t.Errorf("no rank columns, row %d: %+v", i+1, p)
		}
	}

	_, sign, err = read(vhedSmallVariant(t, func(_ int, f map[string]string) {
		f["label"], f["avg_rank_comp"] = "0", f["avg_rank_base"]
	}))
	if err != nil || sign != LabelAllTies {
		t.Errorf("all ties: %v, %v", sign, err)
	}
}

// TestAssessReversedLabels: a file with the figure's label convention
// assesses exactly as the test file, since the human order comes from the
// ranks.
func TestAssessReversedLabels(t *testing.T) {
	pairs, _, err := ReadAll(strings.NewReader(vhedSmallVariant(t, func(_ int, f map[string]string) { negateLabel(f) })), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := AssessPredictions(pairs, assessSmallRAOverlap, AssessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := AssessPredictions(vhedLoadSmall(t), assessSmallRAOverlap, AssessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// %+v prints NaN as NaN, so equal reports print equal.
	if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
		t.Errorf("reversed labels:\n%s\nwant\n%s", g, w)
	}
}

func TestImageIDs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"[101, 102, 103]", []string{"101", "102", "103"}},
		{"['101', '102', '103']", []string{"101", "102", "103"}},
		{`("101","102")`, []string{"101", "102"}},
		{" 101 102\t103 ", []string{"101", "102", "103"}},
		{"101,102", []string{"101", "102"}},
		{"s1", []string{"s1"}},
	} {
		got, err := ImageIDs(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ImageIDs(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "[]", "[1,,2]", "[1, [2]]", "1, 2 3", "['1', '2]"} {
		if ids, err := ImageIDs(in); err == nil {
			t.Errorf("ImageIDs(%q) = %q, want an error", in, ids)
		}
	}
}

// TestReferencesMatchIDs: references keyed by an img_seq written
// otherwise than in the CSV find their pairs; two keys of one sequence are
// an error.
func TestReferencesMatchIDs(t *testing.T) {
	pairs := vhedLoadSmall(t)
	refs := map[string][]string{}
	for seq, rs := range assessSmallRefs() {
		ids, err := ImageIDs(seq)
		if err != nil {
			t.Fatal(err)
		}
		refs["['"+strings.Join(ids, "','")+"']"] = rs
	}
	got, err := RefAbsentScorer{Metric: assessOverlap{}, References: refs}.ScorePairs(context.Background(), pairs)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range assessSmallRAOverlap {
		if !(got[i] == w || math.IsNaN(got[i]) && math.IsNaN(w)) {
			t.Errorf("pair %d: prediction %v, want %v", i+1, got[i], w)
		}
	}
	refs["101,102,103,104,105"] = []string{"x"}
	_, err = AssessRefScorer{Metric: assessOverlap{}, References: refs}.ScorePairs(context.Background(), pairs)
	if err == nil || !strings.Contains(err.Error(), "name the same image sequence") {
		t.Errorf("two keys of one sequence: err = %v", err)
	}
}

// TestReaderStreams reads the test file row by row: each Next returns
// the next pair, io.EOF ends, and a StoriesOnly reader needs only sent1
// and sent2.
func TestReaderStreams(t *testing.T) {
	want := vhedLoadSmall(t)
	f, err := os.Open(vhedSmallPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewReader(f, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.HasRankColumns() {
		t.Error("rank columns not found")
	}
	for i := 0; ; i++ {
		p, err := r.Next()
		if err == io.EOF {
			if i != len(want) {
				t.Errorf("EOF after %d pairs, want %d", i, len(want))
			}
			break
		}
		if err != nil || p != want[i] {
			t.Fatalf("pair %d: %+v, %v", i, p, err)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next after EOF: %v", err)
	}

	r, err = NewReader(strings.NewReader("\ufeffsent2,x,sent1\nb,,a\n\"d\ne\",1,c\n"), ReadOptions{StoriesOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		p, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p.Story1+"|"+p.Story2)
	}
	if !slices.Equal(got, []string{"a|b", "c|d\ne"}) || r.LabelSign() != LabelUnchecked {
		t.Errorf("stories only: %q, %v", got, r.LabelSign())
	}
	if _, err := NewReader(strings.NewReader("sent1,label\na,1\n"), ReadOptions{StoriesOnly: true}); err == nil ||
		!strings.Contains(err.Error(), "missing column(s) sent2") {
		t.Errorf("stories only without sent2: %v", err)
	}
}

// TestReaderStoriesAndLabel reads the training columns: the label as
// written becomes Gap even where the rank columns say the reverse
// (line 2: label +1 with avg_rank_base 1 < avg_rank_comp 2), other columns
// are neither required nor checked, and a bad label is named.
func TestReaderStoriesAndLabel(t *testing.T) {
	opts := ReadOptions{StoriesOnly: true, Label: true}
	pairs, err := Read(strings.NewReader("label,sent1,avg_rank_base,sent2,avg_rank_comp\n1,a,1,b,2\n-2.5,c,x,d,\n"), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []Pair{{Story1: "a", Story2: "b", Gap: 1, Label: 1}, {Story1: "c", Story2: "d", Gap: -2.5, Label: -2.5}}
	if len(pairs) != len(want) {
		t.Fatalf("%d pairs, want %d", len(pairs), len(want))
	}
	for i, w := range want {
		p := pairs[i]
		if p.Story1 != w.Story1 || p.Story2 != w.Story2 || p.Gap != w.Gap || p.Label != w.Label || p.StoryID != "" {
			t.Errorf("pair %d: %+v, want %+v", i, p, w)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"sent1,sent2\na,b\n", "missing column(s) label"},
		{"sent1,sent2,label\na,b,1\nc,d,worse\n", `line 3, column label: "worse" is not a finite number`},
		{"sent1,sent2,label\na,b,NaN\n", "line 2, column label"},
	} {
		if _, err := Read(strings.NewReader(tc.in), opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.want)
		}
	}
}
