package groovist

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/dense"
	"github.com/storyeval/storyeval/internal/parallel"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
	"gorgonia.org/tensor"
)

// textSet holds the distinct phrases of a run and their embeddings.
type textSet struct {
	index map[string]int
	list  []string
	emb   [][]float32
}

func newTextSet() *textSet { return &textSet{index: map[string]int{}} }

func (t *textSet) add(s string) {
	if _, ok := t.index[s]; !ok {
		t.index[s] = len(t.list)
		t.list = append(t.list, s)
	}
}

func (t *textSet) embed(ctx context.Context, enc encoders.TextEncoder, progress func(int)) error {
	t.emb = make([][]float32, len(t.list))
	for lo := 0; lo < len(t.list); lo += textBatch {
		hi := min(lo+textBatch, len(t.list))
		out, err := enc.EmbedTexts(ctx, t.list[lo:hi])
		if err != nil {
			return fmt.Errorf("embedding phrases: %w", err)
		}
		rows, err := splitRows(out, hi-lo)
		if err != nil {
			return fmt.Errorf("text encoder: %w", err)
		}
		copy(t.emb[lo:hi], rows)
		progress(hi)
	}
	return nil
}

// splitRows returns the rows of an [n, d] float32 tensor.
func splitRows(x *tensor.Dense, n int) ([][]float32, error) {
	shape := x.Shape()
	data, ok := dense.Data(x).([]float32)
	if !ok || len(shape) != 2 || shape[0] != n {
		return nil, fmt.Errorf("got shape %v, want [%d, d] float32", shape, n)
	}
	d := shape[1]
	rows := make([][]float32, n)
	for i := range rows {
		rows[i] = data[i*d : (i+1)*d : (i+1)*d]
	}
	return rows, nil
}

// imagePlan is one story image: which unit of crops it uses.
type imagePlan struct {
	id      string
	regions int
	key     string
	crops   []cropSpec // the first RegionsPerImage regions
	path    string     // whole image to crop from, without entities
	err     error      // known before loading (no region)
	unit    int
}

// cropSpec is one region: a crop file, or a box of the image at path.
type cropSpec struct {
	file string
	box  imageproc.Box
}

// imagePlan lists an image's regions: the first RegionsPerImage rows of the
// entities file (taken before loading anything, as the reference slices
// the DataFrame), or of the image's own Regions.
func (s *Scorer) imagePlan(img story.Image) (imagePlan, error) {
	if s.Entities != nil {
		id := img.ID
		rows := s.Entities.Regions(id)
		ip := imagePlan{id: id, regions: len(rows), key: "entities\x00" + id}
		if len(rows) == 0 {
			ip.err = fmt.Errorf("image %q: %w in the entities file", id, errNoRegions)
		}
		for _, r := range rows[:min(len(rows), RegionsPerImage)] {
			ip.crops = append(ip.crops, cropSpec{file: regions.CropPath(s.CropsDir, r.ImageID, r.BBox)})
		}
		return ip, nil
	}
	if img.Path == "" {
		return imagePlan{}, fmt.Errorf("image %q: no entities file and no image path", img.ID)
	}
	ip := imagePlan{id: img.ID, regions: len(img.Regions), path: img.Path, key: "image\x00" + img.Path}
	if len(img.Regions) == 0 {
		ip.err = fmt.Errorf("image %q: %w", img.ID, errNoRegions)
	}
	for _, r := range img.Regions[:min(len(img.Regions), RegionsPerImage)] {
		b := imageproc.Box{Left: r.Box[0], Top: r.Box[1], Right: r.Box[2], Bottom: r.Box[3]}
		ip.crops = append(ip.crops, cropSpec{box: b})
		ip.key += "\x00" + strconv.FormatFloat(b.Left, 'g', -1, 64) + "," + strconv.FormatFloat(b.Top, 'g', -1, 64) +
			"," + strconv.FormatFloat(b.Right, 'g', -1, 64) + "," + strconv.FormatFloat(b.Bottom, 'g', -1, 64)
	}
	return ip, nil
}

