#include "textflag.h"

// One step of the 6×16 micro-kernel: two YMM rows of packed B (16 floats at
// bo(BX)) times six broadcast elements of packed A (at ao(AX)), accumulated
// into Y0..Y11 (row i of the tile in Y(2i), Y(2i+1)).
#define STEP(ao, bo) \
	VMOVUPS      bo(BX), Y12;        \
	VMOVUPS      bo+32(BX), Y13;     \
	VBROADCASTSS ao(AX), Y14;        \
	VBROADCASTSS ao+4(AX), Y15;      \
	VFMADD231PS  Y12, Y14, Y0;       \
	VFMADD231PS  Y13, Y14, Y1;       \
	VFMADD231PS  Y12, Y15, Y2;       \
	VFMADD231PS  Y13, Y15, Y3;       \
	VBROADCASTSS ao+8(AX), Y14;      \
	VBROADCASTSS ao+12(AX), Y15;     \
	VFMADD231PS  Y12, Y14, Y4;       \
	VFMADD231PS  Y13, Y14, Y5;       \
	VFMADD231PS  Y12, Y15, Y6;       \
	VFMADD231PS  Y13, Y15, Y7;       \
	VBROADCASTSS ao+16(AX), Y14;     \
	VBROADCASTSS ao+20(AX), Y15;     \
	VFMADD231PS  Y12, Y14, Y8;       \
	VFMADD231PS  Y13, Y14, Y9;       \
	VFMADD231PS  Y12, Y15, Y10;      \
	VFMADD231PS  Y13, Y15, Y11

// Adds the two accumulators of one tile row to C at DX and moves DX to the
// next row.
#define STOREROW(lo, hi) \
	VADDPS  (DX), lo, lo;    \
	VMOVUPS lo, (DX);        \
	VADDPS  32(DX), hi, hi;  \
	VMOVUPS hi, 32(DX);      \
	ADDQ    R8, DX

// func kernelAVX2(k int, a, b, c *float32, ldc int)
TEXT ·kernelAVX2(SB), NOSPLIT, $0-40
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ b+16(FP), BX
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $2, R8

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

loop4:
	CMPQ CX, $4
	JLT  tail
	STEP(0, 0)
	STEP(24, 64)
	STEP(48, 128)
	STEP(72, 192)
	ADDQ $96, AX
	ADDQ $256, BX
	SUBQ $4, CX
	JMP  loop4

tail:
	TESTQ CX, CX
	JEQ   store
	STEP(0, 0)
	ADDQ  $24, AX
	ADDQ  $64, BX
	DECQ  CX
	JMP   tail

store:
	STOREROW(Y0, Y1)
	STOREROW(Y2, Y3)
	STOREROW(Y4, Y5)
	STOREROW(Y6, Y7)
	STOREROW(Y8, Y9)
	STOREROW(Y10, Y11)
	VZEROUPPER
	RET
