package imageproc

import "fmt"

// PixelValues is one preprocessed image, channels first (C × H × W,
// row-major), the layout of a HuggingFace pixel_values row.
type PixelValues struct {
	Channels, Height, Width int       // the shape, 3 × H × W
	Data                    []float32 // Channels*Height*Width values, channel planes one after another
}

// Processor applies a ProcessorConfig. It holds no mutable state and is safe
// for concurrent use.
type Processor struct {
	cfg ProcessorConfig
}

// NewProcessor validates cfg and returns a processor for it.
func NewProcessor(cfg ProcessorConfig) (*Processor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Processor{cfg: cfg}, nil
}

// Config returns the processor's configuration.
func (p *Processor) Config() ProcessorConfig { return p.cfg }

// Prepare runs the 8-bit stages: resize (exact size for ViT, shortest edge
// for CLIP) and center crop. The result is what the reference holds as a
// uint8 array just before rescaling.
func (p *Processor) Prepare(img *RGB) (*RGB, error) {
	return p.prepare(img, func(cur *RGB, c *ProcessorConfig) (*RGB, error) {
		if c.Kind == CLIP {
			return ResizeShortestEdge(cur, c.Size.ShortestEdge, c.Resample)
		}
		return Resize(cur, c.Size.Width, c.Size.Height, c.Resample)
	})
}

// prepare checks img, resizes it with resize when the config asks for a
// resize, and center-crops it when the config asks for a crop.
func (p *Processor) prepare(img *RGB, resize func(*RGB, *ProcessorConfig) (*RGB, error)) (*RGB, error) {
	if err := img.valid(); err != nil {
		return nil, err
	}
	if img.Width == 0 || img.Height == 0 {
		return nil, fmt.Errorf("cannot preprocess an empty %dx%d image", img.Width, img.Height)
	}
	c := &p.cfg
	cur := img
	var err error
	if c.DoResize {
		if cur, err = resize(cur, c); err != nil {
			return nil, fmt.Errorf("%v resize: %w", c.Kind, err)
		}
	}
	if c.DoCenterCrop {
		if cur, err = CenterCrop(cur, c.CropSize.Width, c.CropSize.Height, c.CropRounding); err != nil {
			return nil, fmt.Errorf("%v center crop: %w", c.Kind, err)
		}
	}
	return cur, nil
}

// Preprocess turns img into pixel values: Prepare, then rescale and
// normalise in float32, channels first. dst is reused when it has room for
// 3·H·W values. The arithmetic is HuggingFace's: rescale multiplies in
// float64 and rounds to float32 (image * rescale_factor, then
// astype(float32)); normalise subtracts the float32 mean and divides by the
// float32 std in float32.
func (p *Processor) Preprocess(img *RGB, dst []float32) (PixelValues, error) {
	prep, err := p.Prepare(img)
	if err != nil {
		return PixelValues{}, err
	}
	return p.Normalize(prep, dst), nil
}

// Normalize applies rescale and normalise to an already prepared image and
// lays it out channels first (see Preprocess). Without do_rescale the bytes
// are converted to float32 unchanged.
func (p *Processor) Normalize(img *RGB, dst []float32) PixelValues {
	c := &p.cfg
	w, h := img.Width, img.Height
	n := w * h
	if cap(dst) >= 3*n {
		dst = dst[:3*n]
	} else {
		dst = make([]float32, 3*n)
	}
	// A per-channel table of the 256 possible results: the same formula
	// evaluated once per byte value.
	var table [3][256]float32
	for ch := 0; ch < 3; ch++ {
		mean, std := float32(c.ImageMean[ch]), float32(c.ImageStd[ch])
		for v := 0; v < 256; v++ {
			x := float32(v)
			if c.DoRescale {
				x = float32(float64(v) * c.RescaleFactor)
			}
			if c.DoNormalize {
				x = (x - mean) / std
			}
			table[ch][v] = x
		}
	}
	for i := 0; i < n; i++ {
		px := img.Pix[3*i : 3*i+3]
		dst[i] = table[0][px[0]]
		dst[n+i] = table[1][px[1]]
		dst[2*n+i] = table[2][px[2]]
	}
	return PixelValues{Channels: 3, Height: h, Width: w, Data: dst}
}
