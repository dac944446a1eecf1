package imageproc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"os"
)

// DefaultMaxPixels is the largest image Decode accepts unless DecodeOptions
// says otherwise: 2 × 89,478,485 pixels, the size above which Pillow raises
// DecompressionBombError.
const DefaultMaxPixels int64 = 2 * 89478485

// DefaultMaxBytes is the largest encoded file Decode reads unless
// DecodeOptions says otherwise.
const DefaultMaxBytes int64 = 256 << 20

// DefaultMaxPixelsPerByte bounds the pixels an image may claim per byte of
// its encoded file unless DecodeOptions says otherwise, so that what a file
// makes Decode allocate grows with the file, not only up to MaxPixels: a
// 100-byte header claiming 12000×12000 pixels is refused before 430 MB are
// allocated for them. Valid files stay far below it: deflate expands at most
// about 1032:1, which is under 8300 pixels per byte even for 1-bit PNGs,
// and every JPEG block costs at least one bit (under 520 pixels per byte).
const DefaultMaxPixelsPerByte int64 = 1 << 14

// DecodeOptions bounds what Decode accepts and selects the JPEG colour path.
// The zero value is ready to use.
type DecodeOptions struct {
	// MaxPixels is the largest width × height accepted; the header is checked
	// before any pixel memory is allocated. Zero means DefaultMaxPixels.
	MaxPixels int64
	// MaxBytes is the largest encoded input read. Zero means DefaultMaxBytes.
	MaxBytes int64
	// MaxPixelsPerByte bounds width × height by the size of the encoded
	// input. Zero means DefaultMaxPixelsPerByte.
	MaxPixelsPerByte int64
	// JPEG selects the JPEG decoder; the zero value is JPEGLibjpeg.
	JPEG JPEGMethod
	// Budget, when set, bounds the memory of the images decoded at once by
	// the Processor's PreprocessFile methods that share it (see
	// DecodeBudget). Nil means no bound beyond MaxPixels per image, except
	// where a caller documents a budget of its own per call.
	Budget *DecodeBudget
}

// JPEGMethod selects how JPEG files are decoded.
type JPEGMethod int

const (
	// JPEGLibjpeg decodes baseline and progressive Huffman JPEGs (8-bit, 1
	// or 3 components) with this package's port of libjpeg-turbo's output
	// path — islow IDCT, fancy upsampling, integer colour tables — giving
	// Pillow's pixels. Matches the reference implementation, which
	// interpolates chroma ("fancy" upsampling) rather than repeating it. Other JPEG variants (arithmetic coding, CMYK, …) fall
	// back to JPEGStdlibFancy.
	JPEGLibjpeg JPEGMethod = iota
	// JPEGStdlibFancy uses the standard library's decoder (its own IDCT) and
	// applies libjpeg's fancy upsampling and colour tables to its planes:
	// within a few levels of Pillow.
	JPEGStdlibFancy
	// JPEGStdlib uses the standard library's decoder and colour conversion
	// unchanged (nearest-neighbour chroma): for comparison only.
	JPEGStdlib
)

func (o DecodeOptions) limits() (maxPixels, maxBytes int64) {
	maxPixels, maxBytes = DefaultMaxPixels, DefaultMaxBytes
	if o.MaxPixels > 0 {
		maxPixels = o.MaxPixels
	}
	if o.MaxBytes > 0 {
		maxBytes = o.MaxBytes
	}
	return maxPixels, maxBytes
}

func (o DecodeOptions) pixelsPerByte() int64 {
	if o.MaxPixelsPerByte > 0 {
		return o.MaxPixelsPerByte
	}
	return DefaultMaxPixelsPerByte
}

// Format names an encoded image format Decode understands.
type Format string

// The formats Decode recognises by their signature bytes.
const (
	FormatPNG  Format = "png"
	FormatJPEG Format = "jpeg"
)

// sniff identifies the format from the first bytes of the file.
func sniff(b []byte) (Format, bool) {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return FormatPNG, true
	case bytes.HasPrefix(b, []byte{0xff, 0xd8}):
		return FormatJPEG, true
	}
	return "", false
}

