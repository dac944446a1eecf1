package imageproc

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// pngHeader returns a PNG signature and IHDR chunk claiming w×h RGB pixels
// followed by an empty IDAT, so only the header is plausible.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		b.Write(n[:])
		b.WriteString(typ)
		b.Write(data)
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		b.Write(n[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit truecolour
	chunk("IHDR", ihdr)
	chunk("IDAT", nil)
	chunk("IEND", nil)
	return b.Bytes()
}

// jpegHeader returns SOI, a JFIF APP0 and a baseline SOF0 claiming w×h, 3
// components (the standard library reads the size of a JFIF file from the
// SOF alone).
func jpegHeader(w, h uint16) []byte {
	b := []byte{0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0}
	b = append(b, 0xff, 0xc0, 0, 17, 8)
	b = binary.BigEndian.AppendUint16(b, h)
	b = binary.BigEndian.AppendUint16(b, w)
	b = append(b, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9)
	return b
}

// TestDecodeRejectsHugeHeaders checks that a header claiming more pixels than
// the limit is refused before the pixels are allocated.
func TestDecodeRejectsHugeHeaders(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		opts DecodeOptions
	}{
		{"png 100000x100000", pngHeader(100000, 100000), DecodeOptions{}},
		{"jpeg 65535x65535", jpegHeader(65535, 65535), DecodeOptions{}},
		{"png over a custom limit", pngHeader(1000, 1000), DecodeOptions{MaxPixels: 999999}},
	}
	for _, c := range cases {
		_, err := Decode(bytes.NewReader(c.data), c.opts)
		if err == nil || !strings.Contains(err.Error(), "exceeds the limit") {
			t.Errorf("%s: error %v, want a pixel-limit error", c.name, err)
		}
	}
	if _, err := Decode(bytes.NewReader(pngHeader(10, 10)), DecodeOptions{MaxBytes: 8}); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("byte limit: error %v", err)
	}
	if _, err := Decode(strings.NewReader("GIF89a"), DecodeOptions{}); err == nil {
		t.Error("GIF input: no error")
	}
}

// FuzzDecode feeds arbitrary bytes to the decoder: it must return an image
// or an error, never panic, and never accept more than the pixel limit.
func FuzzDecode(f *testing.F) {
	for _, p := range []string{"crops/crop_000.jpg", "crops/crop_096.jpg", "crops/crop_106.jpg"} {
		if b, err := os.ReadFile(filepath.Join(testdataDir, p)); err == nil {
			f.Add(b)
		}
	}
	f.Add(pngHeader(3, 2))
	f.Add(jpegHeader(16, 16))
	small := &RGB{Width: 3, Height: 2, Pix: []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}}
	f.Add(encodeRGBPNG(f, small))
	const limit = 1 << 16
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := Decode(bytes.NewReader(data), DecodeOptions{MaxPixels: limit})
		if err != nil {
			return
		}
		if int64(img.Width)*int64(img.Height) > limit {
			t.Fatalf("decoded %dx%d, above the %d-pixel limit", img.Width, img.Height, limit)
		}
		if len(img.Pix) != img.Width*img.Height*3 {
			t.Fatalf("inconsistent image %dx%d with %d bytes", img.Width, img.Height, len(img.Pix))
		}
		src, err := DecodeSource(bytes.NewReader(data), DecodeOptions{MaxPixels: limit})
		if err != nil {
			t.Fatalf("Decode succeeded but DecodeSource failed: %v", err)
		}
		if src.Alpha != nil && len(src.Alpha) != img.Width*img.Height {
			t.Fatalf("alpha of %d values for %dx%d", len(src.Alpha), img.Width, img.Height)
		}
	})
}

// encodeRGBPNG encodes an RGB image as PNG for seeds.
func encodeRGBPNG(tb testing.TB, m *RGB) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := writePNG(&buf, m); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestDecodeBombsFailFastAndSmall: small files whose headers claim many
// pixels (within MaxPixels) are refused by the pixels-per-byte bound before
// the pixels are allocated; a valid highly compressible PNG of the same
// size is not.
func TestDecodeBombsFailFastAndSmall(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(128 << 20))
	for name, data := range map[string][]byte{
		"png 12000x12000 in a few bytes":  pngHeader(12000, 12000),
		"jpeg 12000x12000 in a few bytes": jpegHeader(12000, 12000),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Decode(bytes.NewReader(data), DecodeOptions{})
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "pixels per byte") {
			t.Errorf("%s: error %v, want the pixels-per-byte bound", name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
			t.Errorf("%s: %d bytes allocated before failing", name, alloc)
		}
	}
	// A 2000×2000 black PNG is a few kilobytes, about 1000 pixels per byte:
	// valid, and decoded.
	black := &RGB{Width: 2000, Height: 2000, Pix: make([]uint8, 3*2000*2000)}
	data := encodeRGBPNG(t, black)
	if ratio := 2000 * 2000 / len(data); ratio < 100 {
		t.Fatalf("the black PNG is only %d pixels per byte; the case tests nothing", ratio)
	}
	if _, err := Decode(bytes.NewReader(data), DecodeOptions{}); err != nil {
		t.Errorf("a valid compressible PNG (%d bytes): %v", len(data), err)
	}
	if _, err := Decode(bytes.NewReader(data), DecodeOptions{MaxPixelsPerByte: 10}); err == nil {
		t.Error("MaxPixelsPerByte 10 accepted a PNG of hundreds of pixels per byte")
	}
}
