package imageproc

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// decodePNGRows decodes a PNG straight into RGB, row by row, and into
// straight 8-bit alpha when wantAlpha is set and the colour type has an
// alpha channel (types 4 and 6). The standard library's decoder builds the
// whole image in its own layout first (8 bytes a pixel for 16-bit RGBA,
// 4 for 8-bit RGB), so the converted copy doubled or tripled the memory an
// image needs: a 13000×13000 16-bit RGBA PNG of 1.3 MB held 1.35 GB in the
// decoder's layout plus 0.5 GB of RGB. Here only two filtered rows are held
// besides the output (3 bytes a pixel, 4 with alpha).
//
// The pixel values are those of image/png followed by ToRGB, which tests
// check on every colour type, bit depth and interlacing: gray of 1, 2 and 4
// bits scaled to 0..255, 16-bit gray clipped to 0..255 (Pillow's I→RGB),
// 16-bit colour and alpha reduced to their high bytes, palette indices
// outside the palette black. The chunk rules are image/png's: CRCs checked,
// IHDR first, PLTE before the pixel data and required for palette images,
// tRNS validated, IEND required, unknown chunks skipped.
func decodePNGRows(data []byte, wantAlpha bool) (*RGB, []uint8, error) {
	h, err := scanPNG(data)
	if err != nil {
		return nil, nil, err
	}
	out, err := NewRGB(h.width, h.height)
	if err != nil {
		return nil, nil, err
	}
	var alpha []uint8
	if wantAlpha && (h.ctype == 4 || h.ctype == 6) {
		alpha = make([]uint8, h.width*h.height)
	}
	zr, err := zlib.NewReader(io.MultiReader(h.idat...))
	if err != nil {
		return nil, nil, pngDataError(err)
	}
	defer zr.Close()
	if err := h.readPixels(zr, out, alpha); err != nil {
		return nil, nil, err
	}
	// The stream must end here; reading its end checks the zlib checksum.
	var one [1]byte
	if n, err := io.ReadFull(zr, one[:]); n > 0 {
		return nil, nil, errors.New("png: invalid format: too much pixel data")
	} else if err != io.EOF {
		return nil, nil, pngDataError(err)
	}
	return out, alpha, nil
}

// pngDataError reports an error of the compressed pixel stream.
func pngDataError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errors.New("png: invalid format: not enough pixel data")
	}
	return fmt.Errorf("png: invalid format: %w", err)
}

// pngInfo is what scanPNG finds: the IHDR fields, the palette and the
// payloads of the first run of IDAT chunks.
type pngInfo struct {
	width, height       int
	depth, ctype        int
	interlaced          bool
	palette             [][3]uint8
	idat                []io.Reader
	channels, pixelBits int
}

// PNG chunk order stages, as image/png tracks them.
const (
	pngStart = iota
	pngSeenIHDR
	pngSeenPLTE
	pngSeenTRNS
	pngSeenIDAT
)

