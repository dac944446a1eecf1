package imageproc

import (
	"fmt"
	"image"
	"image/color"
)

// libjpeg's YCbCr→RGB conversion (jdcolor.c, build_ycc_rgb_table and
// ycc_rgb_convert) works in 16-bit fixed point with per-value tables.
// Go's color.YCbCrToRGB uses other constants and rounding, so the tables
// are rebuilt here; the values are computed per call (four small loops),
// which keeps the package free of global state.
const (
	yccScaleBits = 16
	yccOneHalf   = 1 << (yccScaleBits - 1)
)

// yccFix is libjpeg's FIX(x): x in 16-bit fixed point, rounded.
func yccFix(x float64) int32 { return int32(x*(1<<yccScaleBits) + 0.5) }

// yccTables are libjpeg's Cr_r_tab, Cb_b_tab, Cr_g_tab and Cb_g_tab.
type yccTables struct {
	crR, cbB [256]int32
	crG, cbG [256]int32
}

func newYCCTables() *yccTables {
	t := new(yccTables)
	for i := 0; i < 256; i++ {
		x := int32(i - 128)
		t.crR[i] = (yccFix(1.40200)*x + yccOneHalf) >> yccScaleBits
		t.cbB[i] = (yccFix(1.77200)*x + yccOneHalf) >> yccScaleBits
		t.crG[i] = -yccFix(0.71414) * x
		t.cbG[i] = -yccFix(0.34414)*x + yccOneHalf
	}
	return t
}

// subsampling returns the horizontal and vertical chroma expansion factors.
func subsampling(r image.YCbCrSubsampleRatio) (h, v int, err error) {
	switch r {
	case image.YCbCrSubsampleRatio444:
		return 1, 1, nil
	case image.YCbCrSubsampleRatio422:
		return 2, 1, nil
	case image.YCbCrSubsampleRatio420:
		return 2, 2, nil
	case image.YCbCrSubsampleRatio440:
		return 1, 2, nil
	case image.YCbCrSubsampleRatio411:
		return 4, 1, nil
	case image.YCbCrSubsampleRatio410:
		return 4, 2, nil
	}
	return 0, 0, fmt.Errorf("unsupported YCbCr subsampling %v", r)
}

// plane is a dense 8-bit sample plane.
type plane struct {
	w, h int
	pix  []uint8
}

func (p *plane) at(x, y int) int { return int(p.pix[y*p.w+x]) }

// chromaPlanes copies the valid chroma samples of m into dense planes of
// libjpeg's downsampled size, ceil(width·h_samp/max_h_samp) ×
// ceil(height·v_samp/max_v_samp); the samples the standard decoder keeps
// beyond that (block padding) are not used, as in libjpeg.
func chromaPlanes(m *image.YCbCr, hf, vf int) (cb, cr plane) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	cw, ch := (w+hf-1)/hf, (h+vf-1)/vf
	cb = plane{cw, ch, make([]uint8, cw*ch)}
	cr = plane{cw, ch, make([]uint8, cw*ch)}
	for cy := 0; cy < ch; cy++ {
		for cx := 0; cx < cw; cx++ {
			o := m.COffset(m.Rect.Min.X+cx*hf, m.Rect.Min.Y+cy*vf)
			cb.pix[cy*cw+cx] = m.Cb[o]
			cr.pix[cy*cw+cx] = m.Cr[o]
		}
	}
	return cb, cr
}

// upsampleChroma expands a chroma plane to w × h with libjpeg-turbo's
// method for the factors (jdsample.c): "fancy" triangular interpolation for
// h2v1, h2v2 (when the downsampled width exceeds 2, as jinit_upsampler
// requires) and h1v2; plain replication otherwise. Rows above the first and
// below the last are the edge rows repeated, as jdmainct.c provides them.
func upsampleChroma(p plane, hf, vf, w, h int) []uint8 {
	out := make([]uint8, w*h)
	fancyH := p.w > 2
	switch {
	case hf == 1 && vf == 1:
		copy(out, p.pix)
	case hf == 2 && vf == 1 && fancyH:
		for y := 0; y < h; y++ {
			h2v1FancyRow(out[y*w:(y+1)*w], p.pix[y*p.w:(y+1)*p.w])
		}
	case hf == 2 && vf == 2 && fancyH:
		colsum := make([]int, p.w)
		for y := 0; y < h; y++ {
			near := y / 2
			far := near - 1
			if y%2 == 1 {
				far = near + 1
			}
			far = max(0, min(far, p.h-1))
			for c := 0; c < p.w; c++ {
				colsum[c] = 3*p.at(c, near) + p.at(c, far)
			}
			h2v2FancyRow(out[y*w:(y+1)*w], colsum)
		}
	case hf == 1 && vf == 2:
		for y := 0; y < h; y++ {
			near := y / 2
			far, bias := near-1, 1
			if y%2 == 1 {
				far, bias = near+1, 2
			}
			far = max(0, min(far, p.h-1))
			for x := 0; x < w; x++ {
				out[y*w+x] = uint8((3*p.at(x, near) + p.at(x, far) + bias) >> 2)
			}
		}
	default:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				out[y*w+x] = p.pix[(y/vf)*p.w+x/hf]
			}
		}
	}
	return out
}

