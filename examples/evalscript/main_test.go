package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func gunzipFile(t *testing.T, path string) *gzip.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

// TestRunReport runs the script into a file and checks the report against
// the references: NR against the scores published for these VIST stories
// (bit for bit; null where the publication omits a one-sentence story),
// the nouns against NLTK 3.8's extraction (the golden file of the first 200
// stories), the mean against the published scores' mean, inside its
// interval.
func TestRunReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results.json")
	if err := run(nil, []string{"-stories", "../../rovist/testdata/nouns_stories.json.gz", "-out", out}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	published := map[string]float64{}
	sc := bufio.NewScanner(gunzipFile(t, "../../rovist/testdata/vist_gt_test_R.csv.gz"))
	for sc.Scan() {
		id, v, _ := strings.Cut(sc.Text(), ",")
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			published[id] = x
		}
	}
	var nounsGold map[string][]struct {
		Nouns []string `json:"nouns_sorted"`
	}
	if err := json.NewDecoder(gunzipFile(t, "../../rovist/testdata/nouns_vist_gt_test_first200.json.gz")).Decode(&nounsGold); err != nil {
		t.Fatal(err)
	}
	sum, n, nounsChecked := 0.0, 0, 0
	for _, r := range rep.PerStory {
		want, ok := published[r.ID]
		switch {
		case ok && r.NR != nil && *r.NR == want:
			sum += want
			n++
		case !ok && r.NR == nil:
		default:
			t.Errorf("story %s: nr %v, published %v (present %v)", r.ID, r.NR, want, ok)
		}
		if gold, ok := nounsGold[r.ID]; ok {
			var wantNouns [][]string
			for _, s := range gold {
				wantNouns = append(wantNouns, append([]string{}, s.Nouns...))
			}
			if !reflect.DeepEqual(r.Nouns, wantNouns) {
				t.Errorf("story %s: nouns %v, NLTK %v", r.ID, r.Nouns, wantNouns)
			}
			nounsChecked++
		}
	}
	if rep.Stories != 202 || n != 198 || rep.Undefined != 4 || nounsChecked != 200 {
		t.Errorf("%d stories, %d scores as published, %d undefined, %d noun lists checked", rep.Stories, n, rep.Undefined, nounsChecked)
	}
	if mean := sum / float64(n); math.Abs(rep.MeanNR-mean) > 1e-15 || !(rep.MeanNRLow < mean && mean < rep.MeanNRHigh) {
		t.Errorf("mean NR %v [%v, %v], published scores' mean %v", rep.MeanNR, rep.MeanNRLow, rep.MeanNRHigh, mean)
	}
}
