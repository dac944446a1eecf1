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
		return nil, fmt.Errorf("imageproc: resampling %d→%d needs too many filter taps", inSize, outSize)
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
	if width <= 0 || height <= 0 {
		return nil, fmt.Errorf("imageproc: resize to %dx%d: size must be positive", width, height)
	}
	if src.Width == 0 || src.Height == 0 {
		return nil, fmt.Errorf("imageproc: resize of an empty %dx%d image", src.Width, src.Height)
	}
	if err := checkSize(width, height, DefaultMaxPixels); err != nil {
		return nil, err
	}
	if width == src.Width && height == src.Height {
		return &RGB{Width: width, Height: height, Pix: append([]uint8(nil), src.Pix...)}, nil
	}
	if f == Nearest {
		return resizeNearest(src, width, height), nil
	}
	vert, err := precomputeCoeffs(src.Height, 0, float32(src.Height), height, f)
	if err != nil {
		return nil, err
	}
	needH := width != src.Width
	needV := height != src.Height
	cur := src
	if needH {
		horiz, err := precomputeCoeffs(src.Width, 0, float32(src.Width), width, f)
		if err != nil {
			return nil, err
		}
		// Only the source rows the vertical pass reads are resampled, and
		// the vertical bounds are shifted to the intermediate's rows.
		first := vert.bounds[0]
		last := vert.bounds[2*height-2] + vert.bounds[2*height-1]
		for i := 0; i < height; i++ {
			vert.bounds[2*i] -= first
		}
		cur = resampleHorizontal(src, first, last-first, horiz)
	}
	if needV {
		cur = resampleVertical(cur, height, vert)
	}
	return cur, nil
}

// resampleHorizontal is ImagingResampleHorizontal_8bpc for 3 bands, reading
// rows offset .. offset+rows-1 of src.
func resampleHorizontal(src *RGB, offset, rows int, c *coeffs) *RGB {
	outW := len(c.bounds) / 2
	out := &RGB{Width: outW, Height: rows, Pix: make([]uint8, outW*rows*3)}
	const half = int32(1) << (precisionBits - 1)
	for yy := 0; yy < rows; yy++ {
		in := src.Pix[(yy+offset)*src.Width*3 : (yy+offset+1)*src.Width*3]
		o := out.Pix[yy*outW*3 : (yy+1)*outW*3]
		for xx := 0; xx < outW; xx++ {
			xmin, n := c.bounds[2*xx], c.bounds[2*xx+1]
			k := c.k[xx*c.ksize : xx*c.ksize+n]
			s0, s1, s2 := half, half, half
			p := in[xmin*3 : (xmin+n)*3]
			for x, kx := range k {
				s0 += int32(p[3*x]) * kx
				s1 += int32(p[3*x+1]) * kx
				s2 += int32(p[3*x+2]) * kx
			}
			o[3*xx], o[3*xx+1], o[3*xx+2] = clipFixed(s0), clipFixed(s1), clipFixed(s2)
		}
	}
	return out
}

// resampleVertical is ImagingResampleVertical_8bpc for 3 bands.
func resampleVertical(src *RGB, outH int, c *coeffs) *RGB {
	w := src.Width
	out := &RGB{Width: w, Height: outH, Pix: make([]uint8, w*outH*3)}
	const half = int32(1) << (precisionBits - 1)
	acc := make([]int32, w*3)
	for yy := 0; yy < outH; yy++ {
		ymin, n := c.bounds[2*yy], c.bounds[2*yy+1]
		k := c.k[yy*c.ksize : yy*c.ksize+n]
		for i := range acc {
			acc[i] = half
		}
		for y, ky := range k {
			row := src.Pix[(y+ymin)*w*3 : (y+ymin+1)*w*3]
			for i, v := range row {
				acc[i] += int32(v) * ky
			}
		}
		o := out.Pix[yy*w*3 : (yy+1)*w*3]
		for i, s := range acc {
			o[i] = clipFixed(s)
		}
	}
	return out
}
