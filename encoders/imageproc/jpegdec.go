package imageproc

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// errJPEGUnsupported marks JPEG variants the libjpeg-exact decoder does not
// handle (arithmetic coding, lossless, 12-bit, 4 components); Decode then
// falls back to the standard library.
var errJPEGUnsupported = errors.New("unsupported JPEG variant")

// zigzag maps the i-th coefficient in zig-zag order to its natural
// (row-major) position (libjpeg's jpeg_natural_order).
var zigzag = [64]uint8{
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
}

// naturalPos is jpeg_natural_order[k] including libjpeg's padding entries:
// a run that overshoots position 63 in corrupt data lands on 63.
func naturalPos(k int) uint8 {
	if k > 63 {
		return 63
	}
	return zigzag[k]
}

// jpegComponent is one colour component of a frame.
type jpegComponent struct {
	id         byte
	h, v       int // sampling factors
	tq         int // quantization table selector
	bw, bh     int // coefficient blocks allocated (MCU-padded)
	wBlocks    int // blocks covering the component's own width
	hBlocks    int
	coef       [][64]int16
	q          *[64]uint16 // latched at the component's first scan
	dcPred     int
	dcTbl      int
	acTbl      int
	downWidth  int // libjpeg's downsampled_width
	downHeight int
}

// jpegDecoder holds the state of one decode.
type jpegDecoder struct {
	data          []byte
	width, height int
	progressive   bool
	comps         []jpegComponent
	hmax, vmax    int
	mcusX, mcusY  int
	qt            [4]*[64]uint16
	dc, ac        [4]*huffTable
	restart       int
	eobrun        int
	sawJFIF       bool
	sawAdobe      bool
	adobeXform    int
	sawFrame      bool
	scans         int // scans decoded completely
	maxPixels     int64
}

// decodeJPEGLibjpeg decodes a baseline or progressive Huffman JPEG with
// 8-bit samples and 1 or 3 components to RGB exactly as libjpeg-turbo with
// Pillow's settings: islow IDCT, fancy upsampling, integer colour tables.
func decodeJPEGLibjpeg(data []byte, maxPixels int64) (*RGB, error) {
	d := &jpegDecoder{data: data, maxPixels: maxPixels}
	if len(data) < 4 || data[0] != 0xff || data[1] != 0xd8 {
		return nil, fmt.Errorf("not a JPEG (no SOI marker)")
	}
	pos := 2
	for {
		// Find the next marker, skipping fill bytes and (as libjpeg's
		// next_marker) extraneous data.
		for pos < len(data) && data[pos] != 0xff {
			pos++
		}
		for pos < len(data) && data[pos] == 0xff {
			pos++
		}
		if pos >= len(data) {
			if d.scans > 0 {
				// libjpeg supplies a fake EOI at end of file (with a
				// warning) and Pillow keeps the image.
				return d.finish()
			}
			return nil, fmt.Errorf("JPEG ends before any image data")
		}
		m := data[pos]
		pos++
		switch {
		case m == 0xd9: // EOI
			return d.finish()
		case m >= 0xd0 && m <= 0xd7, m == 0x01:
			continue // stray RSTn or TEM: no length
		}
		if pos+2 > len(data) {
			return nil, fmt.Errorf("JPEG marker 0x%02x truncated", m)
		}
		n := int(binary.BigEndian.Uint16(data[pos:]))
		if n < 2 || pos+n > len(data) {
			return nil, fmt.Errorf("JPEG marker 0x%02x has a bad length %d", m, n)
		}
		seg := data[pos+2 : pos+n]
		pos += n
		var err error
		switch {
		case m == 0xc0 || m == 0xc1 || m == 0xc2:
			err = d.readSOF(seg, m == 0xc2)
		case m == 0xc3 || (m >= 0xc5 && m <= 0xcf && m != 0xc8 && m != 0xcc):
			err = errJPEGUnsupported // lossless, hierarchical or arithmetic
		case m == 0xc4:
			err = d.readDHT(seg)
		case m == 0xdb:
			err = d.readDQT(seg)
		case m == 0xdd:
			if len(seg) < 2 {
				err = errJPEGData
			} else {
				d.restart = int(binary.BigEndian.Uint16(seg))
			}
		case m == 0xe0:
			if len(seg) >= 14 && string(seg[:5]) == "JFIF\x00" {
				d.sawJFIF = true
			}
		case m == 0xee:
			if len(seg) >= 12 && string(seg[:5]) == "Adobe" {
				d.sawAdobe = true
				d.adobeXform = int(seg[11])
			}
		case m == 0xda:
			pos, err = d.readScan(seg, pos)
		}
		if err != nil {
			if errors.Is(err, errJPEGUnsupported) {
				return nil, err
			}
			return nil, fmt.Errorf("JPEG: %w", err)
		}
	}
}

