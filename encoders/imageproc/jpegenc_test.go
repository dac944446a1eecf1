package imageproc

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

// This file holds a minimal baseline JPEG writer for tests: any sampling
// factors, restart intervals, fixed-length Huffman codes. It exists to
// produce the layouts the fixture crops lack (4:2:2, 4:4:0, 4:1:1, restart
// markers) so the decoder's MCU ordering and restart handling can be checked
// against the standard library's decoder.

type testJPEGComp struct {
	h, v  int
	plane []uint8 // at the component's own resolution
	w, ht int
}

type bitWriter struct {
	buf  bytes.Buffer
	acc  uint32
	nacc uint
}

func (w *bitWriter) write(code uint32, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		w.acc = w.acc<<1 | (code>>uint(i))&1
		w.nacc++
		if w.nacc == 8 {
			b := byte(w.acc)
			w.buf.WriteByte(b)
			if b == 0xff {
				w.buf.WriteByte(0)
			}
			w.acc, w.nacc = 0, 0
		}
	}
}

func (w *bitWriter) flush() {
	for w.nacc != 0 {
		w.write(1, 1)
	}
}

// magnitude returns the JPEG size category and the bits of v.
func magnitude(v int) (uint, uint32) {
	a := v
	if a < 0 {
		a = -a
	}
	s := uint(0)
	for a > 0 {
		s++
		a >>= 1
	}
	if v < 0 {
		return s, uint32(v + (1 << s) - 1)
	}
	return s, uint32(v)
}

// encodeTestJPEG writes a baseline JPEG of width × height with the given
// components (1 or 3), quantization step q for every coefficient and a
// restart interval in MCUs (0 for none).
func encodeTestJPEG(width, height int, comps []testJPEGComp, q uint16, restart int) []byte {
	hmax, vmax := 1, 1
	for _, c := range comps {
		hmax, vmax = max(hmax, c.h), max(vmax, c.v)
	}
	// Fixed-length codes: DC symbols 0..11 in 4 bits, AC symbols (the 162
	// run/size pairs) in 8 bits.
	var dcVals, acVals []byte
	for s := 0; s < 12; s++ {
		dcVals = append(dcVals, byte(s))
	}
	acVals = append(acVals, 0x00, 0xf0)
	for r := 0; r < 16; r++ {
		for s := 1; s <= 10; s++ {
			acVals = append(acVals, byte(r<<4|s))
		}
	}
	dcCode, acCode := map[byte]uint32{}, map[byte]uint32{}
	for i, v := range dcVals {
		dcCode[v] = uint32(i)
	}
	for i, v := range acVals {
		acCode[v] = uint32(i)
	}
	var out bytes.Buffer
	seg := func(m byte, data []byte) {
		out.Write([]byte{0xff, m, byte((len(data) + 2) >> 8), byte(len(data) + 2)})
		out.Write(data)
	}
	out.Write([]byte{0xff, 0xd8})
	seg(0xe0, []byte{'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0})
	dqt := []byte{0}
	for i := 0; i < 64; i++ {
		dqt = append(dqt, byte(q))
	}
	seg(0xdb, dqt)
	sof := []byte{8, byte(height >> 8), byte(height), byte(width >> 8), byte(width), byte(len(comps))}
	for i, c := range comps {
		sof = append(sof, byte(i+1), byte(c.h<<4|c.v), 0)
	}
	seg(0xc0, sof)
	dht := []byte{0x00}
	var counts [16]byte
	counts[3] = byte(len(dcVals))
	dht = append(append(dht, counts[:]...), dcVals...)
	dht = append(dht, 0x10)
	counts = [16]byte{}
	counts[7] = byte(len(acVals))
	dht = append(append(dht, counts[:]...), acVals...)
	seg(0xc4, dht)
	if restart > 0 {
		seg(0xdd, []byte{byte(restart >> 8), byte(restart)})
	}
	sos := []byte{byte(len(comps))}
	for i := range comps {
		sos = append(sos, byte(i+1), 0x00)
	}
	seg(0xda, append(sos, 0, 63, 0))

	mcusX := (width + 8*hmax - 1) / (8 * hmax)
	mcusY := (height + 8*vmax - 1) / (8 * vmax)
	w := &bitWriter{}
	pred := make([]int, len(comps))
	rst := 0
	for my := 0; my < mcusY; my++ {
		for mx := 0; mx < mcusX; mx++ {
			if restart > 0 && (my*mcusX+mx) > 0 && (my*mcusX+mx)%restart == 0 {
				w.flush()
				w.buf.Write([]byte{0xff, byte(0xd0 + rst%8)})
				rst++
				for i := range pred {
					pred[i] = 0
				}
			}
			for ci, c := range comps {
				for by := 0; by < c.v; by++ {
					for bx := 0; bx < c.h; bx++ {
						coef := fdctBlock(c, (mx*c.h+bx)*8, (my*c.v+by)*8, q)
						diff := coef[0] - pred[ci]
						pred[ci] = coef[0]
						s, bits := magnitude(diff)
						w.write(dcCode[byte(s)], 4)
						w.write(bits, s)
						run := 0
						for k := 1; k < 64; k++ {
							v := coef[zigzag[k]]
							if v == 0 {
								run++
								continue
							}
							for run > 15 {
								w.write(acCode[0xf0], 8)
								run -= 16
							}
							s, bits := magnitude(v)
							w.write(acCode[byte(run<<4)|byte(s)], 8)
							w.write(bits, s)
							run = 0
						}
						if run > 0 {
							w.write(acCode[0x00], 8)
						}
					}
				}
			}
		}
	}
	w.flush()
	out.Write(w.buf.Bytes())
	out.Write([]byte{0xff, 0xd9})
	return out.Bytes()
}

// fdctBlock is a direct (slow, exact) forward DCT of the 8×8 block at
// (x0, y0) of the component, edges replicated, quantized by q.
func fdctBlock(c testJPEGComp, x0, y0 int, q uint16) [64]int {
	var px [8][8]float64
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			sx, sy := min(x0+x, c.w-1), min(y0+y, c.ht-1)
			px[y][x] = float64(c.plane[sy*c.w+sx]) - 128
		}
	}
	var out [64]int
	for v := 0; v < 8; v++ {
		for u := 0; u < 8; u++ {
			s := 0.0
			for y := 0; y < 8; y++ {
				for x := 0; x < 8; x++ {
					s += px[y][x] * math.Cos(float64(2*x+1)*float64(u)*math.Pi/16) * math.Cos(float64(2*y+1)*float64(v)*math.Pi/16)
				}
			}
			cu, cv := 1.0, 1.0
			if u == 0 {
				cu = 1 / math.Sqrt2
			}
			if v == 0 {
				cv = 1 / math.Sqrt2
			}
			out[v*8+u] = int(math.Round(s * cu * cv / 4 / float64(q)))
		}
	}
	return out
}