// Decode reads a PNG or JPEG image and converts it to RGB as Pillow's
// Image.open(f).convert("RGB") does (see ToRGB for the mode rules). The image
// header is checked against the pixel limit before the pixels are decoded, so
// a file claiming 100000×100000 pixels is an error, not an allocation.
func Decode(r io.Reader, opts DecodeOptions) (*RGB, error) {
	data, err := readEncoded(r, opts)
	if err != nil {
		return nil, err
	}
	m, _, err := decodeData(data, opts, false)
	return m, err
}

// readEncoded reads an encoded image, refusing more than the options'
// MaxBytes.
func readEncoded(r io.Reader, opts DecodeOptions) ([]byte, error) {
	_, maxBytes := opts.limits()
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading image: %w", err)
	}
	if int64(len(data)) > maxBytes {
		return nil, fmt.Errorf("encoded image larger than the limit of %d bytes", maxBytes)
	}
	return data, nil
}

// DecodeFile is Decode on the named file; errors name the file.
func DecodeFile(path string, opts DecodeOptions) (*RGB, error) {
	return decodeFile(path, opts, Decode)
}

// decodeFile opens path and decodes it with decode; errors name the file.
func decodeFile[T any](path string, opts DecodeOptions, decode func(io.Reader, DecodeOptions) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	m, err := decode(f, opts)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// decodeData decodes to RGB, and to straight 8-bit alpha when wantAlpha is
// set and the file is a PNG with an alpha channel (colour types 4 and 6).
// PNGs are decoded row by row straight into RGB (decodePNGRows), JPEGs by
// the libjpeg port or the standard library.
func decodeData(data []byte, opts DecodeOptions, wantAlpha bool) (*RGB, []uint8, error) {
	format, cfg, err := decodeHeader(data, opts)
	if err != nil {
		return nil, nil, err
	}
	if format == FormatPNG {
		m, alpha, err := decodePNGRows(data, wantAlpha)
		if err != nil {
			return nil, nil, fmt.Errorf("decoding %dx%d %s: %w", cfg.Width, cfg.Height, format, err)
		}
		return m, alpha, nil
	}
	maxPixels, _ := opts.limits()
	if opts.JPEG == JPEGLibjpeg {
		m, err := decodeJPEGLibjpeg(data, maxPixels)
		if !errors.Is(err, errJPEGUnsupported) {
			return m, nil, err
		}
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf("decoding %s: %w", format, err)
	}
	if ycc, ok := img.(*image.YCbCr); ok && opts.JPEG == JPEGStdlib {
		return stdlibToRGB(ycc), nil, nil
	}
	m, err := ToRGB(img)
	return m, nil, err
}

// decodeHeader identifies the format and checks the header's size against
// the options' limits before any pixel memory is allocated.
func decodeHeader(data []byte, opts DecodeOptions) (Format, image.Config, error) {
	return readHeader(bufio.NewReader(bytes.NewReader(data)), int64(len(data)), opts)
}

// readHeader is decodeHeader on a reader at the start of an encoded image of
// size bytes; it reads no further than the header.
func readHeader(r *bufio.Reader, size int64, opts DecodeOptions) (Format, image.Config, error) {
	maxPixels, _ := opts.limits()
	sig, _ := r.Peek(8)
	format, ok := sniff(sig)
	if !ok {
		return "", image.Config{}, fmt.Errorf("unrecognised image format (not PNG or JPEG)")
	}
	var cfg image.Config
	var err error
	if format == FormatPNG {
		cfg, err = png.DecodeConfig(r)
	} else {
		cfg, err = jpeg.DecodeConfig(r)
	}
	if err != nil {
		return "", image.Config{}, fmt.Errorf("%s header: %w", format, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return "", image.Config{}, fmt.Errorf("%s image has empty size %dx%d", format, cfg.Width, cfg.Height)
	}
	if err := checkSize(cfg.Width, cfg.Height, maxPixels); err != nil {
		return "", image.Config{}, fmt.Errorf("%s: %w", format, err)
	}
	if ratio := opts.pixelsPerByte(); int64(cfg.Width)*int64(cfg.Height) > ratio*size {
		return "", image.Config{}, fmt.Errorf("%s header claims %dx%d pixels from %d bytes, more than %d pixels per byte (a decompression bomb?)",
			format, cfg.Width, cfg.Height, size, ratio)
	}
	return format, cfg, nil
}
