package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/atomicfile"
)

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
	setUsage(fs, "usage: storyeval imageproc [-config preprocessor_config.json | -processor vit|clip|openai-clip [-size N]] [-resize-first] [-box l,t,r,b] [-crop-rounding floor|half-even] [-npy OUT.npy] IMAGE...")
	if err := parseFlags(fs, args, -1); err != nil {
		return err
	}
	o := imageproc.FilesOptions{ResizeFirst: *resizeFirst, KeepValues: *npyOut != ""}
	var err error
	o.Decode, err = images.options()
	if err := cmp.Or(errIf(fs.NArg() == 0, "no image files given"), err,
		errIf(*resizeFirst && *box != "", "-resize-first and -box cannot be combined (a region crop is taken from the RGB image)")); err != nil {
		return err
	}
	var cfg imageproc.ProcessorConfig
	if *config != "" {
		var data []byte
		if data, err = readFile(*config); err == nil {
			if cfg, err = imageproc.ParseProcessorConfig(data); err != nil {
				err = fmt.Errorf("%s: %w", *config, err)
			}
		}
	} else if cfg, err = imageproc.ConfigByName(*processor, *size); err != nil {
		err = fmt.Errorf("-processor: %w", err)
	} else if strings.EqualFold(*processor, "openai-clip") && *rounding == "floor" {
		*rounding = "half-even" // clip.load's preprocess is torchvision's
	}
	var errR, errB error
	cfg.CropRounding, errR = imageproc.CropRoundingByName(*rounding)
	if *box != "" {
		o.Box = new(imageproc.Box)
		*o.Box, errB = imageproc.ParseBox(*box)
	}
	if err := cmp.Or(err, flagError("crop-rounding", errR), flagError("box", errB)); err != nil {
		return err
	}
	p, err := imageproc.NewProcessor(cfg)
	if err != nil {
		return err
	}
	batch, err := p.PreprocessFiles(fs.Args(), o)
	if err != nil {
		return imageError(err)
	}
	if *npyOut != "" {
		if err := atomicfile.Write(*npyOut, batch.WriteNPY); err != nil {
			return fmt.Errorf("writing %s: %w", *npyOut, err)
		}
	}
	return writeJSON(stdout, batch)
}
