package imageproc_test

import (
	"fmt"
	"log"

	"github.com/storyeval/storyeval/encoders/imageproc"
)

// Preprocess a region crop for CLIP: shortest side to 224 with bicubic
// resampling, a 224×224 center crop, then CLIP's normalisation.
func Example() {
	img, err := imageproc.DecodeFile("../testdata/images/img1.png", nil)
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
