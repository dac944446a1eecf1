package tokenize

import (
	"encoding/json"
	"testing"
)

// TestCLIPScoreInputIDs re-creates the input ids CLIPScore's original code
// fed its text encoder: clip.tokenize("A photo depicts " + caption,
// truncate=True) for every candidate and every reference (including an
// empty caption, HTML entities, accents and a caption longer than 77
// tokens).
func TestCLIPScoreInputIDs(t *testing.T) {
	_, _, clip := loadTestTokenizers(t)
	const dir = "testdata/clipscore"
	var candidates map[string]string
	var refs map[string][]string
	var expected struct {
		ImageOrder []string `json:"image_order"`
	}
	for name, dst := range map[string]any{"candidates.json": &candidates, "refs.json": &refs, "expected.json": &expected} {
		data, err := readModelFile(dir, name, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, dst); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	var cands, references []string
	for _, id := range expected.ImageOrder {
		cands = append(cands, "A photo depicts "+candidates[id])
		for _, r := range refs[id] {
			references = append(references, "A photo depicts "+r)
		}
	}
	c := newCounter(t, "CLIPScore clip.tokenize")
	for _, tc := range []struct {
		name  string
		texts []string
	}{{"candidate_input_ids", cands}, {"reference_input_ids", references}} {
		want := readIntArray(t, dir+"/"+tc.name+".npy")
		got, err := clip.OpenAITokenize(tc.texts, 77, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, want %d", tc.name, len(got), len(want))
		}
		for i := range want {
			c.check(tc.name, quote(tc.texts[i]), got[i], want[i])
		}
	}
	c.report()
}