// h2v1FancyRow is libjpeg's h2v1_fancy_upsample for one row: 3/4 of the
// nearer sample plus 1/4 of the further, with alternating rounding bias.
func h2v1FancyRow(out []uint8, in []uint8) {
	n := len(in)
	put := func(i int, v int) {
		if i < len(out) {
			out[i] = uint8(v)
		}
	}
	put(0, int(in[0]))
	put(1, (int(in[0])*3+int(in[1])+2)>>2)
	for c := 1; c < n-1; c++ {
		v := int(in[c]) * 3
		put(2*c, (v+int(in[c-1])+1)>>2)
		put(2*c+1, (v+int(in[c+1])+2)>>2)
	}
	last := int(in[n-1])
	put(2*(n-1), (last*3+int(in[n-2])+1)>>2)
	put(2*(n-1)+1, last)
}

// h2v2FancyRow is the horizontal half of libjpeg's h2v2_fancy_upsample,
// applied to the column sums 3·nearer row + further row.
func h2v2FancyRow(out []uint8, colsum []int) {
	n := len(colsum)
	put := func(i int, v int) {
		if i < len(out) {
			out[i] = uint8(v)
		}
	}
	put(0, (colsum[0]*4+8)>>4)
	put(1, (colsum[0]*3+colsum[1]+7)>>4)
	for c := 1; c < n-1; c++ {
		put(2*c, (colsum[c]*3+colsum[c-1]+8)>>4)
		put(2*c+1, (colsum[c]*3+colsum[c+1]+7)>>4)
	}
	put(2*(n-1), (colsum[n-1]*3+colsum[n-2]+8)>>4)
	put(2*(n-1)+1, (colsum[n-1]*4+7)>>4)
}

// jpegYCbCrToRGB converts a decoded JPEG the way libjpeg-turbo does inside
// Pillow: chroma upsampled by upsampleChroma, then ycc_rgb_convert with
// libjpeg's tables and range limiting.
func jpegYCbCrToRGB(m *image.YCbCr) (*RGB, error) {
	hf, vf, err := subsampling(m.SubsampleRatio)
	if err != nil {
		return nil, err
	}
	w, h := m.Rect.Dx(), m.Rect.Dy()
	out, err := NewRGB(w, h)
	if err != nil {
		return nil, err
	}
	if w == 0 || h == 0 {
		return out, nil
	}
	cbp, crp := chromaPlanes(m, hf, vf)
	cb := upsampleChroma(cbp, hf, vf, w, h)
	cr := upsampleChroma(crp, hf, vf, w, h)
	t := newYCCTables()
	for y := 0; y < h; y++ {
		yrow := m.Y[m.YOffset(m.Rect.Min.X, m.Rect.Min.Y+y):]
		for x := 0; x < w; x++ {
			yy := int32(yrow[x])
			i := y*w + x
			cbv, crv := cb[i], cr[i]
			o := i * 3
			out.Pix[o] = clip8(int(yy + t.crR[crv]))
			out.Pix[o+1] = clip8(int(yy + ((t.cbG[cbv] + t.crG[crv]) >> yccScaleBits)))
			out.Pix[o+2] = clip8(int(yy + t.cbB[cbv]))
		}
	}
	return out, nil
}

// stdlibToRGB converts with Go's own chroma lookup and color.YCbCrToRGB.
func stdlibToRGB(m *image.YCbCr) *RGB {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	out := &RGB{Width: w, Height: h, Pix: make([]uint8, w*h*3)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := m.YCbCrAt(m.Rect.Min.X+x, m.Rect.Min.Y+y)
			r, g, b := color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
			o := (y*w + x) * 3
			out.Pix[o], out.Pix[o+1], out.Pix[o+2] = r, g, b
		}
	}
	return out
}
