package imageproc

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func encodePNG(t *testing.T, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDecodePNGModes checks the convert("RGB") rules per PNG colour type.
func TestDecodePNGModes(t *testing.T) {
	gray := image.NewGray(image.Rect(0, 0, 2, 1))
	gray.Pix = []uint8{7, 200}
	nrgba := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	nrgba.Pix = []uint8{10, 20, 30, 0} // fully transparent: colour kept, alpha dropped
	pal := image.NewPaletted(image.Rect(0, 0, 2, 1), color.Palette{
		color.RGBA{1, 2, 3, 255}, color.NRGBA{40, 50, 60, 0},
	})
	pal.Pix = []uint8{1, 0}
	g16 := image.NewGray16(image.Rect(0, 0, 3, 1))
	for i, v := range []uint16{100, 255, 4000} {
		g16.SetGray16(i, 0, color.Gray16{Y: v})
	}
	rgb16 := image.NewRGBA64(image.Rect(0, 0, 1, 1))
	rgb16.SetRGBA64(0, 0, color.RGBA64{R: 0x12ff, G: 0xab00, B: 0x0001, A: 0xffff})
	cases := []struct {
		name string
		img  image.Image
		want []uint8
	}{
		{"L", gray, []uint8{7, 7, 7, 200, 200, 200}},
		{"RGBA", nrgba, []uint8{10, 20, 30}},
		{"P", pal, []uint8{40, 50, 60, 1, 2, 3}},
		{"I;16 clipped", g16, []uint8{100, 100, 100, 255, 255, 255, 255, 255, 255}},
		{"RGB;16 high byte", rgb16, []uint8{0x12, 0xab, 0x00}},
	}
	for _, c := range cases {
		got, err := Decode(bytes.NewReader(encodePNG(t, c.img)), DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Equal(got.Pix, c.want) {
			t.Errorf("%s: pixels %v, want %v", c.name, got.Pix, c.want)
		}
	}
}

// TestFancyUpsamplingRows checks the libjpeg triangle filters on rows
// worked out by hand from jdsample.c's formulas.
func TestFancyUpsamplingRows(t *testing.T) {
	out := make([]uint8, 6)
	h2v1FancyRow(out, []uint8{0, 100, 200})
	// first: in0; (3·0+100+2)>>2; (300+0+1)>>2; (300+200+2)>>2; (600+100+1)>>2; last: in2
	if want := []uint8{0, 25, 75, 125, 175, 200}; !bytes.Equal(out, want) {
		t.Errorf("h2v1 row %v, want %v", out, want)
	}
	// h2v2 on a 3×2 plane: output row 0 uses 3·row0 + row0 (top edge repeated).
	p := plane{w: 3, h: 2, pix: []uint8{0, 100, 200, 40, 40, 40}}
	up := upsampleChroma(p, 2, 2, 5, 4)
	// row 0 colsums: 0, 400, 800 → (0·4+8)>>4=0, (0·3+400+7)>>4=25, (1200+0+8)>>4=75, (1200+800+7)>>4=125, (2400+400+8)>>4=175
	// row 1 colsums (3·row0 + row1): 40, 340, 640 → 10, (120+340+7)>>4=29, (1020+40+8)>>4=66, (1020+640+7)>>4=104, (1920+340+8)>>4=141
	want := []uint8{0, 25, 75, 125, 175, 10, 29, 66, 104, 141}
	if !bytes.Equal(up[:10], want) {
		t.Errorf("h2v2 rows %v, want %v", up[:10], want)
	}
	// A plane 2 samples wide is replicated, not interpolated (jinit_upsampler
	// needs downsampled_width > 2 for the fancy method).
	p = plane{w: 2, h: 1, pix: []uint8{10, 90}}
	if up := upsampleChroma(p, 2, 2, 4, 2); !bytes.Equal(up, []uint8{10, 10, 90, 90, 10, 10, 90, 90}) {
		t.Errorf("narrow h2v2 = %v, want replication", up)
	}
}

func TestYCCTablesMatchLibjpeg(t *testing.T) {
	tb := newYCCTables()
	// Values of jdcolor.c's tables: Cr_r_tab[255] = round(1.402·127) = 178,
	// Cb_b_tab[0] = round(−1.772·128) = −227, Cr_g_tab[0] = 46802·128... as
	// FIX(0.71414)=46802, FIX(0.34414)=22554.
	if tb.crR[255] != 178 || tb.cbB[0] != -227 || tb.crG[0] != 46802*128 || tb.cbG[255] != -22554*127+32768 {
		t.Errorf("tables: crR[255]=%d cbB[0]=%d crG[0]=%d cbG[255]=%d", tb.crR[255], tb.cbB[0], tb.crG[0], tb.cbG[255])
	}
}
