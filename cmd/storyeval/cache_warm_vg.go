package main

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// rovistCrops are the regions file, crops folder and decoding of a warm.
type rovistCrops struct {
	regions, dir string
	decode       imageproc.DecodeOptions
}

// warmGrounding stores the RoViST-VG embeddings of the first regions of
// every image of the regions file; it returns the crops encoded and the
// number of images.
func warmGrounding(ctx context.Context, st *embcache.Store, checkpoint, vitDir string, crops rovistCrops) (int, int, error) {
	ckpt, vitDir, err := rovist.GroundingFiles(checkpoint, vitDir)
	if err != nil {
		return 0, 0, fmt.Errorf("-grounding-model: %w", err)
	}
	g, err := rovist.LoadGrounder(ckpt, rovist.GrounderFiles{ViT: vitDir, Regions: crops.regions, Crops: crops.dir, Decode: crops.decode}, nil)
	if err != nil {
		return 0, 0, err
	}
	defer g.Model.Close()
	id, err := rovist.GroundingCacheModel(st, ckpt, vitDir)
	if err != nil {
		return 0, 0, err
	}
	g.Cache, g.CacheModel = st, id
	var imgs []story.Image
	for _, im := range g.Regions.(rovist.CropFolder).Entities.ImageIDs() {
		imgs = append(imgs, story.Image{ID: im})
	}
	n, err := g.Warm(ctx, imgs, rovist.VGOptions{})
	return n, len(imgs), err
}
