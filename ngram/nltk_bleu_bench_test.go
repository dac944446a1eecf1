package ngram

import "testing"

// BenchmarkSynth5000NLTKBLEU scores the 5000×5 benchmark corpus with NLTK
// BLEU-4 (sentence per item and corpus), next to BenchmarkSynth5000BLEU's
// COCO BLEU on the same tokens:
//
//	go test -run=^$ -bench='Synth5000(NLTK)?BLEU$' -benchmem ./ngram/
func BenchmarkSynth5000NLTKBLEU(b *testing.B) {
	_, tok := synth5000()
	for _, m := range []NLTKSmoothing{NLTKMethod0, NLTKMethod7} {
		b.Run(map[NLTKSmoothing]string{NLTKMethod0: "method0", NLTKMethod7: "method7"}[m], func(b *testing.B) {
			benchLoop(b, func() {
				if _, err := NLTKBLEU(tok, NLTKBLEUOptions{Smoothing: m}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
