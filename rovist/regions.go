package rovist

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/errtext"
	"github.com/storyeval/storyeval/story"
)

// DefaultEntitiesMaxBytes bounds an entities CSV (VIST's vist_entities.csv
// is about 60 MB).
const DefaultEntitiesMaxBytes = 1 << 30

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

// Entities is RoViST's regions file (vist_entities.csv): for each image
// id, its regions in the order of the file's rows.
type Entities struct {
	byImage map[int64][]story.Region
	rows    int
}

// ReadEntitiesCSV reads a regions CSV with (at least) the columns image_id
// and bbox, as usydnlp/rovist's vist_entities.csv.
func ReadEntitiesCSV(path string) (*Entities, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("rovist: regions: %w", err)
	}
	defer f.Close()
	return DecodeEntitiesCSV(f, path)
}

// DecodeEntitiesCSV reads a regions CSV from r; name labels errors.
//
// Matches the reference implementation (usydnlp/rovist
// scripts/visual_grounding_scorer.py compute_sim, which reads the file with
// pandas and selects rows with df["image_id"] == int(image_id)): image ids
// are integers compared by value, the rows of an image keep their file order
// even when interleaved with other images' rows, and bbox is kept as the
// exact text of the field, which names the crop file. Other columns are
// ignored. A bbox of the form "[x0, y0, x1, y1]" also fills Region.Box.
func DecodeEntitiesCSV(r io.Reader, name string) (*Entities, error) {
	lr := &io.LimitedReader{R: r, N: DefaultEntitiesMaxBytes + 1}
	cr := csv.NewReader(lr)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("rovist: regions %s: empty file", name)
		}
		return nil, fmt.Errorf("rovist: regions %s: %w", name, err)
	}
	idCol, boxCol := -1, -1
	for i, h := range header {
		switch strings.TrimPrefix(h, "\ufeff") {
		case "image_id":
			idCol = i
		case "bbox":
			boxCol = i
		}
	}
	if idCol < 0 || boxCol < 0 {
		return nil, fmt.Errorf("rovist: regions %s: the header (%s) lacks image_id or bbox", name, errtext.QuoteList(header))
	}
	e := &Entities{byImage: map[int64][]story.Region{}}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("rovist: regions %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return nil, fmt.Errorf("rovist: regions %s line %d: %d fields, the header has %d", name, line, len(rec), len(header))
		}
		id, err := parseImageID(rec[idCol])
		if err != nil {
			return nil, fmt.Errorf("rovist: regions %s line %d: %w", name, line, err)
		}
		label := rec[boxCol]
		if label == "" {
			return nil, fmt.Errorf("rovist: regions %s line %d: empty bbox", name, line)
		}
		if strings.ContainsAny(label, "/\\\x00") {
			return nil, fmt.Errorf("rovist: regions %s line %d: bbox %s cannot name a crop file", name, line, errtext.Quote(label))
		}
		reg := story.Region{Label: label}
		if box, ok := parseBBox(label); ok {
			reg.Box = box
		}
		e.byImage[id] = append(e.byImage[id], reg)
		e.rows++
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("rovist: regions %s: more than %d bytes", name, DefaultEntitiesMaxBytes)
	}
	return e, nil
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

// parseBBox reads "[x0, y0, x1, y1]".
func parseBBox(s string) ([4]float64, bool) {
	var box [4]float64
	inner, ok := strings.CutPrefix(strings.TrimSpace(s), "[")
	if !ok {
		return box, false
	}
	inner, ok = strings.CutSuffix(inner, "]")
	if !ok {
		return box, false
	}
	parts := strings.Split(inner, ",")
	if len(parts) != 4 {
		return box, false
	}
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return box, false
		}
		box[i] = v
	}
	return box, true
}

// Rows returns the number of regions read.
func (e *Entities) Rows() int { return e.rows }

// Regions returns the regions of an image in file order (nil when the file
// lists none).
func (e *Entities) Regions(imageID string) ([]story.Region, error) {
	id, err := parseImageID(imageID)
	if err != nil {
		return nil, err
	}
	return e.byImage[id], nil
}

// CropFolder is RoViST's released region layout: the regions file and a
// folder of crops named "{image_id}_{bbox}.jpg" (vist-entities/).
type CropFolder struct {
	Entities *Entities
	Dir      string
	// Decode bounds and configures JPEG decoding; the zero value decodes
	// as Pillow (libjpeg) does.
	Decode imageproc.DecodeOptions
}

// CropPath returns the file of a region: Dir/{image_id}_{bbox}.jpg with the
// image id in canonical decimal form (the reference's str(int(id))) and the
// bbox text exactly as in the regions file.
func (c CropFolder) CropPath(imageID int64, r story.Region) string {
	return filepath.Join(c.Dir, strconv.FormatInt(imageID, 10)+"_"+r.Label+".jpg")
}

// RegionCrops implements RegionSource: the image's rows of the regions
// file, in order, each read from its crop file.
func (c CropFolder) RegionCrops(img story.Image) ([]RegionCrop, error) {
	if c.Entities == nil {
		return nil, fmt.Errorf("rovist: crop folder without a regions file")
	}
	id, err := parseImageID(img.ID)
	if err != nil {
		return nil, err
	}
	regs := c.Entities.byImage[id]
	out := make([]RegionCrop, len(regs))
	for i, r := range regs {
		path := c.CropPath(id, r)
		opts := c.Decode
		out[i] = RegionCrop{Key: "file:" + path, Label: r.Label, Load: func() (*imageproc.RGB, error) {
			return imageproc.DecodeFile(path, opts)
		}, LoadPixels: func(ctx context.Context, p *imageproc.Processor, budget *imageproc.DecodeBudget) (imageproc.PixelValues, error) {
			o := opts
			if o.Budget == nil {
				o.Budget = budget
			}
			return p.PreprocessFile(ctx, path, o)
		}, Identity: identityOf(fileDigest(path), embcache.DecodeRegion(opts, nil))}
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
