package tokenize

import (
	"encoding/json"
	"strings"
	"testing"
)

// benchTexts are the single-text inputs of the golden files (41 strings:
// accents, CJK, emoji, punctuation runs, a 600-token paragraph).
func benchTexts(b *testing.B) []string {
	b.Helper()
	for _, g := range goldenFiles(b) {
		var cases []struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(g.Single, &cases); err != nil {
			b.Fatal(err)
		}
		var texts []string
		for _, c := range cases {
			texts = append(texts, c.Text)
		}
		return texts
	}
	b.Fatal("no golden texts")
	return nil
}

func benchEncode(b *testing.B, enc Encoder) {
	texts := benchTexts(b)
	tokens := 0
	for _, t := range texts {
		tokens += enc.Encode(t).Len()
	}
	b.ResetTimer()
	for b.Loop() {
		for _, t := range texts {
			enc.Encode(t)
		}
	}
	b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

func BenchmarkBERTEncode(b *testing.B) {
	bert, _, _ := loadTestTokenizers(b)
	benchEncode(b, bert)
}

func BenchmarkALBERTEncode(b *testing.B) {
	_, albert, _ := loadTestTokenizers(b)
	benchEncode(b, albert)
}

// BenchmarkCLIPEncode runs with the BPE cache warm after the first pass, as
// in steady use.
func BenchmarkCLIPEncode(b *testing.B) {
	_, _, clip := loadTestTokenizers(b)
	benchEncode(b, clip)
}

// BenchmarkCLIPEncodeColdBPE empties the BPE cache before every pass.
func BenchmarkCLIPEncodeColdBPE(b *testing.B) {
	_, _, clip := loadTestTokenizers(b)
	texts := benchTexts(b)
	tokens := 0
	for _, t := range texts {
		tokens += clip.Encode(t).Len()
	}
	b.ResetTimer()
	for b.Loop() {
		clip.merger.mu.Lock()
		clear(clip.merger.cache)
		clip.merger.mu.Unlock()
		for _, t := range texts {
			clip.Encode(t)
		}
	}
	b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

func BenchmarkLoad(b *testing.B) {
	dirs := map[string]string{}
	for _, g := range goldenFiles(b) {
		switch {
		case strings.HasPrefix(g.Tokenizer.Class, "Bert"):
			dirs["BERT"] = modelDir(b, g, "vocab.txt")
		case strings.HasPrefix(g.Tokenizer.Class, "Albert"):
			dirs["ALBERT"] = modelDir(b, g, "spiece.model")
		case strings.HasPrefix(g.Tokenizer.Class, "CLIP"):
			dirs["CLIP"] = modelDir(b, g, "vocab.json")
		}
	}
	b.Run("BERT", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadBERT(dirs["BERT"]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ALBERT", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadALBERT(dirs["ALBERT"]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("CLIP", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadCLIP(dirs["CLIP"], CLIPOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