func (d *jpegDecoder) readSOF(seg []byte, progressive bool) error {
	if d.sawFrame {
		return errors.New("more than one frame")
	}
	if len(seg) < 6 {
		return errJPEGData
	}
	if seg[0] != 8 {
		return errJPEGUnsupported // 12-bit samples
	}
	d.height = int(binary.BigEndian.Uint16(seg[1:]))
	d.width = int(binary.BigEndian.Uint16(seg[3:]))
	nc := int(seg[5])
	if d.width == 0 || d.height == 0 {
		return fmt.Errorf("empty frame %dx%d", d.width, d.height)
	}
	if err := checkSize(d.width, d.height, d.maxPixels); err != nil {
		return err
	}
	if nc != 1 && nc != 3 {
		return errJPEGUnsupported
	}
	if len(seg) < 6+3*nc {
		return errJPEGData
	}
	d.progressive = progressive
	d.sawFrame = true
	d.hmax, d.vmax = 1, 1
	for i := 0; i < nc; i++ {
		c := jpegComponent{id: seg[6+3*i], h: int(seg[7+3*i] >> 4), v: int(seg[7+3*i] & 15), tq: int(seg[8+3*i])}
		if c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 || c.tq > 3 {
			return fmt.Errorf("bad component parameters h=%d v=%d tq=%d", c.h, c.v, c.tq)
		}
		d.hmax, d.vmax = max(d.hmax, c.h), max(d.vmax, c.v)
		d.comps = append(d.comps, c)
	}
	d.mcusX = (d.width + 8*d.hmax - 1) / (8 * d.hmax)
	d.mcusY = (d.height + 8*d.vmax - 1) / (8 * d.vmax)
	// Every block costs at least one bit of entropy-coded data (a DC code),
	// so a frame with more blocks than the file has bits is truncated or
	// hostile: refuse it before allocating coefficient memory.
	blocks := 0
	for _, c := range d.comps {
		blocks += d.mcusX * c.h * d.mcusY * c.v
	}
	if blocks > 8*len(d.data)+64 {
		return fmt.Errorf("frame of %dx%d needs %d blocks but the file has only %d bytes", d.width, d.height, blocks, len(d.data))
	}
	for i := range d.comps {
		c := &d.comps[i]
		if d.hmax%c.h != 0 || d.vmax%c.v != 0 {
			return errJPEGUnsupported // fractional sampling (libjpeg refuses too)
		}
		c.downWidth = (d.width*c.h + d.hmax - 1) / d.hmax
		c.downHeight = (d.height*c.v + d.vmax - 1) / d.vmax
		c.wBlocks = (c.downWidth + 7) / 8
		c.hBlocks = (c.downHeight + 7) / 8
		c.bw, c.bh = d.mcusX*c.h, d.mcusY*c.v
		c.coef = make([][64]int16, c.bw*c.bh)
	}
	return nil
}

func (d *jpegDecoder) readDQT(seg []byte) error {
	for len(seg) > 0 {
		pq, tq := seg[0]>>4, int(seg[0]&15)
		if tq > 3 || pq > 1 {
			return errors.New("bad DQT")
		}
		n := 64 * (1 + int(pq))
		if len(seg) < 1+n {
			return errJPEGData
		}
		t := new([64]uint16)
		for i := 0; i < 64; i++ {
			if pq == 0 {
				t[zigzag[i]] = uint16(seg[1+i])
			} else {
				t[zigzag[i]] = binary.BigEndian.Uint16(seg[1+2*i:])
			}
		}
		d.qt[tq] = t
		seg = seg[1+n:]
	}
	return nil
}

func (d *jpegDecoder) readDHT(seg []byte) error {
	for len(seg) > 0 {
		if len(seg) < 17 {
			return errJPEGData
		}
		tc, th := seg[0]>>4, int(seg[0]&15)
		if tc > 1 || th > 3 {
			return errors.New("bad DHT")
		}
		var counts [16]int
		total := 0
		for i := range counts {
			counts[i] = int(seg[1+i])
			total += counts[i]
		}
		if total > 256 || len(seg) < 17+total {
			return errJPEGData
		}
		t, err := newHuffTable(counts, append([]byte(nil), seg[17:17+total]...))
		if err != nil {
			return err
		}
		if tc == 0 {
			d.dc[th] = t
		} else {
			d.ac[th] = t
		}
		seg = seg[17+total:]
	}
	return nil
}

// scan describes one SOS.
type scan struct {
	comps          []*jpegComponent
	ss, se, ah, al int
}

