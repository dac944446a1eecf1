package sgemm

// packA copies the mcur×kcur block of alpha·op(A) at (ic, pc) into dst as
// mr-row slivers, each stored column after column (kcur columns of mr
// values), the last sliver padded with zeros. transpose8x8 is as in
// microKernel, or nil. Folding alpha in here costs
// mcur·kcur multiplications instead of one per element of C per block.
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
		// With alpha = 1, whole 8×8 blocks of the first 8 rows go through
		// transpose8x8 when there is one.
		i8 := 0
		if transpose8x8 != nil && alpha == 1 && rows >= 8 {
			i8 = 8
			p8 := kcur / 8 * 8
			for p := 0; p < p8; p += 8 {
				src := a[(ic+ir)*lda+pc+p:][:7*lda+8]
				d := s[p*mr:][:7*mr+8]
				transpose8x8(&src[0], lda, &d[0], mr)
			}
			for i := range 8 {
				src := a[(ic+ir+i)*lda+pc:][:kcur]
				for p := p8; p < kcur; p++ {
					s[p*mr+i] = src[p]
				}
			}
		}
		for i := i8; i < rows; i++ {
			src := a[(ic+ir+i)*lda+pc:][:kcur]
			for p, v := range src {
				s[p*mr+i] = alpha * v
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
		// Whole 8×8 blocks go through transpose8x8 when there is one; the
		// slice expressions check the bounds that it does not.
		j8, p8 := 0, 0
		if transpose8x8 != nil {
			j8, p8 = cols/8*8, kcur/8*8
			for j := 0; j < j8; j += 8 {
				for p := 0; p < p8; p += 8 {
					src := b[(jc+jr+j)*ldb+pc+p:][:7*ldb+8]
					d := s[p*nr+j:][:7*nr+8]
					transpose8x8(&src[0], ldb, &d[0], nr)
				}
				for jj := j; jj < j+8; jj++ {
					src := b[(jc+jr+jj)*ldb+pc:][:kcur]
					for p := p8; p < kcur; p++ {
						s[p*nr+jj] = src[p]
					}
				}
			}
		}
		for j := j8; j < cols; j++ {
			src := b[(jc+jr+j)*ldb+pc:][:kcur]
			for p, v := range src {
				s[p*nr+j] = v
			}
		}
		for j := cols; j < nr; j++ {
			for p := range kcur {
				s[p*nr+j] = 0
			}
		}
	}
}
