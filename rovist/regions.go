package rovist

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/errtext"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
)

// RegionCrop is one region of an image, ready to be loaded.
type RegionCrop struct {
	// Key identifies the crop across the stories of a run (e.g. its file
	// path): a crop is decoded and encoded once however many stories show
	// its image.
	Key string
	// Label describes the region (the bbox text of the regions file).
	Label string
	// Load decodes the crop to RGB.
	Load func() (*imageproc.RGB, error)
	// Identity, when set, returns what the crop's pixels depend on: the
	// digest of the bytes they come from and how they are taken (box,
	// decoding options). Grounder.Cache keys on it; a crop without one is
	// always encoded.
	Identity func() (source embcache.Digest, region string, err error)
	// LoadPixels, when set, is used by the Grounder instead of Load: it
	// decodes the crop and preprocesses it with p, holding the decoded
	// image's cost of budget (when its own decode options have no budget)
	// only until the pixel values are made (see imageproc.DecodeBudget).
	LoadPixels func(ctx context.Context, p *imageproc.Processor, budget *imageproc.DecodeBudget) (imageproc.PixelValues, error)
}

// RegionSource lists the region crops of a story image, in the order the
// grounding score sees them. Implementations must be safe for concurrent
// use.
type RegionSource interface {
	RegionCrops(img story.Image) ([]RegionCrop, error)
}

// parseImageID reads an image id as Python's int(str) does for decimal
// digits with optional sign and surrounding white space.
func parseImageID(s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("image id %s is not an integer", errtext.Quote(s))
	}
	return id, nil
}

// CropFolder is RoViST's released region layout: the regions file and a
// folder of crops named "{image_id}_{bbox}.jpg" (vist-entities/).
type CropFolder struct {
	// Entities is the regions file, read with regions.IntegerIDs as RoViST
	// does (regions.Load).
	Entities *regions.Entities
	Dir      string
	// Decode bounds and configures JPEG decoding; the zero value decodes
	// as Pillow (libjpeg) does.
	Decode imageproc.DecodeOptions
}

// CropPath returns the file of a region: Dir/{image_id}_{bbox}.jpg with the
// image id in canonical decimal form (the reference's str(int(id))) and the
// bbox text exactly as in the regions file.
func (c CropFolder) CropPath(imageID int64, r story.Region) string {
	return regions.CropPath(c.Dir, strconv.FormatInt(imageID, 10), r.Label)
}

// RegionCrops implements RegionSource: the image's rows of the regions
// file, in order, each read from its crop file.
func (c CropFolder) RegionCrops(img story.Image) ([]RegionCrop, error) {
	if c.Entities == nil {
		return nil, fmt.Errorf("crop folder without a regions file")
	}
	id, err := parseImageID(img.ID)
	if err != nil {
		return nil, err
	}
	regs := c.Entities.Regions(strconv.FormatInt(id, 10))
	out := make([]RegionCrop, len(regs))
	for i, reg := range regs {
		r := story.Region{Label: reg.BBox, Box: reg.Box}
		path := c.CropPath(id, r)
		opts := c.Decode
		// A crop file that is not there is a *regions.MissingCropError.
		digest := fileDigest(path)
		out[i] = RegionCrop{Key: "file:" + path, Label: r.Label, Load: func() (*imageproc.RGB, error) {
			rgb, err := imageproc.DecodeFile(path, opts)
			return rgb, regions.CropError(img.ID, path, err)
		}, LoadPixels: func(ctx context.Context, p *imageproc.Processor, budget *imageproc.DecodeBudget) (imageproc.PixelValues, error) {
			o := opts
			if o.Budget == nil {
				o.Budget = budget
			}
			px, err := p.PreprocessFile(ctx, path, o)
			return px, regions.CropError(img.ID, path, err)
		}, Identity: identityOf(func() (embcache.Digest, error) {
			d, err := digest()
			return d, regions.CropError(img.ID, path, err)
		}, embcache.DecodeRegion(opts, nil))}
	}
	return out, nil
}

// ImageBoxes crops regions out of whole images: each story image's
// Regions (story.Image.Regions, boxes in pixels) cut from the decoded image
// of Images[image id], or from the file at story.Image.Path when Images
// has none. Crops follow PIL's Image.crop (imageproc.Crop).
//
// An image file is decoded for each of its regions, within the decode
// budget (Decode.Budget, else the Grounder's VGOptions.Budget), and
// dropped once the region's pixel values are made: no decoded image
// outlives its crop, so a run holds no more images at once than the
// budget allows, whatever the number of images (decoding the file once
// for all its regions would keep it alive until the last of them, which
// the Grounder may reach batches later).
type ImageBoxes struct {
	Images map[string]*imageproc.RGB
	Decode imageproc.DecodeOptions
}

// RegionCrops implements RegionSource.
func (b ImageBoxes) RegionCrops(img story.Image) ([]RegionCrop, error) {
	src, ok := b.Images[img.ID]
	var key string
	var digest func() (embcache.Digest, error)
	switch {
	case ok && src != nil:
		key = "image:" + img.ID
		digest = pixelsDigest(src)
	case img.Path != "":
		key = "file:" + img.Path
		digest = fileDigest(img.Path)
	default:
		return nil, fmt.Errorf("image %q: no decoded image and no path", img.ID)
	}
	out := make([]RegionCrop, len(img.Regions))
	for i, r := range img.Regions {
		box := imageproc.Box{Left: r.Box[0], Top: r.Box[1], Right: r.Box[2], Bottom: r.Box[3]}
		out[i] = RegionCrop{Key: fmt.Sprintf("%s#%v", key, r.Box), Label: r.Label, Identity: identityOf(digest, embcache.DecodeRegion(b.Decode, &box))}
		if src != nil {
			out[i].Load = func() (*imageproc.RGB, error) { return imageproc.Crop(src, box) }
			continue
		}
		out[i].Load, out[i].LoadPixels = b.fileCrop(img.Path, box)
	}
	return out, nil
}

// fileCrop returns the loaders of the crop box of the image file at path:
// Load decodes the file whole (for callers without a Processor), LoadPixels
// decodes and preprocesses it within the budget.
func (b ImageBoxes) fileCrop(path string, box imageproc.Box) (func() (*imageproc.RGB, error), func(context.Context, *imageproc.Processor, *imageproc.DecodeBudget) (imageproc.PixelValues, error)) {
	opts := b.Decode
	load := func() (*imageproc.RGB, error) {
		im, err := imageproc.DecodeFile(path, opts)
		if err != nil {
			return nil, err
		}
		return imageproc.Crop(im, box)
	}
	loadPixels := func(ctx context.Context, p *imageproc.Processor, budget *imageproc.DecodeBudget) (imageproc.PixelValues, error) {
		o := opts
		if o.Budget == nil {
			o.Budget = budget
		}
		px, err := p.PreprocessFileRegions(ctx, path, []imageproc.Box{box}, o)
		if err != nil {
			return imageproc.PixelValues{}, err
		}
		return px[0], nil
	}
	return load, loadPixels
}
