package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestRunReproducesPublishedScores compares the example's scores with the
// RoViST-NR scores published for the same VIST test stories
// (akskuchi/dHM-visual-storytelling gt_test_R.csv, which omits the stories
// of one sentence): every published score bit for bit, every omitted story
// NaN.
func TestRunReproducesPublishedScores(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-stories", "../../rovist/testdata/nouns_stories.json.gz"}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("../../rovist/testdata/vist_gt_test_R.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	published := map[string]float64{}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		id, v, _ := strings.Cut(sc.Text(), ",")
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			published[id] = x
		}
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	identical, undefined := 0, 0
	for _, row := range rows[1:] {
		got, err := strconv.ParseFloat(row[1], 64)
		if err != nil {
			t.Fatalf("row %v: %v", row, err)
		}
		want, ok := published[row[0]]
		switch {
		case ok && got == want:
			identical++
		case !ok && math.IsNaN(got):
			undefined++
		default:
			t.Errorf("story %s: %v, published %v (present %v)", row[0], got, want, ok)
		}
	}
	t.Logf("%d stories: %d bit-identical to the published scores, %d undefined as published", len(rows)-1, identical, undefined)
	if len(rows)-1 != 202 || identical != 198 || undefined != 4 {
		t.Errorf("%d stories, %d identical, %d undefined", len(rows)-1, identical, undefined)
	}
}
