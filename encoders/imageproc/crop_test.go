package imageproc

import "testing"

// gradient returns a w×h image whose pixel (x, y) is (x, y, x+y).
func gradient(w, h int) *RGB {
	m := &RGB{Width: w, Height: h, Pix: make([]uint8, w*h*3)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			o := (y*w + x) * 3
			m.Pix[o], m.Pix[o+1], m.Pix[o+2] = uint8(x), uint8(y), uint8(x+y)
		}
	}
	return m
}

func TestBoxRectRoundsHalfToEven(t *testing.T) {
	cases := []struct {
		box            Box
		x0, y0, x1, y1 int
	}{
		{Box{62.0, 62.0, 126.0, 94.0}, 62, 62, 126, 94},
		{Box{4.0625, 67.4375, 41.25, 96.0}, 4, 67, 41, 96},
		{Box{4.5, 5.5, 6.5, 7.5}, 4, 6, 6, 8},
		{Box{13.109375, 46.6171875, 41.4921875, 70.953125}, 13, 47, 41, 71},
		{Box{-0.5, -1.5, 0.5, 2.5}, 0, -2, 0, 2},
	}
	for _, c := range cases {
		x0, y0, x1, y1, err := c.box.Rect()
		if err != nil {
			t.Fatal(err)
		}
		if x0 != c.x0 || y0 != c.y0 || x1 != c.x1 || y1 != c.y1 {
			t.Errorf("%v.Rect() = %d,%d,%d,%d, want %d,%d,%d,%d", c.box, x0, y0, x1, y1, c.x0, c.y0, c.x1, c.y1)
		}
	}
}

func TestCropPillowSemantics(t *testing.T) {
	img := gradient(10, 8)
	got, err := Crop(img, Box{2.5, 1.5, 5.4, 4.6}) // rounds to (2, 2, 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got.Width != 3 || got.Height != 3 {
		t.Fatalf("crop size %dx%d, want 3x3", got.Width, got.Height)
	}
	if p := got.Pix[:3]; p[0] != 2 || p[1] != 2 || p[2] != 4 {
		t.Errorf("top-left pixel %v, want [2 2 4]", p)
	}
	// Outside the image Pillow fills with black.
	img.Pix[0], img.Pix[1], img.Pix[2] = 9, 9, 9
	got, err = Crop(img, Box{-2, -1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got.Width != 3 || got.Height != 2 {
		t.Fatalf("crop size %dx%d, want 3x2", got.Width, got.Height)
	}
	want := make([]uint8, 3*2*3)
	want[(1*3+2)*3+0], want[(1*3+2)*3+1], want[(1*3+2)*3+2] = 9, 9, 9 // source (0,0) lands at (2,1)
	for i, v := range got.Pix {
		if v != want[i] {
			t.Fatalf("out-of-bounds crop pixels %v, want %v", got.Pix, want)
		}
	}
	// right < left is an error, as in Pillow.
	if _, err := Crop(img, Box{5, 0, 4, 3}); err == nil {
		t.Error("Crop with right < left: no error")
	}
	// A box that rounds to zero width is an empty image, not an error.
	got, err = Crop(img, Box{3.5, 0, 4.4, 3}) // 4 and 4
	if err != nil || got.Width != 0 || got.Height != 3 {
		t.Errorf("zero-width crop = %+v, %v", got, err)
	}
}

func TestCenterCropRounding(t *testing.T) {
	cases := []struct {
		size, crop int
		r          CropRounding
		want       int
	}{
		{457, 224, CropFloor, 116},         // golden img1: (457-224)//2
		{457, 224, CropRoundHalfEven, 116}, // round(116.5) = 116
		{459, 224, CropFloor, 117},
		{459, 224, CropRoundHalfEven, 118}, // round(117.5) = 118
		{336, 224, CropRoundHalfEven, 56},
		{100, 224, CropFloor, -62}, // padded: image at (224-100)//2
		{101, 224, CropRoundHalfEven, -61},
	}
	for _, c := range cases {
		if got := centerOffset(c.size, c.crop, c.r); got != c.want {
			t.Errorf("centerOffset(%d, %d, %v) = %d, want %d", c.size, c.crop, c.r, got, c.want)
		}
	}
	img := gradient(7, 5)
	got, err := CenterCrop(img, 4, 2, CropFloor) // left 1, top 1
	if err != nil {
		t.Fatal(err)
	}
	if got.Pix[0] != 1 || got.Pix[1] != 1 {
		t.Errorf("CenterCrop floor top-left = %v, want x=1 y=1", got.Pix[:3])
	}
	got, err = CenterCrop(img, 4, 2, CropRoundHalfEven) // round(1.5)=2, round(1.5)=2
	if err != nil {
		t.Fatal(err)
	}
	if got.Pix[0] != 2 || got.Pix[1] != 2 {
		t.Errorf("CenterCrop half-even top-left = %v, want x=2 y=2", got.Pix[:3])
	}
}

func TestShortestEdgeSize(t *testing.T) {
	cases := []struct{ w, h, size, ww, wh int }{
		{300, 200, 224, 336, 224},
		{157, 321, 224, 224, 457}, // 224*321/157 = 457.98 truncated
		{48, 64, 224, 224, 298},
		{224, 500, 224, 224, 500}, // short side already 224: unchanged
		{640, 480, 224, 298, 224},
	}
	for _, c := range cases {
		if w, h := ShortestEdgeSize(c.w, c.h, c.size); w != c.ww || h != c.wh {
			t.Errorf("ShortestEdgeSize(%d, %d, %d) = %dx%d, want %dx%d", c.w, c.h, c.size, w, h, c.ww, c.wh)
		}
	}
}
