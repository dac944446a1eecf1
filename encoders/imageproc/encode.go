package imageproc

import (
	"image"
	"image/png"
	"io"
)

// writePNG encodes m as an 8-bit RGB PNG (used to save prepared images for
// inspection and by tests).
func writePNG(w io.Writer, m *RGB) error {
	if err := m.valid(); err != nil {
		return err
	}
	out := image.NewNRGBA(image.Rect(0, 0, m.Width, m.Height))
	for i := 0; i < m.Width*m.Height; i++ {
		copy(out.Pix[4*i:4*i+3], m.Pix[3*i:3*i+3])
		out.Pix[4*i+3] = 0xff
	}
	return png.Encode(w, out)
}
