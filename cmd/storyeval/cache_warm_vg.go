package main

import (
	"context"
	"path/filepath"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/regions"
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
	ckpt, err := checkpointFile("-grounding-model", checkpoint)
	if err != nil {
		return 0, 0, err
	}
	if vitDir == "" {
		vitDir = filepath.Join(filepath.Dir(ckpt), "vit-base-patch16-224-in21k")
	}
	m, err := rovist.LoadGroundingModel(ckpt, vitDir)
	if err != nil {
		return 0, 0, err
	}
	ent, err := regions.Load(crops.regions, regions.Options{IDs: regions.IntegerIDs})
	if err != nil {
		return 0, 0, err
	}
	id, err := rovist.GroundingCacheModel(st, ckpt, vitDir)
	if err != nil {
		return 0, 0, err
	}
	g := &rovist.Grounder{Model: m, Regions: rovist.CropFolder{Entities: ent, Dir: crops.dir, Decode: crops.decode}, Cache: st, CacheModel: id}
	var imgs []story.Image
	for _, im := range ent.ImageIDs() {
		imgs = append(imgs, story.Image{ID: im})
	}
	n, err := g.Warm(ctx, imgs, rovist.VGOptions{})
	return n, len(imgs), err
}
