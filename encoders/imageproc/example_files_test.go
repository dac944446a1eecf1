package imageproc_test

import (
	"fmt"
	"log"

	"github.com/storyeval/storyeval/encoders/imageproc"
)

// Preprocess two image files for CLIP as one batch and summarize them, as
// `storyeval imageproc` does.
func ExampleProcessor_PreprocessFiles() {
	cfg, err := imageproc.DefaultConfig(imageproc.CLIP)
	if err != nil {
		log.Fatal(err)
	}
	p, err := imageproc.NewProcessor(cfg)
	if err != nil {
		log.Fatal(err)
	}
	dir := "../../testdata/encoders/fixtures/images/"
	b, err := p.PreprocessFiles([]string{dir + "img0.png", dir + "img1.png"}, imageproc.FilesOptions{KeepValues: true})
	if err != nil {
		log.Fatal(err)
	}
	for _, im := range b.Images {
		fmt.Printf("%dx%d -> %v\n", im.Width, im.Height, im.Shape)
	}
	fmt.Println(b.Processor, len(b.Values))
	// Output:
	// 300x200 -> [3 224 224]
	// 157x321 -> [3 224 224]
	// CLIPImageProcessor 301056
}