// cropUnit is one distinct image's crops and their embeddings.
type cropUnit struct {
	plan imagePlan
	keys []cropSpec
	embs [][]float32
	err  error
	// cached is set when every embedding came from Scorer.Cache.
	cached bool
}

// cropSet holds the distinct images of a run.
type cropSet struct {
	index map[string]int
	units []cropUnit
}

func newCropSet() *cropSet { return &cropSet{index: map[string]int{}} }

func (c *cropSet) add(ip imagePlan) int {
	if i, ok := c.index[ip.key]; ok {
		return i
	}
	c.index[ip.key] = len(c.units)
	c.units = append(c.units, cropUnit{plan: ip, keys: ip.crops, err: ip.err})
	return len(c.units) - 1
}

func (c *cropSet) crops() int {
	n := 0
	for _, u := range c.units {
		if u.err == nil && !u.cached {
			n += len(u.keys)
		}
	}
	return n
}

// embed preprocesses (in parallel) and embeds the crops of every unit,
// about imageBatch crops per forward pass. A unit whose crops cannot all be
// loaded keeps its error and no embedding.
func (c *cropSet) embed(ctx context.Context, s *Scorer, done int, progress func(int)) error {
	if s.Entities != nil {
		st, err := os.Stat(s.CropsDir)
		if err != nil {
			return fmt.Errorf("crops folder: %w", err)
		}
		if !st.IsDir() {
			return fmt.Errorf("crops folder %s is not a directory", s.CropsDir)
		}
	}
	opts := withBudget(s.Decode)
	for lo := 0; lo < len(c.units); {
		hi, n := lo, 0
		for hi < len(c.units) && (n == 0 || n+len(c.units[hi].keys) <= imageBatch) {
			if c.units[hi].err == nil {
				n += len(c.units[hi].keys)
			}
			hi++
		}
		pixels := make([][]imageproc.PixelValues, hi-lo)
		_ = parallel.Each(hi-lo, 1, func(i int) error {
			u := &c.units[lo+i]
			if u.err != nil {
				return nil
			}
			pixels[i], u.err = s.loadCrops(ctx, u.plan, opts)
			return nil
		})
		if err := ctx.Err(); err != nil {
			return err
		}
		var batch []imageproc.PixelValues
		for i := range pixels {
			if c.units[lo+i].err == nil {
				batch = append(batch, pixels[i]...)
			}
		}
		if len(batch) > 0 {
			out, err := s.Images.EmbedImages(ctx, batch)
			if err != nil {
				return fmt.Errorf("embedding crops: %w", err)
			}
			rows, err := splitRows(out, len(batch))
			if err != nil {
				return fmt.Errorf("image encoder: %w", err)
			}
			k := 0
			for i := range pixels {
				u := &c.units[lo+i]
				if u.err == nil {
					u.embs = rows[k : k+len(pixels[i])]
					k += len(pixels[i])
				}
			}
			done += len(batch)
			progress(done)
		}
		lo = hi
	}
	return nil
}

// loadCrops decodes and preprocesses an image's crops within the decode
// budget of opts. Matches the reference implementation, which opens each
// crop, converts it to RGB and runs clip's preprocess; any failure fails
// the whole image.
func (s *Scorer) loadCrops(ctx context.Context, ip imagePlan, opts imageproc.DecodeOptions) ([]imageproc.PixelValues, error) {
	if ip.path != "" {
		boxes := make([]imageproc.Box, len(ip.crops))
		for i, c := range ip.crops {
			boxes[i] = c.box
		}
		return s.Processor.PreprocessFileRegions(ctx, ip.path, boxes, opts)
	}
	out := make([]imageproc.PixelValues, len(ip.crops))
	for i, c := range ip.crops {
		var err error
		if out[i], err = s.Processor.PreprocessFile(ctx, c.file, opts); err != nil {
			return nil, regions.CropError(ip.id, c.file, err)
		}
	}
	return out, nil
}
