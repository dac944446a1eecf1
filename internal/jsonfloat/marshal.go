package jsonfloat

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping, for MarshalJSON methods:
// an encoder set not to escape (as storyeval's outputs are) keeps a
// Marshaler's bytes as they are, so a path holding & or < must not be
// escaped here either.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
