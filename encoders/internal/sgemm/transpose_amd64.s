#include "textflag.h"

// func transpose8x8AVX(src *float32, lds int, dst *float32, ldd int)
//
// dst[c*ldd+r] = src[r*lds+c] for r, c in [0, 8): eight rows loaded whole,
// transposed in registers by the usual unpack/shuffle/permute network.
TEXT ·transpose8x8AVX(SB), NOSPLIT, $0-32
	MOVQ src+0(FP), SI
	MOVQ lds+8(FP), AX
	MOVQ dst+16(FP), DI
	MOVQ ldd+24(FP), BX
	SHLQ $2, AX
	SHLQ $2, BX

	VMOVUPS (SI), Y0
	ADDQ    AX, SI
	VMOVUPS (SI), Y1
	ADDQ    AX, SI
	VMOVUPS (SI), Y2
	ADDQ    AX, SI
	VMOVUPS (SI), Y3
	ADDQ    AX, SI
	VMOVUPS (SI), Y4
	ADDQ    AX, SI
	VMOVUPS (SI), Y5
	ADDQ    AX, SI
	VMOVUPS (SI), Y6
	ADDQ    AX, SI
	VMOVUPS (SI), Y7

	// t0 = [r00 r10 r01 r11 | r04 r14 r05 r15], t1 = [r02 r12 r03 r13 | …]
	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15

	// u0 = [r00 r10 r20 r30 | r04 r14 r24 r34] (columns 0 | 4 of rows 0-3)
	VSHUFPS $0x44, Y10, Y8, Y0
	VSHUFPS $0xEE, Y10, Y8, Y1
	VSHUFPS $0x44, Y11, Y9, Y2
	VSHUFPS $0xEE, Y11, Y9, Y3
	VSHUFPS $0x44, Y14, Y12, Y4
	VSHUFPS $0xEE, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xEE, Y15, Y13, Y7

	// Column c: low halves (c < 4) or high halves (c ≥ 4) of rows 0-3 and 4-7.
	VPERM2F128 $0x20, Y4, Y0, Y8
	VPERM2F128 $0x20, Y5, Y1, Y9
	VPERM2F128 $0x20, Y6, Y2, Y10
	VPERM2F128 $0x20, Y7, Y3, Y11
	VPERM2F128 $0x31, Y4, Y0, Y12
	VPERM2F128 $0x31, Y5, Y1, Y13
	VPERM2F128 $0x31, Y6, Y2, Y14
	VPERM2F128 $0x31, Y7, Y3, Y15

	VMOVUPS Y8, (DI)
	ADDQ    BX, DI
	VMOVUPS Y9, (DI)
	ADDQ    BX, DI
	VMOVUPS Y10, (DI)
	ADDQ    BX, DI
	VMOVUPS Y11, (DI)
	ADDQ    BX, DI
	VMOVUPS Y12, (DI)
	ADDQ    BX, DI
	VMOVUPS Y13, (DI)
	ADDQ    BX, DI
	VMOVUPS Y14, (DI)
	ADDQ    BX, DI
	VMOVUPS Y15, (DI)
	VZEROUPPER
	RET
