package imageproc

import (
	"errors"
	"fmt"
)

// ErrTooManyPixels is wrapped by the error for an image (or a resize or
// crop) of more pixels than the limit in force (DecodeOptions.MaxPixels,
// DefaultMaxPixels).
var ErrTooManyPixels = errors.New("image exceeds the pixel limit")

// pixelLimitError is an image above the pixel limit, naming its size.
type pixelLimitError struct {
	width, height int
	limit         int64
}

func (e *pixelLimitError) Error() string {
	return fmt.Sprintf("image of %dx%d pixels exceeds the limit of %d pixels", e.width, e.height, e.limit)
}

func (e *pixelLimitError) Is(target error) bool { return target == ErrTooManyPixels }

// RGB is an 8-bit RGB image stored row-major, height × width × 3 — the layout of
// numpy.asarray(pil_image.convert("RGB")).
type RGB struct {
	Width, Height int // size in pixels
	// Pix holds Height*Width*3 bytes: R, G, B of pixel (x, y) start at
	// Pix[(y*Width+x)*3].
	Pix []uint8
}

// NewRGB returns a black width × height image. It returns an error for a
// negative size or one above DefaultMaxPixels.
func NewRGB(width, height int) (*RGB, error) {
	if err := checkSize(width, height, DefaultMaxPixels); err != nil {
		return nil, err
	}
	return &RGB{Width: width, Height: height, Pix: make([]uint8, width*height*3)}, nil
}

// checkSize rejects negative sizes and sizes above maxPixels without
// overflowing.
func checkSize(width, height int, maxPixels int64) error {
	if width < 0 || height < 0 {
		return fmt.Errorf("invalid image size %dx%d", width, height)
	}
	if width > 0 && int64(height) > maxPixels/int64(width) {
		return &pixelLimitError{width, height, maxPixels}
	}
	return nil
}

// valid reports whether the image's fields are consistent.
func (m *RGB) valid() error {
	if m == nil {
		return fmt.Errorf("nil image")
	}
	if m.Width < 0 || m.Height < 0 || len(m.Pix) != m.Width*m.Height*3 {
		return fmt.Errorf("inconsistent image: %dx%d with %d bytes of pixels", m.Width, m.Height, len(m.Pix))
	}
	return nil
}
