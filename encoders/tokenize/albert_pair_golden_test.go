package tokenize

import (
	"encoding/json"
	"testing"
)

// TestALBERTPairEncoding re-creates ALBERT sentence-pair inputs ([CLS] A
// [SEP] B [SEP], AlbertTokenizer class defaults) recorded from
// AlbertTokenizer when a sentence-order model scored stories.
func TestALBERTPairEncoding(t *testing.T) {
	_, albert, _ := loadTestTokenizers(t)
	data, err := readModelFile("testdata", "albert_sentence_pairs.json", 1<<24)
	if err != nil {
		t.Fatal(err)
	}
	var pairs []struct {
		A            string `json:"a"`
		B            string `json:"b"`
		InputIDs     []int  `json:"input_ids"`
		TokenTypeIDs []int  `json:"token_type_ids"`
	}
	if err := json.Unmarshal(data, &pairs); err != nil {
		t.Fatal(err)
	}
	if len(pairs) == 0 {
		t.Fatal("no pairs")
	}
	c := newCounter(t, "ALBERT sentence pairs")
	for _, p := range pairs {
		e := albert.EncodePair(p.A, p.B)
		q := quote(p.A) + "+" + quote(p.B)
		c.check("input_ids", q, e.IDs, p.InputIDs)
		c.check("token_type_ids", q, e.TypeIDs, p.TokenTypeIDs)
	}
	c.report()
}
