package postag

import "testing"

// BenchmarkTagGoldenSentences tags the 1,046 golden sentences (11,434 tokens)
// per iteration and reports tokens per second.
func BenchmarkTagGoldenSentences(b *testing.B) {
	tagger, err := English()
	if err != nil {
		b.Fatal(err)
	}
	var sentences [][]string
	tokens := 0
	for _, name := range goldenFiles {
		ids, stories := readGolden(b, name)
		for _, id := range ids {
			for _, s := range stories[id] {
				sentences = append(sentences, s.Tokens)
				tokens += len(s.Tokens)
			}
		}
	}
	var tags []string
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, s := range sentences {
			tags = tagger.AppendTags(tags[:0], s)
		}
	}
	b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

// BenchmarkEnglishLoad decodes the embedded model, the one-time cost of the
// first Tag call.
func BenchmarkEnglishLoad(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		m, err := decodeEnglish()
		if err != nil || m == nil {
			b.Fatal(err)
		}
	}
}