// testPlane is a smooth pattern with some texture, w × h.
func testPlane(w, h, seed int) []uint8 {
	p := make([]uint8, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := 128 + 60*math.Sin(float64(x*(seed+1))/7) + 50*math.Cos(float64(y*(seed+2))/5) + float64((x*y+seed)%9)
			p[y*w+x] = clip8(int(v))
		}
	}
	return p
}

// TestLibjpegDecoderLayouts decodes JPEGs with sampling layouts and restart
// intervals the fixture crops do not have, and compares with the standard
// library's decoder (with the same libjpeg upsampling): only the IDCT
// differs, so every sample must lie within 3 levels. A wrong MCU order or
// restart handling gives differences of tens of levels.
func TestLibjpegDecoderLayouts(t *testing.T) {
	layouts := []struct {
		name   string
		factor [3][2]int
	}{
		{"4:4:4", [3][2]int{{1, 1}, {1, 1}, {1, 1}}},
		{"4:2:2", [3][2]int{{2, 1}, {1, 1}, {1, 1}}},
		{"4:2:0", [3][2]int{{2, 2}, {1, 1}, {1, 1}}},
		{"4:4:0", [3][2]int{{1, 2}, {1, 1}, {1, 1}}},
		{"4:1:1", [3][2]int{{4, 1}, {1, 1}, {1, 1}}},
	}
	const width, height = 45, 29
	for _, l := range layouts {
		for _, restart := range []int{0, 1, 3} {
			var comps []testJPEGComp
			hmax, vmax := l.factor[0][0], l.factor[0][1]
			for i, f := range l.factor {
				cw, ch := (width*f[0]+hmax-1)/hmax, (height*f[1]+vmax-1)/vmax
				comps = append(comps, testJPEGComp{h: f[0], v: f[1], w: cw, ht: ch, plane: testPlane(cw, ch, i)})
			}
			data := encodeTestJPEG(width, height, comps, 2, restart)
			name := fmt.Sprintf("%s restart=%d", l.name, restart)
			a, err := Decode(bytes.NewReader(data), DecodeOptions{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			b, err := Decode(bytes.NewReader(data), DecodeOptions{JPEG: JPEGStdlibFancy})
			if err != nil {
				t.Fatalf("%s: standard library: %v", name, err)
			}
			maxd := 0
			for i := range a.Pix {
				d := int(a.Pix[i]) - int(b.Pix[i])
				maxd = max(maxd, d, -d)
			}
			if maxd > 3 {
				t.Errorf("%s: decoders differ by up to %d levels", name, maxd)
			}
		}
	}
	// Grayscale with restarts.
	data := encodeTestJPEG(width, height, []testJPEGComp{{h: 1, v: 1, w: width, ht: height, plane: testPlane(width, height, 5)}}, 3, 2)
	a, err := Decode(bytes.NewReader(data), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Decode(bytes.NewReader(data), DecodeOptions{JPEG: JPEGStdlibFancy})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Pix {
		if d := int(a.Pix[i]) - int(b.Pix[i]); d > 3 || d < -3 {
			t.Fatalf("gray restart=2: sample %d differs by %d", i, d)
		}
	}
}