// readScan parses an SOS header and decodes its entropy-coded data, which
// starts at pos; it returns the position of the marker that ends it.
func (d *jpegDecoder) readScan(seg []byte, pos int) (int, error) {
	if !d.sawFrame {
		return pos, errors.New("scan before frame header")
	}
	if len(seg) < 1 {
		return pos, errJPEGData
	}
	ns := int(seg[0])
	if ns < 1 || ns > 4 || len(seg) < 1+2*ns+3 {
		return pos, errJPEGData
	}
	var s scan
	for i := 0; i < ns; i++ {
		id, tbl := seg[1+2*i], seg[2+2*i]
		var c *jpegComponent
		for j := range d.comps {
			if d.comps[j].id == id {
				c = &d.comps[j]
			}
		}
		if c == nil {
			return pos, fmt.Errorf("scan names unknown component %d", id)
		}
		c.dcTbl, c.acTbl = int(tbl>>4), int(tbl&15)
		if c.dcTbl > 3 || c.acTbl > 3 {
			return pos, errors.New("bad table selector")
		}
		if c.q == nil {
			// libjpeg latches a component's quantization table when the
			// component first appears in a scan.
			if d.qt[c.tq] == nil {
				return pos, fmt.Errorf("component %d uses undefined quantization table %d", id, c.tq)
			}
			q := *d.qt[c.tq]
			c.q = &q
		}
		s.comps = append(s.comps, c)
	}
	p := seg[1+2*ns:]
	s.ss, s.se, s.ah, s.al = int(p[0]), int(p[1]), int(p[2]>>4), int(p[2]&15)
	if d.progressive {
		if s.ss > s.se || s.se > 63 || (s.ss == 0 && s.se != 0) || (s.ss > 0 && ns != 1) || s.al > 13 {
			return pos, errors.New("bad progressive scan parameters")
		}
	} else {
		s.ss, s.se, s.ah, s.al = 0, 63, 0, 0
	}
	for _, c := range s.comps {
		if (!d.progressive || s.ss == 0) && s.ah == 0 && d.dc[c.dcTbl] == nil {
			return pos, fmt.Errorf("undefined DC Huffman table %d", c.dcTbl)
		}
		if (!d.progressive || s.ss > 0) && d.ac[c.acTbl] == nil {
			if !(d.progressive && s.ah > 0) {
				return pos, fmt.Errorf("undefined AC Huffman table %d", c.acTbl)
			}
		}
		c.dcPred = 0
	}
	d.eobrun = 0
	b := &jpegBits{data: d.data, pos: pos}
	// Units: MCUs of an interleaved scan, or the component's own blocks.
	var unitsX, unitsY int
	if len(s.comps) == 1 {
		c := s.comps[0]
		unitsX, unitsY = c.wBlocks, c.hBlocks
	} else {
		unitsX, unitsY = d.mcusX, d.mcusY
	}
	total := unitsX * unitsY
	for u := 0; u < total; u++ {
		if d.restart > 0 && u > 0 && u%d.restart == 0 {
			if err := d.restartMarker(b); err != nil {
				return b.pos, err
			}
		}
		ux, uy := u%unitsX, u/unitsX
		if len(s.comps) == 1 {
			c := s.comps[0]
			if err := d.decodeBlock(b, &s, c, &c.coef[uy*c.bw+ux]); err != nil {
				return b.pos, err
			}
		} else {
			for _, c := range s.comps {
				for by := 0; by < c.v; by++ {
					for bx := 0; bx < c.h; bx++ {
						blk := &c.coef[(uy*c.v+by)*c.bw+ux*c.h+bx]
						if err := d.decodeBlock(b, &s, c, blk); err != nil {
							return b.pos, err
						}
					}
				}
			}
		}
		if b.exhausted() {
			return b.pos, errors.New("entropy-coded data truncated")
		}
	}
	if b.usedPad && !b.marker {
		// The data ended inside the scan: Pillow reports a truncated file.
		return b.pos, errors.New("entropy-coded data truncated")
	}
	d.scans++
	return b.pos, nil
}

// restartMarker consumes an RSTn marker and resets the decoder state.
func (d *jpegDecoder) restartMarker(b *jpegBits) error {
	b.reset()
	pos := b.pos
	for pos < len(d.data) && d.data[pos] != 0xff {
		pos++
	}
	for pos < len(d.data) && d.data[pos] == 0xff {
		pos++
	}
	if pos >= len(d.data) || d.data[pos] < 0xd0 || d.data[pos] > 0xd7 {
		return errors.New("missing restart marker")
	}
	b.pos = pos + 1
	b.marker = false
	b.padded = 0
	b.usedPad = false
	d.eobrun = 0
	for i := range d.comps {
		d.comps[i].dcPred = 0
	}
	return nil
}

