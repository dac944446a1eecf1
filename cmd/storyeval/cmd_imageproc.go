package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/atomicfile"
	"github.com/storyeval/storyeval/internal/npy"
)

// imageprocItem is the JSON summary of one preprocessed image.
type imageprocItem struct {
	File   string  `json:"file"`
	Width  int     `json:"width"`
	Height int     `json:"height"`
	Shape  [3]int  `json:"shape"`
	Mean   Float   `json:"mean"`
	Min    Float   `json:"min"`
	Max    Float   `json:"max"`
	First  []Float `json:"first"`
}

func runImageproc(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("imageproc", stderr)
	config := fs.String("config", "", "preprocessor_config.json of the model (overrides -processor)")
	processor := fs.String("processor", "vit", "processor defaults when no -config is given: vit, clip (HF CLIPImageProcessor) or openai-clip (clip.load preprocess, half-even crop)")
	size := fs.Int("size", 224, "image size for -processor openai-clip")
	resizeFirst := fs.Bool("resize-first", false, "resize and crop before converting to RGB, as CLIPScore (Image.open without convert): RGBA premultiplied, palette images NEAREST")
	box := fs.String("box", "", `crop every image to this region first, "left,top,right,bottom" (floats, rounded as PIL's crop)`)
	rounding := fs.String("crop-rounding", "floor", "center-crop offset for odd excess: floor (HuggingFace) or half-even (torchvision; implied by -processor openai-clip)")
	npyOut := fs.String("npy", "", "also write all pixel_values as a float32 .npy array [N,3,H,W] to this file")
	images := addImageFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: storyeval imageproc [-config preprocessor_config.json | -processor vit|clip|openai-clip [-size N]] [-resize-first] [-box l,t,r,b] [-crop-rounding floor|half-even] [-npy OUT.npy] IMAGE...")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, -1); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("no image files given")
	}
	decode, err := images.options()
	if err != nil {
		return err
	}
	if *resizeFirst && *box != "" {
		return fmt.Errorf("-resize-first and -box cannot be combined (a region crop is taken from the RGB image)")
	}
	var cfg imageproc.ProcessorConfig
	if *config != "" {
		data, err := readFile(*config)
		if err != nil {
			return err
		}
		if cfg, err = imageproc.ParseProcessorConfig(data); err != nil {
			return fmt.Errorf("%s: %w", *config, err)
		}
	} else {
		if cfg, err = imageproc.ConfigByName(*processor, *size); err != nil {
			return fmt.Errorf("-processor: %w", err)
		}
		if strings.EqualFold(*processor, "openai-clip") && *rounding == "floor" {
			*rounding = "half-even" // clip.load's preprocess is torchvision's
		}
	}
	if cfg.CropRounding, err = imageproc.CropRoundingByName(*rounding); err != nil {
		return fmt.Errorf("-crop-rounding: %w", err)
	}
	var region *imageproc.Box
	if *box != "" {
		b, err := imageproc.ParseBox(*box)
		if err != nil {
			return fmt.Errorf("-box: %w", err)
		}
		region = &b
	}
	p, err := imageproc.NewProcessor(cfg)
	if err != nil {
		return err
	}
	var items []imageprocItem
	var all []float32
	var shape [3]int
	for _, path := range fs.Args() {
		src, err := imageproc.DecodeSourceFile(path, decode)
		if err != nil {
			return imageError(err)
		}
		img := src.RGB
		w, h := img.Width, img.Height
		if region != nil {
			if img, err = imageproc.Crop(img, *region); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
		var pv imageproc.PixelValues
		if *resizeFirst && region == nil {
			pv, err = p.PreprocessSource(src, nil)
		} else {
			pv, err = p.Preprocess(img, nil)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		s := [3]int{pv.Channels, pv.Height, pv.Width}
		if len(items) > 0 && s != shape {
			return fmt.Errorf("%s: pixel_values shape %v differs from the first image's %v", path, s, shape)
		}
		shape = s
		items = append(items, summarize(path, w, h, pv))
		if *npyOut != "" {
			all = append(all, pv.Data...)
		}
	}
	if *npyOut != "" {
		if err := writeNpyF32(*npyOut, []int{len(items), shape[0], shape[1], shape[2]}, all); err != nil {
			return err
		}
	}
	return writeJSON(stdout, map[string]any{"processor": cfg.Kind.String(), "images": items})
}

func summarize(path string, w, h int, pv imageproc.PixelValues) imageprocItem {
	it := imageprocItem{File: path, Width: w, Height: h, Shape: [3]int{pv.Channels, pv.Height, pv.Width}}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range pv.Data {
		x := float64(v)
		lo, hi, sum = math.Min(lo, x), math.Max(hi, x), sum+x
	}
	it.Mean, it.Min, it.Max = Float(sum/float64(len(pv.Data))), Float(lo), Float(hi)
	for _, v := range pv.Data[:min(5, len(pv.Data))] {
		it.First = append(it.First, Float(v))
	}
	return it
}

// writeNpyF32 writes a little-endian float32 .npy through a temporary file
// renamed into place: an interrupted run leaves the previous file, never a
// truncated array.
func writeNpyF32(path string, shape []int, data []float32) error {
	err := atomicfile.Write(path, func(w io.Writer) error { return npy.WriteFloat32(w, shape, data) })
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
