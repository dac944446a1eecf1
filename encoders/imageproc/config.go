package imageproc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Size is a target size from preprocessor_config.json: either Height and
// Width, or ShortestEdge (the other fields zero).
type Size struct {
	Height, Width int // an exact target size
	ShortestEdge  int // the target of the shorter side, the other scaled to keep the aspect ratio
}

// ProcessorKind says which HuggingFace image processor a config describes;
// it decides how an integer "size" is read and which defaults apply.
type ProcessorKind int

// The processors this package reproduces.
const (
	// ViT is ViTImageProcessor / ViTFeatureExtractor: resize to an exact
	// size, no crop.
	ViT ProcessorKind = iota + 1
	// CLIP is CLIPImageProcessor / CLIPFeatureExtractor: resize the shortest
	// side, center crop.
	CLIP
)

// String names the processor kind.
func (k ProcessorKind) String() string {
	switch k {
	case ViT:
		return "ViTImageProcessor"
	case CLIP:
		return "CLIPImageProcessor"
	}
	return fmt.Sprintf("ProcessorKind(%d)", int(k))
}

// CropRounding says how CenterCrop places a crop whose excess over the
// target is odd.
type CropRounding int

const (
	// CropFloor takes the top-left offset (size−crop)//2: HuggingFace's
	// image_transforms.center_crop, the default for the HF processors.
	CropFloor CropRounding = iota
	// CropRoundHalfEven takes int(round((size−crop)/2)) with Python's
	// round-half-to-even: torchvision's CenterCrop, used by OpenAI's clip
	// preprocess (CLIPScore, GROOViST with the clip package).
	CropRoundHalfEven
)

// ProcessorConfig is what a preprocessor_config.json says, with the
// HuggingFace 4.29 defaults of the processor filled in for absent keys.
type ProcessorConfig struct {
	Kind          ProcessorKind // which processor's rules and defaults apply
	DoResize      bool          // do_resize
	Size          Size          // size: Height×Width for ViT, ShortestEdge for CLIP
	Resample      Filter        // resample (Pillow filter code)
	DoCenterCrop  bool          // do_center_crop (CLIP)
	CropSize      Size          // crop_size: Height×Width
	DoRescale     bool          // do_rescale
	RescaleFactor float64       // rescale_factor, applied in float64 then rounded to float32
	DoNormalize   bool          // do_normalize
	ImageMean     [3]float64    // image_mean per channel, used as float32
	ImageStd      [3]float64    // image_std per channel, used as float32
	// DoConvertRGB is recorded for completeness; Decode always yields RGB,
	// which is what callers that open images with convert("RGB") feed.
	DoConvertRGB bool
	// CropRounding is not part of the HF file: CropFloor (HF) unless set.
	CropRounding CropRounding
}

// OpenAI CLIP's normalisation constants (transformers OPENAI_CLIP_MEAN/STD).
var (
	openAICLIPMean = [3]float64{0.48145466, 0.4578275, 0.40821073}
	openAICLIPStd  = [3]float64{0.26862954, 0.26130258, 0.27577711}
)

// DefaultConfig returns the HuggingFace 4.29 defaults of a processor, the
// values a preprocessor_config.json without any keys would give.
func DefaultConfig(kind ProcessorKind) (ProcessorConfig, error) {
	switch kind {
	case ViT:
		return ProcessorConfig{
			Kind: ViT, DoResize: true, Size: Size{Height: 224, Width: 224}, Resample: Bilinear,
			DoRescale: true, RescaleFactor: 1.0 / 255, DoNormalize: true,
			ImageMean: [3]float64{0.5, 0.5, 0.5}, ImageStd: [3]float64{0.5, 0.5, 0.5},
		}, nil
	case CLIP:
		return ProcessorConfig{
			Kind: CLIP, DoResize: true, Size: Size{ShortestEdge: 224}, Resample: Bicubic,
			DoCenterCrop: true, CropSize: Size{Height: 224, Width: 224},
			DoRescale: true, RescaleFactor: 1.0 / 255, DoNormalize: true,
			ImageMean: openAICLIPMean, ImageStd: openAICLIPStd, DoConvertRGB: true,
		}, nil
	}
	return ProcessorConfig{}, fmt.Errorf("unknown processor kind %v", kind)
}

