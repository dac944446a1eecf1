package main

import (
	"bytes"
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/vhed"
	"github.com/storyeval/storyeval/vrank"
)

// vrankTestModel is the tiny Vrank model of the end-to-end fixtures.
const vrankTestModel = "../../testdata/e2e/vrank/model"

// vrankTestPairs reads the sent1 and sent2 columns of a CSV.
func vrankTestPairs(t *testing.T, path string) (s1, s2 []string) {
	t.Helper()
	pairs, err := vhed.Load(path, vhed.ReadOptions{StoriesOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		s1, s2 = append(s1, p.Story1), append(s2, p.Story2)
	}
	return s1, s2
}

// TestVrankPredictChunked predicts 53 pairs of 3 to 300 words in chunks of
// 7 and checks that the streamed output is byte for byte what writeJSON
// prints for the predictions of all pairs at once, as vrank predict
// printed before it streamed: chunking changes neither a prediction's bits
// nor the layout.
func TestVrankPredictChunked(t *testing.T) {
	words := strings.Fields("the a dog cat ran to park beach and played we went had fun day night sun sea happy family")
	rng := rand.New(rand.NewSource(3))
	story := func() string {
		w := make([]string, 3+rng.Intn(300))
		for i := range w {
			w[i] = words[rng.Intn(len(words))]
		}
		return strings.Join(w, " ")
	}
	var csv strings.Builder
	csv.WriteString("sent1,sent2,label\n")
	var s1, s2 []string
	for range 53 {
		a, b := story(), story()
		s1, s2 = append(s1, a), append(s2, b)
		csv.WriteString(a + "," + b + ",0\n")
	}
	m, err := vrank.Load(vrankTestModel)
	if err != nil {
		t.Fatal(err)
	}
	gaps, err := m.Predict(context.Background(), s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]vrankPrediction, len(gaps))
	for i, g := range gaps {
		all[i] = vrankPrediction{Pair: i, Gap: Float(g)}
	}
	var want bytes.Buffer
	if err := writeJSON(&want, all); err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{7, 53, 1000} {
		r, err := vhed.NewReader(strings.NewReader(csv.String()), vhed.ReadOptions{StoriesOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := vrankPredictStream(context.Background(), m, r, "pairs.csv", &got, nil, chunk); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("chunks of %d:\n%s\nwant\n%s", chunk, got.String(), want.String())
		}
	}
}

// TestVrankPredictErrors: a bad row is an error naming the file and the
// line, with the long value quoted and cut; the whole command exits 1.
func TestVrankPredictErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, csv, want string }{
		{"no sent2", "sent1," + strings.Repeat("h", 1000) + "\na,b\n", "missing column(s) sent2"},
		{"empty story", "sent1,sent2\na,b\nc, \n", "line 3, column sent2: empty story"},
		{"no rows", "sent1,sent2\n", "no rows after the header"},
		{"short row", "sent1,sent2\na,b\nc\n", "line 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".csv")
			if err := os.WriteFile(path, []byte(c.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := runMain([]string{"vrank", "predict", "-model", vrankTestModel, "-csv", path}, &stdout, &stderr)
			msg := stderr.String()
			if code != 1 || !strings.Contains(msg, path) || !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 1 || len(msg) > 400 {
				t.Errorf("exit %d, %q; want one line naming %s and saying %q", code, msg, path, c.want)
			}
		})
	}
}
