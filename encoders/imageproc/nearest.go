package imageproc

// resizeNearest is Pillow's NEAREST resize: an affine scale
// (ImagingScaleAffine) whose source coordinate starts at half a step and is
// advanced by repeated addition, then truncated — the accumulation order
// matters for which source pixel is picked, so it is kept.
func resizeNearest(pix []uint8, w, h, ch, width, height int) []uint8 {
	out := make([]uint8, width*height*ch)
	ax := float64(float32(w)) / float64(width)
	ay := float64(float32(h)) / float64(height)
	coord := func(v float64) int {
		if v < 0 {
			return -1
		}
		return int(v)
	}
	xin := make([]int, width)
	xo := ax * 0.5
	for x := range xin {
		xin[x] = coord(xo)
		xo += ax
	}
	yo := ay * 0.5
	for y := 0; y < height; y++ {
		yi := coord(yo)
		yo += ay
		if yi < 0 || yi >= h {
			continue // Pillow fills with zero
		}
		row := pix[yi*w*ch:]
		o := out[y*width*ch:]
		for x, xi := range xin {
			if xi < 0 || xi >= w {
				continue
			}
			copy(o[ch*x:ch*x+ch], row[ch*xi:ch*xi+ch])
		}
	}
	return out
}
