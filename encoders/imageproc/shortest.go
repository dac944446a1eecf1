package imageproc

import "fmt"

// ShortestEdgeSize returns the size HuggingFace's get_resize_output_image_size
// (default_to_square=False) and torchvision's Resize(int) give an image of
// width × height whose shorter side is scaled to size: the long side is
// int(size·long/short), truncated. Matches the reference implementation,
// which truncates rather than rounds (a 157×321 image becomes 224×457).
// An image whose short side already equals size keeps its size.
func ShortestEdgeSize(width, height, size int) (newWidth, newHeight int) {
	short, long := width, height
	if width > height {
		short, long = height, width
	}
	if short == size || short <= 0 {
		return width, height
	}
	newLong := int(float64(size) * float64(long) / float64(short))
	if width <= height {
		return size, newLong
	}
	return newLong, size
}

// ResizeShortestEdge scales img so its shorter side is size (see
// ShortestEdgeSize) with filter f.
func ResizeShortestEdge(img *RGB, size int, f Filter) (*RGB, error) {
	if err := img.valid(); err != nil {
		return nil, err
	}
	if size <= 0 {
		return nil, fmt.Errorf("shortest-edge size %d must be positive", size)
	}
	w, h := ShortestEdgeSize(img.Width, img.Height, size)
	return Resize(img, w, h, f)
}
