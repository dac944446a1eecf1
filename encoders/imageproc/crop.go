package imageproc

import (
	"fmt"
	"math"
)

// Box is a region in pixel coordinates, (Left, Top) inclusive and (Right,
// Bottom) exclusive, as PIL's Image.crop takes it. Coordinates may be
// fractional; region files of detection pipelines store them as floats.
type Box struct {
	Left, Top, Right, Bottom float64 // PIL's (left, upper, right, lower)
}

// Rect rounds the box to integer pixel edges the way PIL's Image._crop does:
// Python's round() (half to even) on each coordinate. Matches the reference
// implementation, which maps int(round(v)) over the box, so 4.5 becomes 4
// and 5.5 becomes 6.
func (b Box) Rect() (x0, y0, x1, y1 int, err error) {
	vals := [4]float64{b.Left, b.Top, b.Right, b.Bottom}
	var r [4]int
	for i, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1<<30 {
			return 0, 0, 0, 0, fmt.Errorf("crop box %v has a non-finite or huge coordinate", b)
		}
		r[i] = int(math.RoundToEven(v))
	}
	return r[0], r[1], r[2], r[3], nil
}

// Crop returns the region box of img with PIL's Image.crop semantics: the
// coordinates are rounded half to even (Box.Rect), a right edge left of the
// left edge (or bottom above top) is an error as in Pillow 9.4, and parts of
// the region outside the image are black. A box that rounds to zero width or
// height gives an empty image.
func Crop(img *RGB, box Box) (*RGB, error) {
	if err := img.valid(); err != nil {
		return nil, err
	}
	if box.Right < box.Left {
		return nil, fmt.Errorf("crop box %v: right is less than left", box)
	}
	if box.Bottom < box.Top {
		return nil, fmt.Errorf("crop box %v: bottom is less than top", box)
	}
	x0, y0, x1, y1, err := box.Rect()
	if err != nil {
		return nil, err
	}
	return cropRect(img, x0, y0, max(x1-x0, 0), max(y1-y0, 0))
}

// cropRect copies the w × h region whose top-left corner is (x0, y0),
// filling pixels outside img with zero (ImagingCrop).
func cropRect(img *RGB, x0, y0, w, h int) (*RGB, error) {
	out, err := NewRGB(w, h)
	if err != nil {
		return nil, err
	}
	// Intersection with the source, in source coordinates.
	sx0, sy0 := max(x0, 0), max(y0, 0)
	sx1, sy1 := min(x0+w, img.Width), min(y0+h, img.Height)
	if sx0 >= sx1 || sy0 >= sy1 {
		return out, nil
	}
	for sy := sy0; sy < sy1; sy++ {
		src := img.Pix[(sy*img.Width+sx0)*3 : (sy*img.Width+sx1)*3]
		dst := out.Pix[((sy-y0)*w+(sx0-x0))*3:]
		copy(dst, src)
	}
	return out, nil
}
