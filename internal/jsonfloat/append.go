package jsonfloat

import (
	"bytes"
	"encoding/json"
)

// Append appends x to buf as Float marshals it: shortest round-trip form,
// null when NaN or infinite.
func Append(buf []byte, x float64) []byte {
	b, _ := Float(x).MarshalJSON() // never fails
	return append(buf, b...)
}

// AppendString appends s to buf as a JSON string, without the HTML
// escaping of json.Marshal, as storyeval's JSON outputs write strings.
func AppendString(buf []byte, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(buf, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}
