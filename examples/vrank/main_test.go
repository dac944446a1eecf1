package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// TestRunMatchesReference checks each printed gap against the reference
// implementation's prediction for the same pair and model
// (testdata/e2e/vrank/expected.json, float32), within 1e-5 as the vrank
// fixture test, and the verdict against the gap's sign.
func TestRunMatchesReference(t *testing.T) {
	const dir = "../../testdata/e2e/vrank/"
	var out bytes.Buffer
	if err := run(&out, []string{"-pairs", dir + "pairs.json", "-model", dir + "model"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dir + "expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var gold struct {
		Predictions []float64 `json:"predictions"`
	}
	if err := json.Unmarshal(data, &gold); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(gold.Predictions) || len(lines) == 0 {
		t.Fatalf("%d lines for %d reference predictions", len(lines), len(gold.Predictions))
	}
	for i, line := range lines {
		var n, story int
		var gap float64
		if _, err := fmt.Sscanf(line, "pair %d gap %g story %d ranks better", &n, &gap, &story); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		want := gold.Predictions[i]
		if n != i+1 || math.Abs(gap-want) > 1e-5 {
			t.Errorf("pair %d: gap %v, reference %v", n, gap, want)
		}
		if (story == 1) != (want < 0) {
			t.Errorf("pair %d: story %d ranked better, reference gap %v", n, story, want)
		}
	}
}
