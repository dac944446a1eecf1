package ngram

import (
	"bytes"
	"slices"
	"testing"
)

// TestCorpusWriteJSON checks the exact layout of a small corpus (ids in
// input order, no HTML escaping, the prefix after each newline) and that
// ParseCorpus reads back the same corpus, then a round trip of the PTB-edge
// fixture after tokenization.
func TestCorpusWriteJSON(t *testing.T) {
	c, err := NewCorpusInOrder([]string{"b", "a<"}, map[string]string{"b": "x & y", "a<": `say "hi"`},
		map[string][]string{"b": {"r1", "r2"}, "a<": {"é"}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.WriteJSON(&buf, "  "); err != nil {
		t.Fatal(err)
	}
	want := "{\n    \"cands\": {\n      \"b\": \"x & y\",\n      \"a<\": \"say \\\"hi\\\"\"\n    },\n" +
		"    \"refs\": {\n      \"b\": [\"r1\", \"r2\"],\n      \"a<\": [\"é\"]\n    }\n  }"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	checkRoundTrip(t, c)

	var fx caseFile
	readGzipJSON(t, "ptb_edge.json.gz", &fx)
	edge, err := NewCorpus(fx.Cands, fx.Refs)
	if err != nil {
		t.Fatal(err)
	}
	checkRoundTrip(t, edge)
	checkRoundTrip(t, edge.Tokenized())
}

// checkRoundTrip writes c without a prefix and parses it back.
func checkRoundTrip(t *testing.T, c *Corpus) {
	t.Helper()
	var buf bytes.Buffer
	if err := c.WriteJSON(&buf, ""); err != nil {
		t.Fatal(err)
	}
	back, err := ParseCorpus(buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if !slices.Equal(back.IDs(), c.IDs()) {
		t.Fatalf("ids %v, want %v", back.IDs(), c.IDs())
	}
	for _, id := range c.IDs() {
		if back.Candidate(id) != c.Candidate(id) || !slices.Equal(back.References(id), c.References(id)) {
			t.Errorf("%s: %q %q, want %q %q", id, back.Candidate(id), back.References(id), c.Candidate(id), c.References(id))
		}
	}
}

func TestParseMetrics(t *testing.T) {
	got, err := ParseMetrics(" CIDEr,bleu, cider ,meteor-vist")
	if err != nil || !slices.Equal(got, []string{"cider", "bleu", "meteor-vist"}) {
		t.Errorf("got %v, %v", got, err)
	}
	_, err = ParseMetrics("bleu,spice")
	if err == nil || err.Error() != `unknown metric "spice" (available: bleu, meteor, rouge, cider, nltkbleu, meteor-vist)` {
		t.Errorf("unknown metric: %v", err)
	}
}

// TestScoresEvaluation checks that SacreBLEU's scores become a one-column
// Evaluation in corpus order with the same values.
func TestScoresEvaluation(t *testing.T) {
	c, err := NewCorpusInOrder([]string{"z", "a"}, map[string]string{"z": "the cat sat", "a": "a dog"},
		map[string][]string{"z": {"the cat sat down"}, "a": {"the dog"}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := SacreBLEU(c, SacreBLEUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev := s.Evaluation(c, "BLEU")
	if !slices.Equal(ev.Columns, []string{"BLEU"}) || ev.Corpus[0] != s.Corpus || !slices.Equal(ev.IDs, []string{"z", "a"}) ||
		ev.Items[0][0] != s.Items["z"] || ev.Items[1][0] != s.Items["a"] || s.Items["z"] == s.Items["a"] {
		t.Errorf("evaluation %+v of %+v", ev, s)
	}
}
