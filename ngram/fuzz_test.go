package ngram

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func FuzzPTBTokenize(f *testing.F) {
	for _, s := range []string{
		"A sign reads “Welcome” — with ‘fancy’ quotes…", "He can't and won't go; they're gonna stay.",
		"<b>bold</b> & 50% of $3.50 at www.x.org e-mail a@b.com", "½ (left) [x] {y} U.S. p.m. Mr. Mass.", "-5 +3 ''`` ... !!!",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := PTBTokenize(s)
		if got != strings.TrimSpace(got) || strings.Contains(got, "  ") {
			t.Fatalf("PTBTokenize(%q) = %q: stray spaces", s, got)
		}
		for _, tok := range strings.Fields(got) {
			if ptbDropped[tok] {
				t.Fatalf("PTBTokenize(%q) kept dropped token %q", s, tok)
			}
		}
		// Every letter and digit of the input survives, lower-cased and in
		// order (brackets add the letters of -lrb- and the like; SGML tags
		// and entities are kept whole or normalised, so they are exempt).
		var in, out []rune
		for _, r := range strings.ToLower(s) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				in = append(in, r)
			}
		}
		for _, r := range got {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				out = append(out, r)
			}
		}
		if !isSubsequence(in, out) && !strings.ContainsAny(s, "<&¼½¾⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞") {
			t.Fatalf("PTBTokenize(%q) = %q lost letters or digits", s, got)
		}
	})
}

func FuzzParseCorpus(f *testing.F) {
	f.Add([]byte(`{"cands": {"1": "a dog"}, "refs": {"1": ["a dog", "the dog"]}}`))
	f.Add([]byte(`{"cands": {"1": null}, "refs": {}}`))
	f.Add([]byte(`{"cands": {}, "refs": {"x": []}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseCorpus(data)
		if err != nil {
			return
		}
		// A corpus that decodes can be scored by every metric.
		BLEU(c)
		ROUGEL(c)
		CIDErD(c)
		if _, err := SacreBLEU(c, SacreBLEUOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzTokenize13a(f *testing.F) {
	f.Add("Hello, world. 3.50-4 &amp; <skipped>")
	f.Fuzz(func(t *testing.T, s string) {
		got := Tokenize13a(s)
		if got != strings.Join(strings.Fields(got), " ") {
			t.Fatalf("Tokenize13a(%q) = %q: whitespace not collapsed", s, got)
		}
	})
}

// isSubsequence reports whether a's runes appear in b in order.
func isSubsequence(a, b []rune) bool {
	i := 0
	for _, r := range b {
		if i < len(a) && a[i] == r {
			i++
		}
	}
	return i == len(a)
}

// FuzzParseCorpusAgreesWithEncodingJSON checks the hand-written scanner
// against encoding/json: whatever it accepts is valid JSON, and decodes to
// the same strings json.Unmarshal gives.
func FuzzParseCorpusAgreesWithEncodingJSON(f *testing.F) {
	f.Add([]byte(`{"cands": {"1": "a \"dog\" \u00e9"}, "refs": {"1": ["a dog", "caf\u00e9 \ud83d\ude00"]}}`))
	f.Add([]byte("{\"cands\": {\"x\": \"bad \xff utf8\"}, \"refs\": {\"x\": [\"tab\\there\"]}}"))
	f.Add([]byte(`{"refs": {"2": ["b"]}, "cands": {"2": "a"}} `))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseCorpus(data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		var want struct {
			Cands map[string]string   `json:"cands"`
			Refs  map[string][]string `json:"refs"`
		}
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("encoding/json rejects what ParseCorpus accepts: %v", err)
		}
		for _, id := range c.IDs() {
			if c.Candidate(id) != want.Cands[id] {
				t.Fatalf("candidate %q = %q, encoding/json %q", id, c.Candidate(id), want.Cands[id])
			}
			if !slices.Equal(c.References(id), want.Refs[id]) {
				t.Fatalf("references %q = %q, encoding/json %q", id, c.References(id), want.Refs[id])
			}
		}
		if c.Len() != len(want.Cands) {
			t.Fatalf("%d items, encoding/json %d", c.Len(), len(want.Cands))
		}
	})
}
