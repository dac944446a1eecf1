package imageproc

import (
	"bytes"
	"image"
	"image/jpeg"
	"testing"
)

// benchImage is a deterministic 640×480 RGB image with texture in every
// channel (a linear congruential generator mixed with gradients).
func benchImage() *RGB {
	const w, h = 640, 480
	m := &RGB{Width: w, Height: h, Pix: make([]uint8, w*h*3)}
	s := uint32(1)
	for i := range m.Pix {
		s = s*1664525 + 1013904223
		x, y := (i/3)%w, (i/3)/w
		m.Pix[i] = uint8(x/3 + y/4 + int(s>>28))
	}
	return m
}

func benchmarkProcessor(b *testing.B, kind ProcessorKind) {
	img := benchImage()
	cfg, err := DefaultConfig(kind)
	if err != nil {
		b.Fatal(err)
	}
	p, err := NewProcessor(cfg)
	if err != nil {
		b.Fatal(err)
	}
	var dst []float32
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pv, err := p.Preprocess(img, dst)
		if err != nil {
			b.Fatal(err)
		}
		dst = pv.Data
	}
}

// BenchmarkPreprocessViT640x480 resizes a 640×480 image to 224×224
// (bilinear) and normalises it, reusing the output buffer.
func BenchmarkPreprocessViT640x480(b *testing.B) { benchmarkProcessor(b, ViT) }

// BenchmarkPreprocessCLIP640x480 resizes a 640×480 image to 298×224
// (bicubic), center-crops 224×224 and normalises it.
func BenchmarkPreprocessCLIP640x480(b *testing.B) { benchmarkProcessor(b, CLIP) }

// BenchmarkDecodeJPEG640x480 decodes a 4:2:0 JPEG of 640×480 to RGB with
// the libjpeg port and with the standard library's decoder plus libjpeg's
// upsampling.
func BenchmarkDecodeJPEG640x480(b *testing.B) {
	src := benchImage()
	rgba := image.NewRGBA(image.Rect(0, 0, src.Width, src.Height))
	for i := 0; i < src.Width*src.Height; i++ {
		copy(rgba.Pix[4*i:4*i+3], src.Pix[3*i:3*i+3])
		rgba.Pix[4*i+3] = 0xff
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, rgba, &jpeg.Options{Quality: 90}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	for _, m := range []struct {
		name   string
		method JPEGMethod
	}{{"libjpeg", JPEGLibjpeg}, {"stdlib+fancy", JPEGStdlibFancy}} {
		b.Run(m.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Decode(bytes.NewReader(data), DecodeOptions{JPEG: m.method}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
