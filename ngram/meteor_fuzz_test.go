package ngram

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

// FuzzMeteorScore: any candidate and reference score without panic, in [0, 1].
func FuzzMeteorScore(f *testing.F) {
	m, err := NewMeteor(MeteorOptions{ParaphraseTable: "testdata/meteor_paraphrase_tiny.gz"})
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range meteorNormCases {
		f.Add(c.in, c.want)
	}
	for id, cand := range meteorParaCands {
		f.Add(cand, meteorParaRefs[id][0])
	}
	f.Add("", "")
	f.Add("a a a a a a a a", "a a a a")
	f.Add("x..y DOTMULTI...", "\xff\xfe U.S.")
	f.Fuzz(func(t *testing.T, cand, ref string) {
		s, err := m.Score(cand, []string{ref, cand})
		if err != nil {
			t.Fatal(err)
		}
		if !(s.Score >= 0 && s.Score <= 1) {
			t.Fatalf("Score(%q, %q) = %v, outside [0, 1]", cand, ref, s.Score)
		}
		corpus, items, err := m.Corpus(map[string]string{"x": cand}, map[string][]string{"x": {ref}})
		if err != nil {
			t.Fatal(err)
		}
		if !(corpus >= 0 && corpus <= 1) || !(items["x"] >= 0 && items["x"] <= 1) {
			t.Fatalf("Corpus(%q, %q) = %v, %v, outside [0, 1]", cand, ref, corpus, items["x"])
		}
	})
}

// FuzzMeteorNormalize checks the fast multi-dot path of the normalizer
// against the literal replay of the reference's escape loops.
func FuzzMeteorNormalize(f *testing.F) {
	res, err := loadMeteorResources()
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range meteorNormCases {
		f.Add(c.in)
	}
	f.Add("a...b.. c. D.. .. .")
	f.Fuzz(func(t *testing.T, line string) {
		nz := &meteorNormalizer{prefixes: res.prefixes}
		if meteorLiteralCost(nz.separate(line)) > meteorLiteralBudget {
			return // normalize does not replay such lines literally
		}
		got := nz.normalize(line)
		valid := strings.ToValidUTF8(line, "\uFFFD")
		want := meteorJavaLower(meteorNormalizeLiteral(string(nz.separate(valid)), res.prefixes))
		if got != want {
			t.Fatalf("normalize(%q) = %q, literal replay %q", line, got, want)
		}
	})
}

// FuzzMeteorParaphraseTable: any gzipped input loads or fails cleanly.
func FuzzMeteorParaphraseTable(f *testing.F) {
	f.Add([]byte("0.5\na man\na guy\n0.2\nsofa\ncouch\n"))
	f.Add([]byte("1\nx\n"))
	f.Add([]byte("\r\n\r\n\r\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(text)
		zw.Close()
		p, err := readMeteorParaphrases(&buf, 1<<16)
		if err != nil {
			return
		}
		for _, par := range p.paraphrases {
			if len(par) == 0 {
				t.Fatal("empty paraphrase loaded")
			}
		}
		ids := make([]int32, 0, 8)
		for w := range p.vocab {
			ids = append(ids, p.translate(w))
		}
		p.paths(ids, 0, nil)
	})
}
