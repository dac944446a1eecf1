package vrank

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vhedSmallPath is a VHED-format file written for these tests: three
// ranking tasks (story_id 100, 200, 300) of a human reference and two
// machine stories each, with a pandas index column in front and img_seq
// lists quoted as pandas writes them.
const vhedSmallPath = "testdata/vhed_small.csv"

func vhedLoadSmall(t testing.TB) []VHEDPair {
	t.Helper()
	pairs, err := VHEDReadFile(vhedSmallPath, VHEDReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return pairs
}

func TestVHEDReadFile(t *testing.T) {
	pairs := vhedLoadSmall(t)
	if len(pairs) != 9 {
		t.Fatalf("read %d pairs, want 9", len(pairs))
	}
	want := VHEDPair{
		Story1: "n o p q r m", Story2: "s t u v w x", Gap: 3.2, StoryID: "300",
		Model1: "modelB", Model2: "human", Agreement: 5, ImageSeq: "[301, 302, 303, 304, 305]",
		AvgRank1: 4.6, AvgRank2: 1.4, Order: 5, RankNorm: 0.64, Line: 9,
	}
	if pairs[7] != want {
		t.Errorf("row 8:\n got %+v\nwant %+v", pairs[7], want)
	}
	if pairs[0].Line != 2 || pairs[0].Gap != -1.2 || pairs[0].Model1 != "human" {
		t.Errorf("row 1: %+v", pairs[0])
	}
}

func TestVHEDDecodeQuotedAndReordered(t *testing.T) {
	// Columns in another order, a BOM, CRLF line ends, a quoted story with
	// a comma, a quote and a line break, and pandas' "5.0" for an integer.
	in := "\ufeffrank_norm,order,avg_rank_comp,avg_rank_base,img_seq,agreement,model_comp,model_base,story_id,label,sent2,sent1\r\n" +
		"0.2,5.0,1.0,2.0,\"[1, 2]\",3,human,m,7,1.0,\"the end , \"\"quoted\"\"\nnext line\",first story\r\n"
	pairs, err := VHEDDecode(strings.NewReader(in), VHEDReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := pairs[0]
	if p.Story1 != "first story" || p.Story2 != "the end , \"quoted\"\nnext line" || p.Order != 5 ||
		p.Agreement != 3 || p.ImageSeq != "[1, 2]" || p.Gap != 1 || p.RankNorm != 0.2 || p.Line != 2 {
		t.Errorf("got %+v", p)
	}
}

func TestVHEDDecodeErrors(t *testing.T) {
	header := strings.Join(vhedColumns[:], ",")
	good := "a b,b c,-1,7,m1,m2,3,s,1,2,5,-0.2"
	cases := []struct {
		name, in string
		want     []string // substrings of the error
	}{
		{"empty file", "", []string{"empty input"}},
		{"header only", header + "\n", []string{"no rows"}},
		{"missing columns", "sent1,sent2,story_id,model_base,model_comp,agreement,img_seq,avg_rank_base,avg_rank_comp,rank_norm\na,b,1,m,n,3,s,1,2,0\n",
			[]string{"missing column(s) label, order"}},
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
			_, err := VHEDDecode(strings.NewReader(c.in), VHEDReadOptions{})
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

func TestVHEDDecodeSizeLimit(t *testing.T) {
	data, err := os.ReadFile(vhedSmallPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := VHEDDecode(bytes.NewReader(data), VHEDReadOptions{MaxBytes: int64(len(data))}); err != nil {
		t.Errorf("file of exactly the limit: %v", err)
	}
	_, err = VHEDDecode(bytes.NewReader(data), VHEDReadOptions{MaxBytes: int64(len(data) - 1)})
	if err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("file one byte over the limit: err = %v", err)
	}
}

func TestVHEDReadFileNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.csv")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := VHEDReadFile(path, VHEDReadOptions{})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want it to name %s", err, path)
	}
	_, err = VHEDReadFile(filepath.Join(t.TempDir(), "absent.csv"), VHEDReadOptions{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: err = %v", err)
	}
}

func TestVHEDColumnsIsACopy(t *testing.T) {
	c := VHEDColumns()
	c[0] = "changed"
	if VHEDColumns()[0] != "sent1" {
		t.Error("VHEDColumns exposes the package's table")
	}
}

func FuzzVHEDDecode(f *testing.F) {
	data, err := os.ReadFile(vhedSmallPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(strings.Join(vhedColumns[:], ",") + "\n\"a\",b,1,2,m,n,3,s,1,2,5,0\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, in []byte) {
		pairs, err := VHEDDecode(bytes.NewReader(in), VHEDReadOptions{MaxBytes: 1 << 16})
		if err != nil {
			if pairs != nil {
				t.Fatal("pairs returned with an error")
			}
			return
		}
		if len(pairs) == 0 {
			t.Fatal("no pairs and no error")
		}
		for _, p := range pairs {
			if strings.TrimSpace(p.Story1) == "" || strings.TrimSpace(p.Story2) == "" || p.Agreement < 0 || p.Order < 0 || p.Line < 2 {
				t.Fatalf("invalid pair accepted: %+v", p)
			}
		}
	})
}
