package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// TestVrankPredictCommandMatchesFixture runs `storyeval vrank predict` on
// the fixture's story pairs with its trained model and checks every
// prediction against the reference's (within 1e-5, as vrank/train's
// fixture test): the command's end-to-end path, on the device
// $STORYEVAL_DEVICE names (the prepared GPU check runs it on CUDA).
func TestVrankPredictCommandMatchesFixture(t *testing.T) {
	dir := e2efixtures.Metric("vrank")
	t.Logf("fixtures: %s", dir)
	var pairs []struct {
		Sent1 string `json:"sent1"`
		Sent2 string `json:"sent2"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "pairs.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &pairs); err != nil {
		t.Fatal(err)
	}
	var expected struct {
		Predictions []float64 `json:"predictions"`
	}
	if data, err = os.ReadFile(filepath.Join(dir, "expected.json")); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &expected); err != nil {
		t.Fatal(err)
	}
	if len(pairs) == 0 || len(expected.Predictions) != len(pairs) {
		t.Fatalf("%d pairs, %d expected predictions", len(pairs), len(expected.Predictions))
	}
	// The command refuses an empty story (the fixture has one pair with
	// one, for the library's edge case): those pairs are left out.
	var in bytes.Buffer
	var kept []int
	w := csv.NewWriter(&in)
	_ = w.Write([]string{"sent1", "sent2"})
	for i, p := range pairs {
		if p.Sent1 != "" && p.Sent2 != "" {
			_ = w.Write([]string{p.Sent1, p.Sent2})
			kept = append(kept, i)
		}
	}
	w.Flush()
	path := filepath.Join(t.TempDir(), "pairs.csv")
	if err := os.WriteFile(path, in.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"vrank", "predict", "-model", filepath.Join(dir, "model"), "-csv", path}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got []struct {
		Pair int     `json:"pair"`
		Gap  float64 `json:"gap"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, stdout.String())
	}
	if len(got) != len(kept) || len(kept) < len(pairs)-1 {
		t.Fatalf("%d predictions for %d pairs (%d in the fixture)", len(got), len(kept), len(pairs))
	}
	worst := 0.0
	for j, g := range got {
		i := kept[j]
		d := math.Abs(g.Gap - expected.Predictions[i])
		worst = math.Max(worst, d)
		if g.Pair != j || d > 1e-5 {
			t.Errorf("fixture pair %d (output %d): gap %.8g, the reference's %.8g", i, g.Pair, g.Gap, expected.Predictions[i])
		}
	}
	t.Logf("%d predictions within 1e-5 of the reference (max |Δ| %.3g)", len(got), worst)
}
