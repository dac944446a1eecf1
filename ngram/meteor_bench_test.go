package ngram

import "testing"

// BenchmarkMeteorCorpus5000x5 scores the 5,000-candidate, 5-reference
// synthetic corpus (raw strings), the workload the reference jar needs about
// 15 s for (synth_5000x5.timings.json).
func BenchmarkMeteorCorpus5000x5(b *testing.B) {
	var raw meteorCases
	meteorReadJSON(b, "synth_5000x5_seed1.json.gz", &raw)
	m, err := NewMeteor(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := m.Corpus(raw.Cands, raw.Refs); err != nil {
			b.Fatal(err)
		}
	}
}
