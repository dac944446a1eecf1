package imageproc

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/internal/npy"
)

// cropsIndex is testdata/crops.json.gz: the RoViST-VG crop JPEGs and where
// Pillow's decode of each lies in crops_decoded_u8.
type cropsIndex struct {
	Crops []struct {
		File      string `json:"file"`
		JPEGStyle string `json:"jpeg_style"`
		JPEGMode  string `json:"jpeg_mode"`
		Offset    int    `json:"offset"`
		H         int    `json:"h"`
		W         int    `json:"w"`
	} `json:"crops"`
}

func readGzipJSON(t testing.TB, path string, v any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := json.NewDecoder(zr).Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// pillowCrops returns the crop list and Pillow's decoded bytes.
func pillowCrops(t testing.TB) (cropsIndex, []int64) {
	t.Helper()
	var idx cropsIndex
	readGzipJSON(t, filepath.Join(testdataDir, "crops.json.gz"), &idx)
	a, err := npy.ReadFile(filepath.Join(testdataDir, "crops_decoded_u8.npy.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if a.I64 == nil {
		t.Fatalf("crops_decoded_u8: dtype %s, want an integer array", a.DType)
	}
	return idx, a.I64
}

// levelStats compares decoded crops with Pillow's bytes.
type levelStats struct {
	n, exact    int
	sum, maxAbs int
}

func (s *levelStats) add(got []uint8, want []int64) {
	for i, g := range got {
		d := int(g) - int(want[i])
		if d < 0 {
			d = -d
		}
		s.n++
		s.sum += d
		if d == 0 {
			s.exact++
		}
		s.maxAbs = max(s.maxAbs, d)
	}
}

func (s levelStats) mean() float64 { return float64(s.sum) / float64(s.n) }

// TestJPEGDecodeMatchesPillow decodes the 107 RoViST-VG crop JPEGs (4:2:0
// baseline and progressive, 4:4:4, grayscale) with each JPEGMethod and
// compares the pixels with Pillow 9.4 (libjpeg-turbo). The default decoder
// must be bit-identical; the standard library's IDCT with libjpeg's
// upsampling must stay within the target of 3 levels; the plain
// standard library is measured for comparison.
func TestJPEGDecodeMatchesPillow(t *testing.T) {
	idx, want := pillowCrops(t)
	if len(idx.Crops) == 0 {
		t.Fatal("no crops listed")
	}
	methods := []struct {
		name   string
		method JPEGMethod
	}{{"libjpeg", JPEGLibjpeg}, {"stdlib+fancy", JPEGStdlibFancy}, {"stdlib", JPEGStdlib}}
	stats := map[string]*levelStats{}
	for _, m := range methods {
		all := &levelStats{}
		stats[m.name] = all
		styles := map[string]*levelStats{}
		for _, c := range idx.Crops {
			img, err := DecodeFile(filepath.Join(testdataDir, c.File), DecodeOptions{JPEG: m.method})
			if err != nil {
				t.Fatal(err)
			}
			if img.Width != c.W || img.Height != c.H {
				t.Fatalf("%s: decoded %dx%d, Pillow %dx%d", c.File, img.Width, img.Height, c.W, c.H)
			}
			ref := want[c.Offset : c.Offset+c.W*c.H*3]
			all.add(img.Pix, ref)
			s := styles[c.JPEGStyle]
			if s == nil {
				s = &levelStats{}
				styles[c.JPEGStyle] = s
			}
			s.add(img.Pix, ref)
		}
		for name, s := range styles {
			t.Logf("%-12s %-12s %7d values: %7.3f%% exact, mean |diff| %.4f, max %d", m.name, name, s.n, 100*float64(s.exact)/float64(s.n), s.mean(), s.maxAbs)
		}
		t.Logf("%-12s %-12s %7d values: %7.3f%% exact, mean |diff| %.4f, max %d", m.name, "all", all.n, 100*float64(all.exact)/float64(all.n), all.mean(), all.maxAbs)
		if all.n != len(want) {
			t.Errorf("%s: compared %d values, Pillow's array has %d", m.name, all.n, len(want))
		}
	}
	if s := stats["libjpeg"]; s.exact != s.n {
		t.Errorf("default decoder: %d/%d values identical to Pillow, max diff %d", s.exact, s.n, s.maxAbs)
	}
	if s := stats["stdlib+fancy"]; s.maxAbs > 3 {
		t.Errorf("stdlib+fancy: max level difference from Pillow %d, want ≤ 3", s.maxAbs)
	}
	if a, b := stats["stdlib+fancy"].mean(), stats["stdlib"].mean(); !(a < b) {
		t.Errorf("libjpeg-style upsampling (mean %.4f) is not closer to Pillow than the standard library's (%.4f)", a, b)
	}
}

// TestViTOnPillowDecodedCrops feeds Pillow's own decode of the crops through
// the RoViST-VG ViTFeatureExtractor config (legacy "size": 32) and checks
// float32 equality with the reference's pixel_values, so everything after
// decoding is bit-exact on JPEG input too.
func TestViTOnPillowDecodedCrops(t *testing.T) {
	idx, u8 := pillowCrops(t)
	f, err := os.Open(filepath.Join(testdataDir, "vit_in21k_tiny_preprocessor_config.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var buf []byte
	if buf, err = readAllLimited(zr); err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseProcessorConfig(buf)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Kind != ViT || cfg.Size != (Size{Height: 32, Width: 32}) || cfg.Resample != Bilinear {
		t.Fatalf("legacy ViTFeatureExtractor config read as %+v", cfg)
	}
	p, err := NewProcessor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := npy.ReadFile(filepath.Join(testdataDir, "crops_pixel_values.npy.gz"))
	if err != nil {
		t.Fatal(err)
	}
	n := want.Shape[0]
	per := want.Len() / n
	// From Pillow's decoded bytes, and end to end from the JPEG files.
	for _, fromFile := range []bool{false, true} {
		same := 0
		for i := 0; i < n; i++ {
			c := idx.Crops[i]
			img := &RGB{Width: c.W, Height: c.H, Pix: make([]uint8, c.W*c.H*3)}
			for j := range img.Pix {
				img.Pix[j] = uint8(u8[c.Offset+j])
			}
			if fromFile {
				if img, err = DecodeFile(filepath.Join(testdataDir, c.File), DecodeOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			got, err := p.Preprocess(img, nil)
			if err != nil {
				t.Fatal(err)
			}
			ref := want.F32[i*per : (i+1)*per]
			for j, v := range got.Data {
				if math.Float32bits(v) == math.Float32bits(ref[j]) {
					same++
				}
			}
		}
		t.Logf("crops pixel_values (decoded from the JPEG files: %v): %d/%d bit-identical", fromFile, same, want.Len())
		if same != want.Len() {
			t.Errorf("decoded from files %v: %d/%d values bit-identical", fromFile, same, want.Len())
		}
	}
}

// TestLibjpegDecoderAgreesWithStdlib decodes JPEGs written by the standard
// library's encoder (its own Huffman tables, 4:2:0 and grayscale, sizes
// that are not multiples of the MCU) with both decoders: they differ only
// by the IDCT, so every sample must lie within 3 levels.
func TestLibjpegDecoderAgreesWithStdlib(t *testing.T) {
	src := benchImage()
	for _, size := range [][2]int{{640, 480}, {37, 23}, {17, 9}, {1, 1}} {
		for _, gray := range []bool{false, true} {
			var m image.Image
			if gray {
				g := image.NewGray(image.Rect(0, 0, size[0], size[1]))
				for i := range g.Pix {
					g.Pix[i] = src.Pix[3*i]
				}
				m = g
			} else {
				rgba := image.NewRGBA(image.Rect(0, 0, size[0], size[1]))
				for y := 0; y < size[1]; y++ {
					for x := 0; x < size[0]; x++ {
						o := (y*src.Width + x) * 3
						rgba.SetRGBA(x, y, color.RGBA{src.Pix[o], src.Pix[o+1], src.Pix[o+2], 255})
					}
				}
				m = rgba
			}
			var buf bytes.Buffer
			if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 85}); err != nil {
				t.Fatal(err)
			}
			a, err := Decode(bytes.NewReader(buf.Bytes()), DecodeOptions{})
			if err != nil {
				t.Fatalf("%v gray=%v: %v", size, gray, err)
			}
			b, err := Decode(bytes.NewReader(buf.Bytes()), DecodeOptions{JPEG: JPEGStdlibFancy})
			if err != nil {
				t.Fatal(err)
			}
			maxd := 0
			for i := range a.Pix {
				d := int(a.Pix[i]) - int(b.Pix[i])
				maxd = max(maxd, d, -d)
			}
			if maxd > 3 {
				t.Errorf("%v gray=%v: decoders differ by up to %d levels", size, gray, maxd)
			}
		}
	}
}

// TestJPEGWithoutEOI: a file whose entropy-coded data is complete but whose
// EOI marker is missing still decodes (libjpeg inserts the marker), while a
// file cut inside the scan is an error (Pillow: "image file is truncated").
func TestJPEGWithoutEOI(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdataDir, "crops", "crop_000.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	full, err := Decode(bytes.NewReader(data), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(data, []byte{0xff, 0xd9}) {
		t.Fatal("fixture does not end with EOI")
	}
	noEOI, err := Decode(bytes.NewReader(data[:len(data)-2]), DecodeOptions{})
	if err != nil {
		t.Fatalf("without EOI: %v", err)
	}
	if !bytes.Equal(noEOI.Pix, full.Pix) {
		t.Error("without EOI: pixels differ")
	}
	if _, err := Decode(bytes.NewReader(data[:len(data)/2]), DecodeOptions{}); err == nil {
		t.Error("file cut in half: no error")
	}
}
