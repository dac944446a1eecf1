package rovist

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

// edgeCase is one entry of nr_edge_cases.json: a story scored by the
// original scorer ("rovist": a number, null for NaN, or the exception name)
// and by the dHM re-implementation ("dhm": a number or null).
type edgeCase struct {
	Story  string          `json:"story"`
	Rovist json.RawMessage `json:"rovist"`
	DHM    *float64        `json:"dhm"`
	Tokens [][]string      `json:"sentence_tokens_minus_last"`
}

func loadEdgeCases(t *testing.T) []edgeCase {
	t.Helper()
	data, err := os.ReadFile("testdata/nr_edge_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []edgeCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) != 13 {
		t.Fatalf("%d edge cases, want 13", len(cases))
	}
	return cases
}

func TestNonRedundancyEdgeCasesDHMVariant(t *testing.T) {
	for _, c := range loadEdgeCases(t) {
		res, err := NonRedundancy(c.Story, NROptions{})
		if err != nil {
			t.Errorf("%q: %v", c.Story, err)
			continue
		}
		if !tokensEqual(res.Tokens, c.Tokens) {
			t.Errorf("%q: tokens %q, want %q", c.Story, res.Tokens, c.Tokens)
		}
		switch {
		case c.DHM == nil:
			if res.Defined || !math.IsNaN(res.Score) {
				t.Errorf("%q: score %v defined=%v, want undefined NaN", c.Story, res.Score, res.Defined)
			}
		case !res.Defined || res.Score != *c.DHM:
			t.Errorf("%q: score %v defined=%v, want %v", c.Story, res.Score, res.Defined, *c.DHM)
		}
	}
}

func TestNonRedundancyEdgeCasesOriginalVariant(t *testing.T) {
	opts := NROptions{ErrorOnEmptyUnion: true}
	errors := 0
	for _, c := range loadEdgeCases(t) {
		res, err := NonRedundancy(c.Story, opts)
		var want any
		if err := json.Unmarshal(c.Rovist, &want); err != nil {
			t.Fatal(err)
		}
		switch want := want.(type) {
		case string:
			if want != "ZeroDivisionError" {
				t.Fatalf("%q: unexpected outcome %q", c.Story, want)
			}
			errors++
			if err == nil || !strings.Contains(err.Error(), "both empty") {
				t.Errorf("%q: err = %v, want the empty-union error", c.Story, err)
			}
		case nil:
			if err != nil || res.Defined {
				t.Errorf("%q: score %v defined=%v err=%v, want undefined", c.Story, res.Score, res.Defined, err)
			}
		case float64:
			if err != nil || !res.Defined || res.Score != want {
				t.Errorf("%q: score %v defined=%v err=%v, want %v", c.Story, res.Score, res.Defined, err, want)
			}
		}
	}
	if errors != 1 {
		t.Errorf("%d ZeroDivisionError cases, want 1", errors)
	}
}

func tokensEqual(a, b [][]string) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) == 0 && len(b[i]) == 0 {
			continue
		}
		if !reflect.DeepEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

func TestNonRedundancyDiagnostics(t *testing.T) {
	// "a b c d a b c d a b c d ." and "e f g h e f g h ." score 0.5: the
	// sentences share nothing (inter 0) and every block repeats the one
	// before it four times over four distinct tokens (intra 1).
	res, err := NonRedundancy("a b c d a b c d a b c d . e f g h e f g h .", NROptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantInter := []NRPair{{First: 0, Second: 1, Shared: 0, Union: 8, Score: 0}}
	wantIntra := []NRPair{
		{Sentence: 0, First: 0, Second: 1, Shared: 4, Union: 4, Score: 1},
		{Sentence: 0, First: 1, Second: 2, Shared: 4, Union: 4, Score: 1},
		{Sentence: 1, First: 0, Second: 1, Shared: 4, Union: 4, Score: 1},
	}
	if !reflect.DeepEqual(res.Inter, wantInter) {
		t.Errorf("Inter = %+v, want %+v", res.Inter, wantInter)
	}
	if !reflect.DeepEqual(res.Intra, wantIntra) {
		t.Errorf("Intra = %+v, want %+v", res.Intra, wantIntra)
	}
	if res.InterMean != 0 || res.IntraMean != 1 || res.Score != 0.5 || !res.Defined {
		t.Errorf("means %v, %v, score %v defined %v; want 0, 1, 0.5, true", res.InterMean, res.IntraMean, res.Score, res.Defined)
	}
}

func TestNonRedundancyOptions(t *testing.T) {
	// "the dog the dog" vs "the dog": the reference counts 4 equal pairs
	// over 2 distinct tokens (2.0), the set Jaccard index is 1.
	story := "the dog the dog . the dog ."
	tests := []struct {
		name      string
		opts      NROptions
		wantInter float64
		wantIntra float64
		wantScore float64
	}{
		{"reference", NROptions{}, 2, 0, 0},
		{"set Jaccard", NROptions{SetJaccard: true}, 1, 0, 0.5},
		// Blocks of 2: "the dog" | "the dog" -> 2 equal pairs / 2 distinct.
		{"block length 2", NROptions{BlockLength: 2}, 2, 1, -0.5},
		{"set Jaccard, block length 2", NROptions{SetJaccard: true, BlockLength: 2}, 1, 1, 0},
	}
	for _, tt := range tests {
		res, err := NonRedundancy(story, tt.opts)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if res.InterMean != tt.wantInter || res.IntraMean != tt.wantIntra || res.Score != tt.wantScore {
			t.Errorf("%s: inter %v intra %v score %v, want %v %v %v", tt.name,
				res.InterMean, res.IntraMean, res.Score, tt.wantInter, tt.wantIntra, tt.wantScore)
		}
	}
}

func TestNonRedundancyRejectsNegativeBlockLength(t *testing.T) {
	_, err := NonRedundancy("a b . c d .", NROptions{BlockLength: -1})
	if err == nil || !strings.Contains(err.Error(), "BlockLength -1") {
		t.Errorf("err = %v, want a BlockLength error", err)
	}
}
