package tokenize

import (
	"encoding/json"
	"testing"
)

// TestVrankBERTInputs re-creates the Vrank-style regressor's inputs:
// encode_plus(sent1 + " [SEP] " + sent2, max_length=512,
// padding="max_length", truncation=True), the literal [SEP] becoming the
// special token.
func TestVrankBERTInputs(t *testing.T) {
	bert, _, _ := loadTestTokenizers(t)
	data, err := readModelFile("testdata", "vrank_inputs.json", 1<<24)
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Sent1         string `json:"sent1"`
		Sent2         string `json:"sent2"`
		InputIDs      []int  `json:"input_ids"`
		AttentionMask []int  `json:"attention_mask"`
	}
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(rows))
	for i, r := range rows {
		texts[i] = r.Sent1 + " [SEP] " + r.Sent2
	}
	batch, err := bert.EncodeBatch(texts, Options{Truncation: LongestFirst, MaxLength: 512, Padding: PadMaxLength})
	if err != nil {
		t.Fatal(err)
	}
	c := newCounter(t, "Vrank BERT inputs")
	for i, r := range rows {
		c.check("input_ids", quote(texts[i]), batch[i].IDs, r.InputIDs)
		c.check("attention_mask", quote(texts[i]), batch[i].AttentionMask, r.AttentionMask)
	}
	c.report()
}

// TestGROOViSTNounPhraseIDs re-creates GROOViST's clip.tokenize(NPs) (no
// prompt, truncate=False) for every story of the e2e fixture.
func TestGROOViSTNounPhraseIDs(t *testing.T) {
	_, _, clip := loadTestTokenizers(t)
	data, err := readModelFile("testdata", "groovist_np_ids.json", 1<<24)
	if err != nil {
		t.Fatal(err)
	}
	var stories []struct {
		StoryID      string   `json:"story_id"`
		NPs          []string `json:"nps"`
		CLIPInputIDs [][]int  `json:"clip_input_ids"`
	}
	if err := json.Unmarshal(data, &stories); err != nil {
		t.Fatal(err)
	}
	c := newCounter(t, "GROOViST clip.tokenize")
	for _, s := range stories {
		got, err := clip.OpenAITokenize(s.NPs, 77, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(s.CLIPInputIDs) {
			t.Fatalf("story %s: %d rows, want %d", s.StoryID, len(got), len(s.CLIPInputIDs))
		}
		for i := range got {
			c.check("clip_input_ids", s.StoryID+" "+quote(s.NPs[i]), got[i], s.CLIPInputIDs[i])
		}
	}
	c.report()
}
