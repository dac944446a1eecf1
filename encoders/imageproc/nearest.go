package imageproc

// resizeNearest is Pillow's NEAREST resize: an affine scale
// (ImagingScaleAffine) whose source coordinate starts at half a step and is
// advanced by repeated addition, then truncated — the accumulation order
// matters for which source pixel is picked, so it is kept.
func resizeNearest(src *RGB, width, height int) *RGB {
	out := &RGB{Width: width, Height: height, Pix: make([]uint8, width*height*3)}
	ax := float64(float32(src.Width)) / float64(width)
	ay := float64(float32(src.Height)) / float64(height)
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
		if yi < 0 || yi >= src.Height {
			continue // Pillow fills with zero
		}
		row := src.Pix[yi*src.Width*3:]
		o := out.Pix[y*width*3:]
		for x, xi := range xin {
			if xi < 0 || xi >= src.Width {
				continue
			}
			copy(o[3*x:3*x+3], row[3*xi:3*xi+3])
		}
	}
	return out
}
