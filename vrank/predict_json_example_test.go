package vrank_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/storyeval/storyeval/vrank"
)

// Stream predictions for story pairs as a JSON array, chunk by chunk, as
// `storyeval vrank predict` does; the pairs could come from a
// vhed.Reader. Here they come from a slice and the output is read back.
func ExampleModel_WritePredictionsJSON() {
	m, err := vrank.Load(filepath.Join("..", "testdata", "e2e", "vrank", "model"))
	if err != nil {
		fmt.Println(err)
		return
	}
	pairs := [][2]string{{"The Cat SAT on the mat. It's [male]'s cat!", "A dog [SEP] barked."}, {"A dog [SEP] barked.", "The Cat SAT on the mat. It's [male]'s cat!"}}
	next := func() (string, string, error) {
		if len(pairs) == 0 {
			return "", "", io.EOF
		}
		p := pairs[0]
		pairs = pairs[1:]
		return p[0], p[1], nil
	}
	var out bytes.Buffer
	if err := m.WritePredictionsJSON(context.Background(), next, &out, vrank.StreamOptions{Name: "example"}); err != nil {
		fmt.Println(err)
		return
	}
	var preds []struct {
		Pair int     `json:"pair"`
		Gap  float64 `json:"gap"`
	}
	if err := json.Unmarshal(out.Bytes(), &preds); err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range preds {
		fmt.Printf("pair %d: gap %.4f\n", p.Pair, p.Gap)
	}
	// Output:
	// pair 0: gap -0.2536
	// pair 1: gap -0.2512
}
