package imageproc

import (
	"bytes"
	"testing"
)

func TestResizeNearestPillow(t *testing.T) {
	img := gradient(4, 3)
	got, err := Resize(img, 2, 2, Nearest)
	if err != nil {
		t.Fatal(err)
	}
	// x: step 2 from 1 → 1, 3; y: step 1.5 from 0.75 → 0, 2.
	want := []uint8{1, 0, 1, 3, 0, 3, 1, 2, 3, 3, 2, 5}
	if !bytes.Equal(got.Pix, want) {
		t.Errorf("nearest %v, want %v", got.Pix, want)
	}
}

func TestResizeBilinearSmall(t *testing.T) {
	// 4 → 2 bilinear: support 2, each output averages inputs with weights
	// 1/8, 3/8, 3/8, 1/8 (Pillow), here on a single row 0, 40, 80, 120.
	img := &RGB{Width: 4, Height: 1, Pix: []uint8{0, 0, 0, 40, 40, 40, 80, 80, 80, 120, 120, 120}}
	got, err := Resize(img, 2, 1, Bilinear)
	if err != nil {
		t.Fatal(err)
	}
	// out0 = (3·0 + 3·40... over inputs 0..2: weights 3/8,3/8,... normalised:
	// centre 1, support 2: taps x=0,1,2 with w = 0.75, 0.75, 0.25 → /1.75
	// = (0·0.75 + 40·0.75 + 80·0.25)/1.75 = 28.57 → 29 (rounded half up in
	// fixed point); out1 symmetric: (40·0.25+80·0.75+120·0.75)/1.75 = 91.43 → 91.
	want := []uint8{29, 29, 29, 91, 91, 91}
	if !bytes.Equal(got.Pix, want) {
		t.Errorf("bilinear %v, want %v", got.Pix, want)
	}
}

func TestResizeErrors(t *testing.T) {
	img := gradient(4, 3)
	if _, err := Resize(img, 0, 3, Bilinear); err == nil {
		t.Error("Resize to width 0: no error")
	}
	if _, err := Resize(img, 2, 2, Filter(9)); err == nil {
		t.Error("Resize with filter 9: no error")
	}
	if _, err := Resize(&RGB{Width: 2, Height: 2, Pix: make([]uint8, 5)}, 1, 1, Bilinear); err == nil {
		t.Error("Resize of an inconsistent image: no error")
	}
	same, err := Resize(img, 4, 3, Bicubic)
	if err != nil || !bytes.Equal(same.Pix, img.Pix) {
		t.Errorf("same-size Resize is not a copy: %v", err)
	}
}
