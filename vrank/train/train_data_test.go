package train

import (
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
)

func TestReadPairsCSV(t *testing.T) {
	in := "story_id,sent1,sent2,label,agreement\n" +
		"1,\"a story, with a comma\",another story,-1.5,3\n" +
		"2,x,y,2,4\n"
	got, err := ReadPairs(strings.NewReader(in), limits.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Pair{{"a story, with a comma", "another story", -1.5}, {"x", "y", 2}}
	if len(got) != len(want) {
		t.Fatalf("got %d pairs, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("pair %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestReadPairsCSVErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "empty"},
		{"missing column", "sent1,sent2\na,b\n", "missing column(s) label"},
		{"non-numeric label", "sent1,sent2,label\na,b,1\nc,d,worse\n", "line 3, column label"},
		{"NaN label", "sent1,sent2,label\na,b,NaN\n", "line 2, column label"},
		{"short row", "sent1,sent2,label\na,b\n", "line 2: wrong number of fields"},
		{"no pairs", "sent1,sent2,label\n", "no rows after the header"},
		{"bad quoting", "sent1,sent2,label\n\"a,b,1\n", "training CSV"},
	} {
		_, err := ReadPairs(strings.NewReader(tc.in), limits.Limits{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
}

func FuzzReadPairsCSV(f *testing.F) {
	f.Add("sent1,sent2,label\na,b,1\n")
	f.Add("label,sent2,sent1\n-2,\"x\ny\",z\n")
	f.Fuzz(func(t *testing.T, in string) {
		ex, err := ReadPairs(strings.NewReader(in), limits.Limits{})
		if err == nil && len(ex) == 0 {
			t.Errorf("no error and no pairs")
		}
		if _, _, _, err := splitPairs(ex); err != nil {
			t.Errorf("reader returned an invalid pair: %v", err)
		}
	})
}
