package sgemm

import "unsafe"

// kernelGo is the portable micro-kernel: it adds the product of a packed
// mr×k sliver of A and a packed k×nr sliver of B to the mr×nr tile of C at
// c, whose rows are ldc elements apart.
func kernelGo(k int, a, b, c *float32, ldc int) {
	as := unsafe.Slice(a, k*mr)
	bs := unsafe.Slice(b, k*nr)
	var acc [mr][nr]float32
	for p := range k {
		brow := (*[nr]float32)(bs[p*nr:])
		acol := (*[mr]float32)(as[p*mr:])
		for i, ai := range acol {
			row := &acc[i]
			for j, bj := range brow {
				row[j] += ai * bj
			}
		}
	}
	cs := unsafe.Slice(c, (mr-1)*ldc+nr)
	for i := range acc {
		row := cs[i*ldc : i*ldc+nr]
		for j, v := range acc[i] {
			row[j] += v
		}
	}
}
