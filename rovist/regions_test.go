package rovist

import (
	"bytes"
	"compress/gzip"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/story"
)

// countingSource counts the crops a run loads.
type countingSource struct {
	RegionSource
	loads *atomic.Int64
}

func (c countingSource) RegionCrops(img story.Image) ([]RegionCrop, error) {
	list, err := c.RegionSource.RegionCrops(img)
	for i := range list {
		load, loadPixels := list[i].Load, list[i].LoadPixels
		list[i].Load = func() (*imageproc.RGB, error) { c.loads.Add(1); return load() }
		if loadPixels != nil {
			list[i].LoadPixels = func(ctx context.Context, p *imageproc.Processor, b *imageproc.DecodeBudget) (imageproc.PixelValues, error) {
				c.loads.Add(1)
				return loadPixels(ctx, p, b)
			}
		}
	}
	return list, err
}

// TestGroundingCropsOnce checks that stories sharing images load each crop
// once and score as they do alone.
func TestGroundingCropsOnce(t *testing.T) {
	f := loadGroundingFixture(t)
	g := f.grounder(t, nil)
	st := f.stories.At(0)
	twin := st
	twin.ID = st.ID + "-twin"
	nouns := map[string][]string{st.ID: f.nouns[st.ID], twin.ID: f.nouns[st.ID]}
	var loads atomic.Int64
	cg := *g
	cg.Regions = countingSource{g.Regions, &loads}
	res, err := cg.Score(context.Background(), []story.Story{st, twin}, VGOptions{Nouns: nouns})
	if err != nil {
		t.Fatal(err)
	}
	distinct := 0
	for _, im := range st.Images {
		regs := g.Regions.(CropFolder).Entities.Regions(im.ID)
		distinct += len(regs)
	}
	if int(loads.Load()) != distinct {
		t.Errorf("%d crop loads for %d distinct crops", loads.Load(), distinct)
	}
	if res[0].Score != res[1].Score {
		t.Errorf("twin stories: %v and %v", res[0].Score, res[1].Score)
	}
}

// TestGroundingImageBoxes checks the whole-image source: each story image
// becomes one canvas holding its crops side by side, and boxes cut them out
// again, which must give the crop folder's scores exactly.
func TestGroundingImageBoxes(t *testing.T) {
	f := loadGroundingFixture(t)
	g := f.grounder(t, nil)
	folder := g.Regions.(CropFolder)
	st := f.stories.At(0)
	images := map[string]*imageproc.RGB{}
	boxed := st
	boxed.Images = nil
	for _, im := range st.Images {
		list, err := folder.RegionCrops(im)
		if err != nil {
			t.Fatal(err)
		}
		var crops []*imageproc.RGB
		w, h := 0, 0
		for _, c := range list {
			img, err := c.Load()
			if err != nil {
				t.Fatal(err)
			}
			crops = append(crops, img)
			w, h = w+img.Width, max(h, img.Height)
		}
		canvas, err := imageproc.NewRGB(w, h)
		if err != nil {
			t.Fatal(err)
		}
		x0 := 0
		var regions []story.Region
		for _, c := range crops {
			for y := range c.Height {
				copy(canvas.Pix[(y*w+x0)*3:(y*w+x0+c.Width)*3], c.Pix[y*c.Width*3:(y+1)*c.Width*3])
			}
			regions = append(regions, story.Region{Box: [4]float64{float64(x0), 0, float64(x0 + c.Width), float64(c.Height)}})
			x0 += c.Width
		}
		images[im.ID] = canvas
		boxed.Images = append(boxed.Images, story.Image{ID: im.ID, Regions: regions})
	}
	opts := VGOptions{Nouns: f.nouns}
	want, err := g.Score(context.Background(), []story.Story{st}, opts)
	if err != nil {
		t.Fatal(err)
	}
	bg := *g
	bg.Regions = ImageBoxes{Images: images}
	got, err := bg.Score(context.Background(), []story.Story{boxed}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Score != want[0].Score || len(got[0].Nouns) != len(want[0].Nouns) {
		t.Fatalf("image boxes: %v, crop folder: %v", got[0].Score, want[0].Score)
	}
	for n := range got[0].Nouns {
		if got[0].Nouns[n].Recall != want[0].Nouns[n].Recall {
			t.Errorf("noun %d: recall %v, crop folder %v", n, got[0].Nouns[n].Recall, want[0].Nouns[n].Recall)
		}
	}
	// The same canvases as PNG files, decoded per region within a budget
	// smaller than one canvas (so every decode runs alone), score the same.
	filed := boxed
	filed.Images = nil
	dir := t.TempDir()
	budget := int64(1 << 62)
	for _, im := range boxed.Images {
		c := images[im.ID]
		path := filepath.Join(dir, im.ID+".png")
		writePNG(t, path, c)
		budget = min(budget, 4*int64(c.Width)*int64(c.Height))
		im.Path = path
		filed.Images = append(filed.Images, im)
	}
	var loads atomic.Int64
	bg.Regions = countingSource{ImageBoxes{Decode: imageproc.DecodeOptions{Budget: imageproc.NewDecodeBudget(budget)}}, &loads}
	fromFiles, err := bg.Score(context.Background(), []story.Story{filed}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if fromFiles[0].Score != want[0].Score {
		t.Errorf("image files: %v, crop folder: %v", fromFiles[0].Score, want[0].Score)
	}
	if loads.Load() == 0 {
		t.Error("no region of the image files was loaded")
	}
	// No image and no path is an error naming the image.
	bg.Regions = ImageBoxes{}
	_, err = bg.Score(context.Background(), []story.Story{boxed}, opts)
	wantErr(t, err, boxed.Images[0].ID)
}

// writePNG writes img to path as an 8-bit RGB PNG.
func writePNG(t *testing.T, path string, img *imageproc.RGB) {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, img.Width, img.Height))
	for i := range img.Width * img.Height {
		copy(m.Pix[4*i:4*i+3], img.Pix[3*i:3*i+3])
		m.Pix[4*i+3] = 255
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadGloVeGzip reads the fixture GloVe file gzipped and plain.
func TestLoadGloVeGzip(t *testing.T) {
	f := loadGroundingFixture(t)
	plain, err := LoadGloVe(f.glove, nil, GloVeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(f.glove)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	gz, err := ReadGloVe(&buf, "glove.txt.gz", nil, GloVeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if gz.Len() != plain.Len() || gz.Dim() != plain.Dim() || plain.Len() < 2 {
		t.Fatalf("gzip: %d×%d, plain %d×%d", gz.Len(), gz.Dim(), plain.Len(), plain.Dim())
	}
	for w, v := range plain.vecs {
		u, ok := gz.Vector(w)
		if !ok || u[0] != v[0] || u[len(u)-1] != v[len(v)-1] {
			t.Errorf("%q differs", w)
		}
	}
}
