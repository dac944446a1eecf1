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

// TestRunMatchesClipscorePy checks every printed CLIPScore and RefCLIPScore
// against clipscore.py's on the same images, captions and model
// (testdata/e2e/clipscore/expected.json), within 1e-5 as the groovist
// golden test (float32 model; printed to 6 decimals).
func TestRunMatchesClipscorePy(t *testing.T) {
	const root = "../../"
	var out bytes.Buffer
	if err := run(&out, []string{"-data", root + "testdata/e2e/clipscore", "-model", root + "testdata/e2e/clip",
		"-tokenizer", root + "testdata/encoders/fixtures/tokenizers/clip_full"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(root + "testdata/e2e/clipscore/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var gold struct {
		PerImage map[string]struct {
			CLIPScore, RefCLIPScore float64
		} `json:"per_image"`
	}
	if err := json.Unmarshal(data, &gold); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		var id string
		var clip, ref float64
		if _, err := fmt.Sscanf(line, "%s %g %g", &id, &clip, &ref); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		want, ok := gold.PerImage[id]
		if !ok {
			t.Fatalf("image %s not in expected.json", id)
		}
		for _, c := range [][2]float64{{clip, want.CLIPScore}, {ref, want.RefCLIPScore}} {
			if math.Abs(c[0]-c[1]) > 1e-5*math.Max(1, math.Abs(c[1])) {
				t.Errorf("%s: %v, clipscore.py %v", id, c[0], c[1])
			}
			checked++
		}
	}
	if checked != 2*len(gold.PerImage) || checked == 0 {
		t.Errorf("checked %d values for %d images", checked, len(gold.PerImage))
	}
}
