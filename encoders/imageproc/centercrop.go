package imageproc

import "fmt"

// centerOffset is the offset of a crop of length crop inside a side of
// length size. When the side is shorter than the crop, both HF and
// torchvision pad with zeros and centre the image at (crop−size)//2.
func centerOffset(size, crop int, r CropRounding) int {
	if size < crop {
		return -((crop - size) / 2)
	}
	excess := size - crop
	if r == CropRoundHalfEven && excess%2 == 1 {
		// round(excess/2) with ties to even: k+0.5 goes to the even of k, k+1.
		k := excess / 2
		if k%2 == 1 {
			return k + 1
		}
		return k
	}
	return excess / 2
}

// CenterCrop cuts a width × height window from the centre of img. The
// offset of an odd excess depends on r (CropFloor as HuggingFace,
// CropRoundHalfEven as torchvision); an image smaller than the window is
// padded with black, centred as both libraries do.
func CenterCrop(img *RGB, width, height int, r CropRounding) (*RGB, error) {
	if err := img.valid(); err != nil {
		return nil, err
	}
	if width <= 0 || height <= 0 {
		return nil, fmt.Errorf("center crop to %dx%d: size must be positive", width, height)
	}
	left := centerOffset(img.Width, width, r)
	top := centerOffset(img.Height, height, r)
	return cropRect(img, left, top, width, height)
}
