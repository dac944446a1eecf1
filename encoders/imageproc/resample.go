package imageproc

import (
	"fmt"
	"math"
)

// precisionBits is Pillow's PRECISION_BITS for 8-bit images: coefficients
// are stored as 22-bit fixed point, leaving 2 bits of headroom for filters
// whose partial sums leave 0..1.
const precisionBits = 32 - 8 - 2

// coeffs holds one pass's filter taps: for output index i the input window
// starts at bounds[2i] and spans bounds[2i+1] samples, with weights
// k[i*ksize : i*ksize+bounds[2i+1]].
type coeffs struct {
	ksize  int
	bounds []int
	k      []int32
}

// precomputeCoeffs is Pillow's precompute_coeffs followed by
// normalize_coeffs_8bpc: the support grows with the downscale factor, the
// weights of each output sample are normalised to sum to 1 in float64, then
// rounded half away from zero to 22-bit fixed point. in0 and in1 are the
// source box edges as C floats, as in Pillow.
func precomputeCoeffs(inSize int, in0, in1 float32, outSize int, f Filter) (*coeffs, error) {
	kern, support, err := f.kernel()
	if err != nil {
		return nil, err
	}
	scale := float64(in1-in0) / float64(outSize)
	filterscale := scale
	if filterscale < 1 {
		filterscale = 1
	}
	support *= filterscale
	ksize := int(math.Ceil(support))*2 + 1
	if ksize > 1<<20 || outSize > (1<<31-1)/ksize {
		return nil, fmt.Errorf("resampling %d→%d needs too many filter taps", inSize, outSize)
	}
	c := &coeffs{ksize: ksize, bounds: make([]int, 2*outSize), k: make([]int32, outSize*ksize)}
	w := make([]float64, ksize)
	for xx := 0; xx < outSize; xx++ {
		center := float64(in0) + float64(float64(float64(xx)+0.5)*scale)
		ss := 1 / filterscale
		// C's (int) cast truncates towards zero; Pillow relies on that to
		// "round" center ± support + 0.5.
		xmin := int(center - support + 0.5)
		if xmin < 0 {
			xmin = 0
		}
		xmax := int(center + support + 0.5)
		if xmax > inSize {
			xmax = inSize
		}
		xmax -= xmin
		if xmax > ksize {
			xmax = ksize
		}
		if xmax < 0 {
			xmax = 0
		}
		ww := 0.0
		for x := 0; x < xmax; x++ {
			v := kern(float64(float64(x+xmin)-center+0.5) * ss)
			w[x] = v
			ww += v
		}
		k := c.k[xx*ksize : (xx+1)*ksize]
		for x := 0; x < xmax; x++ {
			v := w[x]
			if ww != 0 {
				v /= ww
			}
			if v < 0 {
				k[x] = int32(-0.5 + v*(1<<precisionBits))
			} else {
				k[x] = int32(0.5 + v*(1<<precisionBits))
			}
		}
		c.bounds[2*xx] = xmin
		c.bounds[2*xx+1] = xmax
	}
	return c, nil
}

// clipFixed is Pillow's clip8 for a 22-bit fixed-point sum: an arithmetic
// shift (floor), clamped to 0..255.
func clipFixed(ss int32) uint8 {
	v := ss >> precisionBits
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v)
}

// Resize scales src to width × height with one of Pillow's filters, bit for
// bit as Image.resize((width, height), filter) in Pillow 9.4 on an RGB image
// (no box, no reducing_gap — the HuggingFace and torchvision calls pass
// neither). Matches the reference implementation, which resamples
// horizontally first into an 8-bit intermediate, then vertically, each pass
// rounding to 8 bits. A size equal to the source returns a copy.
func Resize(src *RGB, width, height int, f Filter) (*RGB, error) {
	if err := src.valid(); err != nil {
		return nil, err
	}
	pix, err := resizeInterleaved(src.Pix, src.Width, src.Height, 3, width, height, f)
	if err != nil {
		return nil, err
	}
	return &RGB{Width: width, Height: height, Pix: pix}, nil
}

// resizeInterleaved is Resize on ch interleaved 8-bit channels (1 to 4),
// each resampled independently with the same coefficients, as Pillow does
// for its 8-bit modes.
func resizeInterleaved(pix []uint8, w, h, ch, width, height int, f Filter) ([]uint8, error) {
	if err := checkResize(w, h, width, height); err != nil {
		return nil, err
	}
	if width == w && height == h {
		return append([]uint8(nil), pix...), nil
	}
	if f == Nearest {
		return resizeNearest(pix, w, h, ch, width, height), nil
	}
	rowLen := w * ch
	return resample(func(y int, _ []uint8) []uint8 { return pix[y*rowLen : (y+1)*rowLen] }, pix, w, h, ch, width, height, f)
}

