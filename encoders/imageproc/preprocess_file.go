package imageproc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
)

// PreprocessFile decodes the image file at path (as DecodeFile) and
// preprocesses it (as Preprocess), holding the image's cost of
// opts.Budget from its header until its pixel values are made, so that
// goroutines sharing the budget never hold more decoded images at once
// than it allows. Errors name the file.
func (p *Processor) PreprocessFile(ctx context.Context, path string, opts DecodeOptions) (PixelValues, error) {
	return withImageFile(ctx, path, opts, p.resizedBytes, func(data []byte) (PixelValues, error) {
		m, _, err := decodeData(data, opts, false)
		if err != nil {
			return PixelValues{}, err
		}
		return p.Preprocess(m, nil)
	})
}

// PreprocessSourceFile is PreprocessFile with DecodeSource and
// PreprocessSource: the resize sees the file's mode (OpenAI CLIP's
// preprocess on Image.open, as CLIPScore runs it).
func (p *Processor) PreprocessSourceFile(ctx context.Context, path string, opts DecodeOptions) (PixelValues, error) {
	return withImageFile(ctx, path, opts, p.resizedBytes, func(data []byte) (PixelValues, error) {
		src, err := sourceFromData(data, opts)
		if err != nil {
			return PixelValues{}, err
		}
		return p.PreprocessSource(src, nil)
	})
}

// PreprocessFileRegions decodes the image file at path once and
// preprocesses the crop of each box (Crop, PIL's Image.crop), within
// opts.Budget as PreprocessFile. Errors name the file and the region.
func (p *Processor) PreprocessFileRegions(ctx context.Context, path string, boxes []Box, opts DecodeOptions) ([]PixelValues, error) {
	noResize := func(int, int) int64 { return 0 }
	return withImageFile(ctx, path, opts, noResize, func(data []byte) ([]PixelValues, error) {
		m, _, err := decodeData(data, opts, false)
		if err != nil {
			return nil, err
		}
		out := make([]PixelValues, len(boxes))
		for i, b := range boxes {
			crop, err := Crop(m, b)
			if err != nil {
				return nil, fmt.Errorf("region %d: %w", i, err)
			}
			if out[i], err = p.Preprocess(crop, nil); err != nil {
				return nil, fmt.Errorf("region %d: %w", i, err)
			}
		}
		return out, nil
	})
}

// resizedBytes is the size of the RGB image Prepare resizes a width ×
// height image to: a shortest-edge resize of a long thin image can be far
// larger than the image (a 1×13000 PNG to 224×2912000).
func (p *Processor) resizedBytes(width, height int) int64 {
	c := &p.cfg
	switch {
	case !c.DoResize:
		return 0
	case c.Kind == CLIP:
		w, h := ShortestEdgeSize(width, height, c.Size.ShortestEdge)
		return 3 * int64(w) * int64(h)
	}
	return 3 * int64(c.Size.Width) * int64(c.Size.Height)
}

// withImageFile reads the header of the image file at path, reserves the
// image's cost of opts.Budget (plus extra(width, height), what use
// allocates beyond the decoded image), reads the file and calls use with
// its bytes, and gives the reservation back when use returns. The encoded
// bytes are read only after the reservation, so waiting holds nothing but
// the header.
func withImageFile[T any](ctx context.Context, path string, opts DecodeOptions, extra func(width, height int) int64, use func(data []byte) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return zero, err
	}
	if _, maxBytes := opts.limits(); st.Size() > maxBytes {
		return zero, fmt.Errorf("%s: %d bytes is larger than the limit of %d bytes for an encoded image", path, st.Size(), maxBytes)
	}
	format, cfg, err := readHeader(bufio.NewReader(f), st.Size(), opts)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	release, err := opts.Budget.reserve(ctx, imageCost(format, st.Size(), cfg.Width, cfg.Height)+extra(cfg.Width, cfg.Height))
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	defer release()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return zero, err
	}
	data, err := readEncoded(f, opts)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	v, err := use(data)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}
