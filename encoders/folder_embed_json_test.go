package encoders

import (
	"encoding/json"
	"testing"
)

// TestFolderEmbeddingJSON: the names and dimension, float32 values
// widened to float64 in shortest form (0.1f is 0.10000000149011612), and
// no HTML escaping.
func TestFolderEmbeddingJSON(t *testing.T) {
	e := FolderEmbedding{ModelType: "vit<&>", Kind: "pooler_output", Vector: []float32{0.5, -1, 0.1, 3e-8}}
	b, err := json.Marshal(e)
	want := `{"model_type":"vit\u003c\u0026\u003e","kind":"pooler_output","dim":4,"embedding":[0.5,-1,0.10000000149011612,2.999999892949745e-08]}`
	if err != nil || string(b) != want {
		t.Fatalf("json.Marshal: %s, %v; want %s", b, err, want)
	}
	raw, err := e.MarshalJSON()
	if want := `{"model_type":"vit<&>","kind":"pooler_output","dim":4,"embedding":[0.5,-1,0.10000000149011612,2.999999892949745e-08]}`; err != nil || string(raw) != want {
		t.Fatalf("MarshalJSON: %s, %v; want %s", raw, err, want)
	}
	if b, err := json.Marshal(FolderEmbedding{}); err != nil || string(b) != `{"model_type":"","kind":"","dim":0,"embedding":[]}` {
		t.Fatalf("empty: %s, %v", b, err)
	}
}
