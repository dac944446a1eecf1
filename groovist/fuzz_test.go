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

// FuzzReadEntities: any input parses or fails with an error; every row
// lands under its image.
func FuzzReadEntities(f *testing.F) {
	f.Add([]byte("image_name,image_id,bbox,object,score\na.jpg,7,\"[1.5, 2, 3, 4]\",dog,0.9\n"))
	f.Add([]byte("image_id,bbox\nx,\"[1,2,3,4]\",extra\n"))
	f.Add([]byte("\uFEFFbbox,image_id\n[,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ReadEntities(bytes.NewReader(data))
		if err != nil {
			return
		}
		n := 0
		for id, regs := range e.byImage {
			for _, r := range regs {
				if r.ImageID != id {
					t.Fatalf("row of %q filed under %q", r.ImageID, id)
				}
			}
			n += len(regs)
		}
		if n != e.Len() {
			t.Fatalf("%d rows grouped, %d read", n, e.Len())
		}
	})
}
