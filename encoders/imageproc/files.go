package imageproc

import (
	"fmt"
	"io"
	"math"

	"github.com/storyeval/storyeval/internal/jsonfloat"
	"github.com/storyeval/storyeval/internal/npy"
)

// FilesOptions configure Processor.PreprocessFiles. The zero value decodes
// each whole file, converted to RGB, within the default limits.
type FilesOptions struct {
	// Decode bounds decoding.
	Decode DecodeOptions
	// Box, when set, crops every image to this region first (Crop, PIL's
	// Image.crop of the RGB image).
	Box *Box
	// ResizeFirst resizes in the file's own mode, then converts to RGB
	// (PreprocessSource: CLIPScore's preprocess on Image.open without
	// convert). Ignored with Box, whose crop is of the RGB image.
	ResizeFirst bool
	// KeepValues keeps every image's pixel values in Batch.Values.
	KeepValues bool
}

// Batch is the result of PreprocessFiles: a summary of each image and,
// with FilesOptions.KeepValues, the pixel values of them all. Its JSON is
// what `storyeval imageproc` prints.
type Batch struct {
	Images []FileSummary `json:"images"`
	// Processor is the ProcessorKind's name, e.g. CLIPImageProcessor.
	Processor string `json:"processor"`
	// Values are the images' pixel values one after another, an
	// [N, Channels, Height, Width] array.
	Values []float32 `json:"-"`
}

// FileSummary describes one preprocessed image file: its decoded size, the
// shape of its pixel values, their mean, extremes and first five values.
type FileSummary struct {
	File   string            `json:"file"`
	Width  int               `json:"width"`
	Height int               `json:"height"`
	Shape  [3]int            `json:"shape"`
	Mean   jsonfloat.Float   `json:"mean"`
	Min    jsonfloat.Float   `json:"min"`
	Max    jsonfloat.Float   `json:"max"`
	First  []jsonfloat.Float `json:"first"`
}

// PreprocessFiles decodes and preprocesses each file of paths in turn, as
// o says. All images must give the same shape (a batch); errors name the
// file.
func (p *Processor) PreprocessFiles(paths []string, o FilesOptions) (*Batch, error) {
	b := &Batch{Processor: p.cfg.Kind.String()}
	for _, path := range paths {
		src, err := DecodeSourceFile(path, o.Decode)
		if err != nil {
			return nil, err
		}
		img := src.RGB
		var pv PixelValues
		switch {
		case o.Box != nil:
			if img, err = Crop(img, *o.Box); err == nil {
				pv, err = p.Preprocess(img, nil)
			}
		case o.ResizeFirst:
			pv, err = p.PreprocessSource(src, nil)
		default:
			pv, err = p.Preprocess(img, nil)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		s := summarize(path, src.RGB.Width, src.RGB.Height, pv)
		if len(b.Images) > 0 && s.Shape != b.Images[0].Shape {
			return nil, fmt.Errorf("%s: pixel_values shape %v differs from the first image's %v", path, s.Shape, b.Images[0].Shape)
		}
		b.Images = append(b.Images, s)
		if o.KeepValues {
			b.Values = append(b.Values, pv.Data...)
		}
	}
	return b, nil
}

// summarize is the FileSummary of an image file of w × h pixels.
func summarize(path string, w, h int, pv PixelValues) FileSummary {
	s := FileSummary{File: path, Width: w, Height: h, Shape: [3]int{pv.Channels, pv.Height, pv.Width}}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range pv.Data {
		x := float64(v)
		lo, hi, sum = math.Min(lo, x), math.Max(hi, x), sum+x
	}
	s.Mean, s.Min, s.Max = jsonfloat.Float(sum/float64(len(pv.Data))), jsonfloat.Float(lo), jsonfloat.Float(hi)
	for _, v := range pv.Data[:min(5, len(pv.Data))] {
		s.First = append(s.First, jsonfloat.Float(v))
	}
	return s
}

// WriteNPY writes Values as a little-endian float32 .npy array of shape
// [N, Channels, Height, Width] (N = 0 when no image was given).
func (b *Batch) WriteNPY(w io.Writer) error {
	shape := []int{len(b.Images), 0, 0, 0}
	if len(b.Images) > 0 {
		s := b.Images[0].Shape
		shape = []int{len(b.Images), s[0], s[1], s[2]}
	}
	return npy.WriteFloat32(w, shape, b.Values)
}
