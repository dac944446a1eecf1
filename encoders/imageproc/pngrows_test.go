package imageproc

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image/png"
	"math/rand/v2"
	"testing"
)

// pngSpec describes a PNG that buildPNG builds with every filter type and
// random samples, which image/png's encoder cannot: any colour type and
// bit depth, Adam7 interlacing, a palette shorter than the indices used,
// a tRNS chunk.
type pngSpec struct {
	w, h, depth, ctype int
	interlaced         bool
	palette            int // entries in PLTE (palette images)
	trns               bool
}

// pngChunk appends one chunk with its length and CRC.
func pngChunk(b *bytes.Buffer, typ string, data []byte) {
	b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(data))))
	b.WriteString(typ)
	b.Write(data)
	b.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(append([]byte(typ), data...))))
}

// buildPNG builds a file of s with random pixels, cycling the filter type
// row by row (each filter computed from the raw samples as an encoder
// would).
func buildPNG(s pngSpec, rng *rand.Rand) []byte {
	var b bytes.Buffer
	b.WriteString(pngSignature)
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(s.w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(s.h))
	il := byte(0)
	if s.interlaced {
		il = 1
	}
	ihdr = append(ihdr, byte(s.depth), byte(s.ctype), 0, 0, il)
	pngChunk(&b, "IHDR", ihdr)
	if s.ctype == 3 {
		pal := make([]byte, 3*s.palette)
		for i := range pal {
			pal[i] = byte(rng.IntN(256))
		}
		pngChunk(&b, "PLTE", pal)
	}
	if s.trns {
		n := map[int]int{0: 2, 2: 6, 3: min(s.palette, 3)}[s.ctype]
		t := make([]byte, n)
		for i := range t {
			t[i] = byte(rng.IntN(256))
		}
		pngChunk(&b, "tRNS", t)
	}
	channels := map[int]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[s.ctype]
	bits := channels * s.depth
	bpp := max(1, bits/8)
	var raw bytes.Buffer
	passes := [][4]int{{0, 0, 1, 1}}
	if s.interlaced {
		passes = adam7[:]
	}
	for _, p := range passes {
		pw := (s.w - p[0] + p[2] - 1) / p[2]
		ph := (s.h - p[1] + p[3] - 1) / p[3]
		if pw <= 0 || ph <= 0 {
			continue
		}
		n := (pw*bits + 7) / 8
		prev := make([]byte, n)
		for y := 0; y < ph; y++ {
			row := make([]byte, n)
			for i := range row {
				row[i] = byte(rng.IntN(256))
			}
			ft := byte((y + len(raw.Bytes())) % 5)
			out := make([]byte, n)
			for i := range row {
				var a, c int
				if i >= bpp {
					a, c = int(row[i-bpp]), int(prev[i-bpp])
				}
				up := int(prev[i])
				pred := map[byte]int{0: 0, 1: a, 2: up, 3: (a + up) / 2, 4: int(paeth(a, up, c))}[ft]
				out[i] = row[i] - byte(pred)
			}
			raw.WriteByte(ft)
			raw.Write(out)
			prev = row
		}
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(raw.Bytes())
	zw.Close()
	// The pixel data split over two IDAT chunks.
	half := z.Len() / 2
	pngChunk(&b, "IDAT", z.Bytes()[:half])
	pngChunk(&b, "IDAT", z.Bytes()[half:])
	pngChunk(&b, "IEND", nil)
	return b.Bytes()
}

// stdlibPNG is what Decode produced before decodePNGRows: image/png, then
// ToRGB, with alpha's high byte for colour types 4 and 6.
func stdlibPNG(data []byte) (*RGB, []uint8, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, nil, err
	}
	m, err := ToRGB(img)
	if err != nil {
		return nil, nil, err
	}
	var alpha []uint8
	if ctype := data[25]; ctype == 4 || ctype == 6 {
		b := img.Bounds()
		alpha = make([]uint8, b.Dx()*b.Dy())
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < b.Dx(); x++ {
				_, _, _, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
				alpha[y*b.Dx()+x] = uint8(a >> 8)
			}
		}
	}
	return m, alpha, nil
}

