package encoders

import (
	"bytes"
	"encoding/json"

	"github.com/storyeval/storyeval/internal/jsonfloat"
)

// MarshalJSON writes the embedding as `storyeval embed` prints it:
// {"model_type", "kind", "dim", "embedding"}, each value in the shortest
// form that reads back as the same float64 (the float32 widened), and
// HTML characters of the names left as they are.
func (e FolderEmbedding) MarshalJSON() ([]byte, error) {
	out := struct {
		ModelType string            `json:"model_type"`
		Kind      string            `json:"kind"`
		Dim       int               `json:"dim"`
		Embedding []jsonfloat.Float `json:"embedding"`
	}{e.ModelType, e.Kind, len(e.Vector), make([]jsonfloat.Float, len(e.Vector))}
	for i, v := range e.Vector {
		out.Embedding[i] = jsonfloat.Float(v)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(out)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}
