package ngram

import (
	"strings"
	"testing"
)

// Statistics and scores printed by the jar (-l en -norm -stdio) for
// "SCORE ||| ref ||| test" and then "EVAL ||| stats".
var meteorJarPairs = []struct {
	ref, test string
	stats     string
	score     float64
}{
	{"A big dog runs in the park.", "a large dog is running in a park",
		"8.0 8.0 4.0 4.0 2.0 2.0 2.0 2.0 1.0 1.0 0.0 0.0 1.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 3.0 6.0 6.0", 0.36422311729202317},
	{"The children were playing with toys", "The kids played with their toy",
		"6.0 6.0 3.0 3.0 0.0 0.0 2.0 2.0 1.0 1.0 0.0 0.0 1.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 2.0 4.0 4.0", 0.2467959920448682},
	{"two men ride bicycles down the street", "a man is riding a bike on a road",
		"9.0 7.0 5.0 2.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 2.0 2.0 0.0 0.0 0.0 0.0 0.0 0.0 2.0 2.0 2.0", 0.11294117647058827},
	{"the the the the", "the",
		"1.0 4.0 1.0 4.0 0.0 0.0 1.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 1.0 1.0 1.0", 0.11267605633802819},
	{"a b c d e f", "f e d c b a",
		"6.0 6.0 1.0 1.0 5.0 5.0 1.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 6.0 6.0 6.0", 0.4},
	{"a man rides a horse", "a man rides a horse",
		"5.0 5.0 2.0 2.0 3.0 3.0 2.0 2.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 1.0 5.0 5.0", 1.0},
	{"", "a cat",
		"2.0 0.0 1.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0", 0.0},
	{"Mr. Smith went to Washington D.C. at 5 p.m.", "mr smith goes to washington dc at 5 pm",
		"9.0 9.0 2.0 2.0 5.0 5.0 2.0 2.0 0.0 0.0 0.0 0.0 2.0 2.0 0.0 0.0 0.0 0.0 0.0 0.0 1.0 9.0 9.0", 0.9478260869565218},
	{"He said \"hello\"... and left -- quickly!", "he said hello and left quickly",
		"6.0 11.0 3.0 6.0 3.0 3.0 3.0 3.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 4.0 6.0 6.0", 0.2728154217471532},
}

func TestMeteorScoreMatchesJar(t *testing.T) {
	m, err := NewMeteor(MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range meteorJarPairs {
		s, err := m.Score(c.test, []string{c.ref})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.String(); got != c.stats {
			t.Errorf("Score(%q, %q) stats\n got  %s\n want %s", c.test, c.ref, got, c.stats)
		}
		if s.Score != c.score {
			t.Errorf("Score(%q, %q) = %.17g, want %.17g", c.test, c.ref, s.Score, c.score)
		}
	}
}

func TestMeteorCorpusErrors(t *testing.T) {
	m, err := NewMeteor(MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		cands   map[string]string
		refs    map[string][]string
		wantErr string
	}{
		{"empty", map[string]string{}, map[string][]string{}, "empty corpus"},
		{"missing refs", map[string]string{"a": "x"}, map[string][]string{}, `"a" has no entry in refs`},
		{"no refs", map[string]string{"a": "x"}, map[string][]string{"a": {}}, `"a" has no references`},
		{"extra refs", map[string]string{"a": "x"}, map[string][]string{"a": {"x"}, "b": {"y"}}, `"b" has no candidate`},
	}
	for _, c := range cases {
		_, _, err := m.Corpus(c.cands, c.refs)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.wantErr)
		}
	}
	if _, err := m.Score("x", nil); err == nil {
		t.Error("Score without references: no error")
	}
	if _, err := NewMeteor(MeteorOptions{BeamSize: -1}); err == nil {
		t.Error("negative BeamSize: no error")
	}
}

// TestMeteorCorpusProtocol checks what pycocoevalcap's line protocol does to
// the strings: "|||" is removed from the candidate (then double spaces are
// halved), and a reference containing "|||" becomes several references.
func TestMeteorCorpusProtocol(t *testing.T) {
	m, err := NewMeteor(MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, items, err := m.Corpus(
		map[string]string{"a": "a man ||| rides a horse", "b": "a dog runs", "c": "a cat\nsleeps"},
		map[string][]string{"a": {"a man rides a horse"}, "b": {"a cat sleeps ||| a dog runs"}, "c": {"a cat sleeps"}})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]float64{"a": 1, "b": 1, "c": 1} {
		if items[id] != want {
			t.Errorf("item %s: %v, want %v", id, items[id], want)
		}
	}
	// Python's str.replace("  ", " ") halves each run of spaces once.
	if got := meteorCocoHypothesis("a  |||  b    c"); got != "a  b  c" {
		t.Errorf("meteorCocoHypothesis = %q, want %q", got, "a  b  c")
	}
	if got := strings.Join(meteorCocoRefs([]string{" x ||| y|||", "z"}, nil), "/"); got != "x/y//z" {
		t.Errorf("meteorCocoRefs = %q, want %q", got, "x/y//z")
	}
}

// TestMeteorStatsAdd checks the corpus aggregation: a perfect one-chunk
// segment adds no chunk, as in MeteorStats.addStats.
func TestMeteorStatsAdd(t *testing.T) {
	m, err := NewMeteor(MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	perfect, _ := m.Score("a man rides a horse", []string{"a man rides a horse"})
	shuffled, _ := m.Score("f e d c b a", []string{"a b c d e f"})
	var total MeteorStats
	total.Add(perfect)
	total.Add(shuffled)
	if total.Chunks != shuffled.Chunks || total.TestLength != 11 || total.TestWordMatches != 11 {
		t.Errorf("sum: chunks %v (want %v), test length %v, test word matches %v", total.Chunks, shuffled.Chunks, total.TestLength, total.TestWordMatches)
	}
	m.ComputeScore(&total)
	// The jar's EVAL on the two statistics lines.
	if want := 0.4685003737931457; total.Score != want {
		t.Errorf("corpus score %.17g, want %.17g", total.Score, want)
	}
}

func TestMeteorJavaDouble(t *testing.T) {
	cases := []struct {
		v    float64
		want string
	}{
		{0, "0.0"}, {15, "15.0"}, {0.5, "0.5"}, {1e7, "1.0E7"}, {1.5e-4, "1.5E-4"}, {123456.25, "123456.25"},
	}
	for _, c := range cases {
		if got := meteorJavaDouble(c.v); got != c.want {
			t.Errorf("meteorJavaDouble(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestMeteorConcurrent scores the jar pairs from several goroutines at once.
func TestMeteorConcurrent(t *testing.T) {
	m, err := NewMeteor(MeteorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan string, 8*len(meteorJarPairs))
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for k := range meteorJarPairs {
				c := meteorJarPairs[(k+g)%len(meteorJarPairs)]
				s, err := m.Score(c.test, []string{c.ref})
				if err != nil || s.Score != c.score {
					errs <- c.test
				}
			}
		}()
	}
	for g := 0; g < 8; g++ {
		<-done
	}
	close(errs)
	for test := range errs {
		t.Errorf("concurrent Score(%q): wrong score", test)
	}
}
