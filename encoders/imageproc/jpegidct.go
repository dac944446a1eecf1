package imageproc

// The inverse DCT of libjpeg's default JDCT_ISLOW method (jidctint.c,
// jpeg_idct_islow): the Loeffler–Ligtenberg–Moschytz algorithm in 13-bit
// fixed point with 2 extra bits between the passes. libjpeg-turbo's SIMD
// versions give the same results, so porting the integer arithmetic step by
// step reproduces Pillow's decoded samples exactly.
const (
	idctConstBits = 13
	idctPass1Bits = 2

	fix0_298631336 = 2446
	fix0_390180644 = 3196
	fix0_541196100 = 4433
	fix0_765366865 = 6270
	fix0_899976223 = 7373
	fix1_175875602 = 9633
	fix1_501321110 = 12299
	fix1_847759065 = 15137
	fix1_961570560 = 16069
	fix2_053119869 = 16819
	fix2_562915447 = 20995
	fix3_072711026 = 25172
)

// descale is libjpeg's DESCALE: shift right by n with rounding (arithmetic
// shift of x + 2^(n-1)).
func descale(x int64, n uint) int64 { return (x + 1<<(n-1)) >> n }

// idctRangeLimit maps a descaled IDCT output (centred on 0) to a sample the
// way libjpeg's range_limit table indexed with "& RANGE_MASK" does: values
// in −128..127 become 0..255, 128..511 saturate to 255, and the rest of the
// 10-bit wrap-around (512..1023, i.e. large negatives) gives 0.
func idctRangeLimit(v int64) uint8 {
	i := int(v) & 1023
	switch {
	case i < 128:
		return uint8(i + 128)
	case i < 512:
		return 255
	case i < 896:
		return 0
	}
	return uint8(i - 896)
}

// idctIslow dequantizes one block of coefficients (natural order) with the
// quantization table q (natural order) and writes the 8×8 samples to out at
// the given stride.
func idctIslow(coef *[64]int16, q *[64]uint16, out []uint8, stride int) {
	var ws [64]int32
	// Pass 1: columns from the input, results scaled up by PASS1_BITS.
	for c := 0; c < 8; c++ {
		if coef[8+c] == 0 && coef[16+c] == 0 && coef[24+c] == 0 && coef[32+c] == 0 &&
			coef[40+c] == 0 && coef[48+c] == 0 && coef[56+c] == 0 {
			dc := int32(coef[c]) * int32(q[c]) << idctPass1Bits
			for r := 0; r < 8; r++ {
				ws[8*r+c] = dc
			}
			continue
		}
		var in [8]int64
		for r := range in {
			in[r] = int64(int32(coef[8*r+c]) * int32(q[8*r+c]))
		}
		col := idct1D(&in)
		for r, v := range col {
			ws[8*r+c] = int32(descale(v, idctConstBits-idctPass1Bits))
		}
	}
	// Pass 2: rows from the workspace, descaled by PASS1_BITS + 3 more.
	for r := 0; r < 8; r++ {
		w := ws[8*r : 8*r+8]
		o := out[r*stride : r*stride+8]
		if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
			v := idctRangeLimit(descale(int64(w[0]), idctPass1Bits+3))
			for i := range o {
				o[i] = v
			}
			continue
		}
		var in [8]int64
		for i, v := range w {
			in[i] = int64(v)
		}
		row := idct1D(&in)
		for i, v := range row {
			o[i] = idctRangeLimit(descale(v, idctConstBits+idctPass1Bits+3))
		}
	}
}

// idct1D is one 8-point pass of jpeg_idct_islow (the same butterflies for
// columns and rows): the even part from inputs 0, 2, 4, 6 and the odd part
// from 1, 3, 5, 7, returned before descaling. The arithmetic is exact
// integer arithmetic, so the order of additions does not matter.
func idct1D(in *[8]int64) [8]int64 {
	// Even part.
	z2, z3 := in[2], in[6]
	z1 := (z2 + z3) * fix0_541196100
	tmp2 := z1 + z3*(-fix1_847759065)
	tmp3 := z1 + z2*fix0_765366865
	tmp0 := (in[0] + in[4]) << idctConstBits
	tmp1 := (in[0] - in[4]) << idctConstBits
	tmp10, tmp13 := tmp0+tmp3, tmp0-tmp3
	tmp11, tmp12 := tmp1+tmp2, tmp1-tmp2
	// Odd part.
	tmp3, tmp2, tmp1, tmp0 = in[1], in[3], in[5], in[7]
	z4 := tmp1 + tmp3
	z3 = tmp0 + tmp2
	z2 = tmp1 + tmp2
	z1 = tmp0 + tmp3
	z5 := (z3 + z4) * fix1_175875602
	tmp3 *= fix1_501321110
	tmp2 *= fix3_072711026
	tmp1 *= fix2_053119869
	tmp0 *= fix0_298631336
	z4 = z4*(-fix0_390180644) + z5
	z3 = z3*(-fix1_961570560) + z5
	z1 *= -fix0_899976223
	z2 *= -fix2_562915447
	tmp3 += z1 + z4
	tmp2 += z2 + z3
	tmp1 += z2 + z4
	tmp0 += z1 + z3
	return [8]int64{tmp10 + tmp3, tmp11 + tmp2, tmp12 + tmp1, tmp13 + tmp0, tmp13 - tmp0, tmp12 - tmp1, tmp11 - tmp2, tmp10 - tmp3}
}
