package vrank

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/jsonfloat"
)

// pairSource returns a next function over s1 and s2 for
// WritePredictionsJSON.
func pairSource(s1, s2 []string) func() (string, string, error) {
	i := 0
	return func() (string, string, error) {
		if i == len(s1) {
			return "", "", io.EOF
		}
		i++
		return s1[i-1], s2[i-1], nil
	}
}

// TestWritePredictionsJSONChunked predicts 53 pairs of 3 to 300 words in
// chunks of 7, 53 and 1000 and checks that the streamed output is byte for
// byte the indented JSON array of all predictions at once, as vrank
// predict printed before it streamed: chunking changes neither a
// prediction's bits nor the layout. (Moved from cmd/storyeval's
// TestVrankPredictChunked.)
func TestWritePredictionsJSONChunked(t *testing.T) {
	words := strings.Fields("the a dog cat ran to park beach and played we went had fun day night sun sea happy family")
	rng := rand.New(rand.NewSource(3))
	story := func() string {
		w := make([]string, 3+rng.Intn(300))
		for i := range w {
			w[i] = words[rng.Intn(len(words))]
		}
		return strings.Join(w, " ")
	}
	var s1, s2 []string
	for range 53 {
		s1, s2 = append(s1, story()), append(s2, story())
	}
	m, err := Load(filepath.Join("..", "testdata", "e2e", "vrank", "model"))
	if err != nil {
		t.Fatal(err)
	}
	gaps, err := m.Predict(t.Context(), s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]prediction, len(gaps))
	for i, g := range gaps {
		all[i] = prediction{Pair: i, Gap: jsonfloat.Float(g)}
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	if err := enc.Encode(all); err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{7, 53, 1000} {
		var got bytes.Buffer
		var seen []int
		opts := StreamOptions{Chunk: chunk, Progress: func(done int) { seen = append(seen, done) }}
		if err := m.WritePredictionsJSON(t.Context(), pairSource(s1, s2), &got, opts); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("chunks of %d:\n%s\nwant\n%s", chunk, got.String(), want.String())
		}
		if len(seen) == 0 || seen[len(seen)-1] != 53 {
			t.Errorf("chunks of %d: progress %v, want it to end at 53", chunk, seen)
		}
	}
	var got bytes.Buffer
	if err := m.WritePredictionsJSON(t.Context(), pairSource(nil, nil), &got, StreamOptions{}); err != nil || got.String() != "[]\n" {
		t.Errorf("no pairs: %q, %v; want an empty array", got.String(), err)
	}
}

// TestWritePredictionsJSONErrors: a failing source and a failed
// prediction (here: cancelled) are errors naming the input, the latter
// also the pairs of its chunk.
func TestWritePredictionsJSONErrors(t *testing.T) {
	m, err := Load(filepath.Join("..", "testdata", "e2e", "vrank", "model"))
	if err != nil {
		t.Fatal(err)
	}
	bad := errors.New("line 3: short row")
	next := func() (string, string, error) { return "", "", bad }
	err = m.WritePredictionsJSON(t.Context(), next, io.Discard, StreamOptions{Name: "pairs.csv"})
	if !errors.Is(err, bad) || err.Error() != "pairs.csv: line 3: short row" {
		t.Errorf("source error: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err = m.WritePredictionsJSON(ctx, pairSource([]string{"a day", "a night", "sun"}, []string{"a sea", "b", "c"}), io.Discard, StreamOptions{Name: "pairs.csv", Chunk: 2})
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "pairs.csv: pairs 1 to 2: ") {
		t.Errorf("cancelled: %v; want an error naming pairs.csv and pairs 1 to 2", err)
	}
}