// decodeBlock decodes one block's share of the scan (jdhuff.c for
// sequential scans, jdphuff.c for progressive ones).
func (d *jpegDecoder) decodeBlock(b *jpegBits, s *scan, c *jpegComponent, blk *[64]int16) error {
	if !d.progressive {
		return d.decodeSequential(b, c, blk)
	}
	switch {
	case s.ss == 0 && s.ah == 0:
		return d.decodeDCFirst(b, c, blk, s.al)
	case s.ss == 0:
		if b.bit() != 0 {
			blk[0] |= int16(1 << s.al)
		}
		return nil
	case s.ah == 0:
		return d.decodeACFirst(b, c, blk, s)
	}
	return d.decodeACRefine(b, c, blk, s)
}

func (d *jpegDecoder) decodeDC(b *jpegBits, c *jpegComponent) (int, error) {
	t, err := d.dc[c.dcTbl].decode(b)
	if err != nil {
		return 0, err
	}
	if t > 16 {
		return 0, errJPEGData
	}
	diff := extend(b.bits(uint(t)), uint(t))
	c.dcPred += diff
	if c.dcPred > 1<<26 || c.dcPred < -(1<<26) {
		return 0, errJPEGData
	}
	return c.dcPred, nil
}

func (d *jpegDecoder) decodeSequential(b *jpegBits, c *jpegComponent, blk *[64]int16) error {
	dc, err := d.decodeDC(b, c)
	if err != nil {
		return err
	}
	blk[0] = int16(dc)
	ac := d.ac[c.acTbl]
	for k := 1; k < 64; k++ {
		rs, err := ac.decode(b)
		if err != nil {
			return err
		}
		r, sz := int(rs>>4), uint(rs&15)
		if sz == 0 {
			if r != 15 {
				break
			}
			k += 15
			continue
		}
		k += r
		blk[naturalPos(k)] = int16(extend(b.bits(sz), sz))
	}
	return nil
}

func (d *jpegDecoder) decodeDCFirst(b *jpegBits, c *jpegComponent, blk *[64]int16, al int) error {
	dc, err := d.decodeDC(b, c)
	if err != nil {
		return err
	}
	blk[0] = int16(dc << al)
	return nil
}

func (d *jpegDecoder) decodeACFirst(b *jpegBits, c *jpegComponent, blk *[64]int16, s *scan) error {
	if d.eobrun > 0 {
		d.eobrun--
		return nil
	}
	ac := d.ac[c.acTbl]
	for k := s.ss; k <= s.se; k++ {
		rs, err := ac.decode(b)
		if err != nil {
			return err
		}
		r, sz := int(rs>>4), uint(rs&15)
		if sz != 0 {
			k += r
			blk[naturalPos(k)] = int16(extend(b.bits(sz), sz) * (1 << s.al))
			continue
		}
		if r == 15 {
			k += 15
			continue
		}
		d.eobrun = 1 << r
		if r > 0 {
			d.eobrun += b.bits(uint(r))
		}
		d.eobrun--
		break
	}
	return nil
}

func (d *jpegDecoder) decodeACRefine(b *jpegBits, c *jpegComponent, blk *[64]int16, s *scan) error {
	p1 := int16(1 << s.al)
	m1 := int16(-1 << s.al)
	refine := func(pos uint8) {
		if b.bit() != 0 && blk[pos]&p1 == 0 {
			if blk[pos] >= 0 {
				blk[pos] += p1
			} else {
				blk[pos] += m1
			}
		}
	}
	k := s.ss
	if d.eobrun == 0 {
		ac := d.ac[c.acTbl]
		for ; k <= s.se; k++ {
			rs, err := ac.decode(b)
			if err != nil {
				return err
			}
			r, sz := int(rs>>4), int(rs&15)
			var val int16
			if sz != 0 {
				// sz must be 1 here; libjpeg only warns otherwise.
				if b.bit() != 0 {
					val = p1
				} else {
					val = m1
				}
			} else if r != 15 {
				d.eobrun = 1 << r
				if r > 0 {
					d.eobrun += b.bits(uint(r))
				}
				break
			}
			for k <= s.se {
				pos := zigzag[k]
				if blk[pos] != 0 {
					refine(pos)
				} else {
					if r == 0 {
						break
					}
					r--
				}
				k++
			}
			if val != 0 {
				blk[naturalPos(k)] = val
			}
		}
	}
	if d.eobrun > 0 {
		for ; k <= s.se; k++ {
			pos := zigzag[k]
			if blk[pos] != 0 {
				refine(pos)
			}
		}
		d.eobrun--
	}
	return nil
}