// scanPNG walks the chunks of an in-memory PNG, checking their CRCs and
// order, and collects what decoding needs.
func scanPNG(data []byte) (*pngInfo, error) {
	if !bytes.HasPrefix(data, []byte(pngSignature)) {
		return nil, errors.New("png: invalid format: not a PNG file")
	}
	h := &pngInfo{}
	stage := pngStart
	idatRun := false // inside the first run of consecutive IDAT chunks
	orderErr := func(typ string) error { return fmt.Errorf("png: invalid format: chunk %q out of order", typ) }
	for pos := len(pngSignature); ; {
		if len(data)-pos < 8 {
			return nil, errors.New("png: invalid format: truncated chunk header (missing IEND?)")
		}
		n := binary.BigEndian.Uint32(data[pos:])
		if n > 0x7fffffff || int64(len(data)-pos-12) < int64(n) {
			return nil, fmt.Errorf("png: invalid format: chunk of %d bytes runs past the end of the file", n)
		}
		typ := string(data[pos+4 : pos+8])
		body := data[pos+8 : pos+8+int(n)]
		if crc32.ChecksumIEEE(data[pos+4:pos+8+int(n)]) != binary.BigEndian.Uint32(data[pos+8+int(n):]) {
			return nil, fmt.Errorf("png: invalid format: invalid checksum of chunk %q", typ)
		}
		pos += 12 + int(n)
		if typ != "IDAT" {
			idatRun = false
		}
		switch typ {
		case "IHDR":
			if stage != pngStart {
				return nil, orderErr(typ)
			}
			if err := h.parseIHDR(body); err != nil {
				return nil, err
			}
			stage = pngSeenIHDR
		case "PLTE":
			if stage != pngSeenIHDR {
				return nil, orderErr(typ)
			}
			if err := h.parsePLTE(body); err != nil {
				return nil, err
			}
			stage = pngSeenPLTE
		case "tRNS":
			if err := h.checkTRNS(stage, len(body)); err != nil {
				return nil, err
			}
			stage = pngSeenTRNS
		case "IDAT":
			switch {
			case stage < pngSeenIHDR || (stage == pngSeenIHDR && h.ctype == 3):
				return nil, orderErr(typ)
			case stage < pngSeenIDAT:
				stage, idatRun = pngSeenIDAT, true
				h.idat = append(h.idat, bytes.NewReader(body))
			case idatRun:
				h.idat = append(h.idat, bytes.NewReader(body))
			}
			// IDAT chunks after another chunk are ignored, as image/png
			// ignores trailing IDAT chunks.
		case "IEND":
			if stage != pngSeenIDAT {
				return nil, orderErr(typ)
			}
			return h, nil
		}
	}
}

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// parseIHDR reads the header; the combinations image/png accepts.
func (h *pngInfo) parseIHDR(b []byte) error {
	if len(b) != 13 {
		return errors.New("png: invalid format: bad IHDR length")
	}
	w, ht := binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:])
	if w == 0 || ht == 0 || w > 0x7fffffff || ht > 0x7fffffff {
		return fmt.Errorf("png: invalid format: invalid size %dx%d", w, ht)
	}
	if b[10] != 0 || b[11] != 0 || b[12] > 1 {
		return errors.New("png: invalid format: unsupported compression, filter or interlace method")
	}
	h.width, h.height, h.depth, h.ctype, h.interlaced = int(w), int(ht), int(b[8]), int(b[9]), b[12] == 1
	depths := map[int][]int{0: {1, 2, 4, 8, 16}, 2: {8, 16}, 3: {1, 2, 4, 8}, 4: {8, 16}, 6: {8, 16}}
	h.channels = map[int]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[h.ctype]
	for _, d := range depths[h.ctype] {
		if d == h.depth {
			h.pixelBits = h.depth * h.channels
			return nil
		}
	}
	return fmt.Errorf("png: unsupported feature: bit depth %d, color type %d", h.depth, h.ctype)
}

// parsePLTE reads a palette; true-colour images may carry one (ignored),
// gray ones may not.
func (h *pngInfo) parsePLTE(b []byte) error {
	switch h.ctype {
	case 2, 6:
		return nil
	case 0, 4:
		return errors.New("png: invalid format: PLTE, color type mismatch")
	}
	np := len(b) / 3
	if len(b)%3 != 0 || np == 0 || np > 256 || np > 1<<h.depth {
		return errors.New("png: invalid format: bad PLTE length")
	}
	h.palette = make([][3]uint8, np)
	for i := range h.palette {
		h.palette[i] = [3]uint8{b[3*i], b[3*i+1], b[3*i+2]}
	}
	return nil
}

// checkTRNS applies image/png's rules to a tRNS chunk; its values only
// change alpha, which the RGB conversion drops.
func (h *pngInfo) checkTRNS(stage, n int) error {
	order := errors.New(`png: invalid format: chunk "tRNS" out of order`)
	switch h.ctype {
	case 3:
		if stage != pngSeenPLTE {
			return order
		}
		if n > 256 || n > len(h.palette) {
			return errors.New("png: invalid format: bad tRNS length")
		}
	case 2:
		if stage != pngSeenIHDR && stage != pngSeenPLTE {
			return order
		}
		if n != 6 {
			return errors.New("png: invalid format: bad tRNS length")
		}
	case 0:
		if stage != pngSeenIHDR {
			return order
		}
		if n != 2 {
			return errors.New("png: invalid format: bad tRNS length")
		}
	default:
		if stage != pngSeenIHDR {
			return order
		}
		return errors.New("png: invalid format: tRNS, color type mismatch")
	}
	return nil
}

// adam7 lists the interlace passes: x offset, y offset, x step, y step.
var adam7 = [7][4]int{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}}

