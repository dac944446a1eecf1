package imageproc_test

import (
	"context"
	"fmt"
	"log"
	"sync"

	"github.com/storyeval/storyeval/encoders/imageproc"
)

// Preprocess a region crop for CLIP: shortest side to 224 with bicubic
// resampling, a 224×224 center crop, then CLIP's normalisation.
func Example() {
	img, err := imageproc.DecodeFile("../../testdata/encoders/fixtures/images/img1.png", imageproc.DecodeOptions{})
	if err != nil {
		log.Fatal(err)
	}
	region, err := imageproc.Crop(img, imageproc.Box{Left: 10.5, Top: 20.25, Right: 150, Bottom: 300})
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := imageproc.DefaultConfig(imageproc.CLIP)
	if err != nil {
		log.Fatal(err)
	}
	p, err := imageproc.NewProcessor(cfg)
	if err != nil {
		log.Fatal(err)
	}
	pv, err := p.Preprocess(region, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("image %dx%d, region %dx%d, pixel_values %dx%dx%d\n",
		img.Width, img.Height, region.Width, region.Height, pv.Channels, pv.Height, pv.Width)
	// Output:
	// image 157x321, region 140x280, pixel_values 3x224x224
}

// ShortestEdgeSize truncates the long side, as transformers and torchvision do.
func ExampleShortestEdgeSize() {
	w, h := imageproc.ShortestEdgeSize(157, 321, 224)
	fmt.Println(w, h)
	// Output: 224 457
}

// Python's round() sends halves to the even integer, so PIL's crop of a
// float box does too.
func ExampleBox_Rect() {
	x0, y0, x1, y1, _ := imageproc.Box{Left: 4.5, Top: 5.5, Right: 41.25, Bottom: 96}.Rect()
	fmt.Println(x0, y0, x1, y1)
	// Output: 4 6 41 96
}

// Resize reproduces Pillow's Image.resize, fixed-point rounding included:
// halving the row 0, 40, 80, 120 with the bilinear (triangle) filter, whose
// support doubles when downscaling by 2.
func ExampleResize() {
	row := &imageproc.RGB{Width: 4, Height: 1, Pix: []uint8{0, 0, 0, 40, 40, 40, 80, 80, 80, 120, 120, 120}}
	half, err := imageproc.Resize(row, 2, 1, imageproc.Bilinear)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(half.Pix)
	// Output: [29 29 29 91 91 91]
}

// A preprocessor_config.json is read with the processor's HuggingFace
// defaults for absent keys; an integer size means a square for ViT.
func ExampleParseProcessorConfig() {
	cfg, err := imageproc.ParseProcessorConfig([]byte(`{"feature_extractor_type": "ViTFeatureExtractor", "size": 32, "resample": 2}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cfg.Kind, cfg.Size.Height, cfg.Size.Width, cfg.Resample, cfg.ImageMean)
	// Output: ViTImageProcessor 32 32 BILINEAR [0.5 0.5 0.5]
}

// Preprocess image files from several goroutines within one decode budget:
// each image holds its share (file bytes + 4 bytes a pixel for a PNG) only while it
// is decoded and preprocessed, so huge images take turns instead of filling
// memory together.
func ExampleProcessor_PreprocessFile() {
	cfg, err := imageproc.OpenAICLIPConfig(224)
	if err != nil {
		log.Fatal(err)
	}
	p, err := imageproc.NewProcessor(cfg)
	if err != nil {
		log.Fatal(err)
	}
	opts := imageproc.DecodeOptions{Budget: imageproc.NewDecodeBudget(64 << 20)}
	paths := []string{"../../testdata/encoders/fixtures/images/img1.png", "../../testdata/encoders/fixtures/images/img1.png"}
	out := make([]imageproc.PixelValues, len(paths))
	var wg sync.WaitGroup
	for i, path := range paths {
		wg.Go(func() {
			pv, err := p.PreprocessFile(context.Background(), path, opts)
			if err != nil {
				log.Fatal(err)
			}
			out[i] = pv
		})
	}
	wg.Wait()
	fmt.Printf("%d images, pixel_values %dx%dx%d, budget %d MiB\n", len(out), out[0].Channels, out[0].Height, out[0].Width, opts.Budget.Size()>>20)
	// Output:
	// 2 images, pixel_values 3x224x224, budget 64 MiB
}
