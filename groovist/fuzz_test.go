package groovist

import (
	"bytes"
	"testing"
)

// FuzzReadRatings: any input parses or fails with an error; parsed ratings
// are finite.
func FuzzReadRatings(f *testing.F) {
	f.Add([]byte("\uFEFFWord;Conc.M\r\nroadsweeper;4.85\r\n"))
	f.Add([]byte("Word;Conc.M\ndog\n"))
	f.Add([]byte("h\n;\n a ; 1e3 ;x\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadRatings(bytes.NewReader(data))
		if err != nil {
			return
		}
		for w, v := range r.words {
			if v != v || v > 1e308 || v < -1e308 {
				t.Fatalf("%q rated %v", w, v)
			}
		}
		if _, _, err := r.Weight(string(data)); err != nil {
			t.Fatal(err)
		}
	})
}
