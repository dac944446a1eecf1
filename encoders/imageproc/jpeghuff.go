package imageproc

import "errors"

// errJPEGData reports a corrupt entropy-coded segment.
var errJPEGData = errors.New("corrupt JPEG data")

// jpegBits reads the entropy-coded segment bit by bit as libjpeg's
// jdhuff.c fill_bit_buffer does: 0xFF 0x00 is a data byte 0xFF, fill bytes
// 0xFF are skipped, and at a marker the reader stops and supplies zero bits
// (libjpeg warns and pads with zeros the same way).
type jpegBits struct {
	data    []byte
	pos     int    // next unread byte
	acc     uint64 // bit buffer, most significant bits first
	n       uint   // valid bits in acc
	marker  bool   // a marker was hit at data[pos]
	padded  int    // zero bytes supplied after the marker or the end of data
	padAcc  uint   // how many of the n buffered bits are padding (always the last ones)
	usedPad bool   // a padding bit was consumed: the segment's data ran out
}

// fill tops the buffer up to at least 25 bits.
func (b *jpegBits) fill() {
	for b.n <= 56 {
		var c byte
		pad := false
		switch {
		case b.marker || b.pos >= len(b.data):
			pad = true
		case b.data[b.pos] != 0xff:
			c = b.data[b.pos]
			b.pos++
		default:
			p := b.pos + 1
			for p < len(b.data) && b.data[p] == 0xff {
				p++
			}
			if p < len(b.data) && b.data[p] == 0 {
				c = 0xff
				b.pos = p + 1
			} else {
				b.marker = true
				b.pos = p - 1 // at the last 0xFF before the marker code
				pad = true
			}
		}
		b.acc |= uint64(c) << (56 - b.n)
		b.n += 8
		if pad {
			b.padded++
			b.padAcc += 8
			if b.padded > 1<<16 {
				return // the caller notices the run of padding
			}
		}
	}
}

func (b *jpegBits) bits(k uint) int {
	if k == 0 {
		return 0
	}
	if b.n < k {
		b.fill()
	}
	v := int(b.acc >> (64 - k))
	b.consume(k)
	return v
}

// consume drops k bits, noting when padding is reached.
func (b *jpegBits) consume(k uint) {
	b.acc <<= k
	b.n -= k
	if b.n < b.padAcc {
		b.padAcc = b.n
		b.usedPad = true
	}
}

func (b *jpegBits) bit() int { return b.bits(1) }

// reset discards buffered bits (at a restart marker or the end of a scan).
func (b *jpegBits) reset() {
	b.acc, b.n, b.padAcc = 0, 0, 0
}

// exhausted reports that far more padding than any valid scan needs has been
// supplied: the data is truncated or corrupt.
func (b *jpegBits) exhausted() bool { return b.padded > 1<<16 }

// extend is the JPEG EXTEND: a received s-bit value v as a signed number.
func extend(v int, s uint) int {
	if s == 0 {
		return 0
	}
	if v < 1<<(s-1) {
		return v - (1 << s) + 1
	}
	return v
}

// huffTable is a canonical Huffman decoding table (libjpeg's
// jpeg_make_d_derived_tbl, without the lookahead shortcut).
type huffTable struct {
	maxcode [18]int32 // largest code of each length, −1 if none
	valptr  [17]int32 // index in vals of the first code of each length
	mincode [17]int32
	vals    []byte
	fast    [256]uint16 // 8-bit lookahead: length<<8 | value, 0 if longer
}

func newHuffTable(counts [16]int, vals []byte) (*huffTable, error) {
	t := &huffTable{vals: vals}
	code, k := int32(0), 0
	for l := 1; l <= 16; l++ {
		n := counts[l-1]
		if code+int32(n) > 1<<l {
			return nil, errors.New("bad Huffman table (over-subscribed)")
		}
		if n == 0 {
			t.maxcode[l] = -1
		} else {
			t.valptr[l] = int32(k)
			t.mincode[l] = code
			if l <= 8 {
				for i := 0; i < n; i++ {
					c := int(code) + i
					lo := c << (8 - l)
					for j := 0; j < 1<<(8-l); j++ {
						t.fast[lo+j] = uint16(l)<<8 | uint16(vals[k+i])
					}
				}
			}
			code += int32(n)
			k += n
			t.maxcode[l] = code - 1
		}
		code <<= 1
	}
	t.maxcode[17] = 0x7fffffff
	return t, nil
}

// decode reads one Huffman-coded symbol.
func (t *huffTable) decode(b *jpegBits) (byte, error) {
	if b.n < 16 {
		b.fill()
	}
	if f := t.fast[b.acc>>56]; f != 0 {
		b.consume(uint(f >> 8))
		return byte(f), nil
	}
	code := int32(0)
	for l := 1; l <= 16; l++ {
		code = code<<1 | int32(b.bit())
		if code <= t.maxcode[l] {
			return t.vals[t.valptr[l]+code-t.mincode[l]], nil
		}
	}
	return 0, errJPEGData
}
