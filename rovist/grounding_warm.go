package rovist

import (
	"context"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/story"
)

// WarmGroundingCache stores in st the RoViST-VG crop embeddings of every
// image of a regions file, what `storyeval cache warm -grounding-model`
// does: it loads the model of checkpoint (resolved as LoadGrounder does) with f (f.Regions and f.Crops
// are required, as the images are those of the regions file), keys the
// entries by GroundingCacheModel and runs Grounder.Warm over the images.
// It returns the crops encoded and the number of images.
func WarmGroundingCache(ctx context.Context, st *embcache.Store, checkpoint string, f GrounderFiles, opts VGOptions) (crops, images int, err error) {
	checkpoint, f.ViT, err = GroundingFiles(checkpoint, f.ViT)
	if err != nil {
		return 0, 0, err
	}
	g, err := LoadGrounder(checkpoint, f, nil)
	if err != nil {
		return 0, 0, err
	}
	defer g.Model.Close()
	if g.CacheModel, err = GroundingCacheModel(st, checkpoint, f.ViT); err != nil {
		return 0, 0, err
	}
	g.Cache = st
	var imgs []story.Image
	if folder, ok := g.Regions.(CropFolder); ok {
		for _, im := range folder.Entities.ImageIDs() {
			imgs = append(imgs, story.Image{ID: im})
		}
	}
	n, err := g.Warm(ctx, imgs, opts)
	return n, len(imgs), err
}
