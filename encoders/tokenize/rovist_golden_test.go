package tokenize

import (
	"encoding/json"
	"testing"
)

// TestRoViSTCPairInputs re-creates the ALBERT pair inputs of RoViST-C and
// its dHM prefix variant ([CLS] A [SEP] B [SEP], AlbertTokenizer class
// defaults) recorded when the original metric code ran.
func TestRoViSTCPairInputs(t *testing.T) {
	_, albert, _ := loadTestTokenizers(t)
	data, err := readModelFile("testdata", "rovist_c_pairs.json", 1<<24)
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
	c := newCounter(t, "RoViST-C ALBERT pairs")
	for _, p := range pairs {
		e := albert.EncodePair(p.A, p.B)
		q := quote(p.A) + "+" + quote(p.B)
		c.check("input_ids", q, e.IDs, p.InputIDs)
		c.check("token_type_ids", q, e.TypeIDs, p.TokenTypeIDs)
	}
	c.report()
}
