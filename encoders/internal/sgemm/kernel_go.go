package sgemm

import "unsafe"

// goKernel is the portable 6×16 micro-kernel.
var goKernel = microKernel{name: "go", fn: kernelGo, mr: 6, nr: 16}

// kernelGo is the portable kernelFunc for 6×16 tiles.
func kernelGo(k int, a, b, c *float32, ldc int) {
	const mr, nr = 6, 16
	// The slices span exactly what a micro-kernel reads and writes;
	// sgemm checked that A, B and C hold them (gonum's length checks) and
	// packA/packB slice the panels with bounds checks, so none reaches past
	// its allocation.
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
