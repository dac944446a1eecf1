package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// TestRunMatchesPreStyleM checks the 27 scores the example prints (3
// captions × 3 styles × 3 metrics) bit for bit against the original
// preStyleM code's on the same toy case
// (stylem/testdata/toy_cng_onlystyle_stylecider.json.gz).
func TestRunMatchesPreStyleM(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-corpus", "../../stylem/testdata/toy_corpus.jsonl.gz"}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("../../stylem/testdata/toy_cng_onlystyle_stylecider.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var gold map[string]map[string][]float64
	var raw map[string]json.RawMessage
	if err := json.NewDecoder(zr).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	gold = map[string]map[string][]float64{}
	for col, key := range map[int]string{2: "OnlyStyle_per_style_per_test", 3: "OnlyStyleExist_per_style_per_test", 4: "StyleCIDEr_per_style_per_test"} {
		var v map[string][]float64
		if err := json.Unmarshal(raw[key], &v); err != nil {
			t.Fatal(err)
		}
		gold[strconv.Itoa(col)] = v
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	test := map[string]int{"t1": 0, "t2": 1, "t3": 2}
	checked := 0
	for _, row := range rows[1:] {
		for col := 2; col <= 4; col++ {
			got, err := strconv.ParseFloat(row[col], 64)
			if err != nil {
				t.Fatal(err)
			}
			want := gold[strconv.Itoa(col)][row[1]][test[row[0]]]
			if got != want {
				t.Errorf("%s %s %s = %v, preStyleM %v", row[0], row[1], rows[0][col], got, want)
			}
			checked++
		}
	}
	if checked != 27 {
		t.Errorf("checked %d values, want 27", checked)
	}
}
