package compare_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"testing"

	"github.com/storyeval/storyeval/compare"
)

// ExampleScoreTable writes two items' scores and the corpus row as CSV,
// then as JSON, where an undefined score is null.
func ExampleScoreTable() {
	t := compare.ScoreTable{
		Metrics: []string{"BLEU", "CIDEr"},
		Corpus:  []float64{0.25, 1.5},
		IDs:     []string{"s1", "s2"},
		Items:   [][]float64{{0.5, 2}, {0, math.NaN()}},
	}
	t.Write(os.Stdout, true)
	t.Write(os.Stdout, false)
	// Output:
	// id,BLEU,CIDEr
	// s1,0.5,2
	// s2,0,NaN
	// ,0.25,1.5
	// {
	//   "corpus": {
	//     "BLEU": 0.25,
	//     "CIDEr": 1.5
	//   },
	//   "items": {
	//     "s1": {
	//       "BLEU": 0.5,
	//       "CIDEr": 2
	//     },
	//     "s2": {
	//       "BLEU": 0,
	//       "CIDEr": null
	//     }
	//   }
	// }
}

// TestTableWriterStreams checks an empty table, a table without corpus
// scores, the extra JSON members, ids that need escaping (no HTML
// escaping, as writeJSON), and that a large table reaches w before Close.
func TestTableWriterStreams(t *testing.T) {
	var buf bytes.Buffer
	tw, err := compare.NewTableWriter(&buf, false, []string{"nr"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(nil); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"items\": {}\n}\n"; buf.String() != want {
		t.Errorf("empty table %q, want %q", buf.String(), want)
	}
	buf.Reset()
	tw, _ = compare.NewTableWriter(&buf, false, []string{"nr"}, nil)
	tw.Add(`a"<b>`, []float64{math.Inf(1)})
	tw.Close(func(w io.Writer) error { _, err := io.WriteString(w, ",\n  \"extra\": 1"); return err })
	if want := "{\n  \"items\": {\n    \"a\\\"<b>\": {\n      \"nr\": null\n    }\n  },\n  \"extra\": 1\n}\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	buf.Reset()
	tw, _ = compare.NewTableWriter(&buf, true, []string{"nr"}, nil)
	for range 20000 {
		tw.Add("id", []float64{0.125})
	}
	if buf.Len() == 0 {
		t.Error("nothing written before Close after 20,000 rows")
	}
	tw.Close(nil)
	if want := len("id,nr\n") + 20000*len("id,0.125\n"); buf.Len() != want {
		t.Errorf("%d bytes, want %d", buf.Len(), want)
	}
}

// ExampleParseMetricNames selects metrics as score's -metrics flag does:
// "all" leaves out the opt-in variants, which are run only when named.
func ExampleParseMetricNames() {
	all, _ := compare.ParseMetricNames("all")
	fmt.Println(all)
	some, _ := compare.ParseMetricNames("BLEU, nltkbleu")
	fmt.Println(some)
	_, err := compare.ParseMetricNames("bleu,bleu")
	fmt.Println(err)
	// Output:
	// [bleu meteor rouge cider nr stylem c vg groovist clipscore vrank]
	// [bleu nltkbleu]
	// "bleu" given twice
}