// checkResize rejects resizes from or to an empty image and to more than
// DefaultMaxPixels.
func checkResize(w, h, width, height int) error {
	if width <= 0 || height <= 0 {
		return fmt.Errorf("resize to %dx%d: size must be positive", width, height)
	}
	if w == 0 || h == 0 {
		return fmt.Errorf("resize of an empty %dx%d image", w, h)
	}
	return checkSize(width, height, DefaultMaxPixels)
}

// rowSource returns row y of a w-pixel-wide image with ch interleaved
// channels; buf, w·ch bytes, may hold the row it makes.
type rowSource func(y int, buf []uint8) []uint8

// resample is the two-pass resampling of resizeInterleaved (horizontal,
// then vertical) on rows given one at a time, so a caller can make each row
// as it is read (resizeSource premultiplies alpha that way) instead of
// holding a converted copy of the whole image. whole, when not nil, is the
// whole image, which a vertical-only resize reads in place.
func resample(rows rowSource, whole []uint8, w, h, ch, width, height int, f Filter) ([]uint8, error) {
	vert, err := precomputeCoeffs(h, 0, float32(h), height, f)
	if err != nil {
		return nil, err
	}
	// Only the source rows the vertical pass reads are resampled (or
	// copied), and the vertical bounds are shifted to those rows.
	first := vert.bounds[0]
	last := vert.bounds[2*height-2] + vert.bounds[2*height-1]
	shift := func() {
		for i := 0; i < height; i++ {
			vert.bounds[2*i] -= first
		}
	}
	var cur []uint8
	switch {
	case width != w:
		horiz, err := precomputeCoeffs(w, 0, float32(w), width, f)
		if err != nil {
			return nil, err
		}
		shift()
		cur = resampleHorizontal(rows, w, ch, first, last-first, horiz)
	case whole != nil:
		cur = whole
	default:
		shift()
		rowLen := w * ch
		cur = make([]uint8, (last-first)*rowLen)
		for y := first; y < last; y++ {
			copy(cur[(y-first)*rowLen:], rows(y, cur[(y-first)*rowLen:(y-first+1)*rowLen]))
		}
	}
	if height != h {
		cur = resampleVertical(cur, width, ch, height, vert)
	}
	return cur, nil
}

// resampleHorizontal is ImagingResampleHorizontal_8bpc: rows offset ..
// offset+rows-1 of a w-pixel-wide image with ch channels.
func resampleHorizontal(src rowSource, w, ch, offset, rows int, c *coeffs) []uint8 {
	outW := len(c.bounds) / 2
	out := make([]uint8, outW*rows*ch)
	const half = int32(1) << (precisionBits - 1)
	var acc [4]int32
	buf := make([]uint8, w*ch)
	for yy := 0; yy < rows; yy++ {
		in := src(yy+offset, buf)
		o := out[yy*outW*ch : (yy+1)*outW*ch]
		for xx := 0; xx < outW; xx++ {
			xmin, n := c.bounds[2*xx], c.bounds[2*xx+1]
			k := c.k[xx*c.ksize : xx*c.ksize+n]
			p := in[xmin*ch : (xmin+n)*ch]
			if ch == 3 {
				s0, s1, s2 := half, half, half
				for x, kx := range k {
					s0 += int32(p[3*x]) * kx
					s1 += int32(p[3*x+1]) * kx
					s2 += int32(p[3*x+2]) * kx
				}
				o[3*xx], o[3*xx+1], o[3*xx+2] = clipFixed(s0), clipFixed(s1), clipFixed(s2)
				continue
			}
			for i := 0; i < ch; i++ {
				acc[i] = half
			}
			for x, kx := range k {
				for i := 0; i < ch; i++ {
					acc[i] += int32(p[ch*x+i]) * kx
				}
			}
			for i := 0; i < ch; i++ {
				o[ch*xx+i] = clipFixed(acc[i])
			}
		}
	}
	return out
}

// resampleVertical is ImagingResampleVertical_8bpc for a w-pixel-wide image
// with ch channels.
func resampleVertical(pix []uint8, w, ch, outH int, c *coeffs) []uint8 {
	rowLen := w * ch
	out := make([]uint8, rowLen*outH)
	const half = int32(1) << (precisionBits - 1)
	acc := make([]int32, rowLen)
	for yy := 0; yy < outH; yy++ {
		ymin, n := c.bounds[2*yy], c.bounds[2*yy+1]
		k := c.k[yy*c.ksize : yy*c.ksize+n]
		for i := range acc {
			acc[i] = half
		}
		for y, ky := range k {
			row := pix[(y+ymin)*rowLen : (y+ymin+1)*rowLen]
			for i, v := range row {
				acc[i] += int32(v) * ky
			}
		}
		o := out[yy*rowLen : (yy+1)*rowLen]
		for i, s := range acc {
			o[i] = clipFixed(s)
		}
	}
	return out
}
