package jsonfloat

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// TestMarshalKeepsHTML: Marshal writes & < > as they are and no trailing
// newline, so that a Marshaler using it comes out of an encoder set not to
// escape HTML byte for byte as a plain struct would.
func TestMarshalKeepsHTML(t *testing.T) {
	v := struct {
		Path string `json:"path"`
		X    Float  `json:"x"`
	}{"a&b<c>", Float(math.NaN())}
	got, err := Marshal(v)
	if err != nil || string(got) != `{"path":"a&b<c>","x":null}` {
		t.Fatalf("Marshal: %s, %v", got, err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(json.RawMessage(got)); err != nil || buf.String() != `{"path":"a&b<c>","x":null}`+"\n" {
		t.Errorf("through an encoder: %q, %v", buf.String(), err)
	}
}
