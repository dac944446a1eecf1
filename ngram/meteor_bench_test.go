package ngram

import "testing"

// BenchmarkMeteorCorpus5000x5 scores the 5,000-candidate, 5-reference
// synthetic corpus (raw strings), the workload the reference jar needs about
// 15 s for (synth_5000x5.timings.json).
func BenchmarkMeteorCorpus5000x5(b *testing.B) {
	var raw meteorCases
	meteorReadJSON(b, synth5000File, &raw)
	m, err := NewMeteor(MeteorOptions{})
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

// BenchmarkMeteorScore scores one caption against five references.
func BenchmarkMeteorScore(b *testing.B) {
	m, err := NewMeteor(MeteorOptions{})
	if err != nil {
		b.Fatal(err)
	}
	refs := []string{
		"A man rides a brown horse along the beach.",
		"A person riding a horse near the ocean.",
		"A man on horseback at the seashore.",
		"Someone is riding a horse on a sandy beach.",
		"A rider and his horse walk along the shore.",
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Score("A man riding a horse on the beach.", refs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMeteorParseResources measures the one-time parse of the embedded
// English resources (done lazily by the first NewMeteor).
func BenchmarkMeteorParseResources(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseMeteorResources(); err != nil {
			b.Fatal(err)
		}
	}
}
