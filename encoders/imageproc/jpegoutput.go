package imageproc

// finish runs libjpeg's output side on the decoded coefficients: the islow
// IDCT of every block, upsampling of each component by its sampling ratio
// (upsampleChroma), and the colour conversion libjpeg picks for the file.
func (d *jpegDecoder) finish() (*RGB, error) {
	if !d.sawFrame {
		return nil, errJPEGData
	}
	planes := make([][]uint8, len(d.comps))
	for i := range d.comps {
		c := &d.comps[i]
		if c.q == nil {
			// The component never appeared in a scan; libjpeg would output
			// whatever its table gives for all-zero coefficients.
			if d.qt[c.tq] == nil {
				return nil, errJPEGData
			}
			c.q = d.qt[c.tq]
		}
		stride := c.bw * 8
		full := make([]uint8, stride*c.bh*8)
		for by := 0; by < c.hBlocks; by++ {
			for bx := 0; bx < c.wBlocks; bx++ {
				idctIslow(&c.coef[by*c.bw+bx], c.q, full[by*8*stride+bx*8:], stride)
			}
		}
		p := plane{w: c.downWidth, h: c.downHeight, pix: make([]uint8, c.downWidth*c.downHeight)}
		for y := 0; y < p.h; y++ {
			copy(p.pix[y*p.w:(y+1)*p.w], full[y*stride:])
		}
		planes[i] = upsampleChroma(p, d.hmax/c.h, d.vmax/c.v, d.width, d.height)
	}
	out, err := NewRGB(d.width, d.height)
	if err != nil {
		return nil, err
	}
	n := d.width * d.height
	switch {
	case len(planes) == 1:
		for i, v := range planes[0] {
			out.Pix[3*i], out.Pix[3*i+1], out.Pix[3*i+2] = v, v, v
		}
	case d.isRGB():
		for i := 0; i < n; i++ {
			out.Pix[3*i], out.Pix[3*i+1], out.Pix[3*i+2] = planes[0][i], planes[1][i], planes[2][i]
		}
	default:
		t := newYCCTables()
		yp, cbp, crp := planes[0], planes[1], planes[2]
		for i := 0; i < n; i++ {
			y := int32(yp[i])
			cb, cr := cbp[i], crp[i]
			out.Pix[3*i] = clip8(int(y + t.crR[cr]))
			out.Pix[3*i+1] = clip8(int(y + ((t.cbG[cb] + t.crG[cr]) >> yccScaleBits)))
			out.Pix[3*i+2] = clip8(int(y + t.cbB[cb]))
		}
	}
	return out, nil
}

// isRGB is libjpeg's default_decompress_parms guess for 3 components: JFIF
// means YCbCr; an Adobe marker decides by its transform flag; otherwise
// component ids 'R','G','B' mean RGB and anything else YCbCr.
func (d *jpegDecoder) isRGB() bool {
	switch {
	case d.sawJFIF:
		return false
	case d.sawAdobe:
		return d.adobeXform == 0
	}
	return d.comps[0].id == 'R' && d.comps[1].id == 'G' && d.comps[2].id == 'B'
}