// readPixels unfilters the rows of every pass and converts them into out
// (and alpha).
func (h *pngInfo) readPixels(r io.Reader, out *RGB, alpha []uint8) error {
	passes := [][4]int{{0, 0, 1, 1}}
	if h.interlaced {
		passes = adam7[:]
	}
	bpp := max(1, h.pixelBits/8) // filter distance in bytes
	for _, p := range passes {
		pw := (h.width - p[0] + p[2] - 1) / p[2]
		ph := (h.height - p[1] + p[3] - 1) / p[3]
		if pw <= 0 || ph <= 0 {
			continue
		}
		rowBytes := (pw*h.pixelBits + 7) / 8
		cur, prev := make([]uint8, 1+rowBytes), make([]uint8, 1+rowBytes)
		for y := 0; y < ph; y++ {
			if _, err := io.ReadFull(r, cur); err != nil {
				return pngDataError(err)
			}
			if err := unfilter(cur[0], cur[1:], prev[1:], bpp); err != nil {
				return err
			}
			h.convertRow(cur[1:], pw, out, alpha, p[1]+y*p[3], p[0], p[2])
			cur, prev = prev, cur
		}
	}
	return nil
}

// unfilter undoes a row's PNG filter in place given the previous row. The
// first bpp bytes have no left neighbour; the loops after them have no
// branch per byte.
func unfilter(ft uint8, cur, prev []uint8, bpp int) error {
	n := len(cur)
	switch ft {
	case 0:
	case 1:
		for i := bpp; i < n; i++ {
			cur[i] += cur[i-bpp]
		}
	case 2:
		for i, p := range prev[:n] {
			cur[i] += p
		}
	case 3:
		for i := 0; i < bpp && i < n; i++ {
			cur[i] += prev[i] / 2
		}
		for i := bpp; i < n; i++ {
			cur[i] += uint8((int(cur[i-bpp]) + int(prev[i])) / 2)
		}
	case 4:
		for i := 0; i < bpp && i < n; i++ {
			cur[i] += prev[i] // paeth(0, b, 0) is b
		}
		for i := bpp; i < n; i++ {
			cur[i] += paeth(int(cur[i-bpp]), int(prev[i]), int(prev[i-bpp]))
		}
	default:
		return errors.New("png: invalid format: bad filter type")
	}
	return nil
}

// paeth is the PNG Paeth predictor of left a, above b and upper-left c.
func paeth(a, b, c int) uint8 {
	p := a + b - c
	pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
	if pa <= pb && pa <= pc {
		return uint8(a)
	}
	if pb <= pc {
		return uint8(b)
	}
	return uint8(c)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// convertRow writes the pw pixels of an unfiltered row to image row y at
// columns x0, x0+dx, …
func (h *pngInfo) convertRow(row []uint8, pw int, out *RGB, alpha []uint8, y, x0, dx int) {
	base := y*out.Width + x0
	pix := out.Pix
	switch {
	case h.depth < 8: // gray or palette, 1, 2 or 4 bits
		mask := 1<<h.depth - 1
		for i := 0; i < pw; i++ {
			shift := 8 - h.depth - (i*h.depth)%8
			v := int(row[i*h.depth/8]>>shift) & mask
			o := pix[3*(base+i*dx) : 3*(base+i*dx)+3]
			if h.ctype == 3 {
				h.paletteRGB(o, v)
			} else {
				g := uint8(v * 255 / mask)
				o[0], o[1], o[2] = g, g, g
			}
		}
	case h.ctype == 3:
		for i := 0; i < pw; i++ {
			h.paletteRGB(pix[3*(base+i*dx):3*(base+i*dx)+3], int(row[i]))
		}
	case h.ctype == 0 && h.depth == 16:
		for i := 0; i < pw; i++ {
			g := uint8(min(int(row[2*i])<<8|int(row[2*i+1]), 255))
			o := pix[3*(base+i*dx) : 3*(base+i*dx)+3]
			o[0], o[1], o[2] = g, g, g
		}
	case h.ctype == 2 && h.depth == 8 && dx == 1:
		copy(pix[3*base:3*(base+pw)], row[:3*pw])
	default:
		// 8 or 16 bits a sample: the high byte of each sample.
		step := h.depth / 8
		stride := h.channels * step
		for i := 0; i < pw; i++ {
			px := base + i*dx
			s := row[i*stride : (i+1)*stride]
			o := pix[3*px : 3*px+3]
			if h.channels < 3 {
				o[0], o[1], o[2] = s[0], s[0], s[0]
			} else {
				o[0], o[1], o[2] = s[0], s[step], s[2*step]
			}
			if alpha != nil {
				alpha[px] = s[stride-step]
			}
		}
	}
}

// paletteRGB looks an index up; indices past the palette are black, as
// image/png extends a short palette with opaque black.
func (h *pngInfo) paletteRGB(o []uint8, idx int) {
	if idx < len(h.palette) {
		c := h.palette[idx]
		o[0], o[1], o[2] = c[0], c[1], c[2]
		return
	}
	o[0], o[1], o[2] = 0, 0, 0
}
