package ngram

import (
	"sort"
	"testing"
)

// synthCaptions returns the 30,000 captions (5,000 candidates and 25,000
// references) of the 5000×5 synthetic benchmark corpus in a fixed order.
func synthCaptions(b *testing.B) []string {
	b.Helper()
	var in caseFile
	readGzipJSON(b, synth5000File, &in)
	ids := make([]string, 0, len(in.Cands))
	for id := range in.Cands {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var caps []string
	for _, id := range ids {
		caps = append(caps, in.Cands[id])
		caps = append(caps, in.Refs[id]...)
	}
	return caps
}

// BenchmarkPTBTokenizeCaptionsOracle tokenizes the 30,000 captions with the
// rune-based tokenizer that ptbTokenizer replaced, for comparison:
//
//	go test -run=^$ -bench=PTBTokenizeCaptions -benchmem -count=5 ./ngram/
func BenchmarkPTBTokenizeCaptionsOracle(b *testing.B) {
	caps := synthCaptions(b)
	benchLoop(b, func() {
		for _, c := range caps {
			_ = oraclePTBTokenize(c)
		}
	})
}

// BenchmarkPTBTokenizeCaptions tokenizes the 30,000 captions of the 5000×5
// synthetic corpus on one goroutine with one reused ptbTokenizer:
//
//	go test -run=^$ -bench=PTBTokenizeCaptions -benchmem -count=5 ./ngram/
func BenchmarkPTBTokenizeCaptions(b *testing.B) {
	caps := synthCaptions(b)
	var tok ptbTokenizer
	var buf []byte
	benchLoop(b, func() {
		for _, c := range caps {
			buf = tok.appendTokenized(buf[:0], c)
		}
	})
}
