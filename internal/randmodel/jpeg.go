package randmodel

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand"
	"os"
)

// WriteGradientJPEG writes a w×h JPEG (quality 90) of a colour gradient
// with a random offset per channel: photo-like enough for the image
// pipelines, different per image.
func WriteGradientJPEG(path string, w, h int, rng *rand.Rand) error {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r0, g0, b0 := rng.Intn(256), rng.Intn(256), rng.Intn(256)
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(r0 + x), uint8(g0 + y), uint8(b0 + x*y), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
