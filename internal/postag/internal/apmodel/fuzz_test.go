package apmodel

import (
	"bytes"
	"compress/gzip"
	"testing"
)

// FuzzDecode feeds arbitrary decompressed payloads to Decode: it must return
// a model or an error, never panic or allocate without bound.
func FuzzDecode(f *testing.F) {
	var buf bytes.Buffer
	if err := Encode(&buf, sampleModel()); err != nil {
		f.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		f.Fatal(err)
	}
	var raw bytes.Buffer
	if _, err := raw.ReadFrom(zr); err != nil {
		f.Fatal(err)
	}
	f.Add(raw.Bytes())
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, payload []byte) {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(payload)
		zw.Close()
		m, err := Decode(z.Bytes())
		if err != nil {
			return
		}
		for _, f := range m.Features {
			if len(f.Classes) != len(f.Milli) {
				t.Fatalf("feature %q: %d classes, %d weights", f.Key, len(f.Classes), len(f.Milli))
			}
			for _, c := range f.Classes {
				if int(c) >= len(m.Classes) {
					t.Fatalf("feature %q: class %d of %d", f.Key, c, len(m.Classes))
				}
			}
		}
	})
}