// rawConfig mirrors the JSON keys; pointers and raw messages tell absent
// keys from zero values and ints from dicts.
type rawConfig struct {
	ImageProcessorType   string          `json:"image_processor_type"`
	FeatureExtractorType string          `json:"feature_extractor_type"`
	DoResize             *bool           `json:"do_resize"`
	Size                 json.RawMessage `json:"size"`
	Resample             *int            `json:"resample"`
	DoCenterCrop         *bool           `json:"do_center_crop"`
	CropSize             json.RawMessage `json:"crop_size"`
	DoRescale            *bool           `json:"do_rescale"`
	RescaleFactor        *float64        `json:"rescale_factor"`
	DoNormalize          *bool           `json:"do_normalize"`
	ImageMean            json.RawMessage `json:"image_mean"`
	ImageStd             json.RawMessage `json:"image_std"`
	DoConvertRGB         *bool           `json:"do_convert_rgb"`
}

// maxConfigBytes bounds a preprocessor_config.json.
const maxConfigBytes = 1 << 20

// LoadProcessorConfig reads a preprocessor_config.json file.
func LoadProcessorConfig(path string) (ProcessorConfig, error) {
	st, err := os.Stat(path)
	if err != nil {
		return ProcessorConfig{}, err
	}
	if st.Size() > maxConfigBytes {
		return ProcessorConfig{}, fmt.Errorf("%s: %d bytes is too large for a preprocessor config", path, st.Size())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return ProcessorConfig{}, err
	}
	cfg, err := ParseProcessorConfig(data)
	if err != nil {
		return ProcessorConfig{}, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// ParseProcessorConfig reads the JSON of a preprocessor_config.json. The
// processor is taken from image_processor_type or feature_extractor_type
// (ViT… or CLIP…); keys that are absent keep that processor's HuggingFace
// defaults. An integer "size" means height = width = size for ViT and the
// shortest edge for CLIP, as HF's get_size_dict(default_to_square=…) reads it.
func ParseProcessorConfig(data []byte) (ProcessorConfig, error) {
	if len(data) > maxConfigBytes {
		return ProcessorConfig{}, fmt.Errorf("preprocessor config of %d bytes is too large", len(data))
	}
	var raw rawConfig
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return ProcessorConfig{}, fmt.Errorf("preprocessor config: %w", err)
	}
	typ := raw.ImageProcessorType
	if typ == "" {
		typ = raw.FeatureExtractorType
	}
	var kind ProcessorKind
	switch {
	case strings.HasPrefix(typ, "ViT"):
		kind = ViT
	case strings.HasPrefix(typ, "CLIP"):
		kind = CLIP
	default:
		return ProcessorConfig{}, fmt.Errorf("preprocessor config: unsupported processor type %q (want ViT… or CLIP…)", typ)
	}
	cfg, err := DefaultConfig(kind)
	if err != nil {
		return ProcessorConfig{}, err
	}
	setBool := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	setBool(&cfg.DoResize, raw.DoResize)
	setBool(&cfg.DoCenterCrop, raw.DoCenterCrop)
	setBool(&cfg.DoRescale, raw.DoRescale)
	setBool(&cfg.DoNormalize, raw.DoNormalize)
	setBool(&cfg.DoConvertRGB, raw.DoConvertRGB)
	if raw.Resample != nil {
		cfg.Resample = Filter(*raw.Resample)
	}
	if raw.RescaleFactor != nil {
		cfg.RescaleFactor = *raw.RescaleFactor
	}
	if len(raw.Size) > 0 {
		if cfg.Size, err = parseSize(raw.Size, kind == ViT); err != nil {
			return ProcessorConfig{}, fmt.Errorf("preprocessor config size: %w", err)
		}
	}
	if len(raw.CropSize) > 0 {
		if cfg.CropSize, err = parseSize(raw.CropSize, true); err != nil {
			return ProcessorConfig{}, fmt.Errorf("preprocessor config crop_size: %w", err)
		}
	}
	if len(raw.ImageMean) > 0 {
		if cfg.ImageMean, err = parseTriple(raw.ImageMean); err != nil {
			return ProcessorConfig{}, fmt.Errorf("preprocessor config image_mean: %w", err)
		}
	}
	if len(raw.ImageStd) > 0 {
		if cfg.ImageStd, err = parseTriple(raw.ImageStd); err != nil {
			return ProcessorConfig{}, fmt.Errorf("preprocessor config image_std: %w", err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return ProcessorConfig{}, err
	}
	return cfg, nil
}

// parseSize reads an int or a {"height","width"} / {"shortest_edge"} dict.
func parseSize(msg json.RawMessage, intIsSquare bool) (Size, error) {
	var n int
	if err := json.Unmarshal(msg, &n); err == nil {
		if intIsSquare {
			return Size{Height: n, Width: n}, nil
		}
		return Size{ShortestEdge: n}, nil
	}
	var d map[string]int
	if err := json.Unmarshal(msg, &d); err != nil {
		return Size{}, fmt.Errorf("want an integer or a dict of integers, got %s", msg)
	}
	var s Size
	for k, v := range d {
		switch k {
		case "height":
			s.Height = v
		case "width":
			s.Width = v
		case "shortest_edge":
			s.ShortestEdge = v
		default:
			return Size{}, fmt.Errorf("unsupported key %q in %s", k, msg)
		}
	}
	return s, nil
}

// parseTriple reads a per-channel list of 3 numbers or a single number
// (applied to every channel, as HF broadcasts a scalar).
func parseTriple(msg json.RawMessage) ([3]float64, error) {
	var f float64
	if err := json.Unmarshal(msg, &f); err == nil {
		return [3]float64{f, f, f}, nil
	}
	var l []float64
	if err := json.Unmarshal(msg, &l); err != nil || len(l) != 3 {
		return [3]float64{}, fmt.Errorf("want a number or a list of 3 numbers, got %s", msg)
	}
	return [3]float64{l[0], l[1], l[2]}, nil
}

// MaxSide bounds the sizes a ProcessorConfig may ask for (size, shortest
// edge, crop size), so that a config cannot make preprocessing allocate
// gigabytes for a small image: 4096 pixels a side gives at most 201 MB of
// float32 pixel values, and vision models take 224 to about 1024 pixels.
// A config asking for more is rejected, naming the value.
const MaxSide = 4096

// Validate checks that the configuration can be applied: sizes in range
// and of the form the processor's resize accepts, a known filter, non-zero
// standard deviations.
func (c *ProcessorConfig) Validate() error {
	if c.Kind != ViT && c.Kind != CLIP {
		return fmt.Errorf("unknown processor kind %v", c.Kind)
	}
	if c.DoResize {
		s := c.Size
		switch c.Kind {
		case ViT:
			if s.Height <= 0 || s.Width <= 0 || s.Height > MaxSide || s.Width > MaxSide || s.ShortestEdge != 0 {
				return fmt.Errorf("ViT size must give height and width in 1..%d (MaxSide), got height %d, width %d, shortest_edge %d", MaxSide, s.Height, s.Width, s.ShortestEdge)
			}
		case CLIP:
			if s.ShortestEdge <= 0 || s.ShortestEdge > MaxSide {
				return fmt.Errorf("CLIP size must give shortest_edge in 1..%d (MaxSide), got shortest_edge %d", MaxSide, s.ShortestEdge)
			}
		}
		if _, _, err := c.Resample.kernel(); err != nil && c.Resample != Nearest {
			return fmt.Errorf("unsupported resample code %d", int(c.Resample))
		}
	}
	if c.DoCenterCrop {
		s := c.CropSize
		if s.Height <= 0 || s.Width <= 0 || s.Height > MaxSide || s.Width > MaxSide {
			return fmt.Errorf("crop_size must give height and width in 1..%d (MaxSide), got height %d, width %d", MaxSide, s.Height, s.Width)
		}
	}
	if c.CropRounding != CropFloor && c.CropRounding != CropRoundHalfEven {
		return fmt.Errorf("unknown crop rounding %d", int(c.CropRounding))
	}
	if c.DoNormalize {
		for i, s := range c.ImageStd {
			if float32(s) == 0 {
				return fmt.Errorf("image_std[%d] is zero", i)
			}
		}
	}
	return nil
}

// OpenAICLIPConfig is OpenAI's clip.load preprocess (torchvision Resize(n,
// BICUBIC) on the short side, CenterCrop(n), ToTensor, Normalize) as
// GROOViST and CLIPScore run it: the same arithmetic as CLIPImageProcessor
// except the center-crop offset, which torchvision rounds half to even
// (CropRoundHalfEven). ToTensor's float32 division by 255 equals HF's
// float64 rescale rounded to float32 for every byte value.
func OpenAICLIPConfig(n int) (ProcessorConfig, error) {
	cfg, err := DefaultConfig(CLIP)
	if err != nil {
		return ProcessorConfig{}, err
	}
	cfg.Size = Size{ShortestEdge: n}
	cfg.CropSize = Size{Height: n, Width: n}
	cfg.CropRounding = CropRoundHalfEven
	return cfg, cfg.Validate()
}