// TestPNGRowsMatchesStdlib decodes files of every colour type, bit depth,
// interlacing and filter with decodePNGRows and with image/png plus ToRGB:
// the RGB and alpha bytes must be identical.
func TestPNGRowsMatchesStdlib(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	depths := map[int][]int{0: {1, 2, 4, 8, 16}, 2: {8, 16}, 3: {1, 2, 4, 8}, 4: {8, 16}, 6: {8, 16}}
	checked := 0
	for ctype, ds := range depths {
		for _, depth := range ds {
			for _, il := range []bool{false, true} {
				for _, size := range [][2]int{{1, 1}, {3, 2}, {9, 7}, {17, 13}} {
					s := pngSpec{w: size[0], h: size[1], depth: depth, ctype: ctype, interlaced: il,
						palette: max(1, (1<<depth)*2/3), trns: (ctype == 2 || ctype == 3 || (ctype == 0 && depth < 16)) && size[0]%2 == 1}
					name := fmt.Sprintf("%+v", s)
					data := buildPNG(s, rng)
					want, wantAlpha, err := stdlibPNG(data)
					if err != nil {
						t.Fatalf("%s: image/png: %v", name, err)
					}
					got, gotAlpha, err := decodePNGRows(data, true)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if !bytes.Equal(got.Pix, want.Pix) || got.Width != want.Width || got.Height != want.Height {
						t.Fatalf("%s: RGB differs from image/png's", name)
					}
					if !bytes.Equal(gotAlpha, wantAlpha) {
						t.Fatalf("%s: alpha differs from image/png's", name)
					}
					checked++
				}
			}
		}
	}
	if checked != 15*2*4 {
		t.Fatalf("checked %d files, want %d", checked, 15*2*4)
	}
}

// TestPNGRowsGray16WithTransparencyClips: a 16-bit gray PNG with a tRNS
// chunk converts like one without, by clipping (Pillow opens both as mode
// I and converts I→RGB by clipping); image/png would give an NRGBA64 image
// whose ToRGB takes the high byte instead.
func TestPNGRowsGray16WithTransparencyClips(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(pngSignature)
	pngChunk(&b, "IHDR", []byte{0, 0, 0, 2, 0, 0, 0, 1, 16, 0, 0, 0, 0})
	pngChunk(&b, "tRNS", []byte{0, 7})
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write([]byte{0, 0x01, 0x2c, 0x00, 0x64}) // 300 and 100
	zw.Close()
	pngChunk(&b, "IDAT", z.Bytes())
	pngChunk(&b, "IEND", nil)
	m, _, err := decodePNGRows(b.Bytes(), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint8{255, 255, 255, 100, 100, 100}; !bytes.Equal(m.Pix, want) {
		t.Fatalf("pixels %v, want %v", m.Pix, want)
	}
}

// FuzzPNGRows: on any input image/png decodes, decodePNGRows gives the
// same pixels; on any input image/png rejects, it fails too (16-bit gray
// with tRNS aside, see TestPNGRowsGray16WithTransparencyClips).
func FuzzPNGRows(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []pngSpec{{w: 5, h: 4, depth: 8, ctype: 2}, {w: 9, h: 9, depth: 2, ctype: 3, interlaced: true, palette: 3, trns: true},
		{w: 3, h: 7, depth: 16, ctype: 6, interlaced: true}, {w: 4, h: 4, depth: 1, ctype: 0}} {
		f.Add(buildPNG(s, rng))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width*cfg.Height > 1<<20 || (data[25] == 0 && data[24] == 16) {
			return
		}
		want, wantAlpha, werr := stdlibPNG(data)
		got, gotAlpha, gerr := decodePNGRows(data, true)
		if werr != nil {
			if gerr == nil {
				t.Fatalf("image/png fails (%v), decodePNGRows does not", werr)
			}
			return
		}
		if gerr != nil {
			t.Fatalf("image/png decodes, decodePNGRows fails: %v", gerr)
		}
		if !bytes.Equal(got.Pix, want.Pix) || !bytes.Equal(gotAlpha, wantAlpha) {
			t.Fatal("pixels differ from image/png's")
		}
	})
}

// BenchmarkPNGDecode compares decodePNGRows with what Decode did before
// (image/png, then ToRGB) on a 1024×768 8-bit RGB file of random samples
// and every filter type.
func BenchmarkPNGDecode(b *testing.B) {
	data := buildPNG(pngSpec{w: 1024, h: 768, depth: 8, ctype: 2}, rand.New(rand.NewPCG(5, 6)))
	b.Run("rows", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := decodePNGRows(data, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stdlib+ToRGB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := stdlibPNG(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
