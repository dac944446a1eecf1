package sgemm

// packA copies the mcur×kcur block of alpha·op(A) at (ic, pc) into dst as
// mr-row slivers, each stored column after column (kcur columns of mr
// values), the last sliver padded with zeros. transpose8x8 is as in
// microKernel, or nil. Folding alpha in here costs mcur·kcur
// multiplications instead of one per element of C per block.
func packA(dst, a []float32, lda int, trans bool, alpha float32, ic, pc, mcur, kcur, mr int, transpose8x8 func(src *float32, lds int, dst *float32, ldd int)) {
	for ir := 0; ir < mcur; ir += mr {
		s := dst[ir*kcur : (ir+mr)*kcur]
		rows := min(mr, mcur-ir)
		if trans {
			// op(A)(i, p) = a[p*lda+i]: each column of the sliver is
			// contiguous in a.
			for p := range kcur {
				src := a[(pc+p)*lda+ic+ir:][:rows]
				col := s[p*mr : p*mr+mr]
				for i, v := range src {
					col[i] = alpha * v
				}
				clear(col[rows:])
			}
			continue
		}
		// op(A)(i, p) = a[i*lda+p]: each row of the sliver is contiguous.
		gatherTransposed(s, mr, a[(ic+ir)*lda+pc:], lda, rows, kcur, transpose8x8)
		if alpha != 1 {
			for p := range kcur {
				col := s[p*mr : p*mr+rows]
				for i := range col {
					col[i] *= alpha
				}
			}
		}
		for i := rows; i < mr; i++ {
			for p := range kcur {
				s[p*mr+i] = 0
			}
		}
	}
}

// packB copies the kcur×ncur panel of op(B) at (pc, jc) into dst as nr-column
// slivers, each stored row after row (kcur rows of nr values), the last
// sliver padded with zeros. transpose8x8 is as in microKernel, or nil.
func packB(dst, b []float32, ldb int, trans bool, pc, jc, kcur, ncur, nr int, transpose8x8 func(src *float32, lds int, dst *float32, ldd int)) {
	for jr := 0; jr < ncur; jr += nr {
		s := dst[jr*kcur : (jr+nr)*kcur]
		cols := min(nr, ncur-jr)
		if !trans {
			// op(B)(p, j) = b[p*ldb+j]: each row of the sliver is
			// contiguous in b.
			for p := range kcur {
				row := s[p*nr : p*nr+nr]
				copy(row, b[(pc+p)*ldb+jc+jr:][:cols])
				clear(row[cols:])
			}
			continue
		}
		// op(B)(p, j) = b[j*ldb+p]: each column of the sliver is contiguous.
		gatherTransposed(s, nr, b[(jc+jr)*ldb+pc:], ldb, cols, kcur, transpose8x8)
		for j := cols; j < nr; j++ {
			for p := range kcur {
				s[p*nr+j] = 0
			}
		}
	}
}

// gatherTransposed sets dst[p*ldd+i] = src[i*lds+p] for i < width and
// p < depth. With a transpose8x8 it moves whole 8×8 blocks in registers —
// the last block of a width that is not a multiple of 8 overlaps the one
// before it, which writes some elements twice with the same values — and
// only the last depth%8 columns one by one; the slice expressions check
// the bounds that the assembly does not.
func gatherTransposed(dst []float32, ldd int, src []float32, lds, width, depth int, transpose8x8 func(src *float32, lds int, dst *float32, ldd int)) {
	p8 := 0
	if transpose8x8 != nil && width >= 8 {
		p8 = depth / 8 * 8
		for o := 0; ; o += 8 {
			o = min(o, width-8)
			for p := 0; p < p8; p += 8 {
				sb := src[o*lds+p:][:7*lds+8]
				db := dst[p*ldd+o:][:7*ldd+8]
				transpose8x8(&sb[0], lds, &db[0], ldd)
			}
			if o+8 >= width {
				break
			}
		}
	}
	for i := range width {
		row := src[i*lds:][:depth]
		for p := p8; p < depth; p++ {
			dst[p*ldd+i] = row[p]
		}
	}
}
