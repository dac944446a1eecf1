package groovist

import (
	"context"
	"testing"
)

// TestCLIPTextBatchInvariance: a text's embedding does not depend on the
// batch it is in, "!" (token id 0, the padding value) included.
func TestCLIPTextBatchInvariance(t *testing.T) {
	m, tok := loadFixtureCLIP(t)
	c := &CLIPText{Model: m, Tokenizer: tok}
	ctx := context.Background()
	texts := []string{"wow!", "a very long phrase about the old stone bridge over the river", "!"}
	batch, err := c.EmbedTexts(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := splitRows(batch, len(texts))
	for i, text := range texts {
		alone, err := c.EmbedTexts(ctx, []string{text})
		if err != nil {
			t.Fatal(err)
		}
		one, _ := splitRows(alone, 1)
		for j := range one[0] {
			if d := one[0][j] - rows[i][j]; d > 1e-6 || d < -1e-6 {
				t.Fatalf("%q: component %d is %v alone, %v in a batch", text, j, one[0][j], rows[i][j])
			}
		}
	}
	if _, err := c.EmbedTexts(ctx, nil); err == nil {
		t.Error("no error for an empty batch")
	}
}
