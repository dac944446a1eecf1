package imageproc

import (
	"fmt"
	"io"
)

// Source is a decoded image as Pillow holds it before convert("RGB"): the
// colour channels plus the two properties of its mode that change how
// Image.resize treats it. Matches the reference implementation, which
// resizes RGBA premultiplied and palette images with NEAREST even when
// BICUBIC is asked for. Pipelines that convert to RGB only after resizing
// (OpenAI CLIP's preprocess as CLIPScore runs it on Image.open(path))
// need them; pipelines that convert first (HF processors after
// convert("RGB"), metric code that opens images with .convert("RGB")) use
// Source.RGB or Decode.
type Source struct {
	// RGB is the image converted as by convert("RGB") (see ToRGB).
	RGB *RGB
	// Alpha holds one byte per pixel for Pillow modes RGBA and LA (PNG
	// colour types 6 and 4), nil otherwise: such images are resized
	// premultiplied.
	Alpha []uint8
	// NearestOnly is set for Pillow modes P and 1 (palette PNGs, 1-bit gray
	// PNGs), which Image.resize always resamples with NEAREST.
	NearestOnly bool
}

// DecodeSource decodes like Decode and keeps what Source records.
func DecodeSource(r io.Reader, opts DecodeOptions) (*Source, error) {
	data, err := readEncoded(r, opts)
	if err != nil {
		return nil, err
	}
	return sourceFromData(data, opts)
}

// sourceFromData decodes an encoded image held in memory into a Source.
func sourceFromData(data []byte, opts DecodeOptions) (*Source, error) {
	m, alpha, err := decodeData(data, opts, true)
	if err != nil {
		return nil, err
	}
	src := &Source{RGB: m, Alpha: alpha}
	if f, _ := sniff(data); f == FormatPNG && len(data) >= 26 {
		// IHDR is the first chunk: bit depth at byte 24, colour type at 25.
		depth, ctype := data[24], data[25]
		src.NearestOnly = ctype == 3 || (ctype == 0 && depth == 1)
	}
	return src, nil
}

// DecodeSourceFile is DecodeSource on the named file; errors name the file.
func DecodeSourceFile(path string, opts DecodeOptions) (*Source, error) {
	return decodeFile(path, opts, DecodeSource)
}

// resizeSource is Pillow's Image.resize on the source's mode, then
// convert("RGB"): modes P and 1 use NEAREST whatever f is; RGBA and LA are
// converted to premultiplied RGBa/La (MULDIV255), resized, and converted
// back by dividing by alpha (integer division, alpha 0 and 255 left as is);
// converting to RGB then drops alpha. Matches the reference implementation
// (Pillow 9.4 Image.resize), including that an unchanged size is a plain
// copy without the premultiplication round trip.
func resizeSource(s *Source, width, height int, f Filter) (*RGB, error) {
	m := s.RGB
	if err := m.valid(); err != nil {
		return nil, err
	}
	if s.NearestOnly {
		f = Nearest
	}
	if s.Alpha == nil || f == Nearest || (width == m.Width && height == m.Height) {
		return Resize(m, width, height, f)
	}
	n := m.Width * m.Height
	if len(s.Alpha) != n {
		return nil, fmt.Errorf("source alpha has %d values for %dx%d pixels", len(s.Alpha), m.Width, m.Height)
	}
	if err := checkResize(m.Width, m.Height, width, height); err != nil {
		return nil, err
	}
	// Each source row is premultiplied as the resampler reads it: a
	// premultiplied copy of the whole image would be 4 more bytes a pixel
	// (0.68 GB for 13000×13000).
	w := m.Width
	premultiplied := func(y int, buf []uint8) []uint8 {
		for x := 0; x < w; x++ {
			i := y*w + x
			a := int(s.Alpha[i])
			for c := 0; c < 3; c++ {
				buf[4*x+c] = uint8(mulDiv255(int(m.Pix[3*i+c]), a))
			}
			buf[4*x+3] = uint8(a)
		}
		return buf
	}
	res, err := resample(premultiplied, nil, m.Width, m.Height, 4, width, height, f)
	if err != nil {
		return nil, err
	}
	out := &RGB{Width: width, Height: height, Pix: make([]uint8, 3*width*height)}
	for i := 0; i < width*height; i++ {
		a := int(res[4*i+3])
		for c := 0; c < 3; c++ {
			v := int(res[4*i+c])
			if a != 0 && a != 255 {
				v = int(clip8(255 * v / a))
			}
			out.Pix[3*i+c] = uint8(v)
		}
	}
	return out, nil
}

// PrepareSource runs the 8-bit stages on a Source with the mode-aware
// resize (see resizeSource), converting to RGB afterwards, as OpenAI CLIP's
// preprocess does on an image that was not converted first (CLIPScore).
func (p *Processor) PrepareSource(s *Source) (*RGB, error) {
	if s == nil || s.RGB == nil {
		return nil, fmt.Errorf("nil source image")
	}
	return p.prepare(s.RGB, func(cur *RGB, c *ProcessorConfig) (*RGB, error) {
		w, h := c.Size.Width, c.Size.Height
		if c.Kind == CLIP {
			w, h = ShortestEdgeSize(cur.Width, cur.Height, c.Size.ShortestEdge)
		}
		return resizeSource(s, w, h, c.Resample)
	})
}

// PreprocessSource is Preprocess with the resize-then-convert order of
// PrepareSource.
func (p *Processor) PreprocessSource(s *Source, dst []float32) (PixelValues, error) {
	prep, err := p.PrepareSource(s)
	if err != nil {
		return PixelValues{}, err
	}
	return p.Normalize(prep, dst), nil
}
