package imageproc

import (
	"fmt"
	"image"
	"image/color"
)

// ToRGB converts a decoded image to 8-bit RGB the way Pillow's
// Image.convert("RGB") treats the mode Pillow would have opened the file in:
//
//   - *image.YCbCr (a JPEG from the standard library's decoder): libjpeg's
//     fancy chroma upsampling and integer YCbCr→RGB tables (jpegcolor.go);
//     the samples themselves come from the standard library's IDCT, so this
//     is within a few levels of Pillow — Decode uses its own libjpeg-exact
//     decoder instead where it can;
//   - gray (L) is replicated into R, G and B;
//   - alpha is dropped, not composited: Matches the reference implementation
//     (Pillow), which converts RGBA and LA to RGB by discarding A;
//   - palette images are looked up in their palette, transparency ignored;
//   - 16-bit colour keeps the most significant byte, as Pillow's "RGB;16B"
//     unpacker;
//   - 16-bit gray PNG is clipped to 0..255, not scaled: Matches the reference
//     implementation, which opens it as mode "I" and converts I→RGB by
//     clipping;
//   - CMYK follows Pillow's cmyk2rgb.
//
// Other image types go through color.NRGBAModel with alpha dropped.
func ToRGB(img image.Image) (*RGB, error) {
	if img == nil {
		return nil, fmt.Errorf("nil image")
	}
	b := img.Bounds()
	out, err := NewRGB(b.Dx(), b.Dy())
	if err != nil {
		return nil, err
	}
	w, h := b.Dx(), b.Dy()
	switch m := img.(type) {
	case *image.YCbCr:
		return jpegYCbCrToRGB(m)
	case *image.Gray:
		for y := 0; y < h; y++ {
			row := m.Pix[(y)*m.Stride:]
			for x := 0; x < w; x++ {
				v := row[x]
				o := (y*w + x) * 3
				out.Pix[o], out.Pix[o+1], out.Pix[o+2] = v, v, v
			}
		}
	case *image.Gray16:
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				v16 := int(row[2*x])<<8 | int(row[2*x+1])
				v := uint8(min(v16, 255))
				o := (y*w + x) * 3
				out.Pix[o], out.Pix[o+1], out.Pix[o+2] = v, v, v
			}
		}
	case *image.RGBA:
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				p := row[4*x : 4*x+4]
				r, g, bb := p[0], p[1], p[2]
				if a := p[3]; a != 0xff {
					// Premultiplied input with alpha (not produced by the
					// PNG or JPEG decoders): un-premultiply first.
					c := color.NRGBAModel.Convert(color.RGBA{r, g, bb, a}).(color.NRGBA)
					r, g, bb = c.R, c.G, c.B
				}
				o := (y*w + x) * 3
				out.Pix[o], out.Pix[o+1], out.Pix[o+2] = r, g, bb
			}
		}
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				o := (y*w + x) * 3
				copy(out.Pix[o:o+3], row[4*x:4*x+3])
			}
		}
	case *image.RGBA64:
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				p := row[8*x : 8*x+8]
				o := (y*w + x) * 3
				if p[6] == 0xff && p[7] == 0xff {
					out.Pix[o], out.Pix[o+1], out.Pix[o+2] = p[0], p[2], p[4]
					continue
				}
				c := color.NRGBA64Model.Convert(m.RGBA64At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA64)
				out.Pix[o], out.Pix[o+1], out.Pix[o+2] = uint8(c.R>>8), uint8(c.G>>8), uint8(c.B>>8)
			}
		}
	case *image.NRGBA64:
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				p := row[8*x : 8*x+8]
				o := (y*w + x) * 3
				out.Pix[o], out.Pix[o+1], out.Pix[o+2] = p[0], p[2], p[4]
			}
		}
	case *image.Paletted:
		pal := make([][3]uint8, len(m.Palette))
		for i, c := range m.Palette {
			pal[i] = paletteRGB(c)
		}
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				idx := int(row[x])
				var c [3]uint8
				if idx < len(pal) {
					c = pal[idx]
				}
				o := (y*w + x) * 3
				out.Pix[o], out.Pix[o+1], out.Pix[o+2] = c[0], c[1], c[2]
			}
		}
	case *image.CMYK:
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				p := row[4*x : 4*x+4]
				nk := 255 - int(p[3])
				o := (y*w + x) * 3
				for c := 0; c < 3; c++ {
					out.Pix[o+c] = clip8(nk - mulDiv255(int(p[c]), nk))
				}
			}
		}
	default:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
				o := (y*w + x) * 3
				out.Pix[o], out.Pix[o+1], out.Pix[o+2] = c.R, c.G, c.B
			}
		}
	}
	return out, nil
}

// paletteRGB returns the colour channels of a palette entry without alpha
// weighting (Pillow's palette is straight RGB).
func paletteRGB(c color.Color) [3]uint8 {
	switch p := c.(type) {
	case color.RGBA:
		return [3]uint8{p.R, p.G, p.B}
	case color.NRGBA:
		return [3]uint8{p.R, p.G, p.B}
	}
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return [3]uint8{n.R, n.G, n.B}
}

// mulDiv255 is Pillow's MULDIV255 macro: a*b/255 rounded, in integers.
func mulDiv255(a, b int) int {
	t := a*b + 128
	return ((t >> 8) + t) >> 8
}

// clip8 clamps to 0..255.
func clip8(v int) uint8 {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v)
}
